"""``se``: Sudoku Explainer's rating (ER, EP, ED), by replaying its solving order.

Sudoku Explainer (SE) rates a puzzle by the hardest step of its solve, where
each step is the first hint of the first technique, in SE's fixed order, that
has one (ER); EP and ED are the same figure up to the first placement and for
the first step. The ``se`` metric replays that order
(:func:`csp_sudoku.human.se_order.se_solve`): singles and SE's "direct"
techniques, the subset rule's classic techniques, SE's named patterns, and
SE's chain families with SE's own values and length bonus. Two raters can be
replayed (``rater``): ``sukaku``, the SukakuExplainer serate (the default;
it adds strong-linked fishes and larger wings between 4.0 and 7.5) and
``classic``, Sudoku Explainer 1.2.1's serate.

SE's dynamic forcing chains (+) and its chains nested at levels 2 and 3
("+ Forcing Chains", "+ Multiple Forcing Chains") are replayed too. Only the
steps beyond them are estimated: there the human model's graded refutation
(:mod:`csp_sudoku.human.chains`) stands in for SE's deeper nesting, valued
``base + SE's length bonus of (scale x chain length)``, never below SE's
level-4 base. Those parameters are fitted to SE's ratings (``benchmarks/fit_se.py``, on two thirds
of ``se_calibration.tsv`` and ``se_calibration_top1465.tsv``; figures on the
held-out third in docs/validation.md) and ship in
``csp_sudoku/data/se_model.json``.

:func:`estimate` also rates a path of the human model itself
(:func:`csp_sudoku.human.path.solve_path`), step by step on SE's scale; that
is rougher (the model's chains are not SE's) and is not the metric.
"""

from __future__ import annotations

import inspect
import json
import math
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from typing import Any, Literal, overload

from csp_sudoku.api import PuzzleLike, as_puzzle, count_solutions, solutions
from csp_sudoku.core.errors import ArgumentError, NotUniqueError
from csp_sudoku.core.io import format_grid
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.human.catalogue import lookup
from csp_sudoku.human.costs import SE_CHAIN_BASE, SE_DIRECT, SE_VALUES, subset_value
from csp_sudoku.human.path import SolvePath, Step
from csp_sudoku.human.se_figures import Figure, figure
from csp_sudoku.human.se_order import (
    PROFILES,
    SeRun,
    SeStep,
    bound_within,
    length_bonus,
    length_progress,
    se_next,
    se_solve,
    solved_within,
)
from csp_sudoku.human.state import CandidateState

#: Level names of the ``se`` metric, easiest first, with the upper ER bound of each.
SE_LEVELS: tuple[tuple[str, float], ...] = (
    ("easy", 2.0),
    ("medium", 3.0),
    ("hard", 5.0),
    ("fiendish", 7.0),
    ("diabolical", 9.0),
    ("extreme", math.inf),
)

#: The raters the metric can replay, and the default.
RATERS: tuple[str, ...] = PROFILES
DEFAULT_RATER = "sukaku"


@dataclass(frozen=True)
class SeModel:
    """The value of a graded-refutation chain on SE's scale.

    A chain of the human model at ``level`` (0 singles, 1 with the subset
    rule, 2 nested) with ``length`` implications is worth SE's base value of
    the family it stands for (dynamic 8.5, dynamic "+" ``plus_base``, nested
    ``nested_base``) plus SE's length bonus (:func:`length_bonus`) of
    ``length_scale * length``: SE too adds to a chain's base value as its
    complexity grows, 0.1 for every step of about half a doubling.

    Attributes:
        plus_base: level 1 (SE's "dynamic forcing chains (+)", 9.0).
        nested_base: level 2 and up (SE's nesting beyond the replayed levels;
            the step's value is never below SE's level-4 base, 10.5).
        length_scale: SE complexity per implication of the model's chain.
        cap: the largest value a step can take (SE's scale ends near 12).
        fitted_on: where the parameters come from.
    """

    plus_base: float = SE_CHAIN_BASE["dynamic (+)"]
    nested_base: float = SE_CHAIN_BASE["nested"]
    length_scale: float = 1.0
    cap: float = 12.0
    fitted_on: str = "defaults (not fitted)"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SeModel:
        """Inverse of :meth:`to_dict`."""
        return cls(
            float(d["plus_base"]),
            float(d["nested_base"]),
            float(d["length_scale"]),
            float(d.get("cap", 12.0)),
            str(d.get("fitted_on", "")),
        )

    def chain_value(self, level: int, form: str, length: int) -> float:
        """The value of a chain step (the form does not change SE's family value)."""
        if level <= 0:
            base = SE_CHAIN_BASE["dynamic"]
        elif level == 1:
            base = self.plus_base
        else:
            base = self.nested_base
        complexity = max(2, round(self.length_scale * max(length, 0)))
        return min(self.cap, base + length_bonus(complexity))


