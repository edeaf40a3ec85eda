"""Compiled kernels of graded refutation: forcing chains over the exact-cover matrix.

A *hypothesis* assumes one candidate true and propagates its consequences
until a contradiction or a fixpoint. Every consequence is a **record** (one
literal made true: a candidate placed, ON, or removed, OFF) with the records
it follows from (its *parents*), so the chain from the assumption to the
contradiction can be read back: it is an implication graph, as in Sudoku
Explainer's dynamic forcing chains. The levels of propagation (Pelanek's
refutation, *Difficulty Rating of Sudoku Puzzles by a Computational Model*,
section "Refutation score", made stronger step by step):

* level 0: singles only. An ON candidate removes the other candidates of its
  columns (:data:`ELIM`); a column left with one candidate places it
  (:data:`SINGLE`: a naked single for a cell column, a hidden single for a
  unit-digit column); a column left with none is a contradiction.
* level 1: singles, then the constraint subset rule (Hunt, Pong, Tucker,
  *Difficulty-Driven Sudoku Puzzle Generation*, theorem "Constraint Subset
  Rule") up to a size, on the hypothetical candidates (:data:`SUBSET`).
* level 2: level 1, then *nested* refutation: a candidate whose own level-1
  (or level-0) hypothesis contradicts inside the outer hypothesis is removed
  (:data:`NESTED`); its parents are the outer records the inner chain used.

Records are appended in breadth-first order and processed from a queue, so a
contradiction is reached by (near) shortest chains. A record's parents are
record indices of the same hypothesis; a negative parent ``-(r + 1)`` is
record ``r`` of the enclosing hypothesis (for nested refutations). Literals
false before the hypothesis began are facts and have no record.

Layout: ``rec[i] = (literal, kind, info, parent start, parent count, weight)``
with literal ``k`` for "candidate k ON", ``ncand + k`` for "candidate k OFF"
and -1 for the contradiction; ``info`` is the column of a single, an
elimination or a contradiction, the application index of a subset step, or
the inner chain's length of a nested one; ``weight`` is what the record adds to
a chain's length (1, or 1 + the inner chain's length for a nested step).
``meta = (records, parents, queue head, applications, overflow)``: the parent
array is sized by :func:`parent_slots`, enough for every record of a
hypothesis without nested refutations; a nested record lists the outer
records its inner chain used, which has no small bound, so a parent that does
not fit is dropped and ``meta[4]`` set (the caller sizes up and runs again when
it needs the whole graph).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.human import _holds, subset_search
from csp_sudoku._kernels.status import FIXPOINT, NOT_FOUND, OUT_OF_BUDGET

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

#: The kinds of a chain's records: the assumption, an elimination, a single, a
#: subset-rule elimination, a nested chain's elimination, the contradiction.
ASSUME, ELIM, SINGLE, SUBSET, NESTED, CONTRA = range(6)

REC_WIDTH = 6
META_WIDTH = 5


@njit(cache=True)
def parent_slots(nrec, width, maxsub):  # type: ignore[no-untyped-def]
    """Parent entries that records of a hypothesis without nesting can need.

    A single or a contradiction has at most ``width`` parents, an elimination
    one, a subset-rule elimination at most ``maxsub * width``.
    """
    return nrec * (width * max(maxsub, 1) + 2)


@njit(cache=True, inline="always")
def _record(rec, meta, lit_rec, lean, i, lit, kind, info, creator, other):  # type: ignore[no-untyped-def]
    """Write record ``i``: literal ``lit`` made true by rule ``kind``.

    A full record (``lean`` False) starts an empty parent list at the next
    parent slot, weight 1. A lean one (:func:`refute_level0`) keeps, in place
    of the parent list, the record processed when it was made (``creator``,
    -1 for a column emptied) and, for a clash, the other placed candidate
    (``other``, -1 otherwise), from which :func:`_lean_parents` finds the
    parents when they are needed.
    """
    rec[i, 0] = lit
    rec[i, 1] = kind
    rec[i, 2] = info
    if lean:
        rec[i, 3] = creator
        rec[i, 4] = other
    else:
        rec[i, 3] = meta[1]
        rec[i, 4] = 0
        rec[i, 5] = 1
    if lit >= 0:
        lit_rec[lit] = i


#: One signature each for the two record writers, called with literal kinds
#: and int32 or int64 indices from many places: compiled once, not once per
#: literal kind (seven times before).
@njit("int32(int32[:, ::1], int32[::1], int32[::1], int64, int64, int64)", cache=True)
def _new(rec, meta, lit_rec, lit, kind, info):  # type: ignore[no-untyped-def]
    i = meta[0]
    _record(rec, meta, lit_rec, False, i, lit, kind, info, -1, -1)
    meta[0] = i + 1
    return i


@njit("void(int32[:, ::1], int32[::1], int32[::1], int64, int64)", cache=True)
def _par(rec, par, meta, i, p):  # type: ignore[no-untyped-def]
    if meta[1] >= par.shape[0]:
        meta[4] = 1  # no room: see the module doc
        return
    par[meta[1]] = p
    meta[1] += 1
    rec[i, 4] += 1


@njit(cache=True)
def _off_parent(rec, par, meta, lit_rec, ext, i, ncand, x):  # type: ignore[no-untyped-def]
    """Add the record that removed candidate ``x`` as a parent of ``i`` (none for a fact)."""
    r = lit_rec[ncand + x]
    if r >= 0:
        _par(rec, par, meta, i, r)
    else:
        e = ext[ncand + x]
        if e >= 0:
            _par(rec, par, meta, i, -(e + 1))


@njit(cache=True)
def reset(rec, meta, lit_rec):  # type: ignore[no-untyped-def]
    """Forget the records of a hypothesis (``lit_rec`` back to -1)."""
    for i in range(meta[0]):
        lit = rec[i, 0]
        if lit >= 0:
            lit_rec[lit] = -1
    meta[0] = 0
    meta[1] = 0
    meta[2] = 0
    meta[3] = 0
    meta[4] = 0


@njit(cache=True, inline="always")
def assume(alive, on, rec, meta, lit_rec, k):  # type: ignore[no-untyped-def]
    """Start a hypothesis: candidate ``k`` ON (returns its record)."""
    on[k] = 1
    return _new(rec, meta, lit_rec, k, ASSUME, -1)


@njit(cache=True, inline="always")
def _singles(state, cc, kc, recs, lean, log, nlog):  # type: ignore[no-untyped-def]
    """Process the queue of records to a fixpoint of the singles rules.

    An ON literal covers its uncovered columns and removes their other live
    candidates (:data:`ELIM`; a second ON candidate there is a contradiction);
    an OFF literal counts its uncovered columns down (none left: a
    contradiction; one left: it is placed, :data:`SINGLE`). Returns the
    contradiction's record, or ``FIXPOINT``.

    The one copy of these rules, for :func:`propagate` (``lean`` False: each
    record gets its parents) and :func:`refute_level0` (``lean`` True: see
    :func:`_record`; and every column covered (``log[0]``) or counted down
    (``log[1]``) is logged, ``nlog`` entries each, for the undo; the full
    form neither reads nor writes them). ``lean`` is a constant at both
    calls and the helper is inlined, so the other form's code compiles away;
    the counters stay in locals in the loop (level 0 measured 1.14x slower
    with them in ``meta``, see benchmarks/results/kernel_twins.md).
    """
    alive, on, cnt, cov = state
    rec, par, meta, lit_rec, ext, _ = recs
    ncand = alive.shape[0]
    width = cc.shape[1]
    kk = kc.shape[1]
    n = meta[0]
    head = meta[2]
    ncov = 0
    ncnt = 0
    contra = FIXPOINT
    while head < n and contra < 0:
        i = head
        head += 1
        lit = rec[i, 0]
        if lit < ncand:
            k = lit
            for t in range(kk):
                c = kc[k, t]
                if c < 0:
                    break
                if cov[c]:
                    continue
                cov[c] = 1
                if lean:
                    log[0, ncov] = c
                    ncov += 1
                for s in range(width):
                    j = cc[c, s]
                    if j == k or not alive[j]:
                        continue
                    if on[j]:
                        contra = n
                        n += 1
                        _record(rec, meta, lit_rec, lean, contra, -1, CONTRA, c, i, j)
                        if not lean:
                            _par(rec, par, meta, contra, i)
                            _par(rec, par, meta, contra, lit_rec[j])
                        break
                    alive[j] = 0
                    r = n
                    n += 1
                    _record(rec, meta, lit_rec, lean, r, ncand + j, ELIM, c, i, -1)
                    if not lean:
                        _par(rec, par, meta, r, i)
                if contra >= 0:
                    break
        else:
            j = lit - ncand
            for t in range(kk):
                c = kc[j, t]
                if c < 0:
                    break
                if cov[c]:
                    continue
                cnt[c] -= 1
                if lean:
                    log[1, ncnt] = c
                    ncnt += 1
                if cnt[c] == 0:
                    contra = n
                    n += 1
                    _record(rec, meta, lit_rec, lean, contra, -1, CONTRA, c, -1, -1)
                    if not lean:
                        for s in range(width):
                            _off_parent(rec, par, meta, lit_rec, ext, contra, ncand, cc[c, s])
                    break
                if cnt[c] == 1:
                    x = _first_live(alive, cc, c)
                    if x < 0 or on[x]:
                        continue
                    on[x] = 1
                    r = n
                    n += 1
                    _record(rec, meta, lit_rec, lean, r, x, SINGLE, c, i, -1)
                    if not lean:
                        for s in range(width):
                            y = cc[c, s]
                            if y != x:
                                _off_parent(rec, par, meta, lit_rec, ext, r, ncand, y)
    meta[0] = n
    meta[2] = head
    if lean:
        nlog[0] = ncov
        nlog[1] = ncnt
    return contra


@njit(cache=True)
def propagate(state, cc, kc, recs, maxsub):  # type: ignore[no-untyped-def]
    """Process the queue to a fixpoint (singles, then subsets up to ``maxsub``).

    ``state`` is the hypothesis state ``(alive, on, cnt, cov)`` and ``recs``
    the record arrays ``(rec, par, meta, lit_rec, ext, apps)`` (see the
    module doc). Returns the contradiction's record, or -1 at a fixpoint
    without one. ``cnt`` counts the live candidates of every column not yet
    covered and ``cov`` marks the covered columns (a column holding an ON
    candidate whose record has been processed).
    """
    # the full form keeps no log: arrays of the log's types stand in, untouched
    rec, meta = recs[0], recs[2]
    while True:
        r = _singles(state, cc, kc, recs, False, rec, meta)
        if r >= 0:
            return r
        if maxsub <= 0:
            return FIXPOINT
        if not _subset_move(state[0], state[1], cc, kc, recs, maxsub):
            return FIXPOINT


@njit(cache=True, inline="always")
def _first_live(alive, cc, c):  # type: ignore[no-untyped-def]
    """The first live candidate of column ``c`` (in ``cc`` order), ``NOT_FOUND`` for none."""
    for s in range(cc.shape[1]):
        if alive[cc[c, s]]:
            return cc[c, s]
    return NOT_FOUND


@njit(cache=True)
def _first_size1(live, cc, kc, out):  # type: ignore[no-untyped-def]
    """The first application of size 1 in :func:`subset_search`'s order, into
    ``out[0]`` (A then B); False when there is none.

    A is the lowest column with live candidates all inside one other column
    B holding more: B is the first such column of A's first candidate, as the
    search's one branching step takes them.
    """
    width = cc.shape[1]
    for a in range(cc.shape[0]):
        x = _first_live(live, cc, a)
        if x < 0:
            continue
        for j in range(kc.shape[1]):
            b = kc[x, j]
            if b < 0 or b == a:
                continue
            inside = True
            for s in range(width):
                y = cc[a, s]
                if live[y] and not _holds(kc, y, b):
                    inside = False
                    break
            if not inside:
                continue
            # B holds a live candidate outside A
            for s in range(width):
                z = cc[b, s]
                if live[z] and not _holds(kc, z, a):
                    out[0, 0] = a
                    out[0, 1] = b
                    return True
    return False


@njit(cache=True)
def _subset_move(alive, on, cc, kc, recs, maxsub):  # type: ignore[no-untyped-def]
    """Apply the first subset-rule application of the smallest size; False if none."""
    rec, par, meta, lit_rec, ext, apps = recs
    ncand = alive.shape[0]
    width = cc.shape[1]
    live = np.empty(ncand, dtype=np.bool_)
    for x in range(ncand):
        live[x] = alive[x] != 0 and on[x] == 0
    out = np.empty((1, 2 * maxsub), dtype=np.int32)
    for n in range(1, maxsub + 1):
        if n == 1:
            if not _first_size1(live, cc, kc, out):
                continue
        elif subset_search(live, cc, kc, n, np.bool_(True), out) == 0:  # not a literal: one compile
            continue
        a = meta[3]
        if a >= apps.shape[0]:
            return False
        meta[3] += 1
        apps[a, 0] = n
        for q in range(2 * n):
            apps[a, 1 + q] = out[0, q]
        in_a = np.zeros(ncand, dtype=np.bool_)
        for q in range(n):
            for s in range(width):
                in_a[cc[out[0, q], s]] = True
        first = -1
        for q in range(n, 2 * n):
            b = out[0, q]
            for s in range(width):
                x = cc[b, s]
                if not live[x] or in_a[x]:
                    continue
                live[x] = False
                alive[x] = 0
                r = _new(rec, meta, lit_rec, ncand + x, SUBSET, a)
                if first < 0:
                    first = r
                    for q2 in range(n):
                        for s2 in range(width):
                            y = cc[out[0, q2], s2]
                            if not alive[y]:
                                _off_parent(rec, par, meta, lit_rec, ext, r, ncand, y)
                else:
                    # the same reasons as the first elimination of this application
                    for p in range(rec[first, 3], rec[first, 3] + rec[first, 4]):
                        _par(rec, par, meta, r, par[p])
        return first >= 0
    return False


@njit(cache=True, inline="always")
def _push_parents(rec, par, i, stamp, stack, top):  # type: ignore[no-untyped-def]
    """Push the parents of record ``i`` that are records of this array (not outer ones)
    and not stamped yet, stamping them; the stack's new top."""
    for p in range(rec[i, 3], rec[i, 3] + rec[i, 4]):
        q = par[p]
        if q >= 0 and stamp[q] == 0:
            stamp[q] = 1
            stack[top] = q
            top += 1
    return top


