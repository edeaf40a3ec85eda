"""Canonical form of a 9x9 Sudoku under its symmetry group.

Two puzzles are *isomorphic* (essentially the same puzzle) when one becomes
the other by relabelling digits, permuting rows within bands, permuting bands,
permuting columns within stacks, permuting stacks, and transposing. There are
9! x 3,359,232 such maps. :func:`canonical_form` returns one fixed member of
a puzzle's class, so two puzzles are isomorphic exactly when their canonical
forms are equal; the puzzle bank deduplicates on it.

The form is the least image under an order comparing the clue pattern first
(empty < filled, row-major) and then the digits relabelled by first appearance
(see :mod:`csp_sudoku._kernels.canonical`: the least pattern is built row by
row, and a row order is dropped as soon as its rows so far are not the least).
A real puzzle takes a few microseconds on one core (``benchmarks/bench_canonical.py``);
a full solution grid, whose pattern every map keeps, is the slow case (a
fraction of a second).

Only the plain 9x9 geometry is supported: variants (X, Windoku, jigsaw) have
other symmetry groups.

Example:
    >>> from csp_sudoku.tools.canonical import canonical_key
    >>> canonical_key(puzzle)   # an 81-character line  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import canonical as _k
from csp_sudoku.core.errors import ArgumentError, GeometryError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import SeedLike, as_generator

_NINE = Geometry.standard(9)


@dataclass(frozen=True)
class Isomorphism:
    """One element of the 9x9 Sudoku symmetry group.

    The image of a grid ``g`` is ``h[i, j] = digit_map[g'[row_map[i], col_map[j]]]``
    where ``g'`` is ``g`` transposed when ``transpose`` is set.

    Attributes:
        transpose: transpose first.
        row_map: output row -> source row (keeps bands as blocks of three).
        col_map: output column -> source column (keeps stacks as blocks).
        digit_map: 10 entries, ``digit_map[0] == 0``; a permutation of 1..9.
    """

    transpose: bool
    row_map: tuple[int, ...]
    col_map: tuple[int, ...]
    digit_map: tuple[int, ...]

    def apply_cells(self, cells: NDArray[np.integer]) -> NDArray[np.int8]:
        """The image of a flat 81-cell array."""
        g = np.asarray(cells, dtype=np.int8).reshape(9, 9)
        if self.transpose:
            g = g.T
        moved = g[np.ix_(np.asarray(self.row_map), np.asarray(self.col_map))]
        out: NDArray[np.int8] = np.asarray(self.digit_map, dtype=np.int8)[moved].reshape(-1)
        return out

    def apply(self, puzzle: Puzzle | str | NDArray[np.integer]) -> Puzzle:
        """The image of a 9x9 puzzle (or puzzle line, or cells)."""
        return Puzzle(self.apply_cells(_as_cells(puzzle)), _NINE)


def _require_nine(puzzle: Puzzle) -> None:
    if puzzle.geometry != _NINE:
        raise GeometryError(
            f"canonical forms are defined for plain 9x9 Sudoku, not {puzzle.geometry.name}"
        )


def _as_cells(puzzle: Puzzle | str | NDArray[np.integer]) -> NDArray[np.int8]:
    """The cells of a 9x9 puzzle-like (validated as :func:`csp_sudoku.api.as_puzzle` does)."""
    if not isinstance(puzzle, Puzzle):
        from csp_sudoku.api import as_puzzle

        puzzle = as_puzzle(puzzle)
    _require_nine(puzzle)
    return puzzle.cells


def random_isomorphism(seed: SeedLike = None) -> Isomorphism:
    """A uniformly random element of the symmetry group.

    Args:
        seed: see :mod:`csp_sudoku.core.seeds`; None draws fresh entropy.
    """
    rng = as_generator(seed)

    def block_map() -> tuple[int, ...]:
        outer = rng.permutation(3)
        inner = [rng.permutation(3) for _ in range(3)]
        return tuple(int(3 * outer[g] + inner[g][w]) for g in range(3) for w in range(3))

    digits = (0, *(int(d) for d in rng.permutation(9) + 1))
    return Isomorphism(bool(rng.integers(2)), block_map(), block_map(), digits)


def canonical_with_isomorphism(
    puzzle: Puzzle | str | NDArray[np.integer],
) -> tuple[NDArray[np.int8], Isomorphism]:
    """The canonical cells of a puzzle and one isomorphism that produces them.

    Raises:
        GeometryError: for anything but a plain 9x9 puzzle.
    """
    cells = _as_cells(puzzle)
    best = np.empty(81, dtype=np.int8)
    tr = np.zeros(19, dtype=np.int64)
    _k.canonical_one(cells, best, tr)
    transpose = bool(tr[0])
    rmap = tuple(int(x) for x in tr[1:10])
    cmap = tuple(int(x) for x in tr[10:19])
    g = cells.reshape(9, 9).T if transpose else cells.reshape(9, 9)
    moved = g[np.ix_(np.asarray(rmap), np.asarray(cmap))].reshape(-1)
    digit_map = [0] * 10
    nxt = 1
    for d in moved.tolist():
        if d and not digit_map[d]:
            digit_map[d] = nxt
            nxt += 1
    unused = iter(range(nxt, 10))
    for d in range(1, 10):
        if not digit_map[d]:
            digit_map[d] = next(unused)
    return best, Isomorphism(transpose, rmap, cmap, tuple(digit_map))


def canonical_cells(puzzle: Puzzle | str | NDArray[np.integer]) -> NDArray[np.int8]:
    """The canonical form of one puzzle as a flat 81-cell ``int8`` array."""
    return canonical_with_isomorphism(puzzle)[0]


def canonical_form(puzzle: Puzzle | str | NDArray[np.integer]) -> Puzzle:
    """The canonical representative of the puzzle's isomorphism class.

    Raises:
        GeometryError: for anything but a plain 9x9 puzzle.
    """
    return Puzzle(canonical_cells(puzzle), _NINE)


def canonical_key(puzzle: Puzzle | str | NDArray[np.integer]) -> str:
    """The canonical form as an 81-character line (``.`` for empty): a dictionary key."""
    return "".join(str(int(v)) if v else "." for v in canonical_cells(puzzle).tolist())


def canonical_many(
    puzzles: NDArray[np.integer] | Iterable[Puzzle | str | NDArray[np.integer]],
) -> NDArray[np.int8]:
    """Canonical forms of many puzzles: an ``(n, 81)`` integer array, or puzzles (Puzzles,
    lines, cells) in; an ``(n, 81)`` array out.

    Raises:
        GeometryError: when the input is not 81 cells a row of whole values 0..9.
        ArgumentError: an input that is no array or iterable of puzzles (None, a line).
        ParseError: an item that is no puzzle.
    """
    given: object = puzzles  # checked as it comes (None, a line, a number)
    if isinstance(puzzles, np.ndarray):
        arr = puzzles
        if arr.size and arr.dtype.kind not in "iu":  # 1.5 was cut to 1
            raise GeometryError(f"cell values must be whole numbers 0..9, got {arr.dtype}")
    elif isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
        raise ArgumentError(
            "canonical_many takes an (n, 81) array or puzzles (Puzzles, lines), got "
            f"{type(puzzles).__name__} {puzzles!r:.40}"
        )
    else:
        items = [_as_cells(p) for p in puzzles]  # a line is a puzzle too
        arr = np.stack(items) if items else np.zeros((0, 81), np.int8)
    if arr.ndim != 2 or arr.shape[1] != 81:
        raise GeometryError(f"canonical_many needs an (n, 81) array, got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 9):
        raise GeometryError("cell values must be 0..9")
    arr8 = np.ascontiguousarray(arr, dtype=np.int8)
    result: NDArray[np.int8] = _k.canonical_batch(arr8)
    return result


def are_isomorphic(a: Puzzle, b: Puzzle) -> bool:
    """True when ``a`` and ``b`` are the same puzzle up to the symmetry group."""
    return bool(np.array_equal(canonical_cells(a), canonical_cells(b)))
