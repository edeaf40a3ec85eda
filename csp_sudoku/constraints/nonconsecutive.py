"""Non-consecutive: no two cells side by side hold consecutive digits."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base
from csp_sudoku.constraints._global import MoveRule


@dataclass(frozen=True)
class NonConsecutive(MoveRule):
    """No two cells side by side hold consecutive digits."""

    kind = "nonconsecutive"
    steps = base.ORTHOGONAL
    gap = 1
    note = "Non-consecutive: neighbours are not consecutive"
