"""``csp-sudoku generate --constraints FILE``, ``--killer``, ``--drawn KINDS``: variant puzzles.

``generate`` hands its run here (:func:`run`) when one of the three is given:

* ``--constraints FILE|URL``: minimal puzzles with the constraints of every
  f-puzzles puzzle in FILE (a ``.json`` object, JSON Lines of them, or a
  ``?load=`` link): ``--count`` puzzles per puzzle of the file, each from a
  random grid of the constraints, its givens taken away while unique
  (``--symmetry`` keeps the pattern of givens symmetric);
* ``--killer``: killer puzzles with no givens (cages merged while unique;
  ``--symmetry`` keeps the pattern of cages symmetric: a cage's image is a cage);
* ``--drawn KIND[,KIND]``: thermometers, dots or XV drawn from a random grid
  that alone (givens only where they cannot) fix it (``--symmetry`` keeps the
  pattern of thermometer steps, marks and givens symmetric).

Rows: ``--format text`` (the default) writes each puzzle as one f-puzzles
JSON object a line, which ``check``, ``count`` and ``solve`` read back from
a ``.jsonl`` file; ``jsonl`` and ``csv`` write a record with the f-puzzles
object (``fpuzzles``), ``seed``, ``source``, ``givens``, ``constraints``,
``minimal``, ``calls``, ``symmetry`` and ``minimal_in_symmetry`` (empty
without a symmetry), and with ``--report-removable`` the constraints
that can go (each alone) with the puzzle still unique. A puzzle of the file
that cannot be read, or allows no grid, is reported on stderr as
``FILE:LINE: reason`` and the others are still made (exit code 2 at the end).

Difficulty targets: ``--level L`` (repeatable, or a comma list: any of them;
the levels of :data:`csp_sudoku.variants.rating.LEVELS`) and ``--score-min``
/ ``--score-max`` (the rating's score): each puzzle is made from attempts
(seeded, see :mod:`csp_sudoku.variants.generate`) until one rates on target;
its rating is the row's ``rating`` field. ``--budget-seconds`` bounds the
whole run, ``--attempts`` each puzzle; when one runs out, what was found is
written and the message says how many, and the puzzle met nearest the
target, with its seed; the exit code is 1.

``--jobs N`` makes the attempts in N worker processes; the puzzles are the
same, in the same order, for every N (puzzle ``i`` is its first attempt on
target), and a Ctrl-C or SIGTERM ends the workers at once.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import RowWriter, batch_session, counted, geometry_from_args
from csp_sudoku.cli._resume import MAX_ATTEMPT_SEARCH, ResumeError, read_records
from csp_sudoku.cli.variants import missing_input, read_inputs
from csp_sudoku.constraints import VariantPuzzle, to_fpuzzles
from csp_sudoku.constraints.base import name
from csp_sudoku.core.errors import (
    BudgetExhaustedError,
    GenerationError,
    GeometryError,
    SudokuError,
)
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.seeds import attempt_seed, fresh_seed, item_seed
from csp_sudoku.generators.symmetry import orbits
from csp_sudoku.generators.symmetry import permutation as cell_map
from csp_sudoku.variants.generate import (
    DRAWN_KINDS,
    VariantGenerated,
    VariantTarget,
    generate_drawn,
    generate_givens,
    generate_killers,
    removable_constraints,
)

#: The columns of a ``jsonl``/``csv`` row (``rating`` with a difficulty target).
FIELDS = (
    "fpuzzles",
    "seed",
    "source",
    "givens",
    "constraints",
    "minimal",
    "calls",
    "symmetry",
    "minimal_in_symmetry",
    "removable",
    "rating",
)

#: ``generate`` options of classic puzzles, with the value that means "not given".
_CLASSIC_ONLY: dict[str, Any] = {
    "metric": None,
    "rate": [],
    "method": "auto",
    "vicinity_of": None,
    "avoid": [],
    "require_technique": [],
    "exclude_technique": [],
    "max_clues": None,
    "strict_minimal": False,
    "scheduler": None,
    "max_per_grid": None,
    "minimal": True,
    "backend": "auto",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The variant options of ``generate``."""
    g = parser.add_argument_group("variant puzzles (written as f-puzzles JSON)")
    g.add_argument(
        "--constraints",
        metavar="FILE|URL",
        help="minimal puzzles (givens taken away while unique) with the constraints of each "
        "f-puzzles puzzle of FILE (.json, .jsonl or a ?load= link); --count per puzzle",
    )
    g.add_argument(
        "--killer", action="store_true", help="killer puzzles with no givens (--size for the shape)"
    )
    g.add_argument(
        "--drawn",
        metavar="KIND[,KIND]",
        help=f"constraints drawn from a random grid that alone fix it; kinds: {', '.join(DRAWN_KINDS)}",
    )
    g.add_argument(
        "--report-removable",
        action="store_true",
        help="with --format jsonl or csv: list the constraints that can go, each alone, "
        "with the puzzle still unique",
    )


