"""Negative diagonal (f-puzzles ``diagonal-``): the digits on the diagonal from the top left to the bottom right differ."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._groups import GroupRule
from csp_sudoku.constraints.diagonal_up import DIAGONAL


@dataclass(frozen=True)
class DiagonalDown(GroupRule):
    """The digits of the falling diagonal (top left to bottom right) differ."""

    kind = "diagonal-"

    def groups(self, size: int) -> list[tuple[base.Cell, ...]]:
        return [tuple((i, i) for i in range(size))]

    def draw(self, pen: base.Pen) -> None:
        pen.segment((0.0, 0.0), (float(pen.size), float(pen.size)), DIAGONAL)
