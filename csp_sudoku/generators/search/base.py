"""What every hard-end search strategy shares: what it is given, what it yields and
reports, and the value it climbs.

A *strategy* (:data:`Strategy`) is a function of a :class:`SearchRequest` (what to
search for) and a :class:`~csp_sudoku.generators.search.settings.SearchSettings`
(how) that yields new on-target puzzles (:class:`Found`) endlessly, until the
request's deadline or budget of chains; it counts what it does in the request's
:class:`SearchStats`, which the caller reads for progress reports.
:func:`csp_sudoku.generate` looks strategies up by name
(:data:`csp_sudoku.generators.registry.STRATEGIES`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid
from csp_sudoku.generators.novelty import KeySet
from csp_sudoku.generators.search.settings import SearchSettings
from csp_sudoku.generators.targeting import Target, level_order, lower_is_harder

if TYPE_CHECKING:
    from csp_sudoku.api import Checker
    from csp_sudoku.metrics.base import Rating

__all__ = ["Found", "SearchRequest", "SearchStats", "Strategy", "objective", "open_above"]


@dataclass(frozen=True)
class Found:
    """One new on-target puzzle of the search."""

    clues: Grid
    solution: Grid
    rating: Rating
    steps: int
    vicinity: bool = False  # found by a move from an earlier on-target state
    #: the caller's start (``starts``) whose vicinity it was found in, if any
    derived_from: Grid | None = None


@dataclass
class SearchStats:
    """What the search did so far (read by progress reports)."""

    steps: int = 0
    rated: int = 0
    restarts: int = 0
    copies: int = 0
    vicinity: int = 0  # steps that were vicinity moves (see ``expand``)
    cleared: int = 0  # candidates the metric's quick test showed too easy (not rated)
    renewals: int = 0  # times the search started over (see ``renew``)
    families: int = 0  # families the outputs came from (see ``per_grid``)
    expanded: int = 0  # states whose whole vicinity was searched (see ``deepen``)
    best: float = -math.inf
    best_rating: Rating | None = None
    best_clues: Grid | None = None  # the puzzle of ``best_rating``

    def note(self, h: float, rating: Rating, clues: Grid) -> None:
        """Keep ``clues`` as the best met when its objective ``h`` is above the best's."""
        if h > self.best:
            self.best, self.best_rating, self.best_clues = h, rating, clues


@dataclass(frozen=True)
class SearchRequest:
    """What a search strategy is given for one run, besides its settings.

    Attributes:
        geometry: the shape.
        target: what an output must satisfy; the search climbs the target
            metric's hardness.
        rng: the randomness (advanced; a run is reproduced by its seed), the
            only source of it.
        checker: the uniqueness checker.
        avoid: canonical keys not to produce; every output is added to it.
        symmetry: the clue-pattern symmetry kept by every move.
        minimal: keep every state minimal (among ``symmetry``-patterned puzzles).
        rating_seed: the seed of randomised metrics (SE is deterministic).
        deadline: a ``time.time()`` after which the search ends.
        stats: filled in as the search goes (progress reports).
        accept: a further test an output must pass (e.g. technique filters).
        on_step: called after every step (progress reports).
        max_chains: end after this many chains (restarts + 1); None: no limit.
            With it the search never enters the whole-vicinity search of
            ``deepen`` (a stall starts over at once): that search is no chain,
            and its passes can take minutes, which a budget of chains could
            not bound.
        per_grid: at most this many outputs per *family* (None: no limit).
            Two puzzles are of one family when they have one solution grid, or
            share at least half of the clues of the one with fewer (same cell,
            same digit): a find's neighbours. A vicinity search keeps its grid,
            so its outputs otherwise share few families; once a family has
            given ``per_grid``, its grids' hits and elite states are dropped
            and the search goes on from other grids. Grids are compared as
            they are, not up to isomorphism: the search never transforms a
            grid, and two climbs reaching isomorphic grids by chance is not
            looked for.
        starts: unique puzzles of the caller's to search from first: at the
            hard end the search begins with one pass (the first of
            ``windows``) of the whole-vicinity search of ``deepen`` from them
            (300 expansions without a new best when ``deepen`` is None), and
            its outputs name the start they came from
            (:attr:`Found.derived_from`); then it goes on as usual. Ignored,
            like ``deepen``, with a symmetry or non-minimal puzzles.
    """

    geometry: Geometry
    target: Target
    rng: np.random.Generator
    checker: Checker
    avoid: KeySet
    symmetry: str = "none"
    minimal: bool = True
    rating_seed: int = 0
    deadline: float | None = None
    stats: SearchStats = field(default_factory=SearchStats)
    accept: Callable[[Grid, Grid, Rating], bool] | None = None
    on_step: Callable[[], None] | None = None
    max_chains: int | None = None
    per_grid: int | None = None
    starts: Sequence[Grid] = ()


#: A search strategy: new on-target puzzles for a request, with the run's settings,
#: endlessly (until the request's deadline or budget of chains). It draws randomness
#: only from ``request.rng``, records every output in ``request.avoid`` (and yields
#: none it holds already), yields only puzzles ``request.accept`` passes, counts in
#: ``request.stats`` and calls ``request.on_step`` after every step.
Strategy = Callable[[SearchRequest, SearchSettings], Iterator[Found]]


def open_above(target: Target) -> bool:
    """True when every puzzle harder than an on-target one is on target too.

    That is the hard end (e.g. SE ``extreme``, or a score range with no upper
    bound on hardness): there the search climbs hardness itself.
    """
    order = level_order(target.metric)
    if target.levels and (not order or order[-1] not in target.levels):
        return False
    if target.score_range is not None:
        lo, hi = target.score_range
        bound = lo if lower_is_harder(target.metric) else hi
        if math.isfinite(bound) and abs(bound) < 1e6:
            return False
    return True


def objective(target: Target, rating: Rating) -> float:
    """The value the search climbs.

    At the hard end (:func:`open_above`) it is the hardness (the score, with
    its sign turned when lower is harder), so that the search keeps climbing
    past the threshold; a metric whose scores come in steps may break their
    ties with a ``fine_score`` in its details, a value in ``[score, next
    step)`` (SE's: how long the hardest step's chain is within its tenth,
    :func:`csp_sudoku.human.se_order.length_progress`), so that the search
    also climbs within a step, towards its next; otherwise 0 on target and minus the distance to it
    off target (:meth:`Target.distance` is a (level gap, score gap) pair
    compared as a tuple; one level weighs 10 score units, which keeps the order).
    """
    if open_above(target):
        if lower_is_harder(target.metric):
            return -rating.score
        return float(rating.details.get("fine_score", rating.score))
    gap, rest = target.distance(rating)
    return -(10.0 * gap + rest)
