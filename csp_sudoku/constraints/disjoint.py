"""Disjoint groups: the cells in the same place of every box hold different digits."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._groups import GroupRule
from csp_sudoku.core.geometry import STANDARD_BOXES

#: Pale colours, one for each place in a box (cycled beyond nine).
PALE = (
    "#fde2e2", "#fdf0d5", "#fdfbd5", "#e3f6dd", "#dcf3f3",
    "#dde8fb", "#e8e0fa", "#f8ddf3", "#ececec",
)  # fmt: skip


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

    def draw(self, pen: base.Pen) -> None:
        for k, group in enumerate(self.groups(pen.size)):
            for cell in group:
                pen.shade(cell, PALE[k % len(PALE)])

    def groups(self, size: int) -> list[tuple[base.Cell, ...]]:
        br, bc = STANDARD_BOXES[size]
        return [
            tuple((r0 + i, c0 + j) for r0 in range(0, size, br) for c0 in range(0, size, bc))
            for i in range(br)
            for j in range(bc)
        ]