def _model(model: object) -> SeModel:
    """``model``, or the shipped one for None; an :class:`ArgumentError` for anything
    else (a name raised AttributeError: 'str' object has no attribute 'chain_value')."""
    if model is None:
        return shipped_model()
    if not isinstance(model, SeModel):
        raise ArgumentError(f"model must be an SeModel (or None), not {model!r:.40}")
    return model


@lru_cache(maxsize=1)
def shipped_model() -> SeModel:
    """The fitted model shipped with the package (defaults if the file is missing),
    read once per process."""
    try:
        text = resources.files("csp_sudoku").joinpath("data/se_model.json").read_text()
    except (FileNotFoundError, OSError):
        return SeModel()
    return SeModel.from_dict(json.loads(text))


def replay(
    puzzle: Puzzle,
    rater: str = DEFAULT_RATER,
    model: SeModel | None = None,
    *,
    stop_within: bool = False,
) -> SeRun:
    """SE's solve of ``puzzle`` as ``rater`` would make it (see the module doc).

    A level-2 search past its budget ends the run with ``stopped`` =
    ``budget`` (the steps found are kept). ``stop_within``: a search's replay,
    ended once the quick test shows the rest worth less than the hardest step
    so far (:func:`~csp_sudoku.human.se_order.se_solve`).

    Raises:
        ArgumentError: for an unknown rater.
    """
    m = _model(model)
    return se_solve(puzzle, m.chain_value, profile=rater, stop_within=stop_within)


def _unique(puzzle: PuzzleLike, what: str) -> Puzzle:
    """The puzzle, checked to have one solution: a hint or a path is a proof
    only then (SE's uniqueness techniques assume it).

    Raises:
        NotUniqueError: no solution or several; the message says ``what`` is no proof.
    """
    p = as_puzzle(puzzle)
    n = count_solutions(p, 2)
    if n != 1:
        raise NotUniqueError(
            f"the puzzle has {'no solution' if n == 0 else 'several solutions'}: {what} is a proof"
        )
    return p


def _marks_hold(state: CandidateState) -> None:
    """Refuse pencil marks that do not have exactly one solution: a hint from marks
    with none would be drawn from a false premise (a player's wrong elimination, or
    a wrong digit placed) and could lead the player on to a contradiction; one from
    marks with several is no proof either (SE's uniqueness techniques assume one,
    and a Unique Rectangle then removed both solutions).

    The marks are a puzzle of their own (a pencil-mark puzzle, as Sukaku Explainer
    reads them, may be unique where its placed digits are not), so their own
    solutions are counted, to 2 (:meth:`CandidateState.solutions`). Where they have
    none, the message names what is wrong when the placed digits show it.

    Raises:
        NotUniqueError: saying that the marks contradict each other
            (:meth:`CandidateState.fault`), that a placed digit is wrong, which
            cell lost its digit in the solution, or that the marks leave no
            solution or several.
    """
    why = state.fault()
    if why is not None:
        raise NotUniqueError(f"the pencil marks contradict each other ({why}): no hint is a proof")
    found = state.solutions(2)
    if len(found) == 1:
        return
    if found:
        raise NotUniqueError("the pencil marks leave several solutions: no hint is a proof")
    placed = solutions(state.to_puzzle(), 2)
    if not placed:
        raise NotUniqueError(
            "the placed digits have no solution (one of them is wrong): no hint is a proof"
        )
    if len(placed) == 1:  # its digit is missing from some cell's marks, else it would hold
        digits = placed[0].cells
        cell = next(c for c in state.empty_cells().tolist() if not state.has(c, int(digits[c])))
        raise NotUniqueError(
            f"the pencil marks have no {int(digits[cell])} in "
            f"{state.geometry.cell_name(cell)}, its digit in the solution: no hint is a proof"
        )
    raise NotUniqueError("the pencil marks leave no solution: no hint is a proof")


