"""Odd and even cells: the shared part of the two kinds (a cell whose digit has a parity)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from csp_sudoku.constraints.base import (
    Cell,
    Clauses,
    Cnf,
    Constraint,
    Grid,
    at,
    cp_values,
    fields,
    name,
    parse_name,
)
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class ParityCell(Constraint):
    """The digit of ``cell`` is odd (:attr:`remainder` 1) or even (0)."""

    cell: Cell

    remainder: ClassVar[int]

    def footprint(self) -> tuple[Cell, ...]:
        return (self.cell,)

    def clauses(self, cnf: Cnf) -> Clauses:
        return [[-cnf.var(self.cell, d)] for d in range(1, cnf.size + 1) if d % 2 != self.remainder]

    def add_to(self, model: SudokuModel) -> None:
        (v,) = cp_values(model, (self.cell,))
        r = model.model.new_int_var(0, 1, "")
        model.model.add_modulo_equality(r, v, 2)
        model.model.add(r == self.remainder)

    def check(self, grid: Grid) -> bool:
        return at(grid, self.cell) % 2 == self.remainder

    @classmethod
    def read_entry(cls, entry: Any, geometry: Geometry) -> list[Any]:
        got = fields(entry, ("cell",))
        return [cls(parse_name(got["cell"], geometry.size))]

    def write_entry(self) -> Any:
        return {"cell": name(self.cell)}
