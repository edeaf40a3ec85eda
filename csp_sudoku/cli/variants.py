"""Variant puzzles (f-puzzles JSON, ``?load=`` links) on ``check``, ``count``, ``solve``
and ``candidates``.

``check``, ``count`` and ``solve`` hand their run here (:func:`hook`) when an
input is a variant one: a ``.json`` file (one f-puzzles object), a ``.jsonl``
file whose lines are f-puzzles objects, or an f-puzzles link (``?load=``).
Each puzzle gets one row, ``FILE:LINE<TAB>answer``; a puzzle that cannot be
read is reported on stderr with its field and entry index, and the run goes
on with the others (exit code 2 at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.core.errors import ParseError, SudokuError

Command = Callable[[argparse.Namespace], int]


def is_variant_input(item: str) -> bool:
    """Whether an input is an f-puzzles one (a link, a ``.json`` file, f-puzzles JSON Lines)."""
    if "load=" in item or item.lstrip().startswith("{"):
        return True
    low = item.lower()
    if low.endswith(".json"):
        return True
    if low.endswith(".jsonl") and os.path.isfile(item):
        with open(item, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.strip():
                    try:
                        first = json.loads(line)
                    except ValueError:
                        return False
                    return isinstance(first, dict) and "grid" in first and "size" in first
    return False


def hook(command: str, plain: Command) -> Command:
    """``plain``, or the variant run of ``command`` when an input is a variant one."""

    def run(args: argparse.Namespace) -> int:
        inputs = list(getattr(args, "inputs", None) or [])
        if inputs and any(is_variant_input(i) for i in inputs):
            return run_variants(command, args)
        return plain(args)

    return run


def register_candidates(sub: Any) -> None:
    """Add ``csp-sudoku candidates``."""
    p = sub.add_parser(
        "candidates",
        help="the digits each cell takes in some solution (f-puzzles variant puzzles)",
        description="For each variant puzzle (f-puzzles .json, .jsonl or a ?load= link), "
        "write the true candidates of every cell, row-major, separated by spaces "
        "('-' for a cell with none). Exit code: 0, or 2 on bad input.",
    )
    p.add_argument("inputs", nargs="+", metavar="FILE|URL")
    p.add_argument("--backend", default="sat", help="sat (default) or cpsat")
    p.add_argument("--cap", type=int, default=None, help="the most solver calls per puzzle")
    p.set_defaults(func=lambda args: run_variants("candidates", args))


def read_inputs(inputs: list[str]) -> Iterator[tuple[str, int, Any]]:
    """``(source, line, puzzle or ParseError)`` for every puzzle of the inputs."""
    from csp_sudoku.constraints import parse_fpuzzles

    for item in inputs:
        if "load=" in item or item.lstrip().startswith("{") or not os.path.exists(item):
            source = "<argument>"
            texts = [(1, item)]
        else:
            source = item
            with open(item, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if item.lower().endswith(".jsonl"):
                texts = [(k, t) for k, t in enumerate(text.splitlines(), 1) if t.strip()]
            else:
                texts = [(1, text)]
        for line, t in texts:
            try:
                yield source, line, parse_fpuzzles(t)
            except ParseError as err:
                yield source, line, err


def run_variants(command: str, args: argparse.Namespace) -> int:
    """Answer every variant puzzle of ``args.inputs`` for ``command``; the exit code."""
    from csp_sudoku import variants

    backend = getattr(args, "backend", "sat")
    if backend == "auto":
        backend = "sat"
    if backend not in variants.BACKENDS:
        print(f"csp-sudoku {command}: variant puzzles use --backend sat or cpsat", file=sys.stderr)
        return EXIT_BAD_INPUT
    missing = [i for i in args.inputs if _looks_like_file(i) and not os.path.exists(i)]
    if missing:
        print(f"csp-sudoku {command}: {missing[0]}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT
    code = EXIT_OK
    out = sys.stdout
    for source, line, puzzle in read_inputs(args.inputs):
        where = f"{source}:{line}"
        if isinstance(puzzle, ParseError):
            print(f"csp-sudoku {command}: {where}: {puzzle.describe()}", file=sys.stderr)
            code = EXIT_BAD_INPUT
            continue
        try:
            text, ok = _answer(command, puzzle, args, backend)
        except SudokuError as err:
            print(f"csp-sudoku {command}: {where}: {err}", file=sys.stderr)
            code = EXIT_BAD_INPUT
            continue
        print(f"{where}\t{text}", file=out)
        if not ok and code == EXIT_OK:
            code = EXIT_NOT_ALL
    return code


def _looks_like_file(item: str) -> bool:
    return "load=" not in item and not item.lstrip().startswith("{")


def _answer(command: str, puzzle: Any, args: argparse.Namespace, backend: str) -> tuple[str, bool]:
    """The row text of one puzzle and whether it counts as a success."""
    from csp_sudoku import variants
    from csp_sudoku.core.puzzle import format_line

    if command == "check":
        limit = max(2, getattr(args, "limit", 2))
        n = variants.count(puzzle, limit, backend=backend)
        verdict = "unique" if n == 1 else "none" if n == 0 else "multiple"
        shown = "" if limit == 2 else f" {n}{'+' if n >= limit else ''}"
        return f"{verdict}{shown}", n == 1
    if command == "count":
        limit = getattr(args, "limit", 1000)
        n = variants.count(puzzle, limit, backend=backend)
        return (f"{n}+" if n >= limit else str(n)), True
    if command == "solve":
        wanted = getattr(args, "all", 1)
        sols = variants.solutions(puzzle, max(2, wanted), backend=backend)
        if not sols:
            return "none", False
        lines = [format_line(s) for s in sols[:wanted]]
        status = "unique" if len(sols) == 1 else "multiple"
        return "\t".join([status, *lines]), len(sols) == 1
    cands = variants.candidates(puzzle, getattr(args, "cap", None), backend=backend)
    cells = [
        "".join(str(d + 1) for d in range(cands.shape[1]) if row[d]) or "-"
        for row in cands.tolist()
    ]
    return " ".join(cells), True