#: The solving orders :func:`next_step` knows.
ORDERS = ("se",)

#: The paths :func:`solve_path` knows: ``se`` (the path the ``se`` rating rates;
#: the default) and ``subsets`` (the human model's, :func:`csp_sudoku.human.path.solve_path`).
PATH_ORDERS = ("se", "subsets")


def _lit(g: Any, lit: tuple[int, int, bool]) -> str:
    return f"{g.cell_name(lit[0])}{'=' if lit[2] else '<>'}{lit[1]}"


@dataclass(frozen=True)
class SePath:
    """The se path of a puzzle: the replay the ``se`` rating reads, with what to show.

    Its steps are the replay's :class:`SeStep` objects, unchanged (their
    technique names are the catalogue's), so the hardest step is the rating's
    ER by construction. :meth:`figures` adds each step's pattern (cells,
    links, assumption; :mod:`csp_sudoku.human.se_figures`), read from the
    pencil marks before it.

    Attributes:
        puzzle: the puzzle.
        run: the replay (steps, solved, stopped).
        rater: whose order was replayed (``sukaku`` or ``classic``).
    """

    puzzle: Puzzle
    run: SeRun
    rater: str = DEFAULT_RATER

    @property
    def steps(self) -> list[SeStep]:
        """The steps, in order."""
        return self.run.steps

    @property
    def solved(self) -> bool:
        """True when the path fills every cell."""
        return self.run.solved

    @property
    def stopped(self) -> str:
        """Why the path ended early: ``""``, ``stuck`` or ``budget`` (see :class:`SeRun`)."""
        return self.run.stopped

    @property
    def er(self) -> float:
        """SE's ER: the hardest step."""
        return self.run.er

    def states(self) -> list[CandidateState]:
        """The pencil marks before every step, and last those after the final one."""
        state = CandidateState.from_puzzle(self.puzzle)
        out = [state.copy()]
        for s in self.steps:
            for c, d in s.eliminations:
                state.eliminate(c, d)
            for c, d in s.placements:
                state.place(c, d)
            out.append(state.copy())
        return out

    def figures(self) -> list[Figure]:
        """Each step's pattern (:func:`csp_sudoku.human.se_figures.figure`)."""
        return [figure(st, s) for st, s in zip(self.states(), self.steps, strict=False)]

    def describe_step(
        self, index: int, fig: Figure | None = None, *, chains: bool = True
    ) -> list[str]:
        """Step ``index`` (0-based) as text lines: ``technique (difficulty): what``,
        then its pattern, links (``=>`` strong, ``->`` weak), branches, and (unless
        ``chains`` is False: the HTML page lists them itself) the human model's
        chains with nested refutations folded to their conclusion."""
        g = self.puzzle.geometry
        s = self.steps[index]
        f = fig if fig is not None else self.figures()[index]
        what = [f"{g.cell_name(c)}={d}" for c, d in s.placements]
        what += [f"{g.cell_name(c)}<>{d}" for c, d in s.eliminations]
        lines = [f"{index + 1:3d}. {s.technique} ({s.difficulty:.1f}): {', '.join(what)}"]
        pad = "       "
        if s.shown:
            kept = ", ".join(f"{g.cell_name(c)}<>{d}" for c, d in s.shown)
            lines.append(pad + f"shows {kept} (marks kept)")
        # the unit, the cover lines and a wing's cells are drawn; the text names the rest
        shown = [(r, c) for r, c in f.roles if r not in ("unit", "cover", "wing")]
        if shown and not s.branches:
            on = f" on {f.digit}" if f.digit else ""
            parts = [
                ("" if r == "pattern" else r + " ") + " ".join(g.cell_name(c) for c in cs)
                for r, cs in shown
            ]
            lines.append(pad + f"pattern{on}: " + "; ".join(parts))
        if s.branches:
            concl = what[0] if what else "?"
            lines.append(
                pad
                + "branches: "
                + " | ".join(_lit(g, p) for p in s.branches)
                + (f"  each => {concl}" if len(s.branches) > 1 else "  => contradiction")
            )
            lines.extend(pad + "  " + line for line in _branch_text(g, s, f))
        elif f.links:
            text = _lit(g, f.links[0][0])
            for _a, b, strong in f.links:
                text += (" => " if strong else " -> ") + _lit(g, b)
            fold = f" ({f.folded} links before folded)" if f.folded else ""
            lines.append(pad + ("chain: " if s.chain else "links: ") + text + fold)
        for i, chain in enumerate(s.chains if chains else ()):
            lines.append(pad + (f"branch {i + 1}:" if len(s.chains) > 1 else "chain:"))
            lines.extend(folded_chain_text(chain, g, pad + "  "))
        return lines

    def describe(self) -> list[str]:
        """The whole path as text: the grid, every step, then ER, EP and ED."""
        lines = [format_grid(self.puzzle), ""]
        for i, f in enumerate(self.figures()):
            lines.extend(self.describe_step(i, f))
        if self.steps:
            hardest = next(s for s in self.steps if s.difficulty == self.run.er)
            tail = ""
            if not self.solved:
                tail = "; stopped: " + (
                    "a nested search ran past its budget, the steps above are those found"
                    if self.stopped == "budget"
                    else "no technique applies"
                )
            lines.append(
                f"ER {self.run.er:.1f} ({hardest.technique}), EP {self.run.ep:.1f}, "
                f"ED {self.run.ed:.1f}" + tail
            )
        else:  # a full grid: Sudoku Explainer rates it 0.0 too
            lines.append("ER 0.0, EP 0.0, ED 0.0: the grid is full, there is no step to take")
        return lines

    def to_dict(self) -> dict[str, Any]:
        """JSON form (docs/explain_schema.md, "The se path")."""
        steps = []
        for s, f in zip(self.steps, self.figures(), strict=True):
            d: dict[str, Any] = {
                "technique": s.technique,
                "difficulty": round(s.difficulty, 2),
                "placements": [list(p) for p in s.placements],
                "eliminations": [list(p) for p in s.eliminations],
                "shown": [list(p) for p in s.shown],
                "complexity": s.complexity,
                "chain": [[c, dg, on] for c, dg, on in s.chain],
                "branches": [[c, dg, on] for c, dg, on in s.branches],
                "figure": f.to_dict(),
            }
            if s.chains:
                d["chains"] = [c.to_dict() for c in s.chains]
            steps.append(d)
        return {
            "order": "se",
            "puzzle": self.puzzle.to_line(),
            "geometry": self.puzzle.geometry.name,
            "rater": self.rater,
            "solved": self.solved,
            "stopped": self.stopped,
            "er": round(self.run.er, 2),
            "ep": round(self.run.ep, 2),
            "ed": round(self.run.ed, 2),
            "steps": steps,
        }


