"""TEMPLATE: copy this file to add a constraint kind (it is not registered itself).

To add a kind called ``mine`` (its f-puzzles field):

1. Copy this file to ``csp_sudoku/constraints/mine.py`` and rename the class.
2. Give it its fields (cells as ``(row, column)``, 0-based) and the four forms:
   :meth:`clauses` (CNF over the candidate variables, ``cnf.var(cell, digit)``;
   use ``cnf.new()`` for auxiliaries and the helpers of ``base.py``:
   ``base.forbid_pairs``, ``base.distinct`` (python-sat ``CardEnc``),
   ``base.sum_equals``; a call of your own into python-sat goes inside
   ``csp_sudoku.encodings.cnf.ctrl_c_held``, and a solver of your own is a
   ``HeldSolver``, or a Ctrl-C may corrupt the process), :meth:`add_to` (CP-SAT, over the integer values
   ``base.cp_values(model, cells)``: write it independently of the CNF, since
   the tests compare the two), :meth:`check` (a full grid),
   :meth:`read_entry` / :meth:`write_entry` (one entry of the f-puzzles list),
   and :meth:`lower`, what it is for the compiled search (the ``"fast"``
   backend) in the primitives of ``base.Lowering``: ``low.only``,
   ``low.differ``, ``low.distinct``, ``low.relation`` (a predicate on two
   digits), ``low.linear``, ``low.combination``, ``low.sum_distinct``,
   ``low.between``, ``low.sandwich``. Without it the kind is a *leaf*: the
   search asks its :meth:`check` of every full grid it finds (right, but
   slow when the rule is what makes the puzzle unique).
   And :meth:`draw`, its picture, made of the primitives of ``base.Pen``
   (``csp_sudoku/constraints/drawing.py``): ``pen.line(cells, style)``,
   ``pen.cage(cells, label)``, ``pen.dot(a, b, filled=...)``,
   ``pen.letter(a, b, text)``, ``pen.circle(cells, ...)``,
   ``pen.square(cell, ...)``, ``pen.shade(cell, colour)``,
   ``pen.outside(cell, text)`` (a clue beside the grid), ``pen.note(text)``
   (a rule under the grid); ``csp-sudoku render`` draws it in SVG, PNG and
   PDF.
   A kind of a shared shape subclasses it instead and gives only what is its
   own: a global rule switched on by a boolean ``base.GlobalRule``, a rule on
   lines ``base.LineConstraint``, a rule on each two neighbours of a line
   ``base.NeighbourLine``, a group of distinct cells
   ``_groups.DistinctCells``. These draw themselves (a note under the grid,
   a line in the kind's ``style = base.LineStyle(colour, width)``, shaded
   cells): such a kind sets ``note`` or ``style``, or overrides
   :meth:`draw`. Everything a kind needs comes from the one
   module ``base`` (it re-exports ``ParseError``, ``Geometry`` and
   ``SudokuModel``). Raise only ``base.ParseError`` for bad input; the reader
   adds the field and the entry's index to the message. Annotate every field
   with its type (``base.Cell``, ``tuple[base.Cell, ...]``, ``int``,
   ``int | None``, ``bool``, ``str``): ``base.Constraint`` takes a list for a
   tuple at construction and its ``validate`` refuses a value of another type
   (``base.fit``), so a ``validate`` of your own calls ``super().validate(size)``
   first and checks only what is the kind's own (an empty cage, a sum no
   digits make).
3. Register it: one line in ``KINDS`` in ``csp_sudoku/constraints/registry.py``:
   ``"mine": Mine,``.
4. Teach the test maker (``draw`` in tests/test_variants.py) to draw it from a
   full grid and the independent checker (tests/independent_variants.py) to
   check it from the rules: every kind must appear in the agreement test.
5. Add a check of its drawing to ``CHECKS`` in tests/test_render_variants.py
   (where its marks must lie, from its cells) and an entry to the sheet
   ``EVERY_KIND`` there.

The kind below is a real rule, "the digits of two cells differ" (a tiny
extra region), written out in full.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base


@dataclass(frozen=True)
class TemplatePair(base.Constraint):
    """The digits of ``a`` and ``b`` differ (an example, not registered)."""

    kind = "templatepair"
    a: base.Cell
    b: base.Cell

    def footprint(self) -> tuple[base.Cell, ...]:
        return (self.a, self.b)  # the default validate() checks these lie in the grid

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        return base.forbid_pairs(cnf, self.a, self.b, lambda x, y: x != y)

    def add_to(self, model: base.SudokuModel) -> None:
        x, y = base.cp_values(model, (self.a, self.b))
        model.model.add(x != y)

    def check(self, grid: base.Grid) -> bool:
        return base.at(grid, self.a) != base.at(grid, self.b)

    def lower(self, low: base.Lowering) -> None:
        low.differ([(self.a, self.b)])

    def draw(self, pen: base.Pen) -> None:
        pen.line((self.a, self.b), base.LineStyle(base.GREY, 0.15))  # a short grey line

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[TemplatePair]:
        got = base.fields(entry, ("cells",))
        cells = base.parse_cells(got["cells"], geometry.size)
        if len(cells) != 2:
            raise base.ParseError(f"cells: 2 cells were expected, not {len(cells)}")
        return [cls(cells[0], cells[1])]

    def write_entry(self) -> Any:
        return {"cells": [base.name(self.a), base.name(self.b)]}
