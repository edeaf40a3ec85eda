"""Compiled pattern searches of the ``se`` replay: subsets, fishes, wings, unique rectangles (numba).

Between singles and chains the ``se`` replay (csp_sudoku/human/se_order.py)
asks for the first hint of each of these patterns, in Sudoku Explainer's
order and at its values (docs/techniques.md lists them;
:mod:`csp_sudoku.human.catalogue` describes each):

* **the constraint subset rule** (:func:`basic_hint`): pointing and claiming,
  naked and hidden sets, X-Wing, Swordfish, Jellyfish, all one rule on base
  and cover sets (see that section's note);
* **strong-linked fishes** (:func:`strong_links`): ``n`` strong links of one
  digit (a unit where the digit's places split into two nodes, one of which
  holds it) joined end to end by weak links (a node that sees all of the next
  link's first node); whatever sees both free ends loses the digit. Turbot
  Fish (Skyscraper, 2-String Kite) for ``n = 2``: 4.0; 5.4, 5.8, 6.2, 6.6 for
  ``n = 3 .. 6``; plus 0.1 or 0.2 for the kinds of unit the links lie in and
  0.3 where a node is a group;
* **wings** (:func:`als_wings`): a pivot and its pincers. Here ``k`` cells
  that see one another and hold ``k + 1`` digits between them (an almost
  locked set: the pivot and all pincers but one) and a last, bivalue pincer
  ``{x, z}`` that sees every cell of the set holding ``x``: if the pincer is
  not ``z`` it is ``x``, which locks the set, so ``z`` is in one of them and
  goes from every cell seeing all their ``z`` (XY-Wing 4.2 and XYZ-Wing 4.4
  for ``k = 2``, WXYZ 5.5-5.6, VWXYZ 6.2-6.4, UVWXYZ 6.6, TUVWXYZ 7.5);
* **unique rectangles** (:func:`unique_rectangles`, 4.5-4.8): two digits on
  the corners of a rectangle in two boxes would make a second solution.

Cells are 0-based, digits 0-based inside the kernels; a candidate is
``cell * size + digit``; ``masks`` are the cells' candidate bitsets (bit ``d``
for digit ``d``). ``see[a, b]`` is 1 when cells a and b share a unit;
``member[u, c]`` 1 when cell c lies in unit u, ``cross[u, v]`` when units u
and v share a cell.
``cell_line[c] = (row unit, column unit, box unit)``; ``ukind`` gives each
unit's kind (0 box, 1 row, 2 column, 3 other).

Nothing imports this module at package import time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels.bitset import _cttz, contains, contains_bit, copy_head, popcount

#: Base value (tenths) of a strong-linked fish of n links, index n.
SL_BASE = np.array([0, 0, 40, 54, 58, 62, 66, 70, 74], dtype=np.int32)

_W = 6  # the most places of a digit in a unit that a strong link splits
_MAX_LINKS = 1024  # the most strong links of one digit kept

# Helpers called from one place or a few lines long are inlined into their
# callers (numba's inline="always"): numba types them in place instead of
# compiling, optimising and emitting machine code for each as a kernel of its
# own, once per argument type.


# --------------------------------------------------------------------------- what changed since a search


@njit(cache=True)
def lost_since(masks, since, units, lost, lost_at):  # type: ignore[no-untyped-def]
    """What each unit lost between the cell masks ``since`` and ``masks``: the
    digits (bits) in ``lost``, the places (bits) of the cells that lost any in
    ``lost_at``. A technique that had no hint on ``since`` can only have one
    now in a pattern that lost a candidate (:func:`basic_hint`)."""
    width = units.shape[1]
    for u in range(units.shape[0]):
        lost[u] = 0
        lost_at[u] = 0
        for s in range(width):
            c = units[u, s]
            if c >= 0 and since[c] != masks[c]:
                lost[u] |= since[c] & ~masks[c]
                lost_at[u] |= np.int64(1) << s


@njit(cache=True, inline="always")
def _shrunk(masks, values, since, since_values):  # type: ignore[no-untyped-def]
    """True when the marks are those of ``since`` less some candidates: every
    placement of ``since`` kept, no candidate that ``since`` lacks (a cell
    placed since holds one of its candidates there, as a filled cell's mask).

    A cell placed since is a pattern's cell no more, and a technique's rules
    that count placements (a naked set needs 2n empty cells in its unit, a
    hidden set more than 2n, a fish a digit placed at most N - 2n times) only
    admit fewer patterns as cells fill; the digits the placement took from its
    peers, and those the cell lost, count as lost candidates."""
    if since_values.shape[0] != values.shape[0]:
        return False
    for c in range(values.shape[0]):
        if (since_values[c] != 0 and values[c] != since_values[c]) or masks[c] & ~since[c]:
            return False
    return True


# --------------------------------------------------------------------------- strong-linked fishes


@njit(cache=True, inline="always")
def _is_node(cells, m, cell_line):  # type: ignore[no-untyped-def]
    """One cell, or a group: cells of one box inside one row or one column."""
    if m == 1:
        return True
    r = cell_line[cells[0], 0]
    c = cell_line[cells[0], 1]
    b = cell_line[cells[0], 2]
    same_r = True
    same_c = True
    for i in range(1, m):
        x = cells[i]
        if b < 0 or cell_line[x, 2] != b:
            return False
        if cell_line[x, 0] != r:
            same_r = False
        if cell_line[x, 1] != c:
            same_c = False
    return same_r or same_c


@njit(cache=True, inline="always")
def _digit_links(alive, size, d, units, cell_line, near, far, ends, link_unit):  # type: ignore[no-untyped-def]
    """The strong links of digit ``d``: in each unit where it has 2 to ``_W``
    places, every split of the places into two nodes. Link ``i`` has the cells
    ``near[i, :ends[i, 0]]`` and ``far[i, :ends[i, 1]]`` and lies in unit
    ``link_unit[i]``. Returns how many (at most ``_MAX_LINKS``)."""
    places = np.empty(units.shape[1], dtype=np.int32)
    side_a = np.empty(_W, dtype=np.int32)
    side_b = np.empty(_W, dtype=np.int32)
    nl = 0
    for u in range(units.shape[0]):
        m = 0
        for s in range(units.shape[1]):
            c = units[u, s]
            if c >= 0 and alive[c * size + d]:
                places[m] = c
                m += 1
        if m < 2 or m > _W:
            continue
        for split in range(1, (1 << m) - 1):
            na = 0
            nb = 0
            for s in range(m):
                if (split >> s) & 1:
                    side_a[na] = places[s]
                    na += 1
                else:
                    side_b[nb] = places[s]
                    nb += 1
            if not _is_node(side_a, na, cell_line) or not _is_node(side_b, nb, cell_line):
                continue
            if nl >= _MAX_LINKS:
                break
            for s in range(na):
                near[nl, s] = side_a[s]
            for s in range(nb):
                far[nl, s] = side_b[s]
            ends[nl, 0] = na
            ends[nl, 1] = nb
            link_unit[nl] = u
            nl += 1
    return nl


@njit(cache=True, inline="always")
def _cell_sets(cells, m, see_bits, nwords, members, common):  # type: ignore[no-untyped-def]
    """A node's cells as a bitset in ``members`` and, in ``common``, the cells
    that see every one of them."""
    for w in range(nwords):
        members[w] = 0
        common[w] = -1
    for s in range(m):
        x = cells[s]
        members[x >> 6] |= np.int64(1) << (x & 63)
        for w in range(nwords):
            common[w] &= see_bits[x, w]


@njit(cache=True, inline="always")
def _link_sets(near, far, ends, nl, see_bits, cells_of, near_seen, far_seen):  # type: ignore[no-untyped-def]
    """Bitsets of links ``0 .. nl - 1``: ``cells_of`` both nodes' cells,
    ``near_seen`` and ``far_seen`` the cells seeing all of the near and of the far node."""
    nwords = see_bits.shape[1]
    scratch = np.empty(nwords, dtype=np.int64)
    for i in range(nl):
        _cell_sets(near[i], ends[i, 0], see_bits, nwords, cells_of[i], near_seen[i])
        _cell_sets(far[i], ends[i, 1], see_bits, nwords, scratch, far_seen[i])
        for w in range(nwords):
            cells_of[i, w] |= scratch[w]


@njit(cache=True, inline="always")
def _weak_joins(near, ends, link_unit, nl, far_seen):  # type: ignore[no-untyped-def]
    """The weak links between strong links: link ``i``'s far node sees all of link
    ``j``'s near node, without a shared cell, in another unit. Returns
    ``(start, to)``: the links ``j`` joined from ``i`` are ``to[start[i]:start[i + 1]]``,
    in increasing order (``far_seen[i]``: the cells seeing every cell of ``i``'s
    far node, never one of them)."""
    start = np.empty(nl + 1, dtype=np.int32)
    to = np.empty(nl * nl, dtype=np.int32)
    n = 0
    for i in range(nl):
        start[i] = n
        for j in range(nl):
            if link_unit[i] == link_unit[j]:
                continue
            ok = True
            for t in range(ends[j, 0]):
                y = near[j, t]
                ok = ok and contains_bit(far_seen[i], y)
            if ok:
                to[n] = j
                n += 1
    start[nl] = n
    return start, to


@njit(cache=True, inline="always")
def _disjoint(a, b):  # type: ignore[no-untyped-def]
    """True when bitsets ``a`` and ``b`` share no cell."""
    free = True
    for w in range(a.shape[0]):
        free = free and (a[w] & b[w]) == 0
    return free


@njit(cache=True, inline="always")
def _kinds_bonus(path, n, ends, link_unit, ukind):  # type: ignore[no-untyped-def]
    """Tenths added to a chain of links for its units: 3 where a node is a group
    or a link lies in a unit that is no box, row or column, 2 for boxes, rows
    and columns together, 0 for links in lines of one kind only, else 1."""
    grouped = False
    kinds = 0  # bit k: a link lies in a unit of kind k
    for q in range(n):
        j = path[q]
        grouped = grouped or ends[j, 0] > 1 or ends[j, 1] > 1
        kinds |= 1 << ukind[link_unit[j]]
    if grouped or kinds & 8:
        return 3
    if kinds == 7:
        return 2
    if not kinds & 1 and kinds != 6:
        return 0
    return 1


@njit(cache=True, inline="always")
def _better_fish(tenths, ne, best):  # type: ignore[no-untyped-def]
    """True when a fish worth ``tenths`` removing ``ne`` candidates beats ``best``
    (``(tenths, eliminations, digit)``): the lowest value, then the most
    eliminations; among equals the one met first stays."""
    return tenths < best[0] or (tenths == best[0] and ne > best[1])


@njit(cache=True)
def strong_links(  # type: ignore[no-untyped-def]
    alive, size, nmin, nmax, units, ukind, cell_line, see_bits, memo, out_cells, out_best
):
    """The best strong-linked fish of each number of links ``n`` from ``nmin`` to
    ``nmax`` (see the module doc), all from one search: the links and their
    weak joins are found once, and a chain of n links is the head of the longer
    ones, so each length's chains are met in the order a search of that length
    alone meets them.

    ``see_bits[a]`` is the bitset of the cells that share a unit with cell ``a``
    (bit ``b`` of word ``b >> 6``; seeing is mutual).
    ``out_best[n] = (tenths, eliminations, digit)`` with the removals' cells
    in ``out_cells[n, :eliminations]``; ``(0, 0, -1)`` where there is none.
    Best: the lowest value, then the most eliminations, the first met among
    equals (digits in order, chains depth first in link order).

    ``memo`` (:func:`fish_memo`, for these ``nmin`` and ``nmax``): each digit's
    own best fishes, with the digit's candidates they were searched on. A
    digit's fishes are read from its candidates alone, so a digit whose
    candidates are those of its memo is not searched again (SE's path removes
    a candidate or two at most steps, of one digit or two): its bests are
    merged in its turn, as a search would have met them (a best changes only
    for a strictly better fish, so the first digit of the best value wins).
    """
    memo_marks, memo_best, memo_cells = memo
    ncells = see_bits.shape[0]
    nwords = see_bits.shape[1]
    near = np.empty((_MAX_LINKS, _W), dtype=np.int32)
    far = np.empty((_MAX_LINKS, _W), dtype=np.int32)
    ends = np.empty((_MAX_LINKS, 2), dtype=np.int32)
    link_unit = np.empty(_MAX_LINKS, dtype=np.int32)
    cells_of = np.empty((_MAX_LINKS, nwords), dtype=np.int64)
    near_seen = np.empty((_MAX_LINKS, nwords), dtype=np.int64)
    far_seen = np.empty((_MAX_LINKS, nwords), dtype=np.int64)
    digit_cells = np.empty(nwords, dtype=np.int64)
    used = np.zeros(nwords, dtype=np.int64)
    path = np.empty(nmax, dtype=np.int32)
    nxt = np.empty(nmax, dtype=np.int32)
    elim = np.empty(nwords, dtype=np.int64)
    for n in range(out_best.shape[0]):
        out_best[n, 0] = 1 << 30
        out_best[n, 1] = 0
        out_best[n, 2] = -1
    for d in range(size):
        same = True
        for c in range(ncells):
            same = same and memo_marks[d, c] == alive[c * size + d]
        if not same:
            _digit_fishes(
                alive, size, d, nmin, nmax, units, ukind, cell_line, see_bits, near, far,
                ends, link_unit, cells_of, near_seen, far_seen, digit_cells, used, path,
                nxt, elim, memo_cells[d], memo_best[d],
            )  # fmt: skip
            for c in range(ncells):
                memo_marks[d, c] = alive[c * size + d]
        for n in range(nmin, nmax + 1):
            tenths = memo_best[d, n, 0]
            ne = memo_best[d, n, 1]
            if ne > 0 and _better_fish(tenths, ne, out_best[n]):
                out_best[n, 0] = tenths
                out_best[n, 1] = ne
                out_best[n, 2] = d
                for k in range(ne):
                    out_cells[n, k] = memo_cells[d, n, k]
    for n in range(out_best.shape[0]):
        if out_best[n, 2] < 0:
            out_best[n, 0] = 0


def fish_memo(ncells: int, size: int, nmax: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty memo arrays of :func:`strong_links` (no digit known: marks -1)."""
    return (
        np.full((size, ncells), -1, dtype=np.int8),
        np.zeros((size, nmax + 1, 3), dtype=np.int32),
        np.zeros((size, nmax + 1, ncells), dtype=np.int32),
    )


@njit(cache=True)
def _digit_fishes(  # type: ignore[no-untyped-def]
    alive, size, d, nmin, nmax, units, ukind, cell_line, see_bits, near, far, ends,
    link_unit, cells_of, near_seen, far_seen, digit_cells, used, path, nxt, elim,
    out_cells, out_best,
):  # fmt: skip
    """Digit ``d``'s best strong-linked fish of each length (see
    :func:`strong_links`) in ``out_best[n]`` (``(tenths, eliminations, d)``,
    no eliminations where there is none) and ``out_cells[n]``; the other
    arrays are :func:`strong_links`'s scratch."""
    ncells = see_bits.shape[0]
    nwords = see_bits.shape[1]
    for n in range(out_best.shape[0]):
        out_best[n, 0] = 1 << 30
        out_best[n, 1] = 0
        out_best[n, 2] = -1
    nl = _digit_links(alive, size, d, units, cell_line, near, far, ends, link_unit)
    if nl == 0:
        return
    _link_sets(near, far, ends, nl, see_bits, cells_of, near_seen, far_seen)
    join_start, join_to = _weak_joins(near, ends, link_unit, nl, far_seen)
    for w in range(nwords):
        digit_cells[w] = 0
        used[w] = 0
    for c in range(ncells):
        if alive[c * size + d]:
            digit_cells[c >> 6] |= np.int64(1) << (c & 63)
    # depth first over chains of up to nmax links with pairwise distinct cells: any
    # link first, then those joined from the last (nxt: the place in their list)
    depth = 0
    nxt[0] = 0
    while depth >= 0:
        end = nl if depth == 0 else join_start[path[depth - 1] + 1]
        if nxt[depth] >= end:
            depth -= 1
            if depth >= 0:
                for w in range(nwords):
                    used[w] ^= cells_of[path[depth], w]
                nxt[depth] += 1
            continue
        j = nxt[depth] if depth == 0 else join_to[nxt[depth]]
        if not _disjoint(used, cells_of[j]):
            nxt[depth] += 1
            continue
        path[depth] = j
        n = depth + 1
        if n >= nmin:
            # a whole chain of n links: what sees both free ends loses the digit
            first = path[0]
            any_elim = False
            for w in range(nwords):
                elim[w] = digit_cells[w] & near_seen[first, w] & far_seen[j, w]
                elim[w] &= ~(used[w] | cells_of[j, w])
                any_elim = any_elim or elim[w] != 0
            if any_elim:
                ne = 0
                for w in range(nwords):
                    ne += popcount(elim[w])
                tenths = SL_BASE[n] + _kinds_bonus(path, n, ends, link_unit, ukind)
                if _better_fish(tenths, ne, out_best[n]):
                    out_best[n, 0] = tenths
                    out_best[n, 1] = ne
                    out_best[n, 2] = d
                    k = 0
                    for c in range(ncells):
                        if contains_bit(elim, c):
                            out_cells[n, k] = c
                            k += 1
        if n < nmax:
            for w in range(nwords):
                used[w] ^= cells_of[j, w]
            depth += 1
            nxt[depth] = join_start[j]
            continue
        nxt[depth] += 1


# --------------------------------------------------------------------------- wings


@njit(cache=True, inline="always")
def _wing_value(k, bigcard, ncard2):  # type: ignore[no-untyped-def]
    """The value (tenths) of a wing whose set has ``k`` cells, the largest holding
    ``bigcard`` digits and ``ncard2`` of them two; -1 where the rater has none."""
    if k == 2:
        if ncard2 == 2:
            return 42
        if ncard2 == 1 and bigcard == 3:
            return 44
        return -1
    if k == 3:
        return 55 + (1 - abs(3 - bigcard))
    if k == 4:
        return 62 + (2 - abs(3 - bigcard))
    if k == 5:
        return 66
    if k == 6:
        return 75
    return -1


@njit(cache=True, inline="always")
def _set_bits(masks, als, k, u, see_bits, setbits, holders, seeall):  # type: ignore[no-untyped-def]
    """Bitsets of the set ``als[:k]`` (holding the digits ``u``): its cells
    (``setbits``), and for each digit ``d`` of ``u`` the set cells holding it
    (``holders[d]``) and the cells seeing all of those (``seeall[d]``)."""
    nwords = setbits.shape[0]
    for w in range(nwords):
        setbits[w] = 0
    left = u
    while left:
        bit = left & -left
        left ^= bit
        d = _cttz(bit)
        for w in range(nwords):
            holders[d, w] = 0
            seeall[d, w] = -1
    for q in range(k):
        a = als[q]
        setbits[a >> 6] |= np.int64(1) << (a & 63)
        m = masks[a]
        while m:
            bit = m & -m
            m ^= bit
            d = _cttz(bit)
            holders[d, a >> 6] |= np.int64(1) << (a & 63)
            for w in range(nwords):
                seeall[d, w] &= see_bits[a, w]


@njit(cache=True, inline="always")
def _restricted(holders, see_bits, pincer, d):  # type: ignore[no-untyped-def]
    """True when every set cell holding digit ``d`` sees the pincer (the set
    holds the pincer's digits, so some cell does)."""
    ok = True
    for w in range(holders.shape[1]):
        ok = ok and (holders[d, w] & ~see_bits[pincer, w]) == 0
    return ok


@njit(cache=True, inline="always")
def _wing_removals(  # type: ignore[no-untyped-def]
    masks, values, u, see_bits, pincer, setbits, holders, seeall, out_cells, out_masks
):
    """What the wing of a set (``u`` its digits; ``setbits``, ``holders``,
    ``seeall``: :func:`_set_bits`) and the bivalue ``pincer`` removes: ``z``
    (either digit of the pincer whose other digit ``x`` is restricted: every
    set cell holding it sees the pincer) from the cells seeing the pincer and
    every set cell holding ``z``; when both digits are restricted (a doubly
    linked wing) the set's other digits are locked in it too and go from
    every cell seeing all their places in the set. Returns how many cells
    lose something, in ``out_cells`` (in cell order), the digits as bits in
    ``out_masks``."""
    pair = masks[pincer]
    lo = pair & -pair
    hi = pair ^ lo
    dlo = _cttz(lo)
    dhi = _cttz(hi)
    lo_restricted = _restricted(holders, see_bits, pincer, dlo)
    hi_restricted = _restricted(holders, see_bits, pincer, dhi)
    if not (lo_restricted or hi_restricted):
        return 0
    locked = u & ~pair if lo_restricted and hi_restricted else np.int64(0)
    ne = 0
    for w in range(setbits.shape[0]):
        # the cells that may lose something: z's seeing the pincer, the locked digits'
        cand = np.int64(0)
        if lo_restricted:
            cand |= see_bits[pincer, w] & seeall[dhi, w]
        if hi_restricted:
            cand |= see_bits[pincer, w] & seeall[dlo, w]
        rest = locked
        while rest:
            bit = rest & -rest
            rest ^= bit
            cand |= seeall[_cttz(bit), w]
        cand &= ~setbits[w]
        if (pincer >> 6) == w:
            cand &= ~(np.int64(1) << (pincer & 63))
        while cand != 0:
            low = cand & -cand
            cand ^= low
            e = (w << 6) + _cttz(low)
            if e >= masks.shape[0]:
                break
            if values[e] != 0:
                continue
            near = (see_bits[pincer, w] & low) != 0
            removed = np.int64(0)
            if lo_restricted and near and (masks[e] & hi) and (seeall[dhi, w] & low):
                removed |= hi
            if hi_restricted and near and (masks[e] & lo) and (seeall[dlo, w] & low):
                removed |= lo
            rest = locked
            while rest:
                bit = rest & -rest
                rest ^= bit
                if (masks[e] & bit) and (seeall[_cttz(bit), w] & low):
                    removed |= bit
            if removed:
                out_cells[ne] = e
                out_masks[ne] = removed
                ne += 1
    return ne


@njit(cache=True)
def als_wings(masks, values, k, see_bits, since, since_values, out_cells, out_masks):  # type: ignore[no-untyped-def]
    """The best wing whose almost locked set has ``k`` cells (see the module doc).

    ``values`` are 0 for empty cells. The sets are the combinations of empty
    cells (two candidates or more) in cell order, depth first; for each, every
    bivalue cell outside it whose digits it holds is tried as the last pincer
    (:func:`_wing_removals`). Returns ``(tenths, candidates removed, cells)``
    with the cells in ``out_cells[:cells]`` and the digits removed from each
    as bits in ``out_masks``; ``(0, 0, 0)`` when there is none. Best: the
    lowest value, then the most removals. ``see_bits[a]``: the cells sharing
    a unit with ``a`` as a bitset (bit ``b`` of word ``b >> 6``), so that each
    set grows only by the later cells that see all of it.

    ``since``, ``since_values``: cell masks and placements on which no wing
    of ``k`` removed anything (empty arrays when none is known). When the
    marks are those less some candidates, a wing that removes something now
    has a cell that lost one (otherwise it was there, removing as much or
    more), so only those are looked at: the same best wing.
    """
    ncells = masks.shape[0]
    nwords = see_bits.shape[1]
    shrunk = _shrunk(masks, values, since, since_values)
    changed = np.zeros(nwords, dtype=np.int64)  # the cells that lost a candidate
    for c in range(ncells):
        if not shrunk or since[c] != masks[c]:
            changed[c >> 6] |= np.int64(1) << (c & 63)
    cells = np.empty(ncells, dtype=np.int32)
    ncell = 0
    eligible = np.zeros(nwords, dtype=np.int64)
    for c in range(ncells):
        if values[c] == 0 and popcount(masks[c]) >= 2:
            cells[ncell] = c
            ncell += 1
            eligible[c >> 6] |= np.int64(1) << (c & 63)
    bivalue = np.empty(ncells, dtype=np.int32)
    nbiv = 0
    pincer_changed = False  # a bivalue cell that lost a candidate
    for i in range(ncell):
        if popcount(masks[cells[i]]) == 2:
            bivalue[nbiv] = cells[i]
            nbiv += 1
            pincer_changed = pincer_changed or contains_bit(changed, cells[i])
    als = np.empty(k, dtype=np.int32)
    left = np.empty((k, nwords), dtype=np.int64)  # the cells still to try at each depth
    union = np.zeros(k + 1, dtype=np.int64)
    had = np.zeros(k + 1, dtype=np.bool_)  # the set's first cells hold one that lost a candidate
    elim_c = np.empty(ncells, dtype=np.int32)
    elim_m = np.empty(ncells, dtype=np.int64)
    setbits = np.empty(nwords, dtype=np.int64)
    holders = np.empty((64, nwords), dtype=np.int64)
    seeall = np.empty((64, nwords), dtype=np.int64)
    best_t = 1 << 30
    best_e = 0
    best_d = 0
    depth = 0
    copy_head(left[0], eligible, nwords)
    while depth >= 0:
        # the next cell at this depth: the lowest left, which sees every cell of the set
        c = -1
        for w in range(nwords):
            x = left[depth, w]
            if x != 0:
                low = x & -x
                left[depth, w] = x ^ low
                c = (w << 6) + _cttz(low)
                break
        if c < 0:
            depth -= 1
            continue
        u = union[depth] | masks[c]
        if popcount(u) > k + 1:
            continue
        als[depth] = c
        union[depth + 1] = u
        had[depth + 1] = had[depth] or contains_bit(changed, c)
        if depth + 1 < k:
            depth += 1
            # what the depth above has left (the cells after c, which see the set) that sees c
            overlap = np.int64(0)
            for w in range(nwords):
                left[depth, w] = left[depth - 1, w] & see_bits[c, w]
                overlap |= left[depth, w] & changed[w]
            if not (had[depth] or pincer_changed or overlap):
                depth -= 1  # no set from here holds a changed cell, nor does any pincer
            continue
        if popcount(u) != k + 1:
            continue
        bigcard = 0
        ncard2 = 0
        for q in range(k):
            pc = popcount(masks[als[q]])
            bigcard = max(bigcard, pc)
            if pc == 2:
                ncard2 += 1
        value = _wing_value(k, bigcard, ncard2)
        if value < 0 or value > best_t:
            continue
        prepared = False  # the set's bitsets, made for its first pincer
        for b in range(nbiv):
            pincer = bivalue[b]
            if (masks[pincer] & u) != masks[pincer] or contains(als, k, pincer):
                continue
            if not (had[k] or contains_bit(changed, pincer)):
                continue  # the same wing was there, removing nothing
            if not prepared:
                _set_bits(masks, als, k, u, see_bits, setbits, holders, seeall)
                prepared = True
            ne = _wing_removals(
                masks, values, u, see_bits, pincer, setbits, holders, seeall, elim_c, elim_m
            )
            total = 0
            for s in range(ne):
                total += popcount(elim_m[s])
            if total > 0 and (value < best_t or total > best_e):
                best_t = value
                best_e = total
                best_d = ne
                copy_head(out_cells, elim_c, ne)
                copy_head(out_masks, elim_m, ne)
    if best_e == 0:
        return 0, 0, 0
    return best_t, best_e, best_d


# --------------------------------------------------------------------------- unique rectangles


@njit(cache=True, inline="always")
def _sees(cell_line, a, b):  # type: ignore[no-untyped-def]
    """True when cells ``a`` and ``b`` share a row, column or box."""
    shared = False
    for t in range(3):
        shared = shared or (cell_line[a, t] >= 0 and cell_line[a, t] == cell_line[b, t])
    return shared


@njit(cache=True, inline="always")
def _in_two_boxes(cell_line, corners):  # type: ignore[no-untyped-def]
    """True when the corners lie in exactly two boxes (the first corner's and one other)."""
    b0 = cell_line[corners[0], 2]
    other = -1
    ok = b0 >= 0
    for c in corners:
        bc = cell_line[c, 2]
        if bc != b0:
            if other < 0:
                other = bc
            elif bc != other:
                ok = False
    return ok and other >= 0


@njit(cache=True, inline="always")
def _roof_type2(masks, values, cell_line, roof0, roof1, extra, out):  # type: ignore[no-untyped-def]
    """Type 2: both roof cells hold the one extra digit; it goes from the cells
    seeing both. Returns how many removals, in ``out``."""
    dz = 0
    while not ((extra >> dz) & 1):
        dz += 1
    n = 0
    for e in range(masks.shape[0]):
        if (
            e != roof0
            and e != roof1
            and values[e] == 0
            and (masks[e] & extra)
            and _sees(cell_line, e, roof0)
            and _sees(cell_line, e, roof1)
        ):
            out[n, 0] = e
            out[n, 1] = dz
            n += 1
    return n


@njit(cache=True, inline="always")
def _roof_type4(masks, values, units, roof0, roof1, a, b, out):  # type: ignore[no-untyped-def]
    """Type 4: in a unit holding both roof cells one of the two digits has no
    other place, so the other digit goes from both. Returns 2, or 0 for none."""
    width = units.shape[1]
    for u in range(units.shape[0]):
        has0 = False
        has1 = False
        for s in range(width):
            has0 = has0 or units[u, s] == roof0
            has1 = has1 or units[u, s] == roof1
        if not (has0 and has1):
            continue
        for lock in range(2):
            locked = a if lock == 0 else b
            gone = b if lock == 0 else a
            only = True
            for s in range(width):
                x = units[u, s]
                if x != roof0 and x != roof1 and values[x] == 0 and (masks[x] >> locked) & 1:
                    only = False
            if only:
                out[0, 0] = roof0
                out[0, 1] = gone
                out[1, 0] = roof1
                out[1, 1] = gone
                return 2
    return 0


@njit(cache=True, inline="always")
def _roof_type3(masks, values, cell_line, units, roof0, roof1, ab, out):  # type: ignore[no-untyped-def]
    """Type 3: one roof cell at least holds an extra digit, so in a unit of
    both roof cells the two act as one cell whose candidates are their extra
    digits. Its hidden pair: the rectangle's two digits, whose other places in
    the unit are one cell only, need that cell (the roof takes at most one of
    them), which loses its other digits (4.5). Its naked sets: the extra
    digits and k - 1 other cells holding k digits in all fill those k cells
    (the roof's extra among them), so the digits go from the unit's other
    cells (4.5 + 0.1 (k - 1), k = 2 to 4). Returns ``(removals, tenths)`` of
    the least valued, then the first unit in SE's order (box, column, row:
    SukakuExplainer removed a naked pair's digits from the box where the row
    held the same pair), then the cells' combinations in order; ``(0, 0)``
    for none. Measured from SukakuExplainer's paths (``serate.jar`` with the
    pencil marks before each step): hidden pairs at 4.5, naked pairs at 4.6;
    the values of naked triples and quads are this rule's, not yet seen."""
    width = units.shape[1]
    extra = (masks[roof0] | masks[roof1]) & ~ab
    others = np.empty(width, dtype=np.int64)
    shared = np.empty(3, dtype=np.int64)  # the units of both, in SE's order
    nshared = 0
    for slot in (2, 1, 0):  # box, column, row
        if cell_line[roof0, slot] >= 0 and cell_line[roof0, slot] == cell_line[roof1, slot]:
            shared[nshared] = cell_line[roof0, slot]
            nshared += 1
    for j in range(nshared):  # the hidden pair first: it is worth less
        u = shared[j]
        x = -1
        count = 0
        for s in range(width):
            c = units[u, s]
            if c >= 0 and c != roof0 and c != roof1 and values[c] == 0 and masks[c] & ab:
                x = c
                count += 1
        if count == 1 and masks[x] & ~ab:
            n = 0
            for d in range(64):
                if (masks[x] & ~ab) >> d & 1:
                    out[n, 0] = x
                    out[n, 1] = d
                    n += 1
            return n, 45
    for k in range(2, 5):
        for j in range(nshared):
            u = shared[j]
            m = 0
            for s in range(width):
                c = units[u, s]
                if c >= 0 and c != roof0 and c != roof1 and values[c] == 0:
                    others[m] = c
                    m += 1
            for pick in range(1, 1 << m):
                if popcount(np.int64(pick)) != k - 1:
                    continue
                digits = extra
                for i in range(m):
                    if pick >> i & 1:
                        digits |= masks[others[i]]
                if popcount(digits) != k:
                    continue
                n = 0
                for i in range(m):
                    if pick >> i & 1:
                        continue
                    gone = masks[others[i]] & digits
                    for d in range(64):
                        if gone >> d & 1:
                            out[n, 0] = others[i]
                            out[n, 1] = d
                            n += 1
                if n > 0:
                    return n, 45 + k - 1
    return 0, 0


@njit(cache=True, inline="always")
def _rectangle_removals(masks, values, cell_line, units, corners, a, b, kind, out):  # type: ignore[no-untyped-def]
    """The removals of a type ``kind`` (1 to 4) unique rectangle on digits ``a``
    and ``b``, in ``out``; returns ``(how many, value in tenths)``, ``(0, 0)``
    for none."""
    ab = (np.int64(1) << a) | (np.int64(1) << b)
    exact = 0
    for c in corners:
        if masks[c] == ab:
            exact += 1
    if exact == 3:
        if kind != 1:
            return 0, 0
        for c in corners:
            if masks[c] != ab:
                out[0, 0] = c
                out[0, 1] = a
                out[1, 0] = c
                out[1, 1] = b
        return 2, 45
    if exact != 2 or kind == 1:
        return 0, 0
    # the two corners with more digits (the roof), which must share a line
    roof0 = -1
    roof1 = -1
    for c in corners:
        if masks[c] != ab:
            if roof0 < 0:
                roof0 = c
            else:
                roof1 = c
    if not (
        cell_line[roof0, 0] == cell_line[roof1, 0] or cell_line[roof0, 1] == cell_line[roof1, 1]
    ):
        return 0, 0
    extra0 = masks[roof0] & ~ab
    extra1 = masks[roof1] & ~ab
    if kind == 2:
        if extra0 == extra1 and popcount(extra0) == 1:
            return _roof_type2(masks, values, cell_line, roof0, roof1, extra0, out), 45
        return 0, 0
    if kind == 3:
        return _roof_type3(masks, values, cell_line, units, roof0, roof1, ab, out)
    return _roof_type4(masks, values, units, roof0, roof1, a, b, out), 45


@njit(cache=True, inline="always")
def _swappable(cell_extra, corners):  # type: ignore[no-untyped-def]
    """True unless a unit beyond rows, columns and boxes (bit k of ``cell_extra``:
    an X diagonal, a Windoku window) holds exactly one corner. Swapping the
    rectangle's two digits keeps every unit that holds none of its corners, two
    of a line (one digit each) or two opposite ones (the same digit twice: no
    such solution); a unit holding one corner may hold the other digit
    elsewhere, and then the swap is no solution: no deadly pattern."""
    seen = np.int64(0)
    twice = np.int64(0)
    for c in corners:
        twice |= seen & cell_extra[c]
        seen |= cell_extra[c]
    # a unit holding three corners holds two opposite ones: also no solution
    return (seen & ~twice) == 0


@njit(cache=True)
def unique_rectangles(masks, values, cell_line, units, ukind, cell_extra, out):  # type: ignore[no-untyped-def]
    """The unique rectangle SE applies; returns ``(removals written to out,
    value in tenths)``, ``(0, 0)`` for none.

    The rectangle's four empty cells lie in two rows, two columns and two
    boxes and all hold digits a and b: were they only a and b, the two could
    be swapped, a second solution. Type 1: three corners hold only a and b,
    so the fourth loses them. The others: two corners in a line (the floor)
    hold only a and b, and the other two (the roof) share a line. Type 2: the
    roof's cells hold a, b and the same c, so c goes from the cells seeing
    both. Type 3: :func:`_roof_type3`. Type 4: in a unit holding the roof, a
    has no other place, so b goes from both. SE applies the least valued,
    then the least type (SukakuExplainer's paths show a type 1 applied before
    a type 4 met earlier in this scan, and a type 3 before a type 4 of the
    same rectangle); among equals the first by rows, then places in the rows,
    then digit pairs in order. ``cell_extra``: :func:`_swappable`.
    """
    nunits = units.shape[0]
    width = units.shape[1]
    scratch = np.empty_like(out)
    best_n = 0
    best = 1 << 30
    for r1 in range(nunits):
        if ukind[r1] != 1:
            continue
        for r2 in range(r1 + 1, nunits):
            if ukind[r2] != 1:
                continue
            for i1 in range(width):
                for i2 in range(i1 + 1, width):
                    corners = (units[r1, i1], units[r1, i2], units[r2, i1], units[r2, i2])
                    empty = True
                    for c in corners:
                        empty = empty and values[c] == 0
                    if not empty or not _in_two_boxes(cell_line, corners):
                        continue
                    if not _swappable(cell_extra, corners):
                        continue
                    common = masks[corners[0]] & masks[corners[1]]
                    common &= masks[corners[2]] & masks[corners[3]]
                    if popcount(common) < 2:
                        continue
                    for a in range(64):
                        if not (common >> a) & 1:
                            continue
                        for b in range(a + 1, 64):
                            if not (common >> b) & 1:
                                continue
                            for kind in range(1, 5):
                                n, tenths = _rectangle_removals(
                                    masks, values, cell_line, units, corners, a, b, kind, scratch
                                )
                                if n > 0 and tenths * 8 + kind < best:
                                    best = tenths * 8 + kind
                                    best_n = n
                                    out[:n] = scratch[:n]
                                    if best == 45 * 8 + 1:  # nothing is worth less
                                        return best_n, 45
    return best_n, (best // 8 if best_n else 0)


# --------------------------------------------------------------------------- the constraint subset rule

# Pointing and claiming, naked and hidden sets and fishes are one rule (Hunt,
# Pong, Tucker, *Difficulty-Driven Sudoku Puzzle Generation*, theorem
# "Constraint Subset Rule"; docs/techniques.md): n *base* sets whose places
# all lie in n *cover* sets; each cover set then takes its one value inside
# the base sets, and its other candidates go. Here a base set is a bitset over
# the indices of the cover sets:
#
# * naked set: base = n empty cells of a unit (their candidate digits), cover =
#   the unit's digits; the digits go from the unit's other cells;
# * hidden set: base = n digits of a unit (the places of each), cover = the
#   unit's cells; those cells lose their other digits;
# * fish: base = n lines of one kind (the places of one digit in each), cover =
#   the crossing lines; the digit goes from the cover lines outside the base;
# * pointing and claiming: n = 1, base a box and cover a line or the reverse.
#
# The ``se`` replay must find the first hint in Sudoku Explainer's scan order
# (the order decides its path): units boxes, columns, rows; base sets chosen
# as combinations in increasing bit pattern (:func:`_next_subset`).
#
# The techniques are inlined into basic_hint (called from there only; see the
# module's note on inline="always").

#: Unit kinds to scan, for :func:`_scan_order`: row 0 all of them in SE's
#: order (boxes, columns, rows, others), row ``1 + k`` kind ``k`` alone (-1
#: matches no unit). Its argument is always a row of this table, so it has
#: one type (tuples of different lengths or of literals were one compile each).
_SCAN_KINDS = np.array(
    [[0, 2, 1, 3], [0, -1, -1, -1], [1, -1, -1, -1], [2, -1, -1, -1], [3, -1, -1, -1]],
    dtype=np.int64,
)

#: Technique codes of :func:`basic_hint`.
LOCKING = 0
NAKED = 1
HIDDEN = 2
FISH = 3
#: :func:`basic_first`'s code for a naked single (the first empty cell with
#: one candidate), which SE tries between its direct hints.
SINGLE = 4

#: The (base kind, cover kind) passes of pointing (box to column, box to row)
#: then claiming (column to box, row to box), in the order they are scanned.
_LOCKING_PASSES = ((0, 2), (0, 1), (2, 0), (1, 0))


@njit(cache=True)
def _next_subset(v):  # type: ignore[no-untyped-def]
    """The next larger integer with as many set bits (Gosper's hack): the next
    combination of base sets in increasing bit pattern."""
    smallest = v & -v
    ripple = v + smallest
    ones = v ^ ripple
    ones = (ones >> 2) // smallest
    return ripple | ones


@njit(cache=True)
def _covered(comb, base):  # type: ignore[no-untyped-def]
    """The union of the base sets chosen by ``comb`` (bits over ``base``'s
    indices), or -1 when one of them is marked -1 (not a base set)."""
    union = np.int64(0)
    for i in range(base.shape[0]):
        if (comb >> i) & 1:
            if base[i] < 0:
                return np.int64(-1)
            union |= base[i]
    return union


@njit(cache=True, inline="always")
def _base_indices(base, idx, most):  # type: ignore[no-untyped-def]
    """The indices of the base sets (entries of ``base`` that are not -1) of at
    most ``most`` members, in order, in ``idx``; returns how many. A set of n
    is the union of n base sets of n members or fewer, so a larger one is in
    no set of n: the combinations left out are those whose union is too big."""
    m = 0
    for i in range(base.shape[0]):
        if base[i] >= 0 and popcount(base[i]) <= most:
            idx[m] = i
            m += 1
    return m


@njit(cache=True, inline="always")
def _spread(picked, idx):  # type: ignore[no-untyped-def]
    """The combination ``picked`` of base sets (bits over ``idx``'s places) as
    bits over the sets' own indices. Spreading keeps the order of combinations
    (the highest set where two differ stays the highest), so going through
    the combinations of base sets only is going through all in order and
    skipping those with a set that is none."""
    comb = np.int64(0)
    i = 0
    while picked:
        if picked & 1:
            comb |= np.int64(1) << idx[i]
        picked >>= 1
        i += 1
    return comb


@njit(cache=True)
def _emit(out, ne, c, bits):  # type: ignore[no-untyped-def]
    """Append the removals ``(c, d)`` for every digit bit ``d`` of ``bits``."""
    d = 0
    while bits:
        if bits & 1:
            out[ne, 0] = c
            out[ne, 1] = d
            ne += 1
        bits >>= 1
        d += 1
    return ne


@njit(cache=True)
def _places(masks, values, units, u, d):  # type: ignore[no-untyped-def]
    """Bits (by place in unit ``u``) of the empty cells holding digit ``d``."""
    bits = np.int64(0)
    for s in range(units.shape[1]):
        c = units[u, s]
        if c >= 0 and values[c] == 0 and (masks[c] >> d) & 1:
            bits |= np.int64(1) << s
    return bits


@njit(cache=True, inline="always")
def _lowest_bit(bits):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of ``bits`` (which has one)."""
    s = 0
    while not (bits >> s) & 1:
        s += 1
    return s


@njit(cache=True, inline="always")
def _base_or_none(bits):  # type: ignore[no-untyped-def]
    """``bits`` as a base set: -1 (none) unless it holds two places or more."""
    return bits if popcount(bits) > 1 else np.int64(-1)


@njit(cache=True)
def _empty_count(values, units, u):  # type: ignore[no-untyped-def]
    n = 0
    for s in range(units.shape[1]):
        c = units[u, s]
        if c >= 0 and values[c] == 0:
            n += 1
    return n


@njit(cache=True)
def _places_outside(units, member, u, places, other):  # type: ignore[no-untyped-def]
    """How many of ``places`` (bits over unit ``u``) lie outside unit ``other``,
    and the cell of the last of them (-1 for none)."""
    n = 0
    cell = -1
    for s in range(units.shape[1]):
        if (places >> s) & 1 and not member[other, units[u, s]]:
            n += 1
            cell = units[u, s]
    return n, cell


@njit(cache=True, inline="always")
def _locking_places(masks, values, units, base, d):  # type: ignore[no-untyped-def]
    """The places of digit ``d`` in unit ``base`` (bits over the unit) and the
    cell of the first, for the locking rule (pointing, claiming): -1 for the
    cell when there are fewer than two places (no rule to find)."""
    places = _places(masks, values, units, base, d)
    if popcount(places) < 2:
        return places, -1
    return places, units[base, _lowest_bit(places)]


@njit(cache=True, inline="always")
def _locked_in(units, member, cross, base, places, first, cover):  # type: ignore[no-untyped-def]
    """Whether every place ``places`` of unit ``base`` (``first``: the cell of the
    first) lies in ``cover``, a unit crossing ``base``: the locking rule's test."""
    # a cover holding every place holds the first: the quick test first
    if not member[cover, first] or not cross[base, cover]:
        return False
    return _places_outside(units, member, base, places, cover)[0] == 0


@njit(cache=True, inline="always")
def _locking_covers(masks, values, units, member, cross, base, d, covers, out):  # type: ignore[no-untyped-def]
    """The units of ``covers`` (in that order) holding every place of digit ``d``
    in unit ``base``, written to ``out``; returns how many (none when ``d`` has
    fewer than two places there). These are the locking rule's (base, cover)
    pairs of ``d``, as both of its searches take them: the hints
    (:func:`_pointing_claiming`) and the offshoots
    (:mod:`csp_sudoku._kernels.se_offshoots`)."""
    places, first = _locking_places(masks, values, units, base, d)
    n = 0
    if first >= 0:
        for cover in covers:
            if _locked_in(units, member, cross, base, places, first, cover):
                out[n] = cover
                n += 1
    return n


@njit(cache=True)
def _scan_order(ukind, kinds):  # type: ignore[no-untyped-def]
    """The units of the given kinds, kind by kind in that order, each by index."""
    out = np.empty(ukind.shape[0], dtype=np.int32)
    n = 0
    for k in kinds:
        for u in range(ukind.shape[0]):
            if ukind[u] == k:
                out[n] = u
                n += 1
    return out[:n]


@njit(cache=True, inline="always")
def _locking_pass(ukind, pi):  # type: ignore[no-untyped-def]
    """Pass ``pi`` of the locking rule (:data:`_LOCKING_PASSES`), as both of its
    searches take it: the kind of its base units, its base and cover units in
    scan order, and room for the covers :func:`_locking_covers` finds."""
    base_kind, cover_kind = _LOCKING_PASSES[pi]
    bases = _scan_order(ukind, _SCAN_KINDS[1 + base_kind])
    covers = _scan_order(ukind, _SCAN_KINDS[1 + cover_kind])
    return base_kind, bases, covers, np.empty(covers.shape[0], dtype=np.int32)


@njit(cache=True, inline="always")
def _pointing_claiming(masks, values, units, ukind, member, cross, direct, lost, out):  # type: ignore[no-untyped-def]
    """The rule with one base unit and one cover unit crossing it: a digit whose
    places in the base unit all lie in the cover unit goes from the cover
    unit's other cells. ``direct``: only a hint whose removals leave a hidden
    single in another unit of the base kind (returned as the placement)."""
    width = units.shape[1]
    for pi in range(len(_LOCKING_PASSES)):
        base_kind, bases, covers, found = _locking_pass(ukind, pi)
        for d in range(width):
            if direct:
                # the hidden single can come from a place lost in another unit of
                # the base kind: a digit no unit of that kind lost gives none
                anywhere = np.int64(0)
                for base in bases:
                    anywhere |= lost[base]
                if not (anywhere >> d) & 1:
                    continue
            for base in bases:
                if not direct and not (lost[base] >> d) & 1:
                    continue  # the base kept its places of d: no new hint here
                for h in range(
                    _locking_covers(masks, values, units, member, cross, base, d, covers, found)
                ):
                    cover = found[h]
                    ne = np.int64(0)
                    for t in range(width):
                        c = units[cover, t]
                        if (
                            c >= 0
                            and values[c] == 0
                            and (masks[c] >> d) & 1
                            and not member[base, c]
                        ):
                            out[ne, 0] = c
                            out[ne, 1] = d
                            ne += 1
                    if not direct:
                        if ne > 0:
                            return ne, -1, -1, base_kind
                        continue
                    for other in bases:
                        if other == base or not cross[other, cover]:
                            continue
                        left = _places(masks, values, units, other, d)
                        if popcount(left) <= 1:
                            continue
                        n_out, single = _places_outside(units, member, other, left, cover)
                        if n_out == 1:
                            return ne, single, d, base_kind
    return -1, -1, -1, -1


@njit(cache=True, inline="always")
def _next_set(picked, m, n, idx, base, changed):  # type: ignore[no-untyped-def]
    """The search of naked and hidden sets and fish, in one place: from
    combination ``picked`` on (``n`` of the ``m`` base sets that
    :func:`_base_indices` put in ``idx``), in order, the next that holds a set
    of ``changed`` (bits over the sets' indices) and whose sets' union
    (:func:`_covered` over ``base``) has exactly ``n`` members. Returns
    ``(comb, union, picked)``: the combination as bits over the sets' indices
    (-1 when none is left), the union, and the combination to go on from.
    One return, after a loop that breaks (see se_chains' _branches_total)."""
    comb = np.int64(-1)
    union = np.int64(-1)
    while picked < (np.int64(1) << m):
        spread = _spread(picked, idx)
        picked = _next_subset(picked)
        if not spread & changed:
            continue
        got = _covered(spread, base)
        if got >= 0 and popcount(got) == n:
            comb = spread
            union = got
            break
    return comb, union, picked


@njit(cache=True, inline="always")
def _set_bases(masks, values, units, u, naked, n, base, idx):  # type: ignore[no-untyped-def]
    """The base sets of a search for sets of ``n`` in unit ``u``: each empty
    cell's digits (``naked``) or each digit's places in the unit (hidden), -1
    where there is none or only one (:func:`_base_or_none`). Returns how many
    hold n members or fewer, their positions in ``idx``."""
    width = units.shape[1]
    for s in range(width):
        if naked:
            c = units[u, s]
            base[s] = -1 if c < 0 or values[c] != 0 else _base_or_none(masks[c])
        else:
            base[s] = _base_or_none(_places(masks, values, units, u, s))
    return _base_indices(base[:width], idx, n)


@njit(cache=True, inline="always")
def _naked_set(masks, values, units, ukind, n, lost_at, out):  # type: ignore[no-untyped-def]
    """n empty cells of a unit (each with two candidates or more) holding n
    digits between them: the digits go from the unit's other cells. Units
    with fewer than 2n empty cells are skipped."""
    width = units.shape[1]
    base = np.empty(width, dtype=np.int64)
    idx = np.empty(width, dtype=np.int64)
    for u in _scan_order(ukind, _SCAN_KINDS[0]):
        if lost_at[u] == 0 or _empty_count(values, units, u) < 2 * n:
            continue
        m = _set_bases(masks, values, units, u, True, n, base, idx)
        picked = (np.int64(1) << n) - 1
        while True:
            # only sets with a cell that lost a candidate: no new hint elsewhere
            comb, digits, picked = _next_set(picked, m, n, idx, base, lost_at[u])
            if comb < 0:
                break
            ne = np.int64(0)  # not a literal: _emit compiles once
            for s in range(width):
                c = units[u, s]
                if not (comb >> s) & 1 and c >= 0 and values[c] == 0:
                    ne = _emit(out, ne, c, masks[c] & digits)
            if ne > 0:
                return ne, -1, -1, 0
    return -1, -1, -1, -1


@njit(cache=True, inline="always")
def _hidden_set(masks, values, units, ukind, n, direct, lost, out):  # type: ignore[no-untyped-def]
    """n digits of a unit (each with two places or more) confined to n cells:
    those cells lose their other digits. Units with at most 2n empty cells
    are skipped. ``direct``: the first such set whose removals leave another
    digit of the unit one place (returned as the placement), in units with
    more than n empty cells."""
    width = units.shape[1]
    places = np.empty(width, dtype=np.int64)
    base = np.empty(width, dtype=np.int64)
    idx = np.empty(width, dtype=np.int64)
    for u in _scan_order(ukind, _SCAN_KINDS[0]):
        empty = _empty_count(values, units, u)
        if lost[u] == 0 or not (empty > 2 * n or (direct and empty > n)):
            continue
        for d in range(width):
            places[d] = _places(masks, values, units, u, d)
            base[d] = _base_or_none(places[d])
        m = _base_indices(base, idx, n)
        # unless direct, only sets with a digit that lost a place in the unit:
        # no new hint elsewhere
        changed = np.int64(-1) if direct else np.int64(lost[u])
        picked = (np.int64(1) << n) - 1
        while True:
            comb, cells, picked = _next_set(picked, m, n, idx, base, changed)
            if comb < 0:
                break
            ne = np.int64(0)  # not a literal: _emit compiles once
            for s in range(width):
                if (cells >> s) & 1:
                    c = units[u, s]
                    ne = _emit(out, ne, c, masks[c] & ~comb)
            if direct:
                for d in range(width):
                    rest = places[d] & ~cells
                    if not (comb >> d) & 1 and base[d] >= 0 and popcount(rest) == 1:
                        s = 0
                        while not (rest >> s) & 1:
                            s += 1
                        return ne, units[u, s], d, 0
            elif ne > 0:
                return ne, -1, -1, 0
    return -1, -1, -1, -1


@njit(cache=True, inline="always")
def placed_counts(values, size):  # type: ignore[no-untyped-def]
    """How many cells hold each digit (0-based index; ``values`` 1-based, 0 empty):
    a fish of n lines needs a digit placed at most N - 2n times."""
    placed = np.zeros(size, dtype=np.int32)
    for c in range(values.shape[0]):
        if values[c] > 0:
            placed[values[c] - 1] += 1
    return placed


@njit(cache=True, inline="always")
def _fish(masks, values, units, ukind, member, n, lost, out):  # type: ignore[no-untyped-def]
    """X-Wing, Swordfish, Jellyfish (n = 2, 3, 4): a digit whose places in n
    base lines (two or more in each) lie in n cover lines goes from the cover
    lines' other cells. Bases columns then rows; each combination of base
    lines is tried for every digit placed at most N - 2n times."""
    width = units.shape[1]
    size = width
    placed = placed_counts(values, size)
    for pi in range(2):
        base_lines = _scan_order(ukind, _SCAN_KINDS[3 - pi])
        cover_lines = _scan_order(ukind, _SCAN_KINDS[2 + pi])
        nb = base_lines.shape[0]
        base = np.empty((size, nb), dtype=np.int64)
        changed = np.zeros(size, dtype=np.int64)  # per digit, the base lines that lost it
        for d in range(size):
            for i in range(nb):
                if (lost[base_lines[i]] >> d) & 1:
                    changed[d] |= np.int64(1) << i
            if changed[d]:
                for i in range(nb):
                    base[d, i] = _base_or_none(_places(masks, values, units, base_lines[i], d))
        if not changed.any():
            continue  # no base line lost a digit: no new fish of this orientation
        comb = (np.int64(1) << n) - 1
        while comb < (np.int64(1) << nb):
            for d in range(size):
                if placed[d] + 2 * n > size or not comb & changed[d]:
                    continue
                covers = _covered(comb, base[d])
                if covers < 0 or popcount(covers) != n:
                    continue
                ne = np.int64(0)  # not a literal: _emit compiles once
                for j in range(cover_lines.shape[0]):
                    if not (covers >> j) & 1:
                        continue
                    for s in range(width):
                        c = units[cover_lines[j], s]
                        if c < 0 or values[c] != 0 or not (masks[c] >> d) & 1:
                            continue
                        in_base = False
                        for i in range(nb):
                            in_base = in_base or ((comb >> i) & 1 and member[base_lines[i], c] == 1)
                        if not in_base:
                            ne = _emit(out, ne, c, np.int64(1) << d)
                if ne > 0:
                    return ne, -1, -1, 0
            comb = _next_subset(comb)
    return -1, -1, -1, -1


@njit(cache=True)
def basic_hint(  # type: ignore[no-untyped-def]
    masks, values, units, ukind, member, cross, technique, n, direct, since, since_values, out
):
    """The first hint of one form of the constraint subset rule, in Sudoku
    Explainer's scan order (see the section's note).

    ``technique``: :data:`LOCKING` (pointing, then claiming), :data:`NAKED` or
    :data:`HIDDEN` sets of ``n`` and :data:`FISH` of ``n`` lines; ``direct``
    (pointing, claiming and hidden sets): only hints whose removals leave a
    hidden single, which they place. Returns ``(removals, cell, digit,
    kind)``: the removals ``(cell, digit)`` in ``out[:removals]``, the
    placement of a direct hint (-1 otherwise) and for locking the base
    unit's kind (0 box: pointing); ``removals`` is -1 when there is no hint.
    Digits are 0-based.

    ``since``, ``since_values``: cell masks and placements on which the
    technique had no hint (empty arrays when none is known). When the marks
    are those less some candidates (:func:`_shrunk`), a hint needs a pattern
    that lost one since: for pointing and claiming, the digit in the base
    unit; for a naked set, a candidate in its cells; for a hidden set, a
    place of one of its digits; for a fish, the digit in a base line
    (otherwise the same pattern, with as many removals or more, was there).
    Only those are looked at, in the same order: the same first hint, found
    faster (SE's replay removes a candidate or two at most of its steps).
    A direct hint's hidden single can also come from a place lost elsewhere:
    for direct pointing and claiming, in another unit of the base kind (a
    digit that no such unit lost is skipped); for a direct hidden set, in
    its unit (a unit that lost nothing is skipped).
    """
    lost = np.full(units.shape[0], -1, dtype=np.int64)
    lost_at = np.full(units.shape[0], -1, dtype=np.int64)
    if _shrunk(masks, values, since, since_values):
        lost_since(masks, since, units, lost, lost_at)
    if technique == LOCKING:
        return _pointing_claiming(masks, values, units, ukind, member, cross, direct, lost, out)
    if technique == NAKED:
        return _naked_set(masks, values, units, ukind, n, lost_at, out)
    if technique == HIDDEN:
        return _hidden_set(masks, values, units, ukind, n, direct, lost, out)
    return _fish(masks, values, units, ukind, member, n, lost, out)


@njit(cache=True)
def basic_first(  # type: ignore[no-untyped-def]
    masks, values, units, ukind, member, cross, codes, since, since_values, known, out, found
):
    """The first hint of a run of :func:`basic_hint`'s techniques, tried in turn:
    ``codes[t]`` is the t-th one's ``(technique, n, direct)``, or :data:`SINGLE`
    for a naked single. SE tries such a run (its direct hints and the naked
    single, pointing and claiming, the subsets and fishes of 2 and 3) at
    every step, and every one finds nothing at most steps: one call for the
    run saves the Python around each.

    ``since``, ``since_values`` (a row per technique) and ``known`` (1 where
    the row holds marks) are the marks on which each technique last found
    nothing (:func:`basic_hint`'s ``since``), kept up to date here: the row of
    a technique that finds nothing takes these marks, and the one that finds
    a hint keeps its row (a hint of later marks has a pattern that lost a
    candidate since that row's marks, as every hint of these marks has one).
    Returns the index
    of the technique with a hint, or -1; its ``(removals, cell, digit,
    kind)`` in ``found`` and its removals in ``out``."""
    ncells = values.shape[0]
    for t in range(codes.shape[0]):
        if codes[t, 0] == SINGLE:
            for c in range(ncells):
                if values[c] == 0 and masks[c] != 0 and masks[c] & (masks[c] - 1) == 0:
                    found[0] = 0
                    found[1] = c
                    found[2] = _lowest_bit(masks[c])
                    found[3] = 0
                    return t
            continue
        m = ncells if known[t] else 0
        ne, cell, digit, kind = basic_hint(
            masks, values, units, ukind, member, cross, codes[t, 0], codes[t, 1],
            codes[t, 2] != 0, since[t, :m], since_values[t, :m], out,
        )  # fmt: skip
        if ne >= 0:
            found[0] = ne
            found[1] = cell
            found[2] = digit
            found[3] = kind
            return t
        for c in range(ncells):
            since[t, c] = masks[c]
            since_values[t, c] = values[c]
        known[t] = 1
    return -1