def _branch_text(g: Any, s: SeStep, f: Figure) -> list[str]:
    """Each branch of a forcing chains step as its chains by first parents
    (``=>`` strong, ``->`` weak; ``...`` where a folded chain's drawn links
    start), then the branch's other links (a dynamic net's extra parents and
    their ancestors), then what was folded."""
    lines = []
    for i, premise in enumerate(s.branches):
        label = f"branch {i + 1}: " if len(s.branches) > 1 else "branch: "
        drawn = [link for link, b in zip(f.links, f.branch_of, strict=True) if b == i]
        on_chain = set()
        for chain in f.main_chains(i):
            text = "" if chain[0] == premise else "... "
            text += _lit(g, chain[0])
            for a, b in pairwise(chain):
                text += (" => " if not a[2] else " -> ") + _lit(g, b)
                on_chain.add((a, b))
            lines.append(label + text)
            label = " " * len(label)
        side = [(a, b, st) for a, b, st in drawn if (a, b) not in on_chain]
        if side:
            lines.append(
                " " * len(label)
                + "also: "
                + ", ".join(
                    _lit(g, a) + (" => " if st else " -> ") + _lit(g, b) for a, b, st in side
                )
            )
        for branch, lit, name, comp, chains in f.inner:
            if branch != i:
                continue
            head = f"{' ' * len(label)}inside: {_lit(g, lit)} by {name} ({comp}): "
            for chain in chains:
                text = _lit(g, chain[0])
                for a, b in pairwise(chain):
                    text += (" => " if not a[2] else " -> ") + _lit(g, b)
                lines.append(head + text)
                head = " " * len(head)
    if f.folded:
        lines.append(f"({f.folded} links of the branches folded)")
    return lines


