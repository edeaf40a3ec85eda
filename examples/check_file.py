"""Check a file of puzzles from Python: stream verdicts, keep the bad lines' reasons.

    python examples/check_file.py examples/data/mixed.txt [--jobs 2]

This is what ``csp-sudoku check`` does, as library calls: read the file lazily
with :func:`csp_sudoku.read_puzzles`, let :func:`csp_sudoku.tools.batch.check_entries`
count solutions chunk by chunk (in worker processes with ``--jobs``), and
handle each verdict as it arrives.
"""

from __future__ import annotations

import argparse
from collections import Counter

from csp_sudoku import read_puzzles
from csp_sudoku.tools.batch import Status, check_entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="(accepted for the test run)")
    args = parser.parse_args()

    tally: Counter[Status] = Counter()
    for result in check_entries(read_puzzles(args.file), jobs=args.jobs):
        tally[result.status] += 1
        if result.status is not Status.UNIQUE:
            print(f"line {result.line}: {result.status.value}  {result.reason}")
    print(", ".join(f"{tally[s]} {s.value}" for s in Status))


if __name__ == "__main__":
    main()
