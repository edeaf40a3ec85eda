"""The hard-end search's {-k+k} move: one compiled call against its Python loop.

A move (``_Search._move`` of :mod:`csp_sudoku.generators.anneal`) takes ``k``
clue orbits out of a minimal puzzle, puts ``k`` in from the solution, repairs
uniqueness and reduces the puzzle to a minimal one again. On the standard
grid with the fast checker it is one call of ``_kernels/moves.move9``; the
Python loop it replaced (numpy draws and calls between compiled searches)
is still the fallback, run here by turning the compiled move off. Both make
moves from the same ``--states`` random minimal puzzles, the two ways
interleaved ``--repeats`` times in one process; each prints ms per move and
the ratio of the Python loop's CPU time to the compiled move's (the median of
the repeats).

    .venv/bin/python benchmarks/bench_moves.py --states 200 --moves 20 --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _common import one_core, ratio

import csp_sudoku as cs
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators.anneal import _Search
from csp_sudoku.generators.minimal import checker_for, minimal_puzzle
from csp_sudoku.generators.novelty import KeySet
from csp_sudoku.generators.search.base import SearchRequest, SearchStats
from csp_sudoku.generators.search.settings import DEFAULTS
from csp_sudoku.generators.targeting import make_target


def search(seed: int, compiled: bool) -> _Search:
    """A search of the extreme level whose moves are compiled or not."""
    geo = Geometry.standard(9)
    request = SearchRequest(
        geo,
        make_target("se", "extreme", None),
        np.random.default_rng(seed),
        checker_for(geo),
        KeySet(geo),
        stats=SearchStats(),
    )
    s = _Search(request, DEFAULTS)
    s.compiled_moves = compiled
    return s


def timed(s: _Search, states: list[tuple[np.ndarray, np.ndarray]], moves: int) -> float:
    """Seconds per move over ``moves`` moves from each state."""
    t0 = time.process_time()
    for clues, sol in states:
        for _ in range(moves):
            s._move(clues, sol)
    return (time.process_time() - t0) / (len(states) * moves)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--states", type=int, default=200, help="random minimal puzzles to move from")
    ap.add_argument("--moves", type=int, default=20, help="moves from each state per repeat")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    one_core()  # the figures are per core
    states = []
    for seed in range(args.states):
        p = minimal_puzzle(seed=seed)
        states.append((p.cells, cs.solve(p).cells))
    runs = {"python loop": search(1, False), "compiled": search(1, True)}
    for s in runs.values():
        timed(s, states[:5], 2)  # warm up (compiled code loaded)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, s in runs.items():
            times[name].append(timed(s, states, args.moves))
    base = statistics.median(times["python loop"])
    print(f"{args.states} states x {args.moves} moves, {args.repeats} repeats, one process")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:<12} {1e3 * med:.3f} ms a move  (python loop / this: {ratio(base, med)})")


if __name__ == "__main__":
    main()