def folded_chain_text(chain: Any, geometry: Any, indent: str) -> list[str]:
    """A human-model chain one link a line, each nested refutation folded to
    its conclusion (the link) and its length; ``--json`` (``inner``) and
    ``--html`` (a details element) unfold it."""
    from csp_sudoku.human.chains import describe_chain

    flat = replace(chain, links=tuple(replace(link, inner=None) for link in chain.links))
    lines = describe_chain(flat, geometry, indent)
    for i, link in enumerate(chain.links):
        if link.inner is not None:
            lines[i] = lines[i].replace(
                "nested refutation:",
                f"nested refutation [{link.inner.length} links, folded]",
            )
    return lines


@overload
def solve_path(
    puzzle: PuzzleLike, order: Literal["se"] = ..., *, rater: str = ..., model: SeModel | None = ...
) -> SePath: ...


@overload
def solve_path(puzzle: PuzzleLike, order: Literal["subsets"], **options: Any) -> SolvePath: ...


@overload
def solve_path(puzzle: PuzzleLike, order: str, **options: Any) -> SePath | SolvePath: ...


def solve_path(puzzle: PuzzleLike, order: str = "se", **options: Any) -> SePath | SolvePath:
    """The step-by-step explanation of ``puzzle``: by default the se path, the one
    the ``se`` rating rates (``csp-sudoku explain`` shows the same).

    Args:
        puzzle: a puzzle (anything :func:`csp_sudoku.api.as_puzzle` takes).
        order: ``se`` (Sudoku Explainer's order: the rating's replay, as an
            :class:`SePath`; the default) or ``subsets`` (the human model's
            path, :func:`csp_sudoku.human.path.solve_path`, as a ``SolvePath``).
        options: for ``se``: ``rater`` (``sukaku`` or ``classic``) and
            ``model``; for ``subsets``: the keyword arguments of
            :func:`csp_sudoku.human.path.solve_path` (``techniques``,
            ``max_subset``, ``rng``, ``chains``, ...).

    Returns:
        The path. An se path that met a level-2 search past its budget has
        ``stopped`` = ``budget`` and keeps the steps found.

    Raises:
        ArgumentError: for an unknown order (the message lists them), an
            unknown rater or option.
        NotUniqueError: for a puzzle with no solution or several (a path is
            a proof only for a puzzle with one solution).
    """
    if order not in PATH_ORDERS:
        raise ArgumentError(f"unknown order {order!r}; choose from {', '.join(PATH_ORDERS)}")
    if order == "subsets":
        from csp_sudoku.human.path import solve_path as human_path

        # the names here, each value where the path starts (before any step): a
        # TypeError from inside the path is a bug to see, not a bad argument
        known = [k for k in inspect.signature(human_path).parameters if k != "puzzle"]
        unknown = set(options) - set(known)
        if unknown:
            raise ArgumentError(
                f"solve_path(order='subsets') takes {', '.join(known)}, "
                f"not {', '.join(sorted(unknown))}"
            )
        return human_path(_unique(puzzle, "no explanation"), **options)
    p = _unique(puzzle, "no explanation")
    unknown = set(options) - {"rater", "model"}
    if unknown:
        raise ArgumentError(
            f"solve_path(order='se') takes rater and model, not {', '.join(sorted(unknown))}"
        )
    rater = str(options.get("rater", DEFAULT_RATER))
    if rater not in RATERS:
        raise ArgumentError(f"unknown rater {rater!r}; choose from {', '.join(RATERS)}")
    return SePath(p, replay(p, rater, options.get("model")), rater)


