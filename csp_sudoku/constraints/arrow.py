"""Arrow: the digits along the arrow add up to the number in its circle.

What a circle reads is defined once, by :func:`place_values`, and every
backend takes it from there (the CNF clauses through :func:`circle_digits`,
the CP-SAT form, the compiled search's linear sum, :meth:`Arrow.check`):

* a circle of one cell is that cell's digit, on any grid: a 12 in the circle
  of a 16x16 arrow is 12;
* a circle of several cells (a "pill") reads as a decimal number in reading
  order, top row first, then left to right, whatever the order its cells are
  listed in, as f-puzzles and SudokuPad setters read it: a pill over R1C1 and
  R1C2 holding 1 and 4 is 14. (Read in the order listed, six of 2,000 random
  puzzles whose pills were listed backwards got another verdict than
  pencilmark's: benchmarks/results/variants_pencilmark.md.)
* a pill on a grid whose digits go past 9 has no reading: a cell's digit is
  then no decimal digit, and f-puzzles defines no other number for it. Such
  a pill is refused (:class:`~csp_sudoku.core.errors.ParseError`, naming the
  entry), never read one way by one backend and another way by the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base

#: The grey of the circle and the line, and the circle's radius in cells.
ARROW_GREY = "#9a9a9a"
CIRCLE = 0.4
#: The largest grid on which a circle may hold several cells: its digits are decimal digits.
PILL_MAX_SIZE = 9


def place_values(cells: int, size: int) -> tuple[int, ...]:
    """What each cell of a circle of ``cells`` cells counts for, the most significant first.

    One cell counts for its digit (``(1,)``) on any grid; a pill of ``k`` cells
    is a ``k``-digit decimal number (``(10 ** (k - 1), ..., 10, 1)``).

    Raises:
        ParseError: a pill on a grid of more than :data:`PILL_MAX_SIZE` digits,
            which has no reading.
    """
    if cells > 1 and size > PILL_MAX_SIZE:
        raise base.ParseError(
            f"a circle of {cells} cells (a pill) on a {size}x{size} grid: a pill reads "
            f"as a decimal number, so it is only defined on grids of digits 1-{PILL_MAX_SIZE}"
        )
    return tuple(10 ** (cells - 1 - i) for i in range(cells))


def circle_number(digits: Sequence[int], size: int) -> int:
    """The number a circle holding ``digits`` (in reading order) reads on a ``size`` grid."""
    return sum(w * d for w, d in zip(place_values(len(digits), size), digits, strict=True))


def circle_digits(number: int, cells: int, size: int) -> tuple[int, ...] | None:
    """The digits (in reading order) with which a circle of ``cells`` cells reads ``number``.

    None when no digits of ``1..size`` do. The digits are unique: a pill's
    digits are below 10 (:func:`place_values`), one cell's is the number.
    """
    out = []
    rest = number
    for w in place_values(cells, size):
        d, rest = divmod(rest, w)
        if not 1 <= d <= size:
            return None
        out.append(d)
    return tuple(out)


@dataclass(frozen=True)
class Arrow(base.Constraint):
    """The digits of ``shafts`` (each a line leaving the circle) sum to the circle's number.

    Attributes:
        circle: the circle's cells, kept in reading order (the most significant
            digit first), however they were given.
        shafts: the arrow's lines, each without its first cell (which lies in the circle).
    """

    kind = "arrow"
    circle: tuple[base.Cell, ...]
    shafts: tuple[tuple[base.Cell, ...], ...]

    def __post_init__(self) -> None:
        super().__post_init__()  # lists as tuples
        try:
            circle = base.as_cells(self.circle)
        except base.ParseError:
            return  # no cells: validate refuses it by name
        object.__setattr__(self, "circle", tuple(sorted(circle)))

    def footprint(self) -> tuple[base.Cell, ...]:
        return self.circle + self._shaft_cells()

    def _shaft_cells(self) -> tuple[base.Cell, ...]:
        seen: dict[base.Cell, None] = {}
        for shaft in self.shafts:
            for c in shaft:
                seen[c] = None
        return tuple(seen)

    def validate(self, size: int) -> None:
        super().validate(size)
        base.no_repeats(self.circle, "cells")
        place_values(len(self.circle), size)  # a pill past 9 digits has no reading
        if not self.circle or not self.shafts or not all(self.shafts):
            raise base.ParseError(
                "an arrow needs a circle and a line of at least one cell beyond it"
            )
        for k, shaft in enumerate(self.shafts):
            base.no_repeats(shaft, f"lines[{k}]")
            if set(shaft) & set(self.circle):
                raise base.ParseError(f"lines[{k}] comes back into its circle")

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        n = cnf.size
        final, out = base.sum_values(cnf, self._shaft_cells())
        k = len(self.circle)
        for total, v in final.items():
            digits = circle_digits(total, k, n)
            if digits is None:
                out.append([-v])  # no circle of k cells reads this sum
                continue
            out.extend([-v, cnf.var(c, d)] for c, d in zip(self.circle, digits, strict=True))
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        circle = base.cp_values(model, self.circle)
        weights = place_values(len(circle), model.puzzle.geometry.size)
        number = sum(w * v for w, v in zip(weights, circle, strict=True))
        model.model.add(sum(base.cp_values(model, self._shaft_cells())) == number)

    def start(self, shaft: tuple[base.Cell, ...]) -> base.Cell:
        """The circle's cell a shaft leaves from: the first one beside (or diagonal to) its start."""
        near = [
            c for c in self.circle if max(abs(c[0] - shaft[0][0]), abs(c[1] - shaft[0][1])) == 1
        ]
        return (near or list(self.circle))[0]

    def draw(self, pen: base.Pen) -> None:
        style = base.LineStyle(ARROW_GREY, 0.045)
        pen.circle(self.circle, radius=CIRCLE, stroke=ARROW_GREY, width=style.width)
        for shaft in self.shafts:
            start = self.start(shaft)
            pen.line(shaft, style, start=start, trim=CIRCLE, head=True)

    def lower(self, low: base.Lowering) -> None:
        weights = place_values(len(self.circle), low.size)  # shaft - circle's number == 0
        terms = [(1, c) for c in self._shaft_cells()]
        terms += [(-w, c) for w, c in zip(weights, self.circle, strict=True)]
        low.linear(terms, 0)

    def check(self, grid: base.Grid) -> bool:
        total = sum(base.at(grid, c) for c in self._shaft_cells())
        return total == circle_number([base.at(grid, c) for c in self.circle], len(grid))

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[Arrow]:
        got = base.fields(entry, ("cells", "lines"))
        size = geometry.size
        circle = tuple(base.parse_cells(got["cells"], size))
        shafts = []
        for k, cells in base.parse_lines(got["lines"], size):
            if cells[0] not in circle:
                raise base.ParseError(
                    f"lines[{k}] starts at {base.name(cells[0])}, not in its circle"
                )
            shafts.append(tuple(c for c in cells if c not in circle))
        return [cls(circle, tuple(shafts))]

    def write_entry(self) -> Any:
        return {
            "cells": [base.name(c) for c in self.circle],
            "lines": [
                [base.name(self.start(shaft)), *(base.name(c) for c in shaft)]
                for shaft in self.shafts
            ],
        }
