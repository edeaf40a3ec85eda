"""German whispers: neighbours along the line differ by 5 or more (on 9x9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base


def gap(size: int) -> int:
    """The least difference of neighbours on a whispers line: 5 on 9x9, ``ceil(N / 2)``."""
    return (size + 1) // 2


@dataclass(frozen=True)
class Whispers(base.NeighbourLine):
    """Neighbouring cells of the line differ by at least :func:`gap` of the size."""

    kind = "whispers"
    shortest = 2
    style = base.LineStyle("#67f067", 0.22)

    def keeps(self, x: int, y: int, size: int) -> bool:
        return abs(x - y) >= gap(size)

    def cp_keep(self, model: base.SudokuModel, x: Any, y: Any) -> None:
        g = gap(model.puzzle.geometry.size)
        diff = model.model.new_int_var(0, g * 4, "")
        model.model.add_abs_equality(diff, x - y)
        model.model.add(diff >= g)
