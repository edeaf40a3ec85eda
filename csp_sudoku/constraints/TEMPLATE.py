"""TEMPLATE: copy this file to add a constraint kind (it is not registered itself).

To add a kind called ``mine`` (its f-puzzles field):

1. Copy this file to ``csp_sudoku/constraints/mine.py`` and rename the class.
2. Give it its fields (cells as ``(row, column)``, 0-based) and the four forms:
   :meth:`clauses` (CNF over the candidate variables, ``cnf.var(cell, digit)``;
   use ``cnf.new()`` for auxiliaries and the helpers of ``base.py``:
   ``forbid_pairs``, ``distinct`` (python-sat ``CardEnc``), ``sum_equals``),
   :meth:`add_to` (CP-SAT, over the integer values ``cp_values(model, cells)``:
   write it independently of the CNF, since the tests compare the two),
   :meth:`check` (a full grid), and :meth:`read_entry` / :meth:`write_entry`
   (one entry of the f-puzzles list; a global rule switched on by a boolean
   subclasses ``GlobalRule`` instead, a rule on lines ``LineConstraint``).
   Raise only :class:`~csp_sudoku.core.errors.ParseError` for bad input; the
   reader adds the field and the entry's index to the message.
3. Register it: one line in ``KINDS`` in ``csp_sudoku/constraints/registry.py``:
   ``"mine": Mine,``.
4. Teach the test maker (``draw`` in tests/test_variants.py) to draw it from a
   full grid and the independent checker (tests/independent_variants.py) to
   check it from the rules: every kind must appear in the agreement test.

The kind below is a real rule, "the digits of two cells differ" (a tiny
extra region), written out in full.
"""

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
    forbid_pairs,
    name,
    parse_cells,
)
from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class TemplatePair(Constraint):
    """The digits of ``a`` and ``b`` differ (an example, not registered)."""

    kind = "templatepair"
    a: Cell
    b: Cell

    def footprint(self) -> tuple[Cell, ...]:
        return (self.a, self.b)  # the default validate() checks these lie in the grid

    def clauses(self, cnf: Cnf) -> Clauses:
        return forbid_pairs(cnf, self.a, self.b, lambda x, y: x != y)

    def add_to(self, model: SudokuModel) -> None:
        x, y = cp_values(model, (self.a, self.b))
        model.model.add(x != y)

    def check(self, grid: Grid) -> bool:
        return at(grid, self.a) != at(grid, self.b)

    @classmethod
    def read_entry(cls, entry: Any, geometry: Geometry) -> list[TemplatePair]:
        got = fields(entry, ("cells",))
        cells = parse_cells(got["cells"], geometry.size)
        if len(cells) != 2:
            raise ParseError(f"cells: 2 cells were expected, not {len(cells)}")
        return [cls(cells[0], cells[1])]

    def write_entry(self) -> Any:
        return {"cells": [name(self.a), name(self.b)]}
