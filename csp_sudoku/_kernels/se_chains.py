"""Compiled chain searches of the ``se`` replay: forcing chains, loops and implication nets (numba).

A chain alternates two kinds of inference between candidates (docs/techniques.md,
"Forcing Chain", "Bidirectional Cycle"; :mod:`csp_sudoku.human.catalogue`):

* a **weak** inference, "k true, so q false": ``k`` and ``q`` share a column of
  the exact-cover matrix (Hunt, Pong, Tucker, *Difficulty-Driven Sudoku Puzzle
  Generation*, section 2), that is a cell (a *Y* link, between two digits of
  one cell) or a unit-digit (an *X* link, between two places of one digit in
  one unit), and a column is satisfied by exactly one candidate;
* a **strong** inference, "k false, so q true": ``k`` and ``q`` are the only
  two live candidates of a column, and the column needs one of them.

Everything below is built from these two rules on the exact-cover columns
(``cc[column]``: the column's candidates, -1 padded; ``corder[k]``: the
columns of candidate ``k``, its cell first, then its box, row and column
units, -1 padded; a column below ``ncellcols`` is a cell). A *literal* is a
candidate with a truth value: ``k`` for "k true", ``ncand + k`` for "k false".

The families, as the ``se`` metric rates them (csp_sudoku/human/se_order.py,
docs/metrics.md):

* **static** chains use the pencil marks as they were before the chain began:
  :func:`forcing_chains` (a chain from a literal to its own negation: forcing
  X-chains with X links only, forcing chains with both) and
  :func:`continuous_loops` (a closed alternating chain, whose weak links
  become strong both ways);
* **implication nets** (:func:`implication_nets`) follow every consequence of
  a premise at once. Static nets keep the marks; **dynamic** nets remove each
  candidate they make false, so a column the net itself leaves with two
  candidates gives a strong inference too, whose extra premises are the
  earlier removals from that column. :func:`best_net_conclusion` reads cell,
  region, double and contradiction forcing chains off the nets;
* **one digit's templates** (:func:`digit_templates`): a chain on one
  digit's links (Nishio, forcing X-chains, X-loops, and the strong-linked
  fishes of :mod:`csp_sudoku._kernels.se_patterns`) removes only a
  candidate that no template of its digit holds, and places only one that
  every template holds, so the replay does not search them where none can.

A chain's *complexity* is the number of distinct literals among the ancestors
of its conclusion, the conclusion included; it prices the chain through the
length bonus (:data:`LENGTH_CEILINGS`). Sudoku Explainer's batch rater, whose
ratings the replay reproduces, searches breadth first with true literals
before false ones and keeps the first parent that reaches a literal; the
searches here keep that order, since it decides which of two chains of equal
value is found, and so the complexities.

Nothing imports this module at package import time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from csp_sudoku._kernels.bitset import contains, copy_head, popcount
from csp_sudoku._kernels.human import singles_rounds
from csp_sudoku._kernels.se_offshoots import new_net, offshoots
from csp_sudoku._kernels.status import SOLVED, STUCK


def _length_ceilings(top: int = 1 << 40) -> np.ndarray:
    """The chain lengths past which the length bonus grows by 0.1: the geometric
    sequence 4, 6, 8, 12, 16, 24, 32, 48, ... (4 and 6 times every power of two,
    so about 0.2 per doubling of the chain), up to ``top``."""
    ceilings = sorted(base << i for base in (4, 6) for i in range(64) if base << i <= top)
    return np.array(ceilings, dtype=np.int64)


#: The length bonus's ceilings (:func:`_length_ceilings`): a chain of
#: complexity ``c`` has length ``c - 2`` and gets 0.1 for each ceiling below it.
LENGTH_CEILINGS = _length_ceilings()

#: Kinds of conclusion of :func:`best_net_conclusion`; among hints of equal value
#: and complexity the lower kind is applied first.
DOUBLE = 1
CELL = 5
REGION = 6
CONTRADICTION = 7

# The small helpers here are inlined into their callers (numba's
# inline="always"): numba types them in place instead of compiling each as a
# kernel of its own, once per argument type (literal 0 and 1, int32 and int64
# arguments made two to four compiles of some of them).


@njit(cache=True, inline="always")
def length_tenths(complexity):  # type: ignore[no-untyped-def]
    """The length bonus of a chain of ``complexity`` literals, in tenths: how many
    of :data:`LENGTH_CEILINGS` its length (``complexity - 2``) exceeds."""
    length = complexity - 2
    passed = 0
    while passed < LENGTH_CEILINGS.shape[0] and length > LENGTH_CEILINGS[passed]:
        passed += 1
    return passed


@njit(cache=True)
def column_members(alive, cc):  # type: ignore[no-untyped-def]
    """The live candidates of each column, in ``cc``'s order: ``(members,
    sizes)``, column ``c``'s are ``members[c, :sizes[c]]``. The tables read
    them instead of scanning each column's places for every candidate of it
    (on a top1465 step's marks :func:`static_tables` took a third of the
    time, measured)."""
    ncol, width = cc.shape
    members = np.empty((ncol, width), dtype=np.int32)
    sizes = np.zeros(ncol, dtype=np.int32)
    for c in range(ncol):
        n = 0
        for s in range(width):
            k = cc[c, s]
            if k >= 0 and alive[k]:
                members[c, n] = k
                n += 1
        sizes[c] = n
    return members, sizes


@njit(cache=True, inline="always")
def _partner(grid, live, c, k):  # type: ignore[no-untyped-def]
    """The candidate of column ``c`` other than ``k`` alive in ``grid`` (-1 if
    none), among the column's ``live`` members (:func:`column_members` of
    marks that hold ``grid``'s)."""
    members, msizes = live
    for s in range(msizes[c]):
        q = members[c, s]
        if q != k and grid[q]:
            return q
    return -1


@njit(cache=True, inline="always")
def strong_inferences(grid, live, corder, ncellcols, sizes, x_links, y_links, k, out, out_col):  # type: ignore[no-untyped-def]
    """What "k false" makes true on the marks ``grid``: the partner of ``k`` in
    each of its columns that holds two candidates alive in ``grid``
    (``sizes``), unit-digit columns with ``x_links``, the cell column with
    ``y_links``; each once, in ``corder``'s order, with the column that
    forces it in ``out_col`` (``live``: :func:`column_members` of marks that
    hold ``grid``'s). Returns how many, in ``out``."""
    n = 0
    for t in range(corder.shape[1]):
        c = corder[k, t]
        if c < 0:
            break
        wanted = y_links if c < ncellcols else x_links
        if not wanted or sizes[c] != 2:
            continue
        q = _partner(grid, live, c, k)
        if q >= 0 and not contains(out, n, q):
            out[n] = q
            out_col[n] = c
            n += 1
    return n


@njit(cache=True)
def weak_table(alive, live, corder, ncellcols, y_links):  # type: ignore[no-untyped-def]
    """What "k true" makes false, for every live candidate k at once: the live
    candidates sharing a unit-digit column with ``k`` (X links) and, with
    ``y_links``, its cell column (Y links), each once, column by column in
    ``corder``'s order (``live``: :func:`column_members` of the marks
    ``alive``). Candidate ``k``'s are ``targets[start[k]:start[k + 1]]``:
    built once for the searches that expand a candidate many times over the
    same marks. (One loop, with no helper per candidate: numba compiled a
    helper's call, inlined or not, about twice as slow.)"""
    members, sizes = live
    ncand = alive.shape[0]
    start = np.empty(ncand + 1, dtype=np.int32)
    targets = np.empty(ncand * members.shape[1] * corder.shape[1], dtype=np.int32)
    seen = np.zeros(ncand, dtype=np.int32)  # k + 1 where written for k
    n = 0
    for k in range(ncand):
        start[k] = n
        if not alive[k]:
            continue
        seen[k] = k + 1
        for t in range(corder.shape[1]):
            c = corder[k, t]
            if c < 0:
                break
            if c < ncellcols and not y_links:
                continue
            for s in range(sizes[c]):
                q = members[c, s]
                if seen[q] != k + 1:
                    seen[q] = k + 1
                    targets[n] = q
                    n += 1
    start[ncand] = n
    return start, targets


@njit(cache=True)
def strong_table(alive, live, corder, ncellcols, x_links, y_links):  # type: ignore[no-untyped-def]
    """:func:`strong_inferences` of every live candidate at once (see
    :func:`weak_table`, also for why it is one loop and what ``live`` is):
    candidate ``k``'s are ``targets[start[k]:start[k + 1]]``, in the same
    order."""
    members, sizes = live
    ncand = alive.shape[0]
    start = np.empty(ncand + 1, dtype=np.int32)
    targets = np.empty(ncand * corder.shape[1], dtype=np.int32)
    n = 0
    for k in range(ncand):
        start[k] = n
        if not alive[k]:
            continue
        first = n
        for t in range(corder.shape[1]):
            c = corder[k, t]
            if c < 0:
                break
            if sizes[c] != 2 or not (y_links if c < ncellcols else x_links):
                continue
            q = members[c, 1] if members[c, 0] == k else members[c, 0]
            dup = False
            for m in range(first, n):
                dup = dup or targets[m] == q
            if not dup:
                targets[n] = q
                n += 1
    start[ncand] = n
    return start, targets


@njit(cache=True)
def static_tables(alive, cc, corder, ncellcols):  # type: ignore[no-untyped-def]
    """The inference tables of SE's static chains over the marks ``alive``, built
    once for every search of a step: ``(weak_x, weak_xy, strong_x, strong_xy,
    strong_y)``, the weak inferences over X links and over both kinds, the
    strong ones over X links, both kinds, and Y links only
    (:func:`weak_table`, :func:`strong_table`). X-cycles and forcing X-chains
    read ``weak_x`` and ``strong_x``; Y-cycles ``weak_xy`` and ``strong_y``;
    the cycles and forcing chains of both ``weak_xy`` and ``strong_xy``."""
    live = column_members(alive, cc)
    return (
        weak_table(alive, live, corder, ncellcols, False),
        weak_table(alive, live, corder, ncellcols, True),
        strong_table(alive, live, corder, ncellcols, True, False),
        strong_table(alive, live, corder, ncellcols, True, True),
        strong_table(alive, live, corder, ncellcols, False, True),
    )


@njit(cache=True, inline="always")
def _list_tables(group, weak_x, weak_y, strong_x, strong_y, strong_y_only):  # type: ignore[no-untyped-def]
    """The ``(weak, strong)`` tables of SE's list ``group`` (see :func:`static_tables`):
    0 X-cycles and forcing X-chains, 1 Y-cycles, 2 both kinds of link."""
    if group == 0:
        return weak_x, strong_x
    if group == 1:
        return weak_y, strong_y_only
    return weak_y, strong_y


@njit(cache=True)
def _reach(weak, strong, lit, seen, stamp, queue):  # type: ignore[no-untyped-def]
    """Stamp in ``seen`` every literal that ``lit`` leads to over the tables
    ``weak`` (true to false) and ``strong`` (false to true), ``lit`` included."""
    ncand = seen.shape[0] // 2
    w_start, w_targets = weak
    s_start, s_targets = strong
    seen[lit] = stamp
    queue[0] = lit
    head, tail = 0, 1
    while head < tail:
        x = queue[head]
        head += 1
        if x < ncand:
            for m in range(w_start[x], w_start[x + 1]):
                y = ncand + w_targets[m]
                if seen[y] != stamp:
                    seen[y] = stamp
                    queue[tail] = y
                    tail += 1
        else:
            for m in range(s_start[x - ncand], s_start[x - ncand + 1]):
                y = s_targets[m]
                if seen[y] != stamp:
                    seen[y] = stamp
                    queue[tail] = y
                    tail += 1


