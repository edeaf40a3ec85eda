"""The shared shape of the rules made of groups whose digits differ.

:class:`GroupRule`: global rules (diagonals, disjoint groups), the groups
drawn from the size. :class:`DistinctCells`: one group of cells named in the
puzzle (an extra region; a killer cage adds its sum).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from csp_sudoku.constraints import base


def differ(grid: base.Grid, cells: tuple[base.Cell, ...]) -> bool:
    """Whether the digits of ``cells`` in the full ``grid`` differ."""
    digits = [base.at(grid, c) for c in cells]
    return len(set(digits)) == len(digits)


@dataclass(frozen=True)
class GroupRule(base.GlobalRule):
    """The digits of each of :meth:`groups` differ."""

    def groups(self, size: int) -> list[tuple[base.Cell, ...]]:
        """The groups of cells the rule binds on a ``size`` grid."""
        raise NotImplementedError

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        out: base.Clauses = []
        for group in self.groups(cnf.size):
            out.extend(base.distinct(cnf, group))
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        for group in self.groups(model.puzzle.geometry.size):
            model.model.add_all_different(base.cp_values(model, group))

    def lower(self, low: base.Lowering) -> None:
        for group in self.groups(low.size):
            low.distinct(group)

    def check(self, grid: base.Grid) -> bool:
        return all(differ(grid, group) for group in self.groups(len(grid)))


@dataclass(frozen=True)
class DistinctCells(base.Constraint):
    """The digits of ``cells`` differ; read from and written to an f-puzzles ``cells`` entry."""

    cells: tuple[base.Cell, ...]

    #: What the group is called in an error ("a region of 10 cells ...").
    noun: ClassVar[str] = "group"

    def footprint(self) -> tuple[base.Cell, ...]:
        return self.cells

    def validate(self, size: int) -> None:
        super().validate(size)
        if not self.cells:  # a cage of no cells: the backends read it each its own way
            raise base.ParseError(f"cells: a {self.noun} of no cells")
        base.no_repeats(self.cells, "cells")
        if len(self.cells) > size:
            raise base.ParseError(
                f"a {self.noun} of {len(self.cells)} cells cannot hold distinct digits"
            )

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        return base.distinct(cnf, self.cells)

    def add_to(self, model: base.SudokuModel) -> None:
        model.model.add_all_different(base.cp_values(model, self.cells))

    def lower(self, low: base.Lowering) -> None:
        low.distinct(self.cells)

    def check(self, grid: base.Grid) -> bool:
        return differ(grid, self.cells)

    def draw(self, pen: base.Pen) -> None:
        for cell in self.cells:
            pen.shade(cell)

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[Any]:
        got = base.fields(entry, ("cells",))
        return [cls(tuple(base.parse_cells(got["cells"], geometry.size)))]

    def write_entry(self) -> Any:
        return {"cells": [base.name(c) for c in self.cells]}
