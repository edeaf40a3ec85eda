"""``csp-sudoku bank``: keep puzzles in a SQLite bank without isomorphic duplicates.

Subcommands: ``add`` (puzzle files into the bank), ``rate`` (rate unrated
puzzles with a metric), ``query`` (print matching puzzles), ``export`` (write
matching puzzles to a file and record the batch), ``stats``.

Example: 20 minimal rot180 puzzles with rounds level Hard not yet exported::

    csp-sudoku bank export puzzles.db -o book.txt --batch book-1 \\
        --count 20 --minimal --symmetry rot180 --metric rounds --level Hard --not-exported
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from types import SimpleNamespace
from typing import IO, Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    MAX_COUNT,
    RowWriter,
    add_geometry_args,
    add_rating_args,
    count_lines,
    counted,
    finite_float,
    geometry_from_args,
    int_in,
    iter_entries,
    progress,
)
from csp_sudoku.core.errors import NotUniqueError
from csp_sudoku.core.io import geometry_fields, open_output
from csp_sudoku.tools.bank import (
    QUERY_SYMMETRIES,
    BankEntry,
    BankQuery,
    Claims,
    Provenance,
    PuzzleBank,
)


class _Formats(tuple[str, ...]):
    """The ``--format`` choices of ``query`` and ``export``: those of every command's
    ``--format`` (what help and errors list), and ``lines``, the name earlier
    versions gave ``text``, still accepted (see :func:`_format_of`)."""

    def __contains__(self, item: object) -> bool:
        return item == "lines" or tuple.__contains__(self, item)


FORMATS = _Formats(("text", "jsonl", "csv"))


def _format_of(args: argparse.Namespace) -> str:
    """The output format asked for, ``lines`` read as ``text``."""
    return "text" if args.format == "lines" else str(args.format)


def _add_query_args(p: argparse.ArgumentParser) -> None:
    q = p.add_argument_group("selection")
    q.add_argument("--count", "-n", type=int_in(0, MAX_COUNT), help="at most this many puzzles")
    either = q.add_mutually_exclusive_group()
    either.add_argument("--minimal", action="store_true", help="only minimal puzzles")
    either.add_argument("--not-minimal", action="store_true", help="only non-minimal puzzles")
    q.add_argument(
        "--symmetry",
        choices=QUERY_SYMMETRIES,
        help="clue-pattern symmetry ('none': patterns with no symmetry)",
    )
    q.add_argument(
        "--metric",
        "-m",
        help="rating metric for --level/--score-min/--score-max/--order (bank rate: the "
        "metric to rate with)",
    )
    q.add_argument("--level", help="rating level (case-insensitive), e.g. Hard")
    q.add_argument("--score-min", type=finite_float, help="the rating's score at least this")
    q.add_argument("--score-max", type=finite_float, help="the rating's score at most this")
    # the spellings of earlier versions, kept working (generate spells them --score-min/-max)
    q.add_argument("--min-score", dest="score_min", type=finite_float, help=argparse.SUPPRESS)
    q.add_argument("--max-score", dest="score_max", type=finite_float, help=argparse.SUPPRESS)
    q.add_argument("--min-clues", type=int_in(0, 10**6))
    q.add_argument("--max-clues", type=int_in(0, 10**6))
    q.add_argument("--generator", help="made by this generator")
    q.add_argument("--geometry", help="geometry name: 9x9, x-9x9, windoku, jigsaw-9x9, ...")
    q.add_argument("--not-exported", action="store_true", help="never exported before")
    q.add_argument("--not-in-batch", metavar="BATCH", help="not exported in this batch")
    q.add_argument(
        "--order", choices=("id", "clues", "score", "-score"), default="id", help="default: id"
    )


def _query(args: argparse.Namespace) -> BankQuery:
    minimal = True if args.minimal else (False if args.not_minimal else None)
    return BankQuery(
        limit=args.count,
        minimal=minimal,
        symmetry=args.symmetry,
        metric=args.metric,
        level=args.level,
        min_score=args.score_min,
        max_score=args.score_max,
        min_clues=args.min_clues,
        max_clues=args.max_clues,
        generator=args.generator,
        geometry=args.geometry,
        not_exported=args.not_exported,
        not_in_batch=args.not_in_batch,
        order=args.order,
    )


#: What runs a parsed command: returns the exit code.
Run = Callable[[argparse.Namespace], int]


def _add_quiet(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress bar (shown on a terminal) and no summary",
    )


def _action(
    bsub: Any, name: str, help_text: str, run: Run, bank_help: str | None = None
) -> argparse.ArgumentParser:
    """The parser of bank action ``name``: the bank file first (``bank_help`` its
    help), then the action's own options; ``run`` runs it."""
    p: argparse.ArgumentParser = bsub.add_parser(name, help=help_text)
    p.add_argument("bank", help=bank_help)
    p.set_defaults(func=run)
    return p


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bank",
        help="a SQLite puzzle bank: add, rate, query and export puzzles without duplicates",
        description=(
            "Keep puzzles in one SQLite file, deduplicated by canonical form (9x9 puzzles "
            "that are the same up to relabelling, row/column/band/stack swaps and "
            "transposition count once)."
        ),
    )
    bsub = p.add_subparsers(dest="bank_command", metavar="ACTION", required=True)

    add_help = "add the puzzles of files (unique ones only)"
    add = _action(bsub, "add", add_help, _run_add, "the bank file (created when missing)")
    add.add_argument("inputs", nargs="*", metavar="FILE|PUZZLE", help="default: stdin")
    add.add_argument("--generator", help="record this generator name")
    add.add_argument(
        "--seed", type=int_in(0, 2**63 - 1, "a seed"), help="record this seed (64-bit)"
    )
    add.add_argument(
        "--no-minimal-check",
        action="store_true",
        help="do not compute minimality (faster): it is stored as unknown",
    )
    add_geometry_args(add)
    _add_quiet(add)

    rate = _action(bsub, "rate", "rate selected puzzles not yet rated with a metric", _run_rate)
    _add_quiet(rate)
    add_rating_args(
        rate,
        seed_help="batch seed (default: a fresh one; each rating records its seed)",
        runs_help="randomised runs (default: the metric's)",
    )
    _add_query_args(rate)

    query = _action(bsub, "query", "print the selected puzzles", _run_query)
    query.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: one puzzle line each ('lines' is an old name of it); jsonl/csv: the "
        "puzzle with its solution, clues, minimality, symmetries, provenance and ratings",
    )
    _add_query_args(query)

    export = _action(bsub, "export", "write the selected puzzles and record the batch", _run_export)
    export.add_argument(
        "--output", "-o", default="-", help="the puzzle file to write (default: stdout)"
    )
    export.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="as for query ('lines' is an old name of text)",
    )
    export.add_argument(
        "--batch", help="batch name recorded (default: the output file name, or 'stdout')"
    )
    export.add_argument("--solutions", action="store_true", help="append each solution")
    _add_query_args(export)

    _action(bsub, "stats", "counts of puzzles, clues and levels", _run_stats)


