"""German whispers: neighbours along the line differ by 5 or more (on 9x9)."""

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


def gap(size: int) -> int:
    """The least difference of neighbours on a whispers line: 5 on 9x9, ``ceil(N / 2)``."""
    return (size + 1) // 2


@dataclass(frozen=True)
class Whispers(LineConstraint):
    """Neighbouring cells of the line differ by at least :func:`gap` of the size."""

    kind = "whispers"
    shortest = 2

    def clauses(self, cnf: Cnf) -> Clauses:
        g = gap(cnf.size)
        out: Clauses = []
        for a, b in zip(self.cells, self.cells[1:], strict=False):
            out.extend(forbid_pairs(cnf, a, b, lambda x, y: abs(x - y) >= g))
        return out

    def add_to(self, model: SudokuModel) -> None:
        g = gap(model.puzzle.geometry.size)
        vs = cp_values(model, self.cells)
        for a, b in itertools.pairwise(vs):
            diff = model.model.new_int_var(0, g * 4, "")
            model.model.add_abs_equality(diff, a - b)
            model.model.add(diff >= g)

    def check(self, grid: Grid) -> bool:
        g = gap(len(grid))
        ds = [at(grid, c) for c in self.cells]
        return all(abs(a - b) >= g for a, b in itertools.pairwise(ds))
