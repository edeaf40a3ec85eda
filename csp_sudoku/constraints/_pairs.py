"""The shared shape of the dot kinds (white and black Kropki dots, XV) and their negatives.

A dot joins two orthogonally adjacent cells and says a relation holds
between their digits; its *negative* (the f-puzzles ``negative`` list) says
the relation holds between no other two adjacent cells. Each dot kind gives
the relation three ways: as a test on two digits (the CNF and ``check``),
and as a CP-SAT constraint (and its negation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from csp_sudoku.constraints.base import (
    ORTHOGONAL,
    Cell,
    Clauses,
    Cnf,
    Constraint,
    Grid,
    adjacent,
    at,
    cp_values,
    fields,
    forbid_pairs,
    name,
    neighbours,
    parse_cells,
    parse_int,
)
from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cpsat import SudokuModel


@dataclass(frozen=True)
class Dot(Constraint):
    """A relation with parameter ``value`` between the digits of two adjacent cells."""

    a: Cell
    b: Cell
    value: int

    #: The value when an f-puzzles entry gives none.
    default: ClassVar[int] = 1

    def footprint(self) -> tuple[Cell, ...]:
        return (self.a, self.b)

    def validate(self, size: int) -> None:
        super().validate(size)
        if not adjacent(self.a, self.b):
            raise ParseError(f"cells {name(self.a)} and {name(self.b)} are not side by side")

    @staticmethod
    def holds(x: int, y: int, value: int) -> bool:
        """Whether digits ``x`` and ``y`` keep the relation."""
        raise NotImplementedError

    @staticmethod
    def cp_holds(model: SudokuModel, x: Any, y: Any, value: int, holds: bool) -> None:
        """Add "the relation holds" (or, with ``holds`` False, "does not") to ``model``."""
        raise NotImplementedError

    def clauses(self, cnf: Cnf) -> Clauses:
        return forbid_pairs(cnf, self.a, self.b, lambda x, y: self.holds(x, y, self.value))

    def add_to(self, model: SudokuModel) -> None:
        x, y = cp_values(model, (self.a, self.b))
        self.cp_holds(model, x, y, self.value, True)

    def check(self, grid: Grid) -> bool:
        return self.holds(at(grid, self.a), at(grid, self.b), self.value)

    @classmethod
    def read_value(cls, value: Any) -> int:
        """The dot's parameter from its f-puzzles ``value`` (absent: :attr:`default`)."""
        return cls.default if value in (None, "") else parse_int(value)

    def write_value(self) -> Any:
        """The f-puzzles ``value`` of the dot (None: leave the field out)."""
        return None if self.value == self.default else str(self.value)

    @classmethod
    def read_entry(cls, entry: Any, geometry: Geometry) -> list[Any]:
        got = fields(entry, ("cells",), ("value",))
        cells = parse_cells(got["cells"], geometry.size)
        if len(cells) != 2:
            raise ParseError(f"cells: a dot joins 2 cells, not {len(cells)}")
        return [cls(cells[0], cells[1], cls.read_value(got.get("value")))]

    def write_entry(self) -> Any:
        out: dict[str, Any] = {"cells": [name(self.a), name(self.b)]}
        value = self.write_value()
        if value is not None:
            out["value"] = value
        return out


@dataclass(frozen=True)
class NoDot(Constraint):
    """The negative of a dot kind: no two adjacent cells without such a dot keep its relation.

    Build one with :meth:`of` the puzzle's constraints.

    Attributes:
        marked: the pairs that carry a dot of the kind (exempt), each as ``(a, b)``
            with ``a < b``; the reader fills it from the dots of the puzzle.
    """

    marked: tuple[tuple[Cell, Cell], ...]

    #: The dot kind this negates.
    dot: ClassVar[type[Dot]]
    #: The relation's parameters ruled out between unmarked neighbours (XV: 10 and 5).
    values: ClassVar[tuple[int, ...]]

    @classmethod
    def of(cls, constraints: Sequence[Constraint]) -> Any:
        """The negative of the dots of :attr:`dot`'s kind among ``constraints``."""
        pairs: set[tuple[Cell, Cell]] = set()
        for d in constraints:
            if isinstance(d, cls.dot):
                pairs.add((d.a, d.b) if d.a < d.b else (d.b, d.a))
        return cls(tuple(sorted(pairs)))

    def footprint(self) -> tuple[Cell, ...]:
        return tuple(c for pair in self.marked for c in pair)

    def _free(self, size: int) -> list[tuple[Cell, Cell]]:
        marked = set(self.marked)
        return [p for p in neighbours(size, ORTHOGONAL) if p not in marked]

    def clauses(self, cnf: Cnf) -> Clauses:
        out: Clauses = []
        for a, b in self._free(cnf.size):
            out.extend(
                forbid_pairs(
                    cnf, a, b, lambda x, y: not any(self.dot.holds(x, y, v) for v in self.values)
                )
            )
        return out

    def add_to(self, model: SudokuModel) -> None:
        for a, b in self._free(model.puzzle.geometry.size):
            x, y = cp_values(model, (a, b))
            for v in self.values:
                self.dot.cp_holds(model, x, y, v, False)

    def check(self, grid: Grid) -> bool:
        return not any(
            self.dot.holds(at(grid, a), at(grid, b), v)
            for a, b in self._free(len(grid))
            for v in self.values
        )

    @classmethod
    def read(cls, value: Any, geometry: Geometry) -> list[Any]:
        raise ParseError("a negative constraint is read from the 'negative' field")

    @classmethod
    def write(cls, items: Sequence[Constraint]) -> Any:
        raise ParseError("a negative constraint is written to the 'negative' field")
