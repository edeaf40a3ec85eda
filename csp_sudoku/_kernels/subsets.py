"""Compiled searches of the constraint subset rule (numba), in one entry point,
:func:`subset_kernel`: the applications of a size in search order (what
:func:`csp_sudoku.human.subsets.find_subsets` lists), and the path's subset
step: is there an application of size 1, 2, ..., and which are they at the
first size that has any. :func:`search_in_order`, :func:`size_search` and
:func:`subset_probe` call it from Python.

The subset step of a solve path (:mod:`csp_sudoku.human.path`) takes the
smallest size that has an application, so a search of size ``n`` always runs
on a state with **no application of a smaller size**. There, every
application of size ``n`` is connected and is reached by growing it from any
of its A columns (one the growth misses splits into smaller applications, see
:func:`csp_sudoku._kernels.human.subset_search`), so the search may grow it
from wherever is cheapest; the set found is the one
:func:`~csp_sudoku._kernels.human.subset_search` lists, only the order
differs (the caller recovers that order where it matters).

Two searches of that set:

* :func:`guided_subsets`, when a solution of the puzzle is known and the
  state agrees with it (every live column keeps its solution candidate, as
  every sound step leaves it). In an application (A, B) the ``n`` solution
  candidates of A's columns (distinct: A is disjoint) lie in B's columns, and
  each column holds one solution candidate, so they fill B one to one: every
  B column's solution candidate is in A, in exactly one B column. Growing A
  and B along that matching, a B column chosen to cover a candidate brings
  its own solution candidate, whose A column is one of that candidate's
  other columns: about three choices where the plain search tries every
  column that shares a candidate with B. The solution only prunes the
  search: the applications found are the same, each a proof from the pencil
  marks.
* without a solution, the plain growth
  (:func:`csp_sudoku._kernels.human._subset_core`), from A's column of most
  candidates.

:func:`subset_probe` runs the sizes in order with a memo per size (the live
candidates when that size last had nothing): a later application of that
size must have an A column that lost a candidate since (otherwise it applied
then too), so only A grown from those columns is searched.

Nothing imports this module at package import time.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from csp_sudoku._kernels.human import (
    _drop_b,
    _emit,
    _first_uncovered,
    _free_bound,
    _live_columns,
    _subset_core,
    join_a,
    pair_scratch,
)


@njit(cache=True)
def guided_subsets(alive, column_candidates, candidate_columns, truth, n, first, out, roots, rank):  # type: ignore[no-untyped-def]
    """Applications of size ``n`` grown along a solution (see the module doc).

    For a state with no application of a size below ``n`` that agrees with
    the solution: ``truth`` from :func:`solution_columns` (not all -1).

    A starts with a column ``a1`` of ``roots`` (in order) whose solution
    candidate ``p1`` has no B yet. Depth first, the first candidate of A that
    no B covers is covered by one of its columns ``c`` (not in A): when ``c``'s
    solution candidate is ``p1``, ``c`` is ``p1``'s B; otherwise it is a new
    solution candidate ``p``, whose A column is one of ``p``'s other columns,
    disjoint from A, of rank at least ``rank[a1]``. A branch ends when its
    uncovered candidates need more B columns than are left
    (:func:`csp_sudoku._kernels.human._free_bound`); a column tried as B is barred as B from its
    later siblings' subtrees (so each (A, B) is written once per root).

    Args:
        alive: one bool per candidate.
        column_candidates: ``(ncols, N)`` candidates of every column.
        candidate_columns: ``(ncand, k)`` columns of every candidate, -1 padded.
        truth: per column, its solution candidate (-1 without live candidates).
        n: the size.
        first: stop at the first application found.
        out: ``(cap, 2n)`` int32; row i gets A (n columns) then B (n columns).
        roots: the columns A is grown from, in order.
        rank: per column; A's other columns have a rank at least ``rank[a1]``.

    Returns:
        The number of applications found (rows beyond ``cap`` are not written).
    """
    cc = column_candidates
    kc = candidate_columns
    ncols = cc.shape[0]
    width = cc.shape[1]
    kk = kc.shape[1]
    ncand = alive.shape[0]
    colk, colc = _live_columns(alive, cc)
    in_p = np.zeros(ncand, dtype=np.bool_)  # solution candidates of A
    u_a, v_b, in_a, in_b, alist, blist, ulist = pair_scratch(ncand, ncols, n, width)
    ban_b = np.zeros(ncols, dtype=np.int32)
    depth = n + 1
    ys = np.zeros(depth, dtype=np.int32)
    ci = np.zeros(depth, dtype=np.int32)
    ai = np.zeros(depth, dtype=np.int32)
    add_b = np.full(depth, -1, dtype=np.int32)
    add_a = np.full(depth, -1, dtype=np.int32)
    tried = np.empty((depth, kk), dtype=np.int32)
    ntried = np.zeros(depth, dtype=np.int32)
    mark = np.zeros(ncols, dtype=np.int64)
    tick = 0
    # int64 counters and counts from the start: numba compiles a callee once per
    # argument type, and a literal 0 (the first pass over a loop) is one more
    nout = np.int64(0)
    for ri in range(roots.shape[0]):
        a1 = roots[ri]
        tick += 1
        if colk[a1] == 0:
            continue
        in_a[a1] = True
        if _free_bound(colc[a1], np.int64(colk[a1]), v_b, in_a, kc, mark, tick) > n:
            in_a[a1] = False  # its candidates need more than n columns to cover
            continue
        p1 = truth[a1]
        n_a, n_u = join_a(a1, in_a, alist, 0, u_a, ulist, np.int64(0), colk, colc)
        n_b = 0
        in_p[p1] = True
        pending = True  # p1 has no B yet
        lv = -1
        expand = True
        stop = False
        while True:
            if expand:
                expand = False
                y = _first_uncovered(ulist, n_u, v_b)
                if y < 0:
                    # A covered: a leaf (A and B are as many as their solution
                    # candidates); below size n it cannot grow (no smaller
                    # application, so B holds only A's candidates)
                    if n_a == n and n_b == n:
                        found = _emit(alist, blist, n, colk, colc, u_a, out, nout)
                        if found > nout:
                            nout = found
                            stop = first
                elif n_b < n:
                    tick += 1
                    if _free_bound(ulist, n_u, v_b, in_a, kc, mark, tick) <= n - n_b:
                        lv += 1
                        ys[lv] = y
                        ci[lv] = 0
                        ai[lv] = 0
                        add_b[lv] = -1
                        add_a[lv] = -1
                        ntried[lv] = 0
            if lv < 0 or stop:
                break
            # undo this level's current choice
            c = add_b[lv]
            if c >= 0:
                _drop_b(c, v_b, in_b, colk, colc)
                n_b -= 1
                a = add_a[lv]
                if a >= 0:
                    for s in range(colk[a]):
                        u_a[colc[a, s]] = False
                    n_u -= colk[a]
                    in_a[a] = False
                    n_a -= 1
                    in_p[truth[c]] = False
                else:
                    pending = True
                add_b[lv] = -1
                add_a[lv] = -1
            # the next choice: a column c of y as B, and the A column of c's
            # solution candidate when it is new
            y = ys[lv]
            found = False
            while ci[lv] < kk:
                c = kc[y, ci[lv]]
                if c >= 0 and not in_a[c] and not in_b[c] and ban_b[c] == 0:
                    p = truth[c]
                    if in_p[p]:
                        if ai[lv] == 0 and pending and p == p1:
                            ai[lv] = kk  # the one choice with this c
                            found = True
                            break
                    elif n_a < n:
                        while ai[lv] < kk:
                            a = kc[p, ai[lv]]
                            ai[lv] += 1
                            if a < 0 or a == c or in_a[a] or in_b[a] or rank[a] < rank[a1]:
                                continue
                            ok = True
                            for s in range(colk[a]):
                                if u_a[colc[a, s]]:
                                    ok = False
                                    break
                            if ok:
                                add_a[lv] = a
                                found = True
                                break
                        if found:
                            break
                    # c is done: barred as B from the later siblings' subtrees
                    ban_b[c] += 1
                    tried[lv, ntried[lv]] = c
                    ntried[lv] += 1
                ci[lv] += 1
                ai[lv] = 0
            if not found:
                for t in range(ntried[lv]):
                    ban_b[tried[lv, t]] -= 1
                lv -= 1
                continue
            c = kc[y, ci[lv]]
            add_b[lv] = c
            in_b[c] = True
            blist[n_b] = c
            n_b += 1
            for t in range(colk[c]):
                v_b[colc[c, t]] += 1
            a = add_a[lv]
            if a >= 0:
                in_p[truth[c]] = True
                n_a, n_u = join_a(a, in_a, alist, n_a, u_a, ulist, n_u, colk, colc)
            else:
                pending = False
            expand = True
        # undo what is left of this root's search
        for i in range(lv + 1):
            for t in range(ntried[i]):
                ban_b[tried[i, t]] -= 1
            c = add_b[i]
            if c >= 0:
                _drop_b(c, v_b, in_b, colk, colc)
                a = add_a[i]
                if a >= 0:
                    for s in range(colk[a]):
                        u_a[colc[a, s]] = False
                    in_a[a] = False
                    in_p[truth[c]] = False
        for s in range(colk[a1]):
            u_a[colc[a1, s]] = False
        in_a[a1] = False
        in_p[p1] = False
        if stop:
            break
    return nout


#: Modes of :func:`subset_kernel`.
SEARCH = 0  # size n in search order, from given lowest columns or all
SIZE = 1  # size n on a state with no smaller application, in no particular order
PROBE = 2  # the smallest size 1..n with an application


@njit(cache=True)
def subset_kernel(  # type: ignore[no-untyped-def]
    mode, alive, column_candidates, candidate_columns, solution, n, first, out, roots,
    memo, known, limit,
):  # fmt: skip
    """Every search of the subset rule, in one compiled entry point.

    numba compiles and optimises each entry point with all that it links, so
    the three searches share one (the searches are :func:`guided_subsets` and
    :func:`csp_sudoku._kernels.human._subset_core`, called from one place each).

    * ``SEARCH``: the applications of size ``n`` in search order (A's lowest
      column ascending), only those whose lowest A column is in ``roots``
      (ascending; every column when empty).
    * ``SIZE``: the applications of size ``n`` on a state with no smaller
      application, each once, in no particular order (see the module doc):
      guided by ``solution`` (one bool per candidate; empty for none) when the
      state agrees with it, else the plain growth from A's column of most
      candidates; only A holding a column of ``roots`` (all when empty).
    * ``PROBE``: the smallest size ``1..n`` with an application, 0 for none.

    In ``SIZE`` and ``PROBE`` modes, a size ``k`` with ``known[k]`` set is
    searched only from the columns that lost a candidate alive in
    ``memo[k]`` (``roots`` is not read; more than ``limit`` such columns: the
    whole search), and ``PROBE`` stores the live candidates in ``memo[k]``
    for every size it finds empty (a later application of that size has an
    A column that lost a candidate since, otherwise it applied then too).

    Args:
        mode: ``SEARCH``, ``SIZE`` or ``PROBE``.
        alive: one bool per candidate.
        column_candidates: ``(ncols, N)`` candidates of every column.
        candidate_columns: ``(ncand, k)`` columns of every candidate, -1 padded.
        solution: one bool per candidate, or empty.
        n: the size (``PROBE``: the largest size).
        first: stop at the first application found (``PROBE`` passes True).
        out: ``(cap, 2n)`` int32; row i gets A (n columns) then B (n columns).
        roots: int32 columns (see the modes).
        memo: ``(n + 1, ncand)`` bool, see above.
        known: ``n + 1`` bools, see above.
        limit: see above.

    Returns:
        The number of applications found (rows beyond ``cap`` are not
        written); for ``PROBE`` the size.
    """
    cc = column_candidates
    kc = candidate_columns
    ncols = cc.shape[0]
    everything = np.arange(ncols).astype(np.int32)
    none = np.empty(0, dtype=np.int32)
    colk = np.zeros(ncols, dtype=np.int32)
    truth = np.full(ncols, -1, dtype=np.int32)  # per column its solution candidate
    if mode != SEARCH:
        colk, _colc = _live_columns(alive, cc)
        if solution.shape[0] > 0:
            for c in range(ncols):
                for t in range(cc.shape[1]):
                    x = cc[c, t]
                    if alive[x] and solution[x]:
                        truth[c] = x
                if colk[c] > 0 and truth[c] < 0:  # the state does not agree with the solution
                    truth[:] = -1
                    break
    guided = truth.max() >= 0
    for size in range(1 if mode == PROBE else n, n + 1):
        order = roots
        skip = False
        if mode != SEARCH and known[size]:
            order = _changed_columns(alive, memo[size], cc, kc)
            skip = mode == PROBE and order.shape[0] == 0
            if order.shape[0] > limit:
                order = none
        found = np.int64(0)
        if not skip:
            rank = everything
            if mode == SEARCH:
                if order.shape[0] == 0:
                    order = everything
            else:
                if not guided or order.shape[0] == 0:
                    # A's first column is its column of most candidates (then the
                    # lowest); guided with roots: the first root A holds
                    order = _by_candidates(order if order.shape[0] > 0 else everything, colk)
                rank = np.full(ncols, order.shape[0], dtype=np.int32)
                for i in range(order.shape[0]):
                    rank[order[i]] = i
            if guided:
                found = guided_subsets(alive, cc, kc, truth, size, first, out, order, rank)
            else:
                found = _subset_core(alive, cc, kc, size, first, out, order, rank)
        if mode != PROBE:
            return found
        if found > 0:
            return np.int64(size)
        # element by element: a slice assignment makes numba compile its
        # shape-mismatch message (string formatting: seconds of a first run)
        for x in range(alive.shape[0]):
            memo[size, x] = alive[x]
        known[size] = True
    return np.int64(0)


@njit(cache=True, inline="always")  # called from one place: no compile of its own
def _by_candidates(cols, colk):  # type: ignore[no-untyped-def]
    """The distinct columns ``cols`` by live candidates (``colk``), most first, then
    by index: a counting sort (``np.argsort`` of that key gave the same order,
    and numba's quicksort cost about a second to compile on a first run)."""
    ncols = colk.shape[0]
    top = colk.max()
    inset = np.zeros(ncols, dtype=np.bool_)
    start = np.zeros(top + 2, dtype=np.int64)  # bucket b = top - colk holds the columns of colk
    for i in range(cols.shape[0]):
        inset[cols[i]] = True
        start[top - colk[cols[i]] + 1] += 1
    for b in range(top + 1):
        start[b + 1] += start[b]
    order = np.empty(cols.shape[0], dtype=np.int32)
    for c in range(ncols):
        if inset[c]:
            b = top - colk[c]
            order[start[b]] = c
            start[b] += 1
    return order


@njit(cache=True, inline="always")  # called from one place: no compile of its own
def _changed_columns(alive, base, column_candidates, candidate_columns):  # type: ignore[no-untyped-def]
    """Columns with live candidates that lost a candidate alive in ``base``."""
    ncols = column_candidates.shape[0]
    hit = np.zeros(ncols, dtype=np.bool_)
    for x in range(alive.shape[0]):
        if base[x] and not alive[x]:
            for j in range(candidate_columns.shape[1]):
                c = candidate_columns[x, j]
                if c >= 0:
                    hit[c] = True
    out = np.empty(ncols, dtype=np.int32)
    k = 0
    for c in range(ncols):
        if hit[c]:
            for t in range(column_candidates.shape[1]):
                if alive[column_candidates[c, t]]:
                    out[k] = c
                    k += 1
                    break
    return out[:k]


# ------------------------------------------------------------ the calls from Python
_NO_CANDIDATES = np.empty(0, dtype=np.bool_)
_NO_COLUMNS = np.empty(0, dtype=np.int32)


def search_in_order(
    alive: NDArray[np.bool_],
    column_candidates: NDArray[np.int32],
    candidate_columns: NDArray[np.int32],
    n: int,
    first: bool,
    out: NDArray[np.int32],
    lowest: NDArray[np.int32] = _NO_COLUMNS,
) -> int:
    """:func:`subset_kernel`'s ``SEARCH``: the number of applications written to ``out``."""
    return int(
        subset_kernel(
            SEARCH, alive, column_candidates, candidate_columns, _NO_CANDIDATES, n, first, out,
            lowest, _no_memo(n), _no_known(n), 0,
        )
    )  # fmt: skip


def size_search(
    alive: NDArray[np.bool_], column_candidates: NDArray[np.int32],  # the matrix
    candidate_columns: NDArray[np.int32], solution: NDArray[np.bool_],
    n: int, first: bool, out: NDArray[np.int32], roots: NDArray[np.int32] = _NO_COLUMNS,
    memo: NDArray[np.bool_] | None = None, known: NDArray[np.bool_] | None = None,  # sizes
    limit: int = 0,
) -> int:  # fmt: skip
    """:func:`subset_kernel`'s ``SIZE``: the number of applications written to ``out``."""
    memo = _no_memo(n) if memo is None else memo
    known = _no_known(n) if known is None else known
    return int(
        subset_kernel(
            SIZE, alive, column_candidates, candidate_columns, solution, n, first, out, roots,
            memo, known, limit,
        )
    )  # fmt: skip


def subset_probe(
    alive: NDArray[np.bool_], column_candidates: NDArray[np.int32],  # the matrix
    candidate_columns: NDArray[np.int32], solution: NDArray[np.bool_],
    max_size: int, memo: NDArray[np.bool_], known: NDArray[np.bool_], limit: int,
) -> int:  # fmt: skip
    """:func:`subset_kernel`'s ``PROBE``: the smallest size with an application, 0 for none."""
    out = np.empty((1, 2 * max_size), dtype=np.int32)
    return int(
        subset_kernel(
            PROBE,
            alive,
            column_candidates,
            candidate_columns,
            solution,
            max_size,
            True,
            out,
            _NO_COLUMNS,
            memo,
            known,
            limit,
        )
    )


def _no_memo(n: int) -> NDArray[np.bool_]:
    return np.zeros((n + 1, 0), dtype=np.bool_)


def _no_known(n: int) -> NDArray[np.bool_]:
    return np.zeros(n + 1, dtype=np.bool_)
