"""The metric registry and the dispatcher: :class:`MetricSpec`, :data:`REGISTRY`,
:func:`rate`, :func:`rate_many` and :func:`fit_combined`.

Each metric is declared once here (its adapter, default runs, whether it is
seeded, its levels, its direction); the CLI, the generators' targets, the bank
and the reports read these declarations. The combined model rates its features
through :func:`rate`, handed to it as an argument, so that
:mod:`csp_sudoku.metrics.combined` does not import this module.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.api import PuzzleLike, as_puzzle
from csp_sudoku.core._version import __version__
from csp_sudoku.core.errors import NotUniqueError, ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.parallel import check_jobs
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import fresh_seed as _fresh_seed
from csp_sudoku.core.seeds import item_seed
from csp_sudoku.core.verify import solution_fault
from csp_sudoku.metrics.base import (
    MetricError,
    Rating,
    check_runs,
    has_quantile_levels,
    quantile_level,
    unique_solution,
    unrated_level,
)
from csp_sudoku.metrics.combined import CombinedRater, fit_features, shipped_rater

# This module's own API; the package (csp_sudoku.metrics) re-exports it with the
# types it uses from metrics.base and metrics.combined.
__all__ = [
    "METRICS",
    "REGISTRY",
    "MetricSpec",
    "derive_seed",
    "fit_combined",
    "metric_names",
    "rate",
    "rate_many",
]


#: The seed of item ``index`` of a batch rated with ``seed`` (:func:`csp_sudoku.core.seeds.item_seed`).
derive_seed = item_seed

_Result = tuple[float, str, int, dict[str, Any], dict[str, Any]]
_MetricFn = Callable[[Puzzle, Puzzle, int, np.random.Generator, dict[str, Any]], _Result]
#: a quick one-sided test: ``(puzzle, limit, solution or None) -> cleared``
_WithinFn = Callable[[Puzzle, float, Puzzle | None], bool]
#: a bound from it: ``(puzzle, low, top, solution or None) -> least limit or None``
_BoundFn = Callable[[Puzzle, float, float, Puzzle | None], float | None]


def _version() -> str:
    return __version__


_TRUE = frozenset({"true", "yes", "1", "on"})
_FALSE = frozenset({"false", "no", "0", "off"})


def _pop(params: dict[str, Any], name: str, default: Any) -> Any:
    """Take parameter ``name``, converted to the type of its default.

    Values from the command line arrive as text; a value that cannot be read as
    the default's type is a :class:`MetricError` naming the parameter.
    """
    if name not in params:
        return default
    value = params.pop(name)
    if isinstance(default, bool):
        text = str(value).strip().lower()
        if isinstance(value, bool) or text in _TRUE | _FALSE:
            return value if isinstance(value, bool) else text in _TRUE
        raise MetricError(f"parameter {name} must be true or false, got {value!r}")
    if isinstance(default, (int, float)):
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise MetricError(f"parameter {name} must be a number, got {value!r}") from None
        if isinstance(default, int):
            if not number.is_integer():
                raise MetricError(f"parameter {name} must be a whole number, got {value!r}")
            return int(number)
        return number
    return value


def _no_more(metric: str, params: dict[str, Any]) -> None:
    if params:
        raise MetricError(
            f"unknown parameter(s) for metric {metric!r}: {', '.join(sorted(params))}"
        )


# ---------------------------------------------------------------------- adapters
def _hsolve(
    puzzle: Puzzle, solution: Puzzle, runs: int, rng: np.random.Generator, params: dict[str, Any]
) -> _Result:
    from csp_sudoku.human.strategies import STRATEGIES
    from csp_sudoku.metrics.hsolve import hsolve_runs

    max_tier = int(_pop(params, "max_tier", 5))
    on_stuck = str(_pop(params, "on_stuck", "reveal"))
    levels = int(_pop(params, "levels", 4))
    _no_more("hsolve", params)
    res = hsolve_runs(puzzle, solution, runs=runs, rng=rng, max_tier=max_tier, on_stuck=on_stuck)
    score = res.mean
    level, rank, info = quantile_level("hsolve", score, levels, geometry=puzzle.geometry.name)
    mean_counts = res.counts.mean(axis=0)
    details = {
        "std": float(res.scores.std(ddof=1)) if runs > 1 else 0.0,
        "min": float(res.scores.min()),
        "max": float(res.scores.max()),
        "stuck": float(res.stuck.mean()),
        "technique_counts": {
            name: round(float(c), 3) for name, c in zip(STRATEGIES, mean_counts, strict=True) if c
        },
        "max_tier_used": _tier_of_id(int(np.flatnonzero(mean_counts).max()))
        if np.any(mean_counts)
        else 0,
        **info,
    }
    return (
        score,
        level,
        rank,
        details,
        {"max_tier": max_tier, "on_stuck": on_stuck, "levels": levels},
    )


def _tier_of_id(s: int) -> int:
    from csp_sudoku._kernels.strategies import STRATEGY_TIERS

    return STRATEGY_TIERS[s]


def _oracle(
    puzzle: Puzzle, solution: Puzzle, runs: int, rng: np.random.Generator, params: dict[str, Any]
) -> _Result:
    from dataclasses import fields

    from csp_sudoku.metrics.oracle import OracleParams, level_of, oracle_trials, score_trials

    known = {f.name for f in fields(OracleParams)}
    _no_more("oracle", {k: v for k, v in params.items() if k not in known})
    op = OracleParams(**params)
    trials = oracle_trials(puzzle, solution, runs=runs, rng=rng)
    score, n, h, o = score_trials(trials, op)
    level, rank = level_of(score)
    details = {
        "naked_per_iteration": n,
        "hidden_per_iteration": h,
        "oracle_visits": o,
        "oracle_visits_std": float(trials[:, 3].std(ddof=1)) if runs > 1 else 0.0,
        "iterations": float(trials[:, 2].mean()),
        "naked_singles": float(trials[:, 0].mean()),
        "hidden_singles": float(trials[:, 1].mean()),
    }
    return score, level, rank, details, op.as_dict()


def _sisus(kind: str) -> _MetricFn:
    def run(
        puzzle: Puzzle,
        solution: Puzzle,
        runs: int,
        rng: np.random.Generator,
        params: dict[str, Any],
    ) -> _Result:
        from csp_sudoku.metrics.sisus import DEFAULT_INF_SCORE, DEFAULT_K, sisus_runs

        k = int(_pop(params, "k", DEFAULT_K))
        inf_score = float(_pop(params, "inf_score", DEFAULT_INF_SCORE))
        count_assumption = bool(_pop(params, "count_assumption", True))
        levels = int(_pop(params, "levels", 4))
        _no_more(kind, params)
        res = sisus_runs(
            puzzle,
            solution,
            runs=runs,
            rng=rng,
            k=k,
            inf_score=inf_score,
            stop_after_k=(kind == "dependency"),
            count_assumption=count_assumption,
        )
        values = res.refutation_sums if kind == "refutation" else res.dependency
        score = float(values.mean())
        level, rank, info = quantile_level(
            kind,
            score,
            levels,
            higher_is_harder=(kind == "refutation"),
            geometry=puzzle.geometry.name,
        )
        if kind == "dependency" and puzzle.cells.all():
            # a mean over the steps taken: a full grid takes none, and its 0.0
            # would read as the hardest there is
            level, rank, info = unrated_level()
        details = {
            "std": float(values.std(ddof=1)) if runs > 1 else 0.0,
            "stuck": float(res.stuck.mean()),
            "unrefutable": float(res.unrefutable.mean()),
            **info,
        }
        used: dict[str, Any] = {"k": k, "levels": levels, "count_assumption": count_assumption}
        if kind == "refutation":
            used["inf_score"] = inf_score
        return score, level, rank, details, used

    return run


def _rounds(
    puzzle: Puzzle, solution: Puzzle, runs: int, rng: np.random.Generator, params: dict[str, Any]
) -> _Result:
    from csp_sudoku.metrics.mdrt import rounds_rating

    _no_more("rounds", params)
    return rounds_rating(puzzle)


def _mdrt(
    puzzle: Puzzle, solution: Puzzle, runs: int, rng: np.random.Generator, params: dict[str, Any]
) -> _Result:
    from csp_sudoku.metrics.mdrt import mdrt_rating

    _no_more("mdrt", params)
    return mdrt_rating(puzzle)


def _se(
    puzzle: Puzzle, solution: Puzzle, runs: int, rng: np.random.Generator, params: dict[str, Any]
) -> _Result:
    from csp_sudoku.metrics.se import DEFAULT_RATER, se_rating

    rater = str(_pop(params, "rater", DEFAULT_RATER))
    stop_within = bool(_pop(params, "stop_within", False))
    _no_more("se", params)
    return se_rating(puzzle, rater, stop_within=stop_within)


def _combined(
    puzzle: Puzzle, solution: Puzzle, runs: int, rng: np.random.Generator, params: dict[str, Any]
) -> _Result:
    rater = _pop(params, "rater", None)
    _no_more("combined", params)
    if rater is None:
        rater = shipped_rater()
    if not isinstance(rater, CombinedRater):
        raise MetricError("the 'rater' parameter must be a CombinedRater (see fit_combined)")
    score, feats = rater.score_with_features(puzzle, rate, solution=solution, rng=rng)
    level, rank = rater.level_of(score, puzzle.geometry.name)
    details = {"features": feats}
    return score, level, rank, details, {"model": rater.describe()}


def _levels_4() -> tuple[str, ...]:
    from csp_sudoku.metrics.base import LEVEL_NAMES_4

    return LEVEL_NAMES_4


def _levels_rounds() -> tuple[str, ...]:
    from csp_sudoku.metrics.rounds import LEVELS

    return LEVELS


def _levels_mdrt() -> tuple[str, ...]:
    from csp_sudoku.metrics.mdrt import MDRT_LEVELS

    return MDRT_LEVELS


def _levels_oracle() -> tuple[str, ...]:
    from csp_sudoku.metrics.oracle import LEVELS

    return LEVELS


def _levels_se() -> tuple[str, ...]:
    from csp_sudoku.metrics.se import SE_LEVELS

    return tuple(name for name, _upper in SE_LEVELS)


def _floor_se(level: str) -> float:
    from csp_sudoku.metrics.se import level_floor

    return level_floor(level)


def _within_se(puzzle: Puzzle, limit: float, solution: Puzzle | None = None) -> bool:
    from csp_sudoku.metrics.se import rated_within

    return rated_within(puzzle, limit, solution=solution)


def _within_se_thorough(puzzle: Puzzle, limit: float, solution: Puzzle | None = None) -> bool:
    from csp_sudoku.metrics.se import rated_within

    return rated_within(puzzle, limit, forcing=True, solution=solution)


def _bound_se(
    puzzle: Puzzle, low: float, top: float, solution: Puzzle | None = None
) -> float | None:
    from csp_sudoku.metrics.se import rated_bound

    return rated_bound(puzzle, low, top, solution)


@dataclass(frozen=True)
class MetricSpec:
    """Everything the package knows about one metric, declared once.

    To add a metric: write its module (copy ``metrics/mdrt.py`` for a
    deterministic one, ``metrics/oracle.py`` for a randomised one), an adapter
    here returning ``(score, level, rank, details, parameters)``, and one
    :class:`MetricSpec` line in :data:`REGISTRY`; ``rate``, ``rate_many``,
    the CLI, the generators' targets and the reports read it from there.

    Attributes:
        name: the metric's name.
        run: the adapter ``(puzzle, solution, runs, rng, params) -> result``.
        runs: default runs of a randomised metric; None when it is not
            randomised (its rating records no runs).
        seeded: whether its rating records the seed (False: deterministic).
        levels: its level names, easiest first (a function: loaded on use).
        lower_is_harder: True when a lower score means a harder puzzle.
        level_floor: the greatest score below a level (its name), when the
            levels are score bands; None otherwise.
        within: a quick one-sided test ``(puzzle, limit, solution) -> bool``,
            True when the score is at most ``limit`` (almost surely) and False
            when it cannot tell; a search for puzzles above a score skips the
            full rating of a candidate it clears. ``solution`` (None: unknown)
            is the puzzle's solution where the caller has it, which spares the
            test a solver call. None: no such test.
        within_thorough: the same kind of test, tighter and costlier (SE: the
            quick test with dynamic cell and region forcing chains), for the
            candidates whose full rating costs most (a whole-vicinity search's
            neighbours at the top of the scale). None: ``within`` serves.
        bound: from the thorough test, ``(puzzle, low, top, solution) ->
            float | None``: the least limit from ``low`` up to ``top`` that
            the test shows the score at most, or None when it cannot clear
            ``top`` (SE: one search that raises its limit a tenth at a time
            only where it is stuck); a whole-vicinity search leaves the
            states it bounds below its best unrated. None: no such bound.
        levelled: whether a puzzle of a geometry (its name) gets one of the
            levels (the quantile levels of hsolve, refutation and dependency:
            9x9 only, :func:`~csp_sudoku.metrics.base.has_quantile_levels`);
            None: every geometry does. A generator refuses a level target
            where it is False.
        search_params: parameters of a faster rating for a search's states,
            whose score is the metric's almost surely (SE: ``stop_within``);
            a rating made with them that is not the full one has
            ``details["partial"]`` True, and a generator rates such an output
            again without them.
    """

    name: str
    run: _MetricFn
    runs: int | None
    seeded: bool
    levels: Callable[[], tuple[str, ...]]
    lower_is_harder: bool = False
    level_floor: Callable[[str], float] | None = None
    within: _WithinFn | None = None
    within_thorough: _WithinFn | None = None
    bound: _BoundFn | None = None
    levelled: Callable[[str], bool] | None = None
    search_params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def deterministic(self) -> bool:
        """Same puzzle, same rating, whatever the seed."""
        return not self.seeded


#: Every metric, in the order ``METRICS`` lists them.
REGISTRY: dict[str, MetricSpec] = {
    spec.name: spec
    for spec in (
        MetricSpec("hsolve", _hsolve, 20, True, _levels_4, levelled=has_quantile_levels),
        MetricSpec("rounds", _rounds, None, False, _levels_rounds),
        MetricSpec("mdrt", _mdrt, None, False, _levels_mdrt),
        MetricSpec("oracle", _oracle, 100, True, _levels_oracle),
        MetricSpec(
            "refutation", _sisus("refutation"), 30, True, _levels_4, levelled=has_quantile_levels
        ),
        MetricSpec(
            "dependency",
            _sisus("dependency"),
            30,
            True,
            _levels_4,
            lower_is_harder=True,
            levelled=has_quantile_levels,
        ),
        MetricSpec(
            "se",
            _se,
            None,
            False,
            _levels_se,
            level_floor=_floor_se,
            within=_within_se,
            within_thorough=_within_se_thorough,
            bound=_bound_se,
            search_params={"stop_within": True},
        ),
        MetricSpec(
            "combined",
            _combined,
            None,
            True,
            _levels_4,
            levelled=lambda shape: shape in shipped_rater().geometries,
        ),
    )
}

#: The metric names :func:`rate` knows.
METRICS: tuple[str, ...] = tuple(REGISTRY)


def rate(
    puzzle: PuzzleLike,
    metric: MetricName = "hsolve",
    *,
    runs: int | None = None,
    seed: int | None = None,
    solution: PuzzleLike | None = None,
    **params: Any,
) -> Rating:
    """Rate the difficulty of one puzzle.

    Args:
        puzzle: the clues, in any supported form; it must have exactly one solution.
        metric: one of :data:`METRICS`.
        runs: randomised runs to average (None: the metric's default: hsolve 20,
            oracle 100, refutation and dependency 30; ignored by deterministic metrics).
        seed: makes the rating reproducible; None draws a fresh seed, which is
            recorded in the rating.
        solution: the solution, when known (saves a solver call).
        **params: the metric's parameters (e.g. ``alpha=-0.1`` for the oracle,
            ``k=20`` for dependency, ``max_tier=3`` for hsolve, ``levels=8``).

    Returns:
        A :class:`Rating`.

    Raises:
        MetricError: an unknown metric or parameter, a ``seed`` that is not None
            or a non-negative whole number, or a ``solution`` that is not a full
            valid grid keeping the puzzle's clues.
        NotUniqueError: the puzzle has no or several solutions.
        ParseError: the puzzle cannot be read.
    """
    spec = REGISTRY[_metric_name(metric)]
    if runs is not None:
        check_runs(runs)
    p = as_puzzle(puzzle)
    if solution is None:
        sol = unique_solution(p)
    else:  # taken on trust by the metrics: a wrong one gave a wrong rating, or a crash
        sol = as_puzzle(solution, p.geometry)
        fault = solution_fault(sol.cells, p.geometry, p.cells)
        if fault is not None:
            raise MetricError(fault)
    n_runs = (runs if runs is not None else spec.runs) if spec.runs is not None else None
    seed = _rating_seed(seed)
    rng = np.random.default_rng(seed)
    score, level, rank, details, used = spec.run(p, sol, int(n_runs or 1), rng, dict(params))
    deterministic = spec.deterministic
    return Rating(
        metric=metric,
        score=float(score),
        level=level,
        level_rank=int(rank),
        details=details,
        parameters=used,
        runs=None if deterministic else n_runs,
        seed=None if deterministic else int(seed),
        version=_version(),
    )


def _rating_seed(seed: object) -> int:
    """The seed a rating (or a rated batch) records: ``seed`` as a Python int, or a
    fresh one for None. The one check of :func:`rate`'s and :func:`rate_many`'s
    ``seed`` (rate_many read ``int(seed)``: 1.5 was cut to 1, "7" taken, "x" and a
    Generator raised Python's errors).

    Raises:
        MetricError: anything but None or a non-negative whole number.
    """
    if seed is None:
        return _fresh_seed()
    if not is_whole(seed) or seed < 0:
        raise MetricError(f"seed must be a non-negative integer or None, got {seed!r:.40}")
    return int(seed)


def _rate_item(
    index: int,
    item: NDArray[np.int8] | str | Puzzle,
    metric: str,
    runs: int | None,
    seed: int,
    params: dict[str, Any],
) -> Rating:
    """The rating of batch item ``index``; a puzzle it cannot rate is named by its index
    (``puzzles[7]: ... has several solutions``), not left for the caller to find."""
    try:
        return rate(item, cast(MetricName, metric), runs=runs, seed=seed, **params)
    except NotUniqueError as err:
        raise NotUniqueError(f"puzzles[{index}]: {err}") from None
    except ParseError as err:
        raise err.located(source=f"puzzles[{index}]") from None


def _rate_chunk(
    start: int,
    items: list[NDArray[np.int8] | str | Puzzle],
    seeds: list[int],
    metric: str,
    runs: int | None,
    params: dict[str, Any],
) -> tuple[list[Rating], float]:
    """Worker task: the ratings of one chunk of puzzles, the first being item ``start``,
    and the seconds they took (what sizes the next chunks:
    :class:`~csp_sudoku.core.parallel.Pace`)."""
    began = time.perf_counter()
    ratings = [
        _rate_item(start + k, it, metric, runs, s, params)
        for k, (it, s) in enumerate(zip(items, seeds, strict=True))
    ]
    return ratings, time.perf_counter() - began


#: The most puzzles in one task: enough that task overhead stays small next to
#: the ratings (a millisecond and up each), few enough to spread small batches.
_MAX_CHUNK = 64


def _capacity(executor: Any) -> int:
    """How many tasks an executor runs at once (a Dask client: its worker threads)."""
    nthreads = getattr(executor, "nthreads", None)
    if callable(nthreads):
        return max(1, int(sum(nthreads().values())))
    workers = getattr(executor, "_max_workers", None)
    return workers if isinstance(workers, int) and workers > 0 else os.cpu_count() or 1


def rate_many(
    puzzles: NDArray[np.integer] | Iterable[PuzzleLike],
    metric: MetricName = "hsolve",
    *,
    runs: int | None = None,
    seed: int | None = None,
    jobs: int = 1,
    executor: Executor | Any | None = None,
    on_rating: Callable[[int, Rating], None] | None = None,
    **params: Any,
) -> list[Rating]:
    """Rate many puzzles with one metric, in order.

    Item ``i`` is rated with seed :func:`derive_seed` ``(seed, i)`` (recorded in its
    rating), so the result does not depend on ``jobs`` or ``executor`` and any
    item can be re-rated alone. Puzzles go to the workers in chunks of about a
    second of work (at most 64 per task) through
    :func:`csp_sudoku.core.parallel.ordered_map`.

    Args:
        puzzles: an ``(n, cells)`` integer array (0 = empty) or puzzle-likes.
        metric: as for :func:`rate`.
        runs: as for :func:`rate`.
        seed: the batch seed (None: a fresh one).
        jobs: worker processes (``0``: all cores); with an ``executor``, the
            tasks kept in flight (``0`` or ``1``: as many as it has workers).
        executor: run on this ``concurrent.futures.Executor`` or
            ``dask.distributed.Client`` instead of a private process pool.
        on_rating: called as ``on_rating(i, rating)`` for each rating, in order,
            as soon as it is made (its chunk, in workers): to store ratings as
            they come, so that an interrupted batch keeps what it rated, or to
            show progress. When the batch stops early (an error, a Ctrl-C),
            it is called for the ratings made by then and not yet given too
            (a chunk done after one still running), out of order; not after
            an error of its own.
        **params: as for :func:`rate`.

    Raises:
        MetricError: as for :func:`rate` (a bad ``seed`` included), or
            ``puzzles`` that are not an array or a sequence of puzzles.
    """
    metric = _metric_name(metric)
    base = _rating_seed(seed)  # before the puzzles are read (an iterator is read once)
    if on_rating is not None and not callable(on_rating):
        raise MetricError(f"on_rating must be a function or None, not {on_rating!r:.40}")
    if isinstance(puzzles, (str, Puzzle)):
        raise MetricError(
            "rate_many needs a sequence of puzzles, not one puzzle (rate() rates one)"
        )
    if not isinstance(puzzles, Iterable):  # None, a number: not Python's TypeError
        raise MetricError(
            "rate_many needs an (n, cells) array or a sequence of puzzles, "
            f"got {type(puzzles).__name__}"
        )
    if isinstance(puzzles, np.ndarray):
        if puzzles.ndim != 2:
            raise MetricError(f"rate_many needs an (n, cells) array, got shape {puzzles.shape}")
        items: list[Any] = [row.astype(np.int8) for row in puzzles]
    else:
        # a 9x9 puzzle travels as its cells (read back as 9x9 from their number);
        # any other shape keeps its Puzzle, whose geometry the cells cannot say
        nine = Geometry.standard(9)
        items = [p.cells if isinstance(p, Puzzle) and p.geometry == nine else p for p in puzzles]
    jobs = check_jobs(jobs, MetricError)
    seeds = [derive_seed(base, i) for i in range(len(items))]
    out: list[Rating] = []
    failed = False  # on_rating raised an error: it is not called again

    def stopped(i: int, rating: Rating) -> None:
        if on_rating is not None and not failed:
            on_rating(i, rating)

    ratings = _rated(items, seeds, metric, runs, params, jobs, executor, stopped)
    try:
        for rating in ratings:
            if on_rating is not None:
                try:
                    on_rating(len(out), rating)
                except Exception:
                    failed = True
                    raise
            out.append(rating)
    finally:
        ratings.close()  # stopped early: the ratings made meanwhile reach ``on_rating`` now
    return out


def _rated(
    items: list[Any],
    seeds: list[int],
    metric: MetricName,
    runs: int | None,
    params: dict[str, Any],
    jobs: int,
    executor: Executor | Any | None,
    on_stop: Callable[[int, Rating], None] | None = None,
) -> Generator[Rating, None, None]:
    """The ratings of ``items`` with their ``seeds``, in order.

    In workers, the puzzles go in chunks of about a second of work (one puzzle
    each until the first are timed, :class:`~csp_sudoku.core.parallel.Pace`),
    at most :data:`_MAX_CHUNK` and a quarter of a worker's share: a chunk's
    ratings come back together, so a run stopped early loses those of its
    unfinished chunks (64 puzzles of a slow metric were minutes of work).
    ``on_stop``: when the run stops early, called with ``(i, rating)`` for the
    ratings made but not yet yielded (those of the chunk being yielded, and of
    the chunks done after one still running).
    """
    if executor is None:
        jobs = (os.cpu_count() or 1) if jobs == 0 else int(jobs)
        if jobs == 1 or len(items) < 2:  # here, one by one
            for i, (item, item_seed) in enumerate(zip(items, seeds, strict=True)):
                yield _rate_item(i, item, metric, runs, item_seed, params)
            return
        width = window = jobs
    else:
        window = int(jobs) if jobs > 1 else 0
        width = window or _capacity(executor)
    from csp_sudoku.core.parallel import Pace, ordered_map

    cap = max(1, min(_MAX_CHUNK, -(-len(items) // (width * 4))))
    pace = Pace()  # about a second of work a task
    starts: list[int] = []  # the first item of each task, in order

    def tasks() -> Iterator[tuple[Any, ...]]:
        i = 0
        while i < len(items):
            size = pace.size(cap)
            starts.append(i)
            yield i, items[i : i + size], seeds[i : i + size], metric, runs, params
            i += size

    def stopped(task: int, done: tuple[list[Rating], float]) -> None:
        if on_stop is not None:
            for k, rating in enumerate(done[0]):
                on_stop(starts[task] + k, rating)

    results = ordered_map(_rate_chunk, tasks(), jobs=window, executor=executor, on_stop=stopped)
    part: list[Rating] = []  # the chunk being yielded, its first item ``first``
    first = taken = 0  # ``taken``: its ratings yielded
    finished = False
    try:
        for part, seconds in results:
            first, taken = first + taken, 0
            pace.add(seconds, len(part))
            for rating in part:
                taken += 1  # before the yield: the rating is the caller's once yielded
                yield rating
        finished = True
    finally:
        results.close()  # stopped early: the chunks done after it go to ``on_stop`` now
        if not finished and on_stop is not None:
            for k in range(taken, len(part)):  # and the rest of this one
                on_stop(first + k, part[k])


def _metric_name(metric: object) -> MetricName:
    """``metric`` when it names a registered metric, else :class:`MetricError` naming it."""
    if not isinstance(metric, str):
        raise MetricError(
            f"metric must be one metric's name, got {metric!r}: rate one metric per call "
            f"(known: {', '.join(METRICS)})"
        )
    if metric not in REGISTRY:
        raise MetricError(f"unknown metric {metric!r}; known: {', '.join(METRICS)}")
    return cast(MetricName, metric)


def metric_names() -> Sequence[str]:
    """The names :func:`rate` accepts."""
    return METRICS


def fit_combined(
    puzzles: Sequence[Any] | NDArray[np.integer],
    targets: Sequence[float] | NDArray[np.floating],
    metrics: Sequence[str] = ("refutation", "dependency"),
    *,
    runs: dict[str, int | None] | None = None,
    seed: int | None = None,
    transform: str = "log1p",
    levels: int = 4,
    jobs: int = 1,
) -> CombinedRater:
    """Fit a linear model of ``metrics`` to ``targets`` by least squares.

    Args:
        puzzles: puzzle-likes or an ``(n, cells)`` array.
        targets: one number per puzzle (e.g. mean solving time, SE rating).
        metrics: names of :func:`csp_sudoku.metrics.rate` metrics (default: Pelanek's
            "RD" model, refutation sum and dependency).
        runs: runs per metric (None or missing: the metric's default).
        seed: makes the features reproducible.
        transform: ``log1p`` (default) or ``none`` on every metric score.
        levels: the number of levels (quantile bins of the training predictions).
        jobs: worker processes for computing the features.

    Returns:
        A reusable :class:`CombinedRater`. It records the shapes of ``puzzles``
        (``info["geometries"]``): a puzzle of another shape gets its score but
        the level ``unrated``.
    """
    unknown = [m for m in metrics if m == "combined"]
    if unknown or not metrics:
        raise MetricError("metrics must name one or more base metrics (not 'combined')")
    items = list(puzzles)
    shapes = sorted({as_puzzle(p).geometry.name for p in items})
    runs = dict(runs or {})
    cols = []
    for j, m in enumerate(metrics):
        s = None if seed is None else seed + j
        cols.append(
            [
                r.score
                for r in rate_many(items, cast(MetricName, m), runs=runs.get(m), seed=s, jobs=jobs)
            ]
        )
    return fit_features(
        np.array(cols).T,
        targets,
        metrics,
        transform=transform,
        runs=runs,
        levels=levels,
        info={"seed": seed, "geometries": shapes},
    )
