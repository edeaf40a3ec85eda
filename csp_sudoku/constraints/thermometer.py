"""Thermometer: digits strictly increase from the bulb (the line's first cell)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from csp_sudoku.constraints.base import (
    Clauses,
    Cnf,
    Grid,
    LineConstraint,
    at,
    cp_values,
    forbid_pairs,
)
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class Thermometer(LineConstraint):
    """Each cell of the line holds a greater digit than the cell before it."""

    kind = "thermometer"

    def clauses(self, cnf: Cnf) -> Clauses:
        out: Clauses = []
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            out.extend(forbid_pairs(cnf, a, b, lambda x, y: x < y))
        return out

    def add_to(self, model: SudokuModel) -> None:
        vs = cp_values(model, self.cells)
        for a, b in itertools.pairwise(vs):
            model.model.add(a < b)

    def check(self, grid: Grid) -> bool:
        ds = [at(grid, c) for c in self.cells]
        return all(a < b for a, b in itertools.pairwise(ds))
