"""What a generated puzzle must satisfy, and how an attempt is rated against it.

:class:`Target` and :func:`make_target` are used by :mod:`~csp_sudoku.generators.target`
(the :func:`~csp_sudoku.generators.generate` driver) and by the generators that
steer toward a target while they build (:mod:`~csp_sudoku.generators.ddg`); they
live here, below both, so that neither imports the other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from csp_sudoku.core.errors import ArgumentError, GenerationError
from csp_sudoku.core.puzzle import Puzzle

if TYPE_CHECKING:
    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.core.names import MetricName
    from csp_sudoku.metrics.base import Rating

__all__ = [
    "Target",
    "check_reachable",
    "level_band",
    "level_order",
    "lower_is_harder",
    "make_target",
    "rate_with_solution",
    "top_level",
]


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
        return self.takes(rating.level, rating.score)

    def takes(self, level: str, score: float, *, rounded: float = 0.0) -> bool:
        """True when a rating of ``level`` and ``score`` is on target (:meth:`matches`
        of a rating written down, e.g. in a row of an earlier run); ``rounded``: the
        score was written rounded to this step (a text row's tenths), so the score
        range is widened by half a step each way."""
        if self.levels and str(level).lower() not in self.levels:
            return False
        if self.score_range is not None:
            lo, hi = self.score_range
            return lo - rounded / 2 <= score <= hi + rounded / 2
        return True

    def describe(self) -> str:
        """``level hard or fiendish and score in [a, b] of metric 'rounds'`` (the
        target in words; ``no target`` when it is not active)."""
        what = []
        if self.levels:
            what.append(f"level {' or '.join(self.levels)}")
        if self.score_range is not None:
            what.append(f"score in [{self.score_range[0]:g}, {self.score_range[1]:g}]")
        return f"{' and '.join(what)} of metric {self.metric!r}" if what else "no target"

    def spans(self, geometry: Geometry) -> list[tuple[float, float]]:
        """The scores a puzzle of ``geometry`` on this target can have, as closed
        intervals: each wanted level's band of scores (:func:`level_band`; every
        level when none is named and a score range is set) that the shape can
        reach (:func:`top_level`), cut to the score range. An interval may be
        wider than the truth, never narrower: an empty list means that no puzzle
        can be on target. A level whose band is not known spans every score."""
        order = level_order(self.metric)
        top = top_level(self.metric, geometry)
        reach = order[: order.index(top) + 1] if top is not None else order
        lo, hi = self.score_range or (-math.inf, math.inf)
        if self.levels:
            wanted: Sequence[str] = [lv for lv in self.levels if lv in reach]
        elif self.score_range is not None and order:
            wanted = reach
        else:
            return [(lo, hi)]
        out = []
        for lv in wanted:
            band_lo, band_hi = level_band(self.metric, lv, geometry) or (-math.inf, math.inf)
            if max(band_lo, lo) <= min(band_hi, hi):
                out.append((max(band_lo, lo), min(band_hi, hi)))
        return out

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
            bands = [_floor_band(spec.level_floor, order, lv) for lv in self.levels]
            low, high = min(b[0] for b in bands), max(b[1] for b in bands)
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
    """A :class:`Target` from a metric, level name(s) and a score range, checked.

    Raises:
        ArgumentError: a ``level`` that is not a name or a sequence of names (a
            number raised TypeError; bytes were read as their byte values).
        GenerationError: an unknown level name, or a bad or unreachable score range.
    """
    given: object = level  # what a caller passed, whatever its annotation says
    names: tuple[object, ...]
    if given is None:
        names = ()
    elif isinstance(given, str):
        names = (given,)
    elif isinstance(given, Iterable) and not isinstance(given, (bytes, bytearray)):
        names = tuple(given)
    else:
        raise ArgumentError(f"level must be a level name or a sequence of names, got {given!r:.40}")
    for lv in names:
        if not isinstance(lv, str):
            raise ArgumentError(f"level names are strings, got {lv!r:.40} in {level!r:.60}")
    levels = tuple(cast(str, lv).strip().lower() for lv in names)
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


#: The hardest level of a metric that every puzzle of a shape (its name) is proved
#: to be at most, where that is below the metric's top (:func:`top_level`).
#: Standard 4x4: every one of the 565,820 unique puzzles whose solution's first row
#: is 1234 (every unique 4x4 puzzle, up to a relabelling of its digits, which these
#: metrics do not see) is solved by singles alone (rounds ``Easy``, MDRT
#: ``singles``): counted exhaustively, tests/test_generate_fixes.py checks it
#: again on the minimal ones (more clues never take a singles solution away).
_PROVED_TOP: dict[tuple[str, str], str] = {
    ("rounds", "4x4"): "easy",
    ("mdrt", "4x4"): "singles",
    ("se", "4x4"): "medium",  # SE takes a single while one is left: ER 2.3 at most
}


def top_level(metric: str, geometry: Geometry) -> str | None:
    """The hardest level of ``metric`` a puzzle of ``geometry`` can have, where it is
    proved to be below the metric's hardest (:data:`_PROVED_TOP`: rounds, MDRT and
    se on the standard 4x4, where singles solve every unique puzzle); None: no bound
    is known, every level may be reached."""
    from csp_sudoku.core.geometry import Geometry

    top = _PROVED_TOP.get((metric, geometry.name))
    return top if top is not None and geometry == Geometry.standard(geometry.size) else None


def level_band(metric: str, level: str, geometry: Geometry) -> tuple[float, float] | None:
    """The least and the greatest score a puzzle of ``geometry`` rated ``level`` (lower
    case) by ``metric`` can have, as a closed interval, for a metric whose levels
    are bands of its score, read from the metric's definition:

    * ``se``: a level's floor up to the next level's
      (:attr:`~csp_sudoku.metrics.MetricSpec.level_floor`);
    * ``rounds``: ``1000 * rank + rounds`` (:func:`~csp_sudoku.metrics.mdrt.rounds_rating`),
      and a puzzle plays at most ``n**2`` rounds of singles (each places a digit)
      and ``n**3`` subset rounds (each takes a candidate away) on an ``n x n`` grid;
    * ``mdrt``: the score is the rank;
    * ``oracle``: between the paper's thresholds (:data:`~csp_sudoku.metrics.oracle.THRESHOLDS`);
    * ``hsolve``, ``refutation``, ``dependency``: between the quartiles of the
      shipped reference distribution, on the shape it covers (9x9);
    * ``combined``: between the shipped model's level bounds, on its shapes.

    None where the levels are not such bands (an unknown metric or level, a
    shape whose puzzles a quantile level does not rate). The ends are never
    tighter than the metric's: a band may hold scores no puzzle has."""
    order = level_order(metric)
    if level not in order:
        return None
    k = order.index(level)
    inf = math.inf
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY[metric]
    if spec.level_floor is not None:
        return _floor_band(spec.level_floor, order, level)
    if metric == "rounds":
        n = geometry.size
        return 1000.0 * k, 1000.0 * k + n**2 + n**3
    if metric == "mdrt":
        return float(k), float(k)
    if metric == "oracle":
        from csp_sudoku.metrics.oracle import THRESHOLDS

        bounds = (-inf, *THRESHOLDS, inf)
        return (bounds[k], bounds[k + 1]) if len(bounds) == len(order) + 1 else None
    if metric == "combined":
        from csp_sudoku.metrics.combined import shipped_rater

        rater = shipped_rater()
        if geometry.name not in rater.geometries or len(rater.level_bounds) + 1 != len(order):
            return None
        bounds = (-inf, *rater.level_bounds, inf)
        return bounds[k], bounds[k + 1]
    if metric in ("hsolve", "refutation", "dependency"):
        return _quantile_band(metric, k, len(order), geometry, spec.lower_is_harder)
    return None


