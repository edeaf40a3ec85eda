"""Bitset constraint propagation and search over any unit table (numba).

The state of a search is one ``int64`` candidate mask per cell (bit ``d - 1``
set when digit ``d`` is still possible), so any geometry of up to 62 digits
fits, and the same code serves 4x4 .. 25x25, X-Sudoku, Windoku and jigsaws:
everything geometry-specific comes in as tables (the peers of each cell and
the cells of each unit), built once per geometry by the backend.

Propagation, to a fixed point:

* **naked singles**: a cell left with one candidate is *placed*: its digit is
  removed from every peer (a peer left with none is a contradiction; a peer
  left with one joins the queue);
* **hidden singles**: in each unit, a digit that appears in one cell only is
  placed there (a digit appearing nowhere, or two digits forced into one cell,
  is a contradiction); units are scanned in turn and each unit's singles are
  placed before the next unit is scanned;
* **locked candidates** (pointing and claiming): for each pair of units that
  intersect in more than one cell (box and line), a digit of one unit that is
  confined to the intersection is removed from the rest of the other unit.
  They run only in the top ``locked`` levels of the tree (the backend uses 1:
  the root only): deeper they cost more than they prune.

Search: depth-first, branching on an unplaced cell with the fewest candidates
(minimum remaining values), one saved state per level. Counting stops at
``limit``; the first solutions are written to an output array; a search may
be given a budget of branch nodes.

Return conventions (:class:`~csp_sudoku._kernels.status.CountEnd`): counts
are ``>= 0``; ``BAD_VALUE`` (-1) means a cell value outside ``0..N`` (the
backend turns it into an exception); ``GAVE_UP`` (-2) means the search gave
up after its node budget (the backend then asks the SAT backend);
``PAST_DEADLINE`` (-4) means the wall clock passed ``stop_at`` (``time.time()``
seconds; 0 = no deadline), looked at every ``CLOCK_EVERY`` branch nodes, so that
a time budget holds inside one long search of a big grid too; ``PAUSED`` (-5)
means a search taken in slices (:func:`count_part`, :func:`count_rows`) spent
its slice and keeps its place for the next call, so that a long count gives
its caller control back every few milliseconds (see the 9x9 kernel).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, objmode, types
from numba.core import cgutils
from numba.extending import intrinsic
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.status import (
    AT_COUNT,
    AT_DEPTH,
    AT_NODES,
    AT_PAUSED,
    AT_ROW,
    BAD_VALUE,
    CLOCK_EVERY,
    CONTROL,
    GAVE_UP,
    PAST_DEADLINE,
    PAUSED,
)

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

#: A node count no search reaches: the pause of a search taken in one go.
_NEVER = 1 << 62

# --------------------------------------------------------------------------- bit helpers


def int64_intrinsic(name: str, emit: Callable[[Any, Any], Any]) -> Any:
    """A numba intrinsic ``int64 -> int64`` named ``name``: the LLVM value ``emit`` builds.

    ``emit(builder, x)`` gets numba's IR builder and the argument, and returns
    the result (one LLVM bit instruction: ``ctpop``, ``cttz``, ``ctlz``).
    """

    def impl(typingctx, x):  # type: ignore[no-untyped-def]
        sig = types.int64(types.int64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return emit(builder, args[0])

        return sig, codegen

    impl.__name__ = impl.__qualname__ = name
    return intrinsic(impl)


#: Population count of an int64 (LLVM ``ctpop``: one instruction on x86-64).
_ctpop: Any = int64_intrinsic("_ctpop", lambda builder, x: builder.ctpop(x))
#: Count of trailing zero bits of a non-zero int64 (LLVM ``cttz``).
_cttz: Any = int64_intrinsic("_cttz", lambda builder, x: builder.cttz(x, cgutils.false_bit))


@njit(cache=True, inline="always")
def popcount(x):  # type: ignore[no-untyped-def]
    """How many bits of ``x`` are set (one instruction, LLVM ``ctpop``): the
    kernels' one bit count."""
    return _ctpop(np.int64(x))


# --------------------------------------------------------------------------- propagation


@njit(cache=True)
def _drain(cand, placed, queue, nq, peers, npeers):  # type: ignore[no-untyped-def]
    """Place the queued naked singles ``queue[:nq]`` and their consequences; False on a clash."""
    head = 0
    while head < nq:
        c = queue[head]
        head += 1
        b = cand[c]
        placed[c] = 1
        for k in range(npeers[c]):
            p = peers[c, k]
            m = cand[p]
            if m & b:
                m ^= b
                if m == 0:
                    return False
                cand[p] = m
                if m & (m - 1) == 0:
                    queue[nq] = p
                    nq += 1
    return True


