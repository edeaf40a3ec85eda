"""Negative diagonal (f-puzzles ``diagonal-``): the digits on the diagonal from the top left to the bottom right differ."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints._groups import GroupRule
from csp_sudoku.constraints.base import Cell


@dataclass(frozen=True)
class DiagonalDown(GroupRule):
    """The digits of the falling diagonal (top left to bottom right) differ."""

    kind = "diagonal-"

    def groups(self, size: int) -> list[tuple[Cell, ...]]:
        return [tuple((i, i) for i in range(size))]
