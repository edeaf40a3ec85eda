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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.core.errors import NotUniqueError

if TYPE_CHECKING:  # the constraints load OR-tools: only a variant input needs them
    from csp_sudoku.cli.variants import Answer
    from csp_sudoku.constraints import VariantPuzzle

Command = Callable[[argparse.Namespace], int]

#: The columns of a JSON Lines row (those of the classic ``rate`` rows).
FIELDS = (
    "file",
    "line",
    "puzzle",
    "metric",
    "score",
    "level",
    "level_rank",
    "runs",
    "seed",
    "fpuzzles",
)
#: The ``--param`` keys: the explainer's settings :func:`rate_variant` takes.
PARAMS = ("max_subset", "budget")


def hook(plain: Command) -> Command:
    """``plain`` (the classic rate), or the variant run when an input is a variant one."""
    from csp_sudoku.cli.variants import routed

    return routed(plain, run_variant_rate)


def _params(args: argparse.Namespace) -> tuple[dict[str, int], str | None]:
    """The ``--param`` settings of the explainer, or why they are refused: a value out
    of its range by the explainer's own check
    (:func:`csp_sudoku.variants.explain.setting_refusal`, as ``explain --max-subset``
    and ``rate_variant`` are checked), once, before any puzzle is read."""
    from csp_sudoku.variants.explain import setting_refusal

    out: dict[str, int] = {}
    for kv in getattr(args, "param", None) or []:
        key, sep, value = (x.strip() for x in kv.partition("="))
        if not sep or key not in PARAMS:
            return out, f"--param {kv!r}: a variant rating takes {', '.join(PARAMS)} (KEY=N)"
        try:
            out[key] = int(value)
        except ValueError:
            return out, f"--param {kv!r}: {key} is a whole number"
        why = setting_refusal(key, out[key])
        if why is not None:
            return out, f"--param {kv!r}: {why}"
    return out, None


def _refused(args: argparse.Namespace) -> str | None:
    """Why the options do not fit a variant run, or None (a plain input among the
    variant ones included: a run rates one kind)."""
    from csp_sudoku.variants.rating import METRIC

    metrics = [m.strip() for x in args.metric or [] for m in x.split(",") if m.strip()]
    if any(m != METRIC for m in metrics):
        return (
            f"variant puzzles have one rating, --metric {METRIC} "
            "(the classic metrics rate plain puzzles)"
        )
    if args.runs is not None:
        return "--runs does not apply: a variant rating is one deterministic path"
    from csp_sudoku.cli.variants import NO_GRID_OPTIONS, is_variant_input, missing_input

    if args.size or args.jigsaw or args.variant != "standard":
        return NO_GRID_OPTIONS  # (plain inputs too are refused: a run rates one kind)
    if args.resume and not args.output:
        return "--resume needs --output FILE"

    missing = missing_input(args.inputs, plain=False)
    if missing is not None:
        return missing
    plain = [i for i in args.inputs if not is_variant_input(i)]
    if plain:
        return (
            f"{plain[0]} holds plain puzzles, and another input variant ones: rate them in "
            "separate runs (a variant puzzle has a rating of its own, --metric variant)"
        )
    return None


def rate_one(puzzle: VariantPuzzle, options: dict[str, Any]) -> Answer:
    """Task: the row of one puzzle (``{where}`` in its text), or why it was not rated:
    exit code 1 for a puzzle without exactly one solution (a library error is a
    bad entry, :func:`csp_sudoku.cli.variants.run_batch`)."""
    from csp_sudoku.cli._rows import WHERE
    from csp_sudoku.core.io import format_line
    from csp_sudoku.variants.rating import rate_variant

    try:
        rating = rate_variant(puzzle, **options["params"])
    except NotUniqueError as err:
        return EXIT_NOT_ALL, [], str(err)
    row: dict[str, Any] = {"puzzle": format_line(puzzle.puzzle), **rating.to_dict()}
    details = row.pop("details")
    if options["format"] == "csv":
        row.update({f"{row['metric']}.{k}": v for k, v in details.items()})
    else:
        row["details"] = details
    text = f"{row['metric']}\t{row['score']:.4g}\t{row['level']}\t{details['hardest_technique']}"
    return EXIT_OK, [(row, f"{WHERE}\t{text}".rstrip("\t"))], None


def csv_fields() -> list[str]:
    """The columns of a CSV row: :data:`FIELDS`, ``version``, ``parameters``, then a
    ``variant.KEY`` column for each key of the rating's details."""
    from csp_sudoku.variants.rating import DETAILS, METRIC

    return [*FIELDS, "version", "parameters", *(f"{METRIC}.{k}" for k in DETAILS)]


def run_variant_rate(args: argparse.Namespace) -> int:
    """Rate every variant puzzle of ``args.inputs``; the exit code."""
    from csp_sudoku.cli.variants import Batch, run_batch

    why = _refused(args)
    params, bad_param = _params(args)
    why = why or bad_param
    if why is not None:
        print(f"csp-sudoku rate: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT
    names = tuple(csv_fields()) if args.format == "csv" else None
    options = {"params": params, "format": args.format}
    batch = Batch(
        "rate", FIELDS, rate_one, options, "rated", "not unique", plain=False, csv_names=names
    )
    return run_batch(batch, args)


__all__ = ["FIELDS", "csv_fields", "hook", "rate_one", "run_variant_rate"]
