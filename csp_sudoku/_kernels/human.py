"""Compiled kernels of the human-solver model (numba).

The state is the one of :class:`csp_sudoku.human.state.CandidateState`: an
``int64`` candidate mask per cell (bit ``d - 1`` for digit ``d``) and an ``int8``
value per cell (0 while empty). Geometry comes in as tables (padded peers, the
cells of each unit, the exact-cover columns), so one compiled kernel serves
every geometry of up to 62 digits.

Kernels:

* :func:`scan_singles`: every available single, in the order of
  ``CandidateState.singles`` (naked by cell, then hidden by unit and digit,
  each placement once), or -1 on a contradiction (an uncovered exact-cover
  column with no candidate: Hunt, Pong, Tucker, *Difficulty-Driven Sudoku
  Puzzle Generation*, section 2).
* :func:`singles_run`: place singles one at a time (first or random) until
  solved, stuck or contradicted, recording every step and its option count
  (Pelanek, *Difficulty Rating of Sudoku Puzzles by a Computational Model*,
  the SiSuS model and the dependency metric).
* :func:`refute_many`: the refutation of many candidates (Pelanek, section on
  the refutation score).
* :func:`_subset_core`: the constraint subset rule (Hunt, Pong, Tucker,
  theorem "Constraint Subset Rule"), every application of a size in search
  order; :func:`subset_search` is the chains' call of it. Python calls it
  through :func:`csp_sudoku._kernels.subsets.subset_kernel`, with the solve
  path's faster searches for a state with no smaller application.

Nothing imports this module at package import time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.status import CONTRADICTION, SOLVED, STEP_LIMIT, STUCK

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

# --------------------------------------------------------------------------- marks


@njit(cache=True)
def candidate_masks(values, peers, npeers, size):  # type: ignore[no-untyped-def]
    """The candidate masks of :meth:`CandidateState.from_puzzle
    <csp_sudoku.human.state.CandidateState.from_puzzle>`: an empty cell keeps the
    digits no peer holds; a clue keeps its own bit, or nothing when a peer holds
    the same digit (the clash stays visible)."""
    ncells = values.shape[0]
    full = (np.int64(1) << size) - 1
    masks = np.empty(ncells, dtype=np.int64)
    for c in range(ncells):
        used = np.int64(0)
        for j in range(npeers[c]):
            v = values[peers[c, j]]
            if v > 0:
                used |= np.int64(1) << (v - 1)
        if values[c] > 0:
            own = np.int64(1) << (values[c] - 1)
            masks[c] = 0 if used & own else own
        else:
            masks[c] = full & ~used
    return masks


# --------------------------------------------------------------------------- singles


@njit(cache=True)
def place(masks, values, peers, npeers, cell, digit):  # type: ignore[no-untyped-def]
    """Fill ``cell`` with ``digit`` and remove the digit from every peer."""
    bit = np.int64(1) << (digit - 1)
    nb = ~bit
    for k in range(npeers[cell]):
        p = peers[cell, k]
        masks[p] &= nb
    masks[cell] = bit
    values[cell] = digit


@njit(cache=True)
def scan_singles(masks, values, units, out_cell, out_digit, out_unit, seen):  # type: ignore[no-untyped-def]
    """Write every available single to the ``out_*`` arrays; return the count or -1.

    -1 means a contradiction: an empty cell without candidates, a digit placed
    twice in a unit, or a unit where a missing digit has no place left.
    ``seen`` is scratch space of one int64 per cell (overwritten).
    """
    ncells = masks.shape[0]
    nunits = units.shape[0]
    size = units.shape[1]
    full = (np.int64(1) << size) - 1
    count = 0
    for c in range(ncells):
        seen[c] = 0
        if values[c] == 0:
            m = masks[c]
            if m == 0:
                return -1
            if m & (m - 1) == 0:
                d = 0
                while (m >> d) & 1 == 0:
                    d += 1
                out_cell[count] = c
                out_digit[count] = d + 1
                out_unit[count] = -1
                seen[c] = m
                count += 1
    for u in range(nunits):
        once = np.int64(0)
        twice = np.int64(0)
        placed = np.int64(0)
        for k in range(size):
            c = units[u, k]
            v = values[c]
            if v != 0:
                b = np.int64(1) << (v - 1)
                if placed & b:
                    return -1
                placed |= b
            else:
                m = masks[c]
                twice |= once & m
                once |= m
        if (once | placed) != full:
            return -1
        hid = once & ~twice & ~placed
        if hid == 0:
            continue
        for d in range(size):
            b = np.int64(1) << d
            if hid & b == 0:
                continue
            for k in range(size):
                c = units[u, k]
                if values[c] == 0 and masks[c] & b:
                    if seen[c] & b == 0:
                        seen[c] |= b
                        out_cell[count] = c
                        out_digit[count] = d + 1
                        out_unit[count] = u
                        count += 1
                    break
    return count


@njit(cache=True, inline="always")
def join_a(a, in_a, alist, n_a, u_a, ulist, n_u, colk, colc):  # type: ignore[no-untyped-def]
    """Put column ``a`` into the subset-rule pair's A: flag and list it, flag and
    list its live candidates (``colk``/``colc``: :func:`_live_columns`). Returns
    the new ``(n_a, n_u)``, the lengths of A's lists of columns and candidates."""
    in_a[a] = True
    alist[n_a] = a
    for s in range(colk[a]):
        z = colc[a, s]
        u_a[z] = True
        ulist[n_u + s] = z
    return n_a + 1, n_u + colk[a]


