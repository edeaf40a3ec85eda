"""``csp-sudoku generate``: new unique (minimal, symmetric) puzzles at a target difficulty.

One puzzle per line as it is found: ``--format text`` prints the puzzle line,
clue count, seed and ratings; ``--format jsonl`` one JSON object with at least
``puzzle``, ``clues``, ``minimal``, ``symmetry``, ``seed`` and ``ratings``.
``--jobs`` runs puzzle streams in worker processes (``--scheduler``: on a
Dask cluster) with seeds spawned from ``--seed`` (numpy SeedSequence); the
output is the same, in the same order, for any ``--jobs`` or scheduler, but
where the run anneals (``--method anneal``, or ``auto`` for the hard targets,
such as a quota run's ``--level fiendish=2``): annealing runs one chain per
job, so those puzzles depend on ``--seed`` and ``--jobs`` (``--jobs 0``: this
machine's cores; with ``--scheduler``, one chain), not on where the chains run.
``--output FILE --resume`` continues an interrupted run: puzzle k depends on
``--seed`` and k alone, so the rows already in FILE are kept and only the rest
are generated; a row written with other options (another target, ``--rate``,
``--max-clues``, ``--method``, shape or symmetry) is refused. An annealing run
resumes with new chains (seeded from ``--seed`` and the number of rows kept)
that avoid every puzzle already in FILE; its ``--jobs`` must be the interrupted
run's. Exit code 1 when the budget runs out before ``--count``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, cast, get_args

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK, variant_generate
from csp_sudoku.cli._common import (
    MAX_COUNT,
    RowWriter,
    add_batch_args,
    add_geometry_args,
    batch_session,
    command_parser,
    counted,
    finite_float,
    geometry_from_args,
    int_in,
    metric_names,
    noting_compiles,
    progress,
    seconds_arg,
)
from csp_sudoku.cli._resume import (
    MAX_ATTEMPT_SEARCH,
    generate_row_fault,
    row_record,
    truncate_partial_line,
)
from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import read_puzzles
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.seeds import attempt_seed as derive
from csp_sudoku.core.seeds import fresh_seed, item_seed
from csp_sudoku.generators import (
    METHODS,
    SYMMETRIES,
    BudgetExhaustedError,
    GenerationError,
    generate,
    generate_quotas,
)
from csp_sudoku.generators.registry import STRATEGIES
from csp_sudoku.generators.target import anneal_chains, chain_seed, resolved_method
from csp_sudoku.generators.targeting import Target, make_target, metrics_with_levels
from csp_sudoku.generators.techniques import check_names

#: The columns of a row (every field :meth:`Generated.to_dict` gives: CSV drops none;
#: ``minimal_in_symmetry`` is empty without a symmetry, ``derived_from`` but for pseudo,
#: ``regions`` but for a jigsaw).
_FIELDS = (
    "puzzle",
    "clues",
    "minimal",
    "minimal_in_symmetry",
    "symmetry",
    "seed",
    "method",
    "derived_from",
    "size",
    "geometry",
    "regions",
    "ratings",
    "attempts",
    "steps",
    "seconds",
    "version",
)


def _names_epilog() -> str:
    """The valid names for --metric, --level and the technique filters, for --help."""
    from csp_sudoku.generators.targeting import level_order
    from csp_sudoku.generators.techniques import SE_TECHNIQUES
    from csp_sudoku.metrics import METRICS

    levels = "; ".join(f"{m}: {', '.join(level_order(m))}" for m in METRICS if level_order(m))
    return (
        f"Metrics: {', '.join(METRICS)}. Levels by metric: {levels}. "
        f"Techniques (Sudoku Explainer's names): {', '.join(SE_TECHNIQUES)}."
    )


def register(sub: Any) -> None:
    p = command_parser(
        sub, "generate", "generate unique puzzles (minimal, symmetric, at a target level)", __doc__
    )
    p.epilog = _names_epilog()
    p.add_argument(
        "--count",
        "-n",
        type=int_in(0, MAX_COUNT),
        default=None,
        help="how many puzzles (default 1)",
    )
    m = p.add_mutually_exclusive_group()
    m.add_argument(
        "--minimal",
        dest="minimal",
        action="store_true",
        default=True,
        help="make every puzzle minimal (the default)",
    )
    m.add_argument(
        "--not-minimal",
        dest="minimal",
        action="store_false",
        help="keep the generator's clues (hsolve/ddg/pseudo puzzles are not reduced)",
    )
    p.add_argument("--symmetry", choices=SYMMETRIES, default="none", help="clue-pattern symmetry")
    p.add_argument(
        "--level",
        action="append",
        metavar="NAME[=N]",
        help="target level (repeatable); NAME=N asks for N puzzles of that level "
        "(per-level quotas in one run, which say how many: no --count then)",
    )
    p.add_argument(
        "--strict-minimal",
        action="store_true",
        help="with --symmetry: only puzzles that are also minimal in the plain sense "
        "(no single clue removable), not only minimal among symmetric patterns",
    )
    p.add_argument(
        "--require-technique",
        action="append",
        default=[],
        metavar="NAME",
        help="only puzzles whose Sudoku Explainer path uses this technique (repeatable; "
        "a part of a name matches the family, e.g. 'Forcing Chains')",
    )
    p.add_argument(
        "--exclude-technique",
        action="append",
        default=[],
        metavar="NAME",
        help="only puzzles whose Sudoku Explainer path does not use this technique",
    )
    p.add_argument(
        "--avoid",
        action="append",
        default=[],
        metavar="FILE|DB",
        help="never output a puzzle isomorphic to one in this puzzle file or bank "
        "database, of the run's shape (repeatable; the bundled reference sets are always "
        "avoided; on shapes other than 9x9, puzzles the same up to a relabelling)",
    )
    p.add_argument(
        "--vicinity-of",
        metavar="FILE",
        help="search the vicinity of these unique puzzles first (one a line; a target open "
        "above, e.g. --score-min): every change of one clue to any digit at any cell, best "
        "first; outputs found so name their start in derived_from",
    )
    p.add_argument("--score-min", type=finite_float, help="lowest accepted score of --metric")
    p.add_argument("--score-max", type=finite_float, help="highest accepted score of --metric")
    p.add_argument(
        "--metric",
        "-m",
        help="metric of the target, also reported (default rounds when a target is set)",
    )
    p.add_argument(
        "--rate",
        action="append",
        default=[],
        metavar="METRIC",
        help="also rate every puzzle with METRIC (repeatable, takes comma lists; all: every metric)",
    )
    p.add_argument("--method", choices=METHODS, default="auto", help="generator (default auto)")
    p.add_argument("--budget-seconds", type=seconds_arg, help="stop after this many seconds")
    p.add_argument("--attempts", type=int_in(1, MAX_COUNT), help="most attempts per puzzle")
    p.add_argument("--max-clues", type=int_in(0, 10**6), help="reject puzzles with more clues")
    p.add_argument(
        "--max-per-grid",
        type=int_in(1, 10**9),
        metavar="N",
        help="annealing (hard targets): at most N puzzles per family (a solution grid, or "
        "half the clues shared); default 1, no limit with --vicinity-of; a larger N mines "
        "each find's neighbours",
    )
    p.add_argument("--backend", default="auto", help="uniqueness checker backend")
    add_batch_args(
        p,
        resume_help="continue an interrupted run: keep the puzzles already in --output, "
        "generate the rest (needs the run's --seed and options)",
        seed_help="seed for reproducible output (default: fresh)",
        skip_invalid_help="accepted like on every batch command; generate reads no input",
    )
    add_geometry_args(p)
    variant_generate.add_arguments(p)  # --constraints, --killer, --drawn: variant puzzles
    p.set_defaults(func=run)


class GenerateResumeError(SudokuError):
    """The file given to ``generate --resume`` is not the output of this run."""


@dataclass
class _Done:
    """What an earlier run wrote: complete rows, their puzzles, and whether a CSV header is there."""

    rows: int = 0
    has_header: bool = False
    puzzles: list[str] = field(default_factory=list)


def _row_fields(line: str, fmt: str) -> dict[str, Any]:
    """One row of an earlier ``generate`` output (a text row: its puzzle, clues, seed
    and ratings), its ``ratings`` read as ``{metric: {"score": float, "level": str}}``
    (None: ratings of another form, not such a row).

    Raises:
        ValueError: not such a row.
    """
    if fmt in ("jsonl", "csv"):
        row = row_record(line, fmt, _FIELDS)
        ratings = row.get("ratings")
        if fmt == "csv" and isinstance(ratings, str):
            ratings = json.loads(ratings) if ratings else {}
        row["ratings"] = _checked_ratings(ratings)
        return row
    parts = line.rstrip("\r\n").split("\t")
    if len(parts) < 3 or not parts[2].startswith("seed="):
        raise ValueError("no seed= field")
    return {
        "puzzle": parts[0],
        "clues": parts[1],
        "seed": parts[2][len("seed=") :],
        "ratings": _text_ratings(parts[3] if len(parts) == 4 else "") if len(parts) <= 4 else None,
    }


def _checked_ratings(ratings: Any) -> dict[str, dict[str, Any]] | None:
    """A row's ``ratings``, each with a number ``score`` and a text ``level``; None
    for ratings of another form."""
    if not isinstance(ratings, dict):
        return None
    for r in ratings.values():
        if not isinstance(r, dict) or not isinstance(r.get("level"), str):
            return None
        if isinstance(r.get("score"), bool) or not isinstance(r.get("score"), (int, float)):
            return None
    return ratings


def _text_ratings(text: str) -> dict[str, dict[str, Any]] | None:
    """The ratings of a text row, ``rounds=2015.0 Hard se=7.2 (estimate) diabolical``
    (what :func:`_write_all` writes: the score in tenths, then the level, which may
    hold spaces); None for text of another form.

    Raises:
        ValueError: a score that is not a number.
    """
    from csp_sudoku.metrics import METRICS

    names = "|".join(re.escape(m) for m in METRICS)
    one = re.compile(rf"({names})=(\S+)(?: \(estimate\))? (.+?)(?= (?:{names})=|$)")
    out: dict[str, dict[str, Any]] = {}
    at = 0
    for m in one.finditer(text):
        if m.start() != at:
            return None
        out[m.group(1)] = {"score": float(m.group(2)), "level": m.group(3)}
        at = m.end() + 1
    return out if not text or at == len(text) + 1 else None


@dataclass(frozen=True)
class _Expected:
    """What every row of this run has: the methods it may have been made by (as
    written), their words for a message, the target, the metrics each row is rated
    with, the most clues, and the step the scores are written in (text: tenths)."""

    methods: frozenset[str]
    method_said: str
    target: Target
    rated: tuple[str, ...]
    max_clues: int | None
    rounded: float


def _expected(args: argparse.Namespace, method: str) -> _Expected:
    """The :class:`_Expected` of this run, whose method resolves to ``method``.

    Raises:
        GenerationError: an unknown level of the metric.
    """
    target = make_target(args.metric or "rounds", args.level, _score_range(args))
    if method in ("auto", "climb"):
        # the row says what made it: a plain RG2 puzzle, or one the climb moved
        made = ("random", "climb") if target.active else ("random",)
        said = f"{method} ({' or '.join(made)} for this target)"
    else:
        made = (method,)
        said = method if args.method == method else f"{args.method} ({method} for this target)"
    extra = [m for m in _rated_with(args) if m != target.metric or not target.active]
    rated = ((target.metric,) if target.active else ()) + tuple(extra)
    return _Expected(
        methods=frozenset(made),
        method_said=said,
        target=target,
        rated=rated,
        max_clues=args.max_clues,
        rounded=0.1 if args.format == "text" else 0.0,
    )


def _made_otherwise(
    row: dict[str, Any], args: argparse.Namespace, expect: _Expected, shape: Geometry
) -> str | None:
    """Why a row of an earlier run was not made by this run's options (None: it may
    have been): its puzzle of another shape, clues not symmetric as ``--symmetry``
    asks, more clues than ``--max-clues``, another method, or ratings that are not
    this run's (:func:`_rated_otherwise`). The seed check alone let a 4x4 run's file
    take 9x9 rows, a plain file rot180 ones, an easy file hard ones."""
    from csp_sudoku.core.io import parse
    from csp_sudoku.generators.symmetry import is_symmetric

    text = row.get("puzzle")
    if not isinstance(text, str) or "fpuzzles" in row:
        return f"not a row of 'generate --format {args.format}' (a variant puzzle's, or none)"
    if row.get("geometry") not in (None, "", shape.name):
        return f"the earlier run made {row['geometry']} puzzles, this one {shape.name}"
    try:
        cells = parse(text, shape).cells
    except SudokuError:
        return f"its puzzle is no {shape.name} puzzle: the earlier run made another shape"
    if not is_symmetric(cells, shape.size, args.symmetry):
        return (
            f"its clues are not symmetric under {args.symmetry}: the earlier run used "
            "another --symmetry"
        )
    clues = int((cells != 0).sum())
    if expect.max_clues is not None and clues > expect.max_clues:
        return (
            f"its puzzle has {clues} clues, above --max-clues {expect.max_clues}: the earlier "
            "run used another --max-clues"
        )
    made = row.get("method")
    if made not in (None, "") and made not in expect.methods:
        return (
            f"the earlier run used method {made}, this one {expect.method_said}: "
            "another --method (or a target that --method auto makes otherwise)"
        )
    if row.get("ratings") is None:
        return f"not a row of 'generate --format {args.format}' (no ratings as it writes them)"
    return _rated_otherwise(row["ratings"], expect)


def _rated_otherwise(ratings: dict[str, dict[str, Any]], expect: _Expected) -> str | None:
    """Why a row's ratings are not this run's (None: they may be): a metric this run
    rates with that the row lacks, one it does not rate with, or a rating of the
    target's metric off this run's target (:meth:`Target.takes`, the check a
    generated puzzle passes)."""
    target = expect.target
    for name in expect.rated:
        if name not in ratings:
            why = (
                f"target of --metric {name} (--level, --score-min, --score-max)"
                if target.active and name == target.metric
                else f"--rate {name}"
            )
            return f"it has no {name} rating: the earlier run had no {why}, this one has"
    for name in ratings:
        if name not in expect.rated:
            return (
                f"it is rated with {name}: the earlier run had a target of --metric {name} "
                f"or --rate {name}, this one has neither"
            )
    if target.active:
        r = ratings[target.metric]
        if not target.takes(r["level"], float(r["score"]), rounded=expect.rounded):
            return (
                f"its {target.metric} rating ({r['level']}, {r['score']:g}) is not on this "
                f"run's target ({target.describe()}): the earlier run used another --level, "
                "--score-min or --score-max"
            )
    return None


def _rated_with(args: argparse.Namespace) -> list[str]:
    """The metrics every puzzle is rated with besides the target's: ``--rate`` (comma
    lists, ``all``), and ``--metric`` when no target uses it."""
    extra = metric_names(args.rate, list(get_args(MetricName)))
    if args.metric and not args.level and _score_range(args) is None:
        extra.insert(0, args.metric)
    return list(dict.fromkeys(extra))


def _jobs(args: argparse.Namespace) -> int:
    """The ``jobs`` handed to :func:`generate` (for annealing: how many chains)."""
    return int(args.jobs or (1 if args.scheduler else os.cpu_count() or 1))


def _score_range(args: argparse.Namespace) -> tuple[float, float] | None:
    if args.score_min is None and args.score_max is None:
        return None
    lo = args.score_min if args.score_min is not None else float("-inf")
    hi = args.score_max if args.score_max is not None else float("inf")
    return (lo, hi)


class _ChainSeeds:
    """Which seeds an annealing run's rows may carry: row ``i`` comes from a chain of
    the part (the run, or a resumed part of it) that started at some ``k <= i``;
    the rows of a part are contiguous, so only the part of the row before and
    one starting at ``i`` are looked at."""

    def __init__(self, seed: int, count: int, jobs: int) -> None:
        self.seed, self.count, self.jobs = seed, count, jobs
        self.part = self._seeds(0)

    def _seeds(self, start: int) -> set[int]:
        chains = anneal_chains(self.jobs, self.count, start) + 1  # and the extra chain
        return {chain_seed(self.seed, start, w) for w in range(chains)}

    def ok(self, i: int, row_seed: int) -> bool:
        if row_seed in self.part:
            return True
        here = self._seeds(i)
        if row_seed in here:
            self.part = here
            return True
        return False


def _read_done(path: str, args: argparse.Namespace, seed: int) -> _Done:
    """Check the rows of an earlier run against this one's seed and options.

    Row ``i`` must carry a seed of puzzle ``i``'s stream under ``seed``
    (``derive(item_seed(seed, i), j)`` for its attempt ``j``), or for an
    annealing run the seed of one of its chains (:class:`_ChainSeeds`).

    Raises:
        GenerateResumeError: when a row is unreadable or belongs to another run.
        GenerationError: an unknown level of the metric.
    """
    done = _Done()
    if not os.path.exists(path):
        return done
    method = resolved_method(
        args.method,
        metric=args.metric or "rounds",
        level=args.level,
        score_range=_score_range(args),
        geometry=geometry_from_args(args),
    )
    expect = _expected(args, method)
    chains = _ChainSeeds(seed, args.count, _jobs(args)) if method in STRATEGIES else None
    shape = geometry_from_args(args) or Geometry.standard(9)
    truncate_partial_line(path)
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        lines = fh.read().splitlines(keepends=True)
    header: list[str] | None = None
    if args.format == "csv" and lines:
        try:
            header = next(csv.reader([lines[0]]))
        except csv.Error:
            header = None
        if header != list(_FIELDS):
            raise GenerateResumeError(
                f"{path}: not the output of this version's 'generate --format csv' "
                f"(its header is not {','.join(_FIELDS)})"
            )
        done.has_header = True
        lines = lines[1:]
    for i, line in enumerate(lines):
        n = i + 1 + done.has_header
        if i >= args.count:
            raise GenerateResumeError(
                f"{path} already has more than --count {args.count} puzzles: not this run's output"
            )
        try:
            row = _row_fields(line, args.format)
            row_seed = int(row["seed"])
            tried = int(row["attempts"]) if "attempts" in row else None
        except (ValueError, KeyError, TypeError, RecursionError, csv.Error):  # deep JSON, huge CSV
            raise GenerateResumeError(
                f"{path}:{n}: not a row of 'generate --format {args.format}'"
            ) from None
        fault = generate_row_fault(row, symmetry=args.symmetry, minimal=args.minimal)
        fault = fault or _made_otherwise(row, args, expect, shape)
        if fault is not None:
            raise GenerateResumeError(f"{path}:{n}: {fault}")
        if chains is not None:
            if not chains.ok(i, row_seed):
                raise GenerateResumeError(
                    f"{path}:{n}: seed {row_seed} is not the seed of an annealing chain of "
                    f"this run under --seed {seed} and --jobs {_jobs(args)}: the file was "
                    "written with another --seed, --jobs or --count (or other options)"
                )
        else:
            stream = item_seed(seed, i)
            if tried is not None:
                ok = tried >= 1 and derive(stream, tried - 1) == row_seed
            else:
                bound = args.attempts or MAX_ATTEMPT_SEARCH
                ok = any(derive(stream, j) == row_seed for j in range(bound))
            if not ok:
                raise GenerateResumeError(
                    f"{path}:{n}: seed {row_seed} is not a seed of puzzle {i + 1} under --seed "
                    f"{seed}: the file was written with another --seed (or other options)"
                )
        done.rows += 1
        done.puzzles.append(str(row["puzzle"]))
    return done


def _fail(message: str) -> int:
    """Say a usage error as every command does (``csp-sudoku: error: ...``); exit 2."""
    print(f"csp-sudoku: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _refusal(args: argparse.Namespace) -> str | None:
    """Why the options of a classic run cannot go together, or None: said before any work.
    An option that this run would take and do nothing with is refused too."""
    if args.resume and not args.output:
        return "--resume needs --output FILE"
    if args.resume and any("=" in lv for lv in args.level or []):
        return (
            "--resume does not take per-level quotas (--level NAME=N); "
            "run each level to an output of its own"
        )
    if args.report_removable:
        return (
            "--report-removable lists the constraints a variant puzzle can do without: "
            "it needs --killer, --drawn or --constraints"
        )
    if args.strict_minimal and args.symmetry == "none":
        return (
            "--strict-minimal keeps, of the puzzles minimal among --symmetry's clue patterns, "
            "those minimal in the plain sense too; without --symmetry every puzzle is "
            "(drop it, or give a --symmetry)"
        )
    return None


def run(args: argparse.Namespace) -> int:
    if args.count is not None and any("=" in lv for lv in args.level or []):
        return _fail(
            f"--count {args.count} and per-level quotas (--level NAME=N) "
            "both say how many puzzles: give one or the other"
        )
    args.count = 1 if args.count is None else args.count
    if variant_generate.wanted(args):
        return variant_generate.run(args)
    if args.count < 0 or args.jobs < 0:
        return _fail("--count and --jobs must be >= 0")
    why = _refusal(args)
    if why is not None:
        return _fail(why)
    if args.metric is None and args.level:
        args.metric = _metric_of_levels(args)
    if args.resume and args.seed is None:
        return _fail("--resume needs the --seed of the interrupted run")
    if args.output and args.seed is None:
        args.seed = fresh_seed()
        if not args.quiet:
            print(
                f"csp-sudoku generate: --seed {args.seed} (add --seed {args.seed} --resume "
                "to continue this run if it is interrupted)",
                file=sys.stderr,
            )
    try:
        done = _read_done(args.output, args, args.seed) if args.resume else _Done()
    except GenerationError as err:  # an unknown level: say so before anything else
        return _fail(str(err))
    appending = done.rows > 0 or done.has_header
    with batch_session(args.output, appending=appending, scheduler=args.scheduler) as (
        out,
        client,
    ):
        writer = RowWriter(args.format, _FIELDS, out, header=not done.has_header)
        return _generate(args, writer, done, client)


def _generate(args: argparse.Namespace, writer: RowWriter, done: _Done, client: Any) -> int:
    score_range = _score_range(args)
    metric = cast(MetricName, args.metric or "rounds")  # checked by generate
    extra = _rated_with(args)  # comma lists, all
    shape = geometry_from_args(args) or Geometry.standard(9)
    with ExitStack() as stack:
        try:
            quotas = _quotas(args.level or [])
            check_names([*args.require_technique, *args.exclude_technique])
            avoid = stack.enter_context(_avoid_files(args.avoid, shape))
            starts = _vicinity_of(args.vicinity_of, shape)
        except (GenerationError, OSError) as err:
            return _fail(str(err))
        return _run(args, writer, done, client, quotas, score_range, metric, extra, avoid, starts)


def _run(
    args: argparse.Namespace,
    writer: RowWriter,
    done: _Done,
    client: Any,
    quotas: list[tuple[str, int]] | None,
    score_range: tuple[float, float] | None,
    metric: MetricName,
    extra: list[str],
    avoid: list[str],
    starts: list[str],
) -> int:
    if not args.quiet and (args.jobs != 1 or args.scheduler):
        # workers compile out of sight: say it once, since it may take a while
        print(
            "csp-sudoku generate: workers compile their kernels on a first run "
            "(nothing to do when they are cached)",
            file=sys.stderr,
        )

    cores = os.cpu_count() or 1
    if not args.quiet and not args.scheduler and _jobs(args) > cores:
        # generate's --jobs is its number of searches (an annealing run's puzzles depend
        # on it), so it is not cut to the cores as the other commands' is: say what it costs
        print(
            f"csp-sudoku generate: --jobs {_jobs(args)} runs {_jobs(args)} searches on this "
            f"machine's {counted(cores, 'core')}: they share them (and give the puzzles "
            f"of --jobs {_jobs(args)} on any machine)",
            file=sys.stderr,
        )
    alive = _Alive()

    def report(info: dict[str, Any]) -> None:
        if args.quiet:
            return
        alive.said = time.monotonic()
        best = info.get("best")
        if "attempts" in info:  # a search by attempts (not annealing)
            print(
                f"csp-sudoku generate: found {info['found']}, "
                f"{counted(info['attempts'], 'attempt')} for the next, nearest the target so far "
                f"{'-' if best is None else f'{best:g}'}, {info['elapsed']:g} s",
                file=sys.stderr,
            )
            return
        families = (
            f" in {counted(info['families'], 'family', 'families')}" if info.get("families") else ""
        )
        print(
            f"csp-sudoku generate: found {info['found']}{families}, "
            f"{counted(info['steps'], 'step')} "
            f"({info['rated']} rated, {info['cleared']} cleared unrated, "
            f"{counted(info['restarts'], 'restart')}, "
            f"{counted(info.get('renewals', 0), 'fresh start')}, "
            f"{counted(info.get('expanded', 0), 'vicinity', 'vicinities')} searched whole), "
            "best so far "
            f"{'-' if best is None else f'{best:g}'}, {info['elapsed']:g} s",
            file=sys.stderr,
        )

    common: dict[str, Any] = {
        "metric": metric,
        "seed": args.seed,
        "rate_with": extra,
        "symmetry": args.symmetry,
        "minimal": args.minimal,
        "budget_seconds": args.budget_seconds,
        "attempts": args.attempts,
        "geometry": geometry_from_args(args),
        "method": args.method,
        "backend": args.backend,
        "max_clues": args.max_clues,
        "jobs": _jobs(args),
        "executor": client,
        "avoid": avoid,
        "strict_minimal": args.strict_minimal,
        "max_per_grid": args.max_per_grid,
        "progress": report,
        "require_technique": args.require_technique,
        "exclude_technique": args.exclude_technique,
        **({"vicinity_of": starts} if starts else {}),
    }
    if quotas is not None:
        alive.quotas = quotas
        stream = generate_quotas(quotas, **common)
        return _write_all(args, writer, stream, sum(n for _, n in quotas), alive, metric)
    stream = generate(
        args.count,
        level=args.level,
        score_range=score_range,
        start=done.rows,
        done=done.puzzles,
        **common,
    )
    return _write_all(args, writer, stream, args.count - done.rows, alive, metric)


def _metric_of_levels(args: argparse.Namespace) -> str | None:
    """The metric of ``--level`` names given without ``--metric``: rounds when
    they are rounds levels, else the one metric that has them all (said on
    stderr); None leaves the choice, and the error naming the metrics that have
    them, to the generator."""
    names = [lv.partition("=")[0].strip() for lv in args.level]
    having = metrics_with_levels(names)
    if not having or "rounds" in having:
        return None
    if not args.quiet:
        print(
            f"csp-sudoku generate: --level {', '.join(names)} is a level of {having[0]}: "
            f"rating with --metric {having[0]}",
            file=sys.stderr,
        )
    return having[0]


def _quotas(levels: list[str]) -> list[tuple[str, int]] | None:
    """``NAME=N`` levels as (name, N) pairs; None when no level has a quota.

    Raises:
        GenerationError: some levels have a quota and some not, or N is not a count.
    """
    if not any("=" in lv for lv in levels):
        return None
    out: list[tuple[str, int]] = []
    for lv in levels:
        name, eq, n = lv.partition("=")
        if not eq or not n.strip().isdigit():
            raise GenerationError(
                f"--level {lv!r}: with quotas every --level must be NAME=N (N a count)"
            )
        out.append((name.strip(), int(n)))
    return out


@contextmanager
def _avoid_files(paths: list[str], shape: Geometry) -> Iterator[list[str]]:
    """The puzzle files to avoid in a run of ``shape`` (:func:`_avoid_file` of each);
    the temporary ones made of bank databases are deleted on the way out, however
    the run ends.

    Raises:
        GenerationError: a file cannot be read, holds a puzzle of another shape, or
            is a database that is not a bank.
    """
    made: list[str] = []
    try:
        for path in paths:
            made.append(_avoid_file(path, shape))
        yield made
    finally:
        for name, path in zip(made, paths, strict=False):
            if name != path:
                with suppress(OSError):  # already gone
                    os.unlink(name)


def _vicinity_of(path: str | None, geometry: Geometry) -> list[str]:
    """The puzzles of ``--vicinity-of`` (none without it), read as the run's shape
    (a record naming another is a bad line).

    Raises:
        GenerationError: the file cannot be read, has a bad line (file:line:column
            and why) or holds no puzzle.
    """
    return [] if path is None else _option_lines("--vicinity-of", path, geometry)


def _option_lines(
    flag: str, path: str, geometry: Geometry | None, *, only: Geometry | None = None
) -> list[str]:
    """The puzzles of the file an option names, one line each, read in ``geometry``
    (None: each line's own shape); with ``only``, every one must be of that shape.

    Raises:
        GenerationError: the file cannot be read, has a bad line (file:line:column
            and why), a puzzle of another shape than ``only``, or holds no puzzle.
    """
    out = []
    try:
        for entry in read_puzzles(path, geometry):
            if entry.error is not None:
                raise GenerationError(f"{flag} {entry.error}")
            if entry.puzzle is None:
                continue
            if only is not None and entry.puzzle.geometry != only:
                raise GenerationError(
                    f"{flag} {path}:{entry.line}: a {entry.puzzle.geometry.name} puzzle; "
                    f"only {only.name} puzzles are taken"
                )
            out.append(entry.puzzle.to_line())
    except OSError as exc:
        raise GenerationError(f"{flag} {path}: cannot read it ({exc.strerror or exc})") from None
    if not out:
        raise GenerationError(f"{flag} {path}: no puzzle in it")
    return out


def _avoid_file(path: str, shape: Geometry) -> str:
    """A puzzle file to avoid in a run of ``shape``: ``path`` itself, or its puzzles
    (a bank database's, or those of another form) in a temp file. Every puzzle must
    be of the run's shape: one of another would be avoided by nothing.

    Raises:
        GenerationError: the file cannot be read, holds a puzzle of another shape, or
            is a database that is not a bank.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise GenerationError(f"--avoid {path}: cannot read it ({exc.strerror or exc})") from None
    nine = shape == Geometry.standard(9)
    if head != b"SQLite format 3\x00":
        if nine and _plain_lines(path):
            return path  # read as it is (its keys cached by its digest)
        # any other form the commands read (JSON Lines, CSV, grids): on 9x9, only 9x9
        # puzzles (they have keys); on another shape, its lines read in that shape
        lines = (
            _option_lines("--avoid", path, None, only=shape)
            if nine
            else _option_lines("--avoid", path, shape)
        )
    else:
        from csp_sudoku.tools.bank import PuzzleBank

        try:
            with PuzzleBank(path) as bank:
                entries = [(e.puzzle.geometry, e.puzzle.to_line()) for e in bank.query()]
        except Exception as exc:  # any failure to read the bank is a bad --avoid
            raise GenerationError(f"--avoid {path}: not a puzzle bank ({exc})") from None
        other = next((g for g, _ in entries if g != shape), None)
        if other is not None:
            raise GenerationError(
                f"--avoid {path}: the bank holds {other.name} puzzles; only {shape.name} "
                "puzzles are taken"
            )
        lines = [line for _, line in entries]
    import tempfile

    fd, name = tempfile.mkstemp(prefix="csp_sudoku_avoid_", suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return name


def _plain_lines(path: str) -> bool:
    """True when every entry of the puzzle file ``path`` is a line whose first field is
    81 cells of ``.`` and digits: what the avoided keys are read from as they are."""
    from csp_sudoku.core.io import open_file

    try:
        with open_file(path) as fh:
            for raw in fh:
                s = raw.strip()
                if not s or s.startswith(b"#"):
                    continue
                first = s.split(None, 1)[0]
                if len(first) != 81 or first.strip(b".0123456789"):
                    return False
    except (OSError, SudokuError):
        return False  # read again by the puzzle reader, which says what is wrong
    return True


#: Seconds without a word on stderr after which a run whose stderr is not a
#: terminal (a log file, a pipe; a terminal has the progress bar) says it is alive.
HEARTBEAT = 15.0


@dataclass
class _Alive:
    """What a run has said and found, for its heartbeat (:func:`_heartbeat`)."""

    found: int = 0
    started: float = field(default_factory=time.monotonic)
    said: float = field(default_factory=time.monotonic)
    #: a quota run's levels and quotas, and how many of each were found
    quotas: list[tuple[str, int]] = field(default_factory=list)
    per_level: dict[str, int] = field(default_factory=dict)

    def count(self, row: dict[str, Any], metric: str) -> None:
        """One more row found (of its level, in a quota run)."""
        self.found += 1
        self.said = time.monotonic()
        if self.quotas:
            level = str(row["ratings"][metric]["level"]).lower()
            self.per_level[level] = self.per_level.get(level, 0) + 1

    def levels(self) -> str:
        """``hard 2 of 10, extreme 1 of 2`` in a quota run, else empty."""
        return ", ".join(
            f"{lv} {self.per_level.get(lv.lower(), 0)} of {n}" for lv, n in self.quotas
        )


@contextmanager
def _heartbeat(alive: _Alive, total: int, on: bool) -> Iterator[None]:
    """While the block runs (``on``), every :data:`HEARTBEAT` seconds in which
    nothing was said (no row, no progress line), one line on stderr: found so
    far, elapsed, still searching. A search for a rare target can take minutes
    between rows, and without a terminal there is no bar to show it is alive."""
    if not on:
        yield
        return
    done = threading.Event()

    def beat() -> None:
        while not done.wait(1.0):
            now = time.monotonic()
            if now - alive.said >= HEARTBEAT:
                alive.said = now
                levels = alive.levels()
                print(
                    f"csp-sudoku generate: found {alive.found} of {total}"
                    f"{f' ({levels})' if levels else ''}, "
                    f"{now - alive.started:.0f} s, still searching",
                    file=sys.stderr,
                    flush=True,
                )

    thread = threading.Thread(target=beat, name="csp_sudoku-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _write_all(
    args: argparse.Namespace,
    writer: RowWriter,
    stream: Any,
    total: int,
    alive: _Alive,
    metric: str,
) -> int:
    bar = progress(total, not args.quiet and sys.stderr.isatty())
    quiet_log = not args.quiet and not sys.stderr.isatty()
    if metric == "se":  # a cold cache: SE's largest kernel compiles beside the search
        from csp_sudoku.metrics._helper import start_nested_helper

        start_nested_helper(geometry_from_args(args) or Geometry.standard(9))
    try:
        flushed = time.monotonic()
        with (
            noting_compiles("generate", "kernels", args.quiet),
            _heartbeat(alive, total, quiet_log),
        ):
            for g in stream:
                row = g.to_dict()
                alive.count(row, metric)
                bar.update(1)
                if alive.quotas:
                    bar.postfix(alive.levels())
                rated = " ".join(
                    f"{name}={r['score']:.1f}{' (estimate)' if r.get('estimated') else ''} "
                    f"{r['level']}"
                    for name, r in row["ratings"].items()
                )
                line = f"{row['puzzle']}\t{row['clues']}\tseed={row['seed']}\t{rated}"
                writer.write(row, line.rstrip())
                now = time.monotonic()
                if now - flushed >= 0.05:  # streamed, yet not a system call a row
                    writer.out.flush()
                    flushed = now
        writer.out.flush()
    except BudgetExhaustedError as err:
        writer.out.flush()
        bar.close()
        print(f"csp-sudoku generate: {err}", file=sys.stderr)
        return EXIT_NOT_ALL
    finally:
        bar.close()
    return EXIT_OK
