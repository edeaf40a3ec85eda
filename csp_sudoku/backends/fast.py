"""The fast backend: compiled bitset propagation and search (numba).

One ``int64`` candidate mask per cell; naked and hidden singles, locked
candidates, and a minimum-remaining-values branch (see
:mod:`csp_sudoku._kernels.bitset`). The kernels read the geometry only through
tables (peers, units, box/line intersections), built once per geometry and
cached here, so one compiled code serves every geometry of up to 62 digits:
4x4 to 25x25, X-Sudoku, Windoku, jigsaws. A search that runs out of its node
budget (heavy tails on big sparse grids) is answered by the SAT backend.
Under a deadline (:mod:`csp_sudoku.core.deadline`) the generic kernel looks at
the clock every ``CLOCK_EVERY`` branch nodes and a call past it raises
:class:`~csp_sudoku.core.errors.DeadlinePassed`, so a time budget holds inside
one search of a 16x16 or 25x25 too (a 9x9 search is bounded by its node budget:
milliseconds).

The standard 9x9 grid has a kernel of its own (:mod:`csp_sudoku._kernels.sudoku9`:
digit-major bit boards, box-line reasoning at every node, singles from bit
arithmetic), which serves every query on it; the generic kernel serves every
other shape (X-Sudoku, Windoku and jigsaws included, though they have 81 cells).

Every query is a single compiled call: :meth:`FastBackend.count_many` runs a
whole ``(n, cells)`` batch, :meth:`FastBackend.removable_clues` the whole
removal loop, and :meth:`FastBackend.other_solution` one search that skips the
known solution. The compiled code is cached on disk, so only the first process
on a machine pays the compilation (tens of seconds); later processes load it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import KERNEL_LIMIT, bitset, counted_in_slices, direct_entry, sudoku9
from csp_sudoku._kernels.status import (
    BAD_VALUE,
    BUDGET9,
    GAVE_UP,
    PAST_DEADLINE,
    PAUSED,
    SLICE9,
    SLICE_WORK,
    WORKSPACE9,
)
from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.backends.small9 import is_plain9 as _is_plain9
from csp_sudoku.core.deadline import in_slices, remaining
from csp_sudoku.core.errors import DeadlinePassed, ParseError
from csp_sudoku.core.geometry import Geometry

#: Largest digit count a candidate mask (``int64``) holds.
MAX_SIZE = 62


#: Solutions buffered per :meth:`FastBackend.solutions` call before a rerun.
_SOLUTION_CHUNK = 4096

#: The largest node budget a search is given in one compiled call, in slices of the
#: kernel (``SLICE9`` nodes of 9x9): the default budgets of a count to a few
#: solutions (tens of milliseconds at the most), in one go as before; a count to a
#: bigger limit is taken in slices (:func:`csp_sudoku.core.deadline.in_slices`).
_ONE_GO = 4
#: The same in branch nodes of the 9x9 kernel (one product less a call).
_ONE_GO9 = _ONE_GO * SLICE9


def _paused(n: int) -> bool:
    return n == PAUSED


def _count9_in_slices(
    cells: Cells, limit: int, avoid: Cells, out: NDArray[np.int8], budget: int
) -> int:
    """``sudoku9.count_cells`` in slices of ``SLICE9`` branch nodes, a look between two."""
    mem = np.zeros(WORKSPACE9, np.int64)
    return in_slices(
        lambda: int(sudoku9.count_part(cells, limit, avoid, out, budget, mem, SLICE9)), _paused
    )


_NO_AVOID = np.empty(0, dtype=np.int8)
_NO_OUT9 = np.empty((0, 81), dtype=np.int8)


def _stop_at() -> float:
    """The deadline in force as the generic kernel reads it (``time.time()`` s; 0.0: none)."""
    left = remaining()
    if left is None:
        return 0.0
    if left <= 0:
        _past_deadline()
    return time.time() + left


def _past_deadline() -> None:
    raise DeadlinePassed("the time budget ran out during a solver call")


#: What :func:`count_text9` calls: filled on first use by :func:`_text_entry`.
_TEXT_ENTRY: list[Callable[[bytes, int, int], int]] = []


def _text_entry() -> list[Callable[[bytes, int, int], int]]:
    """:data:`_TEXT_ENTRY` filled: ``sudoku9.count_text`` without numba's dispatch."""
    if not _TEXT_ENTRY:
        _TEXT_ENTRY.append(direct_entry(sudoku9.count_text, (b"." * 81, 2, BUDGET9)))
    return _TEXT_ENTRY


