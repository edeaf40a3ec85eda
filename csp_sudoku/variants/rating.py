"""How hard a variant puzzle is for a person: a level and a score read off its explained path.

The rating is defined once, here, from the path of
:func:`csp_sudoku.variants.explain.explain`. That path takes, at every
point, the first move of the model's order that applies: singles, then each
constraint's own eliminations, then the 45 rule, then the constraint subset
rule, then refutation; and when none applies it stops and says the puzzle
needs a guess. So a step of a later class appears on the path only where no
earlier class could move, and the latest class a path needs is what a solver
by hand must know to finish the puzzle.

**The level** is that class (:data:`STEP_CLASSES`, :data:`LEVELS`):

=========  =============================================================
level      the hardest thing the path needs
=========  =============================================================
easy       singles alone (naked and hidden)
medium     each constraint's own eliminations (cage combinations, ...)
hard       the 45 rule (innies and outies of killer cages)
expert     the constraint subset rule (pointing, pairs, X-Wings, ...)
fiendish   refutation (assume a candidate, reach a contradiction)
guess      nothing applies: the path stops (or a refutation step ran
           past its budget of hypotheses)
=========  =============================================================

**The score** orders puzzles within a level and keeps the levels apart:
``score = rank + effort / (effort + cells)``, where ``rank`` is the level's
index (0 to 5), ``cells`` the number of cells of the grid, and ``effort``
how much of the hardest class the path needed:

* easy, medium, hard: the number of steps of that class;
* expert: the sizes of the subset steps, summed (an X-Wing counts 2, a
  pointing 1);
* fiendish: the number of refutation steps plus the moves of their chains
  (more and longer refutations, more work);
* guess: the empty cells left where the path stopped.

The fraction lies in ``[0, 1)`` and grows with the effort, so every score of
a level lies in ``[rank, rank + 1)``: a score range is a range of levels and
of effort within them (``score >= 4.5``: refutations whose steps and chain
moves outnumber the cells). With ``cells`` as the scale, an effort of one
grid's worth of cells adds one half, on every size.

:func:`rate_variant` checks that the puzzle has exactly one solution (a
rating of a puzzle with none or several would rate a path that proves
nothing), explains it, and rates the path with :func:`rate_path`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from csp_sudoku.constraints import VariantPuzzle
from csp_sudoku.core._version import __version__
from csp_sudoku.core.errors import ArgumentError, NotUniqueError
from csp_sudoku.variants.explain import (
    DEFAULT_BUDGET,
    DEFAULT_MAX_SUBSET,
    KINDS,
    VariantPath,
    VariantStep,
    check_settings,
    explain,
)

__all__ = [
    "DETAILS",
    "GUESS",
    "LEVELS",
    "METRIC",
    "STEP_CLASSES",
    "VariantRating",
    "level_rank",
    "rate_path",
    "rate_variant",
]

#: The class of a path that stops: after the step kinds of the explainer, in its order.
GUESS = "guess"
#: The step classes from easiest to hardest: the explainer's step kinds, then the stop.
STEP_CLASSES: tuple[str, ...] = (*KINDS, GUESS)
#: The level of each step class, in the same order.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "fiendish", "guess")
#: The name of the rating in rows next to the classic metrics (``rate``'s ``metric`` field).
METRIC = "variant"
#: The keys of :meth:`VariantRating.details` (the ``details`` of a rating row), in order.
DETAILS: tuple[str, ...] = (
    "hardest",
    "hardest_technique",
    "effort",
    "steps",
    "refutations",
    "chain_moves",
    "longest_chain",
    "stopped",
    "counts",
    "techniques",
)


def level_rank(level: str) -> int:
    """The index of ``level`` in :data:`LEVELS` (any case).

    Raises:
        ArgumentError: an unknown level.
    """
    try:
        return LEVELS.index(level.strip().lower())
    except ValueError:
        raise ArgumentError(
            f"unknown variant level {level!r}; choose from {', '.join(LEVELS)}"
        ) from None


@dataclass(frozen=True)
class VariantRating:
    """The rating of one variant puzzle (see the module doc for the definitions).

    Attributes:
        score: ``level_rank + effort / (effort + cells)``, in ``[0, 6)``.
        level: the level's name, one of :data:`LEVELS`.
        level_rank: its index in :data:`LEVELS`.
        hardest: the hardest step class the path needed, one of :data:`STEP_CLASSES`.
        hardest_technique: the technique of the hardest step of that class (the
            most effort; among equals, the technique the class used most, then
            the first), ``guess`` for a path that stopped, ``""`` for a puzzle
            with nothing to fill.
        effort: how much of the hardest class the path needed.
        counts: the steps of each class of :data:`STEP_CLASSES` but the last.
        techniques: the steps of each technique.
        steps: the steps of the path.
        refutations: the refutation steps.
        chain_moves: the moves of every refutation's chain, together.
        longest_chain: the moves of the longest chain.
        stopped: ``""`` for a solved path, else why it stopped (``guess``, ``budget``).
        parameters: the explainer's settings the path was made with.
        version: the csp_sudoku version that rated it.
    """

    score: float
    level: str
    level_rank: int
    hardest: str
    hardest_technique: str
    effort: int
    counts: dict[str, int] = field(default_factory=dict)
    techniques: dict[str, int] = field(default_factory=dict)
    steps: int = 0
    refutations: int = 0
    chain_moves: int = 0
    longest_chain: int = 0
    stopped: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)
    version: str = __version__

    def details(self) -> dict[str, Any]:
        """What the rating saw (the keys of :data:`DETAILS`), as the ``details`` of a rating row."""
        out = {k: getattr(self, k) for k in DETAILS}
        return {k: dict(v) if isinstance(v, dict) else v for k, v in out.items()}

    def to_dict(self) -> dict[str, Any]:
        """The rating in the shape of a classic rating row (``metric`` is ``variant``;
        deterministic, so ``runs`` and ``seed`` are None)."""
        return {
            "metric": METRIC,
            "score": self.score,
            "level": self.level,
            "level_rank": self.level_rank,
            "details": self.details(),
            "parameters": dict(self.parameters),
            "runs": None,
            "seed": None,
            "version": self.version,
        }


def _effort(step: VariantStep) -> int:
    """How much one step of its class counts: a subset its size, a refutation one
    plus the moves of its chain, any other step one."""
    if step.kind == "subset":
        return step.size
    if step.kind == "refutation":
        return 1 + len(step.chain)
    return 1


def rate_path(path: VariantPath, parameters: dict[str, Any] | None = None) -> VariantRating:
    """The rating of an explained path (see the module doc).

    Args:
        path: the path of :func:`~csp_sudoku.variants.explain.explain`.
        parameters: the explainer's settings, recorded in the rating.

    Raises:
        NotUniqueError: the path ran into a contradiction (the puzzle has no solution).
    """
    if path.contradiction:
        raise NotUniqueError("the puzzle has no solution: its path ends in a contradiction")
    counts = {k: 0 for k in KINDS}
    for s in path.steps:
        counts[s.kind] += 1
    chains = [len(s.chain) for s in path.steps if s.kind == "refutation"]
    if path.solved:
        used = [k for k in KINDS if counts[k]]
        hardest = used[-1] if used else KINDS[0]
        of_class = [s for s in path.steps if s.kind == hardest]
        effort = sum(_effort(s) for s in of_class)
        used_most = {
            t: sum(s.technique == t for s in of_class) for t in {s.technique for s in of_class}
        }
        # the most effort, then the technique the class used most, then the first
        top = max(of_class, key=lambda s: (_effort(s), used_most[s.technique]), default=None)
        technique = "" if top is None else top.technique
    else:
        hardest = GUESS
        effort = path.left()[0]
        technique = GUESS
    rank = STEP_CLASSES.index(hardest)
    cells = path.puzzle.geometry.ncells
    return VariantRating(
        score=rank + effort / (effort + cells),
        level=LEVELS[rank],
        level_rank=rank,
        hardest=hardest,
        hardest_technique=technique,
        effort=effort,
        counts=counts,
        techniques=path.technique_counts(),
        steps=len(path.steps),
        refutations=len(chains),
        chain_moves=sum(chains),
        longest_chain=max(chains, default=0),
        stopped=path.stopped,
        parameters=dict(parameters or {}),
    )


def rate_variant(
    puzzle: VariantPuzzle,
    *,
    max_subset: int = DEFAULT_MAX_SUBSET,
    budget: int = DEFAULT_BUDGET,
) -> VariantRating:
    """Rate a variant puzzle with exactly one solution by its explained path.

    Args:
        puzzle: the puzzle.
        max_subset: the explainer's largest subset size (its default: the
            rating's definition; a smaller one rates with a weaker solver).
        budget: the explainer's most hypotheses per refutation step.

    Raises:
        NotUniqueError: the puzzle has no solution or several.
        ArgumentError: a bad ``max_subset`` or ``budget`` (the explainer's check,
            :func:`~csp_sudoku.variants.explain.check_settings`, before any work).
    """
    from csp_sudoku import variants

    check_settings(max_subset=max_subset, budget=budget)
    verdict = variants.check(puzzle)
    if verdict != "unique":
        what = "no solution" if verdict == "none" else "more than one solution"
        raise NotUniqueError(f"the puzzle has {what}; only a unique puzzle is rated")
    path = explain(puzzle, max_subset=max_subset, budget=budget)
    return rate_path(path, {"max_subset": max_subset, "budget": budget})
