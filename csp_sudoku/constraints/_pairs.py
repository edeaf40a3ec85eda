"""The shared shape of the dot kinds (white and black Kropki dots, XV) and their negatives.

A dot joins two orthogonally adjacent cells and says a relation holds
between their digits; its *negative* (the f-puzzles ``negative`` list) says
the relation holds between no other two adjacent cells. Each dot kind gives
the relation three ways: as a test on two digits (the CNF and ``check``),
and as a CP-SAT constraint (and its negation).

"No other two adjacent cells" means the pairs that carry no dot of the
negated kind's *family* (:attr:`Dot.family`): the white and the black Kropki
dots are one family, so a pair with either dot is exempt from both Kropki
negatives (a 1-2 pair may show a white dot or a black one; rangsk's
f-puzzles solver reads it so), while an X or a V exempts a pair from the XV
negative only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from csp_sudoku.constraints import base

#: The family of the white and the black Kropki dots (:attr:`Dot.family`).
KROPKI = "kropki"


@dataclass(frozen=True)
class Dot(base.Constraint):
    """A relation with parameter ``value`` between the digits of two adjacent cells."""

    a: base.Cell
    b: base.Cell
    value: int

    #: The value when an f-puzzles entry gives none.
    default: ClassVar[int] = 1
    #: Drawn as a black dot (True) or a white one; a value other than
    #: :attr:`default` is written in the dot.
    filled: ClassVar[bool] = False
    #: The value is any number the entry gives (checked: some pair of digits keeps
    #: it); False for the lettered kinds (XV: X or V), whose letters are their values.
    any_value: ClassVar[bool] = True
    #: The dots whose pairs a negative rule of this kind leaves alone: those of the same
    #: family (the Kropki dots, white and black, are :data:`KROPKI`); a kind that names
    #: none is a family of its own (XV).
    family: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "family" not in cls.__dict__:
            cls.family = cls.kind

    def footprint(self) -> tuple[base.Cell, ...]:
        return (self.a, self.b)

    def validate(self, size: int) -> None:
        super().validate(size)
        if not base.adjacent(self.a, self.b):
            raise base.ParseError(
                f"cells {base.name(self.a)} and {base.name(self.b)} are not side by side"
            )
        digits = range(1, size + 1)  # side by side: one row or column, so they differ
        if self.any_value and not any(
            self.holds(x, y, self.value) for x in digits for y in digits if x != y
        ):
            # a difference of -3 or 0, a ratio of 1: parsed, then answered 'no solution'
            raise base.ParseError(
                f"value {self.value}: no two different digits of 1-{size} keep a "
                f"{self.kind} dot of it"
            )

    @staticmethod
    def holds(x: int, y: int, value: int) -> bool:
        """Whether digits ``x`` and ``y`` keep the relation."""
        raise NotImplementedError

    @staticmethod
    def cp_holds(model: base.SudokuModel, x: Any, y: Any, value: int, holds: bool) -> None:
        """Add "the relation holds" (or, with ``holds`` False, "does not") to ``model``."""
        raise NotImplementedError

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        return base.forbid_pairs(cnf, self.a, self.b, lambda x, y: self.holds(x, y, self.value))

    def add_to(self, model: base.SudokuModel) -> None:
        x, y = base.cp_values(model, (self.a, self.b))
        self.cp_holds(model, x, y, self.value, True)

    def lower(self, low: base.Lowering) -> None:
        low.relation(
            [(self.a, self.b)],
            lambda x, y: self.holds(x, y, self.value),
            (self.kind, self.value),
        )

    def check(self, grid: base.Grid) -> bool:
        return self.holds(base.at(grid, self.a), base.at(grid, self.b), self.value)

    def draw(self, pen: base.Pen) -> None:
        label = "" if self.value == self.default else str(self.value)
        pen.dot(self.a, self.b, filled=self.filled, label=label)

    @classmethod
    def read_value(cls, value: Any) -> int:
        """The dot's parameter from its f-puzzles ``value`` (absent: :attr:`default`)."""
        return cls.default if value in (None, "") else base.parse_int(value)

    def write_value(self) -> Any:
        """The f-puzzles ``value`` of the dot (None: leave the field out)."""
        return None if self.value == self.default else str(self.value)

    @classmethod
    def read_entry(cls, entry: Any, geometry: base.Geometry) -> list[Any]:
        got = base.fields(entry, ("cells",), ("value",))
        cells = base.parse_cells(got["cells"], geometry.size)
        if len(cells) != 2:
            raise base.ParseError(f"cells: a dot joins 2 cells, not {len(cells)}")
        return [cls(cells[0], cells[1], cls.read_value(got.get("value")))]

    def write_entry(self) -> Any:
        out: dict[str, Any] = {"cells": [base.name(self.a), base.name(self.b)]}
        value = self.write_value()
        if value is not None:
            out["value"] = value
        return out