#: SQLite integers are 64-bit: a bigger seed in a record is not stored.
_SQLITE_INT = range(-(2**63), 2**63)


def _int_or_none(value: Any) -> int | None:
    """An integer field of an input record (JSON number or CSV text) that SQLite can hold,
    else None."""
    if isinstance(value, bool) or value in (None, ""):
        return None
    if isinstance(value, str) and len(value) > 25:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if number in _SQLITE_INT else None


def _text_or_none(value: Any) -> str | None:
    """A text field of an input record (a level name), None when absent or not text."""
    return value if isinstance(value, str) and value else None


def _flag(value: Any) -> bool | None:
    """A yes/no field of an input record (JSON ``true`` or CSV ``True``), None when absent."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _rating_row(fields: Mapping[str, Any], prefix: str, **more: Any) -> SimpleNamespace:
    """The rating that a record's fields ``PREFIXmetric``, ``PREFIXscore``,
    ``PREFIXlevel`` and ``PREFIXlevel_rank`` hold, with the attributes ``more``."""
    return SimpleNamespace(
        metric=fields[f"{prefix}metric"],
        score=fields[f"{prefix}score"],
        level=_text_or_none(fields.get(f"{prefix}level")),
        level_rank=_int_or_none(fields.get(f"{prefix}level_rank")),
        **more,
    )


def _ratings(fields: dict[str, Any]) -> list[SimpleNamespace]:
    """The ratings an input record carries: a ``rate`` row (with its provenance: runs,
    seed, parameters, version), the rating of the row a second ``rate`` read (kept as
    ``input_metric``, ``input_score``, ...; its seed and version are not known for
    sure, so they are not stored), or ``generate``'s ``ratings``."""
    found: list[SimpleNamespace] = []
    if isinstance(fields.get("metric"), str) and fields.get("score") not in (None, ""):
        params = fields.get("parameters")
        found.append(
            _rating_row(
                fields,
                "",
                runs=_int_or_none(fields.get("runs")),
                seed=_int_or_none(fields.get("seed")),
                parameters=params if isinstance(params, dict) else {},
                version=_text_or_none(fields.get("version")),
            )
        )
    if isinstance(fields.get("input_metric"), str) and fields.get("input_score") not in (
        None,
        "",
    ):
        found.append(_rating_row(fields, "input_"))
    ratings = fields.get("ratings")
    if isinstance(ratings, dict):
        for name, r in ratings.items():
            if isinstance(r, dict) and r.get("score") is not None:
                found.append(
                    SimpleNamespace(
                        metric=name,
                        score=r["score"],
                        level=_text_or_none(r.get("level")),
                        level_rank=_int_or_none(r.get("level_rank")),
                    )
                )
    return found


