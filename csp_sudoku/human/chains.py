"""Graded refutation: contradiction and forcing chains a person can follow.

Pelanek's refutation (*Difficulty Rating of Sudoku Puzzles by a Computational
Model*, section "Refutation score") assumes a candidate and propagates singles
until a contradiction. Read as an implication graph it is a chain: "assume
r3c7=7; then r3c2<>7; then r5c2=7 (hidden single in column 2); ...; then box 5
has no place for 4". This module runs that idea at three **levels** of
propagation inside the assumption and keeps every implication with its reason,
so each step can be shown and checked:

======  ======================================  ======================================
level   propagation inside the assumption       Sudoku Explainer / HoDoKu terms
======  ======================================  ======================================
0       naked and hidden singles                forcing chains, dynamic forcing
                                                chains (SE 7.0-9.0); HoDoKu's forcing
                                                chains / nets
1       singles and the constraint subset       dynamic forcing chains (+) (SE 8.5-
        rule up to ``max_subset`` (default 1:   9.5): the chain may use locked
        pointing and claiming; 2 adds pairs     candidates (and, with a larger
        and X-Wing, ...)                        size, subsets and fish)
2       level 1 and nested refutation: a        nested forcing chains (SE 9.5 and
        candidate whose own level-``inner``     above); HoDoKu's "Kraken"/nested
        refutation contradicts inside the       nets
        assumption is removed
======  ======================================  ======================================

Three **forms** come from the same machinery (Berthier's T&E(n) and SE's
chain kinds):

* ``contradiction``: assuming a candidate leads to a contradiction, so it is
  eliminated (SE's "dynamic contradiction forcing chain").
* ``cell``: every candidate of one cell implies the same placement or
  elimination (SE's "cell forcing chains").
* ``region``: every place of a digit in a unit implies it (SE's "region
  forcing chains").

The model picks the cheapest move: the lowest level that has one, then the
shortest chain. A chain's **length** is the number of implications it needs
(the ancestors of the contradiction or of the common conclusion in the
implication graph; a nested refutation counts 1 plus its own chain's length).
Implications are found breadth first, so the chain to a contradiction is short
(not always the shortest possible: the first contradiction reached is kept).

Nothing here uses the solution: every elimination is a proof from the pencil
marks alone. The tests replay every chain with an independent checker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels.status import HypothesisEnd
from csp_sudoku.core.errors import ArgumentError, ChainBudgetExceeded, SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.encodings.exact_cover import exact_cover
from csp_sudoku.human._tables import tables
from csp_sudoku.human.state import CandidateState

Form = Literal["contradiction", "cell", "region"]

#: Record kinds of the kernel, by name (see :mod:`csp_sudoku._kernels.chains`).
REASONS = ("assume", "elim", "single", "subset", "nested", "contradiction")

#: The highest propagation level.
MAX_LEVEL = 2

#: Inner hypotheses a level-2 search may run per step before it gives up.
DEFAULT_BUDGET = 5_000_000


@dataclass(frozen=True)
class Link:
    """One implication of a chain.

    Attributes:
        cell: the cell (0-based row-major); -1 for the contradiction.
        digit: the digit (1-based); -1 for the contradiction.
        on: True for "cell holds digit", False for "digit removed from cell".
        reason: ``assume``, ``elim`` (a placed digit's peer), ``single`` (the
            only place left in ``column``), ``subset`` (a subset-rule
            application inside the assumption), ``nested`` (a refutation inside
            the assumption) or ``contradiction`` (``column`` has no candidate,
            or two placements clash in it).
        column: the exact-cover column of a single, an elimination or the
            contradiction; -1 otherwise.
        parents: indices (in the chain) of the links this one follows from.
        subset: the subset application (A columns, B columns) of a ``subset`` link.
        inner: the inner chain of a ``nested`` link.
    """

    cell: int
    digit: int
    on: bool
    reason: str
    column: int = -1
    parents: tuple[int, ...] = ()
    subset: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    inner: Chain | None = None


@dataclass(frozen=True)
class Chain:
    """The implications of one assumption, in the order they were found.

    Only the links the conclusion depends on are kept. ``links[0]`` is the
    assumption; the last link is the contradiction (contradiction chains) or
    the conclusion (a branch of a cell or region forcing chain).
    """

    assumption: tuple[int, int]
    links: tuple[Link, ...]
    level: int
    length: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the implication graph with parent links (docs/explain_schema.md)."""
        out = []
        for link in self.links:
            d: dict[str, Any] = {
                "cell": link.cell,
                "digit": link.digit,
                "on": link.on,
                "reason": link.reason,
                "parents": list(link.parents),
            }
            if link.column >= 0:
                d["column"] = link.column
            if link.subset is not None:
                d["a"] = list(link.subset[0])
                d["b"] = list(link.subset[1])
            if link.inner is not None:
                d["inner"] = link.inner.to_dict()
            out.append(d)
        return {
            "assumption": list(self.assumption),
            "level": self.level,
            "length": self.length,
            "links": out,
        }

    def describe(self, geometry: Geometry, indent: str = "  ") -> list[str]:
        """One line per link, in the compact notation of docs/human_model.md."""
        return describe_chain(self, geometry, indent)


