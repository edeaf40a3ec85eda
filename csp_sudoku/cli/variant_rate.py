"""``csp-sudoku rate`` on variant puzzles (f-puzzles ``.json``, ``.jsonl``, ``?load=`` links).

``rate`` hands its run here (:func:`hook`) when an input is a variant one
(:func:`csp_sudoku.cli.variants.is_variant_input`). Each puzzle is rated by
:func:`csp_sudoku.variants.rating.rate_variant` (the level and score read off
its explained path, docs/variants.md) and gets one row, in input order: text
``FILE:LINE<TAB>variant<TAB>SCORE<TAB>LEVEL<TAB>HARDEST TECHNIQUE``, or JSON
Lines / CSV with the classic rating rows' fields (``metric`` is ``variant``;
the details are nested in JSON, ``variant.KEY`` columns in CSV). The batch
flags mean what they mean for plain puzzles (``-o``, ``--format``,
``--jobs``, ``--resume``, ``--skip-invalid``, ``--scheduler``).

The classic metrics' options (``--metric`` other than ``variant``,
``--runs``, a ``--param`` other than ``max_subset`` and ``budget``, the grid
shape options) are refused with exit code 2. Exit codes: 0 when every puzzle
was rated; 1 when one has no solution or several (said on stderr, not
rated); 2 for bad input (the other puzzles are still rated).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.core.errors import NotUniqueError, SudokuError

if TYPE_CHECKING:  # the constraints load OR-tools: only a variant input needs them
    from csp_sudoku.constraints import VariantPuzzle

Command = Callable[[argparse.Namespace], int]

#: The columns of a JSON Lines row (those of the classic ``rate`` rows).
FIELDS = ("file", "line", "puzzle", "metric", "score", "level", "level_rank", "runs", "seed")
#: The ``--param`` keys: the explainer's settings :func:`rate_variant` takes.
PARAMS = ("max_subset", "budget")

#: One puzzle's outcome: its row, or why it was not rated (``("unique", why)`` for a
#: puzzle without exactly one solution, ``("bad", why)`` for another error).
Outcome = dict[str, Any] | tuple[str, str]


def hook(plain: Command) -> Command:
    """``plain`` (the classic rate), or the variant run when an input is a variant one."""
    from csp_sudoku.cli.variants import routed

    return routed(plain, run_variant_rate)


def _params(args: argparse.Namespace) -> tuple[dict[str, int], str | None]:
    """The ``--param`` settings of the explainer, or why they are refused."""
    out: dict[str, int] = {}
    for kv in getattr(args, "param", None) or []:
        key, sep, value = (x.strip() for x in kv.partition("="))
        if not sep or key not in PARAMS:
            return out, f"--param {kv!r}: a variant rating takes {', '.join(PARAMS)} (KEY=N)"
        try:
            out[key] = int(value)
        except ValueError:
            return out, f"--param {kv!r}: {key} is a whole number"
    return out, None


def _refused(args: argparse.Namespace) -> str | None:
    """Why the options do not fit a variant run, or None."""
    import os

    from csp_sudoku.variants.rating import METRIC

    metrics = [m.strip() for x in args.metric or [] for m in x.split(",") if m.strip()]
    if any(m != METRIC for m in metrics):
        return (
            f"variant puzzles have one rating, --metric {METRIC} "
            "(the classic metrics rate plain puzzles)"
        )
    if args.runs is not None:
        return "--runs does not apply: a variant rating is one deterministic path"
    if args.size or args.jigsaw or args.variant != "standard":
        return "--size, --variant and --jigsaw do not apply to f-puzzles inputs"
    if args.resume and not args.output:
        return "--resume needs --output FILE"
    for item in args.inputs:
        if "load=" in item or item.lstrip().startswith("{"):
            continue
        if not os.path.exists(item):
            return f"{item}: no such file"
        if os.path.isdir(item):
            return f"{item} is a folder, not a puzzle file"
    return None


def rate_one(puzzle: VariantPuzzle | None, params: dict[str, int]) -> Outcome | None:
    """Task: the row of one puzzle (without its place), None for a puzzle not read."""
    if puzzle is None:
        return None
    from csp_sudoku.core.io import format_line
    from csp_sudoku.variants.rating import rate_variant

    try:
        rating = rate_variant(puzzle, **params)
    except NotUniqueError as err:
        return "unique", str(err)
    except SudokuError as err:
        return "bad", str(err)
    return {"puzzle": format_line(puzzle.puzzle), **rating.to_dict()}


def csv_fields() -> list[str]:
    """The columns of a CSV row: :data:`FIELDS`, ``version``, ``parameters``, then a
    ``variant.KEY`` column for each key of the rating's details."""
    from csp_sudoku.variants.rating import DETAILS, METRIC

    return [*FIELDS, "version", "parameters", *(f"{METRIC}.{k}" for k in DETAILS)]


