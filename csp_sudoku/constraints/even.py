"""Even cell: the cell holds an even digit."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints.parity import ParityCell


@dataclass(frozen=True)
class EvenCell(ParityCell):
    """The digit of ``cell`` is even."""

    kind = "even"
    remainder = 0

    def draw(self, pen: base.Pen) -> None:
        pen.square(self.cell, side=0.72, fill=base.GREY)
