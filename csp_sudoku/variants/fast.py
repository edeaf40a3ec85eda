"""The fast backend of variant puzzles: a compiled propagation search.

A puzzle's constraints are lowered to the primitives of
:class:`~csp_sudoku.constraints.lowering.Lowering` (each kind's ``lower``
method; a kind without one is a *leaf*, checked on full grids by its own
``check``), and :mod:`csp_sudoku._kernels.variants` searches: propagation to
a fixpoint, the cell with the fewest candidates per failure weight first
(dom/wdeg), depth first. The
lowering of a puzzle's constraints is kept for the last few puzzles (the
givens are not part of it), so a caller that asks many questions of one
constraint set (adding givens one by one, true candidates) lowers it once.

The search is taken in slices of :data:`SLICE` branch nodes; between two,
:func:`csp_sudoku.core.deadline.checkpoint` looks whether to stop (a stop
request, a Ctrl-C) and the deadline in force is read (past it:
:class:`~csp_sudoku.core.errors.DeadlinePassed`; :func:`count_within` keeps
the solutions counted by then, the lower bound of ``count --budget-seconds``). A search that takes more
branch nodes than its budget (:func:`node_budget`) gives up and returns
None: the caller asks the SAT backend, which learns.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import KERNEL_LIMIT
from csp_sudoku._kernels import variants as kernel
from csp_sudoku._kernels.status import PAUSED
from csp_sudoku.constraints import Constraint, VariantPuzzle
from csp_sudoku.constraints.lowering import HEAD, HEAD_CONS, Leaf, Lowering
from csp_sudoku.core import deadline
from csp_sudoku.core.errors import ArgumentError, DeadlinePassed
from csp_sudoku.core.geometry import Geometry

#: Branch nodes of one slice of a search (a few milliseconds on 9x9).
SLICE = 1 << 12
#: Branch nodes a search may take before it gives up: a base, and more per
#: solution asked (a count to a big limit needs a node or more per solution).
#: SAT then learns: 9x9 killers with no givens took up to 9 s here and take
#: 0.2-0.4 s handed over at 20,000 nodes (about 0.2 s of search); of random
#: variant puzzles the median is unchanged and the total 1.13x
#: (benchmarks/bench_variants_handover.py, benchmarks/results/variants_fast.md).
BUDGET_BASE = 20_000
BUDGET_PER_SOLUTION = 64


def node_budget(limit: int) -> int:
    """The branch nodes a search for ``limit`` solutions may take before it gives up."""
    return min(BUDGET_BASE + BUDGET_PER_SOLUTION * limit, KERNEL_LIMIT)


@dataclass(frozen=True)
class Lowered:
    """A puzzle's constraints as the kernel's arrays, and the leaves it cannot lower."""

    arrays: tuple[NDArray[np.int64], ...]
    leaves: tuple[Leaf, ...]
    ncells: int
    size: int

    @property
    def ncons(self) -> int:
        """The constraints the kernel revises."""
        return int(self.arrays[HEAD][HEAD_CONS])

    def keeps_leaves(self, grid: NDArray[np.int8]) -> bool:
        """Whether the full ``grid`` (flat) keeps every leaf constraint."""
        if not self.leaves:
            return True
        rows = grid.reshape(self.size, self.size).tolist()
        return all(c.check(rows) for c in self.leaves)


@lru_cache(maxsize=16)
def _lower(geometry: Geometry, constraints: tuple[Constraint, ...]) -> Lowered:
    low = Lowering(geometry)
    for c in constraints:
        c.lower(low)
    arrays = low.arrays()
    for a in arrays:
        a.setflags(write=False)
    return Lowered(arrays, tuple(low.leaves), geometry.ncells, geometry.size)


def lower(puzzle: VariantPuzzle) -> Lowered:
    """The lowering of ``puzzle``'s constraints (kept for the last few constraint sets)."""
    return _lower(puzzle.geometry, puzzle.constraints)


def start_masks(puzzle: VariantPuzzle) -> NDArray[np.int64]:
    """Every cell's candidate mask from the givens alone (a given: its digit; else all)."""
    n = puzzle.geometry.size
    cells = puzzle.puzzle.cells.astype(np.int64)
    full = (1 << n) - 1
    return np.where(cells > 0, np.left_shift(1, np.maximum(cells - 1, 0)), full).astype(np.int64)


