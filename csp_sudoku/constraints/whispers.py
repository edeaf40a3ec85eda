"""German whispers: neighbours along the line differ by 5 or more (on 9x9).

The least difference is ``ceil(N / 2)`` on an ``N x N`` grid (:func:`gap`),
as f-puzzles says for sizes other than 9, unless the f-puzzles entry gives
its own in ``value`` (``{"lines": [...], "value": "4"}``: Dutch whispers, a
difference of 4 or more on 9x9, are such an entry). The custom difference is
a parameter of the constraint: its clauses, its CP-SAT form, its lowering and
its check all read it through :meth:`Whispers.least`; the line is drawn the
same either way.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base


def gap(size: int) -> int:
    """The least difference of neighbours on a whispers line: 5 on 9x9, ``ceil(N / 2)``."""
    return (size + 1) // 2


@dataclass(frozen=True)
class Whispers(base.NeighbourLine):
    """Neighbouring cells of the line differ by at least :meth:`least` of the size.

    Attributes:
        cells: the line's cells, in order.
        difference: the least difference of neighbours the entry gives (its
            ``value``); None, the default, for :func:`gap` of the grid's size.
    """

    kind = "whispers"
    shortest = 2
    style = base.LineStyle("#67f067", 0.22)
    difference: int | None = None

    def least(self, size: int) -> int:
        """The least difference of neighbours on a ``size`` grid."""
        return gap(size) if self.difference is None else self.difference

    def validate(self, size: int) -> None:
        super().validate(size)
        if self.difference is not None and not 1 <= self.difference <= size - 1:
            raise base.ParseError(
                f"value: a least difference of 1 to {size - 1} was expected on a "
                f"{size}x{size} grid, not {self.difference}"
            )

    def keeps(self, x: int, y: int, size: int) -> bool:
        return abs(x - y) >= self.least(size)

    def cp_keep(self, model: base.SudokuModel, x: Any, y: Any) -> None:
        n = model.puzzle.geometry.size
        diff = model.model.new_int_var(0, n - 1, "")
        model.model.add_abs_equality(diff, x - y)
        model.model.add(diff >= self.least(n))

    def lower(self, low: base.Lowering) -> None:
        n = low.size  # the key names the relation: one table per difference and size
        key = (self.kind, self.least(n))
        low.relation(itertools.pairwise(self.cells), lambda x, y: self.keeps(x, y, n), key)

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[Whispers]:
        got = base.fields(entry, ("lines",), ("value",))
        value = got.get("value")
        difference = None if value in (None, "") else base.parse_int(value)
        lines = base.read_lines({"lines": got["lines"]}, geometry.size)
        return [cls(tuple(line), difference) for line in lines]

    def write_entry(self) -> Any:
        out: dict[str, Any] = {"lines": [[base.name(c) for c in self.cells]]}
        if self.difference is not None:
            out["value"] = str(self.difference)
        return out