def _floor_band(
    floor: Callable[[str], float], order: Sequence[str], level: str
) -> tuple[float, float]:
    """The scores of ``level`` of a metric whose levels start at floors: its floor up
    to the next level's (no end for the hardest)."""
    k = order.index(level)
    return floor(level), floor(order[k + 1]) if k + 1 < len(order) else math.inf


def _quantile_band(
    metric: str, k: int, m: int, geometry: Geometry, lower_is_harder: bool
) -> tuple[float, float] | None:
    """Level ``k`` of ``m`` of a quantile metric
    (:func:`~csp_sudoku.metrics.base.quantile_level`): its percentile of the
    reference scores, counted from the easy end, is in ``[100 k / m, 100 (k+1) / m)``;
    the scores there, widened by a rounding's width."""
    import numpy as np

    from csp_sudoku.metrics.base import has_quantile_levels, reference

    data = reference()
    ref = data.get("metrics", {}).get(metric)
    if ref is None or not has_quantile_levels(geometry.name, data):
        return None
    q = np.asarray(ref["percentiles"], dtype=float)
    steps = np.linspace(0, 100, q.size)

    def at(pct: float) -> float:
        return float(np.interp(pct, steps, q))

    low_pct, high_pct = 100.0 * k / m, 100.0 * (k + 1) / m  # of hardness
    if lower_is_harder:  # the percentile of the score is 100 less that of hardness
        low_pct, high_pct = 100.0 - high_pct, 100.0 - low_pct
        lo = -math.inf if k == m - 1 else at(low_pct)
        hi = math.inf if k == 0 else at(high_pct)
    else:
        lo = -math.inf if k == 0 else at(low_pct)
        hi = math.inf if k == m - 1 else at(high_pct)
    slack = 1e-9 * (1.0 + float(np.abs(q[np.isfinite(q)]).max(initial=0.0)))
    return lo - slack, hi + slack


def check_reachable(target: Target, geometry: Geometry) -> None:
    """Refuse a target that no puzzle of ``geometry`` can meet, before any search:
    levels above what the shape can reach (:func:`top_level`), or a score range
    outside every wanted level's band of scores (:meth:`Target.spans`).

    Raises:
        GenerationError: saying which, and what the shape or the levels allow.
    """
    if not target.active:
        return
    order = level_order(target.metric)
    top = top_level(target.metric, geometry)
    if top is not None and target.levels:
        reach = order[: order.index(top) + 1]
        if not any(lv in reach for lv in target.levels):
            raise GenerationError(
                f"every {geometry.name} puzzle with one solution is {target.metric} level "
                f"{' or '.join(reach)} (singles solve each one: counted over them all), so "
                f"none can be level {' or '.join(target.levels)}; ask for "
                f"{' or '.join(reach)}, or another shape"
            )
    if target.spans(geometry):
        return
    lo, hi = target.score_range or (-math.inf, math.inf)
    named = target.levels or (order[: order.index(top) + 1] if top is not None else order)
    bands = [
        f"{lv} [{b[0]:g}, {b[1]:g}]"
        for lv in named
        if (b := level_band(target.metric, lv, geometry)) is not None
    ]
    said = f" ({target.metric} scores by level: {', '.join(bands)})" if bands else ""
    which = f"level(s) {', '.join(target.levels)} and in " if target.levels else ""
    raise GenerationError(
        f"no {target.metric} score of a {geometry.name} puzzle is in {which}"
        f"[{lo:g}, {hi:g}]{said}: no puzzle can be on target"
    )


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
