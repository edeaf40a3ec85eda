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
import json
import sys
from typing import Any

from csp_sudoku.bank import PATTERN_SYMMETRIES, BankQuery, PuzzleBank
from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli._common import add_geometry_args, geometry_from_args, iter_entries
from csp_sudoku.errors import NotUniqueError


def _add_query_args(p: argparse.ArgumentParser) -> None:
    q = p.add_argument_group("selection")
    q.add_argument("--count", "-n", type=int, help="at most this many puzzles")
    q.add_argument("--minimal", action="store_true", help="only minimal puzzles")
    q.add_argument("--not-minimal", action="store_true", help="only non-minimal puzzles")
    q.add_argument("--symmetry", choices=PATTERN_SYMMETRIES, help="clue-pattern symmetry")
    q.add_argument("--metric", help="rating metric for --level/--min-score/--max-score/--order")
    q.add_argument("--level", help="rating level (case-insensitive), e.g. Hard")
    q.add_argument("--min-score", type=float)
    q.add_argument("--max-score", type=float)
    q.add_argument("--min-clues", type=int)
    q.add_argument("--max-clues", type=int)
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
        min_score=args.min_score,
        max_score=args.max_score,
        min_clues=args.min_clues,
        max_clues=args.max_clues,
        generator=args.generator,
        geometry=args.geometry,
        not_exported=args.not_exported,
        not_in_batch=args.not_in_batch,
        order=args.order,
    )


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

    add = bsub.add_parser("add", help="add the puzzles of files (unique ones only)")
    add.add_argument("bank", help="the bank file (created when missing)")
    add.add_argument("inputs", nargs="*", metavar="FILE|PUZZLE", help="default: stdin")
    add.add_argument("--generator", help="record this generator name")
    add.add_argument("--seed", type=int, help="record this seed")
    add.add_argument(
        "--no-minimal-check", action="store_true", help="do not compute minimality (faster)"
    )
    add_geometry_args(add)
    add.set_defaults(func=_run_add)

    rate = bsub.add_parser("rate", help="rate selected puzzles not yet rated with a metric")
    rate.add_argument("bank")
    rate.add_argument("--seed", type=int, default=0, help="batch seed (default 0)")
    rate.add_argument("--runs", type=int, help="randomised runs (default: the metric's)")
    rate.add_argument("--jobs", "-j", type=int, default=1)
    _add_query_args(rate)
    rate.set_defaults(func=_run_rate)

    query = bsub.add_parser("query", help="print the selected puzzles")
    query.add_argument("bank")
    query.add_argument("--format", choices=("lines", "jsonl"), default="lines")
    _add_query_args(query)
    query.set_defaults(func=_run_query)

    export = bsub.add_parser("export", help="write the selected puzzles and record the batch")
    export.add_argument("bank")
    export.add_argument("--output", "-o", required=True, help="the puzzle file to write")
    export.add_argument("--batch", help="batch name recorded (default: the output file name)")
    export.add_argument("--solutions", action="store_true", help="append each solution")
    _add_query_args(export)
    export.set_defaults(func=_run_export)

    stats = bsub.add_parser("stats", help="counts of puzzles, clues and levels")
    stats.add_argument("bank")
    stats.set_defaults(func=_run_stats)


def _run_add(args: argparse.Namespace) -> int:
    geometry = geometry_from_args(args)
    added = dup = bad = 0
    with PuzzleBank(args.bank) as bank:
        for entry in iter_entries(args.inputs, geometry):
            if entry.puzzle is None:
                print(f"csp-sudoku bank: skipped {entry.error}", file=sys.stderr)
                bad += 1
                continue
            try:
                res = bank.add(
                    entry.puzzle,
                    generator=args.generator,
                    seed=args.seed,
                    check_minimal=not args.no_minimal_check,
                )
            except NotUniqueError as err:
                print(
                    f"csp-sudoku bank: skipped {entry.source}:{entry.line}: {err}", file=sys.stderr
                )
                bad += 1
                continue
            added += res.added
            dup += not res.added
        total = len(bank)
    print(f"added {added}, duplicates {dup}, skipped {bad}; the bank holds {total}")
    return EXIT_OK if bad == 0 else EXIT_BAD_INPUT


def _run_rate(args: argparse.Namespace) -> int:
    if not args.metric:
        print("csp-sudoku bank rate: error: --metric is required", file=sys.stderr)
        return EXIT_BAD_INPUT
    with PuzzleBank(args.bank) as bank:
        n = bank.rate(
            args.metric, query=_query(args), seed=args.seed, runs=args.runs, jobs=args.jobs
        )
    print(f"rated {n} puzzles with {args.metric}")
    return EXIT_OK


def _run_query(args: argparse.Namespace) -> int:
    with PuzzleBank(args.bank) as bank:
        for e in bank.query(_query(args)):
            if args.format == "jsonl":
                rec = {
                    "id": e.id,
                    "puzzle": e.puzzle.to_line(),
                    "solution": e.solution.to_line(),
                    "clues": e.clues,
                    "minimal": e.minimal,
                    "symmetries": list(e.symmetries),
                    "generator": e.generator,
                    "seed": e.seed,
                    "ratings": {m: {"score": s, "level": lv} for m, (s, lv) in e.ratings.items()},
                }
                print(json.dumps(rec))
            else:
                print(e.puzzle.to_line())
    return EXIT_OK


def _run_export(args: argparse.Namespace) -> int:
    with PuzzleBank(args.bank) as bank:
        entries = bank.query(_query(args))
        n = bank.export(
            entries, args.output, batch=args.batch or args.output, solutions=args.solutions
        )
    print(f"exported {n} puzzles to {args.output}", file=sys.stderr)
    return EXIT_OK


def _run_stats(args: argparse.Namespace) -> int:
    with PuzzleBank(args.bank) as bank:
        st = bank.stats()
    print(f"puzzles: {st['puzzles']} (minimal {st['minimal']}, exported {st['exported']})")
    print("clues: " + ", ".join(f"{c}: {n}" for c, n in st["clues"].items()))
    for metric, levels in st["levels"].items():
        print(f"{metric}: " + ", ".join(f"{lv}: {n}" for lv, n in levels.items()))
    return EXIT_OK
