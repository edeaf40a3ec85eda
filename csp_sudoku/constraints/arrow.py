"""Arrow: the digits along the arrow add up to the number in its circle.

A circle of several cells (a "pill") reads as a number in reading order, top
row first, then left to right, whatever the order its cells are listed in, as
f-puzzles and SudokuPad setters read it: a pill over R1C1 and R1C2 holding 1
and 4 is 14. (Read in the order listed, six of 2,000 random puzzles whose pills
were listed backwards got another verdict than pencilmark's:
benchmarks/results/variants_pencilmark.md.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from csp_sudoku.constraints import base

#: The grey of the circle and the line, and the circle's radius in cells.
ARROW_GREY = "#9a9a9a"
CIRCLE = 0.4


def _number(digits: list[int]) -> int:
    value = 0
    for d in digits:
        value = value * 10 + d
    return value


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
        object.__setattr__(self, "circle", tuple(sorted(self.circle)))

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
            text = str(total)
            if len(text) != k or any(not 1 <= int(ch) <= n for ch in text):
                out.append([-v])  # no circle of k digits reads this sum
                continue
            out.extend([-v, cnf.var(c, int(ch))] for c, ch in zip(self.circle, text, strict=False))
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        circle = base.cp_values(model, self.circle)
        k = len(circle)
        number = sum(10 ** (k - 1 - i) * v for i, v in enumerate(circle))
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
        k = len(self.circle)  # shaft - circle's number == 0
        terms = [(1, c) for c in self._shaft_cells()]
        terms += [(-(10 ** (k - 1 - i)), c) for i, c in enumerate(self.circle)]
        low.linear(terms, 0)

    def check(self, grid: base.Grid) -> bool:
        total = sum(base.at(grid, c) for c in self._shaft_cells())
        return total == _number([base.at(grid, c) for c in self.circle])

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
