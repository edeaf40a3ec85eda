"""What a generated puzzle must satisfy, and how an attempt is rated against it.

:class:`Target` and :func:`make_target` are used by :mod:`~csp_sudoku.generators.target`
(the :func:`~csp_sudoku.generators.generate` driver) and by the generators that
steer toward a target while they build (:mod:`~csp_sudoku.generators.ddg`); they
live here, below both, so that neither imports the other.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.puzzle import Puzzle

if TYPE_CHECKING:
    from csp_sudoku.core.names import MetricName
    from csp_sudoku.metrics.base import Rating

__all__ = ["Target", "level_order", "lower_is_harder", "make_target", "rate_with_solution"]


def level_order(metric: str) -> tuple[str, ...]:
    """The metric's level names from easiest to hardest, lower case (empty if unknown).

    Read from the metric registry (:data:`csp_sudoku.metrics.REGISTRY`).
    """
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY.get(metric)
    return tuple(n.lower() for n in spec.levels()) if spec is not None else ()


def metrics_with_levels(levels: Sequence[str]) -> list[str]:
    """The registered metrics that have every one of ``levels`` (any case)."""
    from csp_sudoku.metrics import REGISTRY

    wanted = {lv.strip().lower() for lv in levels}
    return [m for m in REGISTRY if wanted <= set(level_order(m))]


def lower_is_harder(metric: str) -> bool:
    """True when a lower score of ``metric`` means a harder puzzle (from the registry)."""
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY.get(metric)
    return spec is not None and spec.lower_is_harder


@dataclass(frozen=True)
class Target:
    """What a generated puzzle must satisfy: a metric's level(s) and/or score range.

    Attributes:
        metric: the metric name (see :data:`csp_sudoku.metrics.METRICS`).
        levels: accepted level names, lower case (empty: any level).
        score_range: inclusive ``(low, high)`` bounds of the score, or None.
    """

    metric: str = "rounds"
    levels: tuple[str, ...] = ()
    score_range: tuple[float, float] | None = None

    @property
    def active(self) -> bool:
        """True when some puzzles can miss this target."""
        return bool(self.levels) or self.score_range is not None

    def matches(self, rating: Rating) -> bool:
        """True when ``rating`` is on target."""
        if self.levels and rating.level.lower() not in self.levels:
            return False
        if self.score_range is not None:
            lo, hi = self.score_range
            return lo <= rating.score <= hi
        return True

    def floor(self) -> float | None:
        """The greatest score of a puzzle too easy for this target, when every harder
        puzzle is on target (the hard end, higher scores harder; a level target
        needs the metric's :attr:`~csp_sudoku.metrics.MetricSpec.level_floor`);
        None otherwise. Scores are in tenths (SE), so a range from ``lo`` has the
        floor ``lo - 0.1``."""
        from csp_sudoku.metrics import REGISTRY

        spec = REGISTRY.get(self.metric)
        if spec is None or spec.lower_is_harder or not self.active:
            return None
        floors: list[float] = []
        if self.levels:
            order = level_order(self.metric)
            if spec.level_floor is None or order[-1] not in self.levels:
                return None
            floors.append(min(spec.level_floor(lv) for lv in self.levels))
        if self.score_range is not None:
            lo, hi = self.score_range
            if math.isfinite(hi) and hi < 1e6:
                return None
            floors.append(math.ceil(round(lo * 10, 6)) / 10 - 0.1)
        return max(floors)

    def bounds(self) -> tuple[float, float]:
        """The least and the greatest score a puzzle on this target can have: its
        score range, narrowed, for a metric whose levels are bands of its score
        (those with a :attr:`~csp_sudoku.metrics.MetricSpec.level_floor`, ``se``),
        to its levels' bands (a level's floor up to the next level's floor).
        ``(-inf, inf)`` where nothing bounds it."""
        from csp_sudoku.metrics import REGISTRY

        low, high = -math.inf, math.inf
        spec = REGISTRY.get(self.metric)
        order = level_order(self.metric)
        if self.levels and spec is not None and spec.level_floor is not None:
            floor = spec.level_floor
            low = min(floor(lv) for lv in self.levels)
            ceilings = [
                floor(order[order.index(lv) + 1]) if lv != order[-1] else math.inf
                for lv in self.levels
            ]
            high = max(ceilings)
        if self.score_range is not None:
            low, high = max(low, self.score_range[0]), min(high, self.score_range[1])
        return low, high

    def wants_harder(self, rating: Rating) -> bool:
        """True when ``rating`` misses the target on the easy side."""
        if self.matches(rating):
            return False
        ranks = self._target_ranks()
        if self.levels and ranks:
            if rating.level_rank < min(ranks):
                return True
            if rating.level_rank > max(ranks):
                return False
        if self.score_range is not None:
            below = rating.score < self.score_range[0]
            return not below if lower_is_harder(self.metric) else below
        return not ranks  # unknown level order: assume the target is the harder side

    def _target_ranks(self) -> list[int]:
        order = level_order(self.metric)
        return [order.index(lv) for lv in self.levels if lv in order]

    def distance(self, rating: Rating) -> tuple[float, float]:
        """How far ``rating`` is from the target (0, 0 on target); compared as a tuple."""
        if self.matches(rating):
            return (0.0, 0.0)
        hardness = -rating.score if lower_is_harder(self.metric) else rating.score
        if self.score_range is not None and not self.levels:
            lo, hi = self.score_range
            return (0.0, lo - rating.score if rating.score < lo else rating.score - hi)
        ranks = self._target_ranks()
        if not ranks:
            return (1.0, -hardness)  # unknown order: assume the target is harder
        gaps = [t - rating.level_rank for t in ranks]
        gap = min(gaps, key=abs)
        if gap == 0 and self.score_range is not None:
            lo, hi = self.score_range
            return (0.0, lo - rating.score if rating.score < lo else rating.score - hi)
        return (float(abs(gap)), -hardness if gap > 0 else hardness)


def make_target(
    metric: str, level: str | Sequence[str] | None, score_range: tuple[float, float] | None
) -> Target:
    """A :class:`Target` from a metric, level name(s) and a score range, checked."""
    if level is None:
        levels: tuple[str, ...] = ()
    elif isinstance(level, str):
        levels = (level.strip().lower(),)
    else:
        levels = tuple(str(lv).strip().lower() for lv in level)
    from csp_sudoku.metrics import REGISTRY

    order = level_order(metric)
    bad = [lv for lv in levels if lv not in order] if metric in REGISTRY else []
    if bad:
        having = metrics_with_levels(bad)
        elsewhere = (
            f"; {', '.join(map(repr, bad))} {'is a level' if len(bad) == 1 else 'are levels'} "
            f"of {' and '.join(having)} (metric {having[0]!r}, --metric {having[0]})"
            if having
            else ""
        )
        choose = f"choose from {', '.join(order)}" if order else f"{metric} has no levels"
        raise GenerationError(
            f"unknown {metric} level(s) {', '.join(map(repr, bad))}; {choose}{elsewhere}"
        )
    rng: tuple[float, float] | None = None
    if score_range is not None:
        try:
            lo, hi = (float(x) for x in score_range)
        except (TypeError, ValueError):  # not two numbers ("1-2", (1, 2, 3), None inside)
            raise GenerationError(
                f"score_range must be two numbers (low, high), got {score_range!r}"
            ) from None
        if math.isnan(lo) or math.isnan(hi):
            raise GenerationError(f"score_range bounds must be numbers, got ({lo}, {hi})")
        if lo > hi:
            raise GenerationError(f"score_range low {lo} is above high {hi}")
        rng = (lo, hi)
    target = Target(metric=metric, levels=levels, score_range=rng)
    if rng is not None and levels:
        low, high = target.bounds()
        if low > high:
            raise GenerationError(
                f"no {metric} score is in level(s) {', '.join(levels)} and in "
                f"[{rng[0]:g}, {rng[1]:g}]: no puzzle can be on target"
            )
    return target


def rate_with_solution(
    puzzle: Puzzle, solution: Puzzle, metric: str, seed: int, *, search: bool = False
) -> Rating:
    """``metric``'s rating of ``puzzle`` with a known ``solution`` and a fixed seed;
    ``search``: with the metric's :attr:`~csp_sudoku.metrics.MetricSpec.search_params`
    (a search's states: the score almost surely the same, faster; rate an
    output again without them)."""
    from csp_sudoku.metrics import REGISTRY, rate

    params = dict(REGISTRY[metric].search_params) if search and metric in REGISTRY else {}
    return rate(puzzle, cast("MetricName", metric), seed=seed, solution=solution, **params)
