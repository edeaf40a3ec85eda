"""The puzzle value: an immutable grid of clues with its geometry.

A :class:`Puzzle` holds a flat, read-only numpy array of ``N * N`` small
integers (0 = empty, ``1..N`` = a clue) and the :class:`~csp_sudoku.core.geometry.Geometry`
it lives on. Reading text lives in :mod:`csp_sudoku.core.io`; this module knows
values and how to write one as text (:func:`format_line`, :func:`format_grid`,
re-exported by :mod:`csp_sudoku.core.io`), so that it needs nothing above it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.geometry import Geometry, check_geometry

Grid = NDArray[np.int8]
"""A flat row-major array of ``N * N`` cells, 0 for empty."""


@dataclass(frozen=True)
class Clash:
    """Two clues that break a unit: the same digit twice in one row/column/box."""

    cell_a: int
    cell_b: int
    digit: int
    unit: int
    geometry: Geometry

    def __str__(self) -> str:
        g = self.geometry
        return (
            f"{g.cell_name(self.cell_a)} and {g.cell_name(self.cell_b)} are both "
            f"{self.digit} ({g.unit_name(self.unit)})"
        )


class Puzzle:
    """An immutable Sudoku puzzle: clues on a geometry.

    Args:
        cells: ``N * N`` values (any shape that flattens to that), 0 = empty.
        geometry: the shape; inferred from the number of cells when omitted.

    Raises:
        ParseError: when a value is outside ``0..N`` or the cell count does not fit.
    """

    __slots__ = ("_cells", "_geometry", "_hash")

    def __init__(self, cells: Any, geometry: Geometry | None = None) -> None:
        if cells is None or isinstance(cells, (str, bytes, int, float)):
            # a scalar is no grid (numpy made it one cell: "1 cells is not a known grid
            # size"), and text is read by the parser, not taken for cell values
            hint = "read a puzzle line with parse()" if isinstance(cells, (str, bytes)) else ""
            raise ParseError(
                "puzzle cells must be a flat sequence or an N x N grid of integers"
                f"{f' ({hint})' if hint else ''}, got {type(cells).__name__} {cells!r:.40}"
            )
        try:
            arr = np.asarray(cells)
        except ValueError as err:  # ragged rows: numpy's "inhomogeneous shape"
            raise ParseError(
                f"puzzle cells must be a flat sequence or an N x N grid: {err}"
            ) from None
        if arr.dtype.kind not in "iu":
            # whole floats (a NaN or an infinity is none: np.mod would warn on them)
            if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(np.mod(arr, 1) == 0):
                arr = arr.astype(np.int64)
            else:
                raise ParseError(f"puzzle cells must be integers, got dtype {arr.dtype}")
        if arr.ndim > 2 or (arr.ndim == 2 and arr.shape[0] != arr.shape[1]):
            raise ParseError(
                f"puzzle cells must be a flat sequence or an N x N grid, got shape {arr.shape}"
            )
        flat = arr.reshape(-1)
        geo = check_geometry(geometry) or Geometry.for_cells(flat.size)
        if flat.size != geo.ncells:
            raise ParseError(f"{geo.name} puzzle needs {geo.ncells} cells, got {flat.size}")
        if flat.size and (flat.min() < 0 or flat.max() > geo.size):
            bad = int(np.flatnonzero((flat < 0) | (flat > geo.size))[0])
            raise ParseError(
                f"value {int(flat[bad])} at {geo.cell_name(bad)} is outside 0..{geo.size}",
                column=bad + 1,
            )
        stored = flat.astype(np.int8, copy=True)
        stored.setflags(write=False)
        self._cells = stored
        self._geometry = geo
        self._hash: int | None = None

    @classmethod
    def trusted(cls, cells: Grid, geometry: Geometry) -> Puzzle:
        """Wrap an already validated flat int8 array without copying or checking it.

        For the parsers' fast path only: ``cells`` must hold ``geometry.ncells``
        values in ``0..N`` and must not be changed afterwards.
        """
        self = cls.__new__(cls)
        if cells.flags.writeable:
            cells = cells.copy()
            cells.setflags(write=False)
        self._cells = cells
        self._geometry = geometry
        self._hash = None
        return self

    # ------------------------------------------------------------------ access
    @property
    def cells(self) -> Grid:
        """The flat read-only cell array (0 = empty)."""
        return self._cells

    @property
    def geometry(self) -> Geometry:
        """The grid shape."""
        return self._geometry

    @property
    def grid(self) -> Grid:
        """The cells as an ``N x N`` read-only view."""
        n = self._geometry.size
        return self._cells.reshape(n, n)

    @property
    def clue_count(self) -> int:
        """Number of filled cells."""
        return int(np.count_nonzero(self._cells))

    @property
    def is_complete(self) -> bool:
        """True when every cell is filled."""
        return bool(np.all(self._cells))

    def clue_cells(self) -> NDArray[np.intp]:
        """Indices of the filled cells, ascending."""
        return np.flatnonzero(self._cells)

    def with_cells(self, changes: dict[int, int]) -> Puzzle:
        """A new puzzle with some cells set (digit) or cleared (0).

        Raises:
            ParseError: ``changes`` not a mapping of cells to digits, a cell the grid
                lacks (81 raised IndexError, -1 set the last cell) or a digit out of range.
        """
        if not hasattr(changes, "items"):
            raise ParseError(
                f"changes must map cells to digits ({{cell: digit}}), got "
                f"{type(changes).__name__} {changes!r:.40}"
            )
        new = self._cells.copy()
        for cell, digit in changes.items():
            if isinstance(cell, bool) or not isinstance(cell, int | np.integer):
                raise ParseError(f"a cell is a whole number, got {cell!r:.40}")
            if not 0 <= cell < new.size:
                raise self._no_cell(cell)
            if isinstance(digit, bool) or not isinstance(digit, int | np.integer):
                raise ParseError(f"a digit is a whole number, got {digit!r:.40}")
            if not 0 <= digit <= self._geometry.size:
                raise ParseError(
                    f"digits of a {self._geometry.name} puzzle are 1 to "
                    f"{self._geometry.size} (0 clears), got {digit} for cell {cell}"
                )
            new[cell] = digit
        return Puzzle(new, self._geometry)

    def _no_cell(self, given: object) -> ParseError:
        """The error for ``given`` naming cells this puzzle's grid lacks."""
        return ParseError(
            f"cells of a {self._geometry.name} puzzle are 0 to {self._cells.size - 1}, "
            f"got {given!r:.40}"
        )

    def without(self, cells: Any) -> Puzzle:
        """A new puzzle with the given cells emptied: cell indexes (an int, or a sequence
        or array of them), or a mask of one bool a cell (``p.cells == 9``).

        Raises:
            ParseError: a cell the grid lacks (81 raised IndexError, -1 emptied the
                last cell), or no cells: a string, None, a fraction (``1.7`` emptied
                cell 1), a mask of another length (an all-False mask emptied cell 0).
        """
        given = np.asarray(cells) if not isinstance(cells, (str, bytes)) else None
        if given is not None and given.dtype == np.bool_:
            if given.shape != self._cells.shape:
                raise self._no_cell(cells)
            given = np.flatnonzero(given)
        if given is None or (given.size and given.dtype.kind not in "iu"):
            raise ParseError(
                f"cells to empty are cell indexes (ints) or a mask of {self._cells.size} "
                f"bools, got {type(cells).__name__} {cells!r:.40}"
            )
        at = given.astype(np.intp, copy=False)
        if at.size and (at.min() < 0 or at.max() >= self._cells.size):
            raise self._no_cell(cells)
        new = self._cells.copy()
        new[at] = 0
        return Puzzle(new, self._geometry)

    # ------------------------------------------------------------------ validity
    def clashes(self) -> list[Clash]:
        """Every pair of equal clues sharing a unit, in unit order.

        A puzzle with a clash has no solution; ``str(clash)`` says why, e.g.
        ``"r1c2 and r1c7 are both 5 (row 1)"``.
        """
        found: list[Clash] = []
        cells = self._cells
        for u, unit in enumerate(self._geometry.units):
            values = cells[unit]
            filled = values[values > 0]
            if filled.size == np.unique(filled).size:
                continue
            first: dict[int, int] = {}
            for cell, v in zip(unit.tolist(), values.tolist(), strict=False):
                if v == 0:
                    continue
                if v in first:
                    found.append(Clash(first[v], cell, v, u, self._geometry))
                else:
                    first[v] = cell
        return found

    def is_consistent(self) -> bool:
        """True when no two equal clues share a unit (see :meth:`clashes`)."""
        return not self.clashes()

    # ------------------------------------------------------------------ text
    def to_line(self, blank: str = ".") -> str:
        """The one-line form (``"53..7...."``); see :func:`format_line`."""
        return format_line(self, blank=blank)

    def to_grid_text(self) -> str:
        """A multi-line grid with box separators; see :func:`format_grid`."""
        return format_grid(self)

    # ------------------------------------------------------------------ dunder
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return self._geometry == other._geometry and bool(np.array_equal(self._cells, other._cells))

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._geometry, self._cells.tobytes()))
        return self._hash

    def __repr__(self) -> str:
        return f"Puzzle({self.to_line()!r}, {self._geometry.name})"

    def __str__(self) -> str:
        return self.to_line()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Puzzle, (np.asarray(self._cells), self._geometry))