@njit(cache=True)
def _propagate(  # type: ignore[no-untyped-def]
    cand, placed, queue, nq, peers, npeers, units, full, locked, inter, inter_n
):
    """Run singles (and locked candidates) to a fixed point; False on a contradiction.

    ``queue[:nq]`` holds cells that have one candidate but are not placed yet.
    Units are scanned for hidden singles in turn; the singles a unit yields
    are placed at once, before the next unit is scanned, and the scan stops
    after a full turn of units that yield nothing. (Scanning every unit before
    placing, and tracking which units changed, both measured slower on 9x9.)
    """
    nunits = units.shape[0]
    size = units.shape[1]
    ninter = inter_n.shape[0]
    if not _drain(cand, placed, queue, nq, peers, npeers):
        return False
    u = 0
    while True:
        # hidden singles, unit by unit, until a full turn finds nothing
        quiet = 0
        while quiet < nunits:
            once = 0
            twice = 0
            solved = 0
            for k in range(size):
                m = cand[units[u, k]]
                twice |= once & m
                once |= m
                if m & (m - 1) == 0:
                    solved |= m
            if once != full:
                return False
            hid = once & ~twice & ~solved
            nq = 0
            if hid != 0:
                for k in range(size):
                    c = units[u, k]
                    m = cand[c]
                    x = m & hid
                    if x != 0 and m & (m - 1) != 0:
                        if x & (x - 1):
                            return False
                        cand[c] = x
                        queue[nq] = c
                        nq += 1
            u += 1
            if u == nunits:
                u = 0
            if nq > 0:
                if not _drain(cand, placed, queue, nq, peers, npeers):
                    return False
                quiet = 0
            else:
                quiet += 1
        if not locked:
            return True
        # locked candidates over each intersection t of units a and b:
        # inter[t, 0] = a & b, inter[t, 1] = a - b, inter[t, 2] = b - a.
        changed = False
        nq = 0
        for t in range(ninter):
            inside = 0
            for k in range(inter_n[t, 0]):
                inside |= cand[inter[t, 0, k]]
            rest_a = 0
            for k in range(inter_n[t, 1]):
                rest_a |= cand[inter[t, 1, k]]
            rest_b = 0
            for k in range(inter_n[t, 2]):
                rest_b |= cand[inter[t, 2, k]]
            # a digit of a confined to a & b leaves b - a, and the other way round
            for side in range(1, 3):
                rm = inside & ~rest_b & rest_a if side == 1 else inside & ~rest_a & rest_b
                if rm == 0:
                    continue
                for k in range(inter_n[t, side]):
                    c = inter[t, side, k]
                    m = cand[c]
                    if m & rm:
                        m &= ~rm
                        if m == 0:
                            return False
                        cand[c] = m
                        changed = True
                        if m & (m - 1) == 0:
                            queue[nq] = c
                            nq += 1
        if not changed:
            return True
        if not _drain(cand, placed, queue, nq, peers, npeers):
            return False


# --------------------------------------------------------------------------- search


@njit(cache=True, inline="always")
def resume_at(ctl):  # type: ignore[no-untyped-def]
    """The branch nodes, depth and count of the search paused in the control words
    ``ctl`` (see :func:`pause_at`), which it takes up: no longer marked paused."""
    ctl[AT_PAUSED] = 0
    return ctl[AT_NODES], ctl[AT_DEPTH], ctl[AT_COUNT]


@njit(cache=True, inline="always")
def pause_at(ctl, nodes, depth, count):  # type: ignore[no-untyped-def]
    """Keep the place of a search that spent its slice in its control words ``ctl``;
    ``PAUSED``, what the search returns. Its state and saved levels stay where
    they are, in its workspace: the next call goes on from there."""
    ctl[AT_NODES] = nodes
    ctl[AT_DEPTH] = depth
    ctl[AT_COUNT] = count
    ctl[AT_PAUSED] = 1
    return PAUSED


@njit(cache=True, inline="always")
def ended(ctl, nodes, verdict):  # type: ignore[no-untyped-def]
    """Keep the nodes a search spent in its control words ``ctl`` as it ends;
    ``verdict``, what it returns (its count, ``GAVE_UP``, ``PAST_DEADLINE``)."""
    ctl[AT_NODES] = nodes
    return verdict