def wanted(args: argparse.Namespace) -> bool:
    """Whether ``generate`` is asked for variant puzzles."""
    return (
        getattr(args, "constraints", None) is not None
        or getattr(args, "killer", False)
        or getattr(args, "drawn", None) is not None
    )  # an empty --drawn or --constraints is a variant run's error, not a classic run


def _flag(key: str) -> str:
    return "--" + key.replace("_", "-")


def _refusal(args: argparse.Namespace) -> str | None:
    """Why the options cannot go together, or None."""
    modes = [
        m
        for m, on in (
            ("--constraints", args.constraints is not None),
            ("--killer", args.killer),
            ("--drawn", args.drawn is not None),
        )
        if on
    ]
    if len(modes) > 1:
        return f"{' and '.join(modes)}: choose one kind of variant puzzle"
    for key, default in _CLASSIC_ONLY.items():
        if getattr(args, key, default) != default:
            flag = "--not-minimal" if key == "minimal" else _flag(key)
            return f"{flag} is an option of classic puzzles, not of {modes[0]}"
    if args.report_removable and args.format == "text":
        return "--report-removable adds a field: use --format jsonl or csv"
    if args.resume and not args.output:
        return "--resume needs --output FILE"
    if args.resume and args.format == "text":
        return "--resume needs --format jsonl or csv (the text rows do not record their seeds)"
    if args.resume and args.seed is None:
        return "--resume needs the --seed of the interrupted run"
    if args.constraints is None:
        return None
    if args.size or args.jigsaw or args.variant != "standard":
        return "--constraints: the file gives the grid's shape; drop --size, --variant, --jigsaw"
    if not args.constraints:
        return "--constraints takes a file of variant puzzles (or - for standard input)"
    return missing_input([args.constraints], plain=False)


def _target(args: argparse.Namespace) -> VariantTarget:
    """The difficulty target of ``--level``, ``--score-min`` and ``--score-max``.

    Raises:
        GenerationError: a per-level quota (``NAME=N``), an unknown level, or
            bounds no score meets.
    """
    names = [x.strip() for lv in args.level or [] for x in lv.split(",") if x.strip()]
    quota = next((x for x in names if "=" in x), None)
    if quota is not None:
        raise GenerationError(
            f"--level {quota}: per-level quotas are for classic puzzles; "
            "give the level alone and --count"
        )
    lo, hi = args.score_min, args.score_max
    bounds = (
        None
        if lo is None and hi is None
        else (-math.inf if lo is None else lo, math.inf if hi is None else hi)
    )
    return VariantTarget.of(names, bounds)


def _drawn_kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in kinds if k not in DRAWN_KINDS]
    if bad or not kinds:
        raise GenerationError(
            f"--drawn {text!r}: choose kinds from {', '.join(DRAWN_KINDS)} (comma-separated)"
        )
    return kinds


def _shape(args: argparse.Namespace) -> Geometry:
    g = geometry_from_args(args) or Geometry.standard(9)
    if g.extra_units:
        raise GeometryError(
            f"--variant {args.variant}: f-puzzles has no grid with extra units; "
            "generate on the plain grid"
        )
    return g


