"""Little killer: the digits along a diagonal add up to the clue outside the grid (digits may repeat)."""

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
    fields,
    name,
    no_repeats,
    parse_cells,
    parse_int,
    parse_name,
    sum_equals,
)
from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cpsat import SudokuModel

DIRECTIONS = ("UL", "UR", "DL", "DR")


@dataclass(frozen=True)
class LittleKiller(Constraint):
    """The digits of ``cells`` (a diagonal) add up to ``total``.

    Attributes:
        cells: the diagonal's cells, from the clue inwards.
        total: the sum.
        clue: where f-puzzles draws the clue (``R0C3``: outside the grid), kept as written.
        direction: the arrow's direction from the clue (``UL``, ``UR``, ``DL``, ``DR``).
    """

    kind = "littlekillersum"
    cells: tuple[Cell, ...]
    total: int
    clue: str = ""
    direction: str = "DR"

    def footprint(self) -> tuple[Cell, ...]:
        return self.cells

    def validate(self, size: int) -> None:
        super().validate(size)
        no_repeats(self.cells, "cells")
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            if abs(a[0] - b[0]) != 1 or abs(a[1] - b[1]) != 1:
                raise ParseError(f"cells {name(a)} and {name(b)} are not diagonal neighbours")
        if self.direction not in DIRECTIONS:
            raise ParseError(f"direction: one of {', '.join(DIRECTIONS)}, not {self.direction!r}")
        if not len(self.cells) <= self.total <= len(self.cells) * size:
            raise ParseError(
                f"no digits of 1-{size} in {len(self.cells)} cells add up to {self.total}"
            )

    def clauses(self, cnf: Cnf) -> Clauses:
        return sum_equals(cnf, self.cells, self.total)

    def add_to(self, model: SudokuModel) -> None:
        model.model.add(sum(cp_values(model, self.cells)) == self.total)

    def check(self, grid: Grid) -> bool:
        return sum(at(grid, c) for c in self.cells) == self.total

    @classmethod
    def read_entry(cls, entry: Any, geometry: Geometry) -> list[LittleKiller]:
        got = fields(entry, ("cells", "value"), ("cell", "direction"))
        cells = tuple(parse_cells(got["cells"], geometry.size))
        clue = got.get("cell", "")
        if clue != "":
            parse_name(clue, geometry.size, inside=False)
        direction = got.get("direction", "DR")
        if not isinstance(direction, str):
            raise ParseError(f"direction: one of {', '.join(DIRECTIONS)}, not {direction!r}")
        return [cls(cells, parse_int(got["value"]), str(clue), direction)]

    def write_entry(self) -> Any:
        out: dict[str, Any] = {"cells": [name(c) for c in self.cells], "value": str(self.total)}
        if self.clue:
            out["cell"] = self.clue
        out["direction"] = self.direction
        return out
