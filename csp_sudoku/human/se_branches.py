"""The links inside the branches of the se replay's forcing chains steps, for display.

The replay rates Nishio, cell, region, double and contradiction forcing
chains (static and dynamic) from implication nets
(:func:`csp_sudoku._kernels.se_chains.implication_nets`), which count each
literal's ancestors and keep no parents: a step records only its branches'
premises (:attr:`csp_sudoku.human.se_order.SeStep.branches`). To show how
each branch reaches the step's conclusion, :func:`branch_nets` runs each
branch's net again here, in plain Python, by the kernel's rules and in its
order, and keeps the parents:

* a true literal ``k`` makes false every live candidate sharing an
  exact-cover column with it (a cell: a weak Y link; a unit-digit: a weak X
  link; Nishio nets, on one digit, skip the cell columns);
* a false literal ``k`` makes true the other candidate of each of its columns
  left with exactly two live candidates (a strong link). Static nets keep the
  pencil marks before the step; dynamic nets remove each candidate made false
  once it is expanded, so a column the net itself has reduced to two gives a
  strong link too, whose extra parents are the net's earlier removals from
  that column;
* true literals are expanded before false ones, each literal once, first in
  first out, and a literal keeps the parents of the inference that reached it
  first; a net stops at its first contradiction (a literal reached true and
  false);
* the (+) nets of SE's dynamic forcing chains (+), whenever nothing is left
  to expand, take every removal the basic techniques make on the net's marks
  (:func:`csp_sudoku._kernels.se_offshoots.offshoots`): the removal is a false
  literal whose parents are the net's removals the pattern needed, drawn as
  strong links to it;
* the nets of SE's "(+ Forcing Chains)", when the basic techniques find
  nothing, take the removals of the static forcing chains on the net's marks
  (:func:`csp_sudoku._kernels.se_chains.chain_offshoots`) the same way: the
  inner chain is folded into its conclusion, and its own complexity counts
  once per branch.

So the parents kept are the kernel's: the ancestors of a branch's end are the
literals its ancestor count counted (:attr:`BranchNet.complexity` equals the
step's complexity summed over the branches), and the chain from the premise
to the end by first parents is a shortest one the kernel's rules allow. It
runs once per drawn step, never in the rating: the step and its value are the
replay's, whatever is drawn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.human._tables import tables
from csp_sudoku.human.se_order import NESTING, SeStep, column_order, se_layout
from csp_sudoku.human.state import CandidateState

Literal = tuple[int, int, bool]
#: ``(from, to, strong)``: strong (``from`` off forces ``to`` on) or weak (``from`` on forces ``to`` off).
Link = tuple[Literal, Literal, bool]

#: The net rules of each branching technique: ``(dynamic, cell columns, ends in a
#: contradiction)``; the same technique with a nesting suffix (`` (+)``,
#: `` (+ Forcing Chains)``, :data:`csp_sudoku.human.se_order.NESTING`) adds the
#: techniques inside the nets.
RULES = {
    "Nishio Forcing Chains": (True, False, True),
    "Cell Forcing Chains": (False, True, False),
    "Region Forcing Chains": (False, True, False),
    "Dynamic Cell Forcing Chains": (True, True, False),
    "Dynamic Region Forcing Chains": (True, True, False),
    "Dynamic Double Forcing Chains": (True, True, False),
    "Dynamic Contradiction Forcing Chains": (True, True, True),
}


@dataclass(frozen=True)
class BranchNet:
    """One branch of a forcing chains step, link by link.

    Attributes:
        premise: the branch's premise ``(cell, digit, on)``.
        ends: where it ends: the step's conclusion, or for a contradiction
            the literal it reaches both ways, ``(x on, x off)``.
        links: every link among the ancestors of the ends, each literal's
            links after those of its parents, its first parent's link first
            (a strong link of a dynamic net has one more link for each of
            its extra parents).
        paths: for each end, the chain from the premise to it by first
            parents, premise first.
        complexity: the ancestors of the ends counted as the kernel counts
            them (for a contradiction the two ends' ancestors added), each
            nested chain among them with its own complexity, once.
        inner: the nested chains among the ancestors (SE's nesting levels 2
            and 3), folded in ``links`` into a strong link to the literal
            each made false, here in full.
    """

    premise: Literal
    ends: tuple[Literal, ...]
    links: tuple[Link, ...]
    paths: tuple[tuple[Literal, ...], ...]
    complexity: int
    inner: tuple[InnerChain, ...] = ()


@dataclass(frozen=True)
class _Columns:
    """A geometry's exact-cover columns as plain lists (built once)."""

    cand: list[list[int]]  # the candidates of each column
    order: list[list[int]]  # the columns of each candidate, in the kernel's order
    ncellcols: int
    size: int


@lru_cache(maxsize=8)
def _columns(geometry: Geometry) -> _Columns:
    t = tables(geometry)
    cand = [[k for k in row if k >= 0] for row in t.column_candidates.tolist()]
    order = [[c for c in row if c >= 0] for row in column_order(geometry).tolist()]
    return _Columns(cand, order, t.ncell_columns, geometry.size)


#: A literal's parents: ``(parent literal, strong)``, the first parent first.
_Parents = dict[int, tuple[tuple[int, bool], ...]]

#: A nested chain: its identity, complexity, SE's name of it, and its chains
#: (literal numbers, premise first; one per branch of a cell or region chain).
_Inner = tuple[int, int, str, tuple[tuple[int, ...], ...]]

#: A removal found on a net's marks: the candidate, the net's removals it needed,
#: and for a nested chain the chain.
_Offshoot = tuple[int, tuple[int, ...], "_Inner | None"]

#: A nested chain inside a branch, for display: the literal it made false, SE's
#: name of it, its complexity and its chains (premise first).
InnerChain = tuple[Literal, str, int, tuple[tuple[Literal, ...], ...]]

#: SE's names of the static chains a net of level 2 uses inside: loops by list
#: (X, Y, both), forcing chains by list (X, both).
_LOOP_NAMES = ("Bidirectional X-Cycle", "Bidirectional Y-Cycle", "Bidirectional Cycle")
_CHAIN_NAMES = ("Forcing X-Chain", "", "Forcing Chain")


def _run_net(
    cols: _Columns,
    alive: list[bool],
    sizes0: list[int],
    premise: int,
    target: int,
    dynamic: bool,
    y_links: bool,
    plus: Callable[[list[bool]], list[_Offshoot]] | None = None,
    nested: dict[int, _Inner] | None = None,
) -> tuple[_Parents, int]:
    """The net of ``premise`` (literal ``k`` true, ``ncand + k`` false) until it
    records ``target`` or meets a contradiction: the parents of every literal
    reached, in the order reached, and the candidate of the contradiction (-1
    when none). ``sizes0``: each column's live candidates in ``alive``.
    ``plus``: the removals found on a net's marks, each with its parents (a
    (+) net, see the module's note); ``nested`` receives the nested chain
    of each literal a nested chain made false."""
    ncand = len(alive)
    grid = list(alive)
    sizes = list(sizes0)
    parents: _Parents = {premise: ()}
    queue_true: deque[int] = deque()
    queue_false: deque[int] = deque()
    (queue_true if premise < ncand else queue_false).append(premise)
    while target not in parents:
        if not queue_true and not queue_false:
            if plus is None:
                break
            for q, pars, inner in plus(grid):
                if ncand + q in parents:
                    continue
                parents[ncand + q] = tuple((ncand + y, True) for y in pars)
                if inner is not None and nested is not None:
                    nested[ncand + q] = inner
                if q in parents:  # q true, and now false
                    return parents, q
                queue_false.append(ncand + q)
            if not queue_false:
                break
            continue
        if queue_true:
            p = queue_true.popleft()
            for q in _weak(cols, grid, p, y_links):
                if q in parents:  # q true, and now false
                    parents[ncand + q] = ((p, False),)
                    return parents, q
                if ncand + q not in parents:
                    parents[ncand + q] = ((p, False),)
                    queue_false.append(ncand + q)
            continue
        lit = queue_false.popleft()
        p = lit - ncand
        for q, c in _strong(cols, grid, sizes, p, y_links):
            extra = tuple(
                (ncand + y, True)
                for y in cols.cand[c]
                if y not in (p, q) and alive[y] and not grid[y]
            )
            if ncand + q in parents:  # q false, and now true
                parents[q] = ((lit, True), *extra)
                return parents, q
            if q not in parents:
                parents[q] = ((lit, True), *extra)
                queue_true.append(q)
        if dynamic:
            grid[p] = False
            for c in cols.order[p]:
                sizes[c] -= 1
    return parents, -1


def _weak(cols: _Columns, grid: list[bool], p: int, y_links: bool) -> list[int]:
    """The live candidates sharing a column with ``p`` (each once, in column order)."""
    out: list[int] = []
    for c in cols.order[p]:
        if c < cols.ncellcols and not y_links:
            continue
        out.extend(q for q in cols.cand[c] if q != p and grid[q] and q not in out)
    return out


def _strong(
    cols: _Columns, grid: list[bool], sizes: list[int], p: int, y_links: bool
) -> list[tuple[int, int]]:
    """``(q, column)``: the other live candidate of each column of ``p`` holding two."""
    out: list[tuple[int, int]] = []
    for c in cols.order[p]:
        if (c < cols.ncellcols and not y_links) or sizes[c] != 2:
            continue
        q = next((x for x in cols.cand[c] if x != p and grid[x]), -1)
        if q >= 0 and all(q != x for x, _c in out):
            out.append((q, c))
    return out


def _ancestors(parents: _Parents, lit: int) -> set[int]:
    seen = {lit}
    todo = [lit]
    while todo:
        for par, _strong in parents[todo.pop()]:
            if par not in seen:
                seen.add(par)
                todo.append(par)
    return seen


def _plus_rule(state: CandidateState, level: int) -> Callable[[list[bool]], list[_Offshoot]]:
    """What a net of nesting ``level`` finds on marks ``grid`` (the kernels the
    rating uses): the basic techniques' removals, or at level 2, when they
    find none, the static chains', and at level 3, when those find none
    either, the static cell and region chains'; each with the candidates the
    net removed that it needed, and a nested chain itself."""
    from csp_sudoku._kernels.se_chains import (
        chain_offshoots,
        chain_work_arrays,
        forcing_chain,
        multiple_offshoots,
        static_tables,
    )
    from csp_sudoku._kernels.se_offshoots import PLUS_TECHNIQUES, new_net, offshoots, work_arrays

    g = state.geometry
    lay = se_layout(g)
    t = tables(g)
    alive = state.alive().astype(np.int8)
    ncand = alive.size
    vals = state.values.astype(np.int64)
    work = work_arrays(g.ncells, g.size)
    cw, mw, loops = chain_work_arrays(ncand, lay.see, level)
    cc, corder, ncellcols = t.column_candidates, lay.corder, lay.ncellcols

    def chains_of(
        arr: np.ndarray, h: int, multiple: bool
    ) -> tuple[str, tuple[tuple[int, ...], ...]]:
        """SE's name and the chains of hint ``h`` of the last search (``multiple``:
        :func:`multiple_offshoots`'s, else :func:`chain_offshoots`'s)."""
        src = int(cw[8][h])
        if multiple:
            kind, col, lit = int(mw[6][src]), int(mw[7][src]), int(mw[8][src])
            par = mw[1]
            paths = []
            for k in (int(x) for x in cc[col] if x >= 0 and arr[x]):
                path = [lit]
                while path[-1] != k:
                    path.append(int(par[k, path[-1]]))
                paths.append(tuple(reversed(path)))
            return ("Cell" if kind == 5 else "Region") + " Forcing Chains", tuple(paths)
        ref, group = divmod(int(mw[7][src]), 4)
        if int(mw[6][src]) == 1:  # a loop, closed on its first literal
            lits, start = loops[2][0], loops[2][1]
            loop = tuple(int(x) for x in lits[start[ref] : start[ref + 1]])
            return _LOOP_NAMES[group], ((*loop, loop[0]),)
        k, negated = divmod(ref, 2)
        out = np.empty(2 * ncand, dtype=np.int32)
        weak_x, weak_xy, strong_x, strong_xy, _strong_y = static_tables(arr, cc, corder, ncellcols)
        weak, strong = (weak_xy, strong_xy) if group == 2 else (weak_x, strong_x)
        m = int(forcing_chain(arr, weak, strong, k, negated, out))
        return _CHAIN_NAMES[group], (tuple(int(x) for x in out[:m]),)

    def rule(grid: list[bool]) -> list[_Offshoot]:
        arr = np.array(grid, dtype=np.int8)
        # the branches' nets share the work arrays: each call starts from ``alive``'s
        # snapshots, not from marks of another net
        new_net(work)
        n = int(
            offshoots(
                arr, alive, vals, g.size, lay.units, lay.ukind, lay.member, lay.cross,
                PLUS_TECHNIQUES, work,
            )
        )  # fmt: skip
        out_q, out_h, start, pars = work[4], work[5], work[6], work[7]
        found: list[_Offshoot] = [
            (
                int(out_q[j]),
                tuple(int(y) for y in pars[start[out_h[j]] : start[out_h[j] + 1]]),
                None,
            )
            for j in range(n)
            if arr[out_q[j]]
        ]
        if found or level < 2:
            return found
        n, hints = chain_offshoots(arr, alive, cc, corder, ncellcols, g.size, cw, mw, loops)
        multiple = hints == 0 and level >= 3
        if multiple:
            n, hints = multiple_offshoots(arr, alive, cc, corder, ncellcols, g.size, cw, mw)
        out_q, out_h, start, pars, comp, ident = cw[:6]
        inner = {}
        for h in range(int(hints)):
            name, paths = chains_of(arr, h, multiple)
            inner[h] = (int(ident[h]), int(comp[h]), name, paths)
        return [
            (
                int(out_q[j]),
                tuple(int(y) for y in pars[start[out_h[j]] : start[out_h[j] + 1]]),
                inner[int(out_h[j])],
            )
            for j in range(n)
        ]

    return rule


def branch_nets(state: CandidateState, step: SeStep) -> tuple[BranchNet, ...]:
    """The branches of a forcing chains ``step`` (its :attr:`SeStep.branches`), link
    by link, from ``state``, the pencil marks before the step.

    Empty for a step that is not one of :data:`RULES` or has no recorded
    branches; a branch the net does not bring to its end (which the kernel's
    choice rules out) is left out.
    """
    name, level = step.technique, 0
    for lev, (suffix, _family) in NESTING.items():
        if step.technique.endswith(suffix):
            name, level = step.technique.removesuffix(suffix), lev
    rules = RULES.get(name)
    if rules is None or not step.branches:
        return ()
    dynamic, y_links, contradiction = rules
    plus = _plus_rule(state, level) if level else None
    cols = _columns(state.geometry)
    n = cols.size
    alive = [bool(a) for a in state.alive().tolist()]
    ncand = len(alive)

    def lit_of(t: Literal) -> int:
        return t[0] * n + t[1] - 1 + (0 if t[2] else ncand)

    def triple(lit: int) -> Literal:
        k = lit % ncand
        return (k // n, k % n + 1, lit < ncand)

    target = -1
    if not contradiction:
        if step.placements:
            target = lit_of((*step.placements[0], True))
        elif step.eliminations:
            target = lit_of((*step.eliminations[0], False))
        else:
            return ()
    cc = tables(state.geometry).column_candidates
    live = state.alive()
    sizes = [int(x) for x in np.where(cc >= 0, live[cc], False).sum(axis=1).tolist()]
    out: list[BranchNet] = []
    for premise in step.branches:
        start = lit_of(premise)
        nested: dict[int, _Inner] = {}
        parents, clash = _run_net(cols, alive, sizes, start, target, dynamic, y_links, plus, nested)
        if contradiction:
            if clash < 0:
                continue
            ends = [clash, ncand + clash]
        elif target in parents:
            ends = [target]
        else:
            continue
        tops = [_ancestors(parents, e) for e in ends]
        keep = set().union(*tops)
        links = tuple(
            (triple(par), triple(lit), strong)
            for lit in parents
            if lit in keep
            for par, strong in parents[lit]
        )
        paths = []
        for e in ends:
            path = [e]
            while parents[path[-1]]:
                path.append(parents[path[-1]][0][0])
            paths.append(tuple(triple(x) for x in reversed(path)))
        out.append(
            BranchNet(
                premise,
                tuple(triple(e) for e in ends),
                links,
                tuple(paths),
                sum(len(t) for t in tops)
                + sum({nested[x][0]: nested[x][1] for x in keep if x in nested}.values()),
                tuple(
                    (
                        triple(x),
                        nested[x][2],
                        nested[x][1],
                        tuple(tuple(triple(y) for y in path) for path in nested[x][3]),
                    )
                    for x in parents
                    if x in keep and x in nested
                ),
            )
        )
    return tuple(out)


__all__ = ["RULES", "BranchNet", "Link", "branch_nets"]