@dataclass(frozen=True)
class ChainMove:
    """A move found by graded refutation.

    Attributes:
        form: ``contradiction``, ``cell`` or ``region``.
        level: the propagation level (0, 1, 2).
        length: the chain length (for cell/region forms, the sum over branches).
        placements: ``(cell, digit)`` placed (cell and region forms).
        eliminations: ``(cell, digit)`` removed.
        chains: the chain of the refuted candidate, or one chain per branch.
        column: the cell or unit-digit column whose branches agree (cell and
            region forms), -1 otherwise.
        options: how many moves of this level and form were found (refutable
            candidates for the contradiction form; 1 for the verity forms).
    """

    form: str
    level: int
    length: int
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    chains: tuple[Chain, ...] = field(default=())
    column: int = -1
    options: int = 1


# --------------------------------------------------------------------------- state


@dataclass
class _Base:
    """The pencil marks as the kernel reads them (candidate-level arrays)."""

    alive: NDArray[np.int8]
    on: NDArray[np.int8]
    cnt: NDArray[np.int32]
    cov: NDArray[np.int8]


def _base(state: CandidateState) -> _Base:
    g = state.geometry
    n = g.size
    bits = ((state.masks[:, None] >> np.arange(n)) & 1).astype(np.int8)
    filled = state.values != 0
    on2 = np.zeros((g.ncells, n), dtype=np.int8)
    cells = np.flatnonzero(filled)
    on2[cells, state.values[cells].astype(np.int64) - 1] = 1
    alive: NDArray[np.int8] = np.where(filled[:, None], on2, bits).astype(np.int8).reshape(-1)
    on: NDArray[np.int8] = on2.reshape(-1)
    return _state_from(state.geometry, alive, on)


def _state_from(g: Geometry, alive: NDArray[np.int8], on: NDArray[np.int8]) -> _Base:
    cc = tables(g).column_candidates
    cov: NDArray[np.int8] = np.asarray(on[cc].any(axis=1), dtype=np.int8)
    cnt: NDArray[np.int32] = np.asarray(alive[cc].sum(axis=1), dtype=np.int32)
    return _Base(alive.copy(), on.copy(), cnt, cov)


def _free(base: _Base) -> NDArray[np.int32]:
    return np.flatnonzero((base.alive != 0) & (base.on == 0)).astype(np.int32)


# --------------------------------------------------------------------------- search