def next_step(
    puzzle: PuzzleLike | CandidateState,
    order: str = "se",
    rater: str = DEFAULT_RATER,
    model: SeModel | None = None,
) -> SeStep | None:
    """The next step of the ``se`` path from a puzzle or from pencil marks, as
    the same :class:`SeStep` the rating's replay records (technique named as
    in :mod:`csp_sudoku.human.catalogue`), without solving to the end.

    Args:
        puzzle: a puzzle (anything :func:`csp_sudoku.api.as_puzzle` takes) or a
            :class:`CandidateState` holding the player's candidates.
        order: the solving order; only ``se`` (see :data:`ORDERS`).
        rater: ``sukaku`` or ``classic`` (see :data:`RATERS`).
        model: the fallback model for steps beyond SE's dynamic chains.

    Returns:
        The step, or None when solved, contradictory, or stuck.

    Raises:
        ArgumentError: for an unknown order or rater.
        NotUniqueError: for a puzzle with no solution or several, or pencil marks
            that leave no solution or several (see :func:`_marks_hold`).
        ChainBudgetExceeded: when a level-2 search runs past its budget.
    """
    if order not in ORDERS:
        raise ArgumentError(f"unknown order {order!r}; choose from {', '.join(ORDERS)}")
    if rater not in RATERS:
        raise ArgumentError(f"unknown rater {rater!r}; choose from {', '.join(RATERS)}")
    if isinstance(puzzle, CandidateState):
        _marks_hold(puzzle)
        state = puzzle
    else:
        state = CandidateState.from_puzzle(_unique(puzzle, "no hint"))
    m = _model(model)
    step = se_next(state, m.chain_value, profile=rater)
    if step is None:
        return None
    return replace(step, technique=lookup(step.technique).name)


# --------------------------------------------------------------------------- human paths


def step_difficulty(step: Step, puzzle: Puzzle, model: SeModel | None = None) -> float:
    """The difficulty of one step of a human-model path on SE's scale."""
    m = _model(model)
    if step.kind == "single":
        return _single_value(puzzle, step.unit)
    if step.kind == "subset":
        return subset_value(step.technique, step.size)
    if step.kind == "chain":
        return m.chain_value(step.level, step.form, step.length)
    # refutation and oracle steps are outside SE's techniques: rate them as a
    # long nested chain, so a path that needed them is never rated easy
    return m.chain_value(2, "contradiction", 64)


def _single_value(puzzle: Puzzle, unit: int) -> float:
    """SE's value of a single: hidden in a box, hidden in a line, naked (``unit`` -1)."""
    if unit < 0:
        return SE_VALUES["naked single"]
    kinds = puzzle.geometry.unit_kinds
    if 0 <= unit < len(kinds) and kinds[unit] in ("box", "region"):
        return SE_VALUES["hidden single (box)"]
    return SE_VALUES["hidden single"]


