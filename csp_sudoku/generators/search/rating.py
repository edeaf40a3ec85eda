"""How a search rates its states: once each, cheaply where a quick test can say enough.

:class:`Rater` rates a clue set with the target's metric (a cache keyed by the
clue bytes: annealing revisits clue sets, and at the hard end a rating takes
seconds), and asks the metric's quick one-sided test (SE's
:func:`~csp_sudoku.human.se_order.solved_within`) before a rating that only
matters above a limit. Until the first output, states are rated with the
metric's search parameters (SE: a replay that stops once the quick test shows
the rest worth less than the hardest step so far: the same score, faster), and
a partial rating that makes an output is rated again in full; once outputs
come (at the extreme level within seconds) the full rating is cheaper than
rating them twice (docs/generators.md, "Replays that stop early").

Every full rating goes through this module's ``_rate`` and every quick test
is looked up by ``_within`` (tests and benchmarks count and time them there).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from csp_sudoku.core.errors import MetricError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.generators.search.base import SearchStats
from csp_sudoku.generators.targeting import Target
from csp_sudoku.generators.targeting import rate_with_solution as _rate

if TYPE_CHECKING:
    from csp_sudoku.metrics.base import Rating

__all__ = ["Rater"]

#: How many clue sets the quick test's verdicts are remembered for before they are
#: forgotten (the whole-vicinity search tests about 500 neighbours a second; each
#: entry takes about 180 bytes: 90 MB in all).
_CLEARED_MAX = 500_000

#: How many clue sets' ratings are cached before the cache is emptied (it pays at
#: the hard end, where the search comes back to clue sets it rated; emptying it
#: bounds a long search's memory, and a set met again is rated again).
_RATED_MAX = 200_000

#: The metric's quick test that a score is at most a limit, with the solution.
Within = Callable[[Puzzle, float, "Puzzle | None"], bool]

#: The metric's bound from its quick test: ``bound(puzzle, low, top, solution)``.
Bound = Callable[[Puzzle, float, float, "Puzzle | None"], "float | None"]


def _within(metric: str, thorough: bool = False) -> Within | None:
    """The metric's quick test that a score is at most a limit (None: it has none);
    ``thorough``: its tighter, costlier form where it has one."""
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY.get(metric)
    if spec is None:
        return None
    return (spec.within_thorough or spec.within) if thorough else spec.within


def _bound(metric: str) -> Bound | None:
    """The metric's bound from its quick test (None: it has none)."""
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY.get(metric)
    return None if spec is None else spec.bound


class Rater:
    """A search's ratings of clue sets: cached, behind the metric's quick test.

    Attributes:
        floor: the target's floor (the greatest score too easy for it; None
            when it has none: then no quick test is asked).
        bound: the metric's bound from its quick test (None: it has none, or
            no floor).
        cache: the ratings so far by clue bytes (None: the rater gave up).
        partial: rate with the metric's search parameters (a replay that stops
            early); :meth:`outputs_came` turns it off.
    """

    def __init__(
        self, geometry: Geometry, target: Target, rating_seed: int, stats: SearchStats
    ) -> None:
        self.geometry = geometry
        self.metric = target.metric
        self.rating_seed = rating_seed
        self.stats = stats
        self.partial = True
        # the metric's quick test, for the vicinity moves: a candidate it shows rated
        # at most the target's floor and the weakest elite state can change nothing
        # (no output, no elite state, no new best), so its full rating (most of a
        # search's time) is skipped, and the search takes the same steps as without
        # the test
        self.floor = target.floor()
        self._within = _within(self.metric) if self.floor is not None else None
        self._thorough = _within(self.metric, thorough=True) if self.floor is not None else None
        self.bound = _bound(self.metric) if self.floor is not None else None
        self.cache: dict[bytes, Rating | None] = {}
        self._cleared: dict[bytes, float] = {}  # clue bytes -> the limit they were cleared at

    def outputs_came(self) -> None:
        """An output came: rate in full from now on (rating outputs twice costs more)."""
        self.partial = False

    def clear(self, clues: Grid, sol: Grid, limit: float, deep: bool = False) -> bool:
        """The quick test (``deep``: its thorough form) of ``clues`` with the solution
        ``sol``: True when the metric's score is at most ``limit`` almost surely
        (remembered per clue set)."""
        key = clues.tobytes()
        if self._cleared.get(key, math.inf) <= limit:
            return True
        test = self._thorough if deep else self._within
        if test is None or not test(
            Puzzle.trusted(clues, self.geometry), limit, Puzzle.trusted(sol, self.geometry)
        ):
            return False
        self.stats.cleared += 1
        if len(self._cleared) > _CLEARED_MAX:
            # a long search meets millions: the test gives the same answer again
            self._cleared.clear()
        self._cleared[key] = limit
        return True

    def value(
        self,
        clues: Grid,
        sol: Grid,
        limit: float | None = None,
        deep: bool = False,
        unless: Callable[[Grid, Grid], bool] | None = None,
    ) -> Rating | None:
        """The rating of ``clues`` (solution ``sol``), from the cache when it is there;
        None when the quick test shows it at most ``limit`` (not rated), when
        ``unless(clues, sol)`` is true after the test (a state the caller has no use
        for, asked only of those the test leaves), or the rater gave up (a chain
        budget: a dead end)."""
        key = clues.tobytes()
        if key in self.cache:
            return self.cache[key]
        if limit is not None and self.clear(clues, sol, limit, deep):
            return None
        if unless is not None and unless(clues, sol):
            return None
        try:
            r: Rating | None = _rate(
                Puzzle(clues, self.geometry),
                Puzzle(sol, self.geometry),
                self.metric,
                self.rating_seed,
                search=self.partial,
            )
        except MetricError:
            r = None  # the rater gave up (a chain budget): treat as a dead end
        self.stats.rated += 1
        if len(self.cache) > _RATED_MAX:
            self.cache.clear()
        self.cache[key] = r
        return r

    def in_full(self, clues: Grid, sol: Grid) -> Rating:
        """The full rating of ``clues`` (not cached, not counted: an output's, where the
        search's was partial).

        Raises:
            MetricError: the rater gave up.
        """
        return _rate(
            Puzzle(clues, self.geometry), Puzzle(sol, self.geometry), self.metric, self.rating_seed
        )
