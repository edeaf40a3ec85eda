"""A pure-Python solution counter for a few standard 9x9 puzzles: no numba start.

Starting numba and loading a compiled kernel from its disk cache costs a
process about 0.4 s (0.2 s ``import numba``, 0.2 s its CPU target), and a
first process on a machine compiles the kernel (seconds). A short run, such
as ``csp-sudoku check PUZZLE``, spends nearly all its time there. This counter
answers a handful of 9x9 puzzles in plain Python instead (typically 1 to
10 ms a puzzle), so such a run never imports numba.

The search: one 9-bit candidate mask per cell; naked singles (a cell left
with one digit clears it from its 20 peers) and hidden singles (a digit with
one place left in a row, column or box) to a fixed point; then a branch on a
cell with the fewest candidates, depth-first, stopping at ``limit``
solutions. It shares no code with the compiled kernels, and the tests check
that both give the same counts on the shared data sets.

A search is given a budget of branch nodes; one that runs out of it returns
:data:`GAVE_UP` and its caller asks the compiled backend instead, so a hard
puzzle costs at most the budget's time (about 0.1 s) more than before.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels.status import BAD_VALUE, GAVE_UP
from csp_sudoku.core.bits import popcount
from csp_sudoku.core.errors import SearchBudgetExceeded
from csp_sudoku.core.geometry import Geometry

#: Branch nodes a search may take by default: about as long as starting numba
#: takes (0.2 to 0.5 ms a node). With pointing and claiming at every node a
#: count to 2 takes a median of 18 nodes on top1465 (at most 269), none on most
#: 17-clue puzzles and a median of 210 on forum_hardest_1106 (at most 1,703).
BUDGET = 500

#: The most puzzles of a batch worth trying here: a bigger one would spend the
#: budget and still need numba, which counts thousands of puzzles a second.
MAX_BATCH = 32

_ALL = 0x1FF


def is_plain9(geometry: Geometry) -> bool:
    """True for the standard 9x9 grid (3x3 boxes, no extra units or regions)."""
    return geometry.is_standard and geometry.size == 9 and geometry.box_rows == 3


def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The 20 peers of every cell and the 27 units (rows, columns, boxes) of the 9x9 grid."""
    units: list[tuple[int, ...]] = []
    units += [tuple(r * 9 + c for c in range(9)) for r in range(9)]
    units += [tuple(r * 9 + c for r in range(9)) for c in range(9)]
    units += [
        tuple((br + r) * 9 + bc + c for r in range(3) for c in range(3))
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    peers = tuple(
        tuple(sorted({p for u in units if cell in u for p in u} - {cell})) for cell in range(81)
    )
    return peers, tuple(units)


_PEERS, _UNITS = _tables()


def _segments() -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """Every line/box intersection: its 3 cells, the line's 6 others, the box's 6 others."""
    out = []
    for line in _UNITS[:18]:
        for box in _UNITS[18:]:
            both = set(line) & set(box)
            if both:
                out.append(
                    (
                        tuple(sorted(both)),
                        tuple(c for c in line if c not in both),
                        tuple(c for c in box if c not in both),
                    )
                )
    return tuple(out)


_SEGMENTS = _segments()

#: Digit count of every 9-bit mask.
_NBITS = tuple(popcount(np.arange(512)).tolist())


def _settle(cand: list[int], queue: list[int]) -> bool:
    """Propagate naked and hidden singles to a fixed point; False on a contradiction.

    ``queue`` holds the cells whose single digit has not yet been cleared from
    their peers; every cell that becomes single here joins it, so when this
    returns True no two peers hold the same single digit.
    """
    peers = _PEERS
    while True:
        while queue:
            c = queue.pop()
            b = cand[c]
            for p in peers[c]:
                m = cand[p]
                if m & b:
                    m ^= b
                    if not m:
                        return False
                    cand[p] = m
                    if not m & (m - 1):
                        queue.append(p)
        for u in _UNITS:
            once = twice = 0
            for c in u:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != _ALL:
                return False  # a digit with no place left in the unit
            hidden = once & ~twice
            if not hidden:
                continue
            for c in u:
                m = cand[c]
                h = m & hidden
                if h and h != m:
                    if h & (h - 1):
                        return False  # one cell is the only place of two digits
                    cand[c] = h
                    queue.append(c)
        if not queue:
            found = _locked(cand, queue)
            if found < 0:
                return False
            if not found:
                return True


def _locked(cand: list[int], queue: list[int]) -> int:
    """Pointing and claiming; 1 when it eliminated something, 0 when not, -1 on a contradiction."""
    changed = 0
    for seg, line, box in _SEGMENTS:
        a, b, c = seg
        inside = cand[a] | cand[b] | cand[c]
        rline = 0
        for x in line:
            rline |= cand[x]
        rbox = 0
        for x in box:
            rbox |= cand[x]
        only_here_in_box = inside & ~rbox & rline  # they leave the rest of the line
        if only_here_in_box:
            if not _drop(cand, line, only_here_in_box, queue):
                return -1
            changed = 1
        only_here_in_line = inside & ~rline & rbox  # they leave the rest of the box
        if only_here_in_line:
            if not _drop(cand, box, only_here_in_line, queue):
                return -1
            changed = 1
    return changed


def _drop(cand: list[int], cells: tuple[int, ...], digits: int, queue: list[int]) -> bool:
    """Remove ``digits`` from ``cells`` (queueing the cells left single); False on a contradiction."""
    for x in cells:
        m = cand[x]
        if m & digits:
            m &= ~digits
            if not m:
                return False
            cand[x] = m
            if not m & (m - 1):
                queue.append(x)
    return True


def _search(cand: list[int], limit: int, nodes: list[int], out: list[list[int]] | None) -> int:
    """Solutions below the settled state ``cand`` (at most ``limit``), appended to ``out`` if given.

    ``nodes[0]`` is the budget of branch nodes left; :class:`SearchBudgetExceeded` when it runs out.
    """
    nbits = _NBITS
    best = -1
    fewest = 10
    for c in range(81):
        k = nbits[cand[c]]
        if 1 < k < fewest:
            best, fewest = c, k
            if k == 2:
                break
    if best < 0:  # every cell single and settled: a solution
        if out is not None:
            out.append([m.bit_length() for m in cand])
        return 1
    nodes[0] -= 1
    if nodes[0] < 0:
        raise SearchBudgetExceeded
    found = 0
    m = cand[best]
    while m:
        b = m & -m
        m ^= b
        child = cand.copy()
        child[best] = b
        if _settle(child, [best]):
            found += _search(child, limit - found, nodes, out)
            if found >= limit:
                break
    return found


def _run(
    cells: Sequence[int], limit: int, budget: int, out: list[list[int]] | None
) -> tuple[int, int]:
    """One search: solutions up to ``limit`` (or a return code), and the work done.

    The work is the branch nodes taken plus one (a puzzle that needs no
    branch still costs about as much as a node); ``budget`` is the most
    branch nodes allowed.
    """
    if limit <= 0:
        return 0, 1
    cand = [_ALL] * 81
    queue: list[int] = []
    for c, v in enumerate(cells):
        if v:
            if not 0 < v <= 9:
                return BAD_VALUE, 1
            cand[c] = 1 << (v - 1)
            queue.append(c)
    if not _settle(cand, queue):
        return 0, 1
    nodes = [budget]
    try:
        found = _search(cand, limit, nodes, out)
    except SearchBudgetExceeded:
        return GAVE_UP, budget + 1
    return found, budget - nodes[0] + 1


def count9(cells: Sequence[int], limit: int = 2, budget: int = BUDGET) -> tuple[int, int]:
    """Solutions (at most ``limit``) of the 81 cell values ``cells`` (0 = empty), and the work done.

    The count is :data:`BAD_VALUE` for a value outside ``0..9`` and
    :data:`GAVE_UP` when the search needed more than ``budget`` branch nodes.
    Clashing clues have 0 solutions.
    """
    return _run(cells, limit, budget, None)


def solutions9(
    cells: Sequence[int], limit: int, budget: int = BUDGET
) -> tuple[list[list[int]] | None, int]:
    """Up to ``limit`` solutions of ``cells`` as lists of 81 digits, and the work done.

    None for a bad value or a search out of budget.
    """
    out: list[list[int]] = []
    found, nodes = _run(cells, limit, budget, out)
    return (out if found >= 0 else None), nodes


def count_many9(
    cells: NDArray[np.integer], limit: int = 2, budget: int = BUDGET
) -> tuple[NDArray[np.int64], int]:
    """:func:`count9` of every row of an ``(n, 81)`` array, sharing one budget.

    Rows met after the budget is spent are :data:`GAVE_UP`; returns the counts
    (the kernels' return codes) and the work done in all.
    """
    counts = np.full(cells.shape[0], GAVE_UP, dtype=np.int64)
    left = budget
    for i, row in enumerate(cells.tolist()):
        if left <= 0:
            break
        counts[i], work = _run(row, limit, left, None)
        left -= work
    return counts, budget - left
