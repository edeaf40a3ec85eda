"""The shared shape of the global rules made of groups whose digits differ (diagonals, disjoint groups)."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints.base import (
    Cell,
    Clauses,
    Cnf,
    GlobalRule,
    Grid,
    at,
    cp_values,
    distinct,
)
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class GroupRule(GlobalRule):
    """The digits of each of :meth:`groups` differ."""

    def groups(self, size: int) -> list[tuple[Cell, ...]]:
        """The groups of cells the rule binds on a ``size`` grid."""
        raise NotImplementedError

    def clauses(self, cnf: Cnf) -> Clauses:
        out: Clauses = []
        for group in self.groups(cnf.size):
            out.extend(distinct(cnf, group))
        return out

    def add_to(self, model: SudokuModel) -> None:
        for group in self.groups(model.puzzle.geometry.size):
            model.model.add_all_different(cp_values(model, group))

    def check(self, grid: Grid) -> bool:
        for group in self.groups(len(grid)):
            digits = [at(grid, c) for c in group]
            if len(set(digits)) != len(digits):
                return False
        return True
