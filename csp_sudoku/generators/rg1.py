"""RG1: bottom-up generation (Hunt, Pong, Tucker).

*Difficulty-Driven Sudoku Puzzle Generation* (UMAP 2008), section "Building the
Generator", RG1: begin with a blank grid; (a) add a random number in a random
spot; (b) solve to see whether the solution is unique, and if there are several
solutions go back to (a); (c) remove unnecessary hints; (d) assess the
difficulty, restarting if it is not the one desired (step (d) is
:func:`csp_sudoku.generators.generate` with ``method="rg1"``).

The random number in (a) is drawn from the cell's candidates (digits not
already a clue among its peers); when it leaves no solution at all, the paper
is silent, and we take it back and draw again. Step (b) is one
:meth:`~csp_sudoku.api.Checker.count` call (limit 2); step (c) is the RG2
removal of :func:`csp_sudoku.generators.minimal.reduce_clues`, with the
solution found in (b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from csp_sudoku.api import Checker
from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.core.seeds import SeedLike
from csp_sudoku.generators.minimal import checker_for, entry_setup, reduce_clues

__all__ = ["rg1_clues", "rg1_puzzle"]


if TYPE_CHECKING:
    from csp_sudoku.generators.registry import BaseRequest


def rg1_clues(
    geometry: Geometry, rng: np.random.Generator, *, checker: Checker | None = None
) -> tuple[Grid, Grid]:
    """Steps (a)-(b): random clues added until the puzzle is unique; returns (clues, solution)."""
    chk = checker or checker_for(geometry)
    n = geometry.size
    peers = geometry.peers
    clues = np.zeros(geometry.ncells, dtype=np.int8)
    while True:
        empty = np.flatnonzero(clues == 0)
        if empty.size == 0:  # pragma: no cover - a full grid is unique long before
            return clues, clues.copy()
        c = int(empty[rng.integers(empty.size)])
        used = set(clues[peers[c]].tolist())
        digits = [d for d in range(1, n + 1) if d not in used]
        rng.shuffle(digits)
        for d in digits:
            clues[c] = d
            k = chk.count(clues, 2)
            if k == 0:
                continue
            if k == 1:
                sol = chk.solve_cells(clues)
                if sol is None:  # pragma: no cover - counted one solution
                    raise GenerationError("solver found no solution after counting one")
                return clues, sol
            break
        else:
            clues[c] = 0  # no digit keeps a solution here: try another cell


def rg1_puzzle(
    geometry: Geometry | None = None,
    seed: SeedLike = None,
    *,
    minimal: bool = True,
    backend: str = "auto",
) -> Puzzle:
    """A puzzle by RG1: random clues until unique, then (``minimal``) unnecessary ones removed."""
    geo, rng, chk = entry_setup(geometry, seed, backend)
    clues, sol = rg1_clues(geo, rng, checker=chk)
    if minimal:
        clues = reduce_clues(clues, sol, geo, rng, checker=chk)
    return Puzzle(clues, geo)


def base(request: BaseRequest) -> tuple[Grid, Grid]:
    """The ``rg1`` base generator (Hunt, Pong, Tucker, RG1): :func:`rg1_clues`."""
    return rg1_clues(request.geometry, request.rng, checker=request.checker)