@dataclass(frozen=True)
class SeEstimate:
    """ER, EP and ED estimates and the per-step difficulties they come from."""

    er: float
    ep: float
    ed: float
    difficulties: tuple[float, ...]
    hardest: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form (difficulties rounded to 0.01)."""
        return {
            "er": round(self.er, 2),
            "ep": round(self.ep, 2),
            "ed": round(self.ed, 2),
            "hardest": self.hardest,
            "difficulties": [round(d, 2) for d in self.difficulties],
        }


def _greedy_singles(state: CandidateState, count: int, puzzle: Puzzle) -> list[float]:
    """SE's order within a run of singles: the easiest single each time.

    SE takes a hidden single in a box (1.2) before one in a line (1.5) before
    a naked single (2.3). Singles only ever add placements, so any order
    places the same cells; the order changes only how hard the run is. The
    model's path takes the first single it sees, so the run is replayed here
    on a copy, ``count`` placements long.
    """
    work = state.copy()
    out: list[float] = []
    for _ in range(count):
        best: dict[tuple[int, int], float] = {}
        for single in work.naked_singles():
            best[(single.cell, single.digit)] = SE_VALUES["naked single"]
        for single in work.hidden_singles():
            key = (single.cell, single.digit)
            best[key] = min(best.get(key, math.inf), _single_value(puzzle, single.unit))
        if not best:
            break
        (cell, digit), value = min(best.items(), key=lambda kv: (kv[1], kv[0]))
        out.append(value)
        work.place(cell, digit)
    return out


def difficulties(path: SolvePath, model: SeModel | None = None) -> list[float]:
    """The difficulty of every step of a human-model ``path`` on SE's scale.

    Singles are rated in SE's order within each run of singles (see
    :func:`_greedy_singles`); other steps by :func:`step_difficulty`.
    """
    puzzle = path.puzzle
    state = CandidateState.from_puzzle(puzzle)
    out: list[float] = []
    steps = path.steps
    i = 0
    while i < len(steps):
        if steps[i].kind == "single":
            j = i
            while j < len(steps) and steps[j].kind == "single":
                j += 1
            run = _greedy_singles(state, j - i, puzzle)
            run += [step_difficulty(s, puzzle, model) for s in steps[i + len(run) : j]]
            out.extend(run)
            for s in steps[i:j]:
                for c, d in s.placements:
                    state.place(c, d)
            i = j
            continue
        s = steps[i]
        value = step_difficulty(s, puzzle, model)
        if s.kind == "subset" and i + 1 < len(steps) and steps[i + 1].kind == "single":
            # no single was available before it, so it made the next one: SE's direct form
            value = min(value, SE_DIRECT.get(s.technique, value))
        out.append(value)
        for c, d in s.placements:
            state.place(c, d)
        for c, d in s.eliminations:
            state.eliminate(c, d)
        i += 1
    return out


def estimate(path: SolvePath, model: SeModel | None = None) -> SeEstimate:
    """ER (the hardest step), EP (the hardest up to the first placement) and ED
    (the first step) of a solved human-model path."""
    diffs = tuple(difficulties(path, model))
    if not diffs:
        return SeEstimate(0.0, 0.0, 0.0, (), "")
    first_place = next((i for i, s in enumerate(path.steps) if s.placements), len(diffs) - 1)
    top = max(range(len(diffs)), key=lambda i: diffs[i])
    return SeEstimate(
        max(diffs), max(diffs[: first_place + 1]), diffs[0], diffs, path.steps[top].technique
    )


# --------------------------------------------------------------------------- the metric


def level_of(er: float) -> tuple[str, int]:
    """The ``se`` level name and rank of an ER estimate."""
    for rank, (name, upper) in enumerate(SE_LEVELS):
        if er <= upper:
            return name, rank
    return SE_LEVELS[-1][0], len(SE_LEVELS) - 1


def level_floor(level: str) -> float:
    """The greatest ER below ``level`` (a puzzle is at that level or harder only
    when its ER is above it): the previous level's upper bound, 0 for the first."""
    names = [name for name, _upper in SE_LEVELS]
    i = names.index(level.lower())
    return SE_LEVELS[i - 1][1] if i else 0.0


