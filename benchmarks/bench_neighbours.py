"""The whole-vicinity search's neighbours: counts read off enumerated solutions
against one count per move.

:func:`csp_sudoku.generators.vicinity.neighbours` lists the unique {-1+1}
neighbours of a state. A move that removes clue ``c`` and places ``d`` at
``e`` has as many solutions as the state less ``c`` has with ``d`` at ``e``,
so it enumerates the solutions of the state less each clue (about 22
searches) and reads every move's count, and each unique move's solution, off
them. The baseline is the same function with
:data:`~csp_sudoku.generators.vicinity.ENUMERATE` at 0: every move (about
5,600) counted in one compiled batch, each unique one solved again (how the
neighbours were listed before).

The states: the SE calibration puzzles rated 9.0-9.9, each made minimal
(RG2 removal, seeded), as the search's states are; or, with ``--states
FILE``, the puzzles of a file (the first field of each line), for example
the SE 10+ outputs of a search (``csp-sudoku generate --metric se
--score-min 10 ...``). Both versions run in one
process, alternating state by state (each order half the time), with the
same random stream, and must give the same neighbours in the same order
(checked). Prints the states, neighbours, the CPU time of each version
(each includes making the neighbours minimal, which is the same work in
both) and their ratio.

    taskset -c 0 .venv/bin/python benchmarks/bench_neighbours.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import reference
from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
import csp_sudoku.generators.vicinity as vicinity
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators.minimal import checker_for, reduce_clues

FILES = ("se_calibration_top1465.tsv", "se_calibration.tsv")


def _states(lo: float, hi: float, seed: int) -> list[np.ndarray]:
    """The calibration puzzles SE rated ``lo`` to ``hi``, each made minimal."""
    g = Geometry.standard(9)
    chk = checker_for(g)
    rng = np.random.default_rng(seed)
    out = []
    for name in FILES:
        for r in reference.rows(name):
            if lo <= float(r["ER"]) <= hi:
                p = cs.parse(r["puzzle"])
                sol = np.asarray(chk.backend.solutions(p.cells, g, 1)[0], dtype=np.int8)
                out.append(reduce_clues(p.cells, sol, g, rng, checker=chk))
    return out


def _read(path: str) -> list[np.ndarray]:
    """The puzzles of ``path``: the first field of each non-empty line."""
    with open(path) as f:
        return [cs.parse(line.split()[0]).cells for line in f if line.strip()]


def _listed(state: np.ndarray, enumerate_: int, seed: int) -> tuple[list[bytes], float]:
    """The neighbours (clues and solution bytes) and the CPU seconds they took."""
    g = Geometry.standard(9)
    vicinity.ENUMERATE = enumerate_
    c0 = time.process_time()
    got = [
        clues.tobytes() + sol.tobytes()
        for clues, sol in vicinity.neighbours(state, g, checker_for(g), np.random.default_rng(seed))
    ]
    return got, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="at most this many states (0: all)")
    ap.add_argument("--states", help="a file of states (default: the calibration puzzles)")
    args = ap.parse_args()
    one_core()  # the figures are per core
    default = vicinity.ENUMERATE
    states = _read(args.states) if args.states else _states(9.0, 9.9, args.seed)
    if args.limit:
        states = states[: args.limit]
    _listed(states[0], default, 0)  # compile both paths first
    _listed(states[0], 0, 0)
    spent = {default: 0.0, 0: 0.0}
    found = same = 0
    for i, state in enumerate(states):
        got = {}
        for e in (default, 0) if i % 2 else (0, default):
            got[e], dt = _listed(state, e, args.seed + i)
            spent[e] += dt
        same += got[default] == got[0]
        found += len(got[default])
    vicinity.ENUMERATE = default
    print(f"states {len(states)}  neighbours {found}  same neighbours {same} of {len(states)}")
    print(f"one count per move (ENUMERATE 0): {spent[0]:8.2f} s")
    print(f"read off the solutions ({default}):  {spent[default]:8.2f} s")
    print(f"ratio: {spent[0] / spent[default]:.2f}x")


if __name__ == "__main__":
    main()
