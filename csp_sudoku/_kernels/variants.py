"""The compiled search of variant puzzles: propagation over candidate masks, depth first.

The search knows no constraint kind: a puzzle comes lowered to a few
primitives (:mod:`csp_sudoku.constraints.lowering`, which defines the
arrays' layout) and the kernel propagates those over one ``int64`` candidate
mask per cell (bit ``d - 1``: digit ``d``):

* **peers** (the units' and every "digits differ" pair of the constraints): a
  cell with one candidate takes it from its peers (naked singles);
* **units** (groups of N distinct cells): a digit with one place left is
  placed (hidden singles); a digit with none is a contradiction;
* **arcs**: a binary relation kept arc consistent, one direction an arc: the
  target keeps the digits some candidate of the source allows (a table row
  a source digit);
* **linear sums** ``sum(coef * digit) == rhs``: bounds propagation, each term
  within what the others leave;
* **combinations**: distinct cells whose digits form one of some sets (masks):
  the sets that still fit (each holds the placed digits, lies in the cells'
  candidates and meets every cell) give the candidates; a digit of all of them
  with one cell left is placed there;
* **between lines** and **sandwiches**, each its own bounds reasoning.

A cell whose mask changes is queued; reading it applies its peers and arcs
and queues the constraints watching it; units are scanned when both queues
are empty, until nothing changes (a fixpoint). Every step only removes
candidates no solution has, and a full grid breaking a primitive empties a
mask, so counts are exact.

The search branches on the cell with the fewest candidates per failure
weight (``dom/wdeg``: a cell's weight counts the branches on it whose
propagation failed and the failures that emptied it, learnt as the search
goes), digits in increasing order, one saved state per level. The weights
only steer the order, never what is counted: on 900 random 9x9 puzzles they
took 45% fewer branch nodes than the fewest candidates alone
(benchmarks/results/variants_fast.md). It is resumable: its place is
kept in a workspace (:func:`workspace`) and :func:`run` returns when it has
counted ``want`` solutions, when the tree is exhausted, or when its slice of
branch nodes is spent (``PAUSED``), so the caller can check solutions
against constraints the kernel does not know (leaves), look whether to stop
between slices, and go on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.core import cgutils
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.bitset import _ctpop, _cttz, int64_intrinsic
from csp_sudoku._kernels.status import PAUSED
from csp_sudoku.constraints.lowering import (
    ARC_START,
    ARC_TABLE,
    ARC_TARGET,
    BETWEEN,
    COMBINATION,
    CON_COEF,
    CON_END,
    CON_INFO,
    CON_P0,
    CON_P1,
    CON_START,
    CON_TYPE,
    CON_WIDTH,
    HEAD,
    HEAD_CELLS,
    HEAD_CONS,
    HEAD_SIZE,
    INIT,
    LINEAR,
    PEER_START,
    PEERS,
    SANDWICH,
    SETS,
    UNIT_CELLS,
    UNIT_START,
    WATCH_START,
    WATCHES,
)
from csp_sudoku.constraints.lowering import CON_CELLS as CELLS

init_numba_target()  # numba's CPU target without its BLAS probe (see there)


#: Count of leading zero bits of a non-zero int64 (LLVM ``ctlz``).
_ctlz: Any = int64_intrinsic("_ctlz", lambda builder, x: builder.ctlz(x, cgutils.false_bit))

#: The control words at the start of a workspace: branch nodes taken, the depth,
#: solutions counted, the phase (:data:`FRESH`, :data:`SEARCHING`, :data:`EXHAUSTED`).
AT_NODES, AT_DEPTH, AT_COUNT, AT_PHASE = range(4)
CONTROL = 4
#: Phases: the root not yet propagated; a search under way; the tree exhausted.
FRESH, SEARCHING, EXHAUSTED = range(3)


@njit(cache=True, inline="always")
def _low(m):  # type: ignore[no-untyped-def]
    """The smallest digit of a non-empty mask."""
    return _cttz(m) + 1


@njit(cache=True, inline="always")
def _high(m):  # type: ignore[no-untyped-def]
    """The largest digit of a non-empty mask."""
    return 64 - _ctlz(m)


@njit(cache=True, inline="always")
def _span(lo, hi, n):  # type: ignore[no-untyped-def]
    """The mask of the digits ``lo..hi`` (clamped to ``1..n``; 0 when empty)."""
    if lo < 1:
        lo = 1
    if hi > n:
        hi = n
    if lo > hi:
        return np.int64(0)
    return ((np.int64(1) << hi) - 1) & ~((np.int64(1) << (lo - 1)) - 1)


@njit(cache=True, inline="always")
def _narrow(cand, c, keep, stack, inq, ns):  # type: ignore[no-untyped-def]
    """``cand[c] &= keep``, queueing ``c`` when it changed; the queue's length, -1 when empty."""
    old = cand[c]
    new = old & keep
    if new == old:
        return ns
    if new == 0:
        cand[c] = 0  # the cell that emptied, for the branching weights (the state is dropped)
        return -1
    cand[c] = new
    if not inq[c]:
        inq[c] = 1
        stack[ns] = c
        ns += 1
    return ns


