"""Solve paths: the human model run step by step, with what it saw and did.

The solver repeats: try the techniques in the configured order and apply one
move of the first that has any, then start again from the first. Techniques:

``singles``
    one naked or hidden single (the first available, or one chosen at random
    when an ``rng`` is given: Pelanek's SiSuS model, *Difficulty Rating of
    Sudoku Puzzles by a Computational Model*, section "SiSuS");
``subsets``
    one application of the constraint subset rule of the smallest size
    ``n = 1, 2, ..., max_subset`` that has any, the easiest by Sudoku
    Explainer's values within that size (pointing before claiming, naked pair
    before X-Wing before hidden pair; :mod:`csp_sudoku.human.costs`) (Hunt, Pong, Tucker,
    *Difficulty-Driven Sudoku Puzzle Generation*, sections "Constraint Subset
    Rule" and "Human Model");
``chains``
    graded refutation (:mod:`csp_sudoku.human.chains`): the cheapest
    contradiction, cell or region forcing chain, lowest propagation level
    first (0 singles, 1 with the subset rule, 2 nested), then shortest chain.
    It needs no solution: every step is a proof from the pencil marks, and the
    step carries its chain;
``refutation``
    fill the cell of lowest refutation score with its solution digit
    (Pelanek, section "Refutation score");
``oracle``
    reveal one cell of the solution (Fletcher, Johnson, Morrison, *Taking the
    Mystery Out of Sudoku Difficulty: An Oracular Model*): the empty cell with
    fewest candidates, or a random empty cell when an ``rng`` is given.

The subset and chain searches find the puzzle's solution first (when it has
one) and use it only to skip work that cannot find anything: the steps are the
same without it (docs/human_model.md, "How a path is computed").

Every :class:`Step` records its ``options``: how many moves of its kind were
available at that moment (distinct singles; applications of that subset size;
cells with a finite refutation score; empty cells for the oracle). The path is
JSON serialisable (:meth:`SolvePath.to_dict`; schema in docs/explain_schema.md).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels.status import RunStatus
from csp_sudoku.core.errors import ArgumentError, NotUniqueError, ParseError, SudokuError
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import as_generator
from csp_sudoku.human._tables import tables
from csp_sudoku.human.chains import (
    Chain,
    ChainBudgetExceeded,
    ChainMove,
    ChainSettings,
    describe_chain,
    find_chain_move,
    move_cells,
)
from csp_sudoku.human.costs import subset_value
from csp_sudoku.human.state import CandidateState, solution_mask
from csp_sudoku.human.subsets import applications_of, apply_subset

if TYPE_CHECKING:
    from csp_sudoku.api import PuzzleLike

#: The default model never gets stuck on a valid puzzle: singles, the subset
#: rule by size, then graded refutation by level.
DEFAULT_TECHNIQUES: tuple[str, ...] = ("singles", "subsets", "chains")

#: Technique names of chain moves, by (form, level).
_CHAIN_NAMES = {
    "contradiction": "contradiction chain",
    "cell": "cell forcing chain",
    "region": "region forcing chain",
}


def chain_technique(form: str, level: int) -> str:
    """The technique name of a chain move: ``contradiction chain``, ``cell forcing
    chain (+)`` (level 1), ``nested region forcing chain`` (level 2), ..."""
    name = _CHAIN_NAMES[form]
    if level == 1:
        return f"{name} (+)"
    if level >= 2:
        return f"nested {name}"
    return name


Pair = tuple[int, int]


@dataclass(frozen=True)
class Step:
    """One move of a solve path.

    Attributes:
        technique: ``naked single``, ``hidden single``, a classic subset name
            (``pointing``, ``claiming``, ``naked pair``, ``hidden triple``,
            ``X-Wing``, ...), ``subset`` for an unnamed subset-rule application,
            a chain name (:func:`chain_technique`), ``refutation`` or ``oracle``.
        kind: the family: ``single``, ``subset``, ``chain``, ``refutation`` or ``oracle``.
        size: the subset size n for subset steps, 0 otherwise.
        placements: ``(cell, digit)`` pairs filled (cell 0-based row-major, digit 1-based).
        eliminations: ``(cell, digit)`` candidates removed.
        options: moves of this kind available at that moment (see the module doc).
        a: the exact-cover columns of A (subset steps).
        b: the exact-cover columns of B (subset steps).
        cells: the cells the move looked at (the single's cell; A's and B's
            cells for a subset; the refuted cell).
        unit: the unit of a hidden single, -1 otherwise.
        score: the refutation score of the cell filled (refutation steps).
        level: the propagation level of a chain step (0, 1, 2), -1 otherwise.
        form: ``contradiction``, ``cell`` or ``region`` for chain steps.
        length: the chain length of a chain step (implications needed).
        chains: the chains of a chain step (one, or one per branch).
        column: the cell or unit-digit column whose branches all agree
            (cell and region forcing chains), -1 otherwise.
    """

    technique: str
    kind: str
    size: int
    placements: tuple[Pair, ...]
    eliminations: tuple[Pair, ...]
    options: int
    a: tuple[int, ...] = ()
    b: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()
    unit: int = -1
    score: float | None = None
    level: int = -1
    form: str = ""
    length: int = 0
    chains: tuple[Chain, ...] = ()
    column: int = -1

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see docs/explain_schema.md)."""
        d: dict[str, Any] = {
            "technique": self.technique,
            "kind": self.kind,
            "size": self.size,
            "placements": [list(p) for p in self.placements],
            "eliminations": [list(e) for e in self.eliminations],
            "options": self.options,
            "cells": list(self.cells),
        }
        if self.kind == "subset":
            d["a"] = list(self.a)
            d["b"] = list(self.b)
        if self.unit >= 0:
            d["unit"] = self.unit
        if self.score is not None:
            d["score"] = None if math.isinf(self.score) else self.score
        if self.kind == "chain":
            d["level"] = self.level
            d["form"] = self.form
            d["length"] = self.length
            d["chains"] = [c.to_dict() for c in self.chains]
            if self.column >= 0:
                d["column"] = self.column
        return d