def run(args: argparse.Namespace) -> int:
    """Make the variant puzzles ``args`` ask for; the exit code."""
    why = _refusal(args)
    if why is not None:
        print(f"csp-sudoku generate: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        kinds = _drawn_kinds(args.drawn) if args.drawn is not None else ()
        shape = None if args.constraints is not None else _shape(args)
        target = _target(args)
    except SudokuError as err:
        print(f"csp-sudoku generate: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.seed is None:
        args.seed = fresh_seed()
        if args.output and not args.quiet:
            print(f"csp-sudoku generate: --seed {args.seed}", file=sys.stderr)
    try:
        done = _read_done(args, shape, kinds, target) if args.resume else _Done()
    except SudokuError as err:
        print(f"csp-sudoku generate: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    code = EXIT_OK
    made = 0
    start = time.perf_counter()
    budget = _Budget(args.budget_seconds, args.attempts, target, args.jobs)
    appending = done.has_header or bool(done.rows)
    with batch_session(args.output, appending=appending, scheduler=None) as (out, _client):
        writer = RowWriter(args.format, FIELDS, out, header=not done.has_header)
        try:
            for source, item in _made(args, shape, kinds, budget, done.rows):
                if isinstance(item, str):
                    print(f"csp-sudoku generate: {item}", file=sys.stderr)
                    code = EXIT_BAD_INPUT
                    continue
                writer.write(
                    _row(item, source, args.report_removable, args.symmetry),
                    json.dumps(_fp(item)),
                )
                made += 1
        except BudgetExhaustedError as err:  # what was found is written; the run stops
            print(f"csp-sudoku generate: budget spent: {err}", file=sys.stderr)
            code = max(code, EXIT_NOT_ALL)
    if not args.quiet:
        took = time.perf_counter() - start
        kept = sum(done.rows.values())
        earlier = f" ({kept} from the earlier run kept)" if kept else ""
        print(
            f"csp-sudoku generate: {counted(made, 'variant puzzle')} in {took:.1f} s{earlier}",
            file=sys.stderr,
        )
    return code


@dataclass
class _Done:
    """What the earlier run of ``--resume`` wrote: the puzzles done per source (a
    template's ``FILE:LINE``, or ``killer``, ``drawn``), and whether a CSV header is there."""

    rows: Counter[str] = field(default_factory=Counter)
    has_header: bool = False


def _streams(args: argparse.Namespace, shape: Geometry | None) -> dict[str, tuple[int, int | None]]:
    """Each source of this run's puzzles: the seed its puzzles are the items of, and
    the grid's size (None: a template that cannot be read, which makes none)."""
    if shape is not None:
        return {"killer" if args.killer else "drawn": (args.seed, shape.size)}
    return {
        f"{entry.source}:{entry.line}": (
            item_seed(args.seed, k),
            None if entry.puzzle is None else entry.puzzle.geometry.size,
        )
        for k, entry in enumerate(read_inputs([args.constraints]))
    }


def _read_done(
    args: argparse.Namespace, shape: Geometry | None, kinds: tuple[str, ...], target: VariantTarget
) -> _Done:
    """The puzzles of ``--output`` that this run keeps, checked to be this run's.

    Row ``i`` of a source must be a puzzle of its shape (the drawn kinds only,
    for ``--drawn``) with this run's symmetry, a rating on this run's target
    (none without one), and the seed of an attempt of puzzle ``i`` under
    ``--seed``; a source has at most ``--count`` rows.

    Raises:
        ResumeError: a row that is unreadable or not this run's.
    """
    done = _Done()
    if not os.path.exists(args.output):
        return done
    rows, done.has_header = read_records(args.output, args.format, FIELDS, "generate")
    streams = _streams(args, shape)
    bound = (args.attempts or MAX_ATTEMPT_SEARCH) if target.active else 1
    for n, row in enumerate(rows, 1 + done.has_header):
        at = f"{args.output}:{n}"
        source = str(row.get("source"))
        if source not in streams:
            ours = ", ".join(streams) or "none"
            raise ResumeError(f"{at}: a puzzle of {source!r}, not of this run ({ours})")
        i = done.rows[source]
        if i >= args.count:
            raise ResumeError(
                f"{at}: more than --count {args.count} puzzles of {source}: not this run's output"
            )
        why = _row_fault(row, args, streams[source][1], kinds, target)
        if why is None:
            stream = item_seed(streams[source][0], i)
            seed = row.get("seed")
            if not any(str(attempt_seed(stream, j)) == str(seed) for j in range(bound)):
                why = (
                    f"seed {seed} is not a seed of puzzle {i + 1} of {source} under --seed "
                    f"{args.seed}: the file was written with another --seed (or other options)"
                )
        if why is not None:
            raise ResumeError(f"{at}: {why}")
        done.rows[source] += 1
    return done


def _row_fault(
    row: dict[str, Any],
    args: argparse.Namespace,
    size: int | None,
    kinds: tuple[str, ...],
    target: VariantTarget,
) -> str | None:
    """Why a row of the earlier run is not one this run writes (its seed aside), or None."""
    if str(row.get("symmetry")) != args.symmetry:
        return f"the earlier run used symmetry {row.get('symmetry')}, this one {args.symmetry}"
    try:
        data = _decoded(row.get("fpuzzles"))
        rating = _decoded(row.get("rating"))
        if data.get("size") != size:
            return f"a {data.get('size')}x{data.get('size')} puzzle, this run makes {size}x{size}"
    except (ValueError, AttributeError, RecursionError):
        return "its fpuzzles or rating field is not a JSON object"
    drawn = {k for k in DRAWN_KINDS if data.get(k)}
    if kinds and not drawn <= set(kinds):
        return f"its puzzle has {', '.join(sorted(drawn))}, this run draws {', '.join(kinds)}"
    if not target.active:
        return None if not rating else "it is rated: the earlier run had a difficulty target"
    level, score = rating.get("level"), rating.get("score")
    lo, hi = target.score_range or (-math.inf, math.inf)
    if (target.levels and level not in target.levels) or not (
        isinstance(score, (int, float)) and lo <= score <= hi
    ):
        return f"its rating ({level}, {score}) is not on this run's target ({target.describe()})"
    return None


def _decoded(value: Any) -> dict[str, Any]:
    """A JSON object field of a row: as read from JSON Lines, or the JSON text of a CSV
    cell (an empty cell: an empty object)."""
    if isinstance(value, str):
        value = json.loads(value) if value else {}
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


class _Budget:
    """The target, budget and workers of a run, handed to each generator call:
    ``--budget-seconds`` for the whole run (each call gets what is left),
    ``--attempts`` per puzzle, ``--jobs``."""

    def __init__(
        self, seconds: float | None, attempts: int | None, target: VariantTarget, jobs: int
    ) -> None:
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.attempts = attempts
        self.target = target
        self.jobs = jobs

    def options(self) -> dict[str, Any]:
        """The generators' keyword arguments of the target and what is left of the budget."""
        left = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        return {
            "level": self.target.levels or None,
            "score_range": self.target.score_range,
            "budget_seconds": left,
            "attempts": self.attempts,
            "jobs": self.jobs,
        }


def _made(
    args: argparse.Namespace,
    shape: Geometry | None,
    kinds: tuple[str, ...],
    budget: _Budget,
    done: Counter[str],
) -> Iterator[tuple[str, VariantGenerated | str]]:
    """``(where, puzzle)`` for every puzzle asked for, in order, but the ``done[where]``
    first of each source (kept from the earlier run of ``--resume``); in place of a
    puzzle that cannot be made, the message ``WHERE: reason``.

    Raises:
        BudgetExhaustedError: the budget ran out (after what was found).
    """
    if shape is not None:
        source = "killer" if args.killer else "drawn"
        sym = None if args.symmetry == "none" else cell_map(shape.size, args.symmetry).tolist()
        try:
            if args.killer:
                yield from (
                    (source, got)
                    for got in generate_killers(
                        args.count,
                        seed=args.seed,
                        geometry=shape,
                        symmetry=sym,
                        first=done[source],
                        **budget.options(),
                    )
                )
            else:
                yield from (
                    (source, got)
                    for got in generate_drawn(
                        args.count,
                        kinds,
                        seed=args.seed,
                        geometry=shape,
                        symmetry=sym,
                        first=done[source],
                        **budget.options(),
                    )
                )
        except BudgetExhaustedError:
            raise
        except SudokuError as err:  # a shape with no grid
            yield source, f"{source}: {err}"
        return
    read = 0
    for k, entry in enumerate(read_inputs([args.constraints])):
        read += 1
        template = entry.puzzle
        if template is None:
            yield entry.source, entry.error
            continue
        where = f"{entry.source}:{entry.line}"
        size = template.geometry.size
        try:
            groups = None if args.symmetry == "none" else orbits(size, args.symmetry)
            for got in generate_givens(
                template,
                args.count,
                seed=item_seed(args.seed, k),
                orbits=groups,
                first=done[where],
                **budget.options(),
            ):
                yield where, got
        except BudgetExhaustedError:
            raise
        except SudokuError as err:  # no grid keeps the constraints, a shape with no symmetry
            yield where, f"{where}: {err}"
    if not read:  # an empty file: no template, so no puzzle, said like every command
        name = "standard input" if args.constraints == "-" else args.constraints
        yield name, f"{name}: no puzzles found in the input"


def _fp(item: VariantGenerated) -> dict[str, Any]:
    return to_fpuzzles(item.puzzle)


def _row(item: VariantGenerated, source: str, removable: bool, symmetry: str) -> dict[str, Any]:
    p: VariantPuzzle = item.puzzle
    row: dict[str, Any] = {
        "fpuzzles": _fp(item),
        "seed": item.seed,
        "source": source,
        "givens": int((p.puzzle.cells > 0).sum()),
        "constraints": len(p.constraints),
        "minimal": item.minimal,
        "calls": item.calls,
        "symmetry": symmetry,
        "minimal_in_symmetry": item.minimal_in_symmetry,
    }
    if item.rating is not None:
        row["rating"] = item.rating.to_dict()
    if removable:
        row["removable"] = [
            {
                "index": r.index,
                "kind": r.constraint.kind,
                "cells": [name(c) for c in r.constraint.footprint()],
                "what": "constraint" if r.keep is None else "sum",
            }
            for r in removable_constraints(p)
        ]
    return row
