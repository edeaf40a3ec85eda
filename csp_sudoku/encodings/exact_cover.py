"""Sudoku as an exact-cover problem (Hunt, Pong, Tucker, *Difficulty-Driven
Sudoku Puzzle Generation*, section 2).

Rows of the matrix are *candidates* ``(cell, digit)``, numbered
``cell * N + digit - 1``. Columns are *constraints*: first one per cell ("the
cell holds one digit"), then one per (unit, digit) ("the unit holds the digit
once"), numbered ``ncells + unit * N + digit - 1``. A solution is a set of
candidates covering every column exactly once. For 9x9 the matrix is 729 x 324.

Every column has exactly N candidates, so the matrix is stored densely as
``column_candidates`` (``ncols x N``); ``candidate_columns`` lists, for each
candidate, the columns it covers (padded with -1 where cells are in fewer units,
as off-diagonal cells of X-Sudoku are).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import IO

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_output

IntArray = NDArray[np.int32]


def candidate(cell: int, digit: int, size: int) -> int:
    """The candidate index of ``digit`` (1-based) in ``cell``."""
    return cell * size + digit - 1


@dataclass(frozen=True)
class ExactCover:
    """The exact-cover matrix of a geometry, in the dense forms the engine uses.

    Attributes:
        geometry: the shape it encodes.
        column_candidates: ``(ncols, N)`` candidate indices of every column.
        candidate_columns: ``(ncandidates, k)`` columns of every candidate, -1 padded.
        ncell_columns: how many leading columns are cell columns (= ncells).
    """

    geometry: Geometry
    column_candidates: IntArray
    candidate_columns: IntArray
    ncell_columns: int

    @property
    def ncolumns(self) -> int:
        """Number of constraint columns."""
        return int(self.column_candidates.shape[0])

    @property
    def ncandidates(self) -> int:
        """Number of candidate rows."""
        return int(self.candidate_columns.shape[0])

    def column_name(self, column: int) -> str:
        """Readable name: ``"r1c2"`` for a cell column, ``"5 in row 3"`` for a unit column."""
        g = self.geometry
        if column < self.ncell_columns:
            return g.cell_name(column)
        unit, d = divmod(column - self.ncell_columns, g.size)
        return f"{d + 1} in {g.unit_name(unit)}"

    def column_unit(self, column: int) -> int:
        """The unit of a unit-digit column, -1 for a cell column."""
        if column < self.ncell_columns:
            return -1
        return (column - self.ncell_columns) // self.geometry.size

    def to_dense(self) -> NDArray[np.uint8]:
        """The full 0/1 matrix, candidates x constraints (729 x 324 for 9x9)."""
        m = np.zeros((self.ncandidates, self.ncolumns), dtype=np.uint8)
        for col, cands in enumerate(self.column_candidates):
            m[cands, col] = 1
        return m

    def to_sparse(self) -> object:
        """The matrix as a ``scipy.sparse.csr_matrix`` (candidates x constraints)."""
        from scipy import sparse

        rows = self.column_candidates.reshape(-1)
        cols = np.repeat(np.arange(self.ncolumns), self.geometry.size)
        data = np.ones(rows.size, dtype=np.uint8)
        return sparse.csr_matrix((data, (rows, cols)), shape=(self.ncandidates, self.ncolumns))

    def write(
        self, target: str | os.PathLike[str] | IO[str], clues: NDArray[np.integer] | None = None
    ) -> None:
        """Write the matrix in the plain exact-cover text format used by DLX tools.

        The first line is ``<ncolumns> <ncandidates>``, then one line per
        candidate listing its 0-based columns; comment lines start with ``c``.

        With ``clues`` (a puzzle's flat cells, 0 = empty) the matrix is the
        puzzle's: one more column per clue (after the rules' columns, in cell
        order) that only the clue's own candidate covers, so every exact cover
        takes the clues and the covers are the puzzle's solutions. The rows stay
        one per candidate, numbered as without clues.
        """
        g = self.geometry
        extra: dict[int, int] = {}
        if clues is not None:
            cells = np.flatnonzero(clues)
            extra = {
                candidate(int(c), int(clues[c]), g.size): self.ncolumns + k
                for k, c in enumerate(cells)
            }

        def emit(fh: IO[str]) -> None:
            fh.write(f"c exact cover of {g.name}: candidate = cell*{g.size} + digit-1\n")
            if extra:
                fh.write(
                    f"c columns {self.ncolumns}..{self.ncolumns + len(extra) - 1}: "
                    "the clues, in cell order (each covered by its candidate alone)\n"
                )
            fh.write(f"{self.ncolumns + len(extra)} {self.ncandidates}\n")
            for cand, cols in enumerate(self.candidate_columns.tolist()):
                row = [c for c in cols if c >= 0]
                if cand in extra:
                    row.append(extra[cand])
                fh.write(" ".join(map(str, row)) + "\n")

        with open_output(target) as fh:
            emit(fh)


@lru_cache(maxsize=64)
def exact_cover(geometry: Geometry) -> ExactCover:
    """The (cached) exact-cover matrix of ``geometry``."""
    n = geometry.size
    ncells = geometry.ncells
    units = geometry.units
    digits = np.arange(n, dtype=np.int32)
    cell_cols = np.arange(ncells, dtype=np.int32)[:, None] * n + digits[None, :]
    unit_cols = (units[:, None, :] * n + digits[None, :, None]).reshape(-1, n)
    column_candidates = np.concatenate([cell_cols, unit_cols]).astype(np.int32)
    column_candidates.setflags(write=False)

    width = geometry.cell_units.shape[1] + 1
    candidate_columns = np.full((geometry.ncandidates, width), -1, dtype=np.int32)
    fill = np.zeros(geometry.ncandidates, dtype=np.int32)
    for col, cands in enumerate(column_candidates):
        candidate_columns[cands, fill[cands]] = col
        fill[cands] += 1
    candidate_columns.setflags(write=False)
    return ExactCover(geometry, column_candidates, candidate_columns, ncells)