@njit(cache=True)
def components(weak, strong, comp):  # type: ignore[no-untyped-def]
    """The strongly connected components of the literal graph of the tables
    ``weak`` (true to false) and ``strong`` (false to true), by Tarjan's
    algorithm (iteratively): ``comp[lit]`` receives its component's number,
    in the order the components close, so that a link between two components
    goes from a higher number to a lower (a path too). Returns how many."""
    nlit = comp.shape[0]
    ncand = nlit // 2
    w_start, w_targets = weak
    s_start, s_targets = strong
    index = np.full(nlit, -1, dtype=np.int32)
    low = np.empty(nlit, dtype=np.int32)
    on_stack = np.zeros(nlit, dtype=np.int8)
    stack = np.empty(nlit, dtype=np.int32)
    call_node = np.empty(nlit, dtype=np.int32)
    call_edge = np.empty(nlit, dtype=np.int32)
    ncomp = 0
    nidx = 0
    top = 0
    for v0 in range(nlit):
        if index[v0] >= 0:
            continue
        index[v0] = low[v0] = nidx
        nidx += 1
        first = w_start[v0] if v0 < ncand else s_start[v0 - ncand]
        last = w_start[v0 + 1] if v0 < ncand else s_start[v0 - ncand + 1]
        if first == last:
            # no link out (every removed candidate's literals): a component of
            # its own, closed at once, as the search below would close it
            comp[v0] = ncomp
            ncomp += 1
            continue
        stack[top] = v0
        top += 1
        on_stack[v0] = 1
        sp = 0
        call_node[0] = v0
        call_edge[0] = first
        while sp >= 0:
            v = call_node[sp]
            e = call_edge[sp]
            end = w_start[v + 1] if v < ncand else s_start[v - ncand + 1]
            if e < end:
                call_edge[sp] = e + 1
                w = ncand + w_targets[e] if v < ncand else s_targets[e]
                if index[w] < 0:
                    index[w] = low[w] = nidx
                    nidx += 1
                    stack[top] = w
                    top += 1
                    on_stack[w] = 1
                    sp += 1
                    call_node[sp] = w
                    call_edge[sp] = w_start[w] if w < ncand else s_start[w - ncand]
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            if low[v] == index[v]:  # v roots a component: pop it
                while True:
                    top -= 1
                    x = stack[top]
                    on_stack[x] = 0
                    comp[x] = ncomp
                    if x == v:
                        break
                ncomp += 1
            sp -= 1
            if sp >= 0 and low[v] < low[call_node[sp]]:
                low[call_node[sp]] = low[v]
    return ncomp


@njit(cache=True)
def on_cycles(comp, out):  # type: ignore[no-untyped-def]
    """``out[k]`` = 1 where "k true" lies on a cycle of the literal graph whose
    components :func:`components` numbered in ``comp``: its component holds
    more than itself. A loop through "k true" is such a cycle, so a loop
    search need start nowhere else (on top1465's marks about a third of the
    candidates are on one). Returns how many."""
    ncand = out.shape[0]
    size = np.zeros(comp.shape[0], dtype=np.int32)
    for x in range(2 * ncand):
        size[comp[x]] += 1
    count = 0
    for k in range(ncand):
        out[k] = 1 if size[comp[k]] > 1 else 0
        count += out[k]
    return count


@njit(cache=True)
def through_new_links(alive, since, cc, weak, strong, out):  # type: ignore[no-untyped-def]
    """Which chains of the static tables ``weak`` and ``strong`` over ``alive``
    can pass through a strong link that the marks ``since`` (``alive`` and
    more) lack: a column that lost a candidate since and holds two now,
    joined in ``strong``. ``out`` (``(3, ncand)``, int8) receives, per
    candidate k, whether a chain from "k true" to "k false" can (row 0: a
    forcing chain removing k), from "k false" to "k true" (row 1: placing
    it), and a loop back to "k true" (row 2). Returns the new links.

    Why: the tables are symmetric under negation (a weak link k-q read both
    ways, a strong one too), so "x leads to a false" is "a true leads to not
    x". A path through the new link, "a false, so b true", of a chain from k
    false to k true thus needs "k true" reached from both "a true" and "b
    true"; of one from k true to k false, "k false"; of a loop through "k
    true", "k false" from one end and "k true" from the other. Where the
    static family found nothing on ``since``, every chain or loop that acts
    on ``alive`` has a new link (its other links are links of ``since``), so
    the searches need start only there."""
    ncand = alive.shape[0]
    nlit = 2 * ncand
    s_start, s_targets = strong
    seen = np.zeros((2, nlit), dtype=np.int32)
    queue = np.empty(nlit, dtype=np.int32)
    for r in range(3):
        for k in range(ncand):
            out[r, k] = 0
    stamp = 0
    links = 0
    for c in range(cc.shape[0]):
        a = b = -1
        live = lost = 0
        for j in range(cc.shape[1]):
            y = cc[c, j]
            if y < 0:
                continue
            if alive[y]:
                live += 1
                if a < 0:
                    a = y
                else:
                    b = y
            elif since[y]:
                lost += 1
        if live != 2 or lost == 0:
            continue
        joined = False
        for m in range(s_start[a], s_start[a + 1]):
            joined = joined or s_targets[m] == b
        if not joined:
            continue  # not a link of these tables (a cell's, for X links only)
        links += 1
        stamp += 1
        _reach(weak, strong, a, seen[0], stamp, queue)
        _reach(weak, strong, b, seen[1], stamp, queue)
        for k in range(ncand):
            if not alive[k]:
                continue
            on_a = seen[0, k] == stamp
            on_b = seen[1, k] == stamp
            off_a = seen[0, ncand + k] == stamp
            off_b = seen[1, ncand + k] == stamp
            if off_a and off_b:
                out[0, k] = 1
            if on_a and on_b:
                out[1, k] = 1
            if (off_a and on_b) or (off_b and on_a):
                out[2, k] = 1
    return links


# --------------------------------------------------------------------------- forcing chains


#: A bound of :func:`_shortest_chain` that no chain reaches.
NO_BOUND = np.int64(1 << 40)

#: Rows of :func:`_shortest_chain`'s per-literal scratch (``(3, 2 * ncand)``).
_STAMP, _DEPTH, _PARENT = 0, 1, 2


@njit(cache=True)
def _shortest_chain(weak, strong, k, negated, lits, layers, stamp, bound):  # type: ignore[no-untyped-def]
    """The shortest static chain from "k true" to "k false" (``negated`` 0) or from
    "k false" to "k true" (``negated`` 1): breadth first, a layer of true
    literals (each weak inference) then a layer of false ones (each strong
    inference), every literal kept with the first parent that reached it.
    ``weak`` and ``strong`` are the inference tables (:func:`weak_table`,
    :func:`strong_table`) of the marks.

    ``lits`` holds per literal its stamp (``stamp`` for the literals reached by
    this search), depth and parent (rows :data:`_STAMP`, ...); ``layers`` the
    two layers (``(2, ncand)``). Returns ``(complexity, last)``: the
    chain's literal count and the literal before its conclusion, or
    ``(-1, -1)`` when there is no chain of complexity below ``bound`` (a
    chain found from a layer of depth d has complexity d + 2, so the search
    stops at the first layer that could give none below it).
    """
    seen = lits[_STAMP]
    depth = lits[_DEPTH]
    parent = lits[_PARENT]
    layer_true = layers[0]
    layer_false = layers[1]
    ncand = layers.shape[1]
    n_true = 0
    n_false = 0
    if negated == 0:
        layer_true[0] = k
        n_true = 1
    else:
        layer_false[0] = k
        n_false = 1
    start = k + negated * ncand
    seen[start] = stamp
    depth[start] = 0
    parent[start] = -1
    goal_weak = k if negated == 0 else -1
    goal_strong = k if negated == 1 else -1
    while n_true > 0 or n_false > 0:
        if n_true > 0 and depth[layer_true[0]] + 2 >= bound:
            return -1, -1
        n_false, last = _next_layer(
            weak, layer_true, n_true, 0, ncand, goal_weak, lits, stamp, layer_false, n_false
        )
        if last >= 0:
            return depth[last] + 2, last
        n_true = 0
        if n_false > 0 and depth[ncand + layer_false[0]] + 2 >= bound:
            return -1, -1
        n_true, last = _next_layer(
            strong, layer_false, n_false, ncand, 0, goal_strong, lits, stamp, layer_true, n_true
        )
        if last >= 0:
            return depth[last] + 2, last
        n_false = 0
    return -1, -1


@njit(cache=True, inline="always")
def _next_layer(table, layer, n, base, other, goal, lits, stamp, into, n_into):  # type: ignore[no-untyped-def]
    """One step of :func:`_shortest_chain`: the literals ``base + layer[:n]`` (a layer
    of true literals, ``base`` 0, through the weak inferences ``table``, or of
    false ones, ``base`` ``ncand``, through the strong) reach the literals of
    the other truth value (``other + q`` for candidate ``q``) not reached
    before, appended to ``into`` (``n_into`` there already) with their depth
    and parent.

    Returns ``(n_into, last)``: the other layer's new count, and the literal
    whose inference reaches candidate ``goal`` (the chain's conclusion; -1:
    none sought), -1 when none does.
    """
    seen = lits[_STAMP]
    depth = lits[_DEPTH]
    parent = lits[_PARENT]
    start, targets = table
    for a in range(n):
        p = base + layer[a]
        for m in range(start[layer[a]], start[layer[a] + 1]):
            q = targets[m]
            if q == goal:
                return n_into, p
            if seen[other + q] != stamp:
                seen[other + q] = stamp
                depth[other + q] = depth[p] + 1
                parent[other + q] = p
                into[n_into] = q
                n_into += 1
    return n_into, -1


@njit(cache=True)
def forcing_chains(alive, weak, strong, bound, lower, scc, out_remove, out_place):  # type: ignore[no-untyped-def]
    """The least complex forcing X-chain or forcing chain (``weak`` and ``strong``
    the tables of X links or of both kinds, :func:`static_tables`), the
    first in candidate order (removal before placement) among equals.

    ``out_remove[k]`` is the complexity of the shortest chain from "k true" to
    "k false" (so k goes), ``out_place[k]`` of the shortest from "k false" to
    "k true" (so k is placed), or -1: where there is none, and where there is
    none less complex than ``bound`` and every chain met before it in that
    order (the searches stop there). So the least complexity in the two
    arrays, at its first place (``2 k + placed``), is the chain asked for.
    ``lower`` (``(2, ncand)`` or more rows, int64): a lower bound on the
    complexity of each chain, removing k (row 0) and placing it (row 1); a
    chain whose bound is the current ``bound`` or more cannot come first and
    is not searched (it gets -1), nor where the components of the links
    (``scc``, :func:`components`) allow no path. Zeros search every chain.
    Each chain searched gets its bound for these marks: its complexity, or
    the bound it was searched under when none came below it
    (:data:`NO_BOUND` where the components allow none), so that the caller
    can keep them for the next marks (``_static_chains``).
    """
    ncand = alive.shape[0]
    lits = np.zeros((3, 2 * ncand), dtype=np.int32)
    layers = np.empty((2, ncand), dtype=np.int32)
    stamp = 0
    for k in range(ncand):
        out_remove[k] = -1
        out_place[k] = -1
        if not alive[k]:
            continue
        for negated in range(2):
            start, goal = (k, ncand + k) if negated == 0 else (ncand + k, k)
            if lower[negated, k] >= bound:
                continue
            # a path leads to a component of a lower number or its own
            if scc[start] < scc[goal]:
                lower[negated, k] = NO_BOUND
                continue
            stamp += 1
            comp, _last = _shortest_chain(weak, strong, k, negated, lits, layers, stamp, bound)
            lower[negated, k] = bound if comp < 0 else comp
            if comp >= 0:
                bound = comp  # a later chain must be less complex to come first
            if negated == 0:
                out_remove[k] = comp
            else:
                out_place[k] = comp
    return 0


@njit(cache=True)
def forcing_chain(alive, weak, strong, k, negated, out):  # type: ignore[no-untyped-def]
    """The literals of :func:`forcing_chains`'s chain for candidate ``k`` from
    "k true" (``negated`` 0) or "k false" (1), over the tables ``weak`` and
    ``strong``: premise first, conclusion last, in ``out``; returns how many
    (0 when there is no chain)."""
    ncand = alive.shape[0]
    lits = np.zeros((3, 2 * ncand), dtype=np.int32)
    layers = np.empty((2, ncand), dtype=np.int32)
    parent = lits[_PARENT]
    # np.int64(1), not a literal: _shortest_chain compiles once
    comp, last = _shortest_chain(weak, strong, k, negated, lits, layers, np.int64(1), NO_BOUND)
    if comp < 0:
        return 0
    out[comp - 1] = k + (1 - negated) * ncand
    lit = last
    i = comp - 2
    while lit >= 0:
        out[i] = lit
        lit = parent[lit]
        i -= 1
    return comp


# --------------------------------------------------------------------------- implication nets
# A net's records: record r is a literal reached, with its ancestors (the
# literals it depends on, itself included) as row r of a bitset matrix.


@njit(cache=True, inline="always")
def _row_copy(bits, dst, src):  # type: ignore[no-untyped-def]
    for w in range(bits.shape[1]):
        bits[dst, w] = bits[src, w]


@njit(cache=True, inline="always")
def _row_merge(bits, dst, src):  # type: ignore[no-untyped-def]
    for w in range(bits.shape[1]):
        bits[dst, w] |= bits[src, w]


@njit(cache=True, inline="always")
def _nested_weight(word, base, weights):  # type: ignore[no-untyped-def]
    """The complexities of the nested chains whose bits ``word`` holds (bit ``b`` is
    chain ``base + b``)."""
    total = 0
    b = 0
    while word != 0:
        if word & 1:
            total += weights[0, base + b]
        word = (word >> 1) & np.int64(0x7FFFFFFFFFFFFFFF)
        b += 1
    return total


