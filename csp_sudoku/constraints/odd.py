"""Odd cell: the cell holds an odd digit."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints.parity import ParityCell


@dataclass(frozen=True)
class OddCell(ParityCell):
    """The digit of ``cell`` is odd."""

    kind = "odd"
    remainder = 1

    def draw(self, pen: base.Pen) -> None:
        pen.circle((self.cell,), radius=0.38, fill=base.GREY, layer=base.Layer.UNDER)