@dataclass(frozen=True)
class ChainSettings:
    """How far graded refutation goes.

    Attributes:
        max_level: the highest level tried (0, 1 or 2).
        max_subset: the subset-rule size used inside level-1 and level-2 assumptions.
        inner_level: the level of the refutations nested at level 2 (0: singles,
            Berthier's T&E(2); 1: with the subset rule, stronger and slower).
        verity: also look for cell and region forcing chains (levels 0 and 1).
        budget: inner hypotheses a level-2 search may run for one move.
    """

    max_level: int = MAX_LEVEL
    max_subset: int = 1
    inner_level: int = 0
    verity: bool = True
    budget: int = DEFAULT_BUDGET

    def __post_init__(self) -> None:
        """Refuse settings the search cannot take (a negative budget ran out at once,
        a level of 5 was read as 2) with :class:`ArgumentError`."""
        ranges = (
            ("max_level", self.max_level, 0, MAX_LEVEL),
            ("max_subset", self.max_subset, 0, None),
            ("inner_level", self.inner_level, 0, 1),
            ("budget", self.budget, 1, None),
        )
        for name, value, low, high in ranges:
            if (
                isinstance(value, bool)
                or not is_whole(value)
                or value < low
                or (high is not None and value > high)
            ):
                span = f"from {low} to {high}" if high is not None else f"from {low} up"
                raise ArgumentError(f"{name} must be a whole number {span}, got {value!r:.40}")
        if not isinstance(self.verity, bool | np.bool_):
            raise ArgumentError(f"verity must be True or False, got {self.verity!r:.40}")


