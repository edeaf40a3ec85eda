"""The basic techniques inside a dynamic net: SE's "dynamic forcing chains (+)" (numba).

Sudoku Explainer's dynamic forcing chains (+), base 9.0, build the same
implication nets as its dynamic forcing chains (8.5,
:func:`csp_sudoku._kernels.se_chains.implication_nets`), with one more kind of
inference: whenever a net has no consequence left to follow, its pencil marks
(the marks less every candidate the net made false) are searched with
pointing and claiming, then hidden pairs, then naked pairs, then X-Wing: the
first of them that finds anything is the only one used that time, every
candidate its hints remove becomes false, and the net goes on (the others
get their turn at the next pause). That is SE's list and rule; it was
checked against SukakuExplainer's batch rater (docs/validation.md): with
every technique used at each pause, or with hidden triples and Swordfish
added, steps of the forum's hardest puzzles come out 0.1-0.2 off SE's
values. None of those techniques applies to the marks the net began from
(they come before chains in SE's order), so each such hint exists because of
candidates the net removed: those removals, in the pattern's own houses (for
a naked pair, all the candidates removed from its two cells), are the new
literal's parents, and their ancestors count in the chain's complexity.

:func:`offshoots` lists every removal of every hint of that first technique,
each removal once (the first hint that makes it keeps it). Cells are
0-based, digits 0-based; a candidate is ``cell * size + digit``.

Nothing imports this module at package import time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels.se_patterns import (
    _LOCKING_PASSES,
    _SCAN_KINDS,
    FISH,
    HIDDEN,
    LOCKING,
    NAKED,
    _base_indices,
    _base_or_none,
    _empty_count,
    _locking_covers,
    _locking_pass,
    _next_set,
    _places,
    _scan_order,
    _set_bases,
    lost_since,
    placed_counts,
)

#: The techniques a net of SE's dynamic forcing chains (+) uses, in the order
#: they are tried: ``(technique code, size)`` rows, the codes of
#: :func:`csp_sudoku._kernels.se_patterns.basic_hint`; SE's list.
PLUS_TECHNIQUES = np.array(
    [
        [LOCKING, 1],
        [HIDDEN, 2],
        [NAKED, 2],
        [FISH, 2],
    ],
    dtype=np.int64,
)


@njit(cache=True, inline="always")
def _masks(cands, size, out):  # type: ignore[no-untyped-def]
    """Each cell's live digits as a bitset, from a candidate array."""
    for c in range(out.shape[0]):
        m = np.int64(0)
        for d in range(size):
            if cands[c * size + d]:
                m |= np.int64(1) << d
        out[c] = m


@njit(cache=True, inline="always")
def _parents(buf, st, c, size, bits):  # type: ignore[no-untyped-def]
    """Record candidates ``(c, d)``, each digit bit ``d`` of ``bits``, as parents of
    the open hint (as many as ``buf`` holds)."""
    d = 0
    while bits:
        if bits & 1 and st[0] < buf.shape[0]:
            buf[st[0]] = c * size + d
            st[0] += 1
        bits >>= 1
        d += 1


@njit(cache=True, inline="always")
def _emit(st, seen, out_q, out_h, c, size, bits):  # type: ignore[no-untyped-def]
    """Removals ``(c, d)`` for each digit bit of ``bits``, made by the open hint;
    each candidate kept once (``seen``), every one counted as the hint's."""
    d = 0
    while bits:
        if bits & 1:
            st[3] += 1
            q = c * size + d
            if not seen[q] and st[1] < out_q.shape[0]:
                seen[q] = 1
                out_q[st[1]] = q
                out_h[st[1]] = st[2]
                st[1] += 1
        bits >>= 1
        d += 1


@njit(cache=True, inline="always")
def _open(st, hint_start):  # type: ignore[no-untyped-def]
    """Open a hint: its parents start here. False when the hint table is full."""
    if st[2] >= hint_start.shape[0] - 1:
        return False
    hint_start[st[2]] = st[0]
    st[3] = 0
    return True


@njit(cache=True, inline="always")
def _close(st, hint_start):  # type: ignore[no-untyped-def]
    """Keep the open hint when it removes something; otherwise drop its parents."""
    if st[3] > 0:
        st[2] += 1
        hint_start[st[2]] = st[0]
    else:
        st[0] = hint_start[st[2]]