@njit(cache=True, inline="always")
def _drop_b(c, v_b, in_b, colk, colc):  # type: ignore[no-untyped-def]
    """Take column ``c`` out of the pair's B: unflag it and uncount it for its candidates."""
    for t in range(colk[c]):
        v_b[colc[c, t]] -= 1
    in_b[c] = False


@njit(cache=True, inline="always")
def _open_level(kind, pos, added, ntried, lv, k):  # type: ignore[no-untyped-def]
    """Start level ``lv`` of the guided pair search as kind ``k`` (1: choose a B for a
    candidate; 2: choose a next A), with no choice made or tried yet."""
    kind[lv] = k
    pos[lv] = 0
    added[lv] = -1
    ntried[lv] = 0


@njit(cache=True)
def pair_scratch(ncand, ncols, n, width):  # type: ignore[no-untyped-def]
    """The state of a search for a subset-rule pair (A, B) of at most ``n`` columns
    each: A's candidates (bool in every search: ``_emit`` compiles once), per
    candidate the B columns holding it, A and B as column flags, and A, B and
    A's candidates as lists."""
    return (
        np.zeros(ncand, dtype=np.bool_),
        np.zeros(ncand, dtype=np.int32),
        np.zeros(ncols, dtype=np.bool_),
        np.zeros(ncols, dtype=np.bool_),
        np.empty(n, dtype=np.int32),
        np.empty(n, dtype=np.int32),
        np.empty(n * width, dtype=np.int32),
    )


@njit(cache=True)
def _scan_scratch(masks, units):  # type: ignore[no-untyped-def]
    """The output arrays of :func:`scan_singles` (cell, digit, unit of each single
    found; enough for every cell found four times and every unit-digit) and its
    per-cell ``seen`` bits."""
    oc = np.empty(masks.shape[0] * 4 + units.shape[0] * units.shape[1], dtype=np.int32)
    return oc, np.empty_like(oc), np.empty_like(oc), np.empty(masks.shape[0], dtype=np.int64)


@njit(cache=True)
def _ended(values, cnt):  # type: ignore[no-untyped-def]
    """How a run of singles ended when a scan found ``cnt <= 0`` singles:
    CONTRADICTION (``cnt < 0``), STUCK (an empty cell left) or SOLVED."""
    if cnt < 0:
        return CONTRADICTION
    for c in range(values.shape[0]):
        if values[c] == 0:
            return STUCK
    return SOLVED


@njit(cache=True, inline="always")
def _draw(r, cnt):  # type: ignore[no-untyped-def]
    """The single of ``cnt`` that the uniform draw ``r`` in [0, 1) picks."""
    return min(int(r * cnt), cnt - 1)


@njit(cache=True)
def singles_run(  # type: ignore[no-untyped-def]
    masks, values, peers, npeers, units, rand, max_steps, rec_cell, rec_digit, rec_unit, rec_options
):
    """Place singles one per step until solved, stuck, contradicted or ``max_steps``.

    The single placed is the first available one when ``rand`` is empty, else
    number ``floor(rand[step] * options)`` of the list. Steps are recorded in
    the ``rec_*`` arrays (``rec_options``: how many singles were available).

    Returns:
        (steps, status): status a :class:`~csp_sudoku._kernels.status.RunStatus`
        value (solved, stuck: no single, contradiction, or the step limit reached first).
    """
    oc, od, ou, seen = _scan_scratch(masks, units)
    steps = 0
    use_rand = rand.shape[0] > 0
    while True:
        cnt = scan_singles(masks, values, units, oc, od, ou, seen)
        if cnt <= 0:
            return steps, _ended(values, cnt)
        if steps >= max_steps:
            return steps, STEP_LIMIT
        k = 0
        if use_rand:
            k = _draw(rand[steps], cnt)
        place(masks, values, peers, npeers, oc[k], od[k])
        rec_cell[steps] = oc[k]
        rec_digit[steps] = od[k]
        rec_unit[steps] = ou[k]
        rec_options[steps] = cnt
        steps += 1