def text9_counter(limit: int = 2) -> tuple[Callable[[bytes, int, int], int], int]:
    """The 9x9 text counter and the node budget of a count to ``limit``.

    ``counter(raw, limit, budget)`` takes the 81 bytes of a stripped line and
    returns the count, capped at ``limit``; below 0 (a byte that is no symbol,
    or the budget ran out) the caller takes the general path. For
    ``is_unique(str)``, which inlines :func:`count_text9` around it.
    """
    return (_TEXT_ENTRY or _text_entry())[0], BUDGET9 * limit


def count_text9(text: str, limit: int = 2) -> int | None:
    """Solutions (up to ``limit``) of a one-line 9x9 puzzle, straight from its text.

    The hot path of ``is_unique(str)``: the 81 bytes go to the 9x9 kernel as
    a ``bytes`` object, with no array built in Python (``np.frombuffer`` and
    the array argument cost more than the search of an easy puzzle). None when
    the text is not a clean 81-symbol line or the search ran out of its node
    budget: the caller then takes the general path (full parser with its
    messages; SAT fallback).
    """
    # UTF-8: a character outside ASCII becomes bytes the table marks as no
    # symbol (and a lone surrogate a "?"), so no ASCII check is needed here
    raw = text.strip().encode("utf-8", "replace")
    if len(raw) != 81:
        return None
    n = (_TEXT_ENTRY or _text_entry())[0](raw, limit, BUDGET9 * limit)
    return n if n >= 0 else None


def _generic_workspace(ncells: int) -> tuple[NDArray[np.int64], NDArray[np.uint8]]:
    """The two arrays of a generic search taken in slices, with no search paused in them."""
    words, flags = bitset.workspace_sizes(ncells)
    return np.zeros(words, np.int64), np.zeros(flags, np.uint8)


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
    packed: NDArray[np.int64]  # all of the above in one array, as the kernels take them


def _build_tables(geometry: Geometry) -> _Tables:
    """Derive the kernel tables from the geometry's units and peers."""
    ncells, size = geometry.ncells, geometry.size
    peers = geometry.peer_table
    npeers = geometry.peer_counts
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
    no_out = np.empty((0, ncells), dtype=np.int8)
    packed = bitset.pack((peers, npeers, units, inter, inter_n, full))
    # in the fields' order: each variable is named as its field
    return _Tables(ncells, full, peers, npeers, units, inter, inter_n, no_out, packed)


