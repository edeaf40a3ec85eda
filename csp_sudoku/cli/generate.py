"""``csp-sudoku generate``: new unique (minimal, symmetric) puzzles at a target difficulty.

One puzzle per line as it is found: ``--format text`` prints the puzzle line,
clue count, seed and ratings; ``--format jsonl`` one JSON object with at least
``puzzle``, ``clues``, ``minimal``, ``symmetry``, ``seed`` and ``ratings``.
``--jobs`` runs puzzle streams in worker processes with seeds spawned from
``--seed`` (numpy SeedSequence); the output is the same, in the same order,
for any ``--jobs``. Exit code 1 when the budget runs out before ``--count``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import RowWriter, add_geometry_args, geometry_from_args
from csp_sudoku.generators import METHODS, SYMMETRIES, BudgetExhaustedError, generate

_FIELDS = ("puzzle", "clues", "minimal", "symmetry", "seed", "method", "ratings")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "generate",
        help="generate unique puzzles (minimal, symmetric, at a target level)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--count", "-n", type=int, default=1, help="how many puzzles (default 1)")
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
    p.add_argument("--level", action="append", metavar="NAME", help="target level (repeatable)")
    p.add_argument("--score-min", type=float, help="lowest accepted score of --metric")
    p.add_argument("--score-max", type=float, help="highest accepted score of --metric")
    p.add_argument(
        "--metric",
        help="metric of the target, also reported (default rounds when a target is set)",
    )
    p.add_argument(
        "--rate",
        action="append",
        default=[],
        metavar="METRIC",
        help="also rate every puzzle with METRIC (repeatable)",
    )
    p.add_argument("--method", choices=METHODS, default="auto", help="generator (default auto)")
    p.add_argument("--seed", type=int, help="seed for reproducible output")
    p.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--budget-seconds", type=float, help="stop after this many seconds")
    p.add_argument("--attempts", type=int, help="most attempts per puzzle")
    p.add_argument("--max-clues", type=int, help="reject puzzles with more clues")
    p.add_argument("--backend", default="auto", help="uniqueness checker backend")
    p.add_argument("--format", choices=("text", "jsonl", "csv"), default="text")
    add_geometry_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.count < 0 or args.jobs < 1:
        print("csp-sudoku generate: --count must be >= 0 and --jobs >= 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    score_range = None
    if args.score_min is not None or args.score_max is not None:
        lo = args.score_min if args.score_min is not None else float("-inf")
        hi = args.score_max if args.score_max is not None else float("inf")
        score_range = (lo, hi)
    metric = args.metric or "rounds"
    extra = [m for r in args.rate for m in r.split(",") if m]
    if args.metric and not args.level and score_range is None:
        extra.insert(0, args.metric)
    stream = generate(
        args.count,
        level=args.level,
        score_range=score_range,
        metric=metric,
        rate_with=extra,
        symmetry=args.symmetry,
        minimal=args.minimal,
        seed=args.seed,
        budget_seconds=args.budget_seconds,
        attempts=args.attempts,
        geometry=geometry_from_args(args),
        method=args.method,
        backend=args.backend,
        max_clues=args.max_clues,
        jobs=args.jobs,
    )
    writer = RowWriter(args.format, _FIELDS)
    try:
        for g in stream:
            row = g.to_dict()
            rated = " ".join(
                f"{name}={r['level']}({r['score']:.4g})" for name, r in row["ratings"].items()
            )
            writer.write(
                row, f"{row['puzzle']}\t{row['clues']}\tseed={row['seed']}\t{rated}".rstrip()
            )
            sys.stdout.flush()
    except BudgetExhaustedError as err:
        sys.stdout.flush()
        print(f"csp-sudoku generate: {err}", file=sys.stderr)
        return EXIT_NOT_ALL
    return EXIT_OK
