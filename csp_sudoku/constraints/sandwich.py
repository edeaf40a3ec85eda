"""Sandwich sum: in a row or column, the digits between the 1 and the N (9) add up to the clue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class Sandwich(base.Constraint):
    """The digits strictly between the 1 and the largest digit of a line sum to ``total``.

    Attributes:
        column: True for a column (clue above or below the grid), False for a row.
        index: the row or column, 0-based.
        total: the sum (0: the 1 and the N are side by side).
    """

    kind = "sandwichsum"
    column: bool
    index: int
    total: int

    def line(self, size: int) -> tuple[base.Cell, ...]:
        """The cells of the row or column, in order."""
        if self.column:
            return tuple((r, self.index) for r in range(size))
        return tuple((self.index, c) for c in range(size))

    def validate(self, size: int) -> None:
        super().validate(size)  # the fields' types: a bool and two whole numbers
        if not 0 <= self.index < size:
            raise base.ParseError(
                f"{'column' if self.column else 'row'} {self.index + 1} is outside the grid"
            )
        most = size * (size - 1) // 2 - 1  # every digit but 1 and N
        if not 0 <= self.total <= most:
            raise base.ParseError(f"no digits between 1 and {size} add up to {self.total}")

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        n = cnf.size
        cells = self.line(n)
        out: base.Clauses = []
        for i in range(n):
            # the running sums rightwards from cell i serve every pair (i, j), j > i
            layers, clauses = base.sum_layers(cnf, cells[i + 1 : n - 1])
            out.extend(clauses)
            for j in range(i + 1, n):
                final = layers[j - i - 2] if j - i >= 2 else {}
                for one, big in ((i, j), (j, i)):
                    guard = [cnf.var(cells[one], 1), cnf.var(cells[big], n)]
                    out.extend(base.reject_sums(final, self.total, guard))
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        n = model.puzzle.geometry.size
        m = model.model
        vs = base.cp_values(model, self.line(n))
        # the places of the 1 and the N, and the digits strictly between them
        p1, pn = m.new_int_var(0, n - 1, ""), m.new_int_var(0, n - 1, "")
        m.add_element(p1, vs, 1)
        m.add_element(pn, vs, n)
        lo, hi = m.new_int_var(0, n - 1, ""), m.new_int_var(0, n - 1, "")
        m.add_min_equality(lo, [p1, pn])
        m.add_max_equality(hi, [p1, pn])
        inside = []
        for k, v in enumerate(vs):
            above, below, between = m.new_bool_var(""), m.new_bool_var(""), m.new_bool_var("")
            m.add(lo < k).only_enforce_if(above)
            m.add(lo >= k).only_enforce_if(~above)
            m.add(hi > k).only_enforce_if(below)
            m.add(hi <= k).only_enforce_if(~below)
            m.add_bool_and([above, below]).only_enforce_if(between)
            m.add_bool_or([~above, ~below, between])
            term = m.new_int_var(0, n, "")
            m.add(term == v).only_enforce_if(between)
            m.add(term == 0).only_enforce_if(~between)
            inside.append(term)
        m.add(sum(inside) == self.total)

    def draw(self, pen: base.Pen) -> None:
        pen.outside((-1, self.index) if self.column else (self.index, -1), str(self.total))

    def lower(self, low: base.Lowering) -> None:
        low.sandwich(self.line(low.size), self.total)

    def check(self, grid: base.Grid) -> bool:
        n = len(grid)
        ds = [base.at(grid, c) for c in self.line(n)]
        i, j = sorted((ds.index(1), ds.index(n)))
        return sum(ds[i + 1 : j]) == self.total

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[Sandwich]:
        got = base.fields(entry, ("cell", "value"))
        n = geometry.size
        r, c = base.parse_name(got["cell"], n, inside=False)
        if r in (-1, n) and 0 <= c < n:
            return [cls(True, c, base.parse_int(got["value"]))]
        if c in (-1, n) and 0 <= r < n:
            return [cls(False, r, base.parse_int(got["value"]))]
        raise base.ParseError(f"cell {got['cell']!r} is not a clue place beside a row or a column")

    def write_entry(self) -> Any:
        cell = (-1, self.index) if self.column else (self.index, -1)
        return {"cell": base.name(cell), "value": str(self.total)}
