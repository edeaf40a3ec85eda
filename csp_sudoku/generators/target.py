"""Generation to a target difficulty: :func:`generate`.

The loop is the one every paper uses to hit a level (Chang, Fan, Sun,
*hsolve*, section 4.3.2; Hunt, Pong, Tucker, RG1/RG2 step "assess the
difficulty, restarting generation if the difficulty is not the desired
difficulty"; Fletcher, Johnson, Morrison: "repeatedly generating boards until
one of the desired difficulty level is produced"): make a puzzle, rate it with
:func:`csp_sudoku.metrics.rate`, keep it if it is on target.

For rare (hard) targets, blind repetition wastes most puzzles, so the default
``method="auto"`` **hill-climbs on the metric** when the first puzzle of an
attempt misses: keeping the solution grid, it swaps one clue orbit for one or
two others (adding more until the puzzle is unique again), makes the result
minimal again (RG2 removal) and keeps the neighbour when its rating is at least
as close to the target. It is the "guide the generation by the metric" idea of
Difficulty-Driven Generation (Hunt, Pong, Tucker), applied top-down so that
every step stays a unique minimal puzzle. docs/generators.md measures it.

Seeds. ``generate(count, seed=s)`` gives puzzle ``i`` its own stream seed
(``item_seed(s, i)``, with ``item_seed(s, 0) == s``); attempt ``j`` of a
stream uses ``attempt_seed(stream, j)``, with ``attempt_seed(stream, 0) == stream``
(both in :mod:`csp_sudoku.core.seeds`). The two derivations use different spawn keys,
so no two attempts of a run share a seed. Each :class:`Generated` reports the seed of the
attempt that made it, and ``generate(1, seed=that, <same options>)`` makes the
same puzzle again. With ``jobs > 1`` (or an ``executor``: a
``concurrent.futures`` executor or a ``dask.distributed.Client``) the streams
run through :func:`csp_sudoku.core.parallel.ordered_map`; the output order and content
do not depend on where they run. Since puzzle ``i`` depends on ``seed`` and
``i`` alone, ``generate(count, seed=s, start=k)`` yields exactly puzzles
``k .. count - 1`` of ``generate(count, seed=s)``: how an interrupted run resumes
(``done=`` hands over the puzzles it wrote, which no output then repeats).

Annealing (``method="anneal"``, and ``auto`` for the hard targets) runs chains
instead of streams: one per job (:func:`anneal_chains`), seeded by
:func:`chain_seed`, in worker processes or on the executor, the puzzles
streamed back in round-robin order of the chains as they are found
(:mod:`csp_sudoku.generators.streams`); the same seed and the same ``jobs``
give the same puzzles. A chain cannot be continued where an interrupted run
left it, so ``start=k`` runs new chains (seeded from ``seed`` and ``k``) for the
puzzles left, avoiding ``done``.
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import (
    Callable,
    Collection,
    Generator,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast, get_args

import numpy as np

from csp_sudoku.api import PuzzleLike, as_puzzle
from csp_sudoku.core._version import __version__
from csp_sudoku.core.deadline import check_budget
from csp_sudoku.core.deadline import deadline as solver_deadline
from csp_sudoku.core.errors import (
    ArgumentError,
    BudgetExhaustedError,
    DeadlinePassed,
    GenerationError,
    MetricError,
    SudokuError,
)
from csp_sudoku.core.geometry import Geometry, check_geometry
from csp_sudoku.core.io import counted, geometry_fields
from csp_sudoku.core.names import MethodName, MetricName, SymmetryName
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.parallel import check_jobs, ordered_map
from csp_sudoku.core.puzzle import Grid, Puzzle
from csp_sudoku.core.seeds import (
    SeedLike,
    as_generator,
    as_seed,
    attempt_seed,
    derive,
    item_seed,
)
from csp_sudoku.generators.grids import check_count, check_has_grid
from csp_sudoku.generators.minimal import check_max_clues, checker_for, dug, reduce_clues
from csp_sudoku.generators.novelty import (
    avoided,
    keys_of_file,
    published_keys,
    run_keys,
)
from csp_sudoku.generators.registry import (
    AUTO_STRATEGY,
    BASES,
    SEARCHES,
    STRATEGIES,
    BaseRequest,
    base_generator,
    search_strategy,
)
from csp_sudoku.generators.search.settings import DEFAULTS, SearchSettings
from csp_sudoku.generators.streams import Channel, round_robin
from csp_sudoku.generators.symmetry import check_name, orbit_index, orbits
from csp_sudoku.generators.targeting import Target, check_reachable
from csp_sudoku.generators.targeting import make_target as _make_target
from csp_sudoku.generators.targeting import rate_with_solution as _rate
from csp_sudoku.generators.techniques import check_filters, check_names, path_uses

if TYPE_CHECKING:
    from csp_sudoku.api import Checker
    from csp_sudoku.metrics.base import Rating

__all__ = [
    "METHODS",
    "Generated",
    "Target",
    "generate",
    "generate_quotas",
    "make_one",
    "target_seed",
]

#: ``method`` names :func:`generate` accepts: the searches, then the registered bases
#: (:mod:`csp_sudoku.generators.registry`).
METHODS: tuple[str, ...] = (*SEARCHES, *BASES)


@dataclass(frozen=True)
class Closest:
    """The hardest puzzle a search met (what a run short of its target reports)."""

    rating: Rating
    puzzle: str  # its clues, one line
    climbs: int = 0  # annealing: the climbs (starts, each on a grid) its chain made


@dataclass(frozen=True)
class Generated:
    """One generated puzzle with its ratings and the seed that reproduces it.

    Attributes:
        puzzle: the puzzle.
        solution: its unique solution.
        seed: the attempt seed: ``generate(1, seed=seed, <same options>)`` makes it again;
            for ``method="anneal"``, the seed of the chain that found it (its first
            puzzle is ``generate(1, seed=seed, ...)``'s).
        ratings: ratings by metric name (the target metric first).
        symmetry: the clue-pattern symmetry asked for.
        minimal: True when no single clue can be removed (checked on the
            output with the solver, whatever the options asked).
        method: the generator that made it.
        attempts: attempts its stream used.
        steps: hill-climbing steps taken in the successful attempt.
        seconds: time spent on this puzzle's stream.
        minimal_in_symmetry: with a symmetry, True when no clue *orbit* can be
            removed (checked); None without a symmetry.
        derived_from: for ``method="pseudo"``, the seed-bank puzzle it was
            made from (it shares that puzzle's hard core); None otherwise.
    """

    puzzle: Puzzle
    solution: Puzzle
    seed: int
    ratings: dict[str, Rating] = field(default_factory=dict)
    symmetry: str = "none"
    minimal: bool = True
    method: str = "random"
    attempts: int = 1
    steps: int = 0
    seconds: float = 0.0
    minimal_in_symmetry: bool | None = None
    derived_from: str | None = None

    @property
    def clues(self) -> int:
        """The number of clues."""
        return self.puzzle.clue_count

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: puzzle line, clues, minimal, symmetry, seed, ratings ..."""
        return {
            "puzzle": self.puzzle.to_line(),
            "clues": self.clues,
            "minimal": self.minimal,
            "symmetry": self.symmetry,
            "seed": self.seed,
            "method": self.method,
            "size": self.puzzle.geometry.size,
            **geometry_fields(self.puzzle.geometry),
            "ratings": {name: _rating_fields(name, r) for name, r in self.ratings.items()},
            "attempts": self.attempts,
            "steps": self.steps,
            "seconds": round(self.seconds, 4),
            **(
                {}
                if self.minimal_in_symmetry is None
                else {"minimal_in_symmetry": self.minimal_in_symmetry}
            ),
            **({} if self.derived_from is None else {"derived_from": self.derived_from}),
            "version": __version__,
        }


def _rating_fields(name: str, r: Rating) -> dict[str, Any]:
    """One rating of a row: score, level and rank; for a metric that takes a seed, the
    seed it was rated with (and its runs, when not the metric's default), so that
    ``rate --metric NAME --seed SEED [--runs RUNS]`` (or ``rate(puzzle, NAME,
    seed=SEED)``) gives the same score again; ``estimated`` for a score the metric
    only estimates (se beyond SE's dynamic chains)."""
    from csp_sudoku.metrics import REGISTRY

    out: dict[str, Any] = {"score": r.score, "level": r.level, "level_rank": r.level_rank}
    if r.seed is not None:
        out["seed"] = r.seed
        spec = REGISTRY.get(name)
        if r.runs is not None and (spec is None or r.runs != spec.runs):
            out["runs"] = r.runs
    if r.details.get("estimated"):
        out["estimated"] = True
    return out


@dataclass(frozen=True)
class _Options:
    """Everything one stream needs (picklable, for the process pool)."""

    geometry: Geometry
    target: Target
    rate_with: tuple[str, ...]
    symmetry: str
    minimal: bool
    method: str
    backend: str
    attempts: int | None
    climb_steps: int
    climb_patience: int
    max_clues: int | None
    pseudo_seeds: tuple[str, ...] | None = None
    avoid_files: tuple[str, ...] = ()
    strict_minimal: bool = False
    require: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    #: the puzzles an interrupted part of the run wrote (annealing: every chain avoids them)
    known: tuple[str, ...] = ()
    #: on a shape other than the standard 9x9: the puzzles of ``avoid_files``, read in
    #: the run's shape (avoided up to a relabelling, as the run's own outputs are)
    avoid_lines: tuple[str, ...] = ()
    #: annealing: at most this many outputs per solution grid (None: no limit)
    per_grid: int | None = None
    #: annealing at the hard end: the caller's puzzles whose vicinity is searched first
    starts: tuple[str, ...] = ()
    #: how the hard-end search goes (read by the search strategies, e.g. ``anneal``)
    settings: SearchSettings = DEFAULTS


def generate(
    count: int = 1,
    *,
    level: str | Sequence[str] | None = None,
    score_range: tuple[float, float] | None = None,
    metric: MetricName = "rounds",
    rate_with: Sequence[MetricName] = (),
    symmetry: SymmetryName = "none",
    minimal: bool = True,
    seed: SeedLike = None,
    budget_seconds: float | None = None,
    attempts: int | None = None,
    geometry: Geometry | None = None,
    method: MethodName = "auto",
    backend: str = "auto",
    climb_steps: int = 200,
    climb_patience: int = 25,
    max_clues: int | None = None,
    jobs: int = 1,
    executor: Any = None,
    start: int = 0,
    done: Iterable[str] = (),
    avoid: Sequence[str] = (),
    strict_minimal: bool = False,
    progress: Callable[[dict[str, Any]], None] | None = None,
    require_technique: Sequence[str] = (),
    exclude_technique: Sequence[str] = (),
    max_per_grid: int | None = None,
    vicinity_of: Sequence[PuzzleLike] = (),
    search: SearchSettings | None = None,
) -> Iterator[Generated]:
    """Generate ``count`` unique puzzles on target, streaming each as it is found.

    Args:
        count: how many puzzles.
        level: the wanted level name(s) of ``metric`` (case-insensitive, e.g.
            ``"hard"`` or ``("Hard", "Fiendish")`` for rounds).
        score_range: inclusive ``(low, high)`` bounds of ``metric``'s score.
        metric: the metric the target refers to (see :func:`csp_sudoku.metrics.rate`).
        rate_with: further metrics to rate every output with.
        symmetry: the clue-pattern symmetry (``none``, ``rot180``, ``rot90``,
            ``mirror``, ``flip``, ``diagonal``, ``antidiagonal``).
        minimal: make every puzzle minimal (among puzzles of that symmetry). False
            keeps a base method's clues, but digs a full grid (``random``, and the
            annealing search's starts) as RG2's paper digs, down to ``max_clues``
            (:func:`~csp_sudoku.generators.minimal.dug`). True or False (a bool).
        seed: an int (reproducible), a numpy Generator, or None (fresh).
        budget_seconds: wall-clock budget for the whole call.
        attempts: the most attempts per puzzle (one attempt = one solution
            grid, with its hill climb when climbing; when annealing, one chain:
            a run ends after ``attempts * count`` chains, and its
            whole-vicinity search, which is no chain, is not run).
        geometry: the shape (default 9x9).
        method: ``auto`` (RG2, hill-climbing on the metric when a target is
            set), ``random`` (RG2 generate-and-test), ``climb``, ``rg1``,
            ``ddg``, ``oracle``, ``hsolve`` (standard generator), ``pseudo``
            (hsolve's pseudo-generator on a bank of hard seed puzzles).
        backend: the uniqueness checker's backend.
        climb_steps: the most hill-climbing steps per attempt.
        climb_patience: end an attempt's climb after this many steps without
            getting closer to the target.
        max_clues: reject puzzles with more clues (a whole number, or None).
        jobs: worker processes (results and order do not depend on it; 0:
            every core here, as ``rate_many`` and ``--jobs 0`` read it); with
            an ``executor``, how many streams are kept in flight (1 or less:
            chosen from the executor, e.g. twice a Dask cluster's threads).
            Annealing runs one chain per job, here or on the executor: the
            puzzles depend on ``seed`` and ``jobs``, not on where chains run.
        executor: run the streams on this ``concurrent.futures.Executor`` or
            ``dask.distributed.Client`` instead of a private process pool (see
            :func:`csp_sudoku.core.parallel.ordered_map`).
        start: skip the first ``start`` puzzles: yield puzzles ``start`` to
            ``count - 1``, the same as the full run yields them (resuming).
            Annealing instead runs new chains for the ``count - start``
            puzzles left (:func:`chain_seed`): its chains cannot be continued
            where an interrupted run left them.
        done: the puzzles (lines) an interrupted part of this run already
            output, when resuming: no output is isomorphic to one of them.
        avoid: files of puzzles (one a line) that no output may be isomorphic
            to, besides the bundled collections and the seed bank (always avoided).
            On a shape other than the standard 9x9, files of puzzles of that shape
            (any form the puzzle readers take), avoided up to a relabelling of the
            digits, as the run's own outputs are.
        strict_minimal: with a symmetry, yield only puzzles that are minimal
            in the plain sense too (no single clue removable), not only
            minimal among symmetric patterns.
        require_technique: technique names the puzzle's SE path must use
            (each; see :mod:`~csp_sudoku.generators.techniques`).
        exclude_technique: technique names its SE path must not use.
        max_per_grid: annealing (``auto`` at the hard end): at most this many
            outputs per *family* (puzzles with one solution grid, or sharing
            at least half of their clues: a find's neighbours). The default,
            None, is 1 (every output a different puzzle), or no limit with
            ``vicinity_of`` (whose point is the neighbourhood). A larger value
            mines each find's neighbours. The other methods draw a fresh grid
            per attempt: a ``max_per_grid`` given with one is a GenerationError.
        progress: called now and then. Other methods than annealing, run in
            this process (``jobs`` 1, no executor), say at most every 2 s
            ``found``, ``attempts`` (for the puzzle being searched),
            ``best`` (the score nearest the target so far, None before any
            rating) and ``elapsed``. Annealing (``method="anneal"``) says
            ``found``, ``steps``, ``rated``, ``cleared`` (moves the metric's
            quick test showed too easy, not rated), ``restarts``, ``renewals``
            (fresh starts of a search whose best stalled), ``expanded``
            (states whose whole vicinity was searched), ``best`` (score) and
            ``elapsed`` (with several chains: summed, the best of all, while
            the workers run).
        vicinity_of: unique puzzles to search the vicinity of first (the hard
            end only: a target open above, minimal puzzles, no symmetry): the
            search begins with the exhaustive {-1+1} vicinity search over every
            digit (:mod:`csp_sudoku.generators.vicinity`) from them, and each
            output found so names its start in ``derived_from``. Outputs are
            still new: a published start's neighbours are mostly published.
        search: how the hard-end search goes (``anneal``, and ``auto`` where it
            anneals): a :class:`~csp_sudoku.generators.search.settings.SearchSettings`,
            e.g. ``dataclasses.replace(SearchSettings(), renew=1_000)``; None:
            the settings as they ship. The other methods do not read it.

    Yields:
        :class:`Generated`, in order.

    Raises:
        BudgetExhaustedError: the budget ran out (after yielding what was found).
        GenerationError: bad options, or options no puzzle can meet (technique
            filters, :func:`~csp_sudoku.generators.techniques.check_filters`;
            ``max_clues`` below the shape's proved fewest clues,
            :attr:`~csp_sudoku.core.geometry.Geometry.fewest_clues`; levels the
            shape cannot reach or a score range outside the levels' scores,
            :func:`~csp_sudoku.generators.targeting.check_reachable`), before any search.
        ArgumentError: an argument of the wrong kind (``minimal`` or
            ``strict_minimal`` not a bool, ``max_clues``, ``start``,
            ``climb_steps``, ``climb_patience`` or ``max_per_grid`` not a whole
            number, ``level`` not a name or names, ``progress`` not callable),
            before any search.
    """
    # a lone string is one name, file or puzzle, not a sequence of characters
    # (technique names: check_names reads them so)
    if isinstance(rate_with, str):
        rate_with = (cast(MetricName, rate_with),)
    if isinstance(avoid, str):
        avoid = (avoid,)
    if isinstance(vicinity_of, str):
        vicinity_of = (vicinity_of,)
    count = check_count(count)
    _check_kinds(
        minimal,
        strict_minimal,
        progress,
        max_clues=max_clues,
        start=start,
        climb_steps=climb_steps,
        climb_patience=climb_patience,
        max_per_grid=max_per_grid,
    )
    minimal, strict_minimal, start = bool(minimal), bool(strict_minimal), int(start)
    climb_steps, climb_patience = int(climb_steps), int(climb_patience)
    max_clues = None if max_clues is None else int(max_clues)
    max_per_grid = None if max_per_grid is None else int(max_per_grid)
    if method not in METHODS:
        raise GenerationError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    budget_seconds = check_budget(budget_seconds, GenerationError)
    if attempts is not None and (not is_whole(attempts) or attempts < 1):
        raise GenerationError(f"attempts must be a whole number of at least 1, got {attempts!r}")
    attempts = None if attempts is None else int(attempts)
    jobs = check_jobs(jobs, GenerationError)
    if jobs == 0 and executor is None:
        jobs = os.cpu_count() or 1
    if climb_steps < 0:  # 0: no climb
        raise GenerationError(f"climb_steps must be non-negative, got {climb_steps}")
    if climb_patience < 1:
        raise GenerationError(f"climb_patience must be at least 1, got {climb_patience}")
    if max_per_grid is not None and max_per_grid < 1:
        raise GenerationError(f"max_per_grid must be at least 1, got {max_per_grid}")
    if search is not None and not isinstance(search, SearchSettings):
        raise GenerationError(f"search must be a SearchSettings, got {type(search).__name__}")
    if not 0 <= start <= count:
        raise GenerationError(f"start must be between 0 and count ({count}), got {start}")
    target = _make_target(metric, level, score_range)
    opts = _Options(
        geometry=check_geometry(geometry) or Geometry.standard(9),
        target=target,
        rate_with=tuple(dict.fromkeys(m for m in rate_with if m != metric or not target.active)),
        symmetry=check_name(symmetry),
        minimal=minimal,
        method=method,
        backend=backend,
        attempts=attempts,
        climb_steps=climb_steps,
        climb_patience=climb_patience,
        max_clues=max_clues,
        avoid_files=tuple(str(a) for a in avoid),
        strict_minimal=strict_minimal,
        require=check_names(require_technique),
        exclude=check_names(exclude_technique),
        per_grid=max_per_grid if max_per_grid is not None else (None if vicinity_of else 1),
        settings=DEFAULTS if search is None else search,
    )
    _check_metrics(opts)
    check_reachable(target, opts.geometry)
    check_filters(opts.require, opts.exclude, target)
    check_has_grid(opts.geometry)
    if strict_minimal and not minimal:
        raise GenerationError(
            "strict_minimal (--strict-minimal) yields only minimal puzzles, but minimal=False "
            "(--not-minimal) keeps the generators' clues: ask for one or the other"
        )
    check_max_clues(max_clues, opts.geometry)
    if opts.method == "auto" and _wants_search(opts):
        opts = replace(opts, method=AUTO_STRATEGY)
    if max_per_grid is not None and opts.method not in STRATEGIES:
        raise GenerationError(
            f"max_per_grid (--max-per-grid) caps each family's outputs in the hard-end "
            f"search (method {', '.join(STRATEGIES)}, which auto runs for targets random "
            f"puzzles rarely reach); method {opts.method!r} makes every puzzle on a fresh grid"
        )
    if vicinity_of:
        opts = replace(opts, starts=_starts(opts, vicinity_of))
    if opts.geometry == Geometry.standard(9):
        for f in opts.avoid_files:  # unreadable: an error now, before any search
            keys_of_file(f)
        published_keys()  # missing or damaged: an error now, before any search
    elif opts.avoid_files:  # other shapes: the files' puzzles join the run's own
        opts = replace(opts, avoid_lines=_avoid_lines(opts.avoid_files, opts.geometry))
    base = as_seed(seed)
    deadline = None if budget_seconds is None else time.time() + budget_seconds
    if opts.method in STRATEGIES:  # a hard-end search: every chain avoids what was written
        opts = replace(opts, known=tuple(done))
        yield from _annealed(
            opts, count, base, deadline, start, jobs, executor, progress, budget_seconds
        )
        return
    found = start
    if executor is None:
        window = jobs if jobs > 1 and count - start >= 2 else 1
    else:
        window = jobs if jobs > 1 else 0
    # in this process the streams can say how their search goes; workers cannot
    here = executor is None and window == 1
    counter = [start]
    tick = _stream_ticker(progress, counter) if here and progress is not None else None
    tasks = ((opts, item_seed(base, i), deadline, tick) for i in range(start, count))
    results = ordered_map(_stream, tasks, jobs=window, executor=executor)
    # the puzzles the interrupted part wrote were in the full run's set too (kept
    # here: the streams' tasks do not carry them); a copy of a published puzzle, or
    # of the avoid files', is met here too and searched past like a repeat
    nine = opts.geometry == Geometry.standard(9)
    done = tuple(done)
    base_keys = avoided(opts.avoid_files) if nine else None
    seen = run_keys(opts.geometry, (*done, *opts.avoid_lines), base_keys)
    written: set[str] = set(done)  # the outputs, as the closest puzzle is said
    try:
        for i, res in enumerate(results, start=start):
            retry = 0
            while isinstance(res, Generated) and not seen.is_new(res.puzzle.cells):
                # a known puzzle or an earlier output of this run: the stream's
                # retries (same seeds whatever ``jobs``) search on
                if retry >= COPIES_LIMIT:
                    raise _copies_error(opts, found, count)
                again = attempt_seed(item_seed(base, i), (1 << 22) + retry)
                res = _stream(opts, again, deadline, tick)
                retry += 1
            if isinstance(res, _Missed):
                raise _budget_error(
                    res.why, found, count, opts, budget_seconds, res.closest, written
                )
            seen.add(res.puzzle.cells)
            written.add(res.puzzle.to_line())
            found += 1
            counter[0] = found
            yield res
    finally:
        if isinstance(results, Generator):
            results.close()  # stopped early: cancel the streams nobody will read


#: Copies in a row (of published puzzles, the avoid files or the run's own
#: outputs) after which a run stops and says why: a method whose puzzles are all
#: known (the pseudo-generator's minimal puzzles are the forum's published ones)
#: would otherwise search for ever.
COPIES_LIMIT = 200


def _copies_error(opts: _Options, found: int, count: int) -> BudgetExhaustedError:
    hint = (
        "the pseudo-generator's minimal puzzles keep its seed bank's published hard cores "
        "and reduce to the forum's published puzzles: use --not-minimal (minimal=False) to "
        "keep hsolve's clues, or --method anneal for new hard minimal puzzles"
        if opts.method == "pseudo"
        else "every puzzle this method can make may be known already: widen the target, "
        "drop --avoid files, or ask for fewer puzzles"
    )
    return BudgetExhaustedError(
        f"generated {found} of {counted(count, 'puzzle')}, then the next "
        f"{COPIES_LIMIT} puzzles made were all copies of published puzzles, of the avoid "
        f"files or of this run's own outputs; {hint}",
        found=found,
        wanted=count,
    )


def make_one(
    seed: int,
    *,
    level: str | Sequence[str] | None = None,
    score_range: tuple[float, float] | None = None,
    metric: MetricName = "rounds",
    **options: Any,
) -> Generated:
    """The first puzzle of ``generate(1, seed=seed, ...)``: reproduce a reported seed."""
    return next(
        iter(generate(1, level=level, score_range=score_range, metric=metric, seed=seed, **options))
    )


# ---------------------------------------------------------------------- internals
def _check_kinds(
    minimal: object, strict_minimal: object, progress: object, **whole: object
) -> None:
    """The arguments of :func:`generate` that Python's types would let through wrong
    (``minimal="no"`` read as True, ``max_clues=20.5`` compared as a number,
    ``max_clues="20"`` a TypeError deep inside, ``climb_steps=nan`` a TypeError
    after the first grid, ``progress=5`` called later). ``whole``: the arguments
    that are whole numbers, by name; ``max_clues`` and ``max_per_grid`` may be None.

    Raises:
        ArgumentError: naming the argument.
    """
    for name, flag in (("minimal", minimal), ("strict_minimal", strict_minimal)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ArgumentError(f"{name} must be True or False, got {flag!r}")
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a function or None, not {progress!r}")
    for name, value in whole.items():
        optional = name in ("max_clues", "max_per_grid")
        if not (optional and value is None) and not is_whole(value):
            raise ArgumentError(
                f"{name} must be a whole number{' or None' if optional else ''}, got {value!r:.40}"
            )


def _avoid_lines(paths: Sequence[str], geometry: Geometry) -> tuple[str, ...]:
    """The puzzles of the avoid files of a run on ``geometry`` (not the standard
    9x9, whose files are read as keys), read in that shape.

    Raises:
        GenerationError: a file that cannot be read, or a line that is no puzzle
            of that shape (file:line:column and why).
    """
    from csp_sudoku.core.io import read_puzzles

    out: list[str] = []
    for path in paths:
        try:
            for entry in read_puzzles(path, geometry):
                if entry.error is not None:
                    raise GenerationError(f"avoid file {entry.error}")
                if entry.puzzle is not None:
                    out.append(entry.puzzle.to_line())
        except OSError as exc:
            raise GenerationError(f"cannot read puzzles to avoid from {path!r}: {exc}") from None
    return tuple(out)


def _check_metrics(opts: _Options) -> None:
    known = get_args(MetricName)  # the names of csp_sudoku.metrics.METRICS (tested)
    # the target's metric even when no target uses it: a typo is said
    for m in (opts.target.metric, *opts.rate_with):
        if m not in known:
            raise GenerationError(f"unknown metric {m!r}; known: {', '.join(known)}")
    if not opts.target.levels:
        return
    from csp_sudoku.metrics import REGISTRY

    levelled = REGISTRY[opts.target.metric].levelled
    shape = opts.geometry.name
    if levelled is not None and not levelled(shape):
        raise GenerationError(
            f"{opts.target.metric}'s levels are quantiles of classic 9x9 puzzles: every "
            f"{shape} puzzle is 'unrated', so no level can be met; target a score instead "
            "(score_range, --score-min/--score-max)"
        )


def _budget_error(
    why: str,
    found: int,
    count: int,
    opts: _Options,
    budget_seconds: float | None,
    best: Closest | None = None,
    made: Collection[str] = (),
) -> BudgetExhaustedError:
    aim = f" at {opts.target.describe()}" if opts.target.active else ""
    limit = (
        f"the time budget of {budget_seconds:g} s"
        if why == "time" or opts.attempts is None
        else f"the budget of {counted(opts.attempts, 'attempt')} per puzzle"
    )
    closest = "" if best is None else f" ({_closest_text(best, opts, made)})"
    return BudgetExhaustedError(
        f"generated {found} of {counted(count, 'puzzle')}{aim} before {limit} ran out{closest}; "
        "raise budget_seconds/attempts (--budget-seconds/--attempts), or widen the target",
        found=found,
        wanted=count,
    )


def _closest_text(best: Closest, opts: _Options, made: Collection[str] = ()) -> str:
    """How close a run short of its target came: the hardest (or, for a target
    below the top, the closest) puzzle it met and, when that puzzle is on target
    itself, that it is one of the run's outputs (``made``) or which other option
    kept it out."""
    from csp_sudoku.generators.search.base import open_above

    # at the hard end the search climbs hardness; elsewhere it nears the target
    which = "hardest" if open_above(opts.target) else "closest"
    text = f"the {which} puzzle met rated {best.rating.score:g}, level {best.rating.level}"
    if best.puzzle in made:
        text += ", one of the puzzles written"
    elif opts.target.matches(best.rating):
        clues = as_puzzle(best.puzzle, opts.geometry).clue_count
        if opts.max_clues is not None and clues > opts.max_clues:
            why = f"it has {clues} clues, above max_clues {opts.max_clues}"
        else:
            why = "the technique, minimality or novelty options refused it"
        text += f", on target but {why}"
    tried = f", after {counted(best.climbs, 'climb')} (each on a grid)" if best.climbs else ""
    return f"{text}: {best.puzzle}{tried}"


@dataclass(frozen=True)
class _Missed:
    """A stream that ran out of budget: which budget (``time`` or ``attempts``)
    and the puzzle nearest the target that its attempts rated."""

    why: str
    closest: Closest | None


#: What a stream says after each attempt, in this process: (attempts made, the
#: puzzle nearest the target so far).
_Tick = Callable[[int, "Closest | None"], None]


def _stream_ticker(progress: Callable[[dict[str, Any]], None], found: list[int]) -> _Tick:
    """A stream's :data:`_Tick` that calls ``progress`` at most every 2 s with
    ``found`` (``found[0]``: the run's count so far), ``attempts`` (of the
    puzzle searched for), ``best`` (the score nearest the target) and ``elapsed``."""
    t0 = time.perf_counter()
    last = [t0]

    def tick(attempts: int, closest: Closest | None) -> None:
        now = time.perf_counter()
        if now - last[0] < 2.0:
            return
        last[0] = now
        progress(
            {
                "found": found[0],
                "attempts": attempts,
                "best": None if closest is None else closest.rating.score,
                "elapsed": round(now - t0, 1),
            }
        )

    return tick


def _stream(
    opts: _Options, stream: int, deadline: float | None, tick: _Tick | None = None
) -> Generated | _Missed:
    """Attempts with seeds ``attempt_seed(stream, j)`` until one is on target.

    Returns the puzzle, or :class:`_Missed` when the budget ran out. ``tick``
    (in this process only) hears after every attempt how the search goes.
    """
    start = time.perf_counter()
    j = 0
    closest: Closest | None = None
    while True:
        if tick is not None and j:
            tick(j, closest)
        if opts.attempts is not None and j >= opts.attempts:
            return _Missed("attempts", closest)
        if deadline is not None and time.time() >= deadline:
            return _Missed("time", closest)
        seed = attempt_seed(stream, j)
        j += 1
        try:
            with solver_deadline(deadline):  # the budget holds inside every solver call too
                got = _attempt(opts, seed, deadline, screen=closest is not None)
        except DeadlinePassed:
            return _Missed("time", closest)
        if isinstance(got, Closest):
            if closest is None or opts.target.distance(got.rating) < opts.target.distance(
                closest.rating
            ):
                closest = got
            continue
        if got is not None:
            puzzle, solution, ratings, steps, method, origin = got
            geo = opts.geometry
            chk = checker_for(geo, opts.backend)
            if opts.minimal and opts.symmetry == "none" and not opts.target.active:
                # reduce_clues tried every clue once, and removing clues only adds
                # solutions: a clue kept then is still needed now (no climb came after)
                minimal, in_sym = True, None
            else:
                minimal, in_sym = _labels_geo(puzzle.cells, solution.cells, geo, opts.symmetry, chk)
            if opts.strict_minimal and not minimal:
                continue
            if not _techniques_ok(opts, puzzle, solution, ratings.get(opts.target.metric), seed):
                continue
            made = (puzzle, solution, ratings)
            return _generated(opts, made, seed, (minimal, in_sym), method, j, steps, start, origin)


_Attempt = tuple[Puzzle, Puzzle, dict[str, "Rating"], int, str, "str | None"]


def _generated(
    opts: _Options,
    made: tuple[Puzzle, Puzzle, dict[str, Rating]],
    seed: int,
    labels: tuple[bool, bool | None],
    method: str,
    attempts: int,
    steps: int,
    start: float,
    derived_from: str | None = None,
) -> Generated:
    """The output of every method: ``made`` (puzzle, solution, ratings) with its
    ``labels`` (minimal, minimal in the symmetry) and the run's options; its
    seconds are counted from ``start`` (a ``time.perf_counter()``)."""
    puzzle, solution, ratings = made
    minimal, in_sym = labels
    return Generated(
        puzzle=puzzle,
        solution=solution,
        seed=seed,
        ratings=ratings,
        symmetry=opts.symmetry,
        minimal=minimal,
        method=method,
        attempts=attempts,
        steps=steps,
        seconds=time.perf_counter() - start,
        minimal_in_symmetry=in_sym,
        derived_from=derived_from,
    )


def _attempt(
    opts: _Options, seed: int, deadline: float | None, screen: bool = True
) -> _Attempt | Closest | None:
    """One attempt: a puzzle from ``opts.method`` (plus a hill climb); off target,
    the rated puzzle as a :class:`Closest` (how near the run came); else None.
    ``screen``: a base method's puzzle that the quick test shows below a target
    open above is dropped unrated (:func:`_below_floor`); a stream's attempts
    are rated in full until one gives a :class:`Closest`, so that a run short of
    its target can still name the nearest puzzle it met.

    ``auto`` with a target (one random puzzles reach): an RG2 puzzle, then a
    hill climb on the metric. ``auto`` never pseudo-generates from the seed
    bank (that reproduces published puzzles); hard targets anneal instead.
    """
    rng = as_generator(seed)
    geo = opts.geometry
    chk = checker_for(geo, opts.backend)
    target = opts.target
    method = opts.method
    if method == "auto" and not target.active:
        method = "random"
    base_method = "random" if method in ("auto", "climb") else method
    origin: list[str] = []
    made = _prepared(base_method, opts, rng, chk, origin)
    if made is None:
        return None
    clues, sol = made
    solution = Puzzle(sol, geo)
    # the ratings' seed: derived only when something is rated (a derivation costs
    # about as much as a tenth of a plain minimal puzzle)
    rating_seed = attempt_seed(seed, 1 << 20) if target.active or opts.rate_with else 0
    steps = 0
    produced = base_method
    ratings: dict[str, Rating] = {}
    if target.active:
        if (
            screen
            and method not in ("auto", "climb")
            and _below_floor(clues, solution, target, geo)
        ):
            return None  # at most the target's floor: no output, and nothing to climb from
        rating = _rate(Puzzle(clues, geo), solution, target.metric, rating_seed)
        if not target.matches(rating) and method in ("auto", "climb"):
            clues, rating, steps = _climb(clues, sol, rating, opts, rng, chk, rating_seed, deadline)
            produced = "climb" if steps else produced
        if not target.matches(rating):
            return Closest(rating, Puzzle(clues, geo).to_line())
        ratings[target.metric] = rating
    if opts.max_clues is not None and int(np.count_nonzero(clues)) > opts.max_clues:
        return None
    puzzle = Puzzle(clues, geo)
    for m in opts.rate_with:
        ratings[m] = _rate(puzzle, solution, m, rating_seed)
    return puzzle, solution, ratings, steps, produced, (origin[0] if origin else None)


def _below_floor(clues: Grid, solution: Puzzle, target: Target, geo: Geometry) -> bool:
    """True when the metric's quick one-sided test (SE:
    :func:`~csp_sudoku.human.se_order.solved_within`) shows the puzzle rated at most
    the target's floor (:meth:`~csp_sudoku.generators.targeting.Target.floor`: targets
    open above, such as SE ``extreme``), so that a base method's puzzle (``random``
    and the others, which do not climb) need not be rated in full to be dropped: of
    random minimal 9x9 puzzles about 1 in 4,000 rates SE above 9.0, and the test
    (about 0.2 ms) clears the others where a full rating takes about 2 ms
    (benchmarks/results/generate_screened.md, "Random puzzles, tested")."""
    floor = target.floor()
    if floor is None:
        return False
    from csp_sudoku.metrics import REGISTRY

    within = REGISTRY[target.metric].within
    return within is not None and within(Puzzle(clues, geo), floor, solution)


def _prepared(
    method: str,
    opts: _Options,
    rng: np.random.Generator,
    chk: Checker,
    origin: list[str] | None = None,
) -> tuple[Grid, Grid] | None:
    """A base puzzle, closed under the symmetry and made minimal when asked (a full
    grid is dug down otherwise: :func:`~csp_sudoku.generators.minimal.dug`).

    The base puzzle (unique, with its solution) comes from the base generator
    registered as ``method``; ``origin`` receives the seed-bank puzzle a
    pseudo-generated puzzle came from.
    """
    request = BaseRequest(opts.geometry, rng, chk, opts.target, [] if origin is None else origin)
    made = base_generator(method)(request)
    if made is None:
        return None
    clues, sol = made
    geo = opts.geometry
    if opts.symmetry != "none":
        clues = _symmetrize(clues, sol, opts.symmetry, geo.size)
    clues = dug(
        clues, sol, geo, rng, minimal=opts.minimal, symmetry=opts.symmetry, checker=chk,
        max_clues=opts.max_clues,
    )  # fmt: skip
    return clues, sol


def _symmetrize(clues: Grid, sol: Grid, symmetry: str, size: int) -> Grid:
    """Fill every orbit that holds a clue (clues from the solution keep the puzzle unique)."""
    idx = orbit_index(size, symmetry)
    used = np.unique(idx[clues != 0])
    out = clues.copy()
    orbs = orbits(size, symmetry)
    for k in used.tolist():
        out[orbs[k]] = sol[orbs[k]]
    return out


def _neighbour(
    clues: Grid, sol: Grid, opts: _Options, rng: np.random.Generator, chk: Checker
) -> Grid:
    """Swap one clue orbit for one or two empty ones; re-add until unique; re-minimise."""
    geo = opts.geometry
    orbs = orbits(geo.size, opts.symmetry)
    filled = [k for k, o in enumerate(orbs) if clues[o].any()]
    empty = [k for k, o in enumerate(orbs) if not clues[o].any()]
    work = clues.copy()
    drop = filled[int(rng.integers(len(filled)))]
    work[orbs[drop]] = 0
    order = rng.permutation(len(empty)).tolist()
    adds = 1 + int(rng.integers(2))
    for taken, pos in enumerate(order, start=1):
        k = empty[pos]
        work[orbs[k]] = sol[orbs[k]]
        if taken >= adds and not chk.has_other_solution(work, sol):
            break
    if opts.minimal:
        work = reduce_clues(work, sol, geo, rng, symmetry=opts.symmetry, checker=chk)
    return work


def _climb(
    clues: Grid,
    sol: Grid,
    rating: Rating,
    opts: _Options,
    rng: np.random.Generator,
    chk: Checker,
    rating_seed: int,
    deadline: float | None,
) -> tuple[Grid, Rating, int]:
    """Hill-climb on the target metric, keeping the solution grid; a solver call
    cut off by the deadline ends the climb where it is (its best stays known)."""
    target = opts.target
    geo = opts.geometry
    solution = Puzzle(sol, geo)
    best = target.distance(rating)
    steps = 0
    stale = 0
    for _ in range(opts.climb_steps):
        if deadline is not None and time.time() >= deadline:
            break
        steps += 1
        try:
            cand = _neighbour(clues, sol, opts, rng, chk)
            r = _rate(Puzzle(cand, geo), solution, target.metric, rating_seed)
        except DeadlinePassed:
            break
        d = target.distance(r)
        stale = 0 if d < best else stale + 1
        if d <= best:
            clues, rating, best = cand, r, d
            if target.matches(r):
                break
        if stale >= opts.climb_patience:
            break
    return clues, rating, steps


# ------------------------------------------------------------------ labels, novelty
def _labels_geo(
    clues: Grid, sol: Grid, geo: Geometry, symmetry: str, chk: Checker
) -> tuple[bool, bool | None]:
    """``(minimal, minimal_in_symmetry)`` of a unique puzzle, checked with the solver.

    ``minimal``: no single clue can be removed (one solver call per clue).
    ``minimal_in_symmetry`` (None without a symmetry): no orbit of the
    symmetry can be removed. Plain minimal implies it (fewer clues never
    remove solutions, so if an orbit could go, so could each of its clues).
    """
    minimal = chk.backend.removable_clues(clues, geo, sol).size == 0
    if symmetry == "none":
        return minimal, None
    if minimal:
        return True, True
    work = clues.copy()
    for o in orbits(geo.size, symmetry):
        if not work[o].any():
            continue
        work[o] = 0
        removable = chk.backend.other_solution(work, geo, sol) is None
        work[o] = clues[o]
        if removable:
            return False, False
    return False, True


def _techniques_ok(
    opts: _Options, puzzle: Puzzle, solution: Puzzle, rating: Rating | None, seed: int
) -> bool:
    """The technique filters on the puzzle's SE path (rated with ``se`` if need be)."""
    if not opts.require and not opts.exclude:
        return True
    if rating is None or rating.metric != "se":
        try:
            rating = _rate(puzzle, solution, "se", attempt_seed(seed, 1 << 20))
        except MetricError:
            return False
    counts = rating.details.get("technique_counts", {})
    return all(path_uses(counts, n) for n in opts.require) and not any(
        path_uses(counts, n) for n in opts.exclude
    )


def _starts(opts: _Options, puzzles: Sequence[PuzzleLike]) -> tuple[str, ...]:
    """The lines of ``vicinity_of``, checked: a search strategy's run at the hard end
    (minimal, no symmetry) and unique puzzles of the run's shape."""
    from csp_sudoku.generators.search.base import open_above

    if opts.method not in STRATEGIES or not open_above(opts.target):
        raise GenerationError(
            "vicinity_of (--vicinity-of) needs a search at the hard end: a target open above "
            "(e.g. score_min, or the metric's hardest level) and method auto or anneal"
        )
    if not opts.minimal or opts.symmetry != "none":
        raise GenerationError(
            "vicinity_of (--vicinity-of) searches minimal puzzles with no symmetry"
        )
    chk = checker_for(opts.geometry, opts.backend)
    out = []
    for i, p in enumerate(puzzles, start=1):
        try:
            puzzle = as_puzzle(p, opts.geometry)
        except SudokuError as exc:
            raise GenerationError(f"vicinity_of puzzle {i}: {exc}") from None
        if chk.count(puzzle.cells, 2) != 1:
            raise GenerationError(
                f"vicinity_of puzzle {i} ({puzzle.to_line()}) does not have exactly one solution"
            )
        out.append(puzzle.to_line())
    return tuple(out)


def _wants_search(opts: _Options) -> bool:
    """True when ``auto`` should anneal: a 9x9 target that random puzzles rarely reach.

    That is a target of only the metric's top level(s) (SE ``diabolical`` /
    ``extreme``, or the top level of another metric), an SE score range from
    7.5 up, or a score range beyond the 90th percentile of the metric's
    reference distribution (``csp_sudoku/data/metric_reference.json``).
    """
    t = opts.target
    if not t.active or opts.geometry != Geometry.standard(9):
        return False
    from csp_sudoku.generators.targeting import level_order, lower_is_harder

    order = level_order(t.metric)
    if t.levels and order:
        top = set(order[-2:]) if t.metric == "se" else {order[-1]}
        if set(t.levels) <= top:
            return True
    if t.score_range is None:
        return False
    lo, hi = t.score_range
    if t.metric == "se":
        return lo >= 7.5
    from csp_sudoku.metrics.base import reference

    pct = reference().get("metrics", {}).get(t.metric, {}).get("percentiles")
    if not pct:
        return False
    if lower_is_harder(t.metric):
        return bool(hi <= float(pct[10]))
    return bool(lo >= float(pct[90]))


#: The spawn-key word of the chains of a resumed annealing run (a part from puzzle k > 0).
RESUME_KEY = 0xA11EA1


def chain_seed(seed: int, start: int, chain: int) -> int:
    """The seed of annealing chain ``chain`` of a run (or resumed part) from puzzle ``start``.

    A run from its start uses ``item_seed(seed, chain)`` (chain 0: ``seed``
    itself); the part that resumes a run after its first ``start`` puzzles uses
    ``derive(seed, RESUME_KEY, start, chain)``: new chains, not the ones that
    were cut off (which cannot be continued where they stood), so a resumed
    part costs no time redoing the puzzles already written.
    """
    return item_seed(seed, chain) if start == 0 else derive(seed, RESUME_KEY, start, chain)


def share_starts(opts: _Options, w: int, chains: int) -> _Options:
    """Chain ``w``'s options: with at least as many caller's starts
    (``vicinity_of``) as chains, every ``chains``-th start from the ``w``-th,
    so that the chains search different vicinities instead of the same ones
    in different orders; with fewer, all of them."""
    if len(opts.starts) < chains:
        return opts
    return replace(opts, starts=opts.starts[w::chains])


def anneal_chains(jobs: int, count: int, start: int = 0) -> int:
    """How many chains an annealing run of ``count`` puzzles, from puzzle ``start``, runs.

    One per job, never more than puzzles are left, at least one. The run
    (or resumed part) may add one more chain, number ``anneal_chains(...)``,
    when two chains met the same puzzle (see :func:`generate`).
    """
    return max(1, min(jobs, count - start))


def resolved_method(
    method: str,
    *,
    metric: MetricName = "rounds",
    level: str | Sequence[str] | None = None,
    score_range: tuple[float, float] | None = None,
    geometry: Geometry | None = None,
) -> str:
    """The method :func:`generate` runs: ``auto`` anneals for targets random puzzles rarely reach.

    Raises:
        GenerationError: an unknown level of ``metric``.
    """
    if method != "auto":
        return method
    geo = geometry or Geometry.standard(9)
    target = _make_target(metric, level, score_range)
    opts = _Options(geo, target, (), "none", True, method, "auto", None, 0, 0, None)
    return AUTO_STRATEGY if _wants_search(opts) else method


def _annealed(
    opts: _Options,
    count: int,
    base: int,
    deadline: float | None,
    start: int,
    jobs: int,
    executor: Any,
    progress: Callable[[dict[str, Any]], None] | None,
    budget_seconds: float | None,
) -> Iterator[Generated]:
    """A search strategy's run (``method="anneal"``): puzzles from its chains (one
    chain per job).

    The ``count - start`` puzzles left are shared among
    :func:`anneal_chains` chains seeded by :func:`chain_seed`; with one chain
    (and no executor) it runs here, otherwise each in a worker, and the
    puzzles come out in round-robin order of the chains
    (:func:`csp_sudoku.generators.streams.round_robin`), each as soon as the
    ones before it are there. A puzzle two chains met is kept once (where it
    came first in that order); when that leaves the run short, one more
    chain, avoiding every output, makes the rest.
    """
    if count <= start:
        return
    seen = run_keys(opts.geometry, opts.known)
    chains = anneal_chains(jobs, count, start)
    left = count - start
    shares = [left // chains + (1 if w < left % chains else 0) for w in range(chains)]
    bests: list[Closest] = []
    short = [False]  # a chain ended before its share: the budget ran out
    made: list[str] = []

    def single(seed: int, n: int, o: _Options) -> Generator[Generated, None, None]:
        for item in _anneal_chain(o, seed, deadline, n, progress):
            if isinstance(item, Generated):
                n -= 1
                yield item
            else:
                bests.append(item)
        short[0] = short[0] or n > 0

    def parallel() -> Generator[Generated, None, None]:
        t0 = time.perf_counter()
        reports: dict[int, dict[str, Any]] = {}
        last = [0.0]

        def ended(w: int, got: int, best: Closest | None) -> None:
            if best is not None:
                bests.append(best)
            short[0] = short[0] or got < shares[w]

        def message(msg: tuple[Any, ...]) -> None:
            if msg[0] == "progress":
                reports[msg[1]] = msg[2]
                say(False)

        def say(now: bool) -> None:
            if progress is None or not (now or time.perf_counter() - last[0] >= 2.0):
                return
            last[0] = time.perf_counter()
            progress(_merged(reports.values(), len(made), time.perf_counter() - t0))

        tasks = [
            (share_starts(opts, w, chains), chain_seed(base, start, w), deadline, shares[w])
            for w in range(chains)
        ]
        for _, g in round_robin(
            _anneal_task, tasks, shares, executor=executor, ended=ended, message=message
        ):
            yield g
            say(True)

    if chains == 1 and executor is None:
        source = single(chain_seed(base, start, 0), left, opts)
    else:
        source = parallel()
    found = start
    try:
        for g in source:
            if not seen.is_new(g.puzzle.cells):
                continue  # two chains met the same puzzle: the first in the run's order is kept
            seen.add(g.puzzle.cells)
            made.append(g.puzzle.to_line())
            found += 1
            yield g
    finally:
        source.close()  # stopped early: the chains are told to stop, the workers let go
    timed_out = deadline is not None and time.time() >= deadline
    if found < count and not short[0] and not timed_out:
        # every chain made its share, but some were copies of another chain's puzzles
        more = replace(opts, known=(*opts.known, *made))
        for g in single(chain_seed(base, start, chains), count - found, more):
            found += 1
            yield g
    if found < count:
        why = "time" if deadline is not None and time.time() >= deadline else "attempts"
        best = max(bests, key=lambda b: b.rating.score, default=None)
        if best is not None:  # the climbs of every chain, said with the hardest puzzle
            best = replace(best, climbs=sum(b.climbs for b in bests))
        raise _budget_error(why, found, count, opts, budget_seconds, best, made)


def _merged(reports: Iterable[dict[str, Any]], found: int, elapsed: float) -> dict[str, Any]:
    """The progress report of several chains: sums, the best score, this run's finds."""
    rs = list(reports)
    bests = [r["best"] for r in rs if r.get("best") is not None]
    return {
        "found": found,
        "steps": sum(r["steps"] for r in rs),
        "rated": sum(r["rated"] for r in rs),
        "cleared": sum(r["cleared"] for r in rs),
        "restarts": sum(r["restarts"] for r in rs),
        "renewals": sum(r.get("renewals", 0) for r in rs),
        "expanded": sum(r.get("expanded", 0) for r in rs),
        # chains start on grids of their own: their families are counted apart
        "families": sum(r.get("families", 0) for r in rs),
        "best": max(bests, default=None),
        "elapsed": round(elapsed, 1),
    }


def _anneal_task(
    opts: _Options, seed: int, deadline: float | None, n: int, chain: int, channel: Channel
) -> tuple[list[Generated], Closest | None]:
    """One chain's share, in a worker: each puzzle sent on ``channel`` when found, all returned."""
    out: list[Generated] = []
    best: Closest | None = None

    def report(info: dict[str, Any]) -> None:
        channel.put("progress", chain, info)

    for item in _anneal_chain(opts, seed, deadline, n, report, stop=channel.stopped):
        if isinstance(item, Generated):
            channel.put("item", chain, len(out), item)
            out.append(item)
        else:
            best = item
    return out, best


def _anneal_chain(
    opts: _Options,
    seed: int,
    deadline: float | None,
    n: int,
    progress: Callable[[dict[str, Any]], None] | None,
    stop: Callable[[], bool] | None = None,
) -> Iterator[Generated | Closest]:
    """Up to ``n`` puzzles of one chain of the strategy ``opts.method`` (e.g.
    annealing); then the hardest puzzle met (if any).

    The chain avoids the default sets, ``opts.avoid_files`` and ``opts.known``
    (the puzzles an earlier part of the run wrote). ``stop`` is asked about
    once a second; when it says so the chain ends where it is.
    """
    from csp_sudoku.generators.search.base import SearchRequest, SearchStats

    strategy = search_strategy(opts.method)
    geo = opts.geometry
    chk = checker_for(geo, opts.backend)
    nine = geo == Geometry.standard(9)
    avoid = run_keys(
        geo, (*opts.known, *opts.avoid_lines), avoided(opts.avoid_files) if nine else None
    )
    rng = as_generator(seed)
    st = SearchStats()
    t0 = time.perf_counter()
    labels: dict[bytes, tuple[bool, bool | None]] = {}

    def ok(clues: Grid, sol: Grid, r: Rating) -> bool:
        if opts.max_clues is not None and int(np.count_nonzero(clues)) > opts.max_clues:
            return False
        if not _techniques_ok(opts, Puzzle(clues, geo), Puzzle(sol, geo), r, seed):
            return False
        lab = _labels_geo(clues, sol, geo, opts.symmetry, chk)
        labels[clues.tobytes()] = lab
        return not (opts.strict_minimal and not lab[0])

    found = 0
    last = [time.perf_counter(), time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        if progress is not None and now - last[0] >= 2.0:
            last[0] = now
            progress(_report(st, found, t0))
        if stop is not None and now - last[1] >= 1.0:
            last[1] = now
            if stop():
                # the caller stopped reading: end the chain as its deadline would
                raise DeadlinePassed("the caller stopped reading")

    try:
        with solver_deadline(deadline):
            request = SearchRequest(
                geo,
                opts.target,
                rng,
                chk,
                avoid,
                symmetry=opts.symmetry,
                minimal=opts.minimal,
                rating_seed=attempt_seed(seed, 1 << 20),
                deadline=deadline,
                stats=st,
                accept=ok,
                on_step=tick,
                max_chains=None if opts.attempts is None else opts.attempts * n,
                per_grid=opts.per_grid,
                starts=[as_puzzle(s, geo).cells for s in opts.starts],
            )
            for f in strategy(request, opts.settings):
                found += 1
                solution = Puzzle(f.solution, geo)
                puzzle = Puzzle(f.clues, geo)
                ratings: dict[str, Rating] = {opts.target.metric: f.rating}
                for m in opts.rate_with:
                    ratings[m] = _rate(puzzle, solution, m, attempt_seed(seed, 1 << 20))
                found_labels = labels.get(f.clues.tobytes(), (False, None))
                made = (puzzle, solution, ratings)
                derived = None if f.derived_from is None else Puzzle(f.derived_from, geo).to_line()
                chains = st.restarts + 1
                yield _generated(
                    opts, made, seed, found_labels, opts.method, chains, f.steps, t0, derived
                )
                if progress is not None:
                    progress(_report(st, found, t0))
                if found >= n:
                    break
    except DeadlinePassed:
        pass
    if found < n and progress is not None and not (stop is not None and stop()):
        # the last state of a chain cut short: slow steps may have used the whole budget
        # before the first two-second report was due
        progress(_report(st, found, t0))
    if st.best_rating is not None and st.best_clues is not None:
        yield Closest(st.best_rating, Puzzle(st.best_clues, geo).to_line(), climbs=st.restarts + 1)


def _report(st: Any, found: int, t0: float) -> dict[str, Any]:
    return {
        "found": found,
        "steps": st.steps,
        "rated": st.rated,
        "cleared": st.cleared,
        "restarts": st.restarts,
        "renewals": st.renewals,
        "expanded": st.expanded,
        "families": st.families,
        "best": None if st.best_rating is None else st.best_rating.score,
        "elapsed": round(time.perf_counter() - t0, 1),
    }


# ------------------------------------------------------------------------ quotas
def target_seed(seed: int, metric: str, level: str) -> int:
    """The stream seed of one target of a quota run: ``derive(seed, crc32(metric:level))``.

    Different targets under one seed then start from different solution grids
    (a plain ``generate`` per level with the same seed would share them).
    """
    tag = zlib.crc32(f"{metric}:{level.strip().lower()}".encode())
    return derive(seed, tag)


#: What :func:`generate_quotas` says itself, so takes in no ``options``: why.
_QUOTA_OWN = {
    "count": "the quotas say how many puzzles of each level",
    "level": "the quotas' keys are the levels",
    "start": "a quota run is not resumed part way; resume a level with "
    "generate(n, level=L, seed=target_seed(seed, metric, L), start=k)",
}


def _quota_items(quotas: object, options: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The ``(level, quota)`` pairs of :func:`generate_quotas`, checked with its options.

    Raises:
        ArgumentError: quotas that are not level names with whole numbers, or an
            option that the quotas say or :func:`generate` does not take.
    """
    import inspect

    for name in options:
        if name in _QUOTA_OWN:
            raise ArgumentError(f"generate_quotas takes no {name}: {_QUOTA_OWN[name]}")
        if name not in inspect.signature(generate).parameters:
            raise ArgumentError(f"generate_quotas got an unknown argument {name!r}")
    if isinstance(quotas, Mapping):
        pairs: list[Any] = list(quotas.items())
    elif isinstance(quotas, Iterable) and not isinstance(quotas, str):
        pairs = list(quotas)
    else:
        raise ArgumentError(f"quotas must map level names to counts, got {quotas!r}")
    out: list[tuple[str, int]] = []
    for pair in pairs:
        if isinstance(pair, str) or not (isinstance(pair, Sequence) and len(pair) == 2):
            raise ArgumentError(f"quotas: {pair!r} is not a (level, count) pair")
        lv, n = pair
        if not isinstance(lv, str):
            raise ArgumentError(f"quotas: a level must be a name, got {lv!r}")
        if not is_whole(n):
            raise ArgumentError(
                f"quotas: the quota of level {lv!r} must be a whole number, got {n!r}"
            )
        out.append((lv, int(n)))
    return out


def generate_quotas(
    quotas: Mapping[str, int] | Sequence[tuple[str, int]],
    *,
    metric: MetricName = "rounds",
    seed: SeedLike = None,
    budget_seconds: float | None = None,
    **options: Any,
) -> Iterator[Generated]:
    """Puzzles for several levels in one run: ``quotas[level]`` puzzles of each level.

    Every level, and the options with each, is checked before any search. Level
    ``L`` runs :func:`generate` with seed :func:`target_seed` ``(seed, metric, L)``
    and what is left of the one time budget; no output is isomorphic to an
    earlier one of the run (levels differ, so two levels cannot share a puzzle).
    ``options`` are :func:`generate`'s, but ``count``, ``level`` and ``start``,
    which the quotas say (a level of a quota run resumes as
    ``generate(n, level=L, seed=target_seed(seed, metric, L), start=k, ...)``).

    Raises:
        GenerationError: an unknown level, a level given twice, a negative quota,
            technique filters that no puzzle of some level can pass, or another
            option :func:`generate` refuses with some level (before searching).
        ArgumentError: quotas that are not level names with whole numbers, or an
            option that is not :func:`generate`'s or that the quotas say.
        BudgetExhaustedError: the budget ran out (after yielding what was found);
            its message says how many of each level were found.
    """
    items = _quota_items(quotas, options)
    require = check_names(options.get("require_technique", ()))
    exclude = check_names(options.get("exclude_technique", ()))
    quota_of: dict[str, int] = {}
    for lv, n in items:
        check_filters(require, exclude, _make_target(metric, lv, None))
        if n < 0:
            raise GenerationError(f"the quota of level {lv!r} must be non-negative, got {n}")
        key = lv.strip().lower()
        if key in quota_of:  # the same level, so the same seed: its puzzles once, or a sum?
            raise GenerationError(
                f"level {lv!r} has two quotas ({quota_of[key]} and {n}): give each level once"
            )
        quota_of[key] = n
    for lv, _n in items:  # every level's options, as generate checks them: no puzzle made
        # (in this process: an executor's workers need not start for it)
        here = {**options, "executor": None, "jobs": 1}
        for _ in generate(0, level=lv, metric=metric, budget_seconds=budget_seconds, **here):
            pass
    base = as_seed(seed)
    deadline = None if budget_seconds is None else time.time() + budget_seconds
    got: dict[str, int] = {}
    short = False
    for lv, n in items:
        left = None if deadline is None else max(deadline - time.time(), 1e-3)
        try:
            for g in generate(
                n,
                level=lv,
                metric=metric,
                seed=target_seed(base, metric, lv),
                budget_seconds=left,
                **options,
            ):
                got[lv] = got.get(lv, 0) + 1
                yield g
        except BudgetExhaustedError:
            short = True
    if short:
        done = ", ".join(f"{lv} {got.get(lv, 0)} of {n}" for lv, n in items)
        total = sum(got.values())
        raise BudgetExhaustedError(
            f"the time budget of {budget_seconds:g} s ran out: found {done}",
            found=total,
            wanted=sum(n for _, n in items),
        )
