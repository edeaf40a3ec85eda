"""Thermometer: digits strictly increase from the bulb (the line's first cell)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base

#: The bulb's radius and the tube's width, in cells.
BULB = 0.38
TUBE = 0.3


def draw_thermometer(pen: base.Pen, cells: tuple[base.Cell, ...], *, hollow: bool) -> None:
    """A grey bulb in the first cell and a thick grey tube through the others.

    ``hollow``: a white inside, leaving a grey outline (a slow thermometer).
    """
    pen.circle(cells[:1], radius=BULB, fill=base.GREY)
    pen.line(cells, base.LineStyle(base.GREY, TUBE))
    if hollow:
        pen.circle(cells[:1], radius=BULB - 0.07, fill="#ffffff")
        pen.line(cells, base.LineStyle("#ffffff", TUBE - 0.14))


@dataclass(frozen=True)
class Thermometer(base.NeighbourLine):
    """Each cell of the line holds a greater digit than the cell before it."""

    kind = "thermometer"

    def keeps(self, x: int, y: int, size: int) -> bool:
        return x < y

    def cp_keep(self, model: base.SudokuModel, x: Any, y: Any) -> None:
        model.model.add(x < y)

    def draw(self, pen: base.Pen) -> None:
        draw_thermometer(pen, self.cells, hollow=False)
