"""The puzzle arguments of the tools' functions, read alike and refused alike.

The tools (:mod:`~csp_sudoku.tools.bank`, :mod:`~csp_sudoku.tools.render`,
:mod:`~csp_sudoku.tools.certify`) take what :data:`csp_sudoku.api.PuzzleLike`
documents wherever they take a puzzle: a :class:`Puzzle`, a puzzle line or
grid text, or an array of cell values (the drawing and certifying ones take a
:class:`~csp_sudoku.constraints.VariantPuzzle` too). Anything else, and text
that is no puzzle, is an :class:`ArgumentError` naming the argument
(``puzzles[2]``, ``solution``), never the ``AttributeError`` or ``TypeError``
that reading a field of the wrong object raised deep inside.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from csp_sudoku.core.errors import ArgumentError, ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import check_many
from csp_sudoku.core.puzzle import Puzzle

if TYPE_CHECKING:  # importing the constraints loads OR-tools: only when a variant is met
    from csp_sudoku.constraints import VariantPuzzle

#: What a puzzle argument may be, said in the messages of those that are none.
_PLAIN = "a Puzzle, a puzzle line or an array of cell values"


def _hint(item: object) -> str:
    """`` (pass its .puzzle)`` for an object that holds a puzzle (a generated one's
    record), so that the message says how to get from it to what is taken."""
    return " (pass its .puzzle)" if isinstance(getattr(item, "puzzle", None), Puzzle) else ""


def puzzle_arg(item: Any, what: str, geometry: Geometry | None = None) -> Puzzle:
    """``item`` as a :class:`Puzzle`: a Puzzle (as it is), a puzzle line or grid
    text, or an array of cell values (read by :func:`csp_sudoku.api.as_puzzle`,
    in ``geometry`` when given).

    Raises:
        ArgumentError: naming ``what`` when ``item`` is none of these (or text that is
            no puzzle: the parser's reason is kept).
    """
    if isinstance(item, Puzzle):
        return item
    if not isinstance(item, (str, np.ndarray, list, tuple)):
        raise ArgumentError(f"{what} must be {_PLAIN}, got {type(item).__name__}{_hint(item)}")
    from csp_sudoku.api import as_puzzle

    try:
        return as_puzzle(item, geometry)
    except (ParseError, TypeError, ValueError) as err:
        raise ArgumentError(f"{what} is not a puzzle: {err}") from None


def plain_or_variant(item: Any, what: str) -> Puzzle | VariantPuzzle:
    """``item`` as a plain puzzle (:func:`puzzle_arg`) or, when it is one, a
    :class:`~csp_sudoku.constraints.VariantPuzzle` as it is: what can be drawn
    or certified.

    The constraints (and OR-tools with them) are imported only for an item that
    is neither a :class:`Puzzle` nor puzzle text or cells.

    Raises:
        ArgumentError: naming ``what`` when ``item`` is none of these.
    """
    if isinstance(item, (Puzzle, str, np.ndarray, list, tuple)):
        return puzzle_arg(item, what)
    from csp_sudoku.constraints import VariantPuzzle

    if isinstance(item, VariantPuzzle):
        return item
    raise ArgumentError(
        f"{what} must be a VariantPuzzle or {_PLAIN}, got {type(item).__name__}{_hint(item)}"
    )


def items_arg(items: Any, what: str) -> list[Any]:
    """The items of an argument that holds several puzzles, as a list (an iterator
    is read once).

    Raises:
        ArgumentError: naming ``what`` for a text (it was read letter by letter, each
            letter a puzzle), a single puzzle, or what is not iterable (``None``).
    """
    check_many(items, what)
    return list(cast("Iterable[Any]", items))
