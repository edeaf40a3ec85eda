"""Little killer: the digits along a diagonal add up to the clue outside the grid (digits may repeat)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base

DIRECTIONS = ("UL", "UR", "DL", "DR")
#: The ``(row, column)`` step of each direction.
STEPS = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}


@dataclass(frozen=True)
class LittleKiller(base.Constraint):
    """The digits of ``cells`` (a diagonal) add up to ``total``.

    Attributes:
        cells: the diagonal's cells, from the clue inwards.
        total: the sum.
        clue: the f-puzzles name of the clue's cell, kept as written: :meth:`place`, one
            step outside the grid (``R0C3`` for a diagonal from ``R1C4`` going ``DR``), or
            empty for there.
        direction: the arrow's direction from the clue (``UL``, ``UR``, ``DL``, ``DR``).
    """

    kind = "littlekillersum"
    cells: tuple[base.Cell, ...]
    total: int
    clue: str = ""
    direction: str = "DR"

    def footprint(self) -> tuple[base.Cell, ...]:
        return self.cells

    def validate(self, size: int) -> None:
        """Also refuse a diagonal of no cells, cells out of :attr:`direction`'s order,
        a clue anywhere but :meth:`place` (one step outside the grid): f-puzzles
        puts it there, and a clue elsewhere was drawn wherever it named; and cells
        that stop short of the grid's far edge: the clue sums its whole diagonal,
        so a shorter one was another puzzle than the one drawn."""
        super().validate(size)
        if not self.cells:
            raise base.ParseError("cells: a little killer of no cells")
        base.no_repeats(self.cells, "cells")
        if self.direction not in DIRECTIONS:
            raise base.ParseError(
                f"direction: one of {', '.join(DIRECTIONS)}, not {self.direction!r}"
            )
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            if abs(a[0] - b[0]) != 1 or abs(a[1] - b[1]) != 1:
                raise base.ParseError(
                    f"cells {base.name(a)} and {base.name(b)} are not diagonal neighbours"
                )
            if (b[0] - a[0], b[1] - a[1]) != STEPS[self.direction]:
                raise base.ParseError(
                    f"cells {base.name(a)} then {base.name(b)} go against the direction "
                    f"{self.direction}: the cells run from the clue along it"
                )
        first, place = self.cells[0], self.place()
        if self.clue and base.parse_name(self.clue, size, inside=False) != place:
            raise base.ParseError(
                f"cell {self.clue!r}: the clue of a diagonal from {base.name(first)} going "
                f"{self.direction} is at {base.name(place)}, one step before its first cell"
            )
        if 0 <= place[0] < size and 0 <= place[1] < size:
            raise base.ParseError(
                f"the clue's place {base.name(place)}, one step before {base.name(first)} "
                f"against the direction {self.direction}, is inside the grid: the diagonal "
                "must start at the grid's edge"
            )
        last = self.cells[-1]
        dr, dc = STEPS[self.direction]
        after = (last[0] + dr, last[1] + dc)
        if 0 <= after[0] < size and 0 <= after[1] < size:
            raise base.ParseError(
                f"the diagonal stops at {base.name(last)}, short of the grid's far edge "
                f"({base.name(after)} follows going {self.direction}): a little killer "
                "sums its whole diagonal"
            )
        if not len(self.cells) <= self.total <= len(self.cells) * size:
            raise base.ParseError(
                f"no digits of 1-{size} in {len(self.cells)} cells add up to {self.total}"
            )

    def place(self) -> base.Cell:
        """Where the clue is: one step back from the first cell, against :attr:`direction`."""
        dr, dc = STEPS[self.direction]
        return (self.cells[0][0] - dr, self.cells[0][1] - dc)

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        return base.sum_equals(cnf, self.cells, self.total)

    def add_to(self, model: base.SudokuModel) -> None:
        model.model.add(sum(base.cp_values(model, self.cells)) == self.total)

    def lower(self, low: base.Lowering) -> None:
        low.linear([(1, c) for c in self.cells], self.total)

    def check(self, grid: base.Grid) -> bool:
        return sum(base.at(grid, c) for c in self.cells) == self.total

    def draw(self, pen: base.Pen) -> None:
        # validate() has checked that a clue the entry names is at place()
        pen.outside(self.place(), str(self.total), towards=STEPS[self.direction])

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[LittleKiller]:
        got = base.fields(entry, ("cells", "value"), ("cell", "direction"))
        cells = tuple(base.parse_cells(got["cells"], geometry.size))
        clue = got.get("cell", "")
        if clue != "":  # a cell name; validate() checks it is the clue's place
            base.parse_name(clue, geometry.size, inside=False)
        direction = got.get("direction", "DR")
        if not isinstance(direction, str):
            raise base.ParseError(f"direction: one of {', '.join(DIRECTIONS)}, not {direction!r}")
        return [cls(cells, base.parse_int(got["value"]), str(clue), direction)]

    def write_entry(self) -> Any:
        out: dict[str, Any] = {
            "cells": [base.name(c) for c in self.cells],
            "value": str(self.total),
        }
        if self.clue:
            out["cell"] = self.clue
        out["direction"] = self.direction
        return out
