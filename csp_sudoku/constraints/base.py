"""What every constraint kind is and gives, and the helpers the kinds share.

A *constraint* is a rule of a variant Sudoku that is not a unit: a killer
cage's sum, a thermometer's order, a dot's relation between two cells. Each
kind is a small frozen dataclass (a subclass of :class:`Constraint`) in one
file of this package, registered in :mod:`csp_sudoku.constraints.registry`.
A kind gives:

* :meth:`Constraint.clauses`: its CNF clauses over the engine's candidate
  variables (:func:`csp_sudoku.encodings.cnf.variable`), with fresh
  variables from :class:`Cnf` when it needs auxiliaries;
* :meth:`Constraint.add_to`: its CP-SAT form on a
  :class:`~csp_sudoku.encodings.cpsat.SudokuModel`, written over the integer
  view of the cells (a second, independent encoding: the two backends must
  agree);
* :meth:`Constraint.check`: whether a full grid keeps it;
* :meth:`Constraint.lower`: what it is in the primitives of the compiled
  search (:class:`~csp_sudoku.constraints.lowering.Lowering`);
* :meth:`Constraint.read` and :meth:`Constraint.write`: its f-puzzles field;
* :meth:`Constraint.draw`: its picture, drawn with the primitives of a
  :class:`~csp_sudoku.constraints.drawing.Pen` (lines, cages, dots,
  letters, circles, shaded cells, clues outside the grid, notes).

Cells are ``(row, column)`` pairs, 0-based; f-puzzles names them ``R1C1``.
A grid for :meth:`Constraint.check` is any ``grid[row][column]`` indexable
of digits (a list of lists, an ``(N, N)`` array).

This module is also the one place a kind file imports from: it re-exports
:class:`ParseError`, :class:`Geometry` and :class:`SudokuModel` beside its
own names, and gives the shapes several kinds share (:class:`LineConstraint`,
:class:`NeighbourLine`, :class:`GlobalRule`), so each kind file holds only
what is its own.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

# re-exported (``as``): every kind file imports all it needs from this module
from csp_sudoku.constraints.drawing import GREY as GREY
from csp_sudoku.constraints.drawing import Layer as Layer
from csp_sudoku.constraints.drawing import LineStyle as LineStyle
from csp_sudoku.constraints.drawing import Pen as Pen
from csp_sudoku.constraints.lowering import Lowering as Lowering
from csp_sudoku.constraints.lowering import sum_sets
from csp_sudoku.core.errors import ParseError as ParseError
from csp_sudoku.core.geometry import Geometry as Geometry
from csp_sudoku.core.io import counted
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.encodings.cnf import ctrl_c_held, rules_cnf, variable
from csp_sudoku.encodings.cpsat import SudokuModel as SudokuModel

Cell = tuple[int, int]
Grid = Sequence[Sequence[int]]
Clauses = list[list[int]]
C = TypeVar("C", bound="Constraint")


class Cnf:
    """The variables a kind's clauses are written over, for one geometry.

    Candidate ``(cell, digit)`` is :func:`csp_sudoku.encodings.cnf.variable`
    (``flat_cell * N + digit``); fresh variables start above the rules' own
    (:func:`csp_sudoku.encodings.cnf.rules_cnf`), so the clauses of every
    constraint can be added to the rules' formula.
    """

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.size = geometry.size
        top = max(rules_cnf(geometry).nv, geometry.ncandidates)
        # python-sat's IDPool default ``occupied`` is a shared list: pass our own
        self.pool = IDPool(start_from=top + 1, occupied=[])

    def var(self, cell: Cell, digit: int) -> int:
        """The variable "``cell`` holds ``digit``"."""
        return variable(cell[0] * self.size + cell[1], digit, self.size)

    def new(self) -> int:
        """A fresh auxiliary variable."""
        return int(self.pool.id())

    @property
    def top(self) -> int:
        """The highest variable handed out so far."""
        return int(self.pool.top)


class Constraint:
    """Base class of every constraint kind (the subclasses are frozen dataclasses).

    Attributes:
        kind: the f-puzzles field the kind is read from and written to; also its
            name in the registry.
    """

    kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        """Take each field's value as its type (:func:`fit`): a list for a tuple, a
        numpy integer for an int, so that ``KillerCage([[0, 0], [0, 1]], 5)`` is the
        hashable constraint the reader makes. A value that fits no type is kept as
        given, for :meth:`validate` to refuse by name."""
        for name, fitted in field_fitters(type(self)):
            try:
                value = fitted(getattr(self, name), name)
            except ParseError:
                continue
            object.__setattr__(self, name, value)

    def validate(self, size: int) -> None:
        """Raise :class:`ParseError` when the constraint cannot be on an ``size`` grid.

        The default checks every field's value against its type (:func:`check_fields`:
        a built constraint is checked as the reader checks an entry, so no backend
        meets a float, a string or None) and that every cell of :meth:`footprint`
        lies in the grid. A kind's own ``validate`` calls it first.
        """
        check_fields(self)
        for cell in self.footprint():
            check_cell(cell, size)

    def validate_on(self, geometry: Geometry) -> None:
        """Raise :class:`ParseError` when a field that the reader derives from the grid's
        regions is not what it derives on ``geometry`` (a region-sum line's stretches):
        such a constraint, built in Python, would be written to f-puzzles as a puzzle
        that reads back otherwise. The default has no such field. Called by
        :class:`~csp_sudoku.constraints.puzzle.VariantPuzzle` after :meth:`validate`.
        """

    def footprint(self) -> tuple[Cell, ...]:
        """The cells the constraint names (none for a global rule)."""
        return ()

    def clauses(self, cnf: Cnf) -> Clauses:
        """The CNF clauses that hold exactly on the grids keeping the constraint."""
        raise NotImplementedError

    def add_to(self, model: SudokuModel) -> None:
        """Add the constraint to a CP-SAT model of the puzzle."""
        raise NotImplementedError

    def lower(self, low: Lowering) -> None:
        """Say what the constraint is in the primitives of the compiled search.

        The default makes it a *leaf*: the search asks :meth:`check` of every
        full grid it finds (always right, but the rule does not cut the search
        tree); a kind gives a lowering of its own to be fast.
        """
        low.leaf(self)

    def check(self, grid: Grid) -> bool:
        """Whether the full ``grid`` keeps the constraint."""
        raise NotImplementedError

    def draw(self, pen: Pen) -> None:
        """Draw the constraint with ``pen``'s primitives (cells as ``(row, column)``)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- f-puzzles
    @classmethod
    def read_entry(cls: type[C], entry: Any, geometry: Geometry) -> list[C]:
        """The constraints of one entry of the kind's f-puzzles list."""
        raise NotImplementedError

    def write_entry(self) -> Any:
        """The f-puzzles entry of this constraint."""
        raise NotImplementedError

    @classmethod
    def read(cls: type[C], value: Any, geometry: Geometry) -> list[C]:
        """The constraints of the kind's whole f-puzzles field.

        The default reads a list of entries with :meth:`read_entry`; an error
        names the field and the entry's index (``killercage[3]: ...``).
        """
        if not isinstance(value, list):
            raise ParseError(f"{cls.kind}: a list was expected, not {_kind_of(value)}")
        out: list[C] = []
        for index, entry in enumerate(value):
            try:
                got = cls.read_entry(entry, geometry)
                for c in got:
                    c.validate(geometry.size)
            except ParseError as err:
                raise ParseError(f"{cls.kind}[{index}]: {err.reason}") from None
            out.extend(got)
        return out

    @classmethod
    def write(cls, items: Sequence[Constraint]) -> Any:
        """The kind's f-puzzles field for ``items`` (all of this kind)."""
        return [c.write_entry() for c in items]


class GlobalRule(Constraint):
    """A rule over the whole grid switched on by an f-puzzles boolean (anti-knight ...).

    It draws as a note under the grid (:attr:`note`); a rule with a shape of
    its own (a diagonal) overrides :meth:`draw`.
    """

    #: The rule in a few words, written under the grid.
    note: ClassVar[str] = ""

    def draw(self, pen: Pen) -> None:
        pen.note(self.note)

    @classmethod
    def read(cls: type[C], value: Any, geometry: Geometry) -> list[C]:
        if not isinstance(value, bool):
            raise ParseError(f"{cls.kind}: true or false was expected, not {_kind_of(value)}")
        return [cls()] if value else []

    @classmethod
    def write(cls, items: Sequence[Constraint]) -> Any:
        return True


# -------------------------------------------------------------------- cell names
_CELL = re.compile(r"R(\d+)C(\d+)\Z", re.IGNORECASE)


def name(cell: Cell) -> str:
    """The f-puzzles name of a cell: ``(0, 0)`` is ``R1C1``."""
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def check_cell(cell: Cell, size: int) -> None:
    """Raise :class:`ParseError` when ``cell`` is outside the ``size x size`` grid."""
    r, c = cell
    if not (0 <= r < size and 0 <= c < size):
        raise ParseError(f"cell {name(cell)} is outside the {size}x{size} grid")


def parse_name(text: Any, size: int, *, inside: bool = True) -> Cell:
    """The cell named ``text`` (``R1C1``); with ``inside``, it must lie in the grid."""
    if not isinstance(text, str) or not (m := _CELL.match(text.strip())):
        raise ParseError(f"{text!r} is not a cell name like 'R1C1'")
    cell = (int(m.group(1)) - 1, int(m.group(2)) - 1)
    if inside:
        check_cell(cell, size)
    return cell


def parse_cells(value: Any, size: int, *, what: str = "cells", distinct: bool = True) -> list[Cell]:
    """A list of cell names; with ``distinct``, a repeated cell is an error."""
    if not isinstance(value, list) or not value:
        raise ParseError(f"{what}: a non-empty list of cell names was expected")
    cells = [parse_name(v, size) for v in value]
    if distinct:
        no_repeats(cells, what)
    return cells


def no_repeats(cells: Sequence[Cell], what: str) -> None:
    """Raise :class:`ParseError` when a cell of ``cells`` comes twice."""
    seen: set[Cell] = set()
    for cell in cells:
        if cell in seen:
            raise ParseError(f"{what}: cell {name(cell)} comes twice")
        seen.add(cell)


def fields(entry: Any, required: Iterable[str], optional: Iterable[str] = ()) -> dict[str, Any]:
    """``entry`` as a dict with exactly the known keys; an unknown or missing one is an error."""
    if not isinstance(entry, dict):
        raise ParseError(f"an object was expected, not {_kind_of(entry)}")
    need = set(required)
    known = need | set(optional)
    for key in entry:
        if key not in known:
            raise ParseError(f"unknown field {key!r}")
    for key in sorted(need):
        if key not in entry:
            raise ParseError(f"missing field {key!r}")
    return entry


def parse_int(value: Any, what: str = "value") -> int:
    """A whole number written as an int or a string of digits (f-puzzles writes both)."""
    if isinstance(value, bool):
        raise ParseError(f"{what}: a number was expected, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value):
        return int(value)
    raise ParseError(f"{what}: a whole number was expected, not {value!r}")


def _kind_of(value: Any) -> str:
    return "null" if value is None else type(value).__name__


# -------------------------------------------------------------------- field values
#: What a cell is, said in every error about one.
CELL_IS = "a cell is a (row, column) pair of 0-based whole numbers, (0, 0) the top left"


def shown(value: Any) -> str:
    """``value`` in an error about an argument: its type and its start (``str '5'``)."""
    return "None" if value is None else f"{type(value).__name__} {value!r:.60}"


#: Each constraint class's fields, with the function fitting each (:func:`field_fitters`).
_FIELDS: dict[type, tuple[tuple[str, Callable[[Any, str], Any]], ...]] = {}


def field_fitters(cls: type) -> tuple[tuple[str, Callable[[Any, str], Any]], ...]:
    """Each dataclass field of ``cls`` and the function that fits a value to its type
    (:func:`fit`, of the field's resolved annotation); none for a class that is no
    dataclass. Made once a class."""
    got = _FIELDS.get(cls)
    if got is None:
        got = ()
        if dataclasses.is_dataclass(cls):
            hints = get_type_hints(cls)
            got = tuple((f.name, _fitter(hints[f.name])) for f in dataclasses.fields(cls))
        _FIELDS[cls] = got
    return got


def _describe(hint: Any, many: bool = False) -> str:
    """``hint`` in words, for an error ("a tuple of cells", "a whole number")."""
    s = "s" if many else ""
    origin, args = get_origin(hint), get_args(hint)
    if hint == Cell:
        return "cells" if many else "a cell"
    if origin in (Union, types.UnionType):
        return " or ".join("None" if a is type(None) else _describe(a, many) for a in args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"{'' if many else 'a '}tuple{s} (or list{s}) of {_describe(args[0], True)}"
    if origin is tuple:
        return f"{'' if many else 'a '}tuple{s} of {len(args)} {_describe(args[0], True)}"
    words = {int: "whole number", bool: "True or False", str: "string"}
    word = words.get(hint, getattr(hint, "__name__", str(hint)))
    return word if hint is bool else (f"{word}{s}" if many else f"a {word}")


def fit(value: Any, hint: Any, what: str) -> Any:
    """``value`` as a value of type ``hint``, or a :class:`ParseError` naming ``what``.

    The types of a constraint's fields: a cell (``(row, column)``, two whole
    numbers), a tuple of ``X`` (a list or a tuple, each item fitted), a whole
    number (an int or a numpy integer: a bool, a float, even 2.0, or a string
    is none, as a solver needs the exact integer), True or False, a string, and
    ``X | None``. A list becomes a tuple and a numpy integer an int; any other
    type is taken as it is.
    """
    return _fitter(hint)(value, what)


#: The function that fits a value to each type (:func:`_fitter`), made once a type.
_FITTERS: dict[Any, Callable[[Any, str], Any]] = {}


def _fitter(hint: Any) -> Callable[[Any, str], Any]:
    """The function of :func:`fit` for ``hint`` (constraints are built by the thousand
    when puzzles are generated: the common case, a value of the type, is a few checks)."""
    got = _FITTERS.get(hint)
    if got is None:
        got = _FITTERS[hint] = _make_fitter(hint)
    return got


def _make_fitter(hint: Any) -> Callable[[Any, str], Any]:
    """Make the function of :func:`fit` for ``hint`` (see :func:`_fitter`)."""
    origin, args = get_origin(hint), get_args(hint)

    def misfit(value: Any, what: str) -> ParseError:
        return ParseError(f"{what}: {_describe(hint)} was expected, not {shown(value)}")

    if hint == Cell:

        def cell(value: Any, what: str) -> Any:
            if type(value) is tuple and len(value) == 2:
                r, c = value
                if type(r) is int and type(c) is int:
                    return value
            if isinstance(value, np.ndarray):
                value = value.tolist()
            if isinstance(value, (tuple, list)) and len(value) == 2:
                r, c = value
                if is_whole(r) and is_whole(c):
                    return (int(r), int(c))
            raise ParseError(f"{what}: {value!r:.60} is not a cell; {CELL_IS}")

        return cell
    if origin in (Union, types.UnionType):
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) != 1:
            return lambda value, what: value
        inner = _fitter(kinds[0])
        optional = type(None) in args
        return lambda value, what: None if value is None and optional else inner(value, what)
    if origin is tuple:
        fixed = not (len(args) == 2 and args[1] is Ellipsis)
        parts = [_fitter(a) for a in args]

        def sequence(value: Any, what: str) -> Any:
            if isinstance(value, np.ndarray):
                value = value.tolist()
            if not isinstance(value, (tuple, list)) or (fixed and len(value) != len(args)):
                raise misfit(value, what)
            fits = parts if fixed else [parts[0]] * len(value)
            try:  # the items' names are made only for an error
                return tuple([f(v, what) for f, v in zip(fits, value, strict=True)])
            except ParseError:
                for i, (f, v) in enumerate(zip(fits, value, strict=True)):
                    f(v, f"{what}[{i}]")  # raises again, naming the item
                raise

        return sequence
    if hint is int:

        def whole(value: Any, what: str) -> Any:
            if type(value) is int:
                return value
            if is_whole(value):
                return int(value)
            raise misfit(value, what)

        return whole
    if hint is bool:

        def truth(value: Any, what: str) -> Any:
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            raise misfit(value, what)

        return truth
    if hint is str:

        def text(value: Any, what: str) -> Any:
            if isinstance(value, str):
                return value
            raise misfit(value, what)

        return text
    return lambda value, what: value


def check_fields(constraint: Constraint) -> None:
    """Raise :class:`ParseError` when a field of ``constraint`` is not of its type (:func:`fit`)."""
    for name, fitted in field_fitters(type(constraint)):
        fitted(getattr(constraint, name), name)


def as_cells(value: Any, what: str = "cells") -> tuple[Cell, ...]:
    """``value`` as a tuple of cells (a list or tuple of ``(row, column)`` pairs)."""
    cells: tuple[Cell, ...] = fit(value, tuple[Cell, ...], what)
    return cells


def parse_lines(value: Any, size: int) -> Iterator[tuple[int, list[Cell]]]:
    """The lines of an f-puzzles ``lines`` field, each with its index, read one at a time.

    Each line is a list of distinct cells; a caller that checks a line as it
    comes (an arrow's start) reports the first bad line, as the field reads.
    """
    if not isinstance(value, list) or not value:
        raise ParseError("lines: a non-empty list of lines was expected")
    for k, line in enumerate(value):
        yield k, parse_cells(line, size, what=f"lines[{k}]")


def read_lines(entry: Any, size: int, extra: Iterable[str] = ()) -> list[list[Cell]]:
    """The ``lines`` of a line entry (each a list of distinct cells, each cell next to the last)."""
    got = fields(entry, ("lines",), extra)
    return [cells for _, cells in parse_lines(got["lines"], size)]


# -------------------------------------------------------------------- geometry helpers
def neighbours(size: int, steps: Iterable[tuple[int, int]]) -> list[tuple[Cell, Cell]]:
    """Every unordered pair of cells one of ``steps`` apart (each pair once)."""
    out: set[tuple[Cell, Cell]] = set()
    for r in range(size):
        for c in range(size):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    a, b = (r, c), (rr, cc)
                    out.add((a, b) if a < b else (b, a))
    return sorted(out)


ORTHOGONAL = ((0, 1), (1, 0))
KING = ((0, 1), (1, 0), (1, 1), (1, -1))
KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))