def rated_within(
    puzzle: Puzzle, limit: float, forcing: bool = False, solution: Puzzle | None = None
) -> bool:
    """True when a quick search shows ``puzzle``'s ER is at most ``limit``, almost
    surely (:func:`csp_sudoku.human.se_order.solved_within`); False says nothing.
    ``forcing``: where contradictions find nothing, SE's dynamic cell and region
    forcing chains too (a tighter test, costlier where it fails). ``solution``:
    the puzzle's solution when the caller knows it (no solver call).

    For both raters: the search uses SE's dynamic chains, which both rate alike.
    """
    return solved_within(puzzle, limit, forcing, None if solution is None else solution.cells)


def rated_bound(
    puzzle: Puzzle, low: float, top: float, solution: Puzzle | None = None
) -> float | None:
    """The least ER from ``low`` up to ``top``, in tenths, that the thorough quick
    test shows ``puzzle`` rated at most, from one search that raises its limit
    only where it is stuck (:func:`csp_sudoku.human.se_order.bound_within`); None
    when it cannot clear ``top``. A bound, almost surely, as the test is."""
    return bound_within(puzzle, low, top, None if solution is None else solution.cells)


def se_rating(
    puzzle: Puzzle, rater: str = DEFAULT_RATER, *, stop_within: bool = False
) -> tuple[float, str, int, dict[str, Any], dict[str, Any]]:
    """``(score, level, rank, details, parameters)`` of the ``se`` metric.

    ``stop_within`` (the ``stop_within`` parameter of ``rate``): a search's
    rating, from a replay ended once the quick test shows the rest of the
    path worth less than the hardest step so far: the ER and the fine score
    are the full replay's almost surely, a little faster on a search's states
    (1.04-1.17x, docs/generators.md, "Replays that stop early"). Where it did
    stop, the other details cover the steps replayed only, and
    ``details["partial"]`` is True (a generator rates such an output again
    in full); where it did not, the rating is the full one.

    Raises:
        MetricError: for an unknown rater, or when the replay stops before
            solving (a search budget ran out), so no rating can be given.
    """
    from csp_sudoku.core.errors import ChainBudgetExceeded
    from csp_sudoku.metrics.base import MetricError

    if rater not in RATERS:
        raise MetricError(
            f"unknown rater {rater!r} for metric 'se'; choose from {', '.join(RATERS)}"
        )
    try:
        run = replay(puzzle, rater, stop_within=stop_within)
    except ChainBudgetExceeded as exc:
        raise MetricError(f"the replay did not solve the puzzle ({exc})") from None
    if not run.solved and run.stopped != "within":
        raise MetricError(f"the replay did not solve the puzzle ({run.stopped or 'stuck'})")
    diffs = [s.difficulty for s in run.steps]
    er = run.er
    # the catalogue's spelling: every name shown or validated elsewhere reads it
    # a full grid has no step: ER 0.0, as Sudoku Explainer rates it, and no hardest
    hardest = next((lookup(s.technique).name for s in run.steps if s.difficulty == er), None)
    counts: dict[str, int] = {}
    for s in run.steps:
        counts[s.technique] = counts.get(s.technique, 0) + 1
    level, rank = level_of(er)
    # the hardest step's chain length, as a tie-break within its tenth (a search
    # climbing SE's rating moves towards states whose hardest step is longer)
    longest = max((s.complexity for s in run.steps if s.difficulty == er), default=0)
    details = {
        "er": round(er, 2),
        "fine_score": round(er + 0.1 * length_progress(longest), 4),
        "ep": round(run.ep, 2),
        "ed": round(run.ed, 2),
        "hardest": hardest,
        "difficulties": [round(d, 2) for d in diffs],
        "steps": len(run.steps),
        "technique_counts": counts,
        # a step beyond the replayed nesting came from the human model's chains,
        # valued by a fit: the ER is then an estimate, not SE's replay
        "estimated": any(s.level >= 1 for s in run.steps),
    }
    params: dict[str, Any] = {"rater": rater, "model": shipped_model().fitted_on}
    if run.stopped == "within":
        details["partial"] = True  # the steps after the hardest were not replayed
        params["stop_within"] = True
    return er, level, rank, details, params