def _is_rate_row(fields: dict[str, Any]) -> bool:
    """Whether a record is a ``rate`` row: its ``seed`` and ``version`` are the rating's."""
    return isinstance(fields.get("metric"), str) and "score" in fields


def _provenance(fields: dict[str, Any], args: argparse.Namespace) -> Provenance:
    """Where a record says its puzzle came from; ``--generator`` and ``--seed`` win.

    In a ``rate`` row, ``seed`` and ``version`` are the rating's; the generator's
    are the fields ``rate`` kept as ``input_seed`` and ``input_version``.
    """
    rated = _is_rate_row(fields)
    seed = args.seed
    if seed is None:
        seed = _int_or_none(fields.get("input_seed") if rated else fields.get("seed"))
    version = fields.get("generator_version")
    if version is None and not (rated and "input_metric" in fields):  # not a rating's version
        version = fields.get("input_version") if rated else fields.get("version")
    derived = fields.get("derived_from")
    return Provenance(
        generator=args.generator or _text_or_none(fields.get("generator") or fields.get("method")),
        seed=seed,
        method=_text_or_none(fields.get("method")),
        derived_from=_text_or_none(derived)
        if not isinstance(derived, (dict, list))
        else json.dumps(derived, sort_keys=True),
        generator_version=None if version is None else _text_or_none(str(version)),
    )


def _claims(fields: dict[str, Any]) -> Claims:
    """What a record claims about its puzzle's facts (checked by the bank, never stored)."""
    symmetry = fields.get("symmetry")
    return Claims(
        minimal=_flag(fields.get("minimal")),
        symmetry=symmetry if isinstance(symmetry, str) and symmetry else None,
    )


def _run_add(args: argparse.Namespace) -> int:
    """Add the puzzles of the inputs, with what their records say about them.

    A JSON Lines or CSV record gives the provenance (see :func:`_provenance`:
    generator, method, seed, derived_from, generator version) and ratings (a
    ``rate`` row's ``metric``/``score``/``level``, or ``generate``'s
    ``ratings``); a rating is stored unless the puzzle has one with that
    metric already. Its ``minimal`` and ``symmetry`` are claims: the bank
    computes both, stores what it computed, and the summary on stderr counts
    the records whose claims were wrong.
    """
    geometry = geometry_from_args(args)
    added = dup = bad = not_unique = 0
    corrected: dict[str, int] = {}
    show = not args.quiet and sys.stderr.isatty()
    bar = progress(count_lines(args.inputs) if show else None, show)
    with PuzzleBank(args.bank) as bank, contextlib.closing(bar):
        for entry in iter_entries(args.inputs, geometry):
            bar.update()
            if entry.puzzle is None:
                print(f"csp-sudoku bank: skipped {entry.error}", file=sys.stderr)
                bad += 1
                continue
            f = entry.fields
            prov = _provenance(f, args)
            claims = _claims(f)
            try:
                res = bank.add(
                    entry.puzzle,
                    minimal=claims.minimal,
                    symmetry=claims.symmetry,
                    generator=prov.generator,
                    seed=prov.seed,
                    method=prov.method,
                    derived_from=prov.derived_from,
                    generator_version=prov.generator_version,
                    check_minimal=not args.no_minimal_check,
                )
                for rating in _ratings(f):
                    if not bank.has_rating(res.id, rating.metric):
                        bank.add_rating(res.id, rating)
            except NotUniqueError as err:
                print(
                    f"csp-sudoku bank: skipped {entry.source}:{entry.line}: {err}", file=sys.stderr
                )
                not_unique += 1
                continue
            except (TypeError, ValueError, OverflowError) as err:  # a score that is no number
                print(
                    f"csp-sudoku bank: skipped {entry.source}:{entry.line}: bad rating ({err})",
                    file=sys.stderr,
                )
                bad += 1
                continue
            for what in res.corrected:
                corrected[what] = corrected.get(what, 0) + 1
            added += res.added
            dup += not res.added
        total = len(bank)
    if not args.quiet:
        print(
            f"added {added}, duplicates {dup}, skipped {not_unique + bad} ({not_unique} not "
            f"unique, {bad} bad); the bank holds {total}"
        )
    if corrected:
        wrong = ", ".join(f"{what} {n}" for what, n in sorted(corrected.items()))
        print(
            f"csp-sudoku bank: note: records whose claims the bank corrected ({wrong}); "
            "it stored the computed facts",
            file=sys.stderr,
        )
    # as in every command: 2 for a bad line, else 1 for a puzzle without one solution
    return EXIT_BAD_INPUT if bad else EXIT_NOT_ALL if not_unique else EXIT_OK