def adjacent(a: Cell, b: Cell) -> bool:
    """Whether two cells share an edge."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def size_of(grid: Grid) -> int:
    """The size of a square grid."""
    return len(grid)


# -------------------------------------------------------------------- encodings
def forbid_pairs(cnf: Cnf, a: Cell, b: Cell, allowed: Callable[[int, int], bool]) -> Clauses:
    """Clauses forbidding every pair of digits ``(da, db)`` with ``not allowed(da, db)``."""
    n = cnf.size
    return [
        [-cnf.var(a, da), -cnf.var(b, db)]
        for da in range(1, n + 1)
        for db in range(1, n + 1)
        if not allowed(da, db)
    ]


def distinct(cnf: Cnf, cells: Sequence[Cell]) -> Clauses:
    """Clauses saying the ``cells`` hold distinct digits (python-sat's ``CardEnc``)."""
    out: Clauses = []
    if len(cells) < 2:
        return out
    enc = EncType.pairwise if len(cells) <= 9 else EncType.seqcounter
    with ctrl_c_held:
        for d in range(1, cnf.size + 1):
            lits = [cnf.var(c, d) for c in cells]
            out.extend(CardEnc.atmost(lits=lits, bound=1, vpool=cnf.pool, encoding=enc).clauses)
    return out


def sum_layers(cnf: Cnf, cells: Sequence[Cell]) -> tuple[list[dict[int, int]], Clauses]:
    """Variables for the possible sums of every prefix of ``cells`` (a running-sum encoding).

    Returns ``(layers, clauses)``: ``layers[k][v]`` is a variable forced true when
    the digits of the first ``k + 1`` cells sum to ``v``. The clauses only imply
    forward (partial sum ``s`` and digit ``d`` give partial sum ``s + d``), so the
    variable of the true sum is always true; a caller forbids the values it
    rejects (``[-layer[v]]``), or adds :func:`at_most_one_sum` to read the sum off.
    """
    n = cnf.size
    clauses: Clauses = []
    layers: list[dict[int, int]] = []
    for i, cell in enumerate(cells):
        nxt: dict[int, int] = {}
        for d in range(1, n + 1):
            lit = cnf.var(cell, d)
            if i == 0:
                v = nxt.setdefault(d, cnf.new())
                clauses.append([-lit, v])
                continue
            for s, sv in layers[-1].items():
                v = nxt.setdefault(s + d, cnf.new())
                clauses.append([-sv, -lit, v])
        layers.append(nxt)
    return layers, clauses


def sum_values(cnf: Cnf, cells: Sequence[Cell]) -> tuple[dict[int, int], Clauses]:
    """The last layer of :func:`sum_layers`: variables for the possible sums of ``cells``."""
    layers, clauses = sum_layers(cnf, cells)
    return (layers[-1] if layers else {}), clauses


def reject_sums(final: dict[int, int], total: int, guard: Sequence[int] = ()) -> Clauses:
    """Clauses rejecting every sum of ``final`` but ``total`` (when every ``guard`` literal holds)."""
    off = [-g for g in guard]
    if not final:
        return [] if total == 0 else [off]
    clauses = [[*off, -v] for s, v in final.items() if s != total]
    if total not in final:
        clauses.append(off)  # the total cannot be made at all
    return clauses


def at_most_one_sum(cnf: Cnf, final: dict[int, int]) -> Clauses:
    """Clauses saying at most one of the sum variables of :func:`sum_values` is true."""
    lits = list(final.values())
    if len(lits) < 2:
        return []
    with ctrl_c_held:
        enc = CardEnc.atmost(lits=lits, bound=1, vpool=cnf.pool, encoding=EncType.seqcounter)
    clauses: Clauses = enc.clauses
    return clauses


def sum_equals(cnf: Cnf, cells: Sequence[Cell], total: int, guard: Sequence[int] = ()) -> Clauses:
    """Clauses saying the digits of ``cells`` sum to ``total`` (when every ``guard`` literal holds)."""
    final, clauses = sum_values(cnf, cells)
    return clauses + reject_sums(final, total, guard)


def sum_combinations(cnf: Cnf, cells: Sequence[Cell], total: int) -> Clauses:
    """Clauses saying the digits of ``cells`` are one of the digit sets that make ``total``.

    A cage of ``k`` cells whose digits differ and sum to ``total`` holds one
    of the ``k``-sets of digits with that sum, each digit once. A variable
    ``z`` per set: some set is chosen; the chosen set's digits are the only
    ones the cells take, and each of them is in some cell; a cell's digit
    chooses one of the sets holding it. Implied by "distinct" and
    :func:`sum_equals` together, so adding them changes no answer; they let
    unit propagation read a cage as a solver by hand does (its combinations),
    where the running sum alone propagates nothing until every cell is set
    (generating a killer with no givens: 78 times faster, benchmarks/results/
    variant_generate.md). None are given past
    :data:`~csp_sudoku.constraints.lowering.MOST_SETS` sets (big grids).
    """
    sets = sum_sets(len(cells), total, cnf.size)
    if sets is None:
        return []
    digit_sets = [[d for d in range(1, cnf.size + 1) if mask >> (d - 1) & 1] for mask in sets]
    chosen = [cnf.new() for _ in digit_sets]
    out: Clauses = [list(chosen)]
    for z, digits in zip(chosen, digit_sets, strict=True):
        for cell in cells:
            out.append([-z, *(cnf.var(cell, d) for d in digits)])
        for d in digits:
            out.append([-z, *(cnf.var(cell, d) for cell in cells)])
    for cell in cells:
        for d in range(1, cnf.size + 1):
            holding = [z for z, digits in zip(chosen, digit_sets, strict=True) if d in digits]
            out.append([-cnf.var(cell, d), *holding])
    return out


def cp_values(model: SudokuModel, cells: Iterable[Cell]) -> list[Any]:
    """The CP-SAT integer variables of ``cells``."""
    n = model.puzzle.geometry.size
    return [model.value(r * n + c) for r, c in cells]


def at(grid: Grid, cell: Cell) -> int:
    """The digit of ``cell`` in ``grid``."""
    return int(grid[cell[0]][cell[1]])


@dataclass(frozen=True)
class LineConstraint(Constraint):
    """A rule along one line of cells, read from an f-puzzles ``lines`` entry.

    An f-puzzles entry may hold several lines: each becomes one constraint, and
    each is written back as an entry of its own (the same puzzle).
    """

    cells: tuple[Cell, ...]

    #: The fewest cells a line of the kind has.
    shortest: ClassVar[int] = 1
    #: How the line is drawn through its cells' centres (its colour and width).
    style: ClassVar[LineStyle] = LineStyle(GREY, 0.2)

    def footprint(self) -> tuple[Cell, ...]:
        return self.cells

    def draw(self, pen: Pen) -> None:
        pen.line(self.cells, self.style)

    def validate(self, size: int) -> None:
        super().validate(size)
        no_repeats(self.cells, "line")
        if len(self.cells) < self.shortest:
            raise ParseError(
                f"a line of {counted(len(self.cells), 'cell')}; at least {self.shortest}"
            )

    @classmethod
    def read_entry(cls: type[L], entry: Any, geometry: Geometry) -> list[L]:
        return [cls(tuple(line)) for line in read_lines(entry, geometry.size)]

    def write_entry(self) -> Any:
        return {"lines": [[name(c) for c in self.cells]]}


L = TypeVar("L", bound=LineConstraint)


@dataclass(frozen=True)
class NeighbourLine(LineConstraint):
    """A line rule kept by each two neighbouring cells of the line (thermometers, whispers).

    A kind gives its relation twice, independently (the tests compare the two
    encodings): :meth:`keeps` on two digits, for the CNF and :meth:`check`, and
    :meth:`cp_keep` on two CP-SAT values.
    """

    def keeps(self, x: int, y: int, size: int) -> bool:
        """Whether digit ``x`` followed by digit ``y`` keeps the rule on a ``size`` grid."""
        raise NotImplementedError

    def cp_keep(self, model: SudokuModel, x: Any, y: Any) -> None:
        """Add "value ``x`` followed by value ``y`` keeps the rule" to ``model``."""
        raise NotImplementedError

    def clauses(self, cnf: Cnf) -> Clauses:
        out: Clauses = []
        for a, b in itertools.pairwise(self.cells):
            out.extend(forbid_pairs(cnf, a, b, lambda x, y: self.keeps(x, y, cnf.size)))
        return out

    def add_to(self, model: SudokuModel) -> None:
        for x, y in itertools.pairwise(cp_values(model, self.cells)):
            self.cp_keep(model, x, y)

    def lower(self, low: Lowering) -> None:
        n = low.size
        low.relation(itertools.pairwise(self.cells), lambda x, y: self.keeps(x, y, n), self.kind)

    def check(self, grid: Grid) -> bool:
        ds = [at(grid, c) for c in self.cells]
        return all(self.keeps(x, y, len(grid)) for x, y in itertools.pairwise(ds))
