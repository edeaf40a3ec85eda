"""Anti-king: no two cells a king's move apart hold the same digit."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints._global import MoveRule
from csp_sudoku.constraints.base import KING


@dataclass(frozen=True)
class AntiKing(MoveRule):
    """No two cells a king's move apart hold the same digit."""

    kind = "antiking"
    steps = KING
    gap = 0
