"""Random full solution grids for any geometry, seeded.

A grid is built by a compiled randomised depth-first search (numba): at each
step the empty cell with the fewest candidates is filled (ties broken from a
random starting cell) with one of its candidates drawn uniformly; dead ends
backtrack, and a search that exceeds a node budget restarts with fresh random
choices. This is the "random brute-force solver" with which Hunt, Pong and
Tucker build the solved grid of RG2 (*Difficulty-Driven Sudoku Puzzle
Generation*, section "Building the Generator").

**Uniformity.** A randomised search alone is not uniform over all grids. For
standard geometries the grid is then passed through a uniformly random
*validity-preserving transformation*: a relabelling of the digits, a
permutation of the bands and of the rows inside each band, the same for stacks
and columns, and (for square boxes) a transposition with probability 1/2.
That makes every grid of one equivalence class (orbit under these
transformations) exactly equally likely; only the weights *between* classes
come from the search, and they are biased: on 4x4 (288 grids in two classes
of 96 and 192) the class of 96 comes out about 75% of the time instead of 33%
(measured on 20,000 grids), so its grids are about six times as likely as the
others'. The tests check, with chi-square, that the grids of each class are
equally frequent, and that ``uniform=True`` (exact: every grid of a small
geometry enumerated once and one drawn uniformly) makes all 288 grids equally
frequent. For 9x9 (5,472,730,538 classes) the class weights cannot be
measured; every class can appear. Variants (X-Sudoku, Windoku, jigsaw) only get the
digit relabelling, because row and column moves would break their extra units.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import GenerationError, GeometryError
from csp_sudoku.core.geometry import Geometry, check_geometry
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.core.seeds import SeedLike, as_generator, kernel_seeds

__all__ = ["check_has_grid", "random_grid", "random_grids", "random_transform"]


if TYPE_CHECKING:
    from csp_sudoku.generators.registry import BaseRequest


def random_transform(grid: Grid, geometry: Geometry, seed: SeedLike = None) -> NDArray[np.int8]:
    """A uniformly random validity-preserving transformation of a full grid.

    Standard geometries: digits relabelled, bands and rows inside bands
    permuted, stacks and columns inside stacks permuted, and (square boxes)
    transposed with probability 1/2. Other geometries: digits relabelled only.

    Args:
        grid: a flat full grid (or puzzle cells: blanks stay blank).
        geometry: its shape.
        seed: an int, a numpy Generator, or None.
    """
    rng = as_generator(seed)
    n = geometry.size
    flat = np.asarray(grid, dtype=np.int8).reshape(-1)
    relabel = np.zeros(n + 1, dtype=np.int8)
    relabel[1:] = rng.permutation(n) + 1
    if not geometry.is_standard:
        return relabel[flat]
    # the draws in this order (bands, then the rows of each; stacks, then their
    # columns; the transposition) are what a seed reproduces: keep it
    br, bc = geometry.box_rows, geometry.box_cols
    rows = [
        b * br + r for b in rng.permutation(n // br).tolist() for r in rng.permutation(br).tolist()
    ]
    cols = [
        s * bc + c for s in rng.permutation(n // bc).tolist() for c in rng.permutation(bc).tolist()
    ]
    # cell (i, j) of the result is cell (rows[i], cols[j]) of the grid, or
    # (rows[j], cols[i]) transposed: one gather through a flat index
    index = np.array(rows, dtype=np.intp)[:, None] * n + np.array(cols, dtype=np.intp)
    if br == bc and rng.random() < 0.5:
        index = index.T
    return relabel[flat[index.reshape(-1)]]


def random_grid(
    geometry: Geometry | None = None,
    seed: SeedLike = None,
    *,
    transform: bool = True,
    uniform: bool | None = None,
) -> Puzzle:
    """A random full solution grid of ``geometry`` (default 9x9).

    Args:
        geometry: the shape; any geometry (standard, X, Windoku, jigsaw).
        seed: an int, a numpy Generator, or None for fresh entropy. The same
            int gives the same grid.
        transform: apply :func:`random_transform` (see the module notes on uniformity).
        uniform: draw exactly uniformly from every grid of the geometry, which
            are enumerated once (only up to 4x4: see :func:`all_grids`). The
            default, None, does so wherever it can (grids up to 4x4) and uses
            the fast sampler elsewhere; False always uses the fast sampler.

    Raises:
        GeometryError: ``uniform=True`` on a geometry with too many grids, or a
            geometry with no grid at all (:func:`check_has_grid`).

    Returns:
        A complete :class:`~csp_sudoku.core.puzzle.Puzzle`.
    """
    geo = check_geometry(geometry) or Geometry.standard(9)
    rng = as_generator(seed)
    if uniform is None:
        uniform = geo.size <= 4
    if uniform:
        table = all_grids(geo)
        return Puzzle(table[int(rng.integers(0, table.shape[0]))], geo)
    return Puzzle(_grid_cells(geo, rng, transform), geo)


@cache
def _has_grid(geometry: Geometry) -> bool:
    """Whether ``geometry`` has a full grid at all (one solver call, once a shape)."""
    from csp_sudoku.backends import get_backend

    empty = np.zeros(geometry.ncells, dtype=np.int8)
    return len(get_backend("sat").solutions(empty, geometry, 1)) > 0


def check_has_grid(geometry: Geometry) -> None:
    """Refuse a shape with no full grid (a jigsaw's regions can admit none): the
    grid sampler's restarts would otherwise search for one for ever. Standard
    shapes always have grids and are not checked; the others are solved once.

    Raises:
        GeometryError: ``geometry`` has no full grid, so no puzzle can be made on it.
    """
    if not geometry.is_standard and not _has_grid(geometry):
        raise GeometryError(
            f"this {geometry.name} has no full grid (its units cannot all hold every "
            "digit once): no puzzle can be made on it"
        )


def _grid_cells(geometry: Geometry, rng: np.random.Generator, transform: bool = True) -> Grid:
    """The flat cells of a random grid (no Puzzle wrapper, for hot loops).

    Raises:
        GeometryError: the shape has no full grid (:func:`check_has_grid`).
    """
    check_has_grid(geometry)
    n = geometry.size
    budget = 50 * geometry.ncells
    from csp_sudoku._kernels import grids as _kernels

    cells = _kernels.fill(geometry.peer_table, n, kernel_seeds(rng, 1), budget, True)
    if transform:
        cells = random_transform(cells, geometry, rng)
    out: Grid = cells.astype(np.int8, copy=False)
    return out


#: The most grids :func:`all_grids` will enumerate.
MAX_ENUMERATED = 100_000


@cache
def all_grids(geometry: Geometry) -> NDArray[np.int8]:
    """Every full grid of a small geometry (up to 4x4), as a read-only ``(count, ncells)`` array.

    Raises:
        GeometryError: for geometries above 4x4 or with more than :data:`MAX_ENUMERATED` grids.
    """
    from csp_sudoku.backends import get_backend

    if geometry.size > 4:  # 6x6 already has 28,200,960 grids
        raise GeometryError(
            f"{geometry.name} has too many grids: exact uniform sampling by enumeration "
            "is only for grids up to 4x4 (use uniform=False)"
        )
    empty = np.zeros(geometry.ncells, dtype=np.int8)
    found = get_backend("sat").solutions(empty, geometry, MAX_ENUMERATED + 1)
    if len(found) > MAX_ENUMERATED:
        raise GeometryError(
            f"{geometry.name} has more than {MAX_ENUMERATED} grids: exact uniform sampling "
            "by enumeration is only for small geometries (use uniform=False)"
        )
    table = np.stack(found).astype(np.int8)
    table.setflags(write=False)
    return table


def check_count(count: int) -> int:
    """``count`` as an int: how many of something a generator makes (0 or more, whole).

    Raises:
        GenerationError: a negative count, or one that is not a whole number.
    """
    if not is_whole(count):
        raise GenerationError(f"count must be a whole number, got {count!r}")
    if count < 0:
        raise GenerationError(f"count must be non-negative, got {count}")
    return int(count)


def random_grids(
    count: int, geometry: Geometry | None = None, seed: SeedLike = None
) -> NDArray[np.int8]:
    """``count`` random full grids as a ``(count, ncells)`` int8 array.

    Raises:
        GenerationError: a negative ``count``.
    """
    count = check_count(count)
    geo = check_geometry(geometry) or Geometry.standard(9)
    rng = as_generator(seed)
    out = np.empty((count, geo.ncells), dtype=np.int8)
    for i in range(count):
        out[i] = _grid_cells(geo, rng)
    return out


def base(request: BaseRequest) -> tuple[Grid, Grid]:
    """The ``random`` base generator (RG2's start): a random full grid as its own clues."""
    solution = _grid_cells(request.geometry, request.rng)
    return solution.copy(), solution
