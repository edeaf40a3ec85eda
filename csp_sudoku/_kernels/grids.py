"""Compiled kernels of the generators (numba), imported only when first used.

- :func:`fill`: the randomised MRV depth-first search of
  :mod:`csp_sudoku.generators.grids`;
- :func:`implied`: the "is every removed cell a naked or hidden single" test
  that lets :mod:`csp_sudoku.generators.minimal` skip a solver call.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.bitset import _ctpop
from csp_sudoku._kernels.rng import rng_below

init_numba_target()  # numba's CPU target without its BLAS probe (see there)


@njit(cache=True)
def _random_bit(mask: int, k: int | np.int64) -> int:  # pragma: no cover - compiled
    """The ``k``-th (0-based) set bit of ``mask``, as a bit value."""
    while True:
        low = mask & -mask
        if k == 0:
            return low
        mask ^= low
        k -= 1


@njit(cache=True)
def fill(
    peers: NDArray[np.int32], n: int, st: NDArray[np.uint64], max_nodes: int, mrv: bool
) -> NDArray[np.int8]:  # pragma: no cover - compiled
    """Randomised MRV depth-first search for one full grid; restarts after ``max_nodes``.

    Random draws come from the splitmix64 state ``st`` (advanced in place).
    """
    ncells = n * n
    full = (1 << n) - 1
    npeer = peers.shape[1]
    while True:
        masks = np.empty((ncells + 1, ncells), dtype=np.int64)
        masks[0, :] = full
        values = np.zeros(ncells, dtype=np.int8)
        chosen = np.full(ncells, -1, dtype=np.int64)
        untried = np.zeros(ncells, dtype=np.int64)
        depth = 0
        nodes = 0
        select = True
        while depth < ncells and nodes < max_nodes:
            if select:
                # pick the empty cell with the fewest candidates, scanning from a random start
                best = -1
                best_count = n + 1
                start = rng_below(st, np.int64(ncells)) if mrv else 0
                row = masks[depth]
                # cells start .. ncells - 1, then 0 .. start - 1 (placed cells hold
                # all 64 bits: more than any candidate mask, so they never win)
                for j in range(start - ncells, start):
                    c = j if j >= 0 else j + ncells
                    k = _ctpop(row[c])
                    if k < best_count:
                        best_count = k
                        best = c
                        if k <= 1 or not mrv:
                            break
                chosen[depth] = best
                untried[depth] = masks[depth, best]
                select = False
            cell = chosen[depth]
            rem = untried[depth]
            if rem == 0:
                # dead end: undo this level's cell and go back one level
                if depth == 0:
                    break
                depth -= 1
                values[chosen[depth]] = 0
                continue
            nodes += 1
            bit = _random_bit(rem, rng_below(st, np.int64(_ctpop(rem))))
            untried[depth] = rem & ~bit
            nxt = masks[depth + 1]
            nxt[:] = masks[depth]
            nxt[cell] = -1  # placed: see the scan above
            ok = True
            for j in range(npeer):
                p = peers[cell, j]
                if p < 0:
                    break
                if values[p] == 0:
                    m = nxt[p] & ~bit
                    nxt[p] = m
                    if m == 0:
                        ok = False
            if not ok:
                continue
            d = 0
            b = bit
            while b > 1:
                b >>= 1
                d += 1
            values[cell] = d + 1
            depth += 1
            select = True
        if depth == ncells:
            return values


@njit(cache=True)
def _sees(
    cells: NDArray[np.int8], peers: NDArray[np.int32], q: int, d: int
) -> bool:  # pragma: no cover - compiled
    for j in range(peers.shape[1]):
        p = peers[q, j]
        if p < 0:
            break
        if cells[p] == d:
            return True
    return False


#: A geometry's tables as :func:`implied` takes them, one tuple that numba
#: types once: ``(peers, units, cell_units)``, in the forms of
#: :attr:`~csp_sudoku.core.geometry.Geometry.peer_table` (padded with -1),
#: ``Geometry.units`` (``(nunits, N)``) and ``Geometry.cell_units``.
UnitTables = tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]


@njit(cache=True)
def implied(
    cells: NDArray[np.int8], solution: NDArray[np.int8], group: NDArray[np.intp], tables: UnitTables
) -> bool:  # pragma: no cover - compiled
    """True when every cell of ``group`` (emptied in ``cells``) is a naked or hidden single."""
    peers, units, cell_units = tables
    full = (1 << units.shape[1]) - 1  # units hold N cells each
    for g in range(group.shape[0]):
        c = group[g]
        d = solution[c]
        seen = 0
        for j in range(peers.shape[1]):
            p = peers[c, j]
            if p < 0:
                break
            if cells[p] != 0:
                seen |= 1 << (cells[p] - 1)
        if (seen | (1 << (d - 1))) == full:
            continue  # naked single
        hidden = False
        for k in range(cell_units.shape[1]):
            u = cell_units[c, k]
            if u < 0:
                break
            ok = True
            for j in range(units.shape[1]):
                q = units[u, j]
                if q == c or cells[q] != 0:
                    continue
                if not _sees(cells, peers, q, d):
                    ok = False
                    break
            if ok:
                hidden = True
                break
        if not hidden:
            return False
    return True
