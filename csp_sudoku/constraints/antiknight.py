"""Anti-knight: no two cells a knight's move apart hold the same digit."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._global import MoveRule


@dataclass(frozen=True)
class AntiKnight(MoveRule):
    """No two cells a knight's move apart hold the same digit."""

    kind = "antiknight"
    steps = base.KNIGHT
    gap = 0
    note = "Anti-knight: cells a knight's move apart differ"