@njit(cache=True)
def chain_length(rec, par, start, stamp, stack):  # type: ignore[no-untyped-def]
    """Total weight of the records ``start`` depends on (itself excluded)."""
    for i in range(rec.shape[0]):
        stamp[i] = 0
    total = 0
    top = _push_parents(rec, par, start, stamp, stack, 0)
    while top > 0:
        top -= 1
        i = stack[top]
        total += rec[i, 5]
        top = _push_parents(rec, par, i, stamp, stack, top)
    return total


@njit(cache=True)
def _externals(rec, par, start, stamp, stack, out):  # type: ignore[no-untyped-def]
    """Outer records (negative parents) that record ``start`` depends on; returns count."""
    for i in range(rec.shape[0]):
        stamp[i] = 0
    n = 0
    top = 1
    stack[0] = start
    stamp[start] = 1
    while top > 0:
        top -= 1
        i = stack[top]
        for p in range(rec[i, 3], rec[i, 3] + rec[i, 4]):
            q = par[p]
            if q < 0:
                e = -q - 1
                seen = False
                for t in range(n):
                    if out[t] == e:
                        seen = True
                        break
                if not seen:
                    out[n] = e
                    n += 1
            elif stamp[q] == 0:
                stamp[q] = 1
                stack[top] = q
                top += 1
    return n