def run_variant_rate(args: argparse.Namespace) -> int:
    """Rate every variant puzzle of ``args.inputs``; the exit code."""
    from csp_sudoku.cli._common import RowWriter, batch_session
    from csp_sudoku.cli._rows import _last_entry

    why = _refused(args)
    params, bad_param = _params(args)
    why = why or bad_param
    if why is not None:
        print(f"csp-sudoku rate: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT
    done: tuple[str, int] | None = None
    has_header = False
    if args.resume:
        done, has_header = _last_entry(args.output, args.format, "rate")
    with batch_session(
        args.output, appending=done is not None or has_header, scheduler=args.scheduler
    ) as (out, client):
        writer = RowWriter(args.format, FIELDS, out, header=not has_header)
        if args.format == "csv":
            writer.names = csv_fields()
        return _rate(args, params, writer, done, client)


def _rate(
    args: argparse.Namespace,
    params: dict[str, int],
    writer: Any,
    done: tuple[str, int] | None,
    client: Any,
) -> int:
    from csp_sudoku.cli._common import counted, progress
    from csp_sudoku.cli._rows import _after
    from csp_sudoku.cli.variants import Item, _total, read_inputs
    from csp_sudoku.core.parallel import ordered_map

    show_bar = not args.quiet and sys.stderr.isatty()
    bar = progress(_total(args.inputs) if show_bar and done is None else None, show_bar)
    held: deque[Item] = deque()
    rated = not_unique = bad = 0
    started = time.perf_counter()

    def tasks() -> Iterator[tuple[Any, ...]]:
        for item in _after(read_inputs(args.inputs), done):
            held.append(item)
            yield item.puzzle, params

    jobs = 0 if client is not None and args.jobs == 1 else args.jobs
    try:
        for result in ordered_map(rate_one, tasks(), jobs=jobs, executor=client):
            item = held.popleft()
            bar.update(1)
            where = f"{item.source}:{item.line}"
            if result is None:
                bad += 1
                print(f"csp-sudoku rate: {item.error}", file=sys.stderr)
                continue
            if isinstance(result, tuple):
                what, reason = result
                if what == "unique":
                    not_unique += 1
                else:
                    bad += 1
                print(f"csp-sudoku rate: {where}: {reason}", file=sys.stderr)
                continue
            rated += 1
            details = result.pop("details")
            row = {"file": item.source, "line": item.line, **result}
            if writer.fmt == "csv":
                row.update({f"{row['metric']}.{k}": v for k, v in details.items()})
            else:
                row["details"] = details
            text = f"{row['metric']}\t{row['score']:.4g}\t{row['level']}\t{details['hardest_technique']}"
            writer.write(row, f"{where}\t{text}".rstrip("\t"))
    finally:
        bar.close()
    if rated + not_unique + bad == 0 and done is None:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.quiet:
        secs = time.perf_counter() - started
        print(
            f"{counted(rated, 'variant puzzle')} rated, {not_unique} not unique, {bad} bad "
            f"in {secs:.2f} s",
            file=sys.stderr,
        )
    if bad and not args.skip_invalid:
        return EXIT_BAD_INPUT
    return EXIT_NOT_ALL if not_unique else EXIT_OK


__all__ = ["FIELDS", "csv_fields", "hook", "rate_one", "run_variant_rate"]
