"""The compiled search of variant puzzles: propagation over candidate masks, depth first.

The search knows no constraint kind: a puzzle comes lowered to a few
primitives (:mod:`csp_sudoku.constraints.lowering`, which defines the
arrays' layout) and the kernel propagates those over one ``int64`` candidate
mask per cell (bit ``d - 1``: digit ``d``):

* **peers** (the units' and every "digits differ" pair of the constraints): a
  cell with one candidate takes it from its peers (naked singles);
* **units** (groups of N distinct cells): the full rounds below;
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
and queues the constraints watching it. When both queues are empty comes a
full round over the units that changed since the last one (a unit's sum of
masks falls whenever one of them shrinks):

* **hidden singles**: a digit with one place left is placed; none: a
  contradiction;
* then, if no digit was placed, **pointing across the relations**: a digit
  with two to four places in a unit is in one of them, so a cell that every
  place reaches by an arc keeps only what some place allows it (in a
  non-consecutive row whose 5 is in one of two cells side by side, neither
  holds a 4 or a 6); and **locked candidates**: a digit whose places in one
  unit all lie where it meets another (a box and a line) leaves the rest of
  that other unit.

Rounds go on until nothing changes (a fixpoint). Every step only removes
candidates no solution has, and a full grid breaking a primitive empties a
mask, so counts are exact. The last two rules make a branch node about twice
as dear (more is removed, and propagated) and the slow non-consecutive and
negative-dot puzzles take 3 to 10 times fewer branch nodes (on 1,200 random
9x9 puzzles 3.8 times fewer in all; benchmarks/results/variants_fast.md).

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
from csp_sudoku._kernels.bitset import _ctpop, _cttz, carve, int64_intrinsic
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
#: The tables of :func:`_rounds`, by index.
(
    R_START,
    R_TARGET,
    R_REACH,
    R_IN,
    R_UNITS,
    R_SEEN,
    R_NOW,
    R_PAIR_U,
    R_PAIR_V,
    R_SHARED_U,
    R_SHARED_V,
    R_ONCE,
    R_TWICE,
    R_FEW,
) = range(14)


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


@njit(cache=True, inline="always")
def _arc_row(arc_start, arc_target, src, dst):  # type: ignore[no-untyped-def]
    """The index of the arc ``src -> dst`` (its table's rows), -1 when there is none."""
    for r in range(arc_start[src], arc_start[src + 1]):
        if arc_target[r] == dst:
            return r
    return -1


@njit(cache=True)
def _rounds(m):  # type: ignore[no-untyped-def]
    """The tables of the full rounds of :func:`_propagate` (:func:`_point`, :func:`_locked`).

    A tuple indexed by the ``R_*`` names: unit ``u``'s pointing entries are
    ``R_START[u]:R_START[u + 1]``, entry ``e`` a cell ``R_TARGET[e]`` that two
    or more cells of the unit reach by an arc (a cell of the unit counting as
    reaching itself), those cells' positions in the unit the bits of
    ``R_REACH[e]``; cell ``c``'s units are
    ``R_UNITS[R_IN[c]:R_IN[c + 1]]``; pair ``k`` of units that share two or
    more cells is ``R_PAIR_U[k]``, ``R_PAIR_V[k]``, the shared cells'
    positions in each the bits of ``R_SHARED_U[k]``, ``R_SHARED_V[k]``;
    ``R_SEEN``, ``R_NOW``, ``R_ONCE``, ``R_TWICE`` and ``R_FEW`` are room for
    what :func:`_scan` reads of each unit. One allocation, made once a call of
    :func:`run` or :func:`root` (4 to 7 us on 9x9): the tables depend on the
    arrays alone.
    """
    n, ncells = m[HEAD][HEAD_SIZE], m[HEAD][HEAD_CELLS]
    unit_start, unit_cells = m[UNIT_START], m[UNIT_CELLS]
    arc_start, arc_target = m[ARC_START], m[ARC_TARGET]
    nunits = unit_start.shape[0] - 1
    nplaces = unit_cells.shape[0]
    # bounds: an entry per arc out of a unit's cell; a pair per two units of a cell
    entries = 0
    for i in range(nplaces):
        entries += arc_start[unit_cells[i] + 1] - arc_start[unit_cells[i]]
    inside = np.zeros(ncells + 1, dtype=np.int64)  # the units of each cell, counted
    for i in range(nplaces):
        inside[unit_cells[i] + 1] += 1
    pairs = 0
    for c in range(ncells):
        pairs += inside[c + 1] * (inside[c + 1] - 1) // 2
        inside[c + 1] += inside[c]
    most = max(ncells, nunits)
    size = nunits * 6 + 1 + entries * 2 + ncells + 1 + nplaces * 2 + pairs * 4 + most
    buf = np.empty(size, dtype=np.int64)
    start, at = carve(buf, 0, nunits + 1)
    target, at = carve(buf, at, entries)
    reach, at = carve(buf, at, entries)
    in_start, at = carve(buf, at, ncells + 1)
    in_units, at = carve(buf, at, nplaces)
    in_pos, at = carve(buf, at, nplaces)
    pair_u, at = carve(buf, at, pairs)
    pair_v, at = carve(buf, at, pairs)
    shared_u, at = carve(buf, at, pairs)
    shared_v, at = carve(buf, at, pairs)
    counts, at = carve(buf, at, 5 * nunits)  # R_SEEN, R_NOW, R_ONCE, R_TWICE, R_FEW
    slot, at = carve(buf, at, most)  # scratch: a target's entry, then a unit's pair, or -1
    # the units of each cell and its position in each
    in_start[:] = inside
    for u in range(nunits):
        for i in range(n):
            c = unit_cells[unit_start[u] + i]
            in_units[inside[c]] = u
            in_pos[inside[c]] = i
            inside[c] += 1
    slot[:] = -1
    e = 0
    start[0] = 0
    for u in range(nunits):
        a = unit_start[u]
        first = e
        for i in range(n):
            p = unit_cells[a + i]
            for r in range(arc_start[p], arc_start[p + 1]):
                t = arc_target[r]
                if slot[t] < 0:
                    slot[t] = e
                    target[e] = t
                    reach[e] = 0
                    e += 1
                reach[slot[t]] |= np.int64(1) << i
        for i in range(n):
            k = slot[unit_cells[a + i]]
            if k >= 0:
                reach[k] |= np.int64(1) << i
        kept = first  # keep the cells reached twice or more; reset the slots
        for k in range(first, e):
            slot[target[k]] = -1
            if reach[k] & (reach[k] - 1):
                target[kept] = target[k]
                reach[kept] = reach[k]
                kept += 1
        e = kept
        start[u + 1] = e
    # the pairs of units sharing two or more cells: slot[v] is v's pair with u, if any
    npairs = 0
    for u in range(nunits):
        first = npairs
        for i in range(n):
            c = unit_cells[unit_start[u] + i]
            for j in range(in_start[c], in_start[c + 1]):
                v = in_units[j]
                if v <= u:
                    continue
                if slot[v] < 0:
                    slot[v] = npairs
                    pair_u[npairs] = u
                    pair_v[npairs] = v
                    shared_u[npairs] = 0
                    shared_v[npairs] = 0
                    npairs += 1
                shared_u[slot[v]] |= np.int64(1) << i
                shared_v[slot[v]] |= np.int64(1) << in_pos[j]
        kept = first
        for k in range(first, npairs):
            slot[pair_v[k]] = -1
            if shared_u[k] & (shared_u[k] - 1):
                pair_u[kept] = pair_u[k]
                pair_v[kept] = pair_v[k]
                shared_u[kept] = shared_u[k]
                shared_v[kept] = shared_v[k]
                kept += 1
        npairs = kept
    return (
        start,
        target[:e],
        reach[:e],
        in_start,
        in_units,
        counts[:nunits],
        counts[nunits : 2 * nunits],
        pair_u[:npairs],
        pair_v[:npairs],
        shared_u[:npairs],
        shared_v[:npairs],
        counts[2 * nunits : 3 * nunits],
        counts[3 * nunits : 4 * nunits],
        counts[4 * nunits :],
    )


@njit(cache=True, inline="always")
def _scan(unit_start, unit_cells, cand, rt):  # type: ignore[no-untyped-def]
    """Read every unit: the sum of its masks (it falls whenever one of them shrinks) in
    ``R_NOW``, its digits with a place, with two or more, and with two to four in
    ``R_ONCE``, ``R_TWICE``, ``R_FEW``."""
    now, once_, twice_, few_ = rt[R_NOW], rt[R_ONCE], rt[R_TWICE], rt[R_FEW]
    for u in range(unit_start.shape[0] - 1):
        total = np.int64(0)
        once = np.int64(0)
        twice = np.int64(0)
        thrice = np.int64(0)
        four = np.int64(0)
        five = np.int64(0)
        for i in range(unit_start[u], unit_start[u + 1]):
            mk = cand[unit_cells[i]]
            total += mk
            five |= four & mk
            four |= thrice & mk
            thrice |= twice & mk
            twice |= once & mk
            once |= mk
        now[u] = total
        once_[u] = once
        twice_[u] = twice
        few_[u] = twice & ~five


@njit(cache=True)
def _point(m, rt, cand, stack, inq, ns):  # type: ignore[no-untyped-def]
    """Pointing across the relations, in the units changed since the last full round.

    A digit with two to four places left in a unit is in one of them, so a
    cell that all of them reach by arcs keeps only the digits some place
    allows it with the digit there (a place itself: also the digit). A
    non-consecutive row whose 5 is in one of two cells side by side takes 4
    and 6 from both; a cell beside every place of a digit in a box loses the
    digit's neighbours. The queue's length, -1 on a contradiction.
    """
    n = m[HEAD][HEAD_SIZE]
    unit_start, unit_cells = m[UNIT_START], m[UNIT_CELLS]
    arc_start, arc_target, arc_table = m[ARC_START], m[ARC_TARGET], m[ARC_TABLE]
    start, target, reach = rt[R_START], rt[R_TARGET], rt[R_REACH]
    seen, now = rt[R_SEEN], rt[R_NOW]
    spots = (np.int64(1) << n) - 1  # every position of a unit
    for u in range(unit_start.shape[0] - 1):
        few = rt[R_FEW][u]
        if start[u] == start[u + 1] or now[u] == seen[u] or few == 0:
            continue
        a = unit_start[u]
        for e in range(start[u], start[u + 1]):
            t = target[e]
            mt = cand[t]
            if mt & (mt - 1) == 0:
                continue
            near = reach[e]
            outside = np.int64(0)
            x = spots & ~near
            while x:
                outside |= cand[unit_cells[a + _cttz(x)]]
                x &= x - 1
            digits = few & ~outside  # two to four places, all of them near
            if digits == 0:
                continue
            keep = mt
            while digits:
                bit = digits & -digits
                digits ^= bit
                d = _cttz(bit)
                some = np.int64(0)
                x = near
                while x:
                    p = unit_cells[a + _cttz(x)]
                    x &= x - 1
                    if cand[p] & bit:
                        if p == t:
                            some |= bit
                        else:
                            some |= arc_table[_arc_row(arc_start, arc_target, p, t) * n + d]
                keep &= some
            ns = _narrow(cand, t, keep, stack, inq, ns)
            if ns < 0:
                return -1
    return ns


@njit(cache=True, inline="always")
def _union(cand, cells, a, spots):  # type: ignore[no-untyped-def]
    """The union of the masks of the cells ``cells[a + i]`` for the bits ``i`` of ``spots``."""
    out = np.int64(0)
    while spots:
        out |= cand[cells[a + _cttz(spots)]]
        spots &= spots - 1
    return out


@njit(cache=True, inline="always")
def _take(cand, cells, a, spots, gone, stack, inq, ns):  # type: ignore[no-untyped-def]
    """The digits ``gone`` out of the cells ``cells[a + i]`` for the bits ``i`` of ``spots``."""
    while gone and spots:
        ns = _narrow(cand, cells[a + _cttz(spots)], ~gone, stack, inq, ns)
        if ns < 0:
            return -1
        spots &= spots - 1
    return ns


@njit(cache=True)
def _locked(m, rt, cand, stack, inq, ns):  # type: ignore[no-untyped-def]
    """Locked candidates, in the pairs of units changed since the last full round: a digit
    whose places in one unit all lie where it meets another (a box and a line) is in
    that other unit there, so the rest of that unit loses it.

    The queue's length, -1 on a contradiction.
    """
    n = m[HEAD][HEAD_SIZE]
    unit_start, unit_cells = m[UNIT_START], m[UNIT_CELLS]
    seen, now = rt[R_SEEN], rt[R_NOW]
    pair_u, pair_v, shared_u, shared_v = rt[R_PAIR_U], rt[R_PAIR_V], rt[R_SHARED_U], rt[R_SHARED_V]
    few = rt[R_FEW]
    spots = (np.int64(1) << n) - 1
    for k in range(pair_u.shape[0]):
        u, v = pair_u[k], pair_v[k]
        if (now[u] == seen[u] and now[v] == seen[v]) or few[u] | few[v] == 0:
            continue
        au, av = unit_start[u], unit_start[v]
        both = _union(cand, unit_cells, au, shared_u[k])
        rest_u = _union(cand, unit_cells, au, spots & ~shared_u[k])
        rest_v = _union(cand, unit_cells, av, spots & ~shared_v[k])
        # locked by u into the shared cells: out of the rest of v; and the other way
        ns = _take(
            cand, unit_cells, av, spots & ~shared_v[k], both & ~rest_u & rest_v, stack, inq, ns
        )
        if ns < 0:
            return -1
        ns = _take(
            cand, unit_cells, au, spots & ~shared_u[k], both & ~rest_v & rest_u, stack, inq, ns
        )
        if ns < 0:
            return -1
    return ns


@njit(cache=True)
def _propagate(m, rt, cand, stack, inq, ns, kstack, ink, nk):  # type: ignore[no-untyped-def]
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
    in_start, in_units, seen, now = rt[R_IN], rt[R_UNITS], rt[R_SEEN], rt[R_NOW]
    # the units as the last full round read them (a unit's sum of masks: they only
    # shrink), but for the units of the queued cells
    _scan(unit_start, unit_cells, cand, rt)
    seen[:] = now
    for i in range(ns):
        c = stack[i]
        for j in range(in_start[c], in_start[c + 1]):
            seen[in_units[j]] = -1
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
        # the units that changed since the last full round: hidden singles and digits with
        # no place; when none is placed, pointing across the arcs and locked candidates
        _scan(unit_start, unit_cells, cand, rt)
        for u in range(nunits):
            if now[u] == seen[u]:
                continue
            once = rt[R_ONCE][u]
            twice = rt[R_TWICE][u]
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
        if not ok:
            break
        if ns > 0:
            continue
        ns = _point(m, rt, cand, stack, inq, 0)
        if ns >= 0:
            ns = _locked(m, rt, cand, stack, inq, ns)
        if ns < 0:
            ok = False
            break
        seen[:] = now
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
    saved, at = carve(ws, CONTROL, (ncells + 1) * ncells)
    cell, at = carve(ws, at, ncells + 1)
    left, at = carve(ws, at, ncells + 1)
    stack, at = carve(ws, at, ncells)
    inq, at = carve(ws, at, ncells)
    kstack, at = carve(ws, at, max(ncons, 1))
    ink, at = carve(ws, at, max(ncons, 1))
    weight, at = carve(ws, at, ncells)
    return saved.reshape((ncells + 1, ncells)), cell, left, stack, inq, kstack, ink, weight


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
    rt = _rounds(m)
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
        ok = _propagate(m, rt, top, stack, inq, ncells, kstack, ink, ncons)
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
        if not _propagate(m, rt, here, stack, inq, 1, kstack, ink, 0):
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
    return _propagate(m, _rounds(m), start, stack, inq, ncells, kstack, ink, ncons)
