"""Disjoint groups: the cells in the same place of every box hold different digits."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._groups import GroupRule
from csp_sudoku.core.geometry import STANDARD_BOXES


@dataclass(frozen=True)
class DisjointGroups(GroupRule):
    """For each place inside a box, the digits at that place of the boxes differ.

    The boxes are the standard ones of the size (3x3 on 9x9, 2x3 on 6x6).
    """

    kind = "disjointgroups"

    def validate(self, size: int) -> None:
        if size not in STANDARD_BOXES:
            raise base.ParseError(
                f"disjoint groups need the standard boxes of a size; {size} has none"
            )

    def groups(self, size: int) -> list[tuple[base.Cell, ...]]:
        br, bc = STANDARD_BOXES[size]
        return [
            tuple((r0 + i, c0 + j) for r0 in range(0, size, br) for c0 in range(0, size, bc))
            for i in range(br)
            for j in range(bc)
        ]
