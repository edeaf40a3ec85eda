"""Compiled kernels of Sudoku Explainer's named patterns between subsets and chains (numba).

The SukakuExplainer batch rater, after the subsets and before its chains,
tries patterns of its own, each with a fixed value:

* **strong-linked fishes** (:func:`strong_links`): ``n`` strong links of one
  digit joined end to end by weak links, the two free ends seeing a common
  candidate, which goes (Skyscraper, 2-String Kite, Turbot Fish for ``n = 2``:
  4.0; 5.4, 5.8, 6.2, 6.6 for ``n = 3 .. 6``; plus 0.1 or 0.2 for the kinds of
  unit the links lie in and 0.3 where a link is grouped);
* **ALS wings** (:func:`als_wings`): ``k`` cells that see one another and hold
  ``k + 1`` digits (an almost locked set) and a bivalue cell ``{x, z}``
  that sees every cell of the set holding ``x``: one of the two holds ``z``,
  so ``z`` goes from every cell seeing all of them (XY-Wing 4.2 and XYZ-Wing
  4.4 for ``k = 2``, WXYZ 5.5-5.6, VWXYZ 6.2-6.4, UVWXYZ 6.6, TUVWXYZ 7.5);
* **unique rectangles** (:func:`unique_rectangles`, 4.5): two digits on the
  corners of a rectangle in two boxes would make a second solution.

Cells are 0-based, digits 0-based inside the kernels; a candidate is
``cell * size + digit``. ``see[a, b]`` is 1 when cells a and b share a unit.
``cell_line[c] = (row unit, column unit, box unit)``; ``ukind`` gives each
unit's kind (0 box, 1 row, 2 column, 3 other).

Nothing imports this module at package import time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels.se_chains import contains
from csp_sudoku._kernels.strategies import popcount

#: Base value (tenths) of a strong-linked fish of n links, index n.
SL_BASE = np.array([0, 0, 40, 54, 58, 62, 66, 70, 74], dtype=np.int32)

_W = 6  # the most cells of one node of a strong link

# Helpers called from one place or a few lines long are inlined into their
# callers (numba's inline="always"): numba types them in place instead of
# compiling, optimising and emitting machine code for each as a kernel of its
# own, once per argument type.


@njit(cache=True, inline="always")
def _node_ok(cells, m, cell_line):  # type: ignore[no-untyped-def]
    """One cell, or cells of one box inside one row or one column (a group)."""
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


@njit(cache=True)
def strong_links(alive, size, n, units, ukind, cell_line, see, out_cells):  # type: ignore[no-untyped-def]
    """The best strong-linked fish of exactly ``n`` links (SE's ``StrongLinks(n)``).

    Returns ``(tenths, eliminations, digit)``, the removals' cells in
    ``out_cells[:eliminations]``; ``(0, 0, -1)`` when there is none. Best:
    the lowest value, then the most eliminations, as SE sorts them.
    """
    ncells = see.shape[0]
    nunits = units.shape[0]
    width = units.shape[1]
    maxl = 1024
    la = np.empty((maxl, _W), dtype=np.int32)
    lan = np.empty(maxl, dtype=np.int32)
    lb = np.empty((maxl, _W), dtype=np.int32)
    lbn = np.empty(maxl, dtype=np.int32)
    lu = np.empty(maxl, dtype=np.int32)
    pos = np.empty(width, dtype=np.int32)
    tmp_a = np.empty(_W, dtype=np.int32)
    tmp_b = np.empty(_W, dtype=np.int32)
    used = np.zeros(ncells, dtype=np.int32)
    path = np.empty(n, dtype=np.int32)
    it = np.empty(n, dtype=np.int32)
    elim = np.empty(ncells, dtype=np.int32)
    best_t = 1 << 30
    best_e = 0
    best_d = -1
    for d in range(size):
        nl = 0
        for u in range(nunits):
            m = 0
            for s in range(width):
                c = units[u, s]
                if c >= 0 and alive[c * size + d]:
                    pos[m] = c
                    m += 1
            if m < 2 or m > _W:
                continue
            for mask in range(1, (1 << m) - 1):
                na = 0
                nb = 0
                for s in range(m):
                    if (mask >> s) & 1:
                        tmp_a[na] = pos[s]
                        na += 1
                    else:
                        tmp_b[nb] = pos[s]
                        nb += 1
                if not _node_ok(tmp_a, na, cell_line) or not _node_ok(tmp_b, nb, cell_line):
                    continue
                if nl >= maxl:
                    break
                for s in range(na):
                    la[nl, s] = tmp_a[s]
                for s in range(nb):
                    lb[nl, s] = tmp_b[s]
                lan[nl] = na
                lbn[nl] = nb
                lu[nl] = u
                nl += 1
        if nl == 0:
            continue
        # weak[i, j]: link i's far end sees all of link j's near end (no shared cell)
        weak = np.zeros((nl, nl), dtype=np.int8)
        for i in range(nl):
            for j in range(nl):
                if lu[i] == lu[j]:
                    continue
                ok = True
                for s in range(lbn[i]):
                    for t in range(lan[j]):
                        x = lb[i, s]
                        y = la[j, t]
                        if x == y or not see[x, y]:
                            ok = False
                            break
                    if not ok:
                        break
                if ok:
                    weak[i, j] = 1
        # depth-first over chains of n links with pairwise distinct cells
        depth = 0
        it[0] = 0
        while depth >= 0:
            if it[depth] >= nl:
                depth -= 1
                if depth >= 0:
                    j = path[depth]
                    for s in range(lan[j]):
                        used[la[j, s]] -= 1
                    for s in range(lbn[j]):
                        used[lb[j, s]] -= 1
                    it[depth] += 1
                continue
            j = it[depth]
            ok = depth == 0 or weak[path[depth - 1], j] == 1
            if ok:
                for s in range(lan[j]):
                    if used[la[j, s]]:
                        ok = False
                for s in range(lbn[j]):
                    if used[lb[j, s]]:
                        ok = False
            if not ok:
                it[depth] += 1
                continue
            path[depth] = j
            for s in range(lan[j]):
                used[la[j, s]] += 1
            for s in range(lbn[j]):
                used[lb[j, s]] += 1
            if depth + 1 < n:
                depth += 1
                it[depth] = 0
                continue
            # a whole chain: what sees both free ends goes
            first = path[0]
            last = path[n - 1]
            ne = 0
            for c in range(ncells):
                if used[c] or not alive[c * size + d]:
                    continue
                good = True
                for s in range(lan[first]):
                    if not see[c, la[first, s]]:
                        good = False
                for s in range(lbn[last]):
                    if not see[c, lb[last, s]]:
                        good = False
                if good:
                    elim[ne] = c
                    ne += 1
            if ne > 0:
                grouped = False
                has_box = False
                has_row = False
                has_col = False
                other = False
                for q in range(n):
                    L = path[q]
                    if lan[L] > 1 or lbn[L] > 1:
                        grouped = True
                    k = ukind[lu[L]]
                    if k == 0:
                        has_box = True
                    elif k == 1:
                        has_row = True
                    elif k == 2:
                        has_col = True
                    else:
                        other = True
                adj = 1
                if grouped or other:
                    adj = 3
                elif has_box and has_row and has_col:
                    adj = 2
                elif not has_box and not (has_row and has_col):
                    adj = 0
                tenths = SL_BASE[n] + adj
                if tenths < best_t or (tenths == best_t and ne > best_e):
                    best_t = tenths
                    best_e = ne
                    best_d = d
                    for s in range(ne):
                        out_cells[s] = elim[s]
            for s in range(lan[j]):
                used[la[j, s]] -= 1
            for s in range(lbn[j]):
                used[lb[j, s]] -= 1
            it[depth] += 1
    if best_d < 0:
        return 0, 0, -1
    return best_t, best_e, best_d


@njit(cache=True, inline="always")
def _wing_value(k, bigcard, ncard2):  # type: ignore[no-untyped-def]
    """SE's value (tenths) of an ALS wing of k set cells, -1 where SE has none."""
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


@njit(cache=True)
def als_wings(masks, values, k, see, out_cells, out_masks):  # type: ignore[no-untyped-def]
    """The best ALS wing with a set of ``k`` cells (see the module doc).

    ``masks`` are the cells' candidate bits, ``values`` 0 for empty cells.
    Where both digits of the bivalue cell are restricted (SE's "doubly
    linked" wing) each other digit of the set also goes from the cells seeing
    all its places in the set. Returns ``(tenths, candidates removed, cells)``
    with the cells in ``out_cells[:cells]`` and the digits removed from each
    as bits in ``out_masks``; ``(0, 0, 0)`` when there is none. Best: the
    lowest value, then the most removals.
    """
    ncells = masks.shape[0]
    cells = np.empty(ncells, dtype=np.int32)
    ncell = 0
    for c in range(ncells):
        if values[c] == 0 and popcount(masks[c]) >= 2:
            cells[ncell] = c
            ncell += 1
    biv = np.empty(ncells, dtype=np.int32)
    nbiv = 0
    for i in range(ncell):
        if popcount(masks[cells[i]]) == 2:
            biv[nbiv] = cells[i]
            nbiv += 1
    pick = np.empty(k, dtype=np.int32)
    it = np.empty(k, dtype=np.int32)
    union = np.zeros(k + 1, dtype=np.int64)
    elim_c = np.empty(ncells, dtype=np.int32)
    elim_m = np.empty(ncells, dtype=np.int64)
    best_t = 1 << 30
    best_e = 0
    best_d = 0
    depth = 0
    it[0] = 0
    while depth >= 0:
        if it[depth] >= ncell:
            depth -= 1
            if depth >= 0:
                it[depth] += 1
            continue
        c = cells[it[depth]]
        u = union[depth] | masks[c]
        ok = popcount(u) <= k + 1
        if ok:
            for q in range(depth):
                if not see[c, pick[q]]:
                    ok = False
                    break
        if not ok:
            it[depth] += 1
            continue
        pick[depth] = c
        union[depth + 1] = u
        if depth + 1 < k:
            depth += 1
            it[depth] = it[depth - 1] + 1
            continue
        it[depth] += 1
        if popcount(u) != k + 1:
            continue
        bigcard = 0
        ncard2 = 0
        for q in range(k):
            pc = popcount(masks[pick[q]])
            bigcard = max(bigcard, pc)
            if pc == 2:
                ncard2 += 1
        value = _wing_value(k, bigcard, ncard2)
        if value < 0 or value > best_t:
            continue
        for b in range(nbiv):
            y = biv[b]
            my = masks[y]
            if (my & u) != my:
                continue
            if contains(pick, k, y):
                continue
            # x: a digit every set cell holding it sees y for (restricted); z the other
            lo = my & -my
            hi = my ^ lo
            rx_lo = _restricted(masks, pick, k, see, y, lo)
            rx_hi = _restricted(masks, pick, k, see, y, hi)
            if not (rx_lo or rx_hi):
                continue
            ne = 0
            for e in range(ncells):
                if values[e] != 0 or e == y:
                    continue
                if contains(pick, k, e):
                    continue
                removed = np.int64(0)
                for dbit in (lo, hi):
                    # z: the other digit of y goes where it sees y and the set's z cells
                    x_ok = rx_lo if dbit == hi else rx_hi
                    if (
                        x_ok
                        and (masks[e] & dbit)
                        and see[e, y]
                        and _sees_all(masks, pick, k, see, e, dbit)
                    ):
                        removed |= dbit
                if rx_lo and rx_hi:
                    # doubly linked: every other digit of the set is locked in it
                    w = u & ~my
                    while w:
                        wbit = w & -w
                        w ^= wbit
                        if (masks[e] & wbit) and _sees_all(masks, pick, k, see, e, wbit):
                            removed |= wbit
                if removed:
                    elim_c[ne] = e
                    elim_m[ne] = removed
                    ne += 1
            total = 0
            for s in range(ne):
                total += popcount(elim_m[s])
            if total > 0 and (value < best_t or total > best_e):
                best_t = value
                best_e = total
                best_d = ne
                for s in range(ne):
                    out_cells[s] = elim_c[s]
                    out_masks[s] = elim_m[s]
    if best_e == 0:
        return 0, 0, 0
    return best_t, best_e, best_d


@njit(cache=True, inline="always")
def _restricted(masks, pick, k, see, y, bit):  # type: ignore[no-untyped-def]
    """True when some set cell holds ``bit`` and every one that does sees cell ``y``."""
    has = False
    for q in range(k):
        if masks[pick[q]] & bit:
            has = True
            if not see[pick[q], y]:
                return False
    return has


@njit(cache=True, inline="always")
def _sees_all(masks, pick, k, see, e, bit):  # type: ignore[no-untyped-def]
    """True when cell ``e`` sees every set cell holding ``bit``."""
    ok = True
    for q in range(k):
        ok = ok and (not (masks[pick[q]] & bit) or see[e, pick[q]] == 1)
    return ok


@njit(cache=True)
def unique_rectangles(masks, values, cell_line, units, ukind, out):  # type: ignore[no-untyped-def]
    """A unique rectangle of type 1, 2 or 4 (SE's 4.5); returns how many
    ``(cell, digit)`` removals it writes to ``out`` (0 for none).

    The rectangle's four empty cells lie in two rows, two columns and two
    boxes and all hold digits a and b. Type 1: three corners hold only a and
    b, so the fourth loses them. Type 2: two corners in a line hold only a
    and b and the other two a, b and the same c, so c goes from the cells
    seeing both. Type 4: two corners hold only a and b; in a unit holding
    the other two, a has no other place, so b goes from both.
    """
    ncells = masks.shape[0]
    nunits = units.shape[0]
    width = units.shape[1]
    for r1 in range(nunits):
        if ukind[r1] != 1:
            continue
        for r2 in range(r1 + 1, nunits):
            if ukind[r2] != 1:
                continue
            for i1 in range(width):
                for i2 in range(i1 + 1, width):
                    c0 = units[r1, i1]
                    c1 = units[r1, i2]
                    c2 = units[r2, i1]
                    c3 = units[r2, i2]
                    corners = (c0, c1, c2, c3)
                    if values[c0] or values[c1] or values[c2] or values[c3]:
                        continue
                    b0 = cell_line[c0, 2]
                    other = -1
                    boxes_ok = b0 >= 0
                    for c in corners:
                        bc = cell_line[c, 2]
                        if bc != b0:
                            if other < 0:
                                other = bc
                            elif bc != other:
                                boxes_ok = False
                    if not boxes_ok or other < 0:
                        continue
                    common = masks[c0] & masks[c1] & masks[c2] & masks[c3]
                    if popcount(common) < 2:
                        continue
                    for a in range(64):
                        if not (common >> a) & 1:
                            continue
                        for b in range(a + 1, 64):
                            if not (common >> b) & 1:
                                continue
                            ab = (np.int64(1) << a) | (np.int64(1) << b)
                            nexact = 0
                            for c in corners:
                                if masks[c] == ab:
                                    nexact += 1
                            if nexact == 3:
                                for c in corners:
                                    if masks[c] != ab:
                                        out[0, 0] = c
                                        out[0, 1] = a
                                        out[1, 0] = c
                                        out[1, 1] = b
                                        return 2
                            if nexact != 2:
                                continue
                            # the two extra corners (the roof) and the pair of exact ones
                            roof0 = -1
                            roof1 = -1
                            for c in corners:
                                if masks[c] != ab:
                                    if roof0 < 0:
                                        roof0 = c
                                    else:
                                        roof1 = c
                            if not (
                                cell_line[roof0, 0] == cell_line[roof1, 0]
                                or cell_line[roof0, 1] == cell_line[roof1, 1]
                            ):
                                continue
                            extra0 = masks[roof0] & ~ab
                            extra1 = masks[roof1] & ~ab
                            n = 0
                            if extra0 == extra1 and popcount(extra0) == 1:
                                for e in range(ncells):
                                    if (
                                        e != roof0
                                        and e != roof1
                                        and values[e] == 0
                                        and (masks[e] & extra0)
                                        and _sees(cell_line, e, roof0)
                                        and _sees(cell_line, e, roof1)
                                    ):
                                        out[n, 0] = e
                                        dz = 0
                                        while not ((extra0 >> dz) & 1):
                                            dz += 1
                                        out[n, 1] = dz
                                        n += 1
                                if n > 0:
                                    return n
                            # type 4: a unit holding both roof cells where a (or b) lives only there
                            for u in range(nunits):
                                inr0 = False
                                inr1 = False
                                for s in range(width):
                                    if units[u, s] == roof0:
                                        inr0 = True
                                    if units[u, s] == roof1:
                                        inr1 = True
                                if not (inr0 and inr1):
                                    continue
                                for lock in range(2):
                                    dl = a if lock == 0 else b
                                    dg = b if lock == 0 else a
                                    only = True
                                    for s in range(width):
                                        x = units[u, s]
                                        if (
                                            x != roof0
                                            and x != roof1
                                            and values[x] == 0
                                            and (masks[x] >> dl) & 1
                                        ):
                                            only = False
                                    if only:
                                        out[0, 0] = roof0
                                        out[0, 1] = dg
                                        out[1, 0] = roof1
                                        out[1, 1] = dg
                                        return 2
    return 0


@njit(cache=True, inline="always")
def _sees(cell_line, a, b):  # type: ignore[no-untyped-def]
    """True when cells ``a`` and ``b`` share a row, column or box."""
    shared = False
    for t in range(3):
        shared = shared or (cell_line[a, t] >= 0 and cell_line[a, t] == cell_line[b, t])
    return shared


# --------------------------------------------------------------------------- SE's basic techniques

# The four techniques are inlined into basic_hint (called from there only;
# see the module's note on inline="always").

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


@njit(cache=True)
def _next_comb(v):  # type: ignore[no-untyped-def]
    """The next larger integer with as many set bits (Gosper's hack): SE's
    ``Permutations`` order over subsets."""
    smallest = v & -v
    ripple = v + smallest
    ones = v ^ ripple
    ones = (ones >> 2) // smallest
    return ripple | ones


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
def _positions(masks, values, units, u, d):  # type: ignore[no-untyped-def]
    """Bits (by place in unit ``u``) of the empty cells holding digit ``d``."""
    bits = np.int64(0)
    for s in range(units.shape[1]):
        c = units[u, s]
        if c >= 0 and values[c] == 0 and (masks[c] >> d) & 1:
            bits |= np.int64(1) << s
    return bits


@njit(cache=True)
def _empty_count(values, units, u):  # type: ignore[no-untyped-def]
    n = 0
    for s in range(units.shape[1]):
        c = units[u, s]
        if c >= 0 and values[c] == 0:
            n += 1
    return n


@njit(cache=True)
def _crosses(units, u1, u2):  # type: ignore[no-untyped-def]
    for s in range(units.shape[1]):
        for t in range(units.shape[1]):
            if units[u1, s] >= 0 and units[u1, s] == units[u2, t]:
                return True
    return False


@njit(cache=True)
def _in_unit(units, u, c):  # type: ignore[no-untyped-def]
    found = False
    for s in range(units.shape[1]):
        found = found or units[u, s] == c
    return found


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
def _locking(masks, values, units, ukind, direct, out):  # type: ignore[no-untyped-def]
    width = units.shape[1]
    size = width
    passes = ((0, 2), (0, 1), (2, 0), (1, 0))  # box-column, box-row, column-box, row-box
    for pi in range(4):
        k1 = passes[pi][0]
        k2 = passes[pi][1]
        r1s = _scan_order(ukind, _SCAN_KINDS[1 + k1])
        r2s = _scan_order(ukind, _SCAN_KINDS[1 + k2])
        for d in range(size):
            for u1 in r1s:
                pos1 = _positions(masks, values, units, u1, d)
                if popcount(pos1) < 2:
                    continue
                for u2 in r2s:
                    if not _crosses(units, u1, u2):
                        continue
                    inside = True
                    for s in range(width):
                        if (pos1 >> s) & 1 and not _in_unit(units, u2, units[u1, s]):
                            inside = False
                    if not inside:
                        continue
                    # the digit goes from unit 2 outside unit 1
                    ne = np.int64(0)
                    for t in range(width):
                        c = units[u2, t]
                        if (
                            c >= 0
                            and values[c] == 0
                            and (masks[c] >> d) & 1
                            and not _in_unit(units, u1, c)
                        ):
                            out[ne, 0] = c
                            out[ne, 1] = d
                            ne += 1
                    if not direct:
                        if ne > 0:
                            return ne, -1, -1, k1
                        continue
                    for u3 in r1s:
                        if u3 == u1 or not _crosses(units, u3, u2):
                            continue
                        pos3 = _positions(masks, values, units, u3, d)
                        if popcount(pos3) <= 1:
                            continue
                        left = 0
                        hcell = -1
                        for s in range(width):
                            if (pos3 >> s) & 1 and not _in_unit(units, u2, units[u3, s]):
                                left += 1
                                hcell = units[u3, s]
                        if left == 1:
                            return ne, hcell, d, k1
    return -1, -1, -1, -1


@njit(cache=True, inline="always")
def _naked(masks, values, units, ukind, n, out):  # type: ignore[no-untyped-def]
    width = units.shape[1]
    for u in _scan_order(ukind, _SCAN_KINDS[0]):
        if _empty_count(values, units, u) < 2 * n:
            continue
        comb = (np.int64(1) << n) - 1
        while comb < (np.int64(1) << width):
            union = np.int64(0)
            ok = True
            for s in range(width):
                if (comb >> s) & 1:
                    c = units[u, s]
                    if c < 0 or values[c] != 0 or popcount(masks[c]) <= 1:
                        ok = False
                        break
                    union |= masks[c]
            if ok and popcount(union) == n:
                ne = np.int64(0)  # not a literal: _emit compiles once
                for s in range(width):
                    c = units[u, s]
                    if (comb >> s) & 1 or c < 0 or values[c] != 0:
                        continue
                    ne = _emit(out, ne, c, masks[c] & union)
                if ne > 0:
                    return ne, -1, -1, 0
            comb = _next_comb(comb)
    return -1, -1, -1, -1


@njit(cache=True, inline="always")
def _hidden(masks, values, units, ukind, n, direct, out):  # type: ignore[no-untyped-def]
    width = units.shape[1]
    size = width
    for u in _scan_order(ukind, _SCAN_KINDS[0]):
        empty = _empty_count(values, units, u)
        if not (empty > 2 * n or (direct and empty > n)):
            continue
        comb = (np.int64(1) << n) - 1
        while comb < (np.int64(1) << size):
            union = np.int64(0)
            ok = True
            for d in range(size):
                if (comb >> d) & 1:
                    pos = _positions(masks, values, units, u, d)
                    if popcount(pos) <= 1:
                        ok = False
                        break
                    union |= pos
            if ok and popcount(union) == n:
                ne = np.int64(0)  # not a literal: _emit compiles once
                for s in range(width):
                    if (union >> s) & 1:
                        c = units[u, s]
                        ne = _emit(out, ne, c, masks[c] & ~comb)
                if direct:
                    for d in range(size):
                        if (comb >> d) & 1:
                            continue
                        pos = _positions(masks, values, units, u, d)
                        if popcount(pos) > 1 and popcount(pos & ~union) == 1:
                            rest = pos & ~union
                            s = 0
                            while not (rest >> s) & 1:
                                s += 1
                            return ne, units[u, s], d, 0
                elif ne > 0:
                    return ne, -1, -1, 0
            comb = _next_comb(comb)
    return -1, -1, -1, -1


@njit(cache=True, inline="always")
def _fish(masks, values, units, ukind, n, out):  # type: ignore[no-untyped-def]
    width = units.shape[1]
    size = width
    ncells = masks.shape[0]
    placed = np.zeros(size, dtype=np.int32)
    for c in range(ncells):
        if values[c] > 0:
            placed[values[c] - 1] += 1
    for pi in range(2):
        base = _scan_order(ukind, _SCAN_KINDS[3 - pi])
        cover = _scan_order(ukind, _SCAN_KINDS[2 + pi])
        nb = base.shape[0]
        comb = (np.int64(1) << n) - 1
        while comb < (np.int64(1) << nb):
            for d in range(size):
                if placed[d] + 2 * n > size:
                    continue
                union = np.int64(0)
                ok = True
                for i in range(nb):
                    if (comb >> i) & 1:
                        pos = _positions(masks, values, units, base[i], d)
                        if popcount(pos) <= 1:
                            ok = False
                            break
                        union |= pos
                if not ok or popcount(union) != n:
                    continue
                # the digit goes from the cover lines outside the base lines
                ne = np.int64(0)  # not a literal: _emit compiles once
                for j in range(cover.shape[0]):
                    if not (union >> j) & 1:
                        continue
                    for s in range(width):
                        c = units[cover[j], s]
                        if c < 0 or values[c] != 0 or not (masks[c] >> d) & 1:
                            continue
                        inbase = False
                        for i in range(nb):
                            inbase = inbase or ((comb >> i) & 1 and _in_unit(units, base[i], c))
                        if not inbase:
                            ne = _emit(out, ne, c, np.int64(1) << d)
                if ne > 0:
                    return ne, -1, -1, 0
            comb = _next_comb(comb)
    return -1, -1, -1, -1


@njit(cache=True)
def basic_hint(masks, values, units, ukind, technique, n, direct, out):  # type: ignore[no-untyped-def]
    """The first hint of one of SE's basic techniques, in SE's scan order.

    ``technique``: :data:`LOCKING` (pointing, then claiming; ``direct``: only
    those whose eliminations leave a hidden single in another unit of the
    first unit's kind), :data:`NAKED` or :data:`HIDDEN` sets of ``n`` (SE
    looks in units with at least 2n empty cells for naked sets, more than 2n
    for hidden ones, more than n for direct hidden ones, whose eliminations
    leave a hidden single in the unit) and :data:`FISH` of ``n`` lines (only
    for digits placed at most N - 2n times). Units are scanned boxes,
    columns, rows; sets of cells, digits or lines in SE's order (by bit
    pattern). Returns ``(removals, cell, digit, kind)``: the removals
    ``(cell, digit)`` in ``out[:removals]``, the placement of a direct hint
    (-1 otherwise) and for locking the first unit's kind (0 box: pointing);
    ``removals`` is -1 when there is no hint. Digits are 0-based.
    """
    if technique == LOCKING:
        return _locking(masks, values, units, ukind, direct, out)
    if technique == NAKED:
        return _naked(masks, values, units, ukind, n, out)
    if technique == HIDDEN:
        return _hidden(masks, values, units, ukind, n, direct, out)
    return _fish(masks, values, units, ukind, n, out)
