"""Renban: the line holds a set of consecutive digits, in any order, none twice."""

from __future__ import annotations

from dataclasses import dataclass

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class Renban(base.LineConstraint):
    """The digits of the line differ and form a run ``s, s+1, ..., s+k-1``."""

    kind = "renban"
    style = base.LineStyle("#f067f0", 0.22)

    def validate(self, size: int) -> None:
        super().validate(size)
        if len(self.cells) > size:
            raise base.ParseError(
                f"a renban line of {len(self.cells)} cells on a {size}x{size} grid"
            )

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        n, k = cnf.size, len(self.cells)
        out = base.distinct(cnf, self.cells)
        starts = []
        for s in range(1, n - k + 2):
            y = cnf.new()  # the run starts at s
            starts.append(y)
            for c in self.cells:
                out.extend([-y, -cnf.var(c, d)] for d in range(1, n + 1) if not s <= d < s + k)
        out.append(starts)
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        n = model.puzzle.geometry.size
        vs = base.cp_values(model, self.cells)
        m = model.model
        m.add_all_different(vs)
        low, high = m.new_int_var(1, n, ""), m.new_int_var(1, n, "")
        m.add_min_equality(low, vs)
        m.add_max_equality(high, vs)
        m.add(high - low == len(vs) - 1)

    def lower(self, low: base.Lowering) -> None:
        k = len(self.cells)  # the runs s..s+k-1, each a set of distinct digits
        runs = [range(s, s + k) for s in range(1, low.size - k + 2)]
        low.combination(self.cells, runs)

    def check(self, grid: base.Grid) -> bool:
        ds = [base.at(grid, c) for c in self.cells]
        return len(set(ds)) == len(ds) and max(ds) - min(ds) == len(ds) - 1