@njit(cache=True)
def singles_rounds(masks, values, peers, npeers, units):  # type: ignore[no-untyped-def]
    """Rounds of singles (Hunt, Pong, Tucker, section "Building the Metrics").

    Each round places every single visible at its start. Returns
    ``(rounds, status)`` with status as in :func:`singles_run` (never 2).
    """
    oc, od, ou, seen = _scan_scratch(masks, units)
    rounds = 0
    while True:
        cnt = scan_singles(masks, values, units, oc, od, ou, seen)
        if cnt <= 0:
            return rounds, _ended(values, cnt)
        for k in range(cnt):
            c = oc[k]
            if values[c] != 0:
                if values[c] != od[k]:
                    return rounds + 1, CONTRADICTION
                continue
            if masks[c] & (np.int64(1) << (od[k] - 1)) == 0:
                return rounds + 1, CONTRADICTION
            place(masks, values, peers, npeers, c, od[k])
        rounds += 1


@njit(cache=True)
def refute_many(masks, values, peers, npeers, units, cells, digits, rand, limit):  # type: ignore[no-untyped-def]
    """Refutation steps of each candidate ``(cells[i], digits[i])``.

    Pelanek, *Difficulty Rating of Sudoku Puzzles by a Computational Model*,
    section "Refutation score": assume the candidate, then place singles chosen
    at random (``rand[i]`` gives the draws) until a contradiction; the result
    is the number of singles placed, or ``inf`` when the singles run out (or
    ``limit`` steps pass) first.
    """
    n = cells.shape[0]
    out = np.empty(n, dtype=np.float64)
    ncells = masks.shape[0]
    oc, od, ou, seen = _scan_scratch(masks, units)
    m2 = np.empty_like(masks)
    v2 = np.empty_like(values)
    for i in range(n):
        # element loops, not ``m2[:] = masks``: a slice assignment makes numba compile
        # its shape-mismatch error message (string formatting: seconds of a first run)
        for c in range(ncells):
            m2[c] = masks[c]
            v2[c] = values[c]
        place(m2, v2, peers, npeers, cells[i], digits[i])
        steps = 0
        result = np.inf
        while True:
            cnt = scan_singles(m2, v2, units, oc, od, ou, seen)
            if cnt < 0:
                result = float(steps)
                break
            if cnt == 0 or steps >= limit or steps >= rand.shape[1]:
                break
            k = _draw(rand[i, steps], cnt)
            place(m2, v2, peers, npeers, oc[k], od[k])
            steps += 1
        out[i] = result
    return out


# --------------------------------------------------------------------------- subset rule


@njit(cache=True)
def subset_search(alive, column_candidates, candidate_columns, n, first, out):  # type: ignore[no-untyped-def]
    """Applications of the constraint subset rule of size ``n``, in search order.

    The order: A's lowest column ascending, then depth first (see
    :func:`_subset_core`); every (A, B) once.
    """
    ncols = column_candidates.shape[0]
    order = np.arange(ncols).astype(np.int32)
    return _subset_core(alive, column_candidates, candidate_columns, n, first, out, order, order)


@njit(cache=True)
def _live_columns(alive, column_candidates):  # type: ignore[no-untyped-def]
    """Per column, its live candidates: ``(count, candidates)``, the candidates
    packed at the front of each row in ``column_candidates`` order."""
    ncols = column_candidates.shape[0]
    width = column_candidates.shape[1]
    colk = np.zeros(ncols, dtype=np.int32)
    colc = np.empty((ncols, width), dtype=np.int32)
    for c in range(ncols):
        k = 0
        for t in range(width):
            x = column_candidates[c, t]
            if alive[x]:
                colc[c, k] = x
                k += 1
        colk[c] = k
    return colk, colc


