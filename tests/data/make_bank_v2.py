"""Make ``tests/data/bank_v2.db.xz``: a puzzle bank written by the version before the
bank had its indexes (commit e6ce7ad, schema version 2), with that version's own code.

It holds the first five puzzles of top1465 (generator ``old``, seeds 0-4, minimality
not checked), each rated with ``se`` (score: its place, level Hard), and a second
``se`` rating of puzzle 1 (9.5, Fiendish), which that version's ``add_rating``
appended beside the first. tests/test_bank_scale.py opens a copy to see such a bank
upgraded. Run from a checkout of that commit::

    git worktree add --detach /tmp/v2 e6ce7ad && cd /tmp/v2
    PYTHONPATH=/tmp/v2 python REPO/tests/data/make_bank_v2.py \\
        REPO/tests/data/reference/top1465.txt.xz /tmp/bank_v2.db
    xz -9 /tmp/bank_v2.db   # then copy bank_v2.db.xz here
"""

from __future__ import annotations

import lzma
import sys
from types import SimpleNamespace

from csp_sudoku.tools.bank import SCHEMA_VERSION, PuzzleBank


def main() -> None:
    assert SCHEMA_VERSION == 2, "run with the package of commit e6ce7ad"
    source, out = sys.argv[1], sys.argv[2]
    with lzma.open(source, "rt") as f:
        lines = [s.split()[0] for s in f if s.strip() and not s.startswith("#")][:5]
    with PuzzleBank(out) as bank:
        for k, line in enumerate(lines):
            added = bank.add(line, check_minimal=False, generator="old", seed=k)
            rating = SimpleNamespace(metric="se", score=float(k), level="Hard", parameters={})
            bank.add_rating(added.id, rating)
        second = SimpleNamespace(metric="se", score=9.5, level="Fiendish", parameters={})
        bank.add_rating(1, second)


if __name__ == "__main__":
    main()