class _Search:
    """One resumable search of the kernel over a lowered puzzle, from some start masks."""

    def __init__(self, low: Lowered, start: NDArray[np.int64], limit: int, keep: bool) -> None:
        self.low = low
        self.ws = kernel.workspace(low.ncells, low.ncons)
        kernel.load(low.arrays, start, self.ws)
        rows = limit if keep and not low.leaves else 0
        self.out = np.zeros((rows, low.ncells), dtype=np.int8)
        self.last = np.zeros(low.ncells, dtype=np.int8)
        self.budget = node_budget(limit)
        #: Solutions that keep the leaves found so far (a search with leaves only).
        self.kept = 0

    def _go(self, want: int) -> int | None:
        """Run the kernel until it has counted ``want`` (or the tree ends); None: gave up."""
        ws = self.ws
        while True:
            stop = min(int(ws[kernel.AT_NODES]) + SLICE, self.budget)
            got = int(kernel.run(self.low.arrays, ws, want, self.out, self.last, stop))
            if got != PAUSED:
                return got
            if int(ws[kernel.AT_NODES]) >= self.budget:
                return None
            deadline.checkpoint()
            left = deadline.remaining()
            if left is not None and left <= 0:
                raise DeadlinePassed("the time budget ran out during a variant search")

    @property
    def so_far(self) -> int:
        """The solutions found so far: a lower bound when the search was cut short."""
        return self.kept if self.low.leaves else int(self.ws[kernel.AT_COUNT])

    @property
    def exhausted(self) -> bool:
        return int(self.ws[kernel.AT_PHASE]) == kernel.EXHAUSTED

    def solutions(self, limit: int) -> list[NDArray[np.int8]] | None:
        """Up to ``limit`` solutions that keep the leaves too; None when the search gave up."""
        if not self.low.leaves:
            got = self._go(limit)
            if got is None:
                return None
            return [self.out[i].copy() for i in range(min(got, self.out.shape[0]))]
        found: list[NDArray[np.int8]] = []
        while len(found) < limit:
            before = int(self.ws[kernel.AT_COUNT])
            got = self._go(before + 1)
            if got is None:
                return None
            if got > before and self.low.keeps_leaves(self.last):
                found.append(self.last.copy())
                self.kept = len(found)
            if self.exhausted:
                break
        return found

    def count(self, limit: int) -> int | None:
        """The solutions that keep the leaves too, up to ``limit``; None when it gave up."""
        if not self.low.leaves:
            got = self._go(limit)
            return None if got is None else min(got, limit)
        found = self.solutions(limit)
        return None if found is None else len(found)


def _check_limit(limit: int) -> int:
    """``limit`` for the kernel (at most :data:`KERNEL_LIMIT`)."""
    deadline.check()
    if limit < 1:
        raise ArgumentError(f"limit must be at least 1, not {limit}")
    return min(limit, KERNEL_LIMIT)


def solutions(puzzle: VariantPuzzle, limit: int) -> list[NDArray[np.int8]] | None:
    """Up to ``limit`` distinct solutions (flat grids); None when the search gave up."""
    limit = _check_limit(limit)
    return _Search(lower(puzzle), start_masks(puzzle), limit, keep=True).solutions(limit)


def count(puzzle: VariantPuzzle, limit: int) -> int | None:
    """The number of solutions, exact below ``limit``; None when the search gave up."""
    limit = _check_limit(limit)
    return _Search(lower(puzzle), start_masks(puzzle), limit, keep=False).count(limit)


def count_within(puzzle: VariantPuzzle, limit: int) -> tuple[int, bool] | None:
    """:func:`count` under the deadline in force, keeping what a cut search found.

    Returns ``(count, True)`` when the search ended (exact below ``limit``),
    ``(found so far, False)`` when the deadline passed first (a lower bound),
    or None when the search gave up at its node budget (the caller asks SAT).
    """
    if limit < 1:
        raise ArgumentError(f"limit must be at least 1, not {limit}")
    limit = min(limit, KERNEL_LIMIT)
    search = _Search(lower(puzzle), start_masks(puzzle), limit, keep=False)
    try:
        deadline.check()
        n = search.count(limit)
    except DeadlinePassed:
        return min(search.so_far, limit), False
    return None if n is None else (n, True)


def candidates(puzzle: VariantPuzzle, cap: int | None = None) -> NDArray[np.bool_] | None:
    """The true candidates (``out[cell, digit - 1]``); None when a search gave up.

    Propagation from the givens leaves the candidates to try; each not yet
    seen in a solution is tried alone (one search for a first solution): a
    solution marks every candidate it holds, no solution removes the
    candidate from the start of the next tries. So a candidate costs at most
    one search, and a solution's candidates none.

    Raises:
        DeadlinePassed: ``cap`` searches were made before every candidate was settled.
    """
    deadline.check()
    low = lower(puzzle)
    g = puzzle.geometry
    n = g.size
    seen = np.zeros((g.ncells, n), dtype=bool)
    start = start_masks(puzzle)
    ws = kernel.workspace(low.ncells, low.ncons)
    calls = 0

    def first(masks: NDArray[np.int64]) -> NDArray[np.int8] | bool | None:
        """A solution from ``masks``; False when there is none; None when the search gave up."""
        nonlocal calls
        if cap is not None and calls >= cap:
            raise DeadlinePassed(f"true candidates: the cap of {cap} searches was reached")
        calls += 1
        found = _Search(low, masks, 1, keep=True).solutions(1)
        if found is None:
            return None
        return found[0] if found else False

    if not kernel.root(low.arrays, start, ws):
        return seen
    sol = first(start.copy())
    if sol is None:
        return None
    if sol is False:
        return seen
    cells = np.arange(g.ncells)
    seen[cells, np.asarray(sol) - 1] = True
    for c in range(g.ncells):
        for d in range(n):
            bit = np.int64(1) << d
            if seen[c, d] or not start[c] & bit:
                continue
            masks = start.copy()
            masks[c] = bit
            got = first(masks)
            if got is None:
                return None
            if got is False:
                start[c] &= ~bit
                kernel.root(low.arrays, start, ws)  # a solution exists: never a contradiction
                continue
            seen[cells, np.asarray(got) - 1] = True
    return seen
