"""Black Kropki dot: one digit is the other times the dot's value (2 by default).

Its negative (``"ratio"`` in the f-puzzles ``negative`` list): no two
adjacent cells without a Kropki dot (black, or white: a 1-2 pair may show
either) hold digits in ratio 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints._pairs import KROPKI, Dot, NoDot
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class BlackDot(Dot):
    """One of the digits of ``a`` and ``b`` is ``value`` times the other."""

    kind = "ratio"
    family = KROPKI
    value: int = 2
    default = 2
    filled = True

    @staticmethod
    def holds(x: int, y: int, value: int) -> bool:
        return x == value * y or y == value * x

    @staticmethod
    def cp_holds(model: SudokuModel, x: Any, y: Any, value: int, holds: bool) -> None:
        m = model.model
        if holds:
            up = m.new_bool_var("")
            m.add(x == value * y).only_enforce_if(up)
            m.add(y == value * x).only_enforce_if(~up)
        else:
            m.add(x != value * y)
            m.add(y != value * x)


@dataclass(frozen=True)
class NoBlackDot(NoDot):
    """No two adjacent cells without a Kropki dot (black or white) hold digits in ratio 2."""

    dot = BlackDot
    note = "All black dots given: no other neighbours are in ratio 2"