def find_chain_move(
    state: CandidateState,
    settings: ChainSettings = ChainSettings(),
    *,
    solution: NDArray[np.bool_] | None = None,
) -> ChainMove | None:
    """The cheapest chain move in ``state``: lowest level, then shortest chain.

    At each level the contradiction form comes first; when no candidate can be
    refuted at that level, cell and region forcing chains of that level are
    tried (levels 0 and 1). Returns None when no level up to
    ``settings.max_level`` finds a move.

    ``solution`` (one bool per candidate, True on a solution's candidates)
    only saves work: a candidate of the solution cannot lead to a
    contradiction (its consequences all hold in the solution), so its
    hypothesis runs only when the forcing-chain forms need its fixpoint. The
    move is the same without it. It is ignored when the state has lost one of
    its candidates.

    Raises:
        ChainBudgetExceeded: the level-2 search ran past ``settings.budget``
            (counting only the hypotheses run).
    """
    g = state.geometry
    base = _base(state)
    cands = _free(base)
    if cands.size == 0:
        return None
    # the solution's candidates, when the state keeps every one of them
    true = np.zeros(cands.size, dtype=np.bool_)
    if solution is not None and np.all(base.alive[solution] != 0):
        true = solution[cands]
    # level 2 keeps the first contradiction it meets: candidates of cells with
    # fewest candidates first, where short nested chains are most likely
    per_cell = base.alive.reshape(g.ncells, g.size).sum(axis=1)
    by_cell = np.argsort(per_cell[cands // g.size], kind="stable")
    for level in range(settings.max_level + 1):
        # positions in cands, in the order the level tries them
        order = by_cell if level >= 2 else np.arange(cands.size)
        keep = settings.verity and level <= 1
        run = order[~true[order]]
        lens, out_alive, out_on = _refute(base, g, cands[run], level, settings, keep)
        hits = np.flatnonzero(lens >= 0)
        if hits.size:
            best = int(hits[np.argmin(lens[hits])])
            k = int(cands[run[best]])
            chain = build_chain(state, k, level, settings, base=base)
            return ChainMove(
                "contradiction",
                level,
                chain.length,
                (),
                ((k // g.size, k % g.size + 1),),
                (chain,),
                options=int(hits.size),
            )
        if keep:
            # the fixpoints by candidate; a solution candidate's runs only
            # where its column may have a common conclusion
            row_of = np.full(base.alive.size, -1, dtype=np.int32)
            row_of[cands[run]] = np.arange(run.size, dtype=np.int32)
            fix = _Fixpoints(row_of, out_alive, out_on)
            if solution is not None and true.any():
                fix = _with_solution_rows(base, g, cands[true], fix, solution, level, settings)
            move = _verity(state, base, fix, level, settings)
            if move is not None:
                return move
    return None


def _refute(
    base: _Base,
    g: Geometry,
    cands: NDArray[np.int32],
    level: int,
    settings: ChainSettings,
    keep: bool,
) -> tuple[NDArray[np.int64], NDArray[np.int8], NDArray[np.int8]]:
    """The hypotheses of ``cands`` at ``level``: chain lengths (-1 at a fixpoint)
    and, with ``keep``, the fixpoints (see :func:`csp_sudoku._kernels.chains.refute_all`).

    Raises:
        ChainBudgetExceeded: a level-2 search ran past ``settings.budget``.
    """
    from csp_sudoku._kernels.chains import refute_all, refute_level0

    t = tables(g)
    ncand = base.alive.size
    inner_sub = settings.max_subset if settings.inner_level >= 1 else 0
    lens = np.empty(cands.size, dtype=np.int64)
    rows = cands.size if keep else 0
    out_alive = np.empty((rows, ncand), dtype=np.int8)
    out_on = np.empty((rows, ncand), dtype=np.int8)
    state = (base.alive, base.on, base.cnt, base.cov)
    cc, kc = t.column_candidates, t.candidate_columns
    outs = (lens, out_alive, out_on)
    if level == 0:
        refute_level0(state, cc, kc, cands, keep, outs)
        return lens, out_alive, out_on
    budget = np.array([settings.budget], dtype=np.int64)
    maxsub = settings.max_subset
    refute_all(state, cc, kc, cands, level, maxsub, inner_sub, budget, keep, level >= 2, outs)
    if np.any(lens == HypothesisEnd.OUT_OF_BUDGET):
        raise ChainBudgetExceeded(
            f"the level-{level} refutation search ran past its budget of "
            f"{settings.budget} inner hypotheses"
        )
    return lens, out_alive, out_on


class _Fixpoints(NamedTuple):
    """The fixpoints of hypotheses: ``alive[r]``/``on[r]`` for candidate ``x`` at
    row ``r = row_of[x]`` (-1: none; -2: none needed, its columns have no
    common conclusion)."""

    row_of: NDArray[np.int32]
    alive: NDArray[np.int8]
    on: NDArray[np.int8]


def _with_solution_rows(
    base: _Base,
    g: Geometry,
    true_cands: NDArray[np.int32],
    fix: _Fixpoints,
    solution: NDArray[np.bool_],
    level: int,
    settings: ChainSettings,
) -> _Fixpoints:
    """``fix`` with the fixpoints of the solution candidates the forcing chains need.

    A common conclusion of a column's hypotheses holds in the solution (the
    solution candidate's fixpoint holds only such literals), so a column
    whose other members' fixpoints share no literal the solution agrees with
    has none; a solution candidate all of whose columns are such is not run
    (row -2).
    """
    from csp_sudoku._kernels.chains import verity_needs

    cc = tables(g).column_candidates
    need = verity_needs(base.alive, base.on, base.cov, cc, *fix, solution)
    want = true_cands[need[true_cands]]
    row_of = fix.row_of.copy()
    row_of[true_cands[~need[true_cands]]] = -2
    if not want.size:
        return _Fixpoints(row_of, fix.alive, fix.on)
    _lens, more_alive, more_on = _refute(base, g, want, level, settings, True)
    row_of[want] = fix.alive.shape[0] + np.arange(want.size, dtype=np.int32)
    return _Fixpoints(
        row_of, np.concatenate([fix.alive, more_alive]), np.concatenate([fix.on, more_on])
    )


def _verity(
    state: CandidateState, base: _Base, fix: _Fixpoints, level: int, settings: ChainSettings
) -> ChainMove | None:
    """Cell and region forcing chains from the fixpoints of the hypotheses."""
    from csp_sudoku._kernels.chains import verity_best

    g = state.geometry
    cc = tables(g).column_candidates
    best_col, first_on, first_off = (
        int(v) for v in verity_best(base.alive, base.on, base.cov, cc, *fix)
    )
    if best_col < 0:
        return None
    best_members = [int(x) for x in cc[best_col] if fix.row_of[x] >= 0]
    n = g.size
    # one conclusion per step, the one every branch's chain is cut to: a
    # placement when there is one, else the first common elimination (the
    # others, if still there, come as steps of their own)
    conclusion = first_on if first_on >= 0 else base.alive.size + first_off  # ON k, or OFF k
    chains = tuple(
        build_chain(state, k, level, settings, base=base, target=conclusion) for k in best_members
    )
    placed = [first_on] if first_on >= 0 else []
    removed = [] if first_on >= 0 else [first_off]
    return ChainMove(
        "cell" if best_col < g.ncells else "region",
        level,
        sum(c.length for c in chains),
        tuple((x // n, x % n + 1) for x in placed),
        tuple((x // n, x % n + 1) for x in removed),
        chains,
        best_col,
    )


# --------------------------------------------------------------------------- chains


def build_chain(
    state: CandidateState,
    k: int,
    level: int,
    settings: ChainSettings,
    *,
    base: _Base | None = None,
    target: int | None = None,
    ext: NDArray[np.int32] | None = None,
    ext_links: dict[int, tuple[int, int, bool]] | None = None,
) -> Chain:
    """The chain of the hypothesis "candidate ``k`` ON" at ``level``.

    Kept links: those the contradiction depends on, or (with ``target``, a
    literal) those the target literal depends on. ``ext`` and ``ext_links``
    describe the enclosing hypothesis of a nested chain (internal use).
    """
    from csp_sudoku._kernels.chains import (
        META_WIDTH,
        REC_WIDTH,
        find_record,
        hypothesis,
        parent_slots,
        reset,
        trace,
    )

    g = state.geometry
    t = tables(g)
    b = base if base is not None else _base(state)
    ncand = b.alive.size
    nrec = 2 * ncand + 2
    rec = np.empty((nrec, REC_WIDTH), dtype=np.int32)
    meta = np.zeros(META_WIDTH, dtype=np.int32)
    lit_rec = np.full(2 * ncand, -1, dtype=np.int32)
    outer = ext if ext is not None else np.full(2 * ncand, -1, dtype=np.int32)
    maxsub = settings.max_subset
    apps = np.empty((ncand, 2 * max(maxsub, 1) + 1), dtype=np.int32)
    inner_sub = settings.max_subset if settings.inner_level >= 1 else 0
    slots = int(parent_slots(nrec, t.column_candidates.shape[1], maxsub))
    while True:
        # the same hypothesis again with room for every parent (a nested
        # record's list of outer parents has no small bound)
        par = np.empty(slots, dtype=np.int32)
        hyp = (b.alive.copy(), b.on.copy(), b.cnt.copy(), b.cov.copy())
        recs = (rec, par, meta, lit_rec, outer, apps)
        budget = np.array([settings.budget], dtype=np.int64)
        cc, kc = t.column_candidates, t.candidate_columns
        sub = maxsub if level >= 1 else 0
        end = int(hypothesis(hyp, cc, kc, k, level, sub, inner_sub, recs, budget))
        if not meta[4]:
            break
        reset(rec, meta, lit_rec)
        slots *= 2
    if target is not None:
        end = int(find_record(rec, meta, target))
    if end < 0:  # NOT_FOUND, or a HypothesisEnd: no record of a contradiction
        reset(rec, meta, lit_rec)
        raise SudokuError("internal: the chain to rebuild did not reach its conclusion")
    order = np.empty(nrec, dtype=np.int32)
    m = int(trace(rec, par, end, order))
    keep = order[:m].tolist()
    index = {r: i for i, r in enumerate(keep)}
    n = g.size
    links: list[Link] = []
    nrecs = int(meta[0])
    rec_rows = rec[:nrecs].tolist()
    for r in keep:
        lit, kind, info, p0, pn, _w = rec_rows[r]
        parents = [int(p) for p in par[p0 : p0 + pn].tolist()]
        inner_parents = tuple(index[p] for p in parents if p >= 0)
        reason = REASONS[kind]
        cell, digit, is_on = -1, -1, False
        if lit >= 0:
            x = lit % ncand
            cell, digit, is_on = x // n, x % n + 1, lit < ncand
        subset = None
        inner = None
        column = info if kind in (1, 2, 5) else -1
        if kind == 3:
            size = int(apps[info, 0])
            row = apps[info, 1 : 1 + 2 * size].tolist()
            subset = (tuple(sorted(row[:size])), tuple(sorted(row[size:])))
        if kind == 4:
            inner = _nested_chain(state, b, rec_rows, r, lit % ncand, settings, t)
        links.append(Link(cell, digit, is_on, reason, column, inner_parents, subset, inner))
    weights = sum(1 + (lk.inner.length if lk.inner is not None else 0) for lk in links[1:])
    reset(rec, meta, lit_rec)
    return Chain((k // n, k % n + 1), tuple(links), level, weights)


def _nested_chain(
    state: CandidateState,
    base: _Base,
    rec_rows: list[list[int]],
    r: int,
    y: int,
    settings: ChainSettings,
    t: Any,
) -> Chain:
    """Rebuild the inner refutation behind nested record ``r`` (candidate ``y`` removed).

    Nested refutations run at a fixpoint, so the outer state then is the base
    plus every record before ``r``.
    """
    ncand = base.alive.size
    alive = base.alive.copy()
    on = base.on.copy()
    ext = np.full(2 * ncand, -1, dtype=np.int32)
    for i in range(r):
        lit = rec_rows[i][0]
        if lit < 0:
            continue
        ext[lit] = i
        if lit < ncand:
            on[lit] = 1
        else:
            alive[lit - ncand] = 0
    inner_base = _state_from(state.geometry, alive, on)
    return build_chain(state, y, settings.inner_level, settings, base=inner_base, ext=ext)


# --------------------------------------------------------------------------- text


def _lit_text(geometry: Geometry, link: Link) -> str:
    sign = "=" if link.on else "<>"
    return f"{geometry.cell_name(link.cell)}{sign}{link.digit}"


def describe_chain(chain: Chain, geometry: Geometry, indent: str = "  ") -> list[str]:
    """The chain in the compact notation of docs/human_model.md, one link a line.

    ``[3] r5c2=7  hidden single in column 2  <- [1] [2]``: link 3 places 7 in
    r5c2 because the other places of 7 in column 2 went in links 1 and 2.
    """
    ec = exact_cover(geometry)
    lines: list[str] = []
    for i, link in enumerate(chain.links):
        src = " ".join(f"[{p}]" for p in link.parents)
        arrow = f"  <- {src}" if src else ""
        if link.reason == "assume":
            lines.append(f"{indent}[{i}] assume {_lit_text(geometry, link)}")
            continue
        if link.reason == "contradiction":
            what = ec.column_name(link.column) if link.column >= 0 else "?"
            clash = bool(link.parents) and all(chain.links[p].on for p in link.parents)
            tail = "is placed twice" if clash else "has no candidate left"
            lines.append(f"{indent}[{i}] contradiction: {what} {tail}{arrow}")
            continue
        why = _reason_text(geometry, ec, link)
        lines.append(f"{indent}[{i}] {_lit_text(geometry, link)}  {why}{arrow}")
        if link.inner is not None:
            lines.extend(describe_chain(link.inner, geometry, indent + "    "))
    return lines


def _reason_text(geometry: Geometry, ec: Any, link: Link) -> str:
    if link.reason == "elim":
        return f"same {_column_place(geometry, ec, link.column)}"
    if link.reason == "single":
        if link.column < geometry.ncells:
            return "naked single"
        unit = ec.column_unit(link.column)
        return f"hidden single in {geometry.unit_name(unit)}"
    if link.reason == "subset" and link.subset is not None:
        from csp_sudoku.human.subsets import classic_name

        a, b = link.subset
        name = classic_name(geometry, a, b) or "subset rule"
        aa = ", ".join(ec.column_name(c) for c in a)
        bb = ", ".join(ec.column_name(c) for c in b)
        return f"{name}: {{{aa}}} covered by {{{bb}}}"
    if link.reason == "nested":
        return "nested refutation:"
    return link.reason


def _column_place(geometry: Geometry, ec: Any, column: int) -> str:
    if column < geometry.ncells:
        return "cell"
    return geometry.unit_name(ec.column_unit(column))


def move_cells(move: ChainMove, geometry: Geometry) -> tuple[int, ...]:
    """The cells a chain move touches (assumptions and conclusions), sorted."""
    cells = {c.assumption[0] for c in move.chains}
    cells |= {c for c, _d in move.placements} | {c for c, _d in move.eliminations}
    return tuple(sorted(cells))


__all__ = [
    "DEFAULT_BUDGET",
    "MAX_LEVEL",
    "Chain",
    "ChainBudgetExceeded",
    "ChainMove",
    "ChainSettings",
    "Link",
    "build_chain",
    "describe_chain",
    "find_chain_move",
]
