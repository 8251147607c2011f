-- Small seed for the labs: 4 branches, 12 members, 10 books, 16 copies, 20 loans, 3 fines.
-- The CW1 autograder uses a larger generated seed (autograder/config.toml, [database]).
SET search_path TO library;

INSERT INTO branch (branch_id, name, postcode, opened_on) VALUES
  (1, 'Central',      'HF1 2AB', '1968-04-01'),
  (2, 'Mill Lane',    'HF3 7QD', '1994-09-12'),
  (3, 'Eastgate',     'HF5 1LN', '2003-02-03'),
  (4, 'Harbour Road', 'HF9 4TT', '2019-06-17');

INSERT INTO member (member_id, full_name, email, member_type, joined_on, home_branch) VALUES
  (1001, 'Ada Brennan',     'ada.b@example.org',    'public',  '2015-03-02', 1),
  (1002, 'Kwame Osei',      'k.osei@example.org',   'student', '2023-09-20', 2),
  (1003, 'Lucia Ferreira',  'lucia.f@example.org',  'staff',   '2011-01-10', 1),
  (1004, 'Ivan Petrov',     NULL,                   'public',  '2020-07-07', 3),
  (1005, 'Mei Tanaka',      'mei.t@example.org',    'student', '2024-09-23', 2),
  (1006, 'Rhys Morgan',     'rhys.m@example.org',   'public',  '2018-11-30', 4),
  (1007, 'Fatima Haddad',   'f.haddad@example.org', 'student', '2024-10-01', 1),
  (1008, 'Oskar Lind',      'oskar.l@example.org',  'staff',   '2009-05-14', 3),
  (1009, 'Grace Achterberg','grace.a@example.org',  'public',  '2022-02-22', 4),
  (1010, 'Tunde Bakare',    't.bakare@example.org', 'student', '2023-09-25', 2),
  (1011, 'Nora Quist',      NULL,                   'public',  '2016-08-08', 1),
  (1012, 'Sam Oduya',       'sam.o@example.org',    'student', '2025-01-13', 3);

INSERT INTO book (isbn, title, author, published_year, genre) VALUES
  ('9780000000011', 'The Salt Road',             'H. Amadi',      2012, 'fiction'),
  ('9780000000028', 'Counting Rivers',           'L. Okafor',     2019, 'non-fiction'),
  ('9780000000035', 'A Short Life of Tables',    'M. Duval',      2008, 'non-fiction'),
  ('9780000000042', 'Winter at Eastgate',        'P. Harlow',     2021, 'fiction'),
  ('9780000000059', 'Gardens of Hollinsford',    'R. Singh',      1999, 'local history'),
  ('9780000000066', 'Nine Small Proofs',         'A. Kowalski',   2016, 'non-fiction'),
  ('9780000000073', 'The Lighthouse Ledger',     'J. Byrne',      2023, 'fiction'),
  ('9780000000080', 'Cooking for One Hundred',   'T. Nakamura',   2005, 'cookery'),
  ('9780000000097', 'Harbour Lights',            'P. Harlow',     2017, 'fiction'),
  ('9780000000103', 'Mill Lane: A History',      'R. Singh',      2010, 'local history');

INSERT INTO copy (copy_id, isbn, branch_id, acquired_on, withdrawn) VALUES
  (1, '9780000000011', 1, '2013-01-05', FALSE), (2, '9780000000011', 2, '2013-01-05', FALSE),
  (3, '9780000000028', 1, '2019-10-01', FALSE), (4, '9780000000035', 3, '2009-03-12', TRUE),
  (5, '9780000000042', 3, '2021-11-20', FALSE), (6, '9780000000042', 4, '2021-11-20', FALSE),
  (7, '9780000000059', 2, '2000-05-05', FALSE), (8, '9780000000066', 1, '2016-06-30', FALSE),
  (9, '9780000000073', 4, '2023-08-14', FALSE), (10, '9780000000073', 1, '2023-08-14', FALSE),
  (11, '9780000000080', 2, '2006-02-01', FALSE), (12, '9780000000097', 4, '2017-09-09', FALSE),
  (13, '9780000000103', 2, '2010-12-01', FALSE), (14, '9780000000103', 1, '2011-01-15', FALSE),
  (15, '9780000000028', 3, '2020-02-02', FALSE), (16, '9780000000066', 4, '2019-04-04', FALSE);

INSERT INTO loan (loan_id, copy_id, member_id, borrowed_on, due_on, returned_on) VALUES
  (1, 1, 1001, '2025-01-06', '2025-01-27', '2025-01-20'),
  (2, 3, 1002, '2025-01-08', '2025-01-29', '2025-02-10'),
  (3, 5, 1004, '2025-01-09', '2025-01-30', '2025-01-29'),
  (4, 7, 1005, '2025-01-15', '2025-02-05', NULL),
  (5, 8, 1003, '2025-01-20', '2025-02-10', '2025-02-01'),
  (6, 9, 1006, '2025-01-22', '2025-02-12', '2025-02-11'),
  (7, 2, 1010, '2025-02-01', '2025-02-22', '2025-03-15'),
  (8, 12, 1009, '2025-02-03', '2025-02-24', '2025-02-20'),
  (9, 13, 1002, '2025-02-05', '2025-02-26', '2025-02-25'),
  (10, 10, 1007, '2025-02-10', '2025-03-03', NULL),
  (11, 14, 1011, '2025-02-12', '2025-03-05', '2025-03-01'),
  (12, 6, 1006, '2025-02-15', '2025-03-08', '2025-03-07'),
  (13, 11, 1008, '2025-02-20', '2025-03-13', '2025-03-30'),
  (14, 15, 1012, '2025-03-01', '2025-03-22', NULL),
  (15, 16, 1009, '2025-03-03', '2025-03-24', '2025-03-20'),
  (16, 1, 1005, '2025-03-05', '2025-03-26', '2025-03-25'),
  (17, 3, 1001, '2025-03-10', '2025-03-31', '2025-03-28'),
  (18, 8, 1010, '2025-03-12', '2025-04-02', NULL),
  (19, 5, 1003, '2025-03-15', '2025-04-05', '2025-04-01'),
  (20, 12, 1004, '2025-03-20', '2025-04-10', '2025-04-09');

INSERT INTO fine (fine_id, loan_id, amount_pence, paid_on) VALUES
  (1, 2, 300, '2025-02-10'),
  (2, 7, 525, NULL),
  (3, 13, 425, '2025-04-02');