@njit(cache=True, inline="always")
def _row_count(bits, row, lw, weights):  # type: ignore[no-untyped-def]
    """A record's complexity: its ancestor literals (words below ``lw``), plus the
    complexity of each nested chain among them (the words from ``lw``: a bit
    per chain, its complexity in ``weights``)."""
    total = 0
    for w in range(lw):
        total += popcount(bits[row, w])
    for w in range(lw, bits.shape[1]):
        total += _nested_weight(bits[row, w], 64 * (w - lw), weights)
    return total


@njit(cache=True, inline="always")
def _pair_count(bits, a, b, lw, weights):  # type: ignore[no-untyped-def]
    """The complexity of a contradiction between records ``a`` and ``b``: both
    ancestor counts added, each nested chain among either counted once."""
    total = 0
    for w in range(lw):
        total += popcount(bits[a, w]) + popcount(bits[b, w])
    for w in range(lw, bits.shape[1]):
        total += _nested_weight(bits[a, w] | bits[b, w], 64 * (w - lw), weights)
    return total


@njit(cache=True, inline="always")
def _row_add(bits, row, lit):  # type: ignore[no-untyped-def]
    bits[row, lit >> 6] |= np.int64(1) << np.int64(lit & 63)


@njit(cache=True)
def _record_offshoots(grid, out, net, lw, nest0, nrec, queue_false, tail_f):  # type: ignore[no-untyped-def]
    """Record removals found on a dynamic net's marks as false literals, queued.

    ``out = (count, out_q, out_h, hint_start, parents, hint_comp, hint_id)``:
    removal ``j`` is candidate ``out_q[j]`` of hint ``out_h[j]``, whose
    parents (the net's removals it needed) are
    ``parents[hint_start[h]:hint_start[h + 1]]``. With ``nest0 >= 0`` each
    hint is a nested chain: hint ``h`` gets bit ``nest0 + h`` of the nested
    words, worth ``hint_comp[h]`` and known as ``hint_id[h]`` (``weights``
    rows 0 and 1; a hint past the words' capacity is left out). Returns ``(literals added, complexity of a
    contradiction met or -1)``. ``net = (bits, weights, nest, slot, rec_lit,
    lit_rec)``: the records of :func:`implication_nets`."""
    nq, out_q, out_h, hint_start, parents, hint_comp, hint_id = out
    bits, weights, _nest, slot, rec_lit, lit_rec = net
    ncand = grid.shape[0]
    added = 0
    for j in range(nq):
        q = out_q[j]
        if lit_rec[ncand + q] >= 0 or not grid[q]:
            continue
        h = out_h[j]
        if nest0 >= 0 and nest0 + h >= weights.shape[1]:
            continue
        row = nrec + added
        for w in range(bits.shape[1]):
            bits[row, w] = 0
        for t in range(hint_start[h], hint_start[h + 1]):
            r = lit_rec[ncand + parents[t]]
            if r >= 0:
                _row_merge(bits, row, r)
        _row_add(bits, row, slot[ncand + q])
        if nest0 >= 0:
            weights[0, nest0 + h] = hint_comp[h]
            weights[1, nest0 + h] = hint_id[h]
            _row_add(bits, row, 64 * lw + nest0 + h)
        if lit_rec[q] >= 0:  # q true, and now false
            return added, _pair_count(bits, row, lit_rec[q], lw, weights)
        rec_lit[row] = ncand + q
        lit_rec[ncand + q] = row
        queue_false[tail_f + added] = row
        added += 1
    return added, -1


@njit(cache=True)
def _nest_words(plus):  # type: ignore[no-untyped-def]
    """How many words of nested-chain bits a net's records need: none without
    nesting (``plus`` None, or level 1)."""
    if plus is None:
        return 0
    else:
        return NESTED_WORDS if plus[7] >= 2 else 0


@njit(cache=True)
def _begin_net(plus):  # type: ignore[no-untyped-def]
    """A new net of SE's dynamic forcing chains (+) begins (:func:`new_net`)."""
    if plus is None:
        return
    else:
        new_net(plus[6])


#: Words of nested-chain bits per record when chains nest (64 chains a word):
#: a net that met more nested chains leaves the rest out.
NESTED_WORDS = 4


@njit(cache=True)
def _nested_out(plus, i, bits, lw, weights, rec_lit, nrec):  # type: ignore[no-untyped-def]
    """Keep net ``i``'s nested chains for :func:`best_net_conclusion`: the chain
    bits of each literal reached (``plus[9][0][i, lit]``, zero elsewhere) and
    the complexity and identity of each chain bit (``plus[9][1][i]``)."""
    if plus is None:
        return
    else:
        nest_bits, nest_tab = plus[9]
        for lit in range(nest_bits.shape[1]):
            for w in range(nest_bits.shape[2]):
                nest_bits[i, lit, w] = 0
        for n in range(nrec):
            for w in range(nest_bits.shape[2]):
                nest_bits[i, rec_lit[n], w] = bits[n, lw + w]
        for r in range(2):
            for b in range(weights.shape[1]):
                nest_tab[i, r, b] = weights[r, b]


@njit(cache=True)
def _clear_row(out_anc, out_order, out_reached, out_nreached, i):  # type: ignore[no-untyped-def]
    """Zero row ``i`` of the nets' counts and orders where the net last written
    to it reached (``out_reached[i, :out_nreached[i]]``; the rest of the row
    is zero already): the caller keeps the arrays from call to call, and
    clearing what one net reached, a few hundred literals, costs less than
    zeroing the row over every literal."""
    for j in range(out_nreached[i]):
        lit = out_reached[i, j]
        out_anc[i, lit] = 0
        out_order[i, lit] = 0
    out_nreached[i] = 0


@njit(cache=True)
def _offshoot_literals(  # type: ignore[no-untyped-def]
    grid, alive, cc, corder, ncellcols, plus, net, lw, nrec, queue_false, tail_f
):
    """What a dynamic net with nothing left to expand learns from its marks, as
    queued false literals: the removals of the basic techniques
    (:func:`csp_sudoku._kernels.se_offshoots.offshoots`); when they find
    nothing and the level is 2 or more, those of the static forcing chains
    (:func:`chain_offshoots`), and when those find nothing either and the
    level is 3 or more, those of the static cell and region forcing chains
    (:func:`multiple_offshoots`); each such chain is a nested chain
    (``nest[0]``: how many the net has met). Returns ``(literals added, complexity of a contradiction met
    or -1)``."""
    vals, units, ukind, member, cross, techniques, work, level, chain_work, _out = plus
    ncand = alive.shape[0]
    size = ncand // vals.shape[0]
    nq = offshoots(grid, alive, vals, size, units, ukind, member, cross, techniques, work)
    out = (nq, work[4], work[5], work[6], work[7], work[6], work[6])
    added, absurd = _record_offshoots(grid, out, net, lw, -1, nrec, queue_false, tail_f)
    if added > 0 or absurd >= 0 or level < 2:
        return added, absurd
    cw, mw, loops = chain_work
    nq, nhints = chain_offshoots(grid, alive, cc, corder, ncellcols, size, cw, mw, loops)
    if nhints == 0 and level >= 3:
        nq, nhints = multiple_offshoots(grid, alive, cc, corder, ncellcols, size, cw, mw)
    out = (nq, cw[0], cw[1], cw[2], cw[3], cw[4], cw[5])
    nest = net[2]
    added, absurd = _record_offshoots(grid, out, net, lw, nest[0], nrec, queue_false, tail_f)
    nest[0] += nhints
    return added, absurd


@njit(cache=True, inline="always")
def _cell_count(grid, cell, size):  # type: ignore[no-untyped-def]
    n = 0
    for d in range(size):
        n += grid[cell * size + d]
    return n


@njit(cache=True, inline="always")
def _conclude(grid, k, on, size, out_q, out_h, nq, hint):  # type: ignore[no-untyped-def]
    """Record the removals of a nested hint's conclusion on candidate ``k`` (``on``:
    k placed, so its cell's other candidates go; else k goes) as hint
    ``hint``'s, each candidate not already in ``out_q[:nq]``. Returns the new
    count and how many were added."""
    kept = 0
    cell = k // size
    for d in range(size):
        q = cell * size + d
        removes = (q != k and grid[q] != 0) if on else q == k
        if removes and nq < out_q.shape[0] and not contains(out_q, nq, q):
            out_q[nq] = q
            out_h[nq] = hint
            nq += 1
            kept += 1
    return nq, kept


@njit(cache=True, inline="always")
def _keep_hint(work, hints, comp, ident, src, n_par):  # type: ignore[no-untyped-def]
    """Keep the open nested hint (its removals recorded, its parents ending at
    ``n_par``) as hint ``hints``: its complexity, identity and source.
    Returns the new count."""
    hint_start, hint_comp, hint_id, hint_src = work[2], work[4], work[5], work[8]
    hint_comp[hints] = comp
    hint_id[hints] = ident
    hint_src[hints] = src
    hint_start[hints + 1] = n_par
    return hints + 1


@njit(cache=True, inline="always")
def _hint_order(keys, nh, mark, hint_start):  # type: ignore[no-untyped-def]
    """The order in which the nested hints are taken (their keys sorted: value,
    complexity, then the order made, so a stable sort), with the parent
    marks and the kept hints reset."""
    for q in range(mark.shape[0]):
        mark[q] = 0
    hint_start[0] = 0
    return np.argsort(keys[:nh], kind="mergesort")


