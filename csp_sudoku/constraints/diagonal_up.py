"""Positive diagonal (f-puzzles ``diagonal+``): the digits on the diagonal from the bottom left to the top right differ."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._groups import GroupRule

#: How both diagonals are drawn: a thin grey line from corner to corner.
DIAGONAL = base.LineStyle("#8c8c8c", 0.03)


@dataclass(frozen=True)
class DiagonalUp(GroupRule):
    """The digits of the rising diagonal (bottom left to top right) differ."""

    kind = "diagonal+"

    def groups(self, size: int) -> list[tuple[base.Cell, ...]]:
        return [tuple((size - 1 - i, i) for i in range(size))]

    def draw(self, pen: base.Pen) -> None:
        pen.segment((0.0, float(pen.size)), (float(pen.size), 0.0), DIAGONAL)
