"""Killer cage: the digits of a cage differ and, when the cage has a sum, add up to it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base
from csp_sudoku.constraints._groups import DistinctCells


def _makeable(count: int, total: int, size: int) -> bool:
    """Whether ``count`` distinct digits of 1..size can add up to ``total``."""
    low = count * (count + 1) // 2
    high = count * (2 * size - count + 1) // 2
    return count <= size and low <= total <= high


@dataclass(frozen=True)
class KillerCage(DistinctCells):
    """The digits of ``cells`` differ and sum to ``total`` (no sum when None)."""

    kind = "killercage"
    noun = "cage"
    total: int | None = None

    def validate(self, size: int) -> None:
        super().validate(size)
        if self.total is not None and not _makeable(len(self.cells), self.total, size):
            raise base.ParseError(
                f"no {len(self.cells)} distinct digits of 1-{size} add up to {self.total}"
            )

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        out = super().clauses(cnf)
        if self.total is not None:
            out.extend(base.sum_equals(cnf, self.cells, self.total))
            out.extend(base.sum_combinations(cnf, self.cells, self.total))
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        super().add_to(model)
        if self.total is not None:
            model.model.add(sum(base.cp_values(model, self.cells)) == self.total)

    def lower(self, low: base.Lowering) -> None:
        if self.total is None:
            low.distinct(self.cells)
        else:  # the sets of distinct digits with the sum, filtered exactly
            low.sum_distinct(self.cells, self.total)

    def check(self, grid: base.Grid) -> bool:
        return super().check(grid) and (
            self.total is None or sum(base.at(grid, c) for c in self.cells) == self.total
        )

    def draw(self, pen: base.Pen) -> None:
        pen.cage(self.cells, "" if self.total is None else str(self.total))

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[KillerCage]:
        got = base.fields(entry, ("cells",), ("value",))
        cells = tuple(base.parse_cells(got["cells"], geometry.size))
        value = got.get("value")
        total = None if value in (None, "") else base.parse_int(value)
        return [cls(cells, total)]

    def write_entry(self) -> Any:
        out: dict[str, Any] = super().write_entry()
        if self.total is not None:
            out["value"] = str(self.total)
        return out


__all__ = ["KillerCage"]