class FastBackend(Backend):
    """Count, solve and test uniqueness with compiled bitset propagation and search.

    Depth-first search without learning has heavy tails on big sparse grids
    (a 16x16 puzzle with 35% of its clues took 7.7 s here, the SAT backend
    13 ms), so each search has a budget of branch nodes; a search that runs
    out of it is answered by the SAT backend instead, and counted in
    :attr:`fallbacks`. The default budget, 10,000 branch nodes per solution
    asked on 9x9 (20,000 for a uniqueness check, about 20 ms), is four times
    the largest tree met in the shared data sets (under 5,000 nodes).

    Args:
        locked: the number of top levels of the search tree (the root is level
            0) where locked candidates (pointing/claiming) run. They shrink
            the tree but cost more than they save deeper down (measured).
        work_budget: the node budget per solution asked (``limit``) times the
            number of cells (so bigger grids, whose nodes cost more, get
            fewer nodes); 0 = no budget.
    """

    name = "fast"

    def __init__(self, locked: int = 1, work_budget: int = 81 * BUDGET9) -> None:
        self.locked = locked
        self.work_budget = work_budget
        #: Searches handed to the SAT backend after running out of budget.
        self.fallbacks = 0
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

    def _budget(self, t: _Tables, limit: int) -> int:
        """Branch nodes allowed to a search for ``limit`` solutions (0 = no limit)."""
        if self.work_budget <= 0:
            return 0
        return min(max(1, self.work_budget // t.ncells) * max(1, limit), KERNEL_LIMIT)

    def _budget9(self, limit: int) -> int:
        """Branch nodes allowed to a 9x9-kernel search for ``limit`` solutions (0 = no limit)."""
        if self.work_budget <= 0:
            return 0
        return min(max(1, self.work_budget // 81) * max(1, limit), KERNEL_LIMIT)

    @staticmethod
    def _slice(t: _Tables) -> int:
        """Branch nodes of one slice of a long generic search (fewer on bigger grids)."""
        return max(1, SLICE_WORK // t.ncells)

    def _fallback(self) -> Backend:
        """The SAT backend, for the searches that ran out of budget."""
        from csp_sudoku.backends import get_backend

        self.fallbacks += 1
        return get_backend("sat")

    def _run(
        self,
        cells: Cells,
        geometry: Geometry,
        limit: int,
        avoid: Cells,
        out: NDArray[np.int8] | None,
    ) -> int:
        """One compiled search; the count, or :data:`GAVE_UP`."""
        limit = min(limit, KERNEL_LIMIT)
        if _is_plain9(geometry):
            if cells.shape != (81,):
                raise ParseError(
                    f"a {geometry.name} puzzle has 81 cells, got an array of shape {cells.shape}"
                )
            budget9 = self._budget9(limit)
            if 0 < budget9 <= _ONE_GO9:
                n = int(
                    sudoku9.count_cells(
                        cells, limit, avoid, _NO_OUT9 if out is None else out, budget9
                    )
                )
            else:  # a long count: a look between two slices whether to stop
                n = _count9_in_slices(
                    cells, limit, avoid, _NO_OUT9 if out is None else out, budget9
                )
            if n == BAD_VALUE:
                raise ParseError("cell values must be in 0..9")
            return n
        t = self.tables(geometry)
        if cells.shape != (t.ncells,):
            raise ParseError(
                f"a {geometry.name} puzzle has {t.ncells} cells, got an array of shape {cells.shape}"
            )
        args = (
            cells,
            limit,
            avoid,
            t.no_out if out is None else out,
            t.packed,
            self.locked,
            self._budget(t, limit),
            _stop_at(),
        )
        pause = self._slice(t)
        if 0 < args[6] <= _ONE_GO * pause:
            n = int(bitset.count_cells(*args))
        else:
            mem, mem8 = _generic_workspace(t.ncells)
            n = in_slices(lambda: int(bitset.count_part(*args, mem, mem8, pause)), _paused)
        if n == BAD_VALUE:
            raise ParseError(f"cell values must be in 0..{geometry.size}")
        if n == PAST_DEADLINE:
            _past_deadline()
        return n

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
        if n == GAVE_UP:
            return self._fallback().solutions(cells, geometry, limit)
        return list(out[:n])

    def count(self, cells: Cells, geometry: Geometry, limit: int = 2) -> int:
        """The number of solutions, exact below ``limit``."""
        if limit <= 0:
            return 0
        n = self._run(cells, geometry, limit, _NO_AVOID, None)
        return self._fallback().count(cells, geometry, limit) if n == GAVE_UP else n

    def solve(self, cells: Cells, geometry: Geometry) -> Cells | None:
        """One solution, or None."""
        out = np.empty((1, geometry.ncells), dtype=np.int8)
        n = self._run(cells, geometry, 1, _NO_AVOID, out)
        if n == GAVE_UP:
            return self._fallback().solve(cells, geometry)
        return out[0] if n else None

    def other_solution(self, cells: Cells, geometry: Geometry, known: Cells) -> Cells | None:
        """A solution other than ``known``: one search that skips ``known`` when it meets it."""
        out = np.empty((1, geometry.ncells), dtype=np.int8)
        avoid = np.ascontiguousarray(known, dtype=np.int8)
        n = self._run(cells, geometry, 1, avoid, out)
        if n == GAVE_UP:
            return self._fallback().other_solution(cells, geometry, known)
        return out[0] if n else None

    def removable_clues(self, cells: Cells, geometry: Geometry, known: Cells) -> NDArray[np.intp]:
        """Clues removable alone keeping ``known`` the only solution (one compiled loop)."""
        if _is_plain9(geometry):
            if cells.shape != (81,) or known.shape != (81,):
                raise ParseError(f"a {geometry.name} puzzle and its solution need 81 cells")
            res9 = sudoku9.removable(
                np.ascontiguousarray(cells, dtype=np.int8),
                np.ascontiguousarray(known, dtype=np.int8),
                self._budget9(1),
            )
            if res9.shape[0] == 1 and res9[0] == BAD_VALUE:
                raise ParseError("cell values must be in 0..9")
            if res9.shape[0] == 1 and res9[0] == GAVE_UP:
                return self._fallback().removable_clues(cells, geometry, known)
            found9: NDArray[np.intp] = res9.astype(np.intp, copy=False)
            return found9
        t = self.tables(geometry)
        if cells.shape != (t.ncells,) or known.shape != (t.ncells,):
            raise ParseError(f"a {geometry.name} puzzle and its solution need {t.ncells} cells")
        res = bitset.removable(
            np.ascontiguousarray(cells, dtype=np.int8),
            np.ascontiguousarray(known, dtype=np.int8),
            t.packed,
            self.locked,
            self._budget(t, 1),
            _stop_at(),
        )
        if res.shape[0] == 1 and res[0] == BAD_VALUE:
            raise ParseError(f"cell values must be in 0..{geometry.size}")
        if res.shape[0] == 1 and res[0] == PAST_DEADLINE:
            _past_deadline()
        if res.shape[0] == 1 and res[0] == GAVE_UP:
            return self._fallback().removable_clues(cells, geometry, known)
        found: NDArray[np.intp] = res.astype(np.intp, copy=False)
        return found

    def count_many(
        self, cells: NDArray[np.integer], geometry: Geometry, limit: int = 2
    ) -> NDArray[np.int64]:
        """Counts (capped at ``limit``) for an ``(n, ncells)`` batch, in one compiled call.

        Rows whose search ran out of budget are then counted by the SAT backend.
        """
        arr = np.ascontiguousarray(cells, dtype=np.int8)
        limit = min(limit, KERNEL_LIMIT)
        if _is_plain9(geometry):
            if arr.ndim != 2 or arr.shape[1] != 81:
                raise ParseError(
                    f"count_many needs an (n, 81) array for {geometry.name}, got {arr.shape}"
                )
            if limit <= 0:
                return np.zeros(arr.shape[0], dtype=np.int64)
            counts = counted_in_slices(sudoku9.count_rows, arr, limit, self._budget9(limit))
            return self._check_counts(counts, arr, geometry, limit)
        t = self.tables(geometry)
        if arr.ndim != 2 or arr.shape[1] != t.ncells:
            raise ParseError(
                f"count_many needs an (n, {t.ncells}) array for {geometry.name}, got {arr.shape}"
            )
        if limit <= 0:
            return np.zeros(arr.shape[0], dtype=np.int64)
        n = arr.shape[0]
        counts = np.empty(n, np.int64)
        mem, mem8 = _generic_workspace(t.ncells)
        args = (arr, limit, t.packed, self.locked, self._budget(t, limit), _stop_at(), counts)
        pause = self._slice(t)
        in_slices(lambda: int(bitset.count_rows(*args, mem, mem8, pause)), lambda done: done < n)
        return self._check_counts(counts, arr, geometry, limit)

    def _check_counts(
        self, counts: NDArray[np.int64], arr: NDArray[np.int8], geometry: Geometry, limit: int
    ) -> NDArray[np.int64]:
        """Raise for a row with a bad value; count the rows that ran out of budget with SAT."""
        if arr.shape[0] and counts.min() < 0:
            bad = np.flatnonzero(counts == BAD_VALUE)
            if bad.size:
                raise ParseError(f"row {int(bad[0])}: cell values must be in 0..{geometry.size}")
            if np.any(counts == PAST_DEADLINE):
                _past_deadline()
            for i in np.flatnonzero(counts == GAVE_UP).tolist():
                counts[i] = self._fallback().count(arr[i], geometry, limit)
        return counts