# ---------------------------------------------------------------------- text
def symbol(digit: int) -> str:
    """The character written for ``digit`` (1-9, then A=10, B=11, ...)."""
    if digit < 10:
        return str(digit)
    return chr(ord("A") + digit - 10)


def format_line(puzzle: Puzzle, blank: str = ".") -> str:
    """The one-line form: ``N*N`` symbols, ``blank`` for empty cells."""
    _formatted(puzzle)
    return puzzle.cells.tobytes().translate(_symbol_table(blank)).decode("ascii")


def _formatted(puzzle: object) -> None:
    """Refuse what the formatters cannot write (text raised AttributeError)."""
    if not isinstance(puzzle, Puzzle):
        raise ParseError(
            f"a Puzzle is formatted (read a line with parse()), got {type(puzzle).__name__} "
            f"{puzzle!r:.40}"
        )


def format_lines(cells: NDArray[np.integer], blank: str = ".") -> list[str]:
    """The one-line forms of an ``(n, ncells)`` batch of puzzles, as :func:`format_line` writes each.

    One table look-up over the whole batch: for writers of millions of rows.
    """
    n, width = cells.shape
    flat = np.ascontiguousarray(cells, dtype=np.int8).tobytes()
    text = flat.translate(_symbol_table(blank)).decode("ascii")
    return [text[i : i + width] for i in range(0, n * width, width)]


