"""Fresh starts as the best of K random minimal puzzles: more families at SE extreme?

The annealing search starts a chain on a fresh grid (an RG2 puzzle) after
each output retires its family. This script replaces that start with the
hardest of ``K`` fresh puzzles by the search's own rating (``K`` = 1 is the
search as it ships) and runs ``generate(10_000, level="extreme",
metric="se", seed=S)`` for ``--seconds`` of CPU per seed and ``K``, in one
process, the ``K`` values in turn on each seed. It prints the outputs, their
distinct grids and families, and the CPU the starts took.

    .venv/bin/python benchmarks/bench_best_of_k.py --seconds 60 --k 1 20 --seed 4001 4002

Record: benchmarks/results/generate_best_of_k.md.
"""

from __future__ import annotations

import time

import _common
from bench_generate_new import families, ours, warm_up

from csp_sudoku.core.puzzle import Grid
from csp_sudoku.generators import anneal
from csp_sudoku.generators.search.base import objective


def main() -> None:
    ap = _common.seeds_parser(__doc__, "per seed and K", 4001)
    ap.add_argument("--k", type=int, nargs="+", default=[1, 20], help="puzzles drawn per start")
    args = ap.parse_args()
    _common.one_core()  # the figures are per core
    fresh = anneal._Search._fresh
    state = {"k": 1, "starts": 0, "cpu": 0.0}

    def best_of_k(self: anneal._Search) -> tuple[Grid, Grid]:
        c = time.process_time()
        best: tuple[float, Grid, Grid] | None = None
        for _ in range(int(state["k"])):
            clues, sol = fresh(self)
            r = self.rater.value(clues, sol)
            h = objective(self.target, r) if r is not None else -float("inf")
            if best is None or h > best[0]:
                best = (h, clues, sol)
        state["starts"] += 1
        state["cpu"] += time.process_time() - c
        assert best is not None
        return best[1], best[2]

    anneal._Search._fresh = best_of_k  # type: ignore[method-assign]
    warm_up()
    print(f"commit {_common.commit()}; SE extreme, {args.seconds:g} CPU-s a seed and K")
    totals = dict.fromkeys(args.k, 0)
    rows = []
    for seed in args.seed:
        for k in args.k:
            state.update(k=k, starts=0, cpu=0.0)
            c0 = time.process_time()
            found, _best = ours("extreme", args.seconds, seed, cpu=True)
            cpu = time.process_time() - c0
            grids, fams = families(found)
            totals[k] += fams
            rows.append(
                [seed, k, len(found), grids, fams, int(state["starts"]),
                 f"{state['cpu']:.1f}", f"{cpu:.0f}"]
            )  # fmt: skip
    head = ["seed", "K", "outputs", "grids", "families", "starts", "starts CPU-s", "CPU-s"]
    print(_common.table(head, rows, left=2))
    base = totals[args.k[0]]
    print(
        "families: " + ", ".join(f"K={k} {n} ({_common.ratio(n, base)})" for k, n in totals.items())
    )


if __name__ == "__main__":
    main()