@njit(cache=True, inline="always")
def _copy_state(state, into):  # type: ignore[no-untyped-def]
    """Copy the hypothesis state ``state`` into ``into`` (same shapes), returned."""
    # one line each: the four arrays differ in type (numba loops over no such tuple)
    into[0][:] = state[0]
    into[1][:] = state[1]
    into[2][:] = state[2]
    into[3][:] = state[3]
    return into


@njit(cache=True, inline="always")
def _empty_state(state):  # type: ignore[no-untyped-def]
    """Uninitialised arrays of the shapes of the hypothesis state ``state``."""
    alive, on, cnt, cov = state
    return np.empty_like(alive), np.empty_like(on), np.empty_like(cnt), np.empty_like(cov)


@njit(cache=True)
def propagate_nested(state, cc, kc, recs, maxsub, inner_maxsub, budget):  # type: ignore[no-untyped-def]
    """Level 2: :func:`propagate`, then one nested refutation at a time, until a
    contradiction (its record) or a fixpoint (-1); -2 when ``budget[0]`` (inner
    hypotheses allowed) runs out."""
    alive, on = state[0], state[1]
    rec, par, meta, lit_rec, _, apps = recs
    ncand = alive.shape[0]
    nrec = rec.shape[0]
    state2 = _empty_state(state)
    alive2, on2 = state2[0], state2[1]
    rec2 = np.empty_like(rec)
    par2 = np.empty_like(par)
    meta2 = np.zeros(META_WIDTH, dtype=np.int32)
    lit2 = np.full(2 * ncand, -1, dtype=np.int32)
    # the inner hypothesis's facts are the outer records (its ext is lit_rec)
    recs2 = (rec2, par2, meta2, lit2, lit_rec, np.empty_like(apps))
    stamp = np.empty(nrec, dtype=np.int8)
    stack = np.empty(nrec, dtype=np.int32)
    extern = np.empty(nrec, dtype=np.int32)
    # round robin over the inner candidates: after a nested elimination the
    # sweep goes on from the next candidate, and a fixpoint is a whole turn
    # without one
    nxt = 0
    while True:
        r = propagate(state, cc, kc, recs, maxsub)
        if r >= 0:
            return r
        done = False
        for step in range(ncand):
            y = (nxt + step) % ncand
            if not alive[y] or on[y]:
                continue
            if budget[0] <= 0:
                return OUT_OF_BUDGET
            budget[0] -= 1
            _copy_state(state, state2)
            assume(alive2, on2, rec2, meta2, lit2, y)
            r2 = propagate(state2, cc, kc, recs2, inner_maxsub)
            if r2 >= 0:
                n = _externals(rec2, par2, r2, stamp, stack, extern)
                length = chain_length(rec2, par2, r2, stamp, stack)
                alive[y] = 0
                i = _new(rec, meta, lit_rec, ncand + y, NESTED, length)
                rec[i, 5] = 1 + length
                for t in range(n):
                    _par(rec, par, meta, i, extern[t])
                done = True
            reset(rec2, meta2, lit2)
            if done:
                nxt = y + 1
                break
        if not done:
            return FIXPOINT