@njit(cache=True)
def offshoots(grid, alive, vals, size, units, ukind, member, cross, techniques, bufs):  # type: ignore[no-untyped-def]
    """Every removal the first of the basic techniques that finds one makes on the
    net's marks ``grid``.

    ``alive``: the marks the net began from, where none of the techniques
    finds anything (they come before chains in SE's order, and SE applies
    them first); ``vals``: each cell's placed digit
    (1-based, 0 for an empty cell). ``techniques``: rows ``(code, size)``
    (:data:`PLUS_TECHNIQUES`). ``bufs = (masks, masks0, values, seen, out_q,
    out_h, hint_start, parents, st, snap)`` are work arrays the caller keeps
    (:func:`work_arrays`):
    on return ``out_q[:st[1]]`` are the removed candidates, ``out_h`` the
    hint of each, whose parents (candidates of ``alive`` the net removed,
    in the pattern's houses) are ``parents[hint_start[h]:hint_start[h + 1]]``.
    Returns the number of removals.

    Only the patterns that can hold a hint are looked at, in the same order
    (the same removals, found faster). A technique has no hint on some
    earlier marks of the same net, ``snap[t]`` (cell masks): at first
    ``alive``, later the marks where it found nothing or where it found the
    hints whose removals the net then made (every one of them). A hint on
    ``grid`` so needs a candidate removed since then from its pattern: for
    pointing and claiming, one of the digit in the base unit; for a hidden
    set, one of its digits in the unit; for a naked set, one in its cells;
    for a fish, one of the digit in a base line. Otherwise the same pattern,
    with as many removals or more, was there at the snapshot. ``st[4]`` 0
    (:func:`new_net`): a new net, whose snapshots are ``alive``. So the
    caller calls :func:`new_net` before each net's first call, and between
    two calls without it the marks may only lose candidates (the pauses of
    one net).
    """
    masks, masks0, values, seen, out_q, out_h, hint_start, parents, st, snap = bufs
    width = units.shape[1]
    ncell = masks.shape[0]
    _masks(grid, size, masks)
    _masks(alive, size, masks0)
    for c in range(ncell):
        values[c] = vals[c]
    for q in range(seen.shape[0]):
        seen[q] = 0
    st[0] = 0  # parents used
    st[1] = 0  # removals
    st[2] = 0  # hints kept
    base = np.empty(max(width, units.shape[0]), dtype=np.int64)
    idx = np.empty(base.shape[0], dtype=np.int64)
    if st[4] == 0:  # a new net: no technique has a hint on the marks it began from
        for ti in range(techniques.shape[0]):
            for c in range(ncell):
                snap[ti, c] = masks0[c]
        st[4] = 1
    lost = np.empty(units.shape[0], dtype=np.int64)
    lost_at = np.empty(units.shape[0], dtype=np.int64)
    for ti in range(techniques.shape[0]):
        if st[2] > 0:  # the first technique that removes something is the only one used
            break
        tech = techniques[ti, 0]
        n = techniques[ti, 1]
        lost_since(masks, snap[ti], units, lost, lost_at)
        if tech == LOCKING:
            for pi in range(len(_LOCKING_PASSES)):
                _, bases, covers, found = _locking_pass(ukind, pi)
                for d in range(size):
                    bit = np.int64(1) << d
                    for b in bases:
                        if not lost[b] & bit:
                            continue
                        nf = _locking_covers(
                            masks, values, units, member, cross, b, d, covers, found
                        )
                        for h in range(nf):
                            cv = found[h]
                            if not _open(st, hint_start):
                                continue
                            for s in range(width):
                                c = units[b, s]
                                if c >= 0:
                                    _parents(parents, st, c, size, masks0[c] & ~masks[c] & bit)
                            for t in range(width):
                                c = units[cv, t]
                                if c >= 0 and not member[b, c]:
                                    _emit(st, seen, out_q, out_h, c, size, masks[c] & bit)
                            _close(st, hint_start)
        elif tech in (NAKED, HIDDEN):
            naked = tech == NAKED
            for u in _scan_order(ukind, _SCAN_KINDS[0]):
                # a naked set needs 2n empty cells, a hidden one more than 2n
                if lost[u] == 0 or _empty_count(values, units, u) < 2 * n + (0 if naked else 1):
                    continue
                # the cells (naked) or digits (hidden) of which one must have lost a candidate
                changed = lost_at[u] if naked else lost[u]
                m = _set_bases(masks, values, units, u, naked, n, base, idx)
                picked = (np.int64(1) << n) - 1
                while True:
                    # naked: comb is cells, cover the digits; hidden: comb is digits, cover the cells
                    comb, cover, picked = _next_set(picked, m, n, idx, base[:width], changed)
                    if comb < 0:
                        break
                    if not _open(st, hint_start):
                        continue
                    cells = comb if naked else cover
                    digits = cover if naked else comb
                    for s in range(width):
                        c = units[u, s]
                        if c >= 0 and (not naked or (cells >> s) & 1):
                            # naked: every candidate gone from the set's cells;
                            # hidden: the set's digits gone from the unit
                            gone = masks0[c] & ~masks[c]
                            _parents(parents, st, c, size, gone if naked else gone & digits)
                    for s in range(width):
                        c = units[u, s]
                        if c < 0 or values[c] != 0:
                            continue
                        if naked and not (cells >> s) & 1:
                            _emit(st, seen, out_q, out_h, c, size, masks[c] & digits)
                        elif not naked and (cells >> s) & 1:
                            _emit(st, seen, out_q, out_h, c, size, masks[c] & ~digits)
                    _close(st, hint_start)
        elif tech == FISH:
            placed = placed_counts(vals, size)
            for pi in range(2):
                base_lines = _scan_order(ukind, _SCAN_KINDS[3 - pi])
                cover_lines = _scan_order(ukind, _SCAN_KINDS[2 + pi])
                nb = base_lines.shape[0]
                for d in range(size):
                    if placed[d] + 2 * n > size:
                        continue
                    bit = np.int64(1) << d
                    changed = np.int64(0)  # the base lines that lost the digit
                    for i in range(nb):
                        if lost[base_lines[i]] & bit:
                            changed |= np.int64(1) << i
                    if changed == 0:
                        continue
                    for i in range(nb):
                        base[i] = _base_or_none(_places(masks, values, units, base_lines[i], d))
                    # the lines of n places or fewer, combined in the same order
                    m = _base_indices(base[:nb], idx, n)
                    picked = (np.int64(1) << n) - 1
                    while True:
                        comb, covers, picked = _next_set(picked, m, n, idx, base[:nb], changed)
                        if comb < 0:
                            break
                        if _open(st, hint_start):
                            for i in range(nb):
                                if (comb >> i) & 1:
                                    for s in range(width):
                                        c = units[base_lines[i], s]
                                        if c >= 0:
                                            gone = masks0[c] & ~masks[c] & bit
                                            _parents(parents, st, c, size, gone)
                            for j in range(cover_lines.shape[0]):
                                if not (covers >> j) & 1:
                                    continue
                                for s in range(width):
                                    c = units[cover_lines[j], s]
                                    if c < 0:
                                        continue
                                    in_base = False
                                    for i in range(nb):
                                        if (comb >> i) & 1 and member[base_lines[i], c]:
                                            in_base = True
                                    if not in_base:
                                        _emit(st, seen, out_q, out_h, c, size, masks[c] & bit)
                            _close(st, hint_start)
        if st[2] < hint_start.shape[0] - 1:
            # no hint left out (the table has room): none of the technique's
            # hints on these marks outlives the removals found
            for c in range(ncell):
                snap[ti, c] = masks[c]
    return st[1]


@njit(cache=True)
def new_net(bufs):  # type: ignore[no-untyped-def]
    """Tell :func:`offshoots` that a new net begins: its snapshots go back to the
    net's first marks."""
    bufs[8][4] = 0


def work_arrays(ncell: int, size: int):  # type: ignore[no-untyped-def]
    """The work arrays :func:`offshoots` takes (its ``bufs``), for one geometry."""
    ncand = ncell * size
    masks, masks0, values = (np.empty(ncell, dtype=np.int64) for _ in range(3))
    seen = np.empty(ncand, dtype=np.int8)
    out_q, out_h = (np.empty(ncand, dtype=np.int32) for _ in range(2))
    hint_start = np.empty(8 * ncand + 1, dtype=np.int32)
    parents = np.empty(64 * ncand, dtype=np.int32)
    st = np.zeros(5, dtype=np.int64)
    snap = np.empty((PLUS_TECHNIQUES.shape[0], ncell), dtype=np.int64)
    return masks, masks0, values, seen, out_q, out_h, hint_start, parents, st, snap
