-- Worked examples from lectures 2-4 (library schema). Each is numbered as on the slides.
SET search_path TO library;

-- Q2.1  Members who joined in 2024, newest first.
SELECT member_id, full_name, joined_on
FROM member
WHERE joined_on >= DATE '2024-01-01' AND joined_on < DATE '2025-01-01'
ORDER BY joined_on DESC;

-- Q2.2  Titles by P. Harlow (note: no wildcard needed, exact match).
SELECT title, published_year FROM book WHERE author = 'P. Harlow';

-- Q3.1  Every loan with the member's name and the book title (two inner joins through copy).
SELECT l.loan_id, m.full_name, b.title, l.borrowed_on
FROM loan l
JOIN member m ON m.member_id = l.member_id
JOIN copy c   ON c.copy_id   = l.copy_id
JOIN book b   ON b.isbn      = c.isbn;

-- Q3.2  Members who have never borrowed anything: LEFT JOIN and test for NULL.
--       (The NOT IN version breaks if the subquery ever returns a NULL member_id.)
SELECT m.member_id, m.full_name
FROM member m
LEFT JOIN loan l ON l.member_id = m.member_id
WHERE l.loan_id IS NULL;

-- Q4.1  Number of loans per member type.
SELECT m.member_type, COUNT(*) AS loans
FROM loan l JOIN member m ON m.member_id = l.member_id
GROUP BY m.member_type;

-- Q4.2  Branches with more than 3 loans (HAVING filters groups, WHERE filters rows).
SELECT b.name, COUNT(*) AS loans
FROM loan l
JOIN copy c   ON c.copy_id = l.copy_id
JOIN branch b ON b.branch_id = c.branch_id
GROUP BY b.name
HAVING COUNT(*) > 3;

-- Q4.3  Average days late for returned loans that came back late, per member type.
SELECT m.member_type, ROUND(AVG(l.returned_on - l.due_on), 1) AS avg_days_late
FROM loan l JOIN member m ON m.member_id = l.member_id
WHERE l.returned_on > l.due_on
GROUP BY m.member_type;

-- Q4.4  The most borrowed book(s), ties included (window function preview for week 9).
SELECT title, loans FROM (
    SELECT b.title, COUNT(*) AS loans, RANK() OVER (ORDER BY COUNT(*) DESC) AS r
    FROM loan l JOIN copy c ON c.copy_id = l.copy_id JOIN book b ON b.isbn = c.isbn
    GROUP BY b.title
) t WHERE r = 1;