# The kernels take the hypothesis state (alive, on, cnt, cov) and the record
# arrays (rec, par, meta, lit_rec, ext, apps) as two tuples, ``state`` and
# ``recs``: numba passes tuples of arrays as they are, and each caller owns its
# copies (refute_all's per-hypothesis state). The matrix (cc, kc) stays apart:
# every caller shares it.


@njit(cache=True)
def hypothesis(state, cc, kc, k, level, maxsub, inner_maxsub, recs, budget):  # type: ignore[no-untyped-def]
    """Run one hypothesis (candidate ``k`` ON) at ``level`` on copies the caller made.

    Returns the contradiction's record, -1 at a fixpoint, -2 out of budget.
    """
    rec, _, meta, lit_rec, _, _ = recs
    assume(state[0], state[1], rec, meta, lit_rec, k)
    if level >= 2:
        return propagate_nested(state, cc, kc, recs, maxsub, inner_maxsub, budget)
    return propagate(state, cc, kc, recs, maxsub if level >= 1 else 0)


@njit(cache=True)
def refute_all(state, cc, kc, cands, level, maxsub, inner_maxsub, budget, keep, stop_first, outs):  # type: ignore[no-untyped-def]
    """Run the hypothesis of every candidate in ``cands`` at ``level`` from the
    hypothesis state ``state`` (``(alive, on, cnt, cov)``, left as it is).

    With ``stop_first`` the run ends at the first contradiction (the rest of
    ``out_len`` is left -1).

    ``outs`` is ``(out_len, out_alive, out_on)``: ``out_len[i]`` gets the chain
    length of the contradiction (ancestors' weight), -1 when the hypothesis
    reaches a fixpoint, -2 when the budget ran out. With ``keep``, the
    fixpoint's candidates (alive, ON) are stored in ``out_alive[i]``/``out_on[i]``
    for the verity forms (cell and region forcing chains).
    """
    out_len, out_alive, out_on = outs
    ncand = state[0].shape[0]
    nrec = 2 * ncand + 2
    rec = np.empty((nrec, REC_WIDTH), dtype=np.int32)
    # a nested record that overflows this only shortens the length counted here
    par = np.empty(parent_slots(nrec, cc.shape[1], maxsub), dtype=np.int32)
    meta = np.zeros(META_WIDTH, dtype=np.int32)
    lit_rec = np.full(2 * ncand, -1, dtype=np.int32)
    ext = np.full(2 * ncand, -1, dtype=np.int32)
    apps = np.empty((ncand, 2 * max(maxsub, 1) + 1), dtype=np.int32)
    recs = (rec, par, meta, lit_rec, ext, apps)
    state2 = _empty_state(state)
    stamp = np.empty(nrec, dtype=np.int8)
    stack = np.empty(nrec, dtype=np.int32)
    for i in range(cands.shape[0]):
        _copy_state(state, state2)
        # the candidate as from Python (int64): hypothesis compiles once
        r = hypothesis(
            state2, cc, kc, np.int64(cands[i]), level, maxsub, inner_maxsub, recs, budget
        )
        if r >= 0:
            out_len[i] = chain_length(rec, par, r, stamp, stack)
        else:
            out_len[i] = r
            if keep and r == FIXPOINT:
                out_alive[i, :] = state2[0]
                out_on[i, :] = state2[1]
        reset(rec, meta, lit_rec)
        if r == OUT_OF_BUDGET or (stop_first and r >= 0):
            for j in range(i + 1, cands.shape[0]):
                out_len[j] = -1
            break
    return 0