def _run_rate(args: argparse.Namespace) -> int:
    if not args.metric:
        print("csp-sudoku bank rate: error: --metric is required", file=sys.stderr)
        return EXIT_BAD_INPUT
    show = not args.quiet and sys.stderr.isatty()
    bar = progress(None, show)

    with PuzzleBank(args.bank) as bank, contextlib.closing(bar):
        n = bank.rate(
            args.metric,
            query=_query(args),
            seed=args.seed,
            runs=args.runs,
            jobs=args.jobs,
            progress=bar.tick,
        )
    if not args.quiet:
        print(f"rated {counted(n, 'puzzle')} with {args.metric}")
    return EXIT_OK


_RECORD_FIELDS = (
    "id", "puzzle", "solution", "geometry", "regions", "clues", "minimal", "symmetries",
    "generator", "seed", "method", "derived_from", "generator_version", "ratings",
)  # fmt: skip


def _record(e: BankEntry) -> dict[str, Any]:
    """A banked puzzle as a JSON Lines / CSV row (what ``bank add`` reads back)."""
    return {
        "id": e.id,
        "puzzle": e.puzzle.to_line(),
        "solution": e.solution.to_line(),
        **geometry_fields(e.puzzle.geometry),
        "clues": e.clues,
        "minimal": e.minimal,
        "symmetries": list(e.symmetries),
        "generator": e.generator,
        "seed": e.seed,
        "method": e.method,
        "derived_from": e.derived_from,
        "generator_version": e.generator_version,
        "ratings": {m: {"score": s, "level": lv} for m, (s, lv) in e.ratings.items()},
    }


def _write_entries(
    entries: Iterable[BankEntry], fmt: str, out: IO[str], *, solutions: bool = False
) -> list[int]:
    """Write the entries as rows, as they come; their ids, in order."""
    writer = RowWriter(fmt, _RECORD_FIELDS, out)
    ids: list[int] = []
    for e in entries:
        text = e.puzzle.to_line() + (" " + e.solution.to_line() if solutions else "")
        writer.write(_record(e), text)
        ids.append(e.id)
    return ids


def _run_query(args: argparse.Namespace) -> int:
    with PuzzleBank(args.bank, readonly=True) as bank:
        _write_entries(bank.iter_query(_query(args)), _format_of(args), sys.stdout)
    return EXIT_OK


def _run_export(args: argparse.Namespace) -> int:
    to_stdout = args.output == "-"
    fmt = _format_of(args)
    batch = args.batch or ("stdout" if to_stdout else args.output)
    with PuzzleBank(args.bank) as bank:
        entries = bank.iter_query(_query(args))
        if fmt == "text":
            target: Any = sys.stdout if to_stdout else args.output
            n = bank.export(entries, target, batch=batch, solutions=args.solutions)
        else:
            with contextlib.ExitStack() as stack:
                out = stack.enter_context(
                    open_output(sys.stdout if to_stdout else args.output, newline="")
                )
                ids = _write_entries(entries, fmt, out, solutions=args.solutions)
            bank.mark_exported(ids, batch)
            n = len(ids)
    print(
        f"exported {counted(n, 'puzzle')} to {'stdout' if to_stdout else args.output}",
        file=sys.stderr,
    )
    return EXIT_OK


def _run_stats(args: argparse.Namespace) -> int:
    with PuzzleBank(args.bank, readonly=True) as bank:
        st = bank.stats()
    print(f"puzzles: {st['puzzles']} (minimal {st['minimal']}, exported {st['exported']})")
    print("clues: " + ", ".join(f"{c}: {n}" for c, n in st["clues"].items()))
    for metric, levels in st["levels"].items():
        print(f"{metric}: " + ", ".join(f"{lv}: {n}" for lv, n in levels.items()))
    return EXIT_OK
