"""Region-sum line: where the line crosses regions, each region's stretch has the same sum."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from csp_sudoku.constraints import base


def stretches(
    cells: tuple[base.Cell, ...], geometry: base.Geometry
) -> tuple[tuple[base.Cell, ...], ...]:
    """The line cut into its runs of cells in one region (box, or jigsaw region)."""
    n = geometry.size
    region = geometry.cell_units[:, 2] if geometry.cell_units.shape[1] > 2 else None
    out: list[list[base.Cell]] = []
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
class RegionSumLine(base.Constraint):
    """The stretches of one line (see :func:`stretches`) all have the same sum.

    Build one with :meth:`along`, which cuts the line by the geometry's regions.
    """

    kind = "regionsumline"
    parts: tuple[tuple[base.Cell, ...], ...]

    #: A blue line through the cells' centres.
    style: ClassVar[base.LineStyle] = base.LineStyle("#2ecbff", 0.16)

    @classmethod
    def along(cls, cells: tuple[base.Cell, ...], geometry: base.Geometry) -> RegionSumLine:
        """The region-sum line over ``cells`` on ``geometry``.

        Raises:
            ParseError: ``cells`` is not a tuple of cells, or one is outside the grid
                (it has no region).
        """
        line = base.as_cells(cells)
        for cell in line:
            base.check_cell(cell, geometry.size)
        return cls(stretches(line, geometry))

    def footprint(self) -> tuple[base.Cell, ...]:
        return tuple(c for part in self.parts for c in part)

    def draw(self, pen: base.Pen) -> None:
        pen.line(self.footprint(), self.style)

    def validate(self, size: int) -> None:
        super().validate(size)
        # a line of no stretches, or an empty stretch (a sum of 0), has no reading
        if not self.parts:
            raise base.ParseError("parts: a region-sum line of no cells")
        for k, part in enumerate(self.parts):
            if not part:
                raise base.ParseError(f"parts[{k}]: a stretch of no cells")
        base.no_repeats(self.footprint(), "line")

    def validate_on(self, geometry: base.Geometry) -> None:
        """Refuse parts other than the line's stretches on ``geometry`` (:func:`stretches`,
        what :meth:`along` and the reader make): f-puzzles keeps the line alone, so other
        parts would be written as a puzzle that reads back with another rule."""
        want = stretches(self.footprint(), geometry)
        if self.parts != want:
            shown = " | ".join(" ".join(base.name(c) for c in part) for part in want)
            raise base.ParseError(
                f"parts: not the line's stretches by region ({shown}); build the line "
                "with RegionSumLine.along(cells, geometry)"
            )

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        if len(self.parts) < 2:
            return []
        out: base.Clauses = []
        finals = []
        for part in self.parts:
            final, cl = base.sum_values(cnf, part)
            out.extend(cl)
            out.extend(base.at_most_one_sum(cnf, final))
            finals.append(final)
        first = finals[0]
        for other in finals[1:]:
            for s, v in first.items():
                out.append([-v, other[s]] if s in other else [-v])
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        sums = [sum(base.cp_values(model, part)) for part in self.parts]
        for s in sums[1:]:
            model.model.add(s == sums[0])

    def lower(self, low: base.Lowering) -> None:
        first = self.parts[0]  # each other stretch's sum minus the first's is 0
        for part in self.parts[1:]:
            low.linear([(1, c) for c in part] + [(-1, c) for c in first], 0)

    def check(self, grid: base.Grid) -> bool:
        sums = {sum(base.at(grid, c) for c in part) for part in self.parts}
        return len(sums) <= 1

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[RegionSumLine]:
        return [cls.along(tuple(line), geometry) for line in base.read_lines(entry, geometry.size)]

    def write_entry(self) -> Any:
        return {"lines": [[base.name(c) for c in self.footprint()]]}
