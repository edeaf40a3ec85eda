"""The variant puzzle: a geometry, its givens and a tuple of constraints."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from csp_sudoku.constraints.base import Constraint
from csp_sudoku.constraints.registry import KINDS, order
from csp_sudoku.core.errors import ParseError
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
        ParseError: a constraint of an unregistered kind, or one that cannot be on
            this grid (its message names ``constraints[i]`` and the kind).
    """

    puzzle: Puzzle
    constraints: tuple[Constraint, ...] = ()
    title: str = field(default="")
    author: str = field(default="")
    rules: str = field(default="")

    def __post_init__(self) -> None:
        size = self.puzzle.geometry.size
        for i, c in enumerate(self.constraints):
            if not isinstance(c, Constraint) or KINDS.get(c.kind) is not type(c):
                raise ParseError(f"constraints[{i}]: {c!r} is not a registered constraint kind")
            try:
                c.validate(size)
            except ParseError as err:
                raise ParseError(f"constraints[{i}] ({c.kind}): {err.reason}") from None
        ordered = tuple(sorted(self.constraints, key=lambda c: order(c.kind)))
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
        line was read as one cell and answered False.
        """
        g = self.geometry
        if isinstance(grid, str):
            from csp_sudoku.core.io import parse

            grid = parse(grid, g)
        if isinstance(grid, Puzzle):
            grid = grid.cells
        flat = np.asarray(grid, dtype=np.int64).reshape(-1)
        if flat.size != g.ncells:
            return False
        if not is_solution(Puzzle(flat, g), self.puzzle):
            return False
        rows = flat.reshape(g.size, g.size).tolist()
        return all(c.check(rows) for c in self.constraints)