@njit(cache=True, inline="always")
def _narrow_all(cand, cells, a, b, keep, stack, inq, ns):  # type: ignore[no-untyped-def]
    """:func:`_narrow` of each cell of ``cells[a:b]``; the queue's length, -1 when one empties."""
    for i in range(a, b):
        ns = _narrow(cand, cells[i], keep, stack, inq, ns)
        if ns < 0:
            return -1
    return ns


@njit(cache=True, inline="always")
def _con(m, k):  # type: ignore[no-untyped-def]
    """Constraint ``k``'s row of the table: its cells' range ``a, b`` in ``CELLS`` and its
    parameters ``P0``, ``P1``."""
    info = m[CON_INFO]
    row = k * CON_WIDTH
    return info[row + CON_START], info[row + CON_END], info[row + CON_P0], info[row + CON_P1]


@njit(cache=True)
def _linear(m, k, cand, stack, inq, ns):  # type: ignore[no-untyped-def]
    """Bounds propagation of ``sum(coef * digit) == rhs``."""
    cells, coef = m[CELLS], m[CON_COEF]
    n = m[HEAD][HEAD_SIZE]
    a, b, rhs, _ = _con(m, k)
    lo = 0
    hi = 0
    for i in range(a, b):
        mk = cand[cells[i]]
        q = coef[i]
        if q > 0:
            lo += q * _low(mk)
            hi += q * _high(mk)
        else:
            lo += q * _high(mk)
            hi += q * _low(mk)
    if rhs < lo or rhs > hi:
        return -1
    if hi == lo:
        return ns
    for i in range(a, b):
        c = cells[i]
        mk = cand[c]
        q = coef[i]
        if q > 0:
            tmin, tmax = q * _low(mk), q * _high(mk)
        else:
            tmin, tmax = q * _high(mk), q * _low(mk)
        up = rhs - (lo - tmin)  # the most this term may be
        down = rhs - (hi - tmax)  # the least
        # digits whose term lies in [down, up] (a negative coefficient turns the bounds)
        keep = _span(-(-down // q), up // q, n) if q > 0 else _span(-(-up // q), down // q, n)
        ns = _narrow(cand, c, keep, stack, inq, ns)
        if ns < 0:
            return -1
    return ns


@njit(cache=True)
def _combination(m, k, cand, stack, inq, ns):  # type: ignore[no-untyped-def]
    """The digit sets of a group of distinct cells: keep the digits of the sets that fit."""
    cells, sets = m[CELLS], m[SETS]
    a, b, first_set, end_set = _con(m, k)
    union = np.int64(0)
    placed = np.int64(0)
    for i in range(a, b):
        mk = cand[cells[i]]
        union |= mk
        if mk & (mk - 1) == 0:
            placed |= mk
    allowed = np.int64(0)
    common = np.int64(-1)
    for s in range(first_set, end_set):
        digits = sets[s]
        if digits & placed != placed or digits & ~union:
            continue
        fits = True
        for i in range(a, b):
            if cand[cells[i]] & digits == 0:
                fits = False
                break
        if fits:
            allowed |= digits
            common &= digits
    if allowed == 0:
        return -1
    ns = _narrow_all(cand, cells, a, b, allowed, stack, inq, ns)
    if ns < 0:
        return -1
    need = common & ~placed
    while need:
        bit = need & -need
        need ^= bit
        where = -1
        for i in range(a, b):
            if cand[cells[i]] & bit:
                if where >= 0:
                    where = -2
                    break
                where = cells[i]
        if where == -1:
            return -1
        if where >= 0:
            ns = _narrow(cand, where, bit, stack, inq, ns)
            if ns < 0:
                return -1
    return ns


@njit(cache=True)
def _between(m, k, cand, stack, inq, ns):  # type: ignore[no-untyped-def]
    """A between line: the inner digits lie strictly between the two ends, either way up."""
    cells = m[CELLS]
    n = m[HEAD][HEAD_SIZE]
    a, b, _, _ = _con(m, k)
    first, last = cells[a], cells[a + 1]
    inner_low = 0  # the largest of the inner cells' smallest digits
    inner_high = n + 1  # the smallest of their largest digits
    for i in range(a + 2, b):
        mk = cand[cells[i]]
        inner_low = max(inner_low, _low(mk))
        inner_high = min(inner_high, _high(mk))
    keep_first = np.int64(0)
    keep_last = np.int64(0)
    keep_inner = np.int64(0)
    for way in range(2):
        low_end, high_end = (first, last) if way == 0 else (last, first)
        low = cand[low_end] & _span(1, inner_high - 1, n)
        high = cand[high_end] & _span(inner_low + 1, n, n)
        if low == 0 or high == 0:
            continue
        low &= _span(1, _high(high) - 2, n)
        if low == 0:
            continue
        high &= _span(_low(low) + 2, n, n)
        if high == 0:
            continue
        keep_inner |= _span(_low(low) + 1, _high(high) - 1, n)
        if way == 0:
            keep_first |= low
            keep_last |= high
        else:
            keep_first |= high
            keep_last |= low
    if keep_inner == 0:
        return -1
    ns = _narrow(cand, first, keep_first, stack, inq, ns)
    if ns < 0:
        return -1
    ns = _narrow(cand, last, keep_last, stack, inq, ns)
    if ns < 0:
        return -1
    return _narrow_all(cand, cells, a + 2, b, keep_inner, stack, inq, ns)


@njit(cache=True)
def _sandwich(m, k, cand, stack, inq, ns):  # type: ignore[no-untyped-def]
    """A sandwich: the digits each cell takes with some pair of places of the 1 and the N
    whose cells between can hold the sum (their bounds), the others removed."""
    cells = m[CELLS]
    n = m[HEAD][HEAD_SIZE]
    a, _, total, _ = _con(m, k)
    one = np.int64(1)
    big = one << (n - 1)
    middle = big - 2  # the digits 2..N-1
    ones = np.int64(0)  # places that may hold the 1, as a bitmask of positions
    bigs = np.int64(0)
    for i in range(n):
        mk = cand[cells[a + i]]
        if mk & one:
            ones |= one << i
        if mk & big:
            bigs |= one << i
    allowed = np.zeros(n, dtype=np.int64)  # the digits of each place kept so far
    outside = np.int64(0)  # places outside some feasible pair's stretch
    x = ones
    while x:
        i = _cttz(x)
        x &= x - 1
        # walk away from the 1 both ways, the bounds of the digits passed kept as sums
        for step in (-1, 1):
            slo = 0
            shi = 0
            inside = 0
            j = i + step
            while 0 <= j < n:
                if bigs & (one << j):
                    # distinct digits of 2..N-1: at least 2+..+(inside+1), at most the top ones
                    lo = max(slo, inside * (inside + 3) // 2)
                    hi = min(shi, inside * (2 * n - inside - 1) // 2)
                    if lo <= total <= hi:
                        allowed[i] |= one
                        allowed[j] |= big
                        s, e = (i, j) if i < j else (j, i)
                        outside |= ((one << n) - 1) & ~(((one << (e + 1)) - 1) & ~((one << s) - 1))
                        for t in range(s + 1, e):
                            mk = cand[cells[a + t]] & middle
                            low_t = _low(mk)
                            high_t = _high(mk)
                            allowed[t] |= mk & _span(
                                total - (shi - high_t), total - (slo - low_t), n
                            )
                mk = cand[cells[a + j]] & middle
                if mk == 0 or slo > total:
                    break  # no place further on has this cell between the 1 and the N
                slo += _low(mk)
                shi += _high(mk)
                inside += 1
                j += step
    for t in range(n):
        keep = allowed[t]
        if outside & (one << t):
            keep |= middle
        ns = _narrow(cand, cells[a + t], keep, stack, inq, ns)
        if ns < 0:
            return -1
    return ns


@njit(cache=True)
def _revise(m, k, cand, stack, inq, ns):  # type: ignore[no-untyped-def]
    """Revise constraint ``k``; the queue's length, -1 on a contradiction."""
    code = m[CON_INFO][k * CON_WIDTH + CON_TYPE]
    if code == LINEAR:
        return _linear(m, k, cand, stack, inq, ns)
    if code == COMBINATION:
        return _combination(m, k, cand, stack, inq, ns)
    if code == BETWEEN:
        return _between(m, k, cand, stack, inq, ns)
    if code == SANDWICH:
        return _sandwich(m, k, cand, stack, inq, ns)
    return ns


@njit(cache=True)
def _propagate(m, cand, stack, inq, ns, kstack, ink, nk):  # type: ignore[no-untyped-def]
    """Propagate the queued cells and constraints to a fixpoint; False on a contradiction.

    ``stack[:ns]`` are the queued cells (``inq`` their flags), ``kstack[:nk]``
    the queued constraints (``ink``). Both queues are empty on return.
    """
    n = m[HEAD][HEAD_SIZE]
    full = (np.int64(1) << n) - 1
    peer_start, peers = m[PEER_START], m[PEERS]
    arc_start, arc_target, arc_table = m[ARC_START], m[ARC_TARGET], m[ARC_TABLE]
    watch_start, watches = m[WATCH_START], m[WATCHES]
    unit_start, unit_cells = m[UNIT_START], m[UNIT_CELLS]
    nunits = unit_start.shape[0] - 1
    ok = True
    while ok:
        while ns > 0 or nk > 0:
            if ns > 0:
                ns -= 1
                c = stack[ns]
                inq[c] = 0
                mk = cand[c]
                if mk == 0:  # only a start can hold an empty cell
                    ok = False
                    break
                if mk & (mk - 1) == 0:
                    ns = _narrow_all(
                        cand, peers, peer_start[c], peer_start[c + 1], ~mk, stack, inq, ns
                    )
                    if ns < 0:
                        ok = False
                        break
                for r in range(arc_start[c], arc_start[c + 1]):
                    support = np.int64(0)
                    x = mk
                    while x:
                        support |= arc_table[r * n + _cttz(x)]
                        x &= x - 1
                    ns = _narrow(cand, arc_target[r], support, stack, inq, ns)
                    if ns < 0:
                        ok = False
                        break
                if not ok:
                    break
                for w in range(watch_start[c], watch_start[c + 1]):
                    k = watches[w]
                    if not ink[k]:
                        ink[k] = 1
                        kstack[nk] = k
                        nk += 1
            else:
                nk -= 1
                k = kstack[nk]
                ink[k] = 0
                ns = _revise(m, k, cand, stack, inq, ns)
                if ns < 0:
                    ok = False
                    break
        if not ok:
            break
        # hidden singles, and digits with no place, in the units
        for u in range(nunits):
            once = np.int64(0)
            twice = np.int64(0)
            for i in range(unit_start[u], unit_start[u + 1]):
                mk = cand[unit_cells[i]]
                twice |= once & mk
                once |= mk
            if once != full:
                ok = False
                break
            single = once & ~twice
            if single == 0:
                continue
            for i in range(unit_start[u], unit_start[u + 1]):
                c = unit_cells[i]
                h = cand[c] & single
                if h and cand[c] != h:
                    if h & (h - 1):
                        ok = False
                        break
                    ns = _narrow(cand, c, h, stack, inq, ns)
            if not ok:
                break
        if ns == 0:
            break
    if not ok:  # leave the queues empty for the next call (``ns`` may be lost: all flags)
        inq[:] = 0
        ink[:] = 0
    return ok


@njit(cache=True, inline="always")
def _pick(cand, ncells, weight):  # type: ignore[no-untyped-def]
    """The cell with the fewest candidates (two or more) per failure weight; -1 when every
    cell has one."""
    best = -1
    fewest = 65
    wbest = 1
    for c in range(ncells):
        k = _ctpop(cand[c])
        if k > 1:
            w = weight[c] + 1
            if k * wbest < fewest * w:
                best = c
                fewest = k
                wbest = w
    return best


def workspace(ncells: int, ncons: int) -> NDArray[np.int64]:
    """A fresh workspace of a search over ``ncells`` cells and ``ncons`` constraints."""
    size = CONTROL + (ncells + 1) * ncells + 2 * (ncells + 1) + 3 * ncells + 2 * max(ncons, 1)
    return np.zeros(size, dtype=np.int64)


@njit(cache=True, inline="always")
def _views(ws, ncells, ncons):  # type: ignore[no-untyped-def]
    """The parts of a workspace: control words, saved states, branch cells and digits left
    per level, the cell queue and its flags, the constraint queue and its flags, the
    cells' failure weights."""
    at = CONTROL
    saved = ws[at : at + (ncells + 1) * ncells].reshape((ncells + 1, ncells))
    at += (ncells + 1) * ncells
    cell = ws[at : at + ncells + 1]
    at += ncells + 1
    left = ws[at : at + ncells + 1]
    at += ncells + 1
    stack = ws[at : at + ncells]
    at += ncells
    inq = ws[at : at + ncells]
    at += ncells
    nc = max(ncons, 1)
    kstack = ws[at : at + nc]
    at += nc
    ink = ws[at : at + nc]
    at += nc
    weight = ws[at : at + ncells]
    return saved, cell, left, stack, inq, kstack, ink, weight


@njit(cache=True, nogil=True)
def load(m, start, ws):  # type: ignore[no-untyped-def]
    """Set ``ws`` to search from the candidate masks ``start`` (ANDed with the cells' own)."""
    ncells, ncons = m[HEAD][HEAD_CELLS], m[HEAD][HEAD_CONS]
    views = _views(ws, ncells, ncons)
    saved, weight = views[0], views[7]
    init = m[INIT]
    for c in range(ncells):
        saved[0, c] = start[c] & init[c]
        weight[c] = 0
    ws[AT_NODES] = 0
    ws[AT_DEPTH] = 0
    ws[AT_COUNT] = 0
    ws[AT_PHASE] = FRESH


@njit(cache=True, inline="always")
def _record(cand, ncells, out, count, last):  # type: ignore[no-untyped-def]
    for c in range(ncells):
        last[c] = _cttz(cand[c]) + 1
    if count < out.shape[0]:
        for c in range(ncells):
            out[count, c] = last[c]


@njit(cache=True, nogil=True)
def run(m, ws, want, out, last, stop):  # type: ignore[no-untyped-def]
    """Go on with the search of ``ws`` until it has counted ``want`` solutions in all.

    Each solution found is written to ``last`` (digits, ``int8``) and, while
    the count is below ``out.shape[0]``, to its row of ``out``. Returns the
    count when it reaches ``want`` or the tree is exhausted (the phase word
    then says :data:`EXHAUSTED`), or ``PAUSED`` once the branch nodes taken
    reach ``stop`` (call again to go on).
    """
    ncells, ncons = m[HEAD][HEAD_CELLS], m[HEAD][HEAD_CONS]
    saved, cell, left, stack, inq, kstack, ink, weight = _views(ws, ncells, ncons)
    count = ws[AT_COUNT]
    nodes = ws[AT_NODES]
    depth = ws[AT_DEPTH]
    if ws[AT_PHASE] == EXHAUSTED:
        return count
    if ws[AT_PHASE] == FRESH:
        ws[AT_PHASE] = SEARCHING
        top = saved[0]
        for c in range(ncells):
            stack[c] = c
            inq[c] = 1
        for k in range(ncons):
            kstack[k] = k
            ink[k] = 1
        ok = _propagate(m, top, stack, inq, ncells, kstack, ink, ncons)
        c = _pick(top, ncells, weight) if ok else -1
        if not ok or c < 0:
            ws[AT_PHASE] = EXHAUSTED
            if ok:
                _record(top, ncells, out, count, last)
                count += 1
                ws[AT_COUNT] = count
            return count
        cell[0] = c
        left[0] = top[c]
        depth = 0
    while True:
        if depth < 0:
            ws[AT_PHASE] = EXHAUSTED
            ws[AT_COUNT] = count
            ws[AT_NODES] = nodes
            return count
        rest = left[depth]
        if rest == 0:
            depth -= 1
            continue
        if nodes >= stop:
            ws[AT_COUNT] = count
            ws[AT_NODES] = nodes
            ws[AT_DEPTH] = depth
            return PAUSED
        bit = rest & -rest
        left[depth] = rest ^ bit
        nodes += 1
        here = saved[depth + 1]
        src = saved[depth]
        for i in range(ncells):
            here[i] = src[i]
        c = cell[depth]
        here[c] = bit
        stack[0] = c
        inq[c] = 1
        if not _propagate(m, here, stack, inq, 1, kstack, ink, 0):
            weight[c] += 1
            for i in range(ncells):
                if here[i] == 0:
                    weight[i] += 1
            continue
        c = _pick(here, ncells, weight)
        if c < 0:
            _record(here, ncells, out, count, last)
            count += 1
            if count >= want:
                ws[AT_COUNT] = count
                ws[AT_NODES] = nodes
                ws[AT_DEPTH] = depth
                return count
            continue
        depth += 1
        cell[depth] = c
        left[depth] = here[c]


@njit(cache=True, nogil=True)
def root(m, start, ws):  # type: ignore[no-untyped-def]
    """The candidates left by propagation from ``start`` alone, in ``start``; False on a contradiction."""
    ncells, ncons = m[HEAD][HEAD_CELLS], m[HEAD][HEAD_CONS]
    _saved, _cell, _left, stack, inq, kstack, ink, _weight = _views(ws, ncells, ncons)
    init = m[INIT]
    for c in range(ncells):
        start[c] &= init[c]
        stack[c] = c
        inq[c] = 1
    for k in range(ncons):
        kstack[k] = k
        ink[k] = 1
    return _propagate(m, start, stack, inq, ncells, kstack, ink, ncons)
