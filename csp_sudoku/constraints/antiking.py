"""Anti-king: no two cells a king's move apart hold the same digit."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._global import MoveRule


@dataclass(frozen=True)
class AntiKing(MoveRule):
    """No two cells a king's move apart hold the same digit."""

    kind = "antiking"
    steps = base.KING
    gap = 0
    note = "Anti-king: cells a king's move apart differ"
