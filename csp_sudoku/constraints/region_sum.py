"""Region-sum line: where the line crosses regions, each region's stretch has the same sum."""

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
    at_most_one_sum,
    cp_values,
    name,
    no_repeats,
    read_lines,
    sum_values,
)
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cpsat import SudokuModel


def stretches(cells: tuple[Cell, ...], geometry: Geometry) -> tuple[tuple[Cell, ...], ...]:
    """The line cut into its runs of cells in one region (box, or jigsaw region)."""
    n = geometry.size
    region = geometry.cell_units[:, 2] if geometry.cell_units.shape[1] > 2 else None
    out: list[list[Cell]] = []
    last = None
    for r, c in cells:
        label = int(region[r * n + c]) if region is not None else 0
        if out and label == last:
            out[-1].append((r, c))
        else:
            out.append([(r, c)])
        last = label
    return tuple(tuple(s) for s in out)


@dataclass(frozen=True)
class RegionSumLine(Constraint):
    """The stretches of one line (see :func:`stretches`) all have the same sum.

    Build one with :meth:`along`, which cuts the line by the geometry's regions.
    """

    kind = "regionsumline"
    parts: tuple[tuple[Cell, ...], ...]

    @classmethod
    def along(cls, cells: tuple[Cell, ...], geometry: Geometry) -> RegionSumLine:
        """The region-sum line over ``cells`` on ``geometry``."""
        return cls(stretches(cells, geometry))

    def footprint(self) -> tuple[Cell, ...]:
        return tuple(c for part in self.parts for c in part)

    def validate(self, size: int) -> None:
        super().validate(size)
        no_repeats(self.footprint(), "line")

    def clauses(self, cnf: Cnf) -> Clauses:
        if len(self.parts) < 2:
            return []
        out: Clauses = []
        finals = []
        for part in self.parts:
            final, cl = sum_values(cnf, part)
            out.extend(cl)
            out.extend(at_most_one_sum(cnf, final))
            finals.append(final)
        first = finals[0]
        for other in finals[1:]:
            for s, v in first.items():
                out.append([-v, other[s]] if s in other else [-v])
        return out

    def add_to(self, model: SudokuModel) -> None:
        sums = [sum(cp_values(model, part)) for part in self.parts]
        for s in sums[1:]:
            model.model.add(s == sums[0])

    def check(self, grid: Grid) -> bool:
        sums = {sum(at(grid, c) for c in part) for part in self.parts}
        return len(sums) <= 1

    @classmethod
    def read_entry(cls, entry: Any, geometry: Geometry) -> list[RegionSumLine]:
        return [cls.along(tuple(line), geometry) for line in read_lines(entry, geometry.size)]

    def write_entry(self) -> Any:
        return {"lines": [[name(c) for c in self.footprint()]]}
