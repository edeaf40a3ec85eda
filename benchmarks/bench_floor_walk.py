"""A walk at the floor: new SE extreme families by walking away from a find?

With one output a family, every find of the annealing search needs a climb
from a fresh grid. This script tries the other way out of a found family: a
walk from a find through grid-changing {-1+1} moves (a clue goes, a digit is
placed wherever it leaves one solution: a new solution grid, made minimal
again), each step one that SE's quick test cannot clear at the extreme
level's floor (ER 9.0), until a state shares less than half of its clues with
every find so far (a new family by the generator's definition); that state is
rated in full and, above 9.0, is a find. ``--bias`` removes a clue that the
nearest find holds, to leave its family sooner. A walk that tests 400 moves
with no step restarts from a find.

Per seed, in one process: the search as it ships (``generate(10_000,
level="extreme", metric="se", seed=S)``) for ``--seconds`` of CPU, whose finds
are the walk's starts, then the walk for ``--seconds`` of CPU from them. It
prints each one's families, CPU and work per family (the search: its moves,
full ratings and quick tests that cleared; the walk: its quick tests and steps), the
load-free comparison.

    .venv/bin/python benchmarks/bench_floor_walk.py --seconds 60 --seed 4005 4006

Record: benchmarks/results/generate_floor_walk.md.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import _common
import numpy as np
from bench_generate_new import families, ours, warm_up

from csp_sudoku.api import Checker
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.generators.minimal import reduce_clues
from csp_sudoku.generators.targeting import rate_with_solution
from csp_sudoku.metrics import REGISTRY

FLOOR = 9.0
STUCK = 400  # moves tested from one state with no step: restart from a find


class Walk:
    """The walk from ``finds`` (the search's outputs), its finds added to them."""

    def __init__(self, finds: list[Grid], bias: bool, seed: int) -> None:
        self.geometry = Geometry.standard(9)
        self.checker = Checker()
        self.peers = self.geometry.peer_matrix.astype(bool)
        within = REGISTRY["se"].within
        assert within is not None
        self.within = within
        self.finds = list(finds)
        self.bias = bias
        self.rng = np.random.default_rng(seed)
        self.tests = self.steps = self.restarts = 0
        self.found: list[Grid] = []

    def shared(self, clues: Grid) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Clues shared with each find, and the fewer clues of the two."""
        made = np.stack(self.finds)
        same = np.count_nonzero((made == clues) & (clues != 0), axis=1)
        fewer = np.minimum(np.count_nonzero(made, axis=1), np.count_nonzero(clues))
        return same, fewer

    def move(self, cur: Grid) -> tuple[Grid, Grid] | None:
        """A random unique grid-changing {-1+1} neighbour of ``cur``, made minimal."""
        rng = self.rng
        pool = np.flatnonzero(cur)
        if self.bias:
            same, _ = self.shared(cur)
            near = self.finds[int(np.argmax(same))]
            held = np.flatnonzero((near == cur) & (cur != 0))
            pool = held if held.size else pool
        c = int(pool[int(rng.integers(pool.size))])
        work = cur.copy()
        work[c] = 0
        sols = self.checker.backend.solutions(work, self.geometry, 4096)
        if not 2 <= len(sols) < 4096:
            return None
        grids = np.asarray(sols, dtype=np.int8).reshape(len(sols), 81)
        # how many of the solutions have digit d at cell e: a placement met by one is unique
        held_by = np.bincount((np.arange(81) * 10 + grids).ravel(), minlength=810).reshape(81, 10)
        held_by[work != 0] = 0
        held_by[c, cur[c]] = 0
        cells, digits = np.nonzero(held_by == 1)
        if cells.size == 0:
            return None
        i = int(rng.integers(cells.size))
        e, d = int(cells[i]), int(digits[i])
        work[e] = d
        sol = grids[np.flatnonzero(grids[:, e] == d)[0]].copy()
        return reduce_clues(work, sol, self.geometry, rng, checker=self.checker), sol

    def run(self, seconds: float) -> None:
        """Walk for ``seconds`` of CPU."""
        rng = self.rng
        seen = {f.tobytes() for f in self.finds}
        cur = self.finds[int(rng.integers(len(self.finds)))]
        since = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            since += 1
            if since > STUCK:
                since, self.restarts = 0, self.restarts + 1
                cur = self.finds[int(rng.integers(len(self.finds)))]
                continue
            got = self.move(cur)
            if got is None or got[0].tobytes() in seen:
                continue
            clues, sol = got
            seen.add(clues.tobytes())
            self.tests += 1
            puzzle, solution = (
                Puzzle.trusted(clues, self.geometry),
                Puzzle.trusted(sol, self.geometry),
            )
            if self.within(puzzle, FLOOR, solution):
                continue
            since, cur = 0, clues
            self.steps += 1
            same, fewer = self.shared(clues)
            if np.any(2 * same >= fewer):
                continue  # still of a find's family
            if rate_with_solution(puzzle, solution, "se", 0).score > FLOOR:
                self.finds.append(clues)
                self.found.append(clues)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="CPU seconds for each")
    ap.add_argument("--seed", type=int, nargs="+", default=[4005])
    ap.add_argument("--bias", action="store_true", help="remove a clue the nearest find holds")
    args = ap.parse_args()
    _common.one_core()  # the figures are per core
    warm_up()
    print(f"commit {_common.commit()}; SE extreme, {args.seconds:g} CPU-s each; bias {args.bias}")
    rows = []
    for seed in args.seed:
        stats: dict[str, int] = {}

        def progress(report: dict[str, Any], stats: dict[str, int] = stats) -> None:
            stats.update({k: report[k] for k in ("steps", "rated", "cleared")})

        c0 = time.process_time()
        found, _ = ours("extreme", args.seconds, seed, cpu=True, on_report=progress)
        cpu = time.process_time() - c0
        fams = families(found)[1]
        steps = stats.get("steps", 0)
        rows.append(
            [seed, "search", fams, f"{cpu:.0f}", f"{cpu / max(fams, 1):.2f}",
             f"moves {steps}, rated {stats.get('rated', 0)}, cleared {stats.get('cleared', 0)}",
             f"{steps / max(fams, 1):.0f}"]
        )  # fmt: skip
        walk = Walk([np.asarray(g.puzzle.cells, dtype=np.int8) for g in found], args.bias, seed)
        c0 = time.process_time()
        walk.run(args.seconds)
        cpu = time.process_time() - c0
        n = len(walk.found)
        rows.append(
            [seed, "walk", n, f"{cpu:.0f}", f"{cpu / max(n, 1):.2f}",
             f"tests {walk.tests}, steps {walk.steps}, restarts {walk.restarts}",
             f"{walk.tests / max(n, 1):.0f}"]
        )  # fmt: skip
    head = ["seed", "run", "families", "CPU-s", "CPU-s a family", "work", "moves a family"]
    print(_common.table(head, rows, left=3))


if __name__ == "__main__":
    main()
