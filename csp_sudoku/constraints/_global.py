"""The shared shape of the rules that forbid a relation between cells a move apart.

Anti-knight, anti-king and non-consecutive: for every two cells a given move
apart (a knight's, a king's, a rook's single step), the digits must not keep
a relation (equal, or consecutive).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class MoveRule(base.GlobalRule):
    """No two cells one of :attr:`steps` apart hold digits that differ by :attr:`gap`."""

    steps: ClassVar[tuple[tuple[int, int], ...]]
    #: 0: the digits must differ; 1: they must not be consecutive.
    gap: ClassVar[int]

    def pairs(self, size: int) -> list[tuple[base.Cell, base.Cell]]:
        """The pairs of cells the rule binds on a ``size`` grid."""
        return base.neighbours(size, self.steps)

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        out: base.Clauses = []
        for a, b in self.pairs(cnf.size):
            out.extend(base.forbid_pairs(cnf, a, b, lambda x, y: abs(x - y) != self.gap))
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        n = model.puzzle.geometry.size
        m = model.model
        for a, b in self.pairs(n):
            x, y = base.cp_values(model, (a, b))
            if self.gap == 0:
                m.add(x != y)
            else:
                diff = m.new_int_var(0, n, "")
                m.add_abs_equality(diff, x - y)
                m.add(diff != self.gap)

    def lower(self, low: base.Lowering) -> None:
        if self.gap == 0:
            low.differ(self.pairs(low.size))
        else:
            low.relation(self.pairs(low.size), lambda x, y: abs(x - y) != self.gap, self.kind)

    def check(self, grid: base.Grid) -> bool:
        return all(
            abs(base.at(grid, a) - base.at(grid, b)) != self.gap for a, b in self.pairs(len(grid))
        )