@njit(cache=True)
def trace(rec, par, start, out):  # type: ignore[no-untyped-def]
    """The records ``start`` depends on, itself included, in record order; returns count."""
    nrec = rec.shape[0]
    stamp = np.zeros(nrec, dtype=np.int8)
    stack = np.empty(nrec, dtype=np.int32)
    stamp[start] = 1
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        i = stack[top]
        top = _push_parents(rec, par, i, stamp, stack, top)
    n = 0
    for i in range(nrec):
        if stamp[i]:
            out[n] = i
            n += 1
    return n


@njit(cache=True)
def find_record(rec, meta, lit):  # type: ignore[no-untyped-def]
    """The record that made literal ``lit`` true, or ``NOT_FOUND``."""
    for i in range(meta[0]):
        if rec[i, 0] == lit:
            return i
    return NOT_FOUND


@njit(cache=True, inline="always")
def _in_every(table, rows, m, x, held):  # type: ignore[no-untyped-def]
    """Whether candidate ``x`` is held (``held``: non-zero) or not (zero) in every
    fixpoint ``rows[:m]`` of ``table`` (``out_on`` or ``out_alive``): a common
    conclusion of the hypotheses of those rows, for the verity forms (one
    return, after a loop that breaks: see se_chains' ``_branches_total``)."""
    every = True
    for i in range(m):
        if (table[rows[i], x] != 0) != held:
            every = False
            break
    return every


