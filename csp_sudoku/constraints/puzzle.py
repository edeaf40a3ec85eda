"""The variant puzzle: a geometry, its givens and a tuple of constraints."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.constraints.base import Constraint, shown
from csp_sudoku.constraints.registry import KINDS, order
from csp_sudoku.core.errors import ArgumentError, ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.verify import is_solution


@dataclass(frozen=True)
class VariantPuzzle:
    """A Sudoku with constraints beyond its units.

    The constraints are kept sorted by kind (the order of
    :data:`csp_sudoku.constraints.registry.KINDS`; within a kind, as given), so
    two puzzles with the same constraints in another order of kinds are equal.

    Args:
        puzzle: the geometry and the givens.
        constraints: the constraints (each checked against the grid's size).
        title: the f-puzzles ``title``, kept for writing back.
        author: the f-puzzles ``author``.
        rules: the f-puzzles ``ruleset`` (the setter's wording of the rules).

    Raises:
        ArgumentError: ``puzzle`` is not a :class:`Puzzle`, ``constraints`` is not a
            sequence (a list is taken as a tuple), or a text is not a string.
        ParseError: a constraint of an unregistered kind, or one that cannot be on
            this grid, a field of the wrong type included, or a field the reader
            derives from the grid's regions that is not what it derives (a region-sum
            line's stretches: :meth:`Constraint.validate_on`); its message names
            ``constraints[i]`` and the kind.
    """

    puzzle: Puzzle
    constraints: tuple[Constraint, ...] = ()
    title: str = field(default="")
    author: str = field(default="")
    rules: str = field(default="")

    def __post_init__(self) -> None:
        # the arguments' types first: a string for the puzzle, None for the constraints
        # raised AttributeError and TypeError from deep inside
        if not isinstance(self.puzzle, Puzzle):
            raise ArgumentError(
                "puzzle: a Puzzle was expected (csp_sudoku.Puzzle(cells), csp_sudoku.parse"
                f"(line)), not {shown(self.puzzle)}"
            )
        given: Any = self.constraints
        if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Iterable):
            raise ArgumentError(
                f"constraints: a tuple (or list) of constraints was expected, not {shown(given)}"
            )
        constraints = tuple(given)
        for text in ("title", "author", "rules"):
            value = getattr(self, text)
            if not isinstance(value, str):
                raise ArgumentError(f"{text}: a string was expected, not {shown(value)}")
        size = self.puzzle.geometry.size
        for i, c in enumerate(constraints):
            if not isinstance(c, Constraint) or KINDS.get(c.kind) is not type(c):
                raise ParseError(f"constraints[{i}]: {c!r} is not a registered constraint kind")
            try:
                c.validate(size)
                c.validate_on(self.puzzle.geometry)
            except ParseError as err:
                raise ParseError(f"constraints[{i}] ({c.kind}): {err.reason}") from None
        ordered = tuple(sorted(constraints, key=lambda c: order(c.kind)))
        object.__setattr__(self, "constraints", ordered)

    @property
    def geometry(self) -> Geometry:
        """The shape (units) of the puzzle."""
        return self.puzzle.geometry

    def kinds(self) -> list[str]:
        """The kinds of the puzzle's constraints, each once, in registry order."""
        return list(dict.fromkeys(c.kind for c in self.constraints))

    def keeps(self, grid: object) -> bool:
        """Whether a full grid keeps the units, the givens and every constraint.

        ``grid``: a :class:`Puzzle` (what the solvers return), a grid's line of
        digits, or its cells (flat or ``N x N``). A Puzzle raised TypeError, and a
        line was read as one cell and answered False. A grid of another size, or
        with a digit outside 1..N, is kept by none (False).

        Raises:
            ArgumentError: ``grid`` is no grid (None, ragged rows, values that are
                not whole numbers): it raised TypeError or ValueError from numpy.
        """
        g = self.geometry
        if isinstance(grid, str):
            from csp_sudoku.core.io import parse

            grid = parse(grid, g)
        if isinstance(grid, Puzzle):
            grid = grid.cells
        flat = _digits(grid)
        if flat.size != g.ncells or flat.min() < 1 or flat.max() > g.size:
            return False  # another size, or a digit no cell can hold
        if not is_solution(Puzzle(flat, g), self.puzzle):
            return False
        rows = flat.reshape(g.size, g.size).tolist()
        return all(c.check(rows) for c in self.constraints)


def _digits(grid: object) -> NDArray[np.int64]:
    """The flat digits of a grid's cells, or :class:`ArgumentError` when it is no grid."""
    bad = ArgumentError(
        "grid: a Puzzle, a line of digits, or the cells (flat or N x N) of a grid of "
        f"whole numbers was expected, not {shown(grid)}"
    )
    if grid is None or isinstance(grid, (bytes, Mapping)):
        raise bad
    try:
        arr = np.asarray(grid)
    except (ValueError, TypeError):  # ragged rows: numpy's "inhomogeneous shape"
        raise bad from None
    whole = arr.dtype.kind in "iu" or (  # whole floats, as a Puzzle takes them
        arr.dtype.kind == "f" and bool(np.all(np.isfinite(arr))) and bool(np.all(arr % 1 == 0))
    )
    if not whole:
        raise bad
    return arr.astype(np.int64).reshape(-1)
