"""SlowThermometer: digits never decrease from the bulb (the line's first cell)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base
from csp_sudoku.constraints.thermometer import draw_thermometer


@dataclass(frozen=True)
class SlowThermometer(base.NeighbourLine):
    """Each cell of the line holds a digit at least that of the cell before it."""

    kind = "slowthermometer"

    def keeps(self, x: int, y: int, size: int) -> bool:
        return x <= y

    def cp_keep(self, model: base.SudokuModel, x: Any, y: Any) -> None:
        model.model.add(x <= y)

    def draw(self, pen: base.Pen) -> None:
        draw_thermometer(pen, self.cells, hollow=True)  # an outline: a slow one