@dataclass
class SolvePath:
    """The steps of one run of the human model on a puzzle.

    Attributes:
        puzzle: the puzzle solved.
        steps: the moves, in order.
        solved: True when every cell got filled.
        contradiction: True when the position became contradictory (only for
            puzzles without a solution).
        techniques: the technique order used.
        final: the cells at the end (0 = still empty).
        stopped: why the run ended early: ``""`` (it did not), ``budget``
            (a nested refutation search ran past its budget), ``max_steps``.
    """

    puzzle: Puzzle
    steps: list[Step] = field(default_factory=list)
    solved: bool = False
    contradiction: bool = False
    techniques: tuple[str, ...] = DEFAULT_TECHNIQUES
    final: NDArray[np.int8] | None = None
    stopped: str = ""

    @property
    def max_subset_size(self) -> int:
        """The largest subset size used (0 when none)."""
        return max((s.size for s in self.steps if s.kind == "subset"), default=0)

    @property
    def max_level(self) -> int:
        """The highest chain level used (-1 when no chain step)."""
        return max((s.level for s in self.steps if s.kind == "chain"), default=-1)

    def technique_counts(self) -> dict[str, int]:
        """How many steps used each technique name."""
        out: dict[str, int] = {}
        for s in self.steps:
            out[s.technique] = out.get(s.technique, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of docs/explain_schema.md."""
        final = self.final if self.final is not None else self.puzzle.cells
        return {
            "puzzle": self.puzzle.to_line(),
            "geometry": self.puzzle.geometry.name,
            "solved": self.solved,
            "contradiction": self.contradiction,
            "techniques": list(self.techniques),
            "max_subset_size": self.max_subset_size,
            "technique_counts": self.technique_counts(),
            "final": Puzzle(final, self.puzzle.geometry).to_line(),
            "stopped": self.stopped,
            "max_level": self.max_level,
            "steps": [s.to_dict() for s in self.steps],
        }

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    def describe(self) -> list[str]:
        """One readable line per step (``r1c2`` cell names, technique names)."""
        return [describe_step(self.puzzle, s, i + 1) for i, s in enumerate(self.steps)]


def _pairs(geometry_cell_name: Any, pairs: Sequence[Pair], sep: str) -> str:
    return ", ".join(f"{geometry_cell_name(c)}{sep}{d}" for c, d in pairs)


def describe_step(puzzle: Puzzle, step: Step, number: int) -> str:
    """A readable line for one step, e.g. ``12. hidden single: r4c5 = 7 (box 5)``."""
    from csp_sudoku.encodings.exact_cover import exact_cover

    g = puzzle.geometry
    name = g.cell_name
    opts = f"[{step.options} option{'s' if step.options != 1 else ''}]"
    if step.kind == "single":
        where = f" ({g.unit_name(step.unit)})" if step.unit >= 0 else ""
        return f"{number}. {step.technique}: {_pairs(name, step.placements, ' = ')}{where} {opts}"
    if step.kind == "subset":
        ec = exact_cover(g)
        a = ", ".join(ec.column_name(c) for c in step.a)
        b = ", ".join(ec.column_name(c) for c in step.b)
        return (
            f"{number}. {step.technique} (size {step.size}): {{{a}}} covered by {{{b}}}; "
            f"removes {_pairs(name, step.eliminations, '<>')} {opts}"
        )
    if step.kind == "chain":
        what = ", ".join(
            [f"{name(c)} = {d}" for c, d in step.placements]
            + [f"{name(c)}<>{d}" for c, d in step.eliminations]
        )
        head = (
            f"{number}. {step.technique} (level {step.level}, length {step.length}): {what} {opts}"
        )
        lines = [head]
        for ch in step.chains:
            lines.extend(describe_chain(ch, g, "    "))
        return "\n".join(lines)
    extra = ""
    if step.score is not None:
        extra = f", refutation score {step.score:g}"
    return f"{number}. {step.technique}: {_pairs(name, step.placements, ' = ')}{extra} {opts}"


def _check_techniques(techniques: str | Sequence[str]) -> tuple[str, ...]:
    """The technique order as a tuple of known names; a lone string is one name
    (``"singles"``), not a sequence of one-letter ones."""
    out = (techniques,) if isinstance(techniques, str) else tuple(techniques)
    for t in out:
        if t not in TECHNIQUE_STEPS:
            known = ", ".join(TECHNIQUE_STEPS)
            raise ArgumentError(f"unknown technique {t!r}; choose from {known}")
    if not out:
        raise ArgumentError("give at least one technique")
    return out


def _singles_steps(
    state: CandidateState, rng: np.random.Generator | None, max_steps: int
) -> tuple[list[Step], RunStatus]:
    """Run singles in the compiled kernel until none is left; return the steps and status."""
    from csp_sudoku._kernels.human import singles_run

    t = tables(state.geometry)
    nempty = int(np.count_nonzero(state.values == 0))
    rand = rng.random(nempty) if rng is not None else np.empty(0, dtype=np.float64)
    rc = np.empty(nempty + 1, dtype=np.int32)
    rd = np.empty_like(rc)
    ru = np.empty_like(rc)
    ro = np.empty_like(rc)
    nsteps, status = singles_run(
        state.masks, state.values, t.peers, t.npeers, t.units, rand, max_steps, rc, rd, ru, ro
    )
    steps = [
        Step(
            "naked single" if u < 0 else "hidden single",
            "single",
            0,
            ((c, d),),
            (),
            o,
            cells=(c,),
            unit=u,
        )
        for c, d, u, o in zip(
            rc[:nsteps].tolist(),
            rd[:nsteps].tolist(),
            ru[:nsteps].tolist(),
            ro[:nsteps].tolist(),
            strict=True,
        )
    ]
    return steps, RunStatus(int(status))


class _Guide:
    """A solution of the puzzle, found once when first asked for (None when the
    puzzle has none). The searches use it only to skip work that cannot find
    anything (see :mod:`csp_sudoku._kernels.subsets`); the steps are the same
    without it.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self._mask: NDArray[np.bool_] | None = None
        self._known = False

    def mask(self) -> NDArray[np.bool_] | None:
        """One bool per candidate: True on the solution's candidates."""
        if not self._known:
            self._known = True
            self._mask = solution_mask(self.puzzle)
        return self._mask


@dataclass
class _SubsetMemo:
    """Per size n, the live candidates when size n last had no application.

    A later application of size n must have an A column holding a candidate
    removed since then (otherwise it applied then too, or splits into smaller
    ones that did), so the next search of size n only needs to look at A grown
    from those columns (:func:`csp_sudoku._kernels.subsets.subset_probe`).
    """

    alive: NDArray[np.bool_] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.bool_))
    known: NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))

    def fit(self, max_subset: int, ncandidates: int) -> None:
        """Room for sizes 1..``max_subset``."""
        if self.alive.shape != (max_subset + 1, ncandidates):
            self.alive = np.zeros((max_subset + 1, ncandidates), dtype=np.bool_)
            self.known = np.zeros(max_subset + 1, dtype=np.bool_)