@njit(cache=True, inline="always")
def next_alternative(lefts, depth):  # type: ignore[no-untyped-def]
    """Take the lowest alternative left at the deepest saved level of a search
    (``lefts[depth - 1]``, a mask of the alternatives not tried yet; ``depth > 0``).

    Returns ``(depth, level, bit)``: the depth after it (one less when it was
    the level's last alternative: the level is spent), the level and the
    alternative's bit. Both searches, this module's and the 9x9 kernel's,
    backtrack through it.
    """
    level = depth - 1
    left = lefts[level]
    bit = left & -left
    left ^= bit
    if left == 0:
        depth -= 1
    else:
        lefts[level] = left
    return depth, level, bit


@njit(cache=True)
def _search(cand, limit, avoid, out, geo, locked, budget, stop_at, ws, pause=0):  # type: ignore[no-untyped-def]
    """Count solutions (up to ``limit``) from the candidate masks ``cand``.

    ``cand`` is overwritten. Solutions equal to ``avoid`` (when it is not
    empty) are skipped and not counted. The first ``out.shape[0]`` solutions
    counted are written to ``out``. ``geo`` is the geometry's table tuple
    (see :func:`_unpack`), ``ws`` the workspace from :func:`_workspace`.
    Locked candidates run at the nodes of the first ``locked`` levels of the
    tree (the root is level 0; the children of saved level ``d`` are at
    level ``d + 1``).
    After ``budget`` branch nodes (when ``budget > 0``) the search gives up
    and returns ``GAVE_UP``: plain depth-first search has heavy tails on big sparse
    grids, where the caller hands the puzzle to a solver that learns.
    With ``pause > 0`` the search stops after ``pause`` more branch nodes and
    returns ``PAUSED``, its place kept in ``ws`` and ``cand``; a call with the
    same arguments goes on from there (as the 9x9 kernel's
    :func:`csp_sudoku._kernels.sudoku9._search` does).
    """
    peers, npeers, units, inter, inter_n, full = geo
    st_cand, st_placed, st_cell, st_left, queue, placed, ctl = ws
    ncells = cand.shape[0]
    if ctl[AT_PAUSED]:
        nodes, depth, count = resume_at(ctl)
    else:
        nq = 0
        for c in range(ncells):
            placed[c] = 0
            m = cand[c]
            if m == 0:
                return 0
            if m & (m - 1) == 0:
                queue[nq] = c
                nq += 1
        if not _propagate(
            cand, placed, queue, nq, peers, npeers, units, full, locked > 0, inter, inter_n
        ):
            return 0
        count = 0
        depth = 0
        nodes = 0
    stop = nodes + pause if pause > 0 else _NEVER
    while True:
        # cand is a consistent fixed point here: branch or record a solution
        best = -1
        bestn = 1 << 30
        for c in range(ncells):
            if placed[c] == 0:
                pc = _ctpop(cand[c])
                if pc < bestn:
                    bestn = pc
                    best = c
                    if pc == 2:
                        break
        if best < 0:
            same = avoid.shape[0] == ncells
            if same:
                for c in range(ncells):
                    if avoid[c] != _cttz(cand[c]) + 1:
                        same = False
                        break
            if not same:
                if count < out.shape[0]:
                    for c in range(ncells):
                        out[count, c] = _cttz(cand[c]) + 1
                count += 1
                if count >= limit:
                    return ended(ctl, nodes, count)
        else:
            for c in range(ncells):
                st_cand[depth, c] = cand[c]
                st_placed[depth, c] = placed[c]
            st_cell[depth] = best
            st_left[depth] = cand[best]
            depth += 1
        # take the next alternative, backtracking as needed
        while True:
            if depth == 0:
                return ended(ctl, nodes, count)
            depth, d, b = next_alternative(st_left, depth)
            c = st_cell[d]
            for k in range(ncells):
                cand[k] = st_cand[d, k]
                placed[k] = st_placed[d, k]
            cand[c] = b
            queue[0] = c
            nodes += 1
            if nodes > budget > 0:
                return ended(ctl, nodes, GAVE_UP)
            if stop_at > 0.0 and nodes % CLOCK_EVERY == 0:
                with objmode(now="float64"):
                    now = time.time()
                if now > stop_at:
                    return ended(ctl, nodes, PAST_DEADLINE)
            if _propagate(
                cand, placed, queue, 1, peers, npeers, units, full, d + 1 < locked, inter, inter_n
            ):
                if nodes >= stop:  # the slice is spent: keep the place, go on when called
                    return pause_at(ctl, nodes, depth, count)
                break


