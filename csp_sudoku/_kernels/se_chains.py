"""Compiled kernels of Sudoku Explainer's chain families (numba).

Sudoku Explainer (SE, Nicolas Juillerat's solver and its SukakuExplainer
descendant, whose batch rater produced the reference ratings) rates a chain
by its *family* and its *complexity*. The families differ in what one
implication may use:

* **static** (binary) chains: every implication has one parent and uses the
  pencil marks as they were before the chain began. "ON p" turns OFF the
  other candidates of p's cell (a *Y* link) and p's digit in p's units (an
  *X* link); "OFF p" turns ON the other candidate of a cell left with two (Y)
  or the other place of a digit in a unit left with two (X). Forcing X-chains
  use X links only, forcing chains both; multiple (cell and region) forcing
  chains combine several static chains;
* **dynamic** chains: the same two rules, but every candidate turned OFF is
  removed from the grid for the rest of the chain, so a cell or unit reduced
  to two *by the chain itself* gives a strong link too. Such an implication
  has the earlier OFF literals that reduced the cell or unit as extra
  ("hidden") parents. Nishio chains are dynamic chains on one digit (X links
  only).

A chain's complexity is the number of distinct literals (candidate, ON or
OFF) among the ancestors of its end points, the end points included. SE
searches its literals in a fixed order: ON literals are processed before OFF
literals and each literal keeps the parent that reached it first; these
kernels follow that order so that the complexities are SE's.

Literals: ``k`` for "candidate k ON", ``ncand + k`` for "candidate k OFF".
Candidates and columns are those of the exact-cover matrix (Hunt, Pong,
Tucker, *Difficulty-Driven Sudoku Puzzle Generation*, section 2): a column
with index below ``ncellcols`` is a cell, the others are unit-digit columns.
``corder[k]`` lists the columns of candidate ``k`` in SE's order (its cell,
then box, row, column), -1 padded.

Nothing imports this module at package import time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels.strategies import popcount

# The small helpers here are inlined into their callers (numba's
# inline="always"): numba types them in place instead of compiling each as a
# kernel of its own, once per argument type (literal 0 and 1, int32 and int64
# arguments made two to four compiles of some of them).


@njit(cache=True, inline="always")
def length_steps(complexity):  # type: ignore[no-untyped-def]
    """SE's length bonus of a chain, in tenths: one more each time the length
    (complexity - 2) passes a ceiling of 4, 6, 8, 12, 16, 24, 32, ... (the
    ceilings grow by 3/2 and 4/3 in turn)."""
    added = 0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added


@njit(cache=True)
def _counts(alive, cc):  # type: ignore[no-untyped-def]
    ncols = cc.shape[0]
    width = cc.shape[1]
    cnt = np.zeros(ncols, dtype=np.int32)
    for c in range(ncols):
        for s in range(width):
            j = cc[c, s]
            if j >= 0 and alive[j]:
                cnt[c] += 1
    return cnt


@njit(cache=True, inline="always")
def _other(alive, cc, c, p):  # type: ignore[no-untyped-def]
    """The live candidate of column ``c`` other than ``p`` (-1 if none)."""
    for s in range(cc.shape[1]):
        j = cc[c, s]
        if j >= 0 and j != p and alive[j]:
            return j
    return -1


@njit(cache=True, inline="always")
def listed(items, n, x):  # type: ignore[no-untyped-def]
    """True when ``x`` is among ``items[:n]``."""
    found = False
    for m in range(n):
        found = found or items[m] == x
    return found


@njit(cache=True)
def _on_to_off(grid, cc, corder, ncellcols, yrule, p, out):  # type: ignore[no-untyped-def]
    """SE's rule for "p ON" (``getOnToOff``): the candidates it turns OFF, in
    SE's order, each once: p's digit in its units (X) and, with ``yrule``, the
    other candidates of its cell (Y). Returns how many, written to ``out``."""
    n = 0
    for t in range(corder.shape[1]):
        c = corder[p, t]
        if c < 0:
            break
        if c < ncellcols and not yrule:
            continue
        for s in range(cc.shape[1]):
            q = cc[c, s]
            if q < 0 or q == p or not grid[q]:
                continue
            if not listed(out, n, q):
                out[n] = q
                n += 1
    return n


@njit(cache=True, inline="always")
def _off_to_on(grid, cc, corder, ncellcols, cnt, xrule, yrule, p, out, out_col):  # type: ignore[no-untyped-def]
    """SE's rule for "p OFF" (``getOffToOn``): the candidates it turns ON, each
    once, with the column that forces each: the other candidate of a cell
    (``yrule``) or unit-digit (``xrule``) holding two (``cnt``). Returns how
    many, written to ``out`` and ``out_col``."""
    n = 0
    for t in range(corder.shape[1]):
        c = corder[p, t]
        if c < 0:
            break
        is_cell = c < ncellcols
        if (is_cell and not yrule) or (not is_cell and not xrule) or cnt[c] != 2:
            continue
        q = _other(grid, cc, c, p)
        if q < 0:
            continue
        if not listed(out, n, q):
            out[n] = q
            out_col[n] = c
            n += 1
    return n


@njit(cache=True)
def _static_bfs(  # type: ignore[no-untyped-def]
    alive, cc, corder, ncellcols, xy, cnt, k, premise, seen, depth, parent, lay_on, lay_off, stamp
):
    """One of SE's static forcing-chain searches: from "k ON" (``premise`` 0)
    to "k OFF", or from "k OFF" (1) to "k ON"; breadth first by layers (all
    ON literals of a layer, then all OFF ones), as SE's ``doForcingChains``.

    Literal arrays (``seen``, ``depth``, ``parent``) are indexed ON k = k,
    OFF k = ncand + k; ``seen`` holds ``stamp`` for the literals reached.
    Returns ``(complexity, last)``: the chain's literal count and the literal
    before the target (its parent), or (-1, -1) when there is no chain.
    """
    ncand = alive.shape[0]
    n_on = 0
    n_off = 0
    if premise == 0:
        lay_on[0] = k
        n_on = 1
    else:
        lay_off[0] = k
        n_off = 1
    lit0 = k + premise * ncand
    seen[lit0] = stamp
    depth[lit0] = 0
    parent[lit0] = -1
    targets = np.empty(cc.shape[1] * corder.shape[1], dtype=np.int32)
    cols = np.empty(corder.shape[1], dtype=np.int32)
    while n_on > 0 or n_off > 0:
        for a in range(n_on):
            p = lay_on[a]
            for m in range(_on_to_off(alive, cc, corder, ncellcols, xy, p, targets)):
                q = targets[m]
                if premise == 0 and q == k:
                    return depth[p] + 2, p
                if seen[ncand + q] != stamp:
                    seen[ncand + q] = stamp
                    depth[ncand + q] = depth[p] + 1
                    parent[ncand + q] = p
                    lay_off[n_off] = q
                    n_off += 1
        n_on = 0
        for a in range(n_off):
            p = lay_off[a]
            for m in range(
                _off_to_on(alive, cc, corder, ncellcols, cnt, True, xy, p, targets, cols)
            ):
                q = targets[m]
                if premise == 1 and q == k:
                    return depth[ncand + p] + 2, ncand + p
                if seen[q] != stamp:
                    seen[q] = stamp
                    depth[q] = depth[ncand + p] + 1
                    parent[q] = ncand + p
                    lay_on[n_on] = q
                    n_on += 1
        n_off = 0
    return -1, -1


@njit(cache=True)
def _bfs_scratch(ncand):  # type: ignore[no-untyped-def]
    """Literal arrays (seen, depth, parent) and two layers for :func:`_static_bfs`."""
    lits = 2 * ncand
    return (
        np.zeros(lits, dtype=np.int32),
        np.zeros(lits, dtype=np.int32),
        np.zeros(lits, dtype=np.int32),
        np.empty(ncand, dtype=np.int32),
        np.empty(ncand, dtype=np.int32),
    )


@njit(cache=True)
def static_forcing(alive, cc, corder, ncellcols, xy, out_elim, out_place):  # type: ignore[no-untyped-def]
    """SE's forcing chains (X-chains, or with ``xy`` X and Y links) from every live candidate.

    For candidate ``k``, ``out_elim[k]`` is the complexity of the chain from
    "k ON" to "k OFF" (k can be removed) and ``out_place[k]`` of the chain from
    "k OFF" to "k ON" (k can be placed), -1 where there is none. The search is
    breadth first by layers (:func:`_static_bfs`), so each chain is a
    shortest one.
    """
    ncand = alive.shape[0]
    cnt = _counts(alive, cc)
    seen, depth, parent, lay_on, lay_off = _bfs_scratch(ncand)
    stamp = 0
    for k in range(ncand):
        out_elim[k] = -1
        out_place[k] = -1
        if not alive[k]:
            continue
        for premise in range(2):
            stamp += 1
            comp, _last = _static_bfs(
                alive,
                cc,
                corder,
                ncellcols,
                xy,
                cnt,
                k,
                premise,
                seen,
                depth,
                parent,
                lay_on,
                lay_off,
                stamp,
            )
            if premise == 0:
                out_elim[k] = comp
            else:
                out_place[k] = comp
    return 0


@njit(cache=True)
def static_path(alive, cc, corder, ncellcols, xy, k, premise, out):  # type: ignore[no-untyped-def]
    """The literals of the static forcing chain of :func:`static_forcing` for
    candidate ``k`` and ``premise`` (0 ON, 1 OFF), premise first, target last,
    in ``out``; returns how many (0 when there is no chain)."""
    ncand = alive.shape[0]
    cnt = _counts(alive, cc)
    seen, depth, parent, lay_on, lay_off = _bfs_scratch(ncand)
    # np.int64(1), not a literal: _static_bfs compiles once
    comp, last = _static_bfs(
        alive, cc, corder, ncellcols, xy, cnt, k, premise, seen, depth, parent, lay_on, lay_off,
        np.int64(1),
    )  # fmt: skip
    if comp < 0:
        return 0
    out[comp - 1] = k + (1 - premise) * ncand
    lit = last
    i = comp - 2
    while lit >= 0:
        out[i] = lit
        lit = parent[lit]
        i -= 1
    return comp


@njit(cache=True, inline="always")
def _union_count(bits, row, src, nw):  # type: ignore[no-untyped-def]
    for w in range(nw):
        bits[row, w] |= bits[src, w]


@njit(cache=True, inline="always")
def _count_row(bits, row, nw):  # type: ignore[no-untyped-def]
    total = 0
    for w in range(nw):
        total += popcount(bits[row, w])
    return total


@njit(cache=True, inline="always")
def _set_bit(bits, row, lit):  # type: ignore[no-untyped-def]
    bits[row, lit >> 6] |= np.int64(1) << np.int64(lit & 63)


@njit(cache=True)
def propagate_many(alive, cc, corder, ncellcols, premises, dynamic, yrule, out_anc, out_absurd):  # type: ignore[no-untyped-def]
    """SE's chaining (``Chaining.doChaining``) from each premise literal.

    For premise ``i`` (a literal), ``out_anc[i, lit]`` is the ancestor count of
    every literal reached (0 where not reached; the premise counts 1), and
    ``out_absurd[i]`` the complexity of the contradiction found (the ancestor
    counts of a literal reached both ON and OFF, added), -1 when the
    propagation ended without one. The propagation stops at the first
    contradiction, as SE's does, so the sets are then partial.

    ``dynamic`` removes each OFF literal from the grid when it is processed
    (SE's dynamic chains; the extra parents are the earlier removals from the
    cell or unit), otherwise the grid stays as it was (static chains).
    ``yrule`` False leaves out the cell links (Nishio chains).
    """
    ncand = alive.shape[0]
    nlit = 2 * ncand
    nw = (nlit + 63) // 64
    width = cc.shape[1]
    kk = corder.shape[1]
    cnt0 = _counts(alive, cc)
    maxrec = nlit + 2
    bits = np.zeros((maxrec, nw), dtype=np.int64)
    rec_lit = np.empty(maxrec, dtype=np.int32)
    lit_rec = np.full(nlit, -1, dtype=np.int32)
    q_on = np.empty(ncand + 1, dtype=np.int32)
    q_off = np.empty(ncand + 1, dtype=np.int32)
    make_on = np.empty(kk, dtype=np.int32)
    make_col = np.empty(kk, dtype=np.int32)
    targets = np.empty(width * kk, dtype=np.int32)
    scratch = maxrec - 1
    for i in range(premises.shape[0]):
        grid = alive.copy()
        cnt = cnt0.copy()
        h_on = t_on = h_off = t_off = 0
        absurd = -1
        lit0 = premises[i]
        for w in range(nw):
            bits[0, w] = 0
        _set_bit(bits, 0, lit0)
        rec_lit[0] = lit0
        lit_rec[lit0] = 0
        nrec = 1
        if lit0 < ncand:
            q_on[t_on] = 0
            t_on += 1
        else:
            q_off[t_off] = 0
            t_off += 1
        while absurd < 0 and (h_on < t_on or h_off < t_off):
            if h_on < t_on:
                r = q_on[h_on]
                h_on += 1
                p = rec_lit[r]
                for m in range(_on_to_off(grid, cc, corder, ncellcols, yrule, p, targets)):
                    q = targets[m]
                    if lit_rec[q] >= 0:
                        # q is ON and now OFF: a contradiction
                        for w in range(nw):
                            bits[scratch, w] = bits[r, w]
                        _set_bit(bits, scratch, ncand + q)
                        absurd = _count_row(bits, lit_rec[q], nw) + _count_row(bits, scratch, nw)
                        break
                    if lit_rec[ncand + q] < 0:
                        n = nrec
                        nrec += 1
                        for w in range(nw):
                            bits[n, w] = bits[r, w]
                        _set_bit(bits, n, ncand + q)
                        rec_lit[n] = ncand + q
                        lit_rec[ncand + q] = n
                        q_off[t_off] = n
                        t_off += 1
            else:
                r = q_off[h_off]
                h_off += 1
                p = rec_lit[r] - ncand
                nmake = _off_to_on(
                    grid, cc, corder, ncellcols, cnt, True, yrule, p, make_on, make_col
                )
                # the hidden parents are read before p leaves the grid
                for m in range(nmake):
                    q = make_on[m]
                    c = make_col[m]
                    row = nrec if lit_rec[ncand + q] < 0 and lit_rec[q] < 0 else scratch
                    for w in range(nw):
                        bits[row, w] = bits[r, w]
                    for s in range(width):
                        y = cc[c, s]
                        if y >= 0 and y != q and y != p and alive[y] and not grid[y]:
                            _union_count(bits, row, lit_rec[ncand + y], nw)
                    _set_bit(bits, row, q)
                    if lit_rec[ncand + q] >= 0:
                        absurd = _count_row(bits, row, nw) + _count_row(
                            bits, lit_rec[ncand + q], nw
                        )
                        break
                    if lit_rec[q] < 0:
                        rec_lit[row] = q
                        lit_rec[q] = row
                        nrec += 1
                        q_on[t_on] = row
                        t_on += 1
                if dynamic:
                    grid[p] = 0
                    for t in range(kk):
                        c = corder[p, t]
                        if c < 0:
                            break
                        cnt[c] -= 1
        out_absurd[i] = absurd
        for lit in range(nlit):
            out_anc[i, lit] = 0
        for n in range(nrec):
            out_anc[i, rec_lit[n]] = _count_row(bits, n, nw)
            lit_rec[rec_lit[n]] = -1
    return 0


@njit(cache=True, inline="always")
def _better(best, tenths, comp, key, pos):  # type: ignore[no-untyped-def]
    if best[0] < 0:
        return True
    if tenths != best[0]:
        return tenths < best[0]
    if comp != best[1]:
        return comp < best[1]
    if key != best[2]:
        return key < best[2]
    return pos < best[3]


@njit(cache=True)
def best_multiple(alive, cc, ncellcols, prem, anc, absurd, row_on, row_off, dynamic, base, best):  # type: ignore[no-untyped-def]
    """SE's easiest hint among the premises' propagations (``propagate_many``).

    Hints: a premise that contradicts (dynamic chains only: its candidate is
    removed, or placed for an OFF premise); a literal implied by both the ON
    and the OFF premise of a candidate of a cell with three or more (dynamic
    double forcing chains); a literal implied by every candidate of a cell
    (three or more for static chains) or every place of a digit in a unit
    (static chains: when the unit's first place is in a cell of three or
    more, where SE meets the unit). Each is worth ``base`` tenths plus SE's
    length bonus of its complexity (the sum of the branches' ancestor
    counts); SE applies the easiest, then the least complex, then by its
    kind (double 1, cell 5, region 6, contradiction 7).

    ``best`` receives ``(tenths, complexity, kind key, position, target
    literal)``; ``best[0]`` stays -1 when there is no hint.
    """
    ncand = alive.shape[0]
    nlit = 2 * ncand
    width = cc.shape[1]
    size = width
    best[0] = -1
    ks = np.empty(width, dtype=np.int32)
    if dynamic:
        for i in range(prem.shape[0]):
            if absurd[i] < 0:
                continue
            lit = prem[i]
            k = lit % ncand
            target = k + ncand if lit < ncand else k
            c = absurd[i]
            t = base + length_steps(c)
            pos = 2 * k + (1 if lit >= ncand else 0)
            if _better(best, t, c, 7, pos):
                best[0], best[1], best[2], best[3], best[4] = t, c, 7, pos, target
    for col in range(cc.shape[0]):
        nk = 0
        for s in range(width):
            k = cc[col, s]
            if k >= 0 and alive[k]:
                ks[nk] = k
                nk += 1
        if nk < 2:
            continue
        is_cell = col < ncellcols
        if is_cell and not dynamic and nk < 3:
            continue
        if not is_cell and not dynamic:
            first_cell = ks[0] // size
            card = 0
            for d in range(size):
                card += alive[first_cell * size + d]
            if card < 3:
                continue
        key = 5 if is_cell else 6
        for lit in range(nlit):
            total = 0
            for q in range(nk):
                a = anc[row_on[ks[q]], lit]
                if a == 0:
                    total = -1
                    break
                total += a
            if total <= 0:
                continue
            own = False
            for q in range(nk):
                own = own or lit == ks[q]
            if own:
                continue
            t = base + length_steps(total)
            if _better(best, t, total, key, 2 * ks[0] + 1):
                best[0], best[1], best[2], best[3], best[4] = t, total, key, 2 * ks[0] + 1, lit
        if dynamic and is_cell and nk >= 3:
            for q in range(nk):
                k = ks[q]
                r1 = row_on[k]
                r2 = row_off[k]
                for lit in range(nlit):
                    a = anc[r1, lit]
                    b = anc[r2, lit]
                    if a == 0 or b == 0:
                        continue
                    t = base + length_steps(a + b)
                    if _better(best, t, a + b, 1, 2 * k):
                        best[0], best[1], best[2], best[3], best[4] = t, a + b, 1, 2 * k, lit
    return 0


@njit(cache=True)
def _is_ancestor(rec_lit, rec_par, r, lit):  # type: ignore[no-untyped-def]
    """True when ``lit`` is a strict first-parent ancestor of record ``r``."""
    q = rec_par[r]
    while q >= 0:
        if rec_lit[q] == lit:
            return True
        q = rec_par[q]
    return False


@njit(cache=True)
def static_cycles(  # type: ignore[no-untyped-def]
    alive, cc, corder, ncellcols, xrule, yrule, see, size, out_cells, out_digits, best
):
    """SE's bidirectional cycles (``Chaining.doCycles``): X-cycles (``xrule``
    only), Y-cycles (``yrule`` only, from bivalue cells) and cycles of both.

    From each live candidate ON the search alternates layers: ON p turns OFF
    the digit's peers (and with ``yrule`` p's cell-mates), except a literal
    already among p's first-parent ancestors; OFF p turns ON the other
    candidate of a unit-digit (``xrule``) or cell (``yrule``) left with two;
    ON literals are kept once. A cycle is the premise reached ON again after
    at least two rounds. Its complexity is the number of distinct literals
    on it; it removes every candidate outside its cells that sees a cell
    where the cycle has the digit ON and one where it has it OFF.

    ``best`` receives ``(complexity, removals)`` of the least complex cycle
    that removes something (the first one met among equals), its removals in
    ``out_cells``/``out_digits``; ``best[0]`` stays -1 when there is none.
    """
    ncand = alive.shape[0]
    ncells = ncand // size
    width = cc.shape[1]
    kk = corder.shape[1]
    cnt = _counts(alive, cc)
    maxrec = 64 * ncand
    rec_lit = np.empty(maxrec, dtype=np.int32)
    rec_par = np.empty(maxrec, dtype=np.int32)
    on_seen = np.zeros(ncand, dtype=np.int32)
    q_on = np.empty(maxrec, dtype=np.int32)
    q_off = np.empty(maxrec, dtype=np.int32)
    in_cycle = np.zeros(ncells, dtype=np.int32)
    forw = np.zeros(ncand, dtype=np.int32)
    back = np.zeros(ncand, dtype=np.int32)
    targets = np.empty(width * kk, dtype=np.int32)
    cols = np.empty(kk, dtype=np.int32)
    best[0] = -1
    best[1] = 0
    stamp = 0
    mark = 0
    for k in range(ncand):
        if not alive[k]:
            continue
        if not xrule:
            card = 0
            for d in range(size):
                card += alive[(k // size) * size + d]
            if card != 2:
                continue
        stamp += 1
        nrec = 1
        rec_lit[0] = k
        rec_par[0] = -1
        on_seen[k] = stamp
        n_on = 1
        q_on[0] = 0
        n_off = 0
        length = 0
        full = False
        while (n_on > 0 or n_off > 0) and not full:
            length += 1
            for a in range(n_on):
                r = q_on[a]
                p = rec_lit[r]
                for m in range(_on_to_off(alive, cc, corder, ncellcols, yrule, p, targets)):
                    q = targets[m]
                    if _is_ancestor(rec_lit, rec_par, r, ncand + q):
                        continue
                    if nrec >= maxrec:
                        full = True
                        break
                    rec_lit[nrec] = ncand + q
                    rec_par[nrec] = r
                    q_off[n_off] = nrec
                    n_off += 1
                    nrec += 1
            n_on = 0
            length += 1
            for a in range(n_off):
                r = q_off[a]
                p = rec_lit[r] - ncand
                nmake = _off_to_on(
                    alive, cc, corder, ncellcols, cnt, xrule, yrule, p, targets, cols
                )
                for m in range(nmake):
                    q = targets[m]
                    if length >= 4 and q == k:
                        # a cycle: its literals are r's first-parent chain
                        comp = 1
                        x = r
                        while x > 0:
                            comp += 1
                            x = rec_par[x]
                        if best[0] >= 0 and comp >= best[0]:
                            continue
                        mark += 1
                        x = r
                        while x >= 0:
                            in_cycle[(rec_lit[x] % ncand) // size] = mark
                            x = rec_par[x]
                        # candidates outside the cycle seeing an ON and an OFF of their digit
                        x = r
                        while x >= 0:
                            lit = rec_lit[x]
                            cand = lit % ncand
                            cell = cand // size
                            d = cand % size
                            for e in range(ncells):
                                if (
                                    in_cycle[e] == mark
                                    or not see[e, cell]
                                    or not alive[e * size + d]
                                ):
                                    continue
                                if lit < ncand:
                                    forw[e * size + d] = mark
                                else:
                                    back[e * size + d] = mark
                            x = rec_par[x]
                        ne = 0
                        for e in range(ncand):
                            if forw[e] == mark and back[e] == mark:
                                out_cells[ne] = e // size
                                out_digits[ne] = e % size
                                ne += 1
                        if ne > 0:
                            best[0] = comp
                            best[1] = ne
                        continue
                    if on_seen[q] != stamp:
                        on_seen[q] = stamp
                        if nrec >= maxrec:
                            full = True
                            break
                        rec_lit[nrec] = q
                        rec_par[nrec] = r
                        q_on[n_on] = nrec
                        n_on += 1
                        nrec += 1
            n_off = 0
    return 0
