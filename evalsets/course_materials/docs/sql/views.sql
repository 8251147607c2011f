-- Views used in lectures 3 and 4 and in lab 2. Run after schema.sql.
SET search_path TO library;

-- Loans that are past their due date and not yet returned, as of today.
-- Fines accrue at 25 pence per day overdue, capped at 1000 pence (GBP 10) per loan.
CREATE OR REPLACE VIEW overdue_loan AS
SELECT l.loan_id,
       l.member_id,
       l.copy_id,
       l.due_on,
       CURRENT_DATE - l.due_on                     AS days_overdue,
       LEAST((CURRENT_DATE - l.due_on) * 25, 1000) AS fine_due_pence
FROM loan l
WHERE l.returned_on IS NULL
  AND l.due_on < CURRENT_DATE;

-- Copies currently available to borrow at each branch.
CREATE OR REPLACE VIEW available_copy AS
SELECT c.copy_id, c.isbn, c.branch_id
FROM copy c
WHERE NOT c.withdrawn
  AND NOT EXISTS (
        SELECT 1 FROM loan l
        WHERE l.copy_id = c.copy_id AND l.returned_on IS NULL);

-- Per-branch loan counts for the aggregation lecture.
CREATE OR REPLACE VIEW branch_loan_stats AS
SELECT b.name          AS branch,
       COUNT(l.loan_id) AS loans,
       COUNT(*) FILTER (WHERE l.returned_on IS NULL) AS still_out
FROM branch b
LEFT JOIN copy c ON c.branch_id = b.branch_id
LEFT JOIN loan l ON l.copy_id = c.copy_id
GROUP BY b.name;
