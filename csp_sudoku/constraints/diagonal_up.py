"""Positive diagonal (f-puzzles ``diagonal+``): the digits on the diagonal from the bottom left to the top right differ."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._groups import GroupRule


@dataclass(frozen=True)
class DiagonalUp(GroupRule):
    """The digits of the rising diagonal (bottom left to top right) differ."""

    kind = "diagonal+"

    def groups(self, size: int) -> list[tuple[base.Cell, ...]]:
        return [tuple((size - 1 - i, i) for i in range(size))]
