"""Odd and even cells: the shared part of the two kinds (a cell whose digit has a parity)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class ParityCell(base.Constraint):
    """The digit of ``cell`` is odd (:attr:`remainder` 1) or even (0)."""

    cell: base.Cell

    remainder: ClassVar[int]

    def footprint(self) -> tuple[base.Cell, ...]:
        return (self.cell,)

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        return [[-cnf.var(self.cell, d)] for d in range(1, cnf.size + 1) if d % 2 != self.remainder]

    def add_to(self, model: base.SudokuModel) -> None:
        (v,) = base.cp_values(model, (self.cell,))
        r = model.model.new_int_var(0, 1, "")
        model.model.add_modulo_equality(r, v, 2)
        model.model.add(r == self.remainder)

    def lower(self, low: base.Lowering) -> None:
        low.only(self.cell, (d for d in range(1, low.size + 1) if d % 2 == self.remainder))

    def check(self, grid: base.Grid) -> bool:
        return base.at(grid, self.cell) % 2 == self.remainder

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[Any]:
        got = base.fields(entry, ("cell",))
        return [cls(base.parse_name(got["cell"], geometry.size))]

    def write_entry(self) -> Any:
        return {"cell": base.name(self.cell)}
