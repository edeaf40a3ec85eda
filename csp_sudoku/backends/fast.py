"""The fast backend: compiled bitset propagation and search (numba).

One ``int64`` candidate mask per cell; naked and hidden singles, locked
candidates, and a minimum-remaining-values branch (see
:mod:`csp_sudoku._kernels.bitset`). The kernels read the geometry only through
tables (peers, units, box/line intersections), built once per geometry and
cached here, so every geometry of up to 62 digits is served by the same
compiled code: 4x4 to 25x25, X-Sudoku, Windoku, jigsaws.

Every query is a single compiled call: :meth:`FastBackend.count_many` runs a
whole ``(n, cells)`` batch, :meth:`FastBackend.removable_clues` the whole
removal loop, and :meth:`FastBackend.other_solution` one search that skips the
known solution. The compiled code is cached on disk, so only the first process
on a machine pays the compilation (tens of seconds); later processes load it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import bitset
from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.errors import ParseError
from csp_sudoku.geometry import Geometry

#: Largest digit count a candidate mask (``int64``) holds.
MAX_SIZE = 62

#: Solutions buffered per :meth:`FastBackend.solutions` call before a rerun.
_SOLUTION_CHUNK = 4096

_NO_AVOID = np.empty(0, dtype=np.int8)


@dataclass(frozen=True)
class _Tables:
    """A geometry's tables in the form the kernels read (all C-contiguous)."""

    ncells: int
    full: int
    peers: NDArray[np.int32]  # (ncells, max peers), padded with -1
    npeers: NDArray[np.int32]  # (ncells,)
    units: NDArray[np.int32]  # (nunits, N)
    inter: NDArray[np.int32]  # (nint, 3, N): a & b, a - b, b - a, padded with -1
    inter_n: NDArray[np.int32]  # (nint, 3): their lengths
    no_out: NDArray[np.int8]  # (0, ncells): "store no solution"
    geo: tuple[object, ...]  # the tuple the kernels read (see bitset.count_cells)


def _build_tables(geometry: Geometry) -> _Tables:
    """Derive the kernel tables from the geometry's units and peers."""
    ncells, size = geometry.ncells, geometry.size
    peer_lists = geometry.peers
    width = max(len(p) for p in peer_lists)
    peers = np.full((ncells, width), -1, dtype=np.int32)
    npeers = np.zeros(ncells, dtype=np.int32)
    for c, p in enumerate(peer_lists):
        peers[c, : len(p)] = p
        npeers[c] = len(p)
    units = np.ascontiguousarray(geometry.units, dtype=np.int32)
    sets = [set(u) for u in units.tolist()]
    triples: list[tuple[list[int], list[int], list[int]]] = []
    for a in range(len(sets)):
        for b in range(a + 1, len(sets)):
            both = sets[a] & sets[b]
            if 2 <= len(both) < size:
                triples.append((sorted(both), sorted(sets[a] - both), sorted(sets[b] - both)))
    inter = np.full((len(triples), 3, size), -1, dtype=np.int32)
    inter_n = np.zeros((len(triples), 3), dtype=np.int32)
    for t, parts in enumerate(triples):
        for side, cells in enumerate(parts):
            inter[t, side, : len(cells)] = cells
            inter_n[t, side] = len(cells)
    full = (1 << size) - 1
    return _Tables(
        ncells=ncells,
        full=full,
        peers=peers,
        npeers=npeers,
        units=units,
        inter=inter,
        inter_n=inter_n,
        no_out=np.empty((0, ncells), dtype=np.int8),
        geo=(peers, npeers, units, inter, inter_n, full),
    )


