"""Difficulty-Driven Generation (DDG) of Hunt, Pong and Tucker.

*Difficulty-Driven Sudoku Puzzle Generation* (UMAP 2008), section
"Difficulty-Driven Generation": build the puzzle bottom-up like RG1, but at each
step try ``n`` random cells ``c_i`` with values ``v_i``, measure the difficulty
``d_i`` each choice leads to, and keep the choice closest to the desired
difficulty ``d`` (steps 4-6); stop when the puzzle is unique and on target.

What we fill in where the paper leaves room:

- The grid is built toward one random solution grid ``S`` (values ``v_i`` come
  from ``S``), so every partial puzzle stays solvable.
- The cells tried are limited to those where ``S`` and a second solution
  differ, the paper's own improvement ("the intersection of the two solutions
  ... indicates which cells are most likely to make the puzzle converge").
- The difficulty of a partial (non-unique) puzzle is measured by rating the
  puzzle made unique by adding cells of ``S`` where later solutions differ
  (a quick look-ahead); any metric of :func:`csp_sudoku.metrics.rate` works,
  the paper's choice being the rounds metric.

The result is unique; :func:`csp_sudoku.generators.generate` with
``method="ddg"`` then makes it minimal (when asked) and re-rates it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from csp_sudoku.api import Checker
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.core.seeds import SeedLike
from csp_sudoku.generators.grids import _grid_cells
from csp_sudoku.generators.minimal import checker_for, entry_setup
from csp_sudoku.generators.targeting import Target, make_target, rate_with_solution

__all__ = ["ddg_clues", "ddg_puzzle"]


if TYPE_CHECKING:
    from csp_sudoku.generators.registry import BaseRequest


def _make_unique(
    clues: Grid, sol: Grid, geo: Geometry, rng: np.random.Generator, chk: Checker
) -> Grid:
    """Add cells of ``sol`` where a second solution differs, until ``sol`` is the only one."""
    work = clues.copy()
    while True:
        alt = chk.backend.other_solution(work, geo, sol)
        if alt is None:
            return work
        diff = np.flatnonzero((alt != sol) & (work == 0))
        c = int(diff[rng.integers(diff.size)])
        work[c] = sol[c]


def ddg_clues(
    geometry: Geometry,
    rng: np.random.Generator,
    *,
    metric: str = "rounds",
    target: Target | None = None,
    checker: Checker | None = None,
    branch: int = 4,
    initial: int = 8,
) -> tuple[Grid, Grid]:
    """DDG steps 1-6: a unique puzzle grown toward ``target``; returns (clues, solution).

    Args:
        geometry: the shape.
        rng: the random generator.
        metric: the metric measuring difficulty.
        target: the wanted level / score range (None: no preference, plain bottom-up).
        checker: the uniqueness checker.
        branch: ``n``, the choices tried per step.
        initial: cells filled at random first (step 2; fewer than 17 on 9x9).
    """
    tgt = target or Target(metric=metric)
    chk = checker or checker_for(geometry)
    sol = _grid_cells(geometry, rng)
    clues = np.zeros(geometry.ncells, dtype=np.int8)
    start = rng.choice(geometry.ncells, size=min(initial, geometry.ncells), replace=False)
    clues[start] = sol[start]
    solution = Puzzle(sol, geometry)
    rating_seed = int(rng.integers(0, 2**62))
    while True:
        alt = chk.backend.other_solution(clues, geometry, sol)
        if alt is None:
            return clues, sol
        diff = np.flatnonzero((alt != sol) & (clues == 0))
        picks = rng.choice(diff, size=min(branch, diff.size), replace=False).tolist()
        if not tgt.active:
            c = int(picks[0])
            clues[c] = sol[c]
            continue
        best: tuple[tuple[float, float], int] | None = None
        for c in picks:
            trial = clues.copy()
            trial[c] = sol[c]
            done = _make_unique(trial, sol, geometry, rng, chk)
            d = tgt.distance(
                rate_with_solution(Puzzle(done, geometry), solution, tgt.metric, rating_seed)
            )
            if best is None or d < best[0]:
                best = (d, int(c))
        assert best is not None  # diff is never empty while a second solution exists
        clues[best[1]] = sol[best[1]]


def ddg_puzzle(
    geometry: Geometry | None = None,
    seed: SeedLike = None,
    *,
    metric: str = "rounds",
    level: str | None = None,
    backend: str = "auto",
) -> Puzzle:
    """A unique (not necessarily minimal) puzzle grown by DDG toward ``level`` of ``metric``."""
    geo, rng, chk = entry_setup(geometry, seed, backend)
    tgt = make_target(metric, level, None)
    clues, _ = ddg_clues(geo, rng, metric=metric, target=tgt, checker=chk)
    return Puzzle(clues, geo)


def base(request: BaseRequest) -> tuple[Grid, Grid] | None:
    """The ``ddg`` base generator (Difficulty-Driven Generation): :func:`ddg_clues`."""
    t = request.target
    return ddg_clues(
        request.geometry, request.rng, metric=t.metric, target=t, checker=request.checker
    )