@dataclass(frozen=True)
class NoDot(base.Constraint):
    """The negative of a dot kind: no two adjacent cells without such a dot keep its relation.

    Build one with :meth:`of` the puzzle's constraints.

    Attributes:
        marked: the pairs that carry a dot of the kind's family (exempt: a Kropki
            negative leaves alone every pair with a white or a black dot), each as
            ``(a, b)`` with ``a < b``; the reader fills it from the dots of the puzzle.
    """

    marked: tuple[tuple[base.Cell, base.Cell], ...]

    #: The dot kind this negates (a subclass names it; its :attr:`kind` is the dot's
    #: with a ``-`` before it, the f-puzzles name in the ``negative`` list).
    dot: ClassVar[type[Dot]]
    #: The relation's parameters ruled out between unmarked neighbours: the dot's
    #: :attr:`~Dot.default` unless a subclass gives them (XV: 10 and 5).
    values: ClassVar[tuple[int, ...]]
    #: The rule in a few words, written under the grid.
    note: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.kind = "-" + cls.dot.kind
        if "values" not in cls.__dict__:
            cls.values = (cls.dot.default,)

    @classmethod
    def of(cls, constraints: Sequence[base.Constraint]) -> Any:
        """The negative of :attr:`dot`'s kind, exempting every pair that carries a dot of
        its family (:attr:`Dot.family`) among ``constraints``."""
        pairs: set[tuple[base.Cell, base.Cell]] = set()
        for d in constraints:
            if isinstance(d, Dot) and d.family == cls.dot.family:
                pairs.add((d.a, d.b) if d.a < d.b else (d.b, d.a))
        return cls(tuple(sorted(pairs)))

    def footprint(self) -> tuple[base.Cell, ...]:
        return tuple(c for pair in self.marked for c in pair)

    def _free(self, size: int) -> list[tuple[base.Cell, base.Cell]]:
        marked = set(self.marked)
        return [p for p in base.neighbours(size, base.ORTHOGONAL) if p not in marked]

    def clauses(self, cnf: base.Cnf) -> base.Clauses:
        out: base.Clauses = []
        for a, b in self._free(cnf.size):
            out.extend(
                base.forbid_pairs(
                    cnf, a, b, lambda x, y: not any(self.dot.holds(x, y, v) for v in self.values)
                )
            )
        return out

    def add_to(self, model: base.SudokuModel) -> None:
        for a, b in self._free(model.puzzle.geometry.size):
            x, y = base.cp_values(model, (a, b))
            for v in self.values:
                self.dot.cp_holds(model, x, y, v, False)

    def draw(self, pen: base.Pen) -> None:
        pen.note(self.note)

    def lower(self, low: base.Lowering) -> None:
        low.relation(
            self._free(low.size),
            lambda x, y: not any(self.dot.holds(x, y, v) for v in self.values),
            self.kind,
        )

    def check(self, grid: base.Grid) -> bool:
        return not any(
            self.dot.holds(base.at(grid, a), base.at(grid, b), v)
            for a, b in self._free(len(grid))
            for v in self.values
        )

    @classmethod
    def read(cls, value: Any, geometry: base.Geometry) -> list[Any]:
        raise base.ParseError("a negative constraint is read from the 'negative' field")

    @classmethod
    def write(cls, items: Sequence[base.Constraint]) -> Any:
        raise base.ParseError("a negative constraint is written to the 'negative' field")
