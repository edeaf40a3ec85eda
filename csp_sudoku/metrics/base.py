"""The one result type of every difficulty metric, and shared helpers.

A :class:`Rating` carries the score, an ordinal level, the metric's details and
its provenance (metric name, parameters, runs, seed, library version), so any
rating can be reproduced exactly: ``rate(puzzle, metric=r.metric, runs=r.runs,
seed=r.seed, **r.parameters)``.

Levels from a *reference distribution* follow section 4.3.2 of Chang, Fan, Sun,
*hsolve: A Difficulty Metric and Puzzle Generator for Sudoku*: with ``m``
levels, level ``k`` holds the scores between the ``(k-1)/m`` and ``k/m``
quantiles of the scores of a reference sample of puzzles. The reference
quantiles are shipped in ``csp_sudoku/data/metric_reference.json`` (made by
``benchmarks/make_reference.py``, which says from which puzzles).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

import numpy as np

from csp_sudoku.core.errors import MetricError as MetricError
from csp_sudoku.core.errors import NotUniqueError
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Puzzle


@dataclass(frozen=True)
class Rating:
    """A difficulty rating with its provenance.

    Attributes:
        metric: the metric's name (``hsolve``, ``oracle``, ...).
        score: the number; higher is harder for every metric except
            ``dependency`` (more options per step = easier).
        level: the level's name (``Cinch``, ``Fiendish``, ``hard``, ...).
        level_rank: 0-based position of ``level`` from easiest to hardest.
        details: what the metric saw (technique counts, oracle visits, spread over runs ...).
        parameters: every parameter the metric used, defaults included.
        runs: the number of randomised runs averaged (None for deterministic metrics).
        seed: the seed that reproduces this rating (None for deterministic metrics).
        version: the csp_sudoku version that computed it.
    """

    metric: str
    score: float
    level: str
    level_rank: int
    details: dict[str, Any] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)
    runs: int | None = None
    seed: int | None = None
    version: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (numpy scalars converted)."""
        return _jsonable(asdict(self))  # type: ignore[no-any-return]


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, float) and not np.isfinite(x):
        return None if np.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


#: The most randomised runs a rating averages (each run's scores are held at once:
#: ``runs=2**70`` failed inside numpy).
MAX_RUNS = 1_000_000


def check_runs(runs: int) -> int:
    """``runs`` as a positive int up to :data:`MAX_RUNS`, or :class:`MetricError`."""
    if not is_whole(runs) or not 1 <= runs <= MAX_RUNS:
        raise MetricError(f"runs must be a whole number from 1 to {MAX_RUNS:,}, got {runs!r}")
    return int(runs)


def unique_solution(puzzle: Puzzle) -> Puzzle:
    """The solution of a puzzle with exactly one; :class:`NotUniqueError` otherwise.

    The oracle, hsolve's fallback and SiSuS's refutation all need the solution.
    """
    from csp_sudoku.api import solutions

    sols = solutions(puzzle, 2)
    if len(sols) != 1:
        raise NotUniqueError(
            f"difficulty metrics need a puzzle with exactly one solution; this one has "
            f"{'none' if not sols else 'several'}"
        )
    return sols[0]


# ---------------------------------------------------------------------- reference levels
LEVEL_NAMES_4: tuple[str, ...] = ("easy", "medium", "hard", "very hard")


@cache
def reference() -> dict[str, Any]:
    """The shipped reference distribution (``csp_sudoku/data/metric_reference.json``)."""
    from importlib import resources

    try:
        text = resources.files("csp_sudoku").joinpath("data/metric_reference.json").read_text()
    except FileNotFoundError:
        return {"metrics": {}}
    data: dict[str, Any] = json.loads(text)
    return data


def level_names(m: int) -> tuple[str, ...]:
    """Names of ``m`` quantile levels: easy/medium/hard/very hard for 4, else ``level k``."""
    if m == 4:
        return LEVEL_NAMES_4
    return tuple(f"level {k}" for k in range(1, m + 1))


def has_quantile_levels(geometry: str, data: dict[str, Any] | None = None) -> bool:
    """Whether puzzles of ``geometry`` (its name) get a quantile level: the shipped
    reference distribution (``data``, read when not given) covers one geometry,
    classic 9x9; every other gets ``unrated`` (:func:`quantile_level`), so a
    level target cannot be met there."""
    ref = reference() if data is None else data
    return bool(geometry == ref.get("geometry", "9x9"))


def unrated_level() -> tuple[str, int, dict[str, Any]]:
    """The level of a puzzle a metric's levels say nothing about: ``unrated``
    (rank 0), with no percentile and no bounds (:func:`quantile_level`'s form)."""
    return "unrated", 0, {"percentile": None, "bounds": []}


def quantile_level(
    metric: str,
    score: float,
    m: int = 4,
    *,
    higher_is_harder: bool = True,
    geometry: str = "9x9",
) -> tuple[str, int, dict[str, Any]]:
    """The level of ``score`` as one of ``m`` equal-count bins of the reference distribution.

    The shipped reference holds classic 9x9 puzzles; other geometries get the
    level ``unrated`` (rank 0).

    Returns ``(name, rank, info)``; ``info`` holds the score's percentile in the
    reference sample and the bin bounds used.
    """
    if m < 1:
        raise MetricError(f"levels must be at least 1, got {m}")
    data = reference()
    ref = data["metrics"].get(metric) if has_quantile_levels(geometry, data) else None
    names = level_names(m)
    if ref is None:
        return unrated_level()
    q = np.asarray(ref["percentiles"], dtype=float)  # 0,1,...,100 percent quantiles
    if not np.isfinite(score):
        pct = 100.0 if score > 0 else 0.0
    else:
        first = int(np.searchsorted(q, score, side="left"))
        if first < q.size and q[first] == score:  # a tied value: its lowest percentile
            pct = 100.0 * first / (q.size - 1)
        else:
            pct = float(np.interp(score, q, np.linspace(0, 100, q.size)))
    bounds = [float(np.interp(100.0 * k / m, np.linspace(0, 100, q.size), q)) for k in range(1, m)]
    hard_pct = pct if higher_is_harder else 100.0 - pct
    rank = min(int(hard_pct * m / 100.0), m - 1)
    return names[rank], rank, {"percentile": round(hard_pct, 2), "bounds": bounds}
