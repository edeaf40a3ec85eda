"""Random minimal puzzles, quick-tested, against the search: which finds more SE extreme families?

Each random minimal puzzle (RG2) is on a fresh grid, so each one rated SE
extreme (above 9.0) is a family of its own. This script draws them for
``--seconds`` of CPU a seed, asks SE's quick test at 9.0 of each
(:func:`csp_sudoku.human.se_order.solved_within`), rates those it does not
clear in full, and counts the extreme ones; then it runs the search as it
ships (``generate(10_000, level="extreme", metric="se", seed=S)``) for the
same CPU in the same process, and prints both per CPU-minute with their ratio.

    .venv/bin/python benchmarks/bench_random_minimal.py --seconds 60 --seed 4011 4012

Record: benchmarks/results/generate_random_minimal.md.
"""

from __future__ import annotations

import time

import _common
import numpy as np
from bench_generate_new import families, ours, warm_up

from csp_sudoku.generators.minimal import minimal_puzzle
from csp_sudoku.human.se_order import solved_within
from csp_sudoku.metrics import rate

#: SE extreme: above this ER.
FLOOR = 9.0


def sampled(seconds: float, seed: int) -> tuple[int, int, int]:
    """(drawn, not cleared by the quick test, rated extreme) in ``seconds`` of CPU."""
    rng = np.random.default_rng(seed)
    drawn = open_ = extreme = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:
        p = minimal_puzzle(seed=rng)
        drawn += 1
        if solved_within(p, FLOOR):
            continue
        open_ += 1
        extreme += rate(p, "se").score > FLOOR
    return drawn, open_, extreme


def main() -> None:
    args = _common.seeds_parser(__doc__, "per seed and way", 4011).parse_args()
    _common.one_core()  # the figures are per core
    warm_up()
    print(f"commit {_common.commit()}; SE extreme, {args.seconds:g} CPU-s a seed and way")
    rows = []
    total = {"random": 0, "search": 0}
    for seed in args.seed:
        drawn, open_, extreme = sampled(args.seconds, seed)
        found, _best = ours("extreme", args.seconds, seed, cpu=True)
        _grids, fams = families(found)
        total["random"] += extreme
        total["search"] += fams
        per_min = 60 / args.seconds
        rows.append(
            [seed, drawn, open_, extreme, f"{extreme * per_min:.1f}", fams, f"{fams * per_min:.1f}"]
        )
    head = ["seed", "drawn", "not cleared", "extreme", "a CPU-min", "search families", "a CPU-min"]
    print(_common.table(head, rows, left=1))
    print(
        f"families: random {total['random']}, search {total['search']} "
        f"(random {_common.ratio(total['random'], total['search'])} the search)"
    )


if __name__ == "__main__":
    main()
