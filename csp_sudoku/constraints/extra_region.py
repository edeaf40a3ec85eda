"""Extra region: the digits of a given set of cells differ (a unit when it has N cells)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints.base import (
    Cell,
    Clauses,
    Cnf,
    Constraint,
    Grid,
    at,
    cp_values,
    distinct,
    fields,
    name,
    no_repeats,
    parse_cells,
)
from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class ExtraRegion(Constraint):
    """The digits of ``cells`` differ."""

    kind = "extraregion"
    cells: tuple[Cell, ...]

    def footprint(self) -> tuple[Cell, ...]:
        return self.cells

    def validate(self, size: int) -> None:
        super().validate(size)
        no_repeats(self.cells, "cells")
        if len(self.cells) > size:
            raise ParseError(f"a region of {len(self.cells)} cells cannot hold distinct digits")

    def clauses(self, cnf: Cnf) -> Clauses:
        return distinct(cnf, self.cells)

    def add_to(self, model: SudokuModel) -> None:
        model.model.add_all_different(cp_values(model, self.cells))

    def check(self, grid: Grid) -> bool:
        digits = [at(grid, c) for c in self.cells]
        return len(set(digits)) == len(digits)

    @classmethod
    def read_entry(cls, entry: Any, geometry: Geometry) -> list[ExtraRegion]:
        got = fields(entry, ("cells",))
        return [cls(tuple(parse_cells(got["cells"], geometry.size)))]

    def write_entry(self) -> Any:
        return {"cells": [name(c) for c in self.cells]}
