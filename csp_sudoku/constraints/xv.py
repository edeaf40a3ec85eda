"""XV: the two digits add up to 10 (an X) or to 5 (a V).

Its negative (``"xv"`` in the f-puzzles ``negative`` list): no two adjacent
cells without an X or a V add up to 10 or 5.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints._pairs import Dot, NoDot
from csp_sudoku.constraints.drawing import Pen
from csp_sudoku.core.errors import ParseError
from csp_sudoku.encodings.cpsat import SudokuModel

#: The letters and their sums.
LETTERS = {"X": 10, "V": 5}


@dataclass(frozen=True)
class XV(Dot):
    """The digits of ``a`` and ``b`` add up to ``value`` (10 for an X, 5 for a V)."""

    kind = "xv"
    value: int = 10
    any_value = False  # X or V, whatever the grid's size
    default = 10

    @staticmethod
    def holds(x: int, y: int, value: int) -> bool:
        return x + y == value

    @staticmethod
    def cp_holds(model: SudokuModel, x: Any, y: Any, value: int, holds: bool) -> None:
        model.model.add(x + y == value if holds else x + y != value)

    @classmethod
    def read_value(cls, value: Any) -> int:
        if not isinstance(value, str) or value.upper() not in LETTERS:
            raise ParseError(f"value: 'X' or 'V' was expected, not {value!r}")
        return LETTERS[value.upper()]

    def write_value(self) -> Any:
        return "X" if self.value == 10 else "V"

    def draw(self, pen: Pen) -> None:
        pen.letter(self.a, self.b, self.write_value())

    def validate(self, size: int) -> None:
        super().validate(size)
        if self.value not in LETTERS.values():
            raise ParseError(f"an XV sum of {self.value}; only 10 (X) and 5 (V)")


@dataclass(frozen=True)
class NoXV(NoDot):
    """No two adjacent cells without an X or a V add up to 10 or 5."""

    dot = XV
    values = (10, 5)
    note = "All X and V given: no other neighbours sum to 10 or 5"