@njit(cache=True, inline="always")
def _holds(candidate_columns, x, c):  # type: ignore[no-untyped-def]
    """True when candidate ``x`` lies in column ``c``."""
    for j in range(candidate_columns.shape[1]):  # noqa: SIM110 (numba: no generators in any)
        if candidate_columns[x, j] == c:
            return True
    return False


@njit(cache=True)
def _free_bound(xs, nx, covered, in_a, candidate_columns, mark, tick):  # type: ignore[no-untyped-def]
    """A lower bound on the B columns still needed: candidates of ``xs[:nx]``
    that no B covers yet (``covered[x] == 0``) and that pairwise share no
    column outside A (``in_a``) each need a B of their own. ``mark`` is
    scratch space, stamped with ``tick`` (which must be new)."""
    bound = 0
    for i in range(nx):
        x = xs[i]
        if covered[x] != 0:
            continue
        free = True
        for j in range(candidate_columns.shape[1]):
            c = candidate_columns[x, j]
            if c >= 0 and not in_a[c] and mark[c] == tick:
                free = False
                break
        if free:
            bound += 1
            for j in range(candidate_columns.shape[1]):
                c = candidate_columns[x, j]
                if c >= 0:
                    mark[c] = tick
    return bound


@njit(cache=True, inline="always")
def _first_uncovered(ulist, nu, vb):  # type: ignore[no-untyped-def]
    """The first candidate of ``ulist[:nu]`` no B covers yet, -1 for none."""
    for i in range(nu):
        if vb[ulist[i]] == 0:
            return ulist[i]
    return -1


@njit(cache=True, inline="always")
def _covers_rest(b, ulist, nu, vb, candidate_columns):  # type: ignore[no-untyped-def]
    """True when column ``b`` holds every candidate of ``ulist[:nu]`` no B covers yet."""
    for i in range(nu):
        u = ulist[i]
        if vb[u] == 0 and not _holds(candidate_columns, u, b):
            return False
    return True


@njit(cache=True)
def _emit(alist, blist, n, colk, colc, in_u, out, nout):  # type: ignore[no-untyped-def]
    """Write (A, B) as output row ``nout`` when B holds a live candidate outside A
    (``in_u``: the candidates of A), returning ``nout + 1``; else ``nout``.
    Rows beyond ``out``'s capacity are counted, not written."""
    for i in range(n):
        b = blist[i]
        for t in range(colk[b]):
            if not in_u[colc[b, t]]:
                if nout < out.shape[0]:
                    for q in range(n):
                        out[nout, q] = alist[q]
                        out[nout, n + q] = blist[q]
                return nout + 1
    return nout


