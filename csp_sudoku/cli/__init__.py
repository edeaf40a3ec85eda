"""The ``csp-sudoku`` command line. The only part of csp_sudoku that prints.

Each subcommand lives in a module of its own in this package exposing
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed arguments and returning the exit code). To add a command,
write the module and add its name to :data:`SUBCOMMANDS`.

Exit codes: 0 success (for ``check``: every puzzle unique), 1 a puzzle is not
unique / a target was not met, 2 bad input or usage, 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from csp_sudoku.errors import SudokuError

#: Subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS: tuple[str, ...] = (
    "check",
    "solve",
    "explain",
    "rate",
    "generate",
    "minimize",
    "export",
    "render",
    "report",
    "bank",
)

EXIT_OK = 0
EXIT_NOT_ALL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and a one-line message on usage errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser with every registered subcommand (or just ``only``, when given).

    A subcommand's module imports what the command needs, so registering one
    command only keeps the other commands' dependencies (the human model,
    the generators, python-sat ...) out of a short run's start-up.
    """
    from csp_sudoku import __version__

    parser = _Parser(
        prog="csp-sudoku",
        description="Check, solve, rate, explain and generate Sudoku puzzles.",
    )
    parser.add_argument("--version", action="version", version=f"csp-sudoku {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in SUBCOMMANDS if only is None else (only,):
        importlib.import_module(f"csp_sudoku.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``csp-sudoku`` script; returns the exit code."""
    args_list = sys.argv[1:] if argv is None else list(argv)
    # ``csp-sudoku CMD ...`` needs CMD's parser only: the top-level parser has no
    # option taking a value, so a first argument naming a command is the command
    first = args_list[0] if args_list else None
    parser = build_parser(first if first in SUBCOMMANDS else None)
    args = parser.parse_args(args_list)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        print("csp-sudoku: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader (e.g. `head`) went away: not an error of ours
        sys.stderr.close()
        return EXIT_OK
    except SudokuError as err:
        print(f"csp-sudoku: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as err:
        print(f"csp-sudoku: error: {err.strerror or err}: {err.filename or ''}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