@njit(cache=True)
def chain_offshoots(grid, alive, cc, corder, ncellcols, size, work, mwork, loops):  # type: ignore[no-untyped-def]
    """The removals SE's static chains make on a dynamic net's marks ``grid``
    (SE's "(+ Forcing Chains)", nesting level 2), each with its hint.

    The hints are SE's three lists of static chains from every candidate of a
    cell that still holds two or more: X-loops (6.5) and forcing X-chains
    (6.6), Y-loops (6.5, from bivalue cells), then loops of both (7.0) and
    forcing chains (7.0) (:func:`_loops_from`, :func:`forcing_chains`),
    taken in SE's order: least value, then least complexity, then as made
    (list by list, candidate by candidate, a candidate's loops before its
    chains). A hint counts only when it exists because of the net: its
    *parents* are the candidates the net removed (``alive`` has them,
    ``grid`` does not) from the columns that force each true literal of the
    chain or loop (a cell: its other candidates; a unit: the digit's other
    places); a hint without any is left out. Each removal is kept once, by
    the first hint that makes it. ``work = (out_q, out_h, hint_start,
    parents, hint_comp, hint_id, keys, mark, hint_src)``, ``mwork`` (its hint
    arrays: ``mwork[6][hint_src[h]]`` is 1 for a loop, 0 for a chain, and
    ``mwork[7][hint_src[h]]`` its reference: 4 * (loop index, or 2 * premise
    + 1 for "premise false") + list (0 X, 1 Y, 2 both))
    and ``loops = (see, loop work, loop out)`` (:func:`chain_work_arrays`):
    on return ``out_q[:n]`` are the removals, ``out_h`` their hints, whose
    parents are ``parents[hint_start[h]:hint_start[h + 1]]``, complexity
    ``hint_comp[h]`` and identity ``hint_id[h]`` (a hash of the chain's
    literals: the same chain found in two nets counts once in a hint made of
    both). Returns ``(n, hints)``.
    """
    out_q, out_h, hint_start, parents, hint_comp, _hint_id, keys, mark, _hint_src = work
    hint_kind, hint_ref = mwork[6], mwork[7]
    see, lwork, lout = loops
    llits, lstart, lcomps, lrem, lrem_start, lcount = lout
    ncand = grid.shape[0]
    sizes = column_members(grid, cc)[1]  # how many live candidates each column holds
    weak_x, weak_y, strong_x, strong_y, strong_y_only = static_tables(grid, cc, corder, ncellcols)
    lits = np.zeros((3, 2 * ncand), dtype=np.int32)
    layers = np.empty((2, ncand), dtype=np.int32)
    parent = lits[_PARENT]
    stamp = 0
    nh = 0
    cap = keys.shape[0]
    for q in range(3):
        lcount[q] = 0
    # the candidates on a cycle of each list's links: no loop starts elsewhere
    # (and no chain runs to a component of a higher number, components)
    cycles = np.empty((3, ncand), dtype=np.int8)
    comps = np.empty((3, 2 * ncand), dtype=np.int32)
    for group in range(3):
        weak, strong = _list_tables(group, weak_x, weak_y, strong_x, strong_y, strong_y_only)
        components(weak, strong, comps[group])
        on_cycles(comps[group], cycles[group])
    for group in range(3):  # SE's lists: X, Y, then both
        weak, strong = _list_tables(group, weak_x, weak_y, strong_x, strong_y, strong_y_only)
        for k in range(ncand):
            if not grid[k]:
                continue
            held = _cell_count(grid, k // size, size)
            if held < 2 or (group == 1 and held != 2):
                continue
            first = lcount[0]
            if cycles[group, k]:
                _loops_from(grid, weak, strong, see, size, k, 1 << 30, lwork, lout)
            for i in range(first, lcount[0]):
                if nh < cap:
                    tenths = (65 if group < 2 else 70) + length_tenths(lcomps[i])
                    keys[nh] = (np.int64(tenths) << 52) | (np.int64(lcomps[i]) << 32) | nh
                    hint_kind[nh] = 1
                    hint_ref[nh] = 4 * i + group
                    nh += 1
            if group == 1:
                continue
            for negated in range(2):
                start, goal = (k, ncand + k) if negated == 0 else (ncand + k, k)
                if comps[group, start] < comps[group, goal]:
                    continue  # no path from start to goal
                stamp += 1
                comp, _last = _shortest_chain(
                    weak, strong, k, negated, lits, layers, stamp, NO_BOUND
                )
                if comp < 0 or nh >= cap:
                    continue
                tenths = (66 if group == 0 else 70) + length_tenths(comp)
                keys[nh] = (np.int64(tenths) << 52) | (np.int64(comp) << 32) | nh
                hint_kind[nh] = 0
                hint_ref[nh] = 4 * (2 * k + negated) + group
                nh += 1
    order = _hint_order(keys, nh, mark, hint_start)
    n_par = nq = hints = 0
    for oi in range(nh):
        h = order[oi]
        comp = (keys[h] >> 32) & ((np.int64(1) << 20) - 1)
        group = hint_ref[h] % 4
        ref = hint_ref[h] // 4
        x_links = group != 1
        y_links = group != 0
        stamp += 1
        ident = np.int64(hint_ref[h] + 1) * np.int64(2 + hint_kind[h])
        if hint_kind[h] == 1:  # a loop: each literal follows from the one before
            a = lstart[ref]
            b = lstart[ref + 1]
            for j in range(a, b):
                x = llits[j]
                ident = ident * np.int64(1099511628211) + np.int64(x + 1)
                by = llits[b - 1] if j == a else llits[j - 1]  # the last forces the first
                if x < ncand:
                    c = _link_column(
                        cc, corder, ncellcols, sizes, by - ncand, x, x_links, y_links, True
                    )
                else:
                    # SE reads a loop both ways: a weak link, read backwards, is a
                    # strong one, so its cell or unit's removals are parents too
                    c = _link_column(
                        cc, corder, ncellcols, sizes, by, x - ncand, True, y_links, False
                    )
                if c >= 0:
                    n_par = _removed_parents(grid, alive, cc, c, stamp, mark, parents, n_par)
            if n_par == hint_start[hints]:
                continue  # the loop needs nothing the net removed
            kept = 0
            for j in range(lrem_start[ref], lrem_start[ref + 1]):
                q = lrem[j]
                if nq < out_q.shape[0] and not contains(out_q, nq, q):
                    out_q[nq] = q
                    out_h[nq] = hints
                    nq += 1
                    kept += 1
        else:
            k = ref // 2
            negated = ref % 2
            # (a chain hint is never of list 1, the Y-cycles: see above)
            weak, strong = _list_tables(group, weak_x, weak_y, strong_x, strong_y, strong_y_only)
            _comp, last = _shortest_chain(weak, strong, k, negated, lits, layers, stamp, NO_BOUND)
            # the chain's literals, conclusion first, and its true literals, each
            # with the false literal that forced it
            x = last
            on = k if negated == 1 else -1
            by = last - ncand if negated == 1 else -1
            while True:
                if on >= 0:
                    c = _link_column(cc, corder, ncellcols, sizes, by, on, x_links, y_links, True)
                    if c >= 0:
                        n_par = _removed_parents(grid, alive, cc, c, stamp, mark, parents, n_par)
                if x < 0:
                    break
                ident = ident * np.int64(1099511628211) + np.int64(x + 1)
                px = parent[x]
                if x < ncand and px >= 0:
                    on = x
                    by = px - ncand
                else:
                    on = -1
                x = px
            if n_par == hint_start[hints]:
                continue  # the chain needs nothing the net removed
            nq, kept = _conclude(grid, k, negated == 1, size, out_q, out_h, nq, hints)
        if kept == 0:
            n_par = hint_start[hints]
            continue
        hints = _keep_hint(work, hints, comp, ident, h, n_par)
        if hints >= hint_comp.shape[0]:
            break
    return nq, hints


@njit(cache=True)
def _static_net(weak, strong, lit, anc, par, reached, queue_t, queue_f):  # type: ignore[no-untyped-def]
    """The static net of literal ``lit`` (candidate ``k`` true: ``k``; false:
    ``ncand + k``) on the marks of the tables ``weak`` and ``strong``, as
    :func:`implication_nets` builds it (true literals first, each literal
    once, by its first parent; it stops at a contradiction). A static net's
    literals have one parent each, so a literal's ancestors are its path:
    ``anc[lit]`` receives their count (0 where it is not reached; ``anc``
    must hold zeros), ``par[lit]`` its parent, ``reached`` the literals in
    the order reached. Returns how many, and the complexity of the
    contradiction met (both ancestor counts added, as
    :func:`implication_nets` counts it), -1 when none."""
    ncand = anc.shape[0] // 2
    w_start, w_targets = weak
    s_start, s_targets = strong
    n = 1
    reached[0] = lit
    anc[lit] = 1
    par[lit] = -1
    head_t = tail_t = head_f = tail_f = 0
    if lit < ncand:
        queue_t[0] = lit
        tail_t = 1
    else:
        queue_f[0] = lit - ncand
        tail_f = 1
    while head_t < tail_t or head_f < tail_f:
        if head_t < tail_t:
            p = queue_t[head_t]
            head_t += 1
            for m in range(w_start[p], w_start[p + 1]):
                q = w_targets[m]
                if anc[q] > 0:  # q true, and now false
                    return n, anc[q] + anc[p] + 1
                if anc[ncand + q] == 0:
                    anc[ncand + q] = anc[p] + 1
                    par[ncand + q] = p
                    reached[n] = ncand + q
                    n += 1
                    queue_f[tail_f] = q
                    tail_f += 1
            continue
        p = queue_f[head_f]
        head_f += 1
        for m in range(s_start[p], s_start[p + 1]):
            q = s_targets[m]
            if anc[ncand + q] > 0:  # q false, and now true
                return n, anc[ncand + p] + 1 + anc[ncand + q]
            if anc[q] == 0:
                anc[q] = anc[ncand + p] + 1
                par[q] = ncand + p
                reached[n] = q
                n += 1
                queue_t[tail_t] = q
                tail_t += 1
    return n, -1


@njit(cache=True)
def _static_nets(alive, cc, corder, ncellcols, premises, y_links, out, out_absurd):  # type: ignore[no-untyped-def]
    """:func:`implication_nets` of static nets (no removals on the way, no
    technique inside), same arguments and outputs: each literal has one
    parent, so its ancestors are its path, counted as it is reached
    (:func:`_static_net`), with no ancestor sets to copy and count (a
    third of the time of the general nets, measured on SE's 8.0 step)."""
    out_anc, out_order, out_reached, out_nreached = out
    ncand = alive.shape[0]
    live = column_members(alive, cc)
    weak = weak_table(alive, live, corder, ncellcols, y_links)
    strong = strong_table(alive, live, corder, ncellcols, True, y_links)
    anc = np.zeros(2 * ncand, dtype=np.int32)
    par = np.empty(2 * ncand, dtype=np.int32)
    reached = np.empty(2 * ncand, dtype=np.int32)
    queue_t = np.empty(ncand + 1, dtype=np.int32)
    queue_f = np.empty(ncand + 1, dtype=np.int32)
    for i in range(premises.shape[0]):
        n, out_absurd[i] = _static_net(
            weak, strong, premises[i], anc, par, reached, queue_t, queue_f
        )
        if out_anc.shape[0] > 0:  # no rows: the caller reads the contradictions only
            _clear_row(out_anc, out_order, out_reached, out_nreached, i)
            for j in range(n):
                lit = reached[j]
                out_anc[i, lit] = anc[lit]
                out_order[i, lit] = j
                out_reached[i, j] = lit
            out_nreached[i] = n
        for j in range(n):
            anc[reached[j]] = 0


@njit(cache=True, inline="always")
def _link_column(cc, corder, ncellcols, sizes, frm, to, x_links, y_links, strong):  # type: ignore[no-untyped-def]
    """The column of the link from candidate ``frm`` to ``to``: the first column
    of ``frm`` (in ``corder``'s order; unit columns with ``x_links``, its cell
    with ``y_links``) holding ``to``, and for a ``strong`` link ("frm false,
    so to true") holding two candidates (``sizes``); -1 if none."""
    for t in range(corder.shape[1]):
        c = corder[frm, t]
        if c < 0:
            break
        if not (y_links if c < ncellcols else x_links) or (strong and sizes[c] != 2):
            continue
        for s in range(cc.shape[1]):
            if cc[c, s] == to:
                return c
    return -1


@njit(cache=True, inline="always")
def _removed_parents(grid, alive, cc, c, stamp, mark, parents, n_par):  # type: ignore[no-untyped-def]
    """Add the candidates of column ``c`` the net removed (``alive`` has them,
    ``grid`` does not) to ``parents``, each once (``mark``). Returns the new count."""
    for s in range(cc.shape[1]):
        y = cc[c, s]
        if y >= 0 and alive[y] and not grid[y] and mark[y] != stamp:
            mark[y] = stamp
            if n_par < parents.shape[0]:
                parents[n_par] = y
                n_par += 1
    return n_par


@njit(cache=True, inline="always")
def _live(grid, cc, col, ks):  # type: ignore[no-untyped-def]
    """The candidates of column ``col`` alive in ``grid``, in ``ks``; how many."""
    nk = 0
    for s in range(cc.shape[1]):
        k = cc[col, s]
        if k >= 0 and grid[k]:
            ks[nk] = k
            nk += 1
    return nk


@njit(cache=True)
def multiple_offshoots(grid, alive, cc, corder, ncellcols, size, work, mwork):  # type: ignore[no-untyped-def]
    """The removals SE's static cell and region forcing chains make on a dynamic
    net's marks ``grid`` (SE's "(+ Multiple Forcing Chains)", nesting level 3),
    each with its hint, in :func:`chain_offshoots`'s form (``work``).

    The hints are those of :func:`best_net_conclusion` for static nets (base
    8.0), from every cell of two candidates or more: a literal that the
    static net of every candidate of the cell, or of a unit-digit whose first
    candidate is the cell's, reaches.
    They are taken in SE's order: least value, then least complexity, then as
    SE generates them (cell by cell; a cell's regions, digit by digit, before
    its cell chains). A hint counts only when it exists because of the net:
    its parents are the net's removals from its source cell or unit, and from
    the columns that give the strong links of each branch's path; a hint
    without any is left out, and each removal is kept once, by the first hint
    that makes it. ``mwork = (anc, par, reached, nreached, queue_t, queue_f,
    hint_kind, hint_col, hint_lit, ks)`` (:func:`chain_work_arrays`): hint
    ``h``'s kind (:data:`CELL`, :data:`REGION`), column and conclusion are
    at ``work[8][h]`` of those arrays, its branches' paths in ``par``.
    Returns ``(removals, hints)``.
    """
    out_q, out_h, hint_start, parents, hint_comp, _hint_id, keys, mark, _hint_src = work
    anc, par, reached, nreached, queue_t, queue_f, hint_kind, hint_col, hint_lit, ks = mwork
    ncand = grid.shape[0]
    live = column_members(grid, cc)
    sizes = live[1]
    weak = weak_table(grid, live, corder, ncellcols, True)
    strong = strong_table(grid, live, corder, ncellcols, True, True)
    for k in range(ncand):
        nreached[k] = 0
        if grid[k]:
            nreached[k], _ = _static_net(
                weak, strong, k, anc[k], par[k], reached[k], queue_t, queue_f
            )
    nh = 0
    nets = (anc, reached, nreached)
    found = (keys, hint_kind, hint_col, hint_lit)
    ncell = ncand // size
    for cell in range(ncell):
        # inside a net every cell of two or more candidates starts chains (a
        # bivalue cell too: with three or more only, a level-3 step of a
        # calibration puzzle came out 11.2 for SE's 11.1)
        if _cell_count(grid, cell, size) < 2:
            continue
        # its regions, digit by digit, box before row before column (corder's order) ...
        for d in range(size):
            k0 = cell * size + d
            if not grid[k0]:
                continue
            for t in range(1, corder.shape[1]):
                col = corder[k0, t]
                if col < 0:
                    break
                nk = _live(grid, cc, col, ks)
                if nk >= 2 and ks[0] == k0:
                    nh = _multiple_hints(nets, ks, nk, col, REGION, found, nh)
        # ... then its cell chains
        col = corder[cell * size, 0]
        nh = _multiple_hints(nets, ks, _live(grid, cc, col, ks), col, CELL, found, nh)
    order = _hint_order(keys, nh, mark, hint_start)
    stamp = n_par = nq = hints = 0
    for oi in range(nh):
        h = order[oi]
        col = hint_col[h]
        lit = hint_lit[h]
        kind = hint_kind[h]
        stamp += 1
        nk = _live(grid, cc, col, ks)
        # the premises' cause: the cell's or the unit's removed candidates
        n_par = _removed_parents(grid, alive, cc, col, stamp, mark, parents, n_par)
        ident = np.int64(kind) * np.int64(1000003) + np.int64(col) * np.int64(7919) + np.int64(lit)
        for b in range(nk):
            x = lit
            row_par = par[ks[b]]
            while x >= 0:
                ident = ident * np.int64(1099511628211) + np.int64(x + 1)
                px = row_par[x] if x != ks[b] else -1
                if x < ncand and px >= 0:
                    c = _link_column(cc, corder, ncellcols, sizes, px - ncand, x, True, True, True)
                    if c >= 0:
                        n_par = _removed_parents(grid, alive, cc, c, stamp, mark, parents, n_par)
                x = px
        if n_par == hint_start[hints]:
            continue  # the hint needs nothing the net removed
        nq, kept = _conclude(grid, lit % ncand, lit < ncand, size, out_q, out_h, nq, hints)
        if kept == 0:
            n_par = hint_start[hints]
            continue
        comp = (keys[h] >> 32) & ((np.int64(1) << 20) - 1)
        hints = _keep_hint(work, hints, comp, ident, h, n_par)
        if hints >= hint_comp.shape[0]:
            break
    # leave the nets' rows zero for the next call
    for k in range(ncand):
        for i in range(nreached[k]):
            anc[k, reached[k, i]] = 0
    return nq, hints


@njit(cache=True)
def _multiple_hints(nets, ks, nk, col, kind, found, nh):  # type: ignore[no-untyped-def]
    """Append to ``found = (keys, kinds, columns, literals)`` the hints of the
    column ``col`` whose live candidates are ``ks[:nk]``: each literal every
    branch's static net (``nets = (anc, reached, nreached)``) reaches, its
    complexity the branches' ancestor counts added, keyed by value, then
    complexity, then the order made. Returns the new hint count."""
    anc, reached, nreached = nets
    keys, hint_kind, hint_col, hint_lit = found
    cap = keys.shape[0]
    if nk < 2:
        return nh
    fewest = ks[0]
    for q in range(1, nk):
        if nreached[ks[q]] < nreached[fewest]:
            fewest = ks[q]
    # the first branch's order of reaching, true literals then false ones (SE's sets)
    first = ks[0]
    ncand = anc.shape[1] // 2
    for half in range(2):
        for i in range(nreached[first]):
            lit = reached[first, i]
            if (lit < ncand) != (half == 0):
                continue
            total = 0
            for q in range(nk):
                a = anc[ks[q], lit]
                if a == 0:
                    total = -1
                    break
                total += a
            if total <= 0 or contains(ks, nk, lit) or nh >= cap:
                continue
            tenths = 80 + length_tenths(total)
            # SE sorts its hints by value, complexity, then kind (cell 5 before
            # region 6); a stable sort keeps the order made among the rest
            keys[nh] = (
                (np.int64(tenths) << 52)
                | (np.int64(min(total, (1 << 20) - 1)) << 32)
                | (np.int64(kind) << 28)
                | np.int64(nh)
            )
            hint_kind[nh] = kind
            hint_col[nh] = col
            hint_lit[nh] = lit
            nh += 1
    return nh


def chain_work_arrays(ncand: int, see: np.ndarray, level: int = 2):  # type: ignore[no-untyped-def]
    """The work arrays of the nested chains, for ``ncand`` candidates: those
    :func:`chain_offshoots` and :func:`multiple_offshoots` share, those of
    the latter's static nets (full size from ``level`` 3 only), and the
    loops' (``see``: which cells see each other, room for ``ncand`` loops)."""
    nh = 64 * ncand
    nets = ncand if level >= 3 else 0
    return (
        (
            np.empty(ncand, dtype=np.int32),
            np.empty(ncand, dtype=np.int32),
            np.empty(nh + 1, dtype=np.int32),
            np.empty(64 * ncand, dtype=np.int32),
            np.empty(nh, dtype=np.int64),
            np.empty(nh, dtype=np.int64),
            np.empty(nh, dtype=np.int64),
            np.zeros(ncand, dtype=np.int32),
            np.empty(nh, dtype=np.int32),
        ),
        (
            np.zeros((nets, 2 * ncand), dtype=np.int32),
            np.zeros((nets, 2 * ncand), dtype=np.int32),
            np.zeros((nets, 2 * ncand), dtype=np.int32),
            np.zeros(nets, dtype=np.int32),
            np.empty(2 * ncand + 1, dtype=np.int32),
            np.empty(2 * ncand + 1, dtype=np.int32),
            np.empty(nh, dtype=np.int32),
            np.empty(nh, dtype=np.int32),
            np.empty(nh, dtype=np.int32),
            np.empty(ncand, dtype=np.int32),
        ),
        (see, *loop_work_arrays(ncand, ncand)),
    )


@njit(cache=True)
def _queues(alive, sizes0, kk):  # type: ignore[no-untyped-def]
    """A dynamic net's work arrays: its two queues, the literals one removal
    forces and their columns (``kk`` columns a candidate at most), and its own
    copies of the marks and their columns' sizes."""
    ncand = alive.shape[0]
    return (
        np.empty(ncand + 1, dtype=np.int32),
        np.empty(ncand + 1, dtype=np.int32),
        np.empty(kk, dtype=np.int32),
        np.empty(kk, dtype=np.int32),
        alive.copy(),
        sizes0.copy(),
    )


@njit(cache=True, inline="always")
def _record(rec_lit, lit_rec, queue, tail, nrec, lit):  # type: ignore[no-untyped-def]
    """Literal ``lit`` becomes record ``nrec``, queued at ``tail``: the tail after it."""
    rec_lit[nrec] = lit
    lit_rec[lit] = nrec
    queue[tail] = nrec
    return tail + 1


@njit(cache=True, inline="always")
def _premise(rec_lit, lit_rec, queue_true, queue_false, lit0, ncand):  # type: ignore[no-untyped-def]
    """A net's first record, premise ``lit0``, queued: the queues' tails
    ``(true, false)`` after it."""
    if lit0 < ncand:
        return _record(rec_lit, lit_rec, queue_true, 0, 0, lit0), 0
    return 0, _record(rec_lit, lit_rec, queue_false, 0, 0, lit0)


@njit(cache=True, inline="always")
def _falsified(  # type: ignore[no-untyped-def]
    r, rec_lit, ncand, grid, live, corder, ncellcols, sizes, y_links, forced, forced_col
):
    """Record ``r`` ("p false"): ``p`` and how many literals it forces true
    (:func:`strong_inferences` over the net's marks, into ``forced`` and
    ``forced_col``)."""
    p = rec_lit[r] - ncand
    nf = strong_inferences(
        grid, live, corder, ncellcols, sizes, True, y_links, p, forced, forced_col
    )
    return p, nf


@njit(cache=True, inline="always")
def _leave(grid, sizes, corder, p):  # type: ignore[no-untyped-def]
    """Candidate ``p`` leaves a dynamic net's marks (``grid``, its columns' ``sizes``)."""
    grid[p] = 0
    for t in range(corder.shape[1]):
        if corder[p, t] < 0:
            break
        sizes[corder[p, t]] -= 1


@njit(cache=True, inline="always")
def _push(walk, npar, nrec, roots, nroots, queue, tail, lit):  # type: ignore[no-untyped-def]
    """Literal ``lit`` becomes record ``nrec`` of a walked net, queued at
    ``tail``, its parents ``roots[:nroots]`` (``walk = (rec_lit, lit_rec,
    par_start, par_end, parents)``): the parent lists' and the queue's ends
    after it."""
    rec_lit, lit_rec, par_start, par_end, parents = walk
    par_start[nrec] = npar
    for j in range(nroots):
        parents[npar + j] = roots[j]
    par_end[nrec] = npar + nroots
    return npar + nroots, _record(rec_lit, lit_rec, queue, tail, nrec, lit)


@njit(cache=True, inline="always")
def _ancestry(walk, roots, nroots, stamp, token, stack):  # type: ignore[no-untyped-def]
    """How many records ``roots[:nroots]`` and their ancestors are, each once
    (a walk up the parent lists, ``stamp`` marking the records met with
    ``token``; ``stack`` holds those met whose parents are still to read;
    ``walk`` as in :func:`_push`)."""
    par_start, par_end, parents = walk[2], walk[3], walk[4]
    met = 0
    for j in range(nroots):
        if stamp[roots[j]] != token:
            stamp[roots[j]] = token
            stack[met] = roots[j]
            met += 1
    done = 0
    while done < met:
        x = stack[done]
        done += 1
        for m in range(par_start[x], par_end[x]):
            if stamp[parents[m]] != token:
                stamp[parents[m]] = token
                stack[met] = parents[m]
                met += 1
    return met


@njit(cache=True)
def _dynamic_contradictions(  # type: ignore[no-untyped-def]
    alive, cc, corder, ncellcols, live, weak, premises, y_links, out_absurd
):
    """:func:`implication_nets` of dynamic nets when only the contradictions are
    read (no rows, nothing inside the nets), same arguments and
    ``out_absurd``: the same literals reached by the same first parents, but
    each record keeps its parents (the literal it came from and, for a
    literal forced true, the earlier removals from its column) instead of its
    ancestor set, and the ancestors are walked only at the contradiction. A
    net that ends with none, most of a quick test's time, then copies and
    merges no ancestor sets (:func:`~csp_sudoku.human.se_order.solved_within`:
    the same verdicts in about nine tenths of the time, measured with
    ``benchmarks/bench_quick_solution.py --versions walk``)."""
    w_start, w_targets = weak
    members, sizes0 = live
    ncand = alive.shape[0]
    kk = corder.shape[1]
    nrows = 2 * ncand + 1
    rec_lit = np.empty(nrows, dtype=np.int32)
    lit_rec = np.full(2 * ncand, -1, dtype=np.int32)
    par_start = np.empty(nrows, dtype=np.int32)
    par_end = np.empty(nrows, dtype=np.int32)
    parents = np.empty(nrows * members.shape[1], dtype=np.int32)
    walk = (rec_lit, lit_rec, par_start, par_end, parents)
    stamp = np.zeros(nrows, dtype=np.int64)
    token = 0
    stack = np.empty(nrows, dtype=np.int32)
    roots = np.empty(members.shape[1], dtype=np.int32)
    queue_true, queue_false, forced, forced_col, grid, sizes = _queues(alive, sizes0, kk)
    for i in range(premises.shape[0]):
        if i > 0:  # the previous net removed candidates: start again from the marks
            copy_head(grid, alive, ncand)
            copy_head(sizes, sizes0, sizes0.shape[0])
        head_t = head_f = 0
        absurd = -1
        tail_t, tail_f = _premise(rec_lit, lit_rec, queue_true, queue_false, premises[i], ncand)
        par_start[0] = par_end[0] = 0
        npar = 0
        nrec = 1
        while absurd < 0 and (head_t < tail_t or head_f < tail_f):
            if head_t < tail_t:  # "p true" makes the live candidates it sees false
                r = queue_true[head_t]
                head_t += 1
                m, stop = w_start[rec_lit[r]], w_start[rec_lit[r] + 1]
                while m < stop:
                    q = w_targets[m]
                    m += 1
                    if not grid[q]:
                        continue
                    if lit_rec[q] >= 0:  # q true, and now false: both sides' ancestors
                        roots[0] = lit_rec[q]
                        token += 1
                        absurd = _ancestry(walk, roots, 1, stamp, token, stack)
                        roots[0] = r
                        token += 1
                        absurd += 1 + _ancestry(walk, roots, 1, stamp, token, stack)
                        break
                    if lit_rec[ncand + q] < 0:  # q false, its parent r
                        roots[0] = r
                        npar, tail_f = _push(
                            walk, npar, nrec, roots, 1, queue_false, tail_f, ncand + q
                        )
                        nrec += 1
            else:
                # "p false" forces the partner in each column it leaves with two, then leaves
                r = queue_false[head_f]
                head_f += 1
                p, nf = _falsified(
                    r,
                    rec_lit,
                    ncand,
                    grid,
                    live,
                    corder,
                    ncellcols,
                    sizes,
                    y_links,
                    forced,
                    forced_col,
                )
                for m in range(nf):
                    q = forced[m]
                    if lit_rec[q] >= 0 and lit_rec[ncand + q] < 0:
                        continue  # true already
                    # its parents: p's record and the column's earlier removals (read before p leaves)
                    c = forced_col[m]
                    roots[0] = r
                    nroots = 1
                    for s in range(sizes0[c]):
                        y = members[c, s]
                        if y != q and y != p and not grid[y]:
                            roots[nroots] = lit_rec[ncand + y]
                            nroots += 1
                    if lit_rec[ncand + q] >= 0:  # q false, and now true
                        token += 1
                        absurd = 1 + _ancestry(walk, roots, nroots, stamp, token, stack)
                        roots[0] = lit_rec[ncand + q]
                        token += 1
                        absurd += _ancestry(walk, roots, 1, stamp, token, stack)
                        break
                    npar, tail_t = _push(walk, npar, nrec, roots, nroots, queue_true, tail_t, q)
                    nrec += 1
                _leave(grid, sizes, corder, p)
        out_absurd[i] = absurd
        for n in range(nrec):
            lit_rec[rec_lit[n]] = -1
    return 0


@njit(cache=True, nogil=True)  # the nets of a step's parts may run in threads at once
def implication_nets(  # type: ignore[no-untyped-def]
    alive, cc, corder, ncellcols, premises, dynamic, y_links, out, out_absurd, plus, walk=True
):
    """The implication net of each premise literal, with its ancestor counts.

    ``out = (out_anc, out_order, out_reached, out_nreached)``. For premise
    ``i``, ``out_anc[i, lit]`` is the number of ancestors of every literal the
    net reaches (0 where it does not; the premise counts 1) and
    ``out_absurd[i]`` the complexity of the contradiction it meets (a literal
    reached both true and false: the two ancestor counts added), -1 when the
    net ends without one. A net stops at its first contradiction, so its
    counts are then partial. ``out_order[i, lit]`` is the order in which the
    net reached the literal (0 for the premise and where it is not reached),
    and ``out_reached[i, :out_nreached[i]]`` the literals it reached, in that
    order. The rows must hold zeros but where ``out_reached`` says (fresh
    zeros and ``out_nreached`` 0, or this function's last output): each row
    is cleared where its last net reached (:func:`_clear_row`), so the caller
    can keep the arrays from call to call. With no rows in ``out_anc`` only
    ``out_absurd`` is written (a contradiction's complexity needs no other
    count): for dynamic nets with nothing inside them that is
    :func:`_dynamic_contradictions` (``walk`` False: these ancestor sets
    instead, the same outputs; for the tests and the benchmark).

    True literals are expanded before false ones, each literal once, by its
    first parent. ``dynamic`` removes every candidate made false when it is
    expanded, so that a column the net leaves with two candidates forces the
    other (its ancestors then include the earlier removals from the column);
    otherwise the marks stay as they were (static nets). ``y_links`` False
    leaves out the cell columns (Nishio nets: one digit).

    ``plus`` is ``None`` or, for SE's dynamic forcing chains (+) and the
    nested levels above them, the tuple ``(vals, units, ukind, member, cross,
    techniques, work, level, chain_work, nested)``: the first seven are the
    arguments of :func:`csp_sudoku._kernels.se_offshoots.offshoots`,
    ``chain_work`` those of :func:`chain_offshoots` and
    :func:`multiple_offshoots` (:func:`chain_work_arrays`). Whenever a
    dynamic net has nothing left to expand, the removals the basic techniques
    make on its marks become false literals (their parents: the removals the
    pattern needed) and the net goes on; at ``level`` 2 (SE's "(+ Forcing
    Chains)"), when they find nothing, so do the removals of the static
    forcing chains on the marks, and at ``level`` 3 (SE's "(+ Multiple
    Forcing Chains)"), when those find nothing either, those of the static
    cell and region forcing chains; each such chain's own complexity counts
    once in the complexity of every literal it leads to. ``plus[9]``
    receives the nested chains of each net (see :func:`_nested_out`).
    """
    if not dynamic and plus is None:
        _static_nets(alive, cc, corder, ncellcols, premises, y_links, out, out_absurd)
        return 0
    out_anc, out_order, out_reached, out_nreached = out
    ncand = alive.shape[0]
    nlit = 2 * ncand
    kk = corder.shape[1]
    live = column_members(alive, cc)
    members, sizes0 = live
    # the weak inferences over ``grid`` are those over the marks that ``grid`` keeps, in order
    w_start, w_targets = weak_table(alive, live, corder, ncellcols, y_links)
    if walk and plus is None and out_anc.shape[0] == 0:
        return _dynamic_contradictions(
            alive, cc, corder, ncellcols, live, (w_start, w_targets), premises, y_links, out_absurd
        )
    # a record's ancestors are a bitset over the live literals only: bit slot[lit]
    slot = np.empty(nlit, dtype=np.int32)
    nlive = 0
    for k in range(ncand):
        if alive[k]:
            slot[k] = nlive
            nlive += 1
    for k in range(ncand):
        slot[ncand + k] = nlive + slot[k]
    nrows = 2 * nlive + 2  # each live literal recorded once at most, and the scratch row
    lw = (2 * nlive + 63) // 64 + 1
    nw = _nest_words(plus)
    bits = np.zeros((nrows, lw + nw), dtype=np.int64)
    weights = np.zeros((2, 64 * nw), dtype=np.int64)
    nest = np.zeros(1, dtype=np.int64)
    scratch = nrows - 1  # a row for a literal that is not recorded
    rec_lit = np.empty(nrows, dtype=np.int32)
    lit_rec = np.full(nlit, -1, dtype=np.int32)
    net = (bits, weights, nest, slot, rec_lit, lit_rec)
    queue_true, queue_false, forced, forced_col, grid, sizes = _queues(alive, sizes0, kk)
    for i in range(premises.shape[0]):
        if dynamic and i > 0:  # the previous net removed candidates: start again from the marks
            copy_head(grid, alive, alive.shape[0])
            copy_head(sizes, sizes0, sizes0.shape[0])
        head_t = head_f = 0
        absurd = -1
        nest[0] = 0
        if nw > 0:  # no chain of the last net left in the table: a net's output is its own
            weights[:, :] = 0
        _begin_net(plus)
        lit0 = premises[i]
        for w in range(bits.shape[1]):
            bits[0, w] = 0
        _row_add(bits, 0, slot[lit0])
        tail_t, tail_f = _premise(rec_lit, lit_rec, queue_true, queue_false, lit0, ncand)
        nrec = 1
        while absurd < 0:
            if head_t == tail_t and head_f == tail_f:
                if plus is None or not dynamic:
                    break
                added, absurd = _offshoot_literals(
                    grid, alive, cc, corder, ncellcols, plus, net, lw, nrec, queue_false, tail_f
                )
                if added == 0:
                    break
                nrec += added
                tail_f += added
                continue
            if head_t < tail_t:
                r = queue_true[head_t]
                head_t += 1
                p = rec_lit[r]
                for m in range(w_start[p], w_start[p + 1]):
                    q = w_targets[m]
                    if not grid[q]:
                        continue
                    if lit_rec[q] >= 0:  # q true, and now false
                        _row_copy(bits, scratch, r)
                        _row_add(bits, scratch, slot[ncand + q])
                        absurd = _pair_count(bits, lit_rec[q], scratch, lw, weights)
                        break
                    if lit_rec[ncand + q] < 0:
                        _row_copy(bits, nrec, r)
                        _row_add(bits, nrec, slot[ncand + q])
                        tail_f = _record(rec_lit, lit_rec, queue_false, tail_f, nrec, ncand + q)
                        nrec += 1
                continue
            r = queue_false[head_f]
            head_f += 1
            p, nf = _falsified(
                r, rec_lit, ncand, grid, live, corder, ncellcols, sizes, y_links, forced, forced_col
            )
            # the removals that left the column with two are read before p leaves the grid
            for m in range(nf):
                q = forced[m]
                c = forced_col[m]
                new = lit_rec[q] < 0 and lit_rec[ncand + q] < 0
                row = nrec if new else scratch
                _row_copy(bits, row, r)
                for s in range(sizes0[c]):  # the column's candidates of the marks
                    y = members[c, s]
                    if y != q and y != p and not grid[y]:
                        _row_merge(bits, row, lit_rec[ncand + y])
                _row_add(bits, row, slot[q])
                if lit_rec[ncand + q] >= 0:  # q false, and now true
                    absurd = _pair_count(bits, row, lit_rec[ncand + q], lw, weights)
                    break
                if new:
                    tail_t = _record(rec_lit, lit_rec, queue_true, tail_t, row, q)
                    nrec += 1
            if dynamic:
                _leave(grid, sizes, corder, p)
        out_absurd[i] = absurd
        if out_anc.shape[0] > 0:  # no rows: the caller reads the contradictions only
            _clear_row(out_anc, out_order, out_reached, out_nreached, i)
            for n in range(nrec):
                # with nesting, the literals only: best_net_conclusion adds each
                # nested chain of a hint's branches once (_nested_out)
                out_anc[i, rec_lit[n]] = _row_count(bits[:, :lw], n, lw, weights)
                out_order[i, rec_lit[n]] = n
                out_reached[i, n] = rec_lit[n]
            out_nreached[i] = nrec
            if nw > 0:
                _nested_out(plus, i, bits, lw, weights, rec_lit, nrec)
        for n in range(nrec):
            lit_rec[rec_lit[n]] = -1
    return 0


@njit(cache=True, inline="always")
def _fewest_branch(nreached, rows, ks, nk):  # type: ignore[no-untyped-def]
    """The net, among those of the branches ``ks[:nk]`` (net ``rows[k]`` of
    candidate ``k``), that reached the fewest literals: a literal every branch
    reaches is among its."""
    fewest = rows[ks[0]]
    for q in range(1, nk):
        if nreached[rows[ks[q]]] < nreached[fewest]:
            fewest = rows[ks[q]]
    return fewest


@njit(cache=True, inline="always")
def _branches_total(anc, rows, ks, nk, lit):  # type: ignore[no-untyped-def]
    """The ancestor counts of ``lit`` in the nets of the branches ``ks[:nk]``
    added, -1 when one does not reach it (a loop that breaks, one return: an
    inlined helper with an early return compiled seven times slower)."""
    total = 0
    for q in range(nk):
        a = anc[rows[ks[q]], lit]
        if a == 0:
            total = -1
            break
        total += a
    return total


@njit(cache=True)
def _forced(alive, cc, nets, row, most_complex, conc, above):  # type: ignore[no-untyped-def]
    """The conclusions of SE's dynamic cell and region forcing chains worth at most
    ``most_complex``: each literal that the net of every live candidate of a
    cell or unit-digit column reaches (``nets = (anc, reached, nreached)``,
    ``row[k]`` the row of "k true"), the branches' ancestor counts added at
    most ``most_complex``, written to ``conc``; returns how many (a literal
    met in two columns is written twice). ``above[0]`` is lowered to the least
    complexity of those above ``most_complex``."""
    anc, reached, nreached = nets
    width = cc.shape[1]
    ks = np.empty(width, dtype=np.int32)
    nc = 0
    for col in range(cc.shape[0]):
        nk = _live(alive, cc, col, ks)
        if nk < 2:
            continue
        fewest = _fewest_branch(nreached, row, ks, nk)
        for i in range(nreached[fewest]):
            lit = reached[fewest, i]
            total = _branches_total(anc, row, ks, nk, lit)
            if total <= 0:
                continue
            if total <= most_complex:
                if not contains(ks, nk, lit) and nc < conc.shape[0]:
                    conc[nc] = lit
                    nc += 1
            elif total < above[0] and not contains(ks, nk, lit):
                above[0] = total
    return nc


@njit(cache=True)
def _tenth_top(complexity):  # type: ignore[no-untyped-def]
    """The largest complexity of the length bonus of ``complexity``."""
    t = length_tenths(complexity)
    if t >= LENGTH_CEILINGS.shape[0]:
        return np.int32(2**31 - 1)
    return LENGTH_CEILINGS[t] + 2


@njit(cache=True)
def quick_settle(  # type: ignore[no-untyped-def]
    masks, values,  # the marks
    peers, npeers, units, cc, corder, ncellcols,  # the geometry
    true, most_complex, chunk, out, forcing, walk, cap, level,  # the search
):  # fmt: skip
    """The quick test's search (:func:`csp_sudoku.human.se_order.solved_within`)
    in one compiled call: True when singles and dynamic contradiction nets of
    complexity at most ``most_complex`` solve the marks (``masks``, ``values``;
    changed in place), False when a whole round of the live candidates finds
    none or the marks contradict.

    Rounds of singles; then the live candidates, ``chunk`` at a time going
    round the grid in candidate order, each assumed placed
    (:func:`implication_nets`, dynamic, contradictions only: ``out`` holds its
    four count arrays with no rows); every candidate of the first chunk that
    has any whose net contradicts within ``most_complex`` is removed, and
    singles again. ``true`` marks candidates whose nets are not built (the
    solution's: they cannot contradict); the chunks are the same with or
    without them. The loop was Python's around the same two kernels: the
    same verdicts, in one call instead of one per chunk.

    ``walk``: the contradictions by :func:`_dynamic_contradictions` (False:
    by ancestor sets, the same verdicts; for the benchmark).

    ``forcing`` (the four count arrays of :func:`implication_nets` with a row
    for every candidate, or with no rows for none of this): when a round finds
    no contradiction, every live candidate is netted with its counts and
    every conclusion of a dynamic cell or region forcing chain within
    ``most_complex`` (:func:`_forced`) is applied at once, then the rounds go
    on; False only when that finds nothing either. SE's hardest step at ER
    9.0-9.3 is often such a chain, which no contradiction from one premise
    finds.

    ``cap`` above ``most_complex`` (with ``forcing`` only): where that finds
    nothing either, the limit rises to the tenth of the least complexity of a
    contradiction or forcing chain those nets found above it, if it is at most
    ``cap``, and what the new limit admits is applied; ``level[0]`` is the
    limit the search ended with (it solved the marks within it).
    """
    level[0] = most_complex
    ncells = masks.shape[0]
    ncand = true.shape[0]
    n = ncand // ncells
    alive = np.zeros(ncand, dtype=np.int8)
    live = np.empty(ncand, dtype=np.int32)
    prem = np.empty(ncand, dtype=np.int32)
    absurd = np.empty(ncand, dtype=np.int32)
    row = np.empty(ncand, dtype=np.int32)
    conc = np.empty(4 * ncand, dtype=np.int32)
    cursor = 0
    idle = 0
    while True:
        _rounds, status = singles_rounds(masks, values, peers, npeers, units)
        if status == SOLVED:
            return True
        if status != STUCK:
            return False
        nlive = 0
        for c in range(ncells):
            for d in range(n):
                k = c * n + d
                if values[c] == 0 and (masks[c] >> d) & 1:
                    alive[k] = 1
                    live[nlive] = k
                    nlive += 1
                else:
                    alive[k] = 0
        nfound = 0
        while True:
            first = 0
            while first < nlive and live[first] < cursor:
                first += 1
            if first >= nlive:
                first = 0  # round the grid again
            end = min(first + chunk, nlive)
            cursor = live[end - 1] + 1
            np_ = 0
            for k in range(first, end):
                if not true[live[k]]:
                    prem[np_] = live[k]
                    np_ += 1
            if np_ > 0:
                implication_nets(
                    alive,
                    cc,
                    corder,
                    ncellcols,
                    prem[:np_],
                    True,
                    True,
                    out,
                    absurd[:np_],
                    None,
                    walk,
                )
                for k in range(np_):
                    if absurd[k] >= 0 and absurd[k] <= most_complex:
                        prem[nfound] = prem[k]
                        nfound += 1
                if nfound > 0:
                    break
            idle += end - first
            if idle >= nlive:
                break  # a whole round of the live candidates found none
        idle = 0
        if nfound == 0:
            if forcing[0].shape[0] == 0:
                return False
            for k in range(nlive):
                prem[k] = live[k]
                row[live[k]] = k
            implication_nets(
                alive,
                cc,
                corder,
                ncellcols,
                prem[:nlive],
                True,
                True,
                forcing,
                absurd[:nlive],
                None,
            )
            above = np.full(1, min(cap, 2**31 - 2) + 1, dtype=np.int32)
            nets = (forcing[0], forcing[2], forcing[3])
            nc = _forced(alive, cc, nets, row, most_complex, conc, above)
            if nc == 0:
                if cap <= most_complex:
                    return False
                # no chain within the limit: raise it to the least one found, if any
                least = above[0]
                for k in range(nlive):
                    if most_complex < absurd[k] < least:
                        least = absurd[k]
                if least > cap:
                    return False
                most_complex = _tenth_top(least)
                level[0] = most_complex
                removed = False
                for k in range(nlive):
                    if 0 <= absurd[k] <= most_complex:
                        c = prem[k] // n
                        masks[c] &= ~(np.int64(1) << (prem[k] % n))
                        removed = True
                if removed:
                    continue
                nc = _forced(alive, cc, nets, row, most_complex, conc, above)
            for k in range(nc):
                lit = conc[k]
                c = (lit % ncand) // n
                if values[c] == 0:
                    bit = np.int64(1) << ((lit % ncand) % n)
                    masks[c] = (masks[c] & bit) if lit < ncand else (masks[c] & ~bit)
            continue
        for k in range(nfound):
            c = prem[k] // n
            if values[c] == 0:
                masks[c] &= ~(np.int64(1) << (prem[k] % n))


@njit(cache=True, inline="always")
def _offer(best, tenths, comp, kind, pos, target, col, sub):  # type: ignore[no-untyped-def]
    """Keep the hint in ``best`` when it is the easiest so far: least value, then
    least complexity, then lowest kind, then lowest position, then lowest rank
    among one premise set's conclusions (:func:`_reach_rank`)."""
    if best[0] >= 0:
        if tenths != best[0]:
            if tenths > best[0]:
                return
        elif comp != best[1]:
            if comp > best[1]:
                return
        elif kind != best[2]:
            if kind > best[2]:
                return
        elif pos != best[3]:
            if pos > best[3]:
                return
        elif sub >= best[6]:
            return
    best[0] = tenths
    best[1] = comp
    best[2] = kind
    best[3] = pos
    best[4] = target
    best[5] = col
    best[6] = sub


@njit(cache=True, inline="always")
def _reach_rank(order, row, lit, ncand):  # type: ignore[no-untyped-def]
    """Where SE meets conclusion ``lit`` among the hints of one premise set and
    equal value: the true literals first, then the false ones, each in the
    order the first branch's net (row ``row``) reached them. (Among premise
    sets of one first candidate, the box's come before the row's and the
    column's, the order of ``col_seq``: the caller ranks by that first.)"""
    return (4 * ncand if lit >= ncand else 0) + order[row, lit]


@njit(cache=True)
def _union_weight(nest_bits, nest_tab, rows, nrows, lit, ids):  # type: ignore[no-untyped-def]
    """The complexity of the nested chains among the ancestors of ``lit`` in the
    nets ``rows[:nrows]``, each chain (by identity) counted once."""
    n = 0
    total = 0
    for a in range(nrows):
        r = rows[a]
        for w in range(nest_bits.shape[2]):
            word = nest_bits[r, lit, w]
            b = 0
            while word != 0:
                if word & 1:
                    ident = nest_tab[r, 1, 64 * w + b]
                    if not contains(ids, n, ident):
                        if n < ids.shape[0]:
                            ids[n] = ident
                            n += 1
                        total += nest_tab[r, 0, 64 * w + b]
                word = (word >> 1) & np.int64(0x7FFFFFFFFFFFFFFF)
                b += 1
    return total


@njit(cache=True)
def best_net_conclusion(  # type: ignore[no-untyped-def]
    alive,
    cc,
    col_seq,
    ncellcols,
    prem,
    anc,
    absurd,
    row_true,
    row_false,
    dynamic,
    base,
    best,
    nested,
    order,
    reached,
    nreached,
):
    """The easiest conclusion read off the premises' nets (:func:`implication_nets`).

    * **contradiction** (dynamic nets only): a premise whose net meets a
      contradiction is false;
    * **cell** and **region** forcing chains: a literal every candidate of a
      column implies is true (for static nets only columns whose first
      candidate's cell holds three or more);
    * **double** forcing chains (dynamic nets, cells of three or more): a
      literal implied by both "k true" and "k false" is true.

    Each is worth ``base`` tenths plus the length bonus of its complexity (the
    branches' ancestor counts added). ``row_true[k]``/``row_false[k]`` are the
    rows of ``anc`` of the premises "k true" and "k false". ``best`` receives
    ``(tenths, complexity, kind, position, conclusion literal, column, rank)``
    of the easiest (:func:`_offer`, ``order`` the nets' reach order of
    :func:`implication_nets` for the rank among equals; kinds :data:`DOUBLE`, :data:`CELL`,
    :data:`REGION`, :data:`CONTRADICTION`; the column of a cell or region,
    else -1); ``best[0]`` stays -1 when there is none. ``nested``: the nets'
    nested chains (``plus[9]`` of :func:`implication_nets`, empty arrays
    without nesting), each counted once in a hint of several branches, as
    SE counts them. ``reached[r, :nreached[r]]``: the literals net ``r``
    reached (:func:`implication_nets`). Columns are visited in the order ``col_seq`` (cells, then
    boxes, rows, columns): among regions of one digit starting at the same
    candidate and equal otherwise, the first met is kept, so a box before a
    line, as SukakuExplainer chose ("1 in block" where a row of the same
    first cell gave a hint of the same value and complexity).
    """
    ncand = alive.shape[0]
    width = cc.shape[1]
    best[0] = -1
    ks = np.empty(width, dtype=np.int32)
    rows = np.empty(width, dtype=np.int64)
    nest_bits, nest_tab = nested
    ids = np.empty(width * nest_tab.shape[2] + 1, dtype=np.int64)
    # a conclusion needs every branch to reach it, so the literals that the branch
    # reaching the fewest reached (``reached``, in any order: a hint's rank among
    # equals comes from ``order``) are the only ones to look at
    if dynamic:
        for i in range(prem.shape[0]):
            if absurd[i] < 0:
                continue
            lit = prem[i]
            k = lit % ncand
            negation = k + ncand if lit < ncand else k
            pos = 2 * k + (1 if lit >= ncand else 0)
            tenths = base + length_tenths(absurd[i])
            _offer(best, tenths, absurd[i], CONTRADICTION, pos, negation, -1, 0)
    for ci in range(col_seq.shape[0]):
        col = col_seq[ci]
        nk = _live(alive, cc, col, ks)
        if nk < 2:
            continue
        is_cell = col < ncellcols
        if not dynamic:
            if is_cell and nk < 3:
                continue
            if not is_cell:
                first_cell = ks[0] // width
                holds = 0
                for d in range(width):
                    holds += alive[first_cell * width + d]
                if holds < 3:
                    continue
        kind = CELL if is_cell else REGION
        fewest = _fewest_branch(nreached, row_true, ks, nk)
        for i in range(nreached[fewest]):
            lit = reached[fewest, i]
            # the ancestor counts of lit in the nets of every candidate of the column, added
            # (-1 when one does not reach it; a loop here, not an inlined helper: this is
            # the replay's hot loop, measured 3-5% slower through _branches_total)
            total = 0
            for q in range(nk):
                a = anc[row_true[ks[q]], lit]
                if a == 0:
                    total = -1
                    break
                total += a
            if total > 0 and not contains(ks, nk, lit):
                if nest_tab.shape[2] > 0:
                    for q in range(nk):
                        rows[q] = row_true[ks[q]]
                    total += _union_weight(nest_bits, nest_tab, rows, nk, lit, ids)
                sub = ci * 8 * ncand + _reach_rank(order, row_true[ks[0]], lit, ncand)
                _offer(best, base + length_tenths(total), total, kind, 2 * ks[0] + 1, lit, col, sub)
        if dynamic and is_cell and nk >= 3:
            for q in range(nk):
                k = ks[q]
                fewest = row_true[k]
                if nreached[row_false[k]] < nreached[fewest]:
                    fewest = row_false[k]
                for i in range(nreached[fewest]):
                    lit = reached[fewest, i]
                    a = anc[row_true[k], lit]
                    b = anc[row_false[k], lit]
                    if a > 0 and b > 0:
                        total = a + b
                        if nest_tab.shape[2] > 0:
                            rows[0] = row_true[k]
                            rows[1] = row_false[k]
                            total += _union_weight(nest_bits, nest_tab, rows, 2, lit, ids)
                        sub = ci * 8 * ncand + _reach_rank(order, row_true[k], lit, ncand)
                        _offer(
                            best, base + length_tenths(total), total, DOUBLE, 2 * k, lit, col, sub
                        )
    return 0


# --------------------------------------------------------------------------- one digit's templates


@njit(cache=True, inline="always")
def _mark_units(used, corder, ncellcols, size, k, value):  # type: ignore[no-untyped-def]
    """Set ``used`` to ``value`` at each unit of candidate ``k`` (its unit-digit
    columns in ``corder``); returns how many units."""
    n = 0
    for t in range(1, corder.shape[1]):
        col = corder[k, t]
        if col >= ncellcols:
            used[(col - ncellcols) // size] = value
            n += 1
    return n


@njit(cache=True)
def digit_templates(alive, values, size, d, units, rows, corder, ncellcols, budget, hits):  # type: ignore[no-untyped-def]
    """Count the templates of digit ``d`` on the marks ``alive`` (0-based; a
    template: one live candidate of ``d`` in every unit where ``d`` is not
    placed, none sharing a unit), and in ``hits[cell]`` how many hold each
    cell. ``units``: every unit's cells (-1 padded); ``rows``: which units
    are the rows (a place of ``d`` in each that needs one makes a
    template's skeleton; every other unit is checked to hold exactly one).
    ``corder``, ``ncellcols``: the candidates' columns (a unit-digit column
    ``c`` is unit ``(c - ncellcols) // size``). Returns the count, or -1
    when the search met more than ``budget`` partial templates (then
    ``hits`` means nothing).

    Why (SE's Nishio, 7.5, reasons on one digit: :func:`implication_nets`
    with X links only): its inferences hold in every template, so a net
    from "k true" meets a contradiction only where no template holds k,
    and from "k false" only where every template does. A digit whose
    candidates each lie in some templates but not in all has no Nishio
    chain, and most have none.
    """
    ncells = values.shape[0]
    nunits = units.shape[0]
    used = np.zeros(nunits, dtype=np.int8)  # 1: taken, or d placed there
    for c in range(ncells):
        hits[c] = 0
        if values[c] == d + 1:
            _mark_units(used, corder, ncellcols, size, c * size + d, 1)
    need = 0  # the units a template fills
    for u in range(nunits):
        need += 1 - used[u]
    todo = np.empty(rows.shape[0] + 1, dtype=np.int32)
    nt = 0
    for r in range(rows.shape[0]):
        if not used[rows[r]]:
            todo[nt] = r
            nt += 1
    if nt == 0:  # d placed everywhere: the empty template, if no unit lacks it
        return 1 if need == 0 else 0
    pos = np.zeros(nt, dtype=np.int32)
    cur = np.full(nt, -1, dtype=np.int32)
    covered = count = nodes = 0
    depth = 0
    while depth >= 0:
        c = cur[depth]
        if c >= 0:  # take back the cell placed at this depth
            covered -= _mark_units(used, corder, ncellcols, size, c * size + d, 0)
            cur[depth] = -1
        row = units[rows[todo[depth]]]
        c = -1
        while pos[depth] < row.shape[0] and c < 0:
            x = row[pos[depth]]
            pos[depth] += 1
            if x < 0 or values[x] != 0 or not alive[x * size + d]:
                continue
            k = x * size + d
            free = True
            for t in range(1, corder.shape[1]):
                col = corder[k, t]
                if col >= ncellcols and used[(col - ncellcols) // size]:
                    free = False
            if free:
                c = x
        if c < 0:
            depth -= 1
            continue
        nodes += 1
        if nodes > budget:
            return -1
        covered += _mark_units(used, corder, ncellcols, size, c * size + d, 1)
        cur[depth] = c
        if depth + 1 < nt:
            depth += 1
            pos[depth] = 0
            continue
        if covered == need:  # a place in every unit that needs one
            count += 1
            for i in range(nt):
                hits[cur[i]] += 1
    return count


def template_memo(ncells: int, size: int):  # type: ignore[no-untyped-def]
    """Empty memo arrays of :func:`digit_template_table` (no digit known)."""
    return (
        np.full((size, ncells), -1, dtype=np.int8),
        np.zeros(size, dtype=np.int64),
        np.zeros((size, ncells), dtype=np.int32),
    )


@njit(cache=True)
def digit_template_table(alive, values, size, units, rows, corder, ncellcols, budget, memo):  # type: ignore[no-untyped-def]
    """Every digit's templates on the marks ``alive``: ``memo = (marks, counts,
    hits)`` (:func:`template_memo`) receives digit ``d``'s count in
    ``counts[d]`` (-1 past ``budget``) and how many of them hold each cell
    in ``hits[d]`` (:func:`digit_templates`, same arguments). A digit's
    templates read only its own places (live or placed), which
    ``marks[d]`` keeps: a digit whose places are those of the memo is not
    searched again (a step of SE's path changes a digit or two)."""
    marks, counts, hits = memo
    ncells = values.shape[0]
    for d in range(size):
        same = True
        for c in range(ncells):
            m = 2 if values[c] == d + 1 else (alive[c * size + d] if values[c] == 0 else 0)
            if marks[d, c] != m:
                same = False
                marks[d, c] = m
        if not same:
            counts[d] = digit_templates(
                alive, values, size, d, units, rows, corder, ncellcols, budget, hits[d]
            )
    return 0


# --------------------------------------------------------------------------- continuous loops


@njit(cache=True)
def _first_parent_line(rec_lit, rec_par, r, lit):  # type: ignore[no-untyped-def]
    """True when ``lit`` is a strict ancestor of record ``r`` by first parents."""
    q = rec_par[r]
    while q >= 0:
        if rec_lit[q] == lit:
            return True
        q = rec_par[q]
    return False


@njit(cache=True, inline="always")
def _loop_removals(alive, see, size, rec_lit, rec_par, r, mark, marks, out_cells, out_digits):  # type: ignore[no-untyped-def]
    """What the loop ending at record ``r`` removes: every live candidate outside
    the loop's cells that sees a cell where the loop holds its digit true and
    one where it holds it false (one of the two is true, whichever way round
    the loop is read). ``marks`` (loop cells, seen-true, seen-false) hold
    ``mark`` where set for this loop. Returns how many, in ``out_cells`` and
    ``out_digits``."""
    in_loop, sees_true, sees_false = marks
    ncand = alive.shape[0]
    ncells = ncand // size
    x = r
    while x >= 0:
        in_loop[(rec_lit[x] % ncand) // size] = mark
        x = rec_par[x]
    x = r
    while x >= 0:
        lit = rec_lit[x]
        cell = (lit % ncand) // size
        d = lit % ncand % size
        side = sees_true if lit < ncand else sees_false
        for e in range(ncells):
            if in_loop[e] != mark and see[e, cell] and alive[e * size + d]:
                side[e * size + d] = mark
        x = rec_par[x]
    n = 0
    for e in range(ncand):
        if sees_true[e] == mark and sees_false[e] == mark:
            out_cells[n] = e // size
            out_digits[n] = e % size
            n += 1
    return n


@njit(cache=True)
def _loops_from(alive, weak, strong, see, size, k, bound, work, out):  # type: ignore[no-untyped-def]
    """Append to ``out`` every continuous loop from "k true" of complexity below
    ``bound`` that removes something (SE's bidirectional cycles, each path
    back to "k true" its own loop).

    The search alternates layers: a true literal makes its weak inferences
    false, except a literal already on its own line of first parents; a false
    literal makes its strong inferences true, each true literal once. A loop
    is "k true" reached again after at least two rounds; its complexity is
    the number of literals on it, and it removes what :func:`_loop_removals`
    says. ``work = (rec_lit, rec_par, layer_true, layer_false, true_seen,
    marks, removals_c, removals_d, state)`` (:func:`loop_work_arrays`; ``state``
    holds the stamps). ``out = (lits, lit_start, comps, rem, rem_start,
    count)``: loop ``i`` is ``lits[lit_start[i]:lit_start[i + 1]]`` (its
    first "k true", then each literal in the order it follows, the last
    forcing "k true" again), of complexity ``comps[i]``, removing the
    candidates ``rem[rem_start[i]:rem_start[i + 1]]``; ``count = [loops,
    literals, removals]``. Loops past the buffers' room are left out.
    """
    rec_lit, rec_par, layer_true, layer_false, true_seen, marks, rc, rd, state = work
    lits, lit_start, comps, rem, rem_start, count = out
    w_start, w_targets = weak
    s_start, s_targets = strong
    ncand = alive.shape[0]
    maxrec = rec_lit.shape[0]
    state[0] += 1
    stamp = state[0]
    rec_lit[0] = k
    rec_par[0] = -1
    nrec = 1
    true_seen[k] = stamp
    layer_true[0] = 0
    n_true = 1
    n_false = 0
    length = 0
    full = False
    while (n_true > 0 or n_false > 0) and not full:
        length += 1
        for a in range(n_true):
            r = layer_true[a]
            p = rec_lit[r]
            for m in range(w_start[p], w_start[p + 1]):
                q = w_targets[m]
                if _first_parent_line(rec_lit, rec_par, r, ncand + q):
                    continue
                if nrec >= maxrec:
                    full = True
                    break
                rec_lit[nrec] = ncand + q
                rec_par[nrec] = r
                layer_false[n_false] = nrec
                n_false += 1
                nrec += 1
        n_true = 0
        length += 1
        if length >= bound:
            break  # every loop from here on is as complex as the bound or more
        for a in range(n_false):
            r = layer_false[a]
            p = rec_lit[r] - ncand
            for m in range(s_start[p], s_start[p + 1]):
                q = s_targets[m]
                if length >= 4 and q == k:
                    comp = 1
                    x = r
                    while x > 0:
                        comp += 1
                        x = rec_par[x]
                    if comp >= bound:
                        continue
                    state[1] += 1
                    ne = _loop_removals(
                        alive, see, size, rec_lit, rec_par, r, state[1], marks, rc, rd
                    )
                    i = count[0]
                    if (
                        ne > 0
                        and i + 1 < lit_start.shape[0]
                        and count[1] + comp <= lits.shape[0]
                        and count[2] + ne <= rem.shape[0]
                    ):
                        lit_start[i] = count[1]
                        rem_start[i] = count[2]
                        comps[i] = comp
                        x = r
                        for j in range(comp - 1, -1, -1):
                            lits[count[1] + j] = rec_lit[x]
                            x = rec_par[x]
                        for j in range(ne):
                            rem[count[2] + j] = rc[j] * size + rd[j]
                        count[0] = i + 1
                        count[1] += comp
                        count[2] += ne
                        lit_start[i + 1] = count[1]
                        rem_start[i + 1] = count[2]
                    continue
                if true_seen[q] != stamp:
                    true_seen[q] = stamp
                    if nrec >= maxrec:
                        full = True
                        break
                    rec_lit[nrec] = q
                    rec_par[nrec] = r
                    layer_true[n_true] = nrec
                    n_true += 1
                    nrec += 1
        n_false = 0


def loop_work_arrays(ncand: int, loops: int = 1):  # type: ignore[no-untyped-def]
    """The work and output arrays of :func:`_loops_from` for ``ncand``
    candidates, with room for about ``loops`` loops."""
    ncells = max(1, ncand)
    maxrec = 64 * ncand
    work = (
        np.empty(maxrec, dtype=np.int32),
        np.empty(maxrec, dtype=np.int32),
        np.empty(maxrec, dtype=np.int32),
        np.empty(maxrec, dtype=np.int32),
        np.zeros(ncand, dtype=np.int32),
        (np.zeros(ncells, np.int32), np.zeros(ncand, np.int32), np.zeros(ncand, np.int32)),
        np.empty(ncand, dtype=np.int32),
        np.empty(ncand, dtype=np.int32),
        np.zeros(2, dtype=np.int64),
    )
    out = (
        np.empty(loops * 2 * ncand, dtype=np.int32),
        np.zeros(loops + 1, dtype=np.int32),
        np.empty(loops, dtype=np.int64),
        np.empty(loops * ncand, dtype=np.int32),
        np.zeros(loops + 1, dtype=np.int32),
        np.zeros(3, dtype=np.int64),
    )
    return work, out


@njit(cache=True)
def continuous_loops(alive, weak, strong, x_links, see, size, lower, scc, bound, work, out, best):  # type: ignore[no-untyped-def]
    """The least complex continuous loop that removes something: X-loops
    (X links only, one digit), Y-loops (Y links only, from bivalue cells) or
    loops of both (docs/techniques.md, "Bidirectional Cycle"), over the
    tables ``weak`` and ``strong`` of those links (:func:`static_tables`;
    ``x_links`` False for Y-loops), as :func:`_loops_from` finds them from
    each live candidate in turn: only those on a cycle of the components
    ``scc`` (:func:`on_cycles`) and whose ``lower`` bound (int64, one per
    candidate; zeros search them all) is below the current bound. Each
    start searched gets its bound for these marks, as in
    :func:`forcing_chains`: the complexity of the loop it found, or the
    bound it was searched under (:data:`NO_BOUND` where no loop can run).

    ``work``, ``out``: :func:`loop_work_arrays` (room for one loop). ``best``
    receives ``(complexity, removals)`` of the first least complex loop with
    removals, the loop itself in ``out`` (loop 0); ``best[0]`` stays -1 when
    there is none, and when there is none less complex than ``bound`` (the
    caller's best hint so far: a loop past it would be worth more, and could
    not come first; :data:`NO_BOUND` for none).
    """
    ncand = alive.shape[0]
    best[0] = -1
    best[1] = 0
    count = out[5]
    cycles = np.empty(ncand, dtype=np.int8)
    on_cycles(scc, cycles)
    for k in range(ncand):
        if not alive[k] or lower[k] >= bound:
            continue
        if not cycles[k] or (not x_links and _cell_count(alive, k // size, size) != 2):
            lower[k] = NO_BOUND
            continue
        count[:] = 0
        _loops_from(alive, weak, strong, see, size, k, bound, work, out)
        lower[k] = bound
        if count[0] > 0:  # the first loop below the bound found from k: the new best
            best[0] = out[2][0]
            best[1] = out[4][1] - out[4][0]
            bound = best[0]
            lower[k] = bound
    if best[0] >= 0:
        count[0] = 1
    return 0
