"""How ``explain`` writes one explained path, for the classic run and the variant one.

:func:`shown` does both of these: :func:`draw_path` draws it where ``--html`` and ``--svg`` say (``--html -``:
the page on standard output, in place of the text);
:func:`show_path` prints it: its JSON object with ``--json`` (one a line),
else its text, a blank line between two puzzles' texts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from csp_sudoku.human.path import SolvePath
    from csp_sudoku.metrics.se import SePath
    from csp_sudoku.tools.explain_view import Drawable
    from csp_sudoku.variants.explain import VariantPath


def svg_refusal(args: argparse.Namespace) -> str | None:
    """Why ``--svg`` cannot be written (it names a file, not a folder), or None:
    asked before any work, so a run that cannot write its images does none."""
    svg = getattr(args, "svg", None)
    if svg is not None and os.path.exists(svg) and not os.path.isdir(svg):
        return f"--svg {svg}: is a file; --svg takes a folder to write the step images into"
    if args.indent is not None and not args.json:
        return "--indent indents the JSON that --json writes: add --json, or leave --indent out"
    if args.html == "-" and args.json:
        return (
            "--html - writes the page to standard output, and --json the path: "
            "write the page to a file (--html FILE), or leave --json out"
        )
    return None


def one_puzzle_options(args: argparse.Namespace) -> list[str]:
    """The options given that take one puzzle: ``--html`` and ``--svg`` draw one path, and
    ``--indent``'s JSON is one document (several would be neither JSON nor JSON Lines)."""
    given = {"--html": args.html, "--svg": getattr(args, "svg", None), "--indent": args.indent}
    return [flag for flag, value in given.items() if value is not None]


def one_puzzle_refusal(args: argparse.Namespace, count: int) -> str | None:
    """Why the input's ``count`` puzzles do not fit :func:`one_puzzle_options`, or None."""
    given = one_puzzle_options(args)
    if count <= 1 or not given:
        return None
    verb = "takes" if len(given) == 1 else "take"
    return (
        f"{' and '.join(given)} {verb} one puzzle; the input holds {count} entries: nothing "
        "was written (explain them one at a time)"
    )


def draw_path(
    args: argparse.Namespace, view: SePath | SolvePath, constraints: Sequence[Drawable] = ()
) -> str | None:
    """Draw ``view`` where ``--html`` and ``--svg`` say (``constraints``: a variant
    puzzle's, drawn on the page and on every step's image); why a file cannot be
    written, or None."""
    from csp_sudoku.tools.explain_view import html_page, write_html, write_svgs

    try:
        if args.html == "-":  # the page is the run's output (show_path prints no text)
            sys.stdout.write(html_page(view, constraints=constraints))
        elif args.html:
            write_html(view, args.html, constraints=constraints)
        if getattr(args, "svg", None):
            write_svgs(view, args.svg, constraints=constraints)
    except (OSError, ValueError) as exc:
        return f"cannot write: {exc}"
    return None


def show_path(
    args: argparse.Namespace,
    path: SePath | SolvePath | VariantPath,
    text: Callable[[], str],
    first: bool,
) -> None:
    """Print one explained path: its JSON object with ``--json``, else ``text()`` (made
    only then), with a blank line before every text but the first; nothing with
    ``--html -``, whose page is on standard output."""
    if args.html == "-":
        return
    if args.json:
        print(json.dumps(path.to_dict(), indent=args.indent))
    else:
        if not first:
            print()
        print(text())


def shown(
    args: argparse.Namespace,
    path: SePath | SolvePath | VariantPath,
    text: Callable[[], str],
    first: bool,
    view: Callable[[], SePath | SolvePath],
    constraints: Sequence[Drawable] = (),
) -> str | None:
    """Draw a path where ``--html`` and ``--svg`` say (:func:`draw_path` of ``view()``:
    a classic path itself, a variant one's classic view drawn with its
    ``constraints``), then print it (:func:`show_path`, ``text()`` its text); why a
    drawing could not be written (nothing printed then), or None."""
    if args.html or getattr(args, "svg", None):
        why = draw_path(args, view(), constraints)
        if why is not None:
            return why
    show_path(args, path, text, first)
    return None