class FastBackend(Backend):
    """Count, solve and test uniqueness with compiled bitset propagation and search.

    Args:
        locked: apply locked candidates (pointing/claiming) during propagation.
            It shrinks the search trees of hard puzzles; turning it off is only
            useful for measuring what it buys.
    """

    name = "fast"

    def __init__(self, locked: int = 1) -> None:
        self.locked = locked
        self._tables: dict[Geometry, _Tables] = {}
        self._last: tuple[Geometry, _Tables] | None = None

    def supports(self, geometry: Geometry) -> bool:
        """Every geometry of up to :data:`MAX_SIZE` digits."""
        return geometry.size <= MAX_SIZE

    # ------------------------------------------------------------------ plumbing
    def tables(self, geometry: Geometry) -> _Tables:
        """The kernel tables of ``geometry``, built on first use and cached."""
        last = self._last
        if last is not None and last[0] is geometry:
            return last[1]
        t = self._tables.get(geometry)
        if t is None:
            t = self._tables[geometry] = _build_tables(geometry)
        self._last = (geometry, t)
        return t

    def _run(
        self,
        cells: Cells,
        geometry: Geometry,
        limit: int,
        avoid: Cells,
        out: NDArray[np.int8] | None,
    ) -> int:
        t = self.tables(geometry)
        if cells.shape != (t.ncells,):
            raise ParseError(
                f"a {geometry.name} puzzle has {t.ncells} cells, got an array of shape {cells.shape}"
            )
        n = bitset.count_cells(
            cells, limit, avoid, t.no_out if out is None else out, t.geo, self.locked
        )
        if n < 0:
            raise ParseError(f"cell values must be in 0..{geometry.size}")
        return int(n)

    # ------------------------------------------------------------------ Backend API
    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        """Up to ``limit`` distinct solutions, found in one compiled search."""
        if limit <= 0:
            return []
        rows = min(limit, _SOLUTION_CHUNK)
        out = np.empty((rows, geometry.ncells), dtype=np.int8)
        n = self._run(cells, geometry, limit, _NO_AVOID, out)
        if n > rows:  # more than the buffer held: search again with room for all
            out = np.empty((n, geometry.ncells), dtype=np.int8)
            n = self._run(cells, geometry, n, _NO_AVOID, out)
        return list(out[:n])

    def count(self, cells: Cells, geometry: Geometry, limit: int = 2) -> int:
        """The number of solutions, exact below ``limit``."""
        if limit <= 0:
            return 0
        return self._run(cells, geometry, limit, _NO_AVOID, None)

    def solve(self, cells: Cells, geometry: Geometry) -> Cells | None:
        """One solution, or None."""
        out = np.empty((1, geometry.ncells), dtype=np.int8)
        return out[0] if self._run(cells, geometry, 1, _NO_AVOID, out) else None

    def other_solution(self, cells: Cells, geometry: Geometry, known: Cells) -> Cells | None:
        """A solution other than ``known``: one search that skips ``known`` when it meets it."""
        out = np.empty((1, geometry.ncells), dtype=np.int8)
        avoid = np.ascontiguousarray(known, dtype=np.int8)
        return out[0] if self._run(cells, geometry, 1, avoid, out) else None

    def removable_clues(self, cells: Cells, geometry: Geometry, known: Cells) -> NDArray[np.intp]:
        """Clues removable alone keeping ``known`` the only solution (one compiled loop)."""
        t = self.tables(geometry)
        if cells.shape != (t.ncells,) or known.shape != (t.ncells,):
            raise ParseError(f"a {geometry.name} puzzle and its solution need {t.ncells} cells")
        res = bitset.removable(
            np.ascontiguousarray(cells, dtype=np.int8),
            np.ascontiguousarray(known, dtype=np.int8),
            t.geo,
            self.locked,
        )
        if res.shape[0] == 1 and res[0] < 0:
            raise ParseError(f"cell values must be in 0..{geometry.size}")
        found: NDArray[np.intp] = res.astype(np.intp, copy=False)
        return found

    def count_many(
        self, cells: NDArray[np.integer], geometry: Geometry, limit: int = 2
    ) -> NDArray[np.int64]:
        """Counts (capped at ``limit``) for an ``(n, ncells)`` batch, in one compiled call."""
        t = self.tables(geometry)
        arr = np.ascontiguousarray(cells, dtype=np.int8)
        if arr.ndim != 2 or arr.shape[1] != t.ncells:
            raise ParseError(
                f"count_many needs an (n, {t.ncells}) array for {geometry.name}, got {arr.shape}"
            )
        if limit <= 0:
            return np.zeros(arr.shape[0], dtype=np.int64)
        counts: NDArray[np.int64] = bitset.count_batch(arr, limit, t.geo, self.locked)
        if arr.shape[0] and counts.min() < 0:
            bad = int(np.flatnonzero(counts < 0)[0])
            raise ParseError(f"row {bad}: cell values must be in 0..{geometry.size}")
        return counts
