"""CP-SAT on the move rules (anti-knight, anti-king, non-consecutive): two encodings.

The baseline (written out here) states every move rule on the cells' integer
variables: ``x != y``, or ``|x - y| != 1`` through an absolute-value
variable. As shipped, a rule with a gap (non-consecutive) is one clause a
forbidden pair of digits on the cell-digit Booleans (the clauses the CNF
has), and the differences (anti-knight, anti-king) stay on the integers.
Per kind, random variant puzzles of ``csp_sudoku.variants.random`` built
around it (unique, several solutions and broken in turn), each asked for up
to 3 solutions with each encoding in turn, in one process; the two must find
as many solutions. Prints the CPU seconds of each and the ratio.

    .venv/bin/python benchmarks/bench_cpsat_rules.py --puzzles 12 --seed 5
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import _common

from csp_sudoku import variants
from csp_sudoku.constraints import base
from csp_sudoku.constraints._global import MoveRule
from csp_sudoku.variants.random import random_variants

KINDS = ("antiknight", "antiking", "nonconsecutive")


def integer_encoding(self: MoveRule, model: base.SudokuModel) -> None:
    """The baseline: the rule on the integer variables of the cells."""
    n = model.puzzle.geometry.size
    m = model.model
    for a, b in self.pairs(n):
        x, y = base.cp_values(model, (a, b))
        if self.gap == 0:
            m.add(x != y)
        else:
            diff = m.new_int_var(0, n, "")
            m.add_abs_equality(diff, x - y)
            m.add(diff != self.gap)


def timed(puzzle: Any) -> tuple[int, float]:
    """Up to 3 solutions by CP-SAT (one worker): how many, and the CPU seconds."""
    c = time.process_time()
    n = len(variants.solutions(puzzle, 3, backend="cpsat"))
    return n, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=int, default=12, help="puzzles per kind")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    shipped = MoveRule.add_to
    print(f"commit {_common.commit()}, {_common.processor()}, {args.puzzles} puzzles a kind, "
          f"seed {args.seed}, up to 3 solutions each")  # fmt: skip
    rows = []
    for k, kind in enumerate(KINDS):
        spent = {"integers": 0.0, "shipped": 0.0}
        slowest = {"integers": 0.0, "shipped": 0.0}
        for v in random_variants(args.puzzles, seed=args.seed + k, kinds=[kind]):
            found = {}
            for name, encode in (("integers", integer_encoding), ("shipped", shipped)):
                MoveRule.add_to = encode  # type: ignore[method-assign]
                found[name], took = timed(v.puzzle)
                spent[name] += took
                slowest[name] = max(slowest[name], took)
            MoveRule.add_to = shipped  # type: ignore[method-assign]
            if found["integers"] != found["shipped"]:
                raise SystemExit(f"{kind}: the encodings disagree on {v.puzzle}")
        rows.append(
            [
                kind,
                f"{spent['integers']:.2f}",
                f"{spent['shipped']:.2f}",
                f"{slowest['integers']:.2f}",
                f"{slowest['shipped']:.2f}",
                _common.ratio(spent["integers"], spent["shipped"]),
            ]
        )
    head = [
        "kind",
        "integers s",
        "shipped s",
        "slowest (integers)",
        "slowest (shipped)",
        "speed-up",
    ]
    print(_common.table(head, rows))


if __name__ == "__main__":
    main()