@njit(cache=True)
def _subset_core(alive, column_candidates, candidate_columns, n, first, out, roots, rank):  # type: ignore[no-untyped-def]
    """Applications of the constraint subset rule of size ``n``.

    Hunt, Pong, Tucker, *Difficulty-Driven Sudoku Puzzle Generation*, theorem
    "Constraint Subset Rule": ``n`` pairwise disjoint constraints A (no two
    share a live candidate) whose live candidates all lie in ``n`` constraints
    B let every other live candidate of B go.

    The search is depth first: A starts with a column ``a1`` of ``roots`` (in
    that order); a candidate of A not yet covered branches on its other
    columns as the next B; once A is covered, the next A is a column of rank
    at least ``rank[a1]``, disjoint from A, sharing a candidate with B (and
    inside B when B is full). Only *connected* applications are produced (A
    and B linked by shared candidates); any other application splits into
    connected ones of smaller sizes that eliminate at least as much. B never
    contains an A column (such an application reduces to a smaller one too).
    A choice tried at a level is barred (in the same role) from its later
    siblings' subtrees, so each (A, B) is written once per root.

    Two cuts leave the output and its order as they are: a root whose
    candidates need more than ``n`` columns to cover is skipped
    (:func:`_free_bound`), and the last B must cover the rest of A (any
    other ends its branch at once).

    Args:
        alive: one bool per candidate (exact-cover row).
        column_candidates: ``(ncols, N)`` candidates of every column.
        candidate_columns: ``(ncand, k)`` columns of every candidate, -1 padded.
        n: the size.
        first: stop at the first application found.
        out: ``(cap, 2n)`` int32; row i gets A (n columns) then B (n columns).
        roots: the columns A is grown from, in order.
        rank: per column; A's other columns have a rank at least ``rank[a1]``
            (all equal: no bound; the column index: ``a1`` is A's lowest).

    Returns:
        The number of applications found (rows beyond ``cap`` are not written).
    """
    ncols = column_candidates.shape[0]
    width = column_candidates.shape[1]
    ncand = alive.shape[0]
    colk, colc = _live_columns(alive, column_candidates)
    uA, vB, inA, inB, alist, blist, ulist = pair_scratch(ncand, ncols, n, width)
    stamp = np.zeros(ncols, dtype=np.int64)
    tick = 0
    kk = candidate_columns.shape[1]
    depth = 2 * n + 1
    kind = np.zeros(depth, dtype=np.int8)  # 1: choose a B for candidate x; 2: choose a next A
    pos = np.zeros(depth, dtype=np.int32)
    xs = np.zeros(depth, dtype=np.int32)
    added = np.full(depth, -1, dtype=np.int32)
    cand_a = np.empty((depth, n * width * kk), dtype=np.int32)
    # choices tried at a level are banned (in that role) for its later siblings,
    # so every (A, B) is reached once
    ban_a = np.zeros(ncols, dtype=np.int32)
    ban_b = np.zeros(ncols, dtype=np.int32)
    tried = np.empty((depth, n * width * kk), dtype=np.int32)
    ntried = np.zeros(depth, dtype=np.int32)
    ncand_a = np.zeros(depth, dtype=np.int32)
    nout = np.int64(0)  # int64 from the start, like every count passed on: one compile each
    mark = np.zeros(ncols, dtype=np.int64)
    for ri in range(roots.shape[0]):
        a1 = roots[ri]
        if colk[a1] == 0:
            continue
        inA[a1] = True
        if _free_bound(colc[a1], np.int64(colk[a1]), vB, inA, candidate_columns, mark, ri + 1) > n:
            inA[a1] = False  # its candidates need more than n columns to cover
            continue
        nA, nU = join_a(a1, inA, alist, 0, uA, ulist, 0, colk, colc)
        nB = 0
        lv = -1
        expand = True
        while True:
            if expand:
                # classify the current node and push it (or record a leaf)
                expand = False
                x = _first_uncovered(ulist, nU, vB)
                if x >= 0:
                    if nB < n:
                        lv += 1
                        _open_level(kind, pos, added, ntried, lv, 1)
                        xs[lv] = x
                elif nA == n:
                    if nB == n:  # (fewer B than A covering A happens only in a contradiction)
                        found = _emit(alist, blist, n, colk, colc, uA, out, nout)
                        if found > nout:
                            nout = found
                            if first:
                                break
                else:
                    # next A: above a1, disjoint from A, sharing a candidate with B
                    # (inside B when B is full)
                    tick += 1
                    na = 0
                    lv += 1
                    for i in range(nB):
                        b = blist[i]
                        for t in range(colk[b]):
                            y = colc[b, t]
                            if uA[y]:
                                continue
                            for j in range(kk):
                                a = candidate_columns[y, j]
                                if a < 0 or rank[a] < rank[a1]:
                                    continue
                                if inA[a] or inB[a] or ban_a[a] or stamp[a] == tick:
                                    continue
                                stamp[a] = tick
                                ok = True
                                for s in range(colk[a]):
                                    z = colc[a, s]
                                    if uA[z] or (nB == n and vB[z] == 0):
                                        ok = False
                                        break
                                if ok:
                                    cand_a[lv, na] = a
                                    na += 1
                    _open_level(kind, pos, added, ntried, lv, 2)
                    ncand_a[lv] = na
            if lv < 0:
                break
            # undo the previous choice of this level
            c = added[lv]
            if c >= 0:
                if kind[lv] == 1:
                    _drop_b(c, vB, inB, colk, colc)
                    nB -= 1
                    ban_b[c] += 1
                else:
                    for s in range(colk[c]):
                        uA[colc[c, s]] = False
                    inA[c] = False
                    nA -= 1
                    nU -= colk[c]
                    ban_a[c] += 1
                tried[lv, ntried[lv]] = c
                ntried[lv] += 1
                added[lv] = -1
            # the next choice of this level
            if kind[lv] == 1:
                x = xs[lv]
                b = -1
                while pos[lv] < kk:
                    cb = candidate_columns[x, pos[lv]]
                    pos[lv] += 1
                    if cb >= 0 and not inA[cb] and ban_b[cb] == 0:
                        if nB == n - 1 and not _covers_rest(cb, ulist, nU, vB, candidate_columns):
                            continue  # the last B must cover the rest of A
                        b = cb
                        break
                if b < 0:
                    for t in range(ntried[lv]):
                        ban_b[tried[lv, t]] -= 1
                    lv -= 1
                    continue
                inB[b] = True
                blist[nB] = b
                nB += 1
                for t in range(colk[b]):
                    vB[colc[b, t]] += 1
                added[lv] = b
            else:
                if pos[lv] >= ncand_a[lv]:
                    for t in range(ntried[lv]):
                        ban_a[tried[lv, t]] -= 1
                    lv -= 1
                    continue
                a = cand_a[lv, pos[lv]]
                pos[lv] += 1
                nA, nU = join_a(a, inA, alist, nA, uA, ulist, nU, colk, colc)
                added[lv] = a
            expand = True
        # reset the whole state for the next a1
        for i in range(lv + 1):
            for t in range(ntried[i]):
                if kind[i] == 1:
                    ban_b[tried[i, t]] -= 1
                else:
                    ban_a[tried[i, t]] -= 1
            c = added[i]
            if c >= 0:
                if kind[i] == 1:
                    _drop_b(c, vB, inB, colk, colc)
                else:
                    for s in range(colk[c]):
                        uA[colc[c, s]] = False
                    inA[c] = False
        for s in range(colk[a1]):
            uA[colc[a1, s]] = False
        inA[a1] = False
        if first and nout > 0:
            break
    return nout


