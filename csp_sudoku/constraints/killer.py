"""Killer cage: the digits of a cage differ and, when the cage has a sum, add up to it."""

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
    parse_int,
    sum_equals,
)
from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cpsat import SudokuModel


def _makeable(count: int, total: int, size: int) -> bool:
    """Whether ``count`` distinct digits of 1..size can add up to ``total``."""
    low = count * (count + 1) // 2
    high = count * (2 * size - count + 1) // 2
    return count <= size and low <= total <= high


@dataclass(frozen=True)
class KillerCage(Constraint):
    """The digits of ``cells`` differ and sum to ``total`` (no sum when None)."""

    kind = "killercage"
    cells: tuple[Cell, ...]
    total: int | None = None

    def footprint(self) -> tuple[Cell, ...]:
        return self.cells

    def validate(self, size: int) -> None:
        super().validate(size)
        no_repeats(self.cells, "cells")
        if len(self.cells) > size:
            raise ParseError(f"a cage of {len(self.cells)} cells cannot hold distinct digits")
        if self.total is not None and not _makeable(len(self.cells), self.total, size):
            raise ParseError(
                f"no {len(self.cells)} distinct digits of 1-{size} add up to {self.total}"
            )

    def clauses(self, cnf: Cnf) -> Clauses:
        out = distinct(cnf, self.cells)
        if self.total is not None:
            out.extend(sum_equals(cnf, self.cells, self.total))
        return out

    def add_to(self, model: SudokuModel) -> None:
        vs = cp_values(model, self.cells)
        model.model.add_all_different(vs)
        if self.total is not None:
            model.model.add(sum(vs) == self.total)

    def check(self, grid: Grid) -> bool:
        digits = [at(grid, c) for c in self.cells]
        if len(set(digits)) != len(digits):
            return False
        return self.total is None or sum(digits) == self.total

    @classmethod
    def read_entry(cls, entry: Any, geometry: Geometry) -> list[KillerCage]:
        got = fields(entry, ("cells",), ("value",))
        cells = tuple(parse_cells(got["cells"], geometry.size))
        value = got.get("value")
        total = None if value in (None, "") else parse_int(value)
        return [cls(cells, total)]

    def write_entry(self) -> Any:
        out: dict[str, Any] = {"cells": [name(c) for c in self.cells]}
        if self.total is not None:
            out["value"] = str(self.total)
        return out


__all__ = ["KillerCage"]