@njit(cache=True)
def _load(cells, cand, full):  # type: ignore[no-untyped-def]
    """Fill ``cand`` from clue values; False when a value is outside ``0..N``."""
    size = 0
    m = full
    while m:
        size += 1
        m >>= 1
    for c in range(cells.shape[0]):
        v = cells[c]
        if v == 0:
            cand[c] = full
        elif v < 0 or v > size:
            return False
        else:
            cand[c] = np.int64(1) << (v - 1)
    return True


# --------------------------------------------------------------------------- entry points


@njit(cache=True)
def workspace_sizes(ncells):  # type: ignore[no-untyped-def]
    """The ``int64`` and ``uint8`` words of the workspace of a search over ``ncells`` cells.

    What a caller allocates (zeros) to take a search in slices (:func:`count_part`,
    :func:`count_rows`); see :func:`_views`.
    """
    return (ncells + 1) * ncells + 3 * (ncells + 1) + ncells + CONTROL, (ncells + 2) * ncells


@njit(cache=True)
def _views(mem, mem8, ncells):  # type: ignore[no-untyped-def]
    """The candidate masks and the search workspace, as views of ``mem`` and ``mem8``.

    The workspace: saved masks and placed flags per level, branch cells and
    candidates left per level, the queue, the placed flags, and the control
    words (``AT_NODES`` ... of :mod:`~csp_sudoku._kernels.status`): the node
    count, and the place of a paused search.
    """
    o = (ncells + 1) * ncells
    st_cand = mem[:o].reshape((ncells + 1, ncells))
    st_cell = mem[o : o + ncells + 1]
    o += ncells + 1
    st_left = mem[o : o + ncells + 1]
    o += ncells + 1
    queue = mem[o : o + ncells + 1]
    o += ncells + 1
    cand = mem[o : o + ncells]
    o += ncells
    ctl = mem[o : o + CONTROL]
    st_placed = mem8[: (ncells + 1) * ncells].reshape((ncells + 1, ncells))
    placed = mem8[(ncells + 1) * ncells : (ncells + 2) * ncells]
    return cand, (st_cand, st_placed, st_cell, st_left, queue, placed, ctl)


@njit(cache=True)
def _workspace(ncells):  # type: ignore[no-untyped-def]
    """:func:`_views` of a new allocation, with no search paused in it."""
    words, flags = workspace_sizes(ncells)
    cand, ws = _views(np.empty(words, np.int64), np.empty(flags, np.uint8), ncells)
    ctl = ws[6]
    for i in range(CONTROL):
        ctl[i] = 0
    return cand, ws


@njit(cache=True)
def _unpack(packed):  # type: ignore[no-untyped-def]
    """The table tuple ``(peers, npeers, units, inter, inter_n, full)`` from :func:`pack`'s array.

    The tables travel as one ``int64`` array because numba's dispatcher types
    a tuple of six arrays in about 0.65 us per call, one array in about 0.1 us.
    """
    ncells = packed[0]
    maxp = packed[1]
    nunits = packed[2]
    size = packed[3]
    ninter = packed[4]
    full = packed[5]
    o = 8
    peers = packed[o : o + ncells * maxp].reshape((ncells, maxp))
    o += ncells * maxp
    npeers = packed[o : o + ncells]
    o += ncells
    units = packed[o : o + nunits * size].reshape((nunits, size))
    o += nunits * size
    inter = packed[o : o + ninter * 3 * size].reshape((ninter, 3, size))
    o += ninter * 3 * size
    inter_n = packed[o : o + ninter * 3].reshape((ninter, 3))
    return peers, npeers, units, inter, inter_n, full


_Table = NDArray[np.integer]

#: A geometry's tables as :func:`pack` takes them and :func:`_unpack` gives
#: them back: ``(peers, npeers, units, inter, inter_n, full)``.
Tables = tuple[_Table, _Table, _Table, _Table, _Table, int]