@njit(cache=True)
def verity_best(alive, on, cov, cc, row_of, out_alive, out_on):  # type: ignore[no-untyped-def]
    """The column of the best cell or region forcing chain from the fixpoints.

    For every uncovered column (ascending) with at least two hypotheses
    (``row_of[x]``: the row of candidate ``x`` in ``out_alive``/``out_on``, -1
    for none; a column with a member of row -2 is known to have no common
    conclusion and is passed over), the literals every member's fixpoint reaches that the base
    does not hold: candidates ON in all (not ON in ``on``) and OFF in all
    (alive in ``alive``). The best column has the fewest members, then the
    most ONs, then the most OFFs (the first such column).

    Returns:
        ``(column, first ON, first OFF)``: the candidate indices of the column's
        first common ON and OFF (-1 for none); column -1 when no column has a
        common conclusion.
    """
    ncols = cc.shape[0]
    width = cc.shape[1]
    ncand = alive.shape[0]
    rows = np.empty(width, dtype=np.int32)
    best = -1
    best_m = 0
    best_on = 0
    best_off = 0
    first_on = -1
    first_off = -1
    for col in range(ncols):
        if cov[col]:
            continue
        m = 0
        skip = False
        for s in range(width):
            r = row_of[cc[col, s]]
            if r >= 0:
                rows[m] = r
                m += 1
            elif r == -2:
                skip = True
        if skip or m < 2 or (best >= 0 and m > best_m):
            continue
        n_on = 0
        n_off = 0
        f_on = -1
        f_off = -1
        for x in range(ncand):
            if on[x] == 0 and _in_every(out_on, rows, m, x, True):
                n_on += 1
                if f_on < 0:
                    f_on = x
            if alive[x] != 0 and _in_every(out_alive, rows, m, x, False):
                n_off += 1
                if f_off < 0:
                    f_off = x
        if n_on == 0 and n_off == 0:
            continue
        if best < 0 or (m, -n_on, -n_off) < (best_m, -best_on, -best_off):
            best = col
            best_m = m
            best_on = n_on
            best_off = n_off
            first_on = f_on
            first_off = f_off
    return best, first_on, first_off


