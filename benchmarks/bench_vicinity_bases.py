"""Where the SE extreme search's time goes, and which vicinity bases pay.

Runs ``generate(10_000, level="extreme", metric="se", seed=S)`` as it ships for
``--seconds`` of CPU per seed (one output a family) and watches its steps: the
CPU time of its chain steps (a move, rated in full) and its vicinity steps (a
{-1+1} move from the harder of two elite states, quick-tested at the floor), and,
for each vicinity step, the SE score of the elite state it moved from and
whether it gave an output. The search's own code runs unchanged; the script
wraps two of its methods and the elite pool's draw to count (a few microseconds
a step).

    .venv/bin/python benchmarks/bench_vicinity_bases.py --seconds 60 --seed 4001 4002

What it answers: would the search find more families if it spent its vicinity
steps only on bases near the floor? (benchmarks/results/generate_expand_within.md)
"""

from __future__ import annotations

import collections
import time
from typing import Any

import _common
from bench_generate_new import ours, warm_up

from csp_sudoku.core.puzzle import Grid
from csp_sudoku.generators import anneal
from csp_sudoku.generators.search.elite import Elite


def _watch() -> tuple[dict[str, float], dict[float, list[float]], list[float]]:
    """Wrap the search's steps; return the step counts and times, the tries, hits and
    CPU seconds by base score, and the base score of the current vicinity step (a
    one-item list)."""
    clock: dict[str, float] = collections.defaultdict(float)
    bases: dict[float, list[float]] = collections.defaultdict(lambda: [0, 0, 0.0])
    drawn: list[float] = []
    draw = Elite.harder_of_two

    def harder_of_two(self: Elite, rng: Any) -> tuple[Grid, Grid]:
        clues, sol = draw(self, rng)
        drawn[:] = [next(e.score for e in self.states if e.clues is clues)]
        return clues, sol

    step_vicinity = anneal._Search._vicinity_step
    step_chain = anneal._Search._chain_step

    def vicinity(self: anneal._Search, arm: int) -> Any:
        drawn.clear()
        c = time.process_time()
        got = step_vicinity(self, arm)
        took = time.process_time() - c
        clock["vicinity s"] += took
        clock["vicinity steps"] += 1
        if drawn:
            tally = bases[round(drawn[0], 1)]
            tally[0] += 1
            tally[1] += got is not None
            tally[2] += took
        return got

    def chain(self: anneal._Search, ch: Any) -> Any:
        c = time.process_time()
        got = step_chain(self, ch)
        clock["chain s"] += time.process_time() - c
        clock["chain steps"] += 1
        return got

    Elite.harder_of_two = harder_of_two  # type: ignore[method-assign]
    anneal._Search._vicinity_step = vicinity  # type: ignore[method-assign]
    anneal._Search._chain_step = chain  # type: ignore[method-assign,assignment]
    return clock, bases, drawn


def main() -> None:
    args = _common.seeds_parser(__doc__, "per seed", 4001).parse_args()
    _common.one_core()  # the figures are per core
    warm_up()
    clock, bases, _ = _watch()
    print(f"commit {_common.commit()}; SE extreme, {args.seconds:g} CPU-s a seed, one process")
    for seed in args.seed:
        clock.clear()
        bases.clear()
        c0 = time.process_time()
        found, _best = ours("extreme", args.seconds, seed, cpu=True)
        cpu = time.process_time() - c0
        print(
            f"\nseed {seed}: {len(found)} outputs in {cpu:.0f} CPU-s; "
            f"chain steps {clock['chain steps']:.0f} ({clock['chain s']:.1f} s), "
            f"vicinity steps {clock['vicinity steps']:.0f} ({clock['vicinity s']:.1f} s)"
        )
        print("base ER   tries  outputs  tries per output  ms a try  CPU-s per output")
        for score in sorted(bases):
            tries, hits, cpu_s = bases[score]
            per = f"{tries / hits:.0f}" if hits else "-"
            cost = f"{cpu_s / hits:.2f}" if hits else "-"
            print(
                f"{score:7.1f}  {tries:6.0f}  {hits:7.0f}  {per:>16}  "
                f"{1000 * cpu_s / tries:8.2f}  {cost:>16}"
            )


if __name__ == "__main__":
    main()