def pack(tables: Tables) -> NDArray[np.int64]:
    """Pack a geometry's tables into the one ``int64`` array the entry points take.

    ``tables`` is ``(peers, npeers, units, inter, inter_n, full)``, the tuple
    :func:`_unpack` reads back: ``peers``: ``(ncells, max peers)`` padded
    with -1; ``npeers``: their numbers; ``units``: ``(nunits, N)``;
    ``inter``: ``(nint, 3, N)`` unit intersections for locked candidates
    (``inter[t, 0]`` = a & b, ``[t, 1]`` = a - b, ``[t, 2]`` = b - a,
    padded), ``inter_n``: ``(nint, 3)`` their lengths; ``full``: the mask of
    all digits.
    """
    peers, npeers, units, inter, inter_n, full = tables
    ncells, maxp = peers.shape
    nunits, size = units.shape
    header = np.array([ncells, maxp, nunits, size, inter.shape[0], full, 0, 0], dtype=np.int64)
    parts = [header, peers.ravel(), npeers.ravel(), units.ravel(), inter.ravel(), inter_n.ravel()]
    packed: NDArray[np.int64] = np.ascontiguousarray(np.concatenate(parts), dtype=np.int64)
    return packed


@njit(cache=True)
def count_cells(cells, limit, avoid, out, packed, locked, budget, stop_at):  # type: ignore[no-untyped-def]
    """Solutions of the clues ``cells`` (flat, 0 = empty), up to ``limit``.

    ``packed`` holds the geometry's tables (see :func:`pack`).
    Solutions equal to ``avoid`` (if not empty) are not counted; the first
    ``out.shape[0]`` are written to ``out``. Returns ``BAD_VALUE`` for a bad cell value,
    ``GAVE_UP`` when the search gave up after ``budget`` branch nodes.
    """
    cand, ws = _workspace(cells.shape[0])
    return _count(cells, limit, avoid, out, packed, locked, budget, stop_at, cand, ws, 0)


@njit(cache=True)
def _count(cells, limit, avoid, out, packed, locked, budget, stop_at, cand, ws, pause):  # type: ignore[no-untyped-def]
    """:func:`count_part` on masks and a workspace (loads ``cells`` unless a search is paused)."""
    geo = _unpack(packed)
    if ws[6][AT_PAUSED] == 0 and not _load(cells, cand, geo[5]):
        return BAD_VALUE
    return _search(cand, limit, avoid, out, geo, locked, budget, stop_at, ws, pause)


@njit(cache=True)
def count_part(cells, limit, avoid, out, packed, locked, budget, stop_at, mem, mem8, pause):  # type: ignore[no-untyped-def]
    """:func:`count_cells` taken in slices of ``pause`` branch nodes (0: in one go).

    ``mem`` and ``mem8`` are the search's workspace (:func:`workspace_sizes`,
    zeros for a new search). Returns what :func:`count_cells` returns, or
    ``PAUSED`` when the slice is spent: call again with the same arguments to
    go on (the solutions written to ``out`` so far stay).
    """
    cand, ws = _views(mem, mem8, cells.shape[0])
    return _count(cells, limit, avoid, out, packed, locked, budget, stop_at, cand, ws, pause)


def rows_in_slices(count_row: Any) -> Any:
    """A compiled loop that counts the rows of a batch by ``count_row``, in slices.

    ``count_row(row, pause, state)`` is a kernel that counts one row as
    :func:`count_part` does: loads it unless a search is paused in ``state``'s
    workspace, then searches for ``pause`` branch nodes at most (0: to the end)
    and returns the count, a failure code or ``PAUSED``. The loop made
    here, ``rows(batch, counts, ctl, pause, state)`` (``ctl``: the control words
    of ``state``'s workspace), writes each row's count into ``counts`` and
    returns the number of rows counted so far: below ``n`` when about ``pause``
    branch nodes (and one a row) are spent, then a call with the same arguments
    goes on; ``pause`` 0 counts them all in one go. The 9x9 kernel and this one
    share it: one loop, compiled for each (numba caches a loop made so, not one
    that takes the kernel as an argument).
    """

    @njit(cache=True, nogil=True)
    def rows(batch, counts, ctl, pause, state):  # type: ignore[no-untyped-def]
        n = batch.shape[0]
        i = ctl[AT_ROW]
        work = 0  # branch nodes taken in this call, and one per row
        while i < n:
            if pause > 0 and work >= pause:
                ctl[AT_ROW] = i
                return i
            before = ctl[AT_NODES] if ctl[AT_PAUSED] else 0
            ctl[AT_NODES] = before  # a row that ends before its first node leaves it so
            found = count_row(batch[i], pause - work if pause > 0 else 0, state)
            if found == PAUSED:
                ctl[AT_ROW] = i
                return i
            counts[i] = found
            i += 1
            work += ctl[AT_NODES] - before + 1
        ctl[AT_ROW] = n
        return n

    return rows