@njit(cache=True)
def se_hidden_singles(  # type: ignore[no-untyped-def]
    masks, values, units, is_box, peers, npeers, limit, out_cell, out_digit, out_kind, why
):
    """Sudoku Explainer's hidden singles, applied one after the other while there are any.

    Each round takes, among every (unit, digit) with exactly one live place, the
    one of least ``(kind, unit, cell)``: kind 0 when the cell is the last empty
    one of its unit (SE's 1.0), 1 in a box (1.2), 2 in a line (1.5); among equal
    keys the first in (unit, digit) order. It places it (the digit leaves every
    peer) and records ``cell``, ``digit`` (1-based) and ``kind``. It stops at
    ``limit`` placements, when the grid is full, at a contradiction (as
    :func:`scan_singles` finds one, before each round), or when no hidden single
    is left; ``why[0]`` says which (``STEP_LIMIT``, ``SOLVED``, ``CONTRADICTION``
    or ``STUCK``, the statuses of a run), so that the caller needs no scan of
    its own. Returns how many were placed.

    The same choice as ``csp_sudoku.human.se_order._hidden_single`` one step at
    a time, without a trip through Python per placement (a third of a replay's
    time was that loop).
    """
    ncells = masks.shape[0]
    nunits = units.shape[0]
    size = units.shape[1]
    cap = ncells + units.size
    oc = np.empty(cap, np.int32)
    od = np.empty(cap, np.int32)
    ou = np.empty(cap, np.int32)
    seen = np.empty(ncells, np.int64)
    done = 0
    why[0] = STEP_LIMIT
    while done < limit:
        full = True
        for c in range(ncells):
            if values[c] == 0:
                full = False
                break
        if full:
            why[0] = SOLVED
            break
        if scan_singles(masks, values, units, oc, od, ou, seen) < 0:
            why[0] = CONTRADICTION
            break
        best_kind = 3
        best_unit = -1
        best_cell = -1
        best_digit = -1
        for u in range(nunits):
            empty = 0
            for i in range(size):
                if values[units[u, i]] == 0:
                    empty += 1
            kind = 0 if empty == 1 else (1 if is_box[u] else 2)
            if kind > best_kind:
                continue  # a later unit cannot beat the best: its key is larger
            for d in range(size):
                bit = np.int64(1) << d
                placed = False
                where = -1
                n = 0
                for i in range(size):
                    c = units[u, i]
                    if values[c] == d + 1:
                        placed = True
                        break
                    if values[c] == 0 and masks[c] & bit:
                        n += 1
                        where = c
                if placed or n != 1:
                    continue
                if kind < best_kind or (
                    kind == best_kind and (u < best_unit or (u == best_unit and where < best_cell))
                ):
                    best_kind = kind
                    best_unit = u
                    best_cell = where
                    best_digit = d
        if best_cell < 0:
            why[0] = STUCK
            break
        bit = np.int64(1) << best_digit
        values[best_cell] = best_digit + 1
        for i in range(npeers[best_cell]):
            masks[peers[best_cell, i]] &= ~bit
        masks[best_cell] = bit
        out_cell[done] = best_cell
        out_digit[done] = best_digit + 1
        out_kind[done] = best_kind
        done += 1
    return done
