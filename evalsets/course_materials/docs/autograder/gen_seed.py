"""Generate the large CW1 seed for the library schema. Called by the autograder when it builds the
test database; the size and random state come from config.toml ([database])."""

from __future__ import annotations

import random
from datetime import date, timedelta

N_BRANCHES = 9
N_MEMBERS = 3200
N_BOOKS = 1800
COPIES_PER_BOOK = (1, 4)        # inclusive range
LOAN_PERIOD_DAYS = 21           # same rule as the lab seed: due_on = borrowed_on + 21 days
FINE_PENCE_PER_DAY = 25         # matches the overdue_loan view
START = date(2023, 1, 1)
END = date(2025, 12, 31)
P_STILL_OUT = 0.04              # share of loans with returned_on NULL
P_LATE = 0.18                   # share of returned loans that came back late


def _day(rng: random.Random) -> date:
    return START + timedelta(days=rng.randrange((END - START).days))


def loans(n_loans: int, n_copies: int, random_state: int):
    rng = random.Random(random_state)
    for loan_id in range(1, n_loans + 1):
        borrowed = _day(rng)
        due = borrowed + timedelta(days=LOAN_PERIOD_DAYS)
        r = rng.random()
        if r < P_STILL_OUT:
            returned = None
        elif r < P_STILL_OUT + P_LATE:
            returned = due + timedelta(days=rng.randint(1, 40))
        else:
            returned = borrowed + timedelta(days=rng.randint(1, LOAN_PERIOD_DAYS))
        yield (loan_id, rng.randint(1, n_copies), rng.randint(1, N_MEMBERS), borrowed, due, returned)
