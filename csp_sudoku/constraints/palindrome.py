"""Palindrome: the line reads the same both ways."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class Palindrome(base.LineConstraint):
    """Cell ``i`` and cell ``-1 - i`` of the line hold the same digit."""

    kind = "palindrome"
    style = base.LineStyle(base.GREY, 0.22)

    def _pairs(self) -> list[tuple[int, int]]:
        k = len(self.cells)
        return [(i, k - 1 - i) for i in range(k // 2)]

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        out: base.Clauses = []
        for i, j in self._pairs():
            a, b = self.cells[i], self.cells[j]
            for d in range(1, cnf.size + 1):
                out.append([-cnf.var(a, d), cnf.var(b, d)])
                out.append([cnf.var(a, d), -cnf.var(b, d)])
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        vs = base.cp_values(model, self.cells)
        for i, j in self._pairs():
            model.model.add(vs[i] == vs[j])

    def lower(self, low: base.Lowering) -> None:
        pairs = [(self.cells[i], self.cells[j]) for i, j in self._pairs()]
        low.relation(pairs, lambda x, y: x == y, "equal")

    def check(self, grid: base.Grid) -> bool:
        ds = [base.at(grid, c) for c in self.cells]
        return ds == ds[::-1]
