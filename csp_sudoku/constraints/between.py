"""Between line: the digits inside the line lie strictly between the digits of its two ends."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class BetweenLine(base.LineConstraint):
    """Every inner cell of the line is strictly between the line's end cells (either way up)."""

    kind = "betweenline"
    shortest = 2
    style = base.LineStyle(base.GREY, 0.08)

    def draw(self, pen: base.Pen) -> None:
        super().draw(pen)
        for end in (self.cells[0], self.cells[-1]):
            pen.circle((end,), radius=0.38, fill="#ffffff", stroke=base.GREY, width=0.06)

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        n = cnf.size
        first, last = self.cells[0], self.cells[-1]
        out: base.Clauses = []
        for inner in self.cells[1:-1]:
            for a in range(1, n + 1):
                for b in range(1, n + 1):
                    for d in range(1, n + 1):
                        if not (a < d < b or b < d < a):
                            out.append([-cnf.var(first, a), -cnf.var(last, b), -cnf.var(inner, d)])
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        vs = base.cp_values(model, self.cells)
        if len(vs) < 3:
            return
        m = model.model
        up = m.new_bool_var("")  # the first end is the lower one
        for v in vs[1:-1]:
            m.add(vs[0] < v).only_enforce_if(up)
            m.add(v < vs[-1]).only_enforce_if(up)
            m.add(vs[0] > v).only_enforce_if(~up)
            m.add(v > vs[-1]).only_enforce_if(~up)

    def lower(self, low: base.Lowering) -> None:
        low.between(self.cells[0], self.cells[-1], self.cells[1:-1])

    def check(self, grid: base.Grid) -> bool:
        ds = [base.at(grid, c) for c in self.cells]
        low, high = sorted((ds[0], ds[-1]))
        return all(low < d < high for d in ds[1:-1])