@njit(cache=True)
def verity_needs(alive, on, cov, cc, row_of, out_alive, out_on, solution):  # type: ignore[no-untyped-def]
    """The solution candidates whose fixpoints :func:`verity_best` needs.

    ``row_of`` gives the fixpoints of the other free candidates (ON in
    ``on`` excluded, alive in ``alive``). In an uncovered column with at least
    two free members, a common conclusion of all members is a literal the
    solution candidate's fixpoint reaches, so it holds in the solution: when
    the other members' fixpoints share no such literal (ON of a solution
    candidate, OFF of another) the column has none. The solution member of a
    column that may have one is needed (True in the result).
    """
    ncols = cc.shape[0]
    width = cc.shape[1]
    ncand = alive.shape[0]
    need = np.zeros(ncand, dtype=np.bool_)
    rows = np.empty(width, dtype=np.int32)
    for col in range(ncols):
        if cov[col]:
            continue
        m = 0
        t = -1
        for s in range(width):
            x = cc[col, s]
            if alive[x] == 0 or on[x] != 0:
                continue
            if solution[x]:
                t = x
            elif row_of[x] >= 0:
                rows[m] = row_of[x]
                m += 1
        if t < 0 or m == 0 or need[t]:
            continue
        for x in range(ncand):
            if solution[x]:
                if on[x] != 0:
                    continue
                every = _in_every(out_on, rows, m, x, True)
            else:
                if alive[x] == 0:
                    continue
                every = _in_every(out_alive, rows, m, x, False)
            if every:
                need[t] = True
                break
    return need


@njit(cache=True)
def _lean_parents(rec, lit_rec, cc, ncand, i, out):  # type: ignore[no-untyped-def]
    """The parents of lean record ``i`` of :func:`refute_level0` (as :func:`propagate`
    gives them, from what :func:`_record` kept), written to ``out``; returns
    their count."""
    kind = rec[i, 1]
    creator = rec[i, 3]
    other = rec[i, 4]
    if kind == ELIM:
        out[0] = creator
        return 1
    if kind == CONTRA and other >= 0:
        # two placements in one column: the record processed and the other one
        out[0] = creator
        r = lit_rec[other]
        if r >= 0:
            out[1] = r
            return 2
        return 1
    if kind == ASSUME:
        return 0
    # a single or an emptied column: the other candidates of the column, removed before
    c = rec[i, 2]
    x = rec[i, 0]  # the single's candidate; -1 for the contradiction
    m = 0
    for s in range(cc.shape[1]):
        y = cc[c, s]
        if y != x:
            r = lit_rec[ncand + y]
            if r >= 0:
                out[m] = r
                m += 1
    return m