@functools.cache
def _symbol_table(blank: str) -> bytes:
    """bytes.translate table: digit byte -> its symbol, 0 -> ``blank``.

    Raises:
        ParseError: a ``blank`` that is not one character other than a digit's
            symbol or a space (it wrote text that reads back as another puzzle).
    """
    digits = {symbol(d) for d in range(1, 36)}
    if (
        not isinstance(blank, str)
        or len(blank) != 1
        or not blank.isascii()
        or blank.upper() in digits
        or blank.lower() in digits
        or blank.isspace()
    ):
        raise ParseError(
            f"blank must be one character that stands for no digit and is no space "
            f"(such as '.' or '0'), got {blank!r}"
        )
    table = bytearray(range(256))
    table[0] = ord(blank)
    for d in range(1, 36):
        table[d] = ord(symbol(d))
    return bytes(table)


def format_grid(puzzle: Puzzle, blank: str = ".") -> str:
    """A multi-line grid with ``|`` and ``+`` between boxes (no box lines for jigsaws)."""
    _formatted(puzzle)
    _symbol_table(blank)  # the blank checked as format_line checks it
    g = puzzle.geometry
    n = g.size
    rows = puzzle.grid.tolist()
    out: list[str] = []
    bc = g.box_cols if g.regions is None else n
    br = g.box_rows if g.regions is None else n
    for r, row in enumerate(rows):
        if r and r % br == 0:
            out.append("-+-".join("-" * (2 * bc - 1) for _ in range(n // bc)))
        cells = [symbol(v) if v else blank for v in row]
        out.append(" | ".join(" ".join(cells[c : c + bc]) for c in range(0, n, bc)))
    return "\n".join(out)