def _subset_step(
    state: CandidateState,
    max_subset: int,
    memo: _SubsetMemo | None = None,
    guide: _Guide | None = None,
) -> Step | None:
    """One application of the smallest size that has any, the easiest of that
    size by Sudoku Explainer's values, the first of those in the order of
    :func:`csp_sudoku.human.subsets.find_subsets`."""
    from csp_sudoku._kernels.subsets import search_in_order, size_search, subset_probe

    g = state.geometry
    t = tables(g)
    cc, kc = t.column_candidates, t.candidate_columns
    memo = memo if memo is not None else _SubsetMemo()
    memo.fit(max_subset, g.ncandidates)
    alive = state.alive()
    solution = guide.mask() if guide is not None else None
    if solution is None:
        solution = np.empty(0, dtype=np.bool_)
    # above this many changed columns a whole search is cheaper than rooted ones
    limit = cc.shape[0] // 4
    n = subset_probe(alive, cc, kc, solution, max_subset, memo.alive, memo.known, limit)
    if n == 0:
        return None
    # every application of size n (the probe proved the smaller sizes empty),
    # from the columns that changed since size n last had none, as the probe did
    cap = 256
    while True:
        out = np.empty((cap, 2 * n), dtype=np.int32)
        found = size_search(
            alive, cc, kc, solution, n, False, out, memo=memo.alive, known=memo.known, limit=limit
        )
        if found <= cap:
            break
        cap = found
    apps = {(app.a, app.b): app for app in applications_of(state, out[:found], n, alive)}
    # the easiest of the size; among those the first in find_subsets' order:
    # A's lowest column first, then that column's search order
    best = min(subset_value(app.name, n) for app in apps.values())
    lowest = min(app.a[0] for app in apps.values() if subset_value(app.name, n) == best)
    ordered = np.empty((len(apps), 2 * n), dtype=np.int32)
    m = search_in_order(alive, cc, kc, n, False, ordered, np.array([lowest], dtype=np.int32))
    rows = ordered[: min(m, len(apps))].tolist()
    keys = [(tuple(sorted(r[:n])), tuple(sorted(r[n:]))) for r in rows]
    picked = [apps[k] for k in keys if k in apps and subset_value(apps[k].name, n) == best]
    if m > len(apps) or not picked:  # cannot happen (the sets are the same); stay exact
        raise SudokuError("internal: the subset search and its order disagree")
    app = picked[0]
    live = [x for x in t.column_candidates[list(app.a)].reshape(-1).tolist() if alive[x]]
    cells = sorted({x // g.size for x in live} | {c for c, _d in app.eliminations})
    apply_subset(state, app)
    return Step(
        app.name or "subset",
        "subset",
        n,
        (),
        app.eliminations,
        len(apps),
        a=app.a,
        b=app.b,
        cells=tuple(cells),
    )


def _refutation_step(
    state: CandidateState, solution: NDArray[np.int8], rng: np.random.Generator
) -> Step | None:
    from csp_sudoku.human.refutation import refutation_scores

    scores = refutation_scores(state, solution, rng)
    finite = {c: s for c, s in scores.items() if not math.isinf(s)}
    if not finite:
        return None
    cell = min(finite, key=lambda c: (finite[c], c))
    digit = int(solution[cell])
    state.place(cell, digit)
    return Step(
        "refutation",
        "refutation",
        0,
        ((cell, digit),),
        (),
        len(finite),
        cells=(cell,),
        score=finite[cell],
    )


def _chain_step(
    state: CandidateState, settings: ChainSettings, guide: _Guide | None = None
) -> Step | None:
    solution = guide.mask() if guide is not None else None
    move: ChainMove | None = find_chain_move(state, settings, solution=solution)
    if move is None:
        return None
    for c, d in move.placements:
        state.place(c, d)
    for c, d in move.eliminations:
        state.eliminate(c, d)
    return Step(
        chain_technique(move.form, move.level),
        "chain",
        0,
        move.placements,
        move.eliminations,
        move.options,
        cells=move_cells(move, state.geometry),
        level=move.level,
        form=move.form,
        length=move.length,
        chains=move.chains,
        column=move.column,
    )


def _oracle_step(
    state: CandidateState, solution: NDArray[np.int8], rng: np.random.Generator | None
) -> Step | None:
    empty = state.empty_cells()
    if empty.size == 0:
        return None
    if rng is not None:
        cell = int(empty[int(rng.integers(empty.size))])
    else:
        counts = np.array([bin(int(m)).count("1") for m in state.masks[empty]])
        cell = int(empty[int(np.argmin(counts))])
    digit = int(solution[cell])
    state.place(cell, digit)
    return Step("oracle", "oracle", 0, ((cell, digit),), (), int(empty.size), cells=(cell,))


@dataclass
class TechniqueContext:
    """What a technique of the path solver sees at each step (see :data:`TECHNIQUE_STEPS`).

    Attributes:
        state: the candidate state; a technique applies its moves to it.
        path: the path so far; a technique may set ``path.contradiction`` (it met
            one) or ``path.stopped`` (it ran past a budget), and the solver stops.
        rng: the caller's generator for random choices (None: first available).
        refutation_rng: the generator of refutation's Monte Carlo estimate.
        solution: the solution grid, for techniques that need it (else None).
        max_subset: the largest subset size of the subset rule.
        chains: how far graded refutation goes.
        memo: the subset rule's memory between steps.
        guide: the path's guide (which cells a chain step should aim at).
        limit: the most steps of the whole path.
    """

    state: CandidateState
    path: SolvePath
    rng: np.random.Generator | None
    refutation_rng: np.random.Generator
    solution: NDArray[np.int8] | None
    max_subset: int
    chains: ChainSettings
    memo: _SubsetMemo
    guide: _Guide
    limit: int


#: A technique: the steps it takes now (applied to ``ctx.state``), or none.
TechniqueSteps = Callable[[TechniqueContext], list[Step]]


def _singles(ctx: TechniqueContext) -> list[Step]:
    steps, status = _singles_steps(ctx.state, ctx.rng, ctx.limit - len(ctx.path.steps))
    if status is RunStatus.CONTRADICTION:
        ctx.path.contradiction = True
    return steps


def _subsets(ctx: TechniqueContext) -> list[Step]:
    step = _subset_step(ctx.state, ctx.max_subset, ctx.memo, ctx.guide)
    return [] if step is None else [step]


def _chains(ctx: TechniqueContext) -> list[Step]:
    try:
        step = _chain_step(ctx.state, ctx.chains, ctx.guide)
    except ChainBudgetExceeded:
        ctx.path.stopped = "budget"
        return []
    return [] if step is None else [step]


def _refutation(ctx: TechniqueContext) -> list[Step]:
    if ctx.solution is None:
        return []
    step = _refutation_step(ctx.state, ctx.solution, ctx.refutation_rng)
    return [] if step is None else [step]


def _oracle(ctx: TechniqueContext) -> list[Step]:
    if ctx.solution is None:
        return []
    step = _oracle_step(ctx.state, ctx.solution, ctx.rng)
    return [] if step is None else [step]


#: The technique registry: name -> what it does at a step. To add a technique, copy
#: ``human/TEMPLATE.py`` and add its line here (and its name to ``TechniqueName``).
TECHNIQUE_STEPS: dict[str, TechniqueSteps] = {
    "singles": _singles,
    "subsets": _subsets,
    "chains": _chains,
    "refutation": _refutation,
    "oracle": _oracle,
}
#: Technique families a path solver can use: the registry's names.
TECHNIQUES: tuple[str, ...] = tuple(TECHNIQUE_STEPS)
#: Techniques that need the solution grid (computed when not given).
NEEDS_SOLUTION: frozenset[str] = frozenset({"refutation", "oracle"})


def _check_options(max_subset: object, max_steps: object, chains: object) -> None:
    """:func:`solve_path`'s options, checked before any step: ``max_subset="2"`` raised
    a TypeError inside the subset search, ``max_steps=-1`` (or nan) gave an empty
    path and 2.5 three steps, ``chains=5`` an AttributeError once the path reached
    its first chain (and went unread on a path that needed none).

    Raises:
        ArgumentError: naming the option.
    """
    if not is_whole(max_subset) or max_subset < 1:
        raise ArgumentError(
            f"max_subset must be a whole number of at least 1, got {max_subset!r:.40}"
        )
    if max_steps is not None and (not is_whole(max_steps) or max_steps < 1):
        raise ArgumentError(
            f"max_steps must be a whole number of at least 1 or None, got {max_steps!r:.40}"
        )
    if chains is not None and not isinstance(chains, ChainSettings):
        raise ArgumentError(f"chains must be a ChainSettings or None, got {chains!r:.40}")


def _given_solution(solution: object, puzzle: Puzzle) -> NDArray[np.int8]:
    """The ``solution`` given to :func:`solve_path`, as cells, checked to be ``puzzle``'s
    (taken on trust, a wrong grid had the oracle reveal wrong digits, a path ending in
    a contradiction, and one of another size raised IndexError).

    Raises:
        ParseError: ``solution`` cannot be read as a grid of this shape (its
            source named ``solution``, as :func:`csp_sudoku.metrics.rate` reads one).
        ArgumentError: naming ``solution``: not a full valid grid keeping the
            puzzle's clues.
    """
    from csp_sudoku.api import as_puzzle
    from csp_sudoku.core.verify import solution_fault

    try:
        given = as_puzzle(cast("PuzzleLike", solution), puzzle.geometry)
    except ParseError as err:
        raise err.located(source="solution") from None
    fault = solution_fault(given.cells, puzzle.geometry, puzzle.cells)
    if fault is not None:
        raise ArgumentError(f"solution: {fault}")
    return np.asarray(given.cells, dtype=np.int8)


def solve_path(
    puzzle: PuzzleLike,
    techniques: str | Sequence[str] = DEFAULT_TECHNIQUES,
    *,
    max_subset: int = 4,
    rng: np.random.Generator | int | None = None,
    solution: NDArray[np.integer] | Puzzle | None = None,
    max_steps: int | None = None,
    chains: ChainSettings | None = None,
) -> SolvePath:
    """Run the human model on ``puzzle`` and return its path.

    Args:
        puzzle: the puzzle (a :class:`Puzzle`, a puzzle string or an array of cells).
        techniques: the technique families in order of preference (see the module doc);
            one name alone may be given as a string.
        max_subset: the largest subset size the ``subsets`` technique tries.
        rng: random choice of singles and of oracle cells; None takes the
            first available one, so those paths are deterministic. Refutation's
            scores are a Monte Carlo estimate and always draw from a generator:
            this one, or a fresh one when None (the package's seed convention:
            no seed, fresh randomness), so pass one for a repeatable path. A
            seed (an int) is taken too, as by every randomised function.
        solution: the solution grid, for ``refutation`` and ``oracle``; computed
            with :func:`csp_sudoku.solve` when needed and not given.
        max_steps: stop after this many steps (None: no limit).
        chains: how far the ``chains`` technique goes (levels, subset size
            inside assumptions, budget); None for :class:`ChainSettings` defaults.

    Returns:
        The :class:`SolvePath`; ``solved`` is False when the techniques got stuck.

    Raises:
        ArgumentError: before any step, for an unknown technique, a
            ``max_subset`` or ``max_steps`` that is not a whole number of at
            least 1, a ``chains`` that is not a ChainSettings, or a
            ``solution`` that is not the puzzle's solution grid.
        ParseError: a ``solution`` that is no grid of the puzzle's shape.
        SeedError: an ``rng`` that is no seed.
        NotUniqueError: when ``refutation`` or ``oracle`` need a solution and
            the puzzle has none.
    """
    from csp_sudoku.api import as_puzzle

    puzzle = as_puzzle(puzzle)
    order = _check_techniques(techniques)
    _check_options(max_subset, max_steps, chains)
    # a seed as every randomised function takes one (an int raised AttributeError)
    gen = None if rng is None else as_generator(rng)
    # checked whenever given: "zz" or 5 went unread unless refutation or oracle ran
    sol = None if solution is None else _given_solution(solution, puzzle)
    state = CandidateState.from_puzzle(puzzle)
    path = SolvePath(puzzle, techniques=order)
    if sol is None and NEEDS_SOLUTION.intersection(order) and puzzle.is_consistent():
        from csp_sudoku.api import solve

        solved = solve(puzzle)
        if solved is None:
            raise NotUniqueError("the puzzle has no solution to refute against or reveal")
        sol = np.asarray(solved.cells, dtype=np.int8)
    ctx = TechniqueContext(
        state=state,
        path=path,
        rng=gen,
        refutation_rng=gen if gen is not None else as_generator(None),
        solution=sol,
        max_subset=int(max_subset),
        chains=chains if chains is not None else ChainSettings(),
        memo=_SubsetMemo(),
        guide=_Guide(puzzle),
        limit=int(max_steps) if max_steps is not None else 10 * puzzle.geometry.ncandidates,
    )
    while len(path.steps) < ctx.limit:
        if state.is_contradiction():
            path.contradiction = True
            break
        if state.is_solved():
            break
        moved = False
        for tech in order:
            steps = TECHNIQUE_STEPS[tech](ctx)
            if steps:
                path.steps.extend(steps)
                moved = True
                break
            if path.contradiction or path.stopped:
                break
        if not moved or path.contradiction or path.stopped:
            break
    else:
        path.stopped = "max_steps"
    path.solved = state.is_solved() and not path.contradiction
    path.final = state.values.copy()
    return path


def explain(puzzle: Puzzle, **kwargs: Any) -> SolvePath:
    """Alias of :func:`solve_path` (the ``csp-sudoku explain`` command's engine)."""
    return solve_path(puzzle, **kwargs)


__all__ = [
    "DEFAULT_TECHNIQUES",
    "TECHNIQUES",
    "SolvePath",
    "Step",
    "describe_step",
    "explain",
    "solve_path",
]