@njit(cache=True)
def refute_level0(state, cc, kc, cands, keep, outs):  # type: ignore[no-untyped-def]
    """:func:`refute_all` at level 0 (singles only), the same results, faster.

    Each hypothesis runs in place and is undone from a log (no copies), and
    its records keep no parent lists (:func:`_singles`' lean form): when it
    contradicts, the ancestors of the contradiction are found by walking back
    through the parents the rules imply (an elimination's placement, the
    removals that left a single or emptied a column, the two placements of a
    clash), which are the parents :func:`propagate` records.

    Why not :func:`propagate` with options: its parent lists, copied state
    and subset moves are what level 0 saves. Measured by sending level 0
    through :func:`refute_all` instead (``benchmarks/bench_logic.py --sample
    40 --no-peer``, two alternating rounds each, loaded 2-core machine, CPU
    medians): top1465 19.5-24.5 ms a solve -> 30.1-31.4 ms (p95 54-60 -> 92-95
    ms), forum_hardest_1106 116-124 -> 133-158 ms. The rules themselves are
    one copy, :func:`_singles`, compiled once for each form
    (benchmarks/results/kernel_twins.md).
    """
    alive, on, cnt, cov = state
    out_len, out_alive, out_on = outs
    ncand = alive.shape[0]
    width = cc.shape[1]
    nrec = 2 * ncand + 2
    rec = np.empty((nrec, REC_WIDTH), dtype=np.int32)
    meta = np.zeros(META_WIDTH, dtype=np.int32)
    lit_rec = np.full(2 * ncand, -1, dtype=np.int32)
    none = np.empty(0, dtype=np.int32)
    recs = (rec, none, meta, lit_rec, none, rec)  # lean: no parents, facts or subsets
    log = np.empty((2, nrec * kc.shape[1]), dtype=np.int32)
    nlog = np.zeros(2, dtype=np.int32)
    stamp = np.zeros(nrec, dtype=np.int8)
    stack = np.empty(nrec, dtype=np.int32)
    pbuf = np.empty(width + 2, dtype=np.int32)
    for h in range(cands.shape[0]):
        k0 = cands[h]
        on[k0] = 1
        _record(rec, meta, lit_rec, True, 0, k0, ASSUME, -1, -1, -1)
        meta[0] = 1
        contra = _singles(state, cc, kc, recs, True, log, nlog)
        n = meta[0]
        if contra >= 0:
            # the ancestors of the contradiction (chain_length): a walk from it,
            # which it does not count
            total = -1
            stack[0] = contra
            top = 1
            while top > 0:
                top -= 1
                r = stack[top]
                total += 1
                # int64 (stack holds int32): _lean_parents compiles once
                m = _lean_parents(rec, lit_rec, cc, ncand, np.int64(r), pbuf)
                for p in range(m):
                    r2 = pbuf[p]
                    if stamp[r2] == 0:
                        stamp[r2] = 1
                        stack[top] = r2
                        top += 1
            out_len[h] = total
            for r in range(n):
                stamp[r] = 0
        else:
            out_len[h] = -1
            if keep:
                out_alive[h, :] = alive
                out_on[h, :] = on
        # undo
        for r in range(n):
            lit = rec[r, 0]
            if lit < 0:
                continue
            if lit < ncand:
                on[lit] = 0
            else:
                alive[lit - ncand] = 1
        reset(rec, meta, lit_rec)
        for r in range(nlog[0]):
            cov[log[0, r]] = 0
        for r in range(nlog[1]):
            cnt[log[1, r]] += 1
        nlog[0] = 0
        nlog[1] = 0
    return 0
