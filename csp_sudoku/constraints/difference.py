"""White Kropki dot: the two digits differ by the dot's value (1, consecutive, by default).

Its negative (``"difference"`` in the f-puzzles ``negative`` list): no two
adjacent cells without a Kropki dot (white, or black: a 1-2 pair may show
either) hold consecutive digits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints._pairs import KROPKI, Dot, NoDot
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class WhiteDot(Dot):
    """The digits of ``a`` and ``b`` differ by ``value``."""

    kind = "difference"
    family = KROPKI
    value: int = 1

    @staticmethod
    def holds(x: int, y: int, value: int) -> bool:
        return abs(x - y) == value

    @staticmethod
    def cp_holds(model: SudokuModel, x: Any, y: Any, value: int, holds: bool) -> None:
        n = model.puzzle.geometry.size
        diff = model.model.new_int_var(0, n, "")
        model.model.add_abs_equality(diff, x - y)
        model.model.add(diff == value if holds else diff != value)


@dataclass(frozen=True)
class NoWhiteDot(NoDot):
    """No two adjacent cells without a Kropki dot (white or black) hold consecutive digits."""

    dot = WhiteDot
    note = "All white dots given: no other neighbours are consecutive"
