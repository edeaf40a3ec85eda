"""The oracle paper's generator (Fletcher, Johnson, Morrison).

*Taking the Mystery Out of Sudoku Difficulty: An Oracular Model* (UMAP 2008),
section "Generation Algorithm", Algorithm 2: fill the three diagonal boxes with
random permutations of the digits (they share no row or column, so any
permutations fit), ask an exact-cover solver for the first ``N`` completions
(``N = 100`` in the paper), pick one of them at random, then remove clues while
the solution stays unique (our RG2 removal, :mod:`csp_sudoku.generators.minimal`).

Generalised to any standard geometry by seeding the boxes ``(b, b)`` of the box
grid's diagonal; other geometries seed their first box or region only. As the
paper notes, the grids reachable this way are a subset of all grids (the
solver's order is deterministic), though a large one.
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

__all__ = ["PAPER_COMPLETIONS", "SEED_DRAWS", "diagonal_seed", "oracle_grid", "oracle_puzzle"]

#: N, the number of completions the paper enumerates.
PAPER_COMPLETIONS = 100


if TYPE_CHECKING:
    from csp_sudoku.generators.registry import BaseRequest


#: How many diagonal seeds :func:`oracle_grid` draws before it gives up.
SEED_DRAWS = 100


def diagonal_seed(geometry: Geometry, rng: np.random.Generator) -> Grid:
    """Random permutations in the diagonal boxes (the first region for other geometries)."""
    n = geometry.size
    cells = np.zeros(geometry.ncells, dtype=np.int8)
    box_unit0 = 2 * n  # units are rows, columns, then boxes / regions
    if geometry.is_standard:
        per_row = n // geometry.box_cols
        nbox = min(n // geometry.box_rows, per_row)
        boxes = [box_unit0 + b * per_row + b for b in range(nbox)]
    else:
        boxes = [box_unit0]
    for u in boxes:
        cells[geometry.units[u]] = rng.permutation(n) + 1
    return cells


def oracle_grid(
    geometry: Geometry,
    rng: np.random.Generator,
    *,
    completions: int = PAPER_COMPLETIONS,
    checker: Checker | None = None,
) -> Grid:
    """Algorithm 2 lines 1-7: a random one of the first ``completions`` completions.

    On 9x9 every filling of the three diagonal boxes has completions, so the
    first seed serves. On other shapes a seed can have none (4x4: 288 grids
    for 576 seeds, so half of them); a new seed is drawn then (at most
    :data:`SEED_DRAWS` in all).

    Raises:
        GenerationError: no seed of :data:`SEED_DRAWS` had a completion (a
            shape with no full grid at all).
    """
    chk = checker or checker_for(geometry)
    for _ in range(SEED_DRAWS):
        seed_cells = diagonal_seed(geometry, rng)
        found = chk.backend.solutions(seed_cells, geometry, completions)
        if found:
            return np.asarray(found[int(rng.integers(len(found)))], dtype=np.int8)
    raise GenerationError(
        f"no diagonal seed of this {geometry.name} grid had a completion in {SEED_DRAWS} draws"
    )


def oracle_puzzle(
    geometry: Geometry | None = None,
    seed: SeedLike = None,
    *,
    completions: int = PAPER_COMPLETIONS,
    backend: str = "auto",
) -> Puzzle:
    """A minimal puzzle by the oracle paper's generator (grid by Algorithm 2, then removal)."""
    geo, rng, chk = entry_setup(geometry, seed, backend)
    sol = oracle_grid(geo, rng, completions=completions, checker=chk)
    return Puzzle(reduce_clues(sol, sol, geo, rng, checker=chk), geo)


def base(request: BaseRequest) -> tuple[Grid, Grid]:
    """The ``oracle`` base generator (Fletcher, Johnson, Morrison): :func:`oracle_grid`."""
    solution = oracle_grid(request.geometry, request.rng, checker=request.checker)
    return solution.copy(), solution