@njit(cache=True)
def _count_row(row, pause, state):  # type: ignore[no-untyped-def]
    """:func:`count_part` of one row of a batch (see :func:`rows_in_slices`)."""
    limit, avoid, out, packed, locked, budget, stop_at, cand, ws = state
    return _count(row, limit, avoid, out, packed, locked, budget, stop_at, cand, ws, pause)


_rows = rows_in_slices(_count_row)


@njit(cache=True)
def _batch_state(batch, limit, packed, locked, budget, stop_at, cand, ws):  # type: ignore[no-untyped-def]
    """What :func:`_count_row` takes, for the rows of ``batch`` (no solution kept)."""
    none = np.empty(0, np.int8)
    out = np.empty((0, batch.shape[1]), np.int8)
    return (limit, none, out, packed, locked, budget, stop_at, cand, ws)


@njit(cache=True)
def count_batch(batch, limit, packed, locked, budget, stop_at):  # type: ignore[no-untyped-def]
    """Counts (capped at ``limit``) for every row of ``batch``.

    ``BAD_VALUE`` marks a row with a bad cell value, ``GAVE_UP`` a row whose search gave up.
    """
    counts = np.empty(batch.shape[0], np.int64)
    cand, ws = _workspace(batch.shape[1])
    state = _batch_state(batch, limit, packed, locked, budget, stop_at, cand, ws)
    _rows(batch, counts, ws[6], 0, state)
    return counts


@njit(cache=True)
def count_rows(batch, limit, packed, locked, budget, stop_at, counts, mem, mem8, pause):  # type: ignore[no-untyped-def]
    """:func:`count_batch` taken in slices of about ``pause`` branch nodes (0: in one go).

    Writes the counts into ``counts`` and returns the number of rows counted
    so far: below ``n`` when the slice is spent, then call again with the
    same arguments to go on. ``mem`` and ``mem8``: as for :func:`count_part`.
    """
    cand, ws = _views(mem, mem8, batch.shape[1])
    state = _batch_state(batch, limit, packed, locked, budget, stop_at, cand, ws)
    return _rows(batch, counts, ws[6], pause, state)


@njit(cache=True)
def removable(cells, known, packed, locked, budget, stop_at):  # type: ignore[no-untyped-def]
    """The clue cells whose removal alone keeps ``known`` the only solution.

    ``known`` must be the unique solution of ``cells``. Any other solution of
    the clues less clue ``c`` differs from ``known`` at ``c`` (else it would
    solve the full clues too), so each test is one search for *any* solution
    with cell ``c`` restricted to the digits other than ``known[c]``.
    Returns the cell indices, or a one-element ``[BAD_VALUE]`` for a bad cell value
    or ``[GAVE_UP]`` when a search gave up.
    """
    geo = _unpack(packed)
    ncells = cells.shape[0]
    full = geo[5]
    cand, ws = _workspace(ncells)
    avoid = np.empty(0, np.int8)
    out = np.empty((0, ncells), np.int8)
    res = np.empty(ncells, np.int64)
    nres = 0
    base = np.empty(ncells, np.int64)
    if not _load(cells, base, full):
        res[0] = BAD_VALUE
        return res[:1]
    for c in range(ncells):
        if cells[c] == 0:
            continue
        cand[:] = base
        cand[c] = full & ~(np.int64(1) << (known[c] - 1))
        found = _search(cand, 1, avoid, out, geo, locked, budget, stop_at, ws)
        if found < 0:  # GAVE_UP or PAST_DEADLINE
            res[0] = found
            return res[:1]
        if found == 0:
            res[nres] = c
            nres += 1
    return res[:nres]


@njit(cache=True, inline="always")
def contains(items, n, x):  # type: ignore[no-untyped-def]
    """True when ``x`` is among ``items[:n]``."""
    found = False
    for m in range(n):
        found = found or items[m] == x
    return found


@njit(cache=True, inline="always")
def contains_bit(words, b):  # type: ignore[no-untyped-def]
    """True when bit ``b`` of the bitset ``words`` (bit ``b & 63`` of word ``b >> 6``) is set."""
    return (words[b >> 6] >> (b & 63)) & 1 != 0


@njit(cache=True, inline="always")
def copy_head(dst, src, n):  # type: ignore[no-untyped-def]
    """``dst[:n] = src[:n]`` by elements: a slice assignment makes numba compile its
    shape-mismatch error message (string formatting: seconds of a first run)."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def carve(buf, at, size):  # type: ignore[no-untyped-def]
    """The ``size`` words of the flat buffer ``buf`` from ``at`` on, and where the next part
    starts: a workspace laid out part after part, with one allocation."""
    return buf[at : at + size], at + size
