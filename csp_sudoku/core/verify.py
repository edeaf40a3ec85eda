"""An independent check that a grid solves a puzzle.

Deliberately simple (Norvig's ``is_solution``): every unit holds each digit once
and every clue is kept. It uses only the geometry's unit list, not any solver
or encoding, so it can judge the backends.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse
from csp_sudoku.core.puzzle import Puzzle


def is_solution(
    solution: Puzzle | str | NDArray[np.integer],
    puzzle: Puzzle | str | NDArray[np.integer] | None = None,
) -> bool:
    """True when ``solution`` is a full valid grid that keeps every clue of ``puzzle``.

    Either may be a :class:`Puzzle`, puzzle text (``parse``) or an array of
    cells. A ``solution`` text is read in the
    puzzle's shape when a puzzle is given, and the grid is held to the puzzle's
    rules (an X-Sudoku's diagonals, a jigsaw's regions), whatever the geometry of a
    ``solution`` Puzzle; a grid of another size solves no puzzle (False).

    Raises:
        ParseError: a text that is not a puzzle, or a ``solution`` that is no
            sequence of cells (None, a number).
    """
    if isinstance(puzzle, str):
        puzzle = parse(puzzle)
    elif puzzle is not None and not isinstance(puzzle, Puzzle):  # cells, as for the solution
        puzzle = Puzzle(puzzle)
    if isinstance(solution, str):
        solution = parse(solution, puzzle.geometry if puzzle is not None else None)
    if isinstance(solution, Puzzle):
        cells = solution.cells
        # the puzzle's rules decide (an X-Sudoku's diagonals): a plain grid's own
        # geometry let a grid that breaks them pass as the X-Sudoku's solution
        geometry: Geometry = solution.geometry if puzzle is None else puzzle.geometry
    else:
        if solution is None or np.ndim(solution) == 0:  # no grid ("1 cells is not ...")
            raise ParseError(
                f"a solution is a Puzzle, a puzzle line or a sequence of cell values, "
                f"got {type(solution).__name__} {solution!r:.40}"
            )
        cells = np.asarray(solution).reshape(-1)
        geometry = puzzle.geometry if puzzle is not None else Geometry.for_cells(cells.size)
    if cells.size != geometry.ncells or (puzzle is not None and puzzle.cells.size != cells.size):
        return False
    want = np.arange(1, geometry.size + 1)
    for unit in geometry.units:
        if not np.array_equal(np.sort(cells[unit]), want):
            return False
    if puzzle is not None:
        clues = puzzle.cells
        mask = clues > 0
        if not np.array_equal(cells[mask], clues[mask]):
            return False
    return True


def solution_fault(
    solution: NDArray[np.integer], geometry: Geometry, clues: NDArray[np.integer] | None = None
) -> str | None:
    """Why ``solution`` (cells) is not a full valid grid of ``geometry`` keeping
    every clue of ``clues``, or None when it is.

    For the functions that take a solution on trust (the removal, the local
    search move, :meth:`Checker.removable_clues`): a partial or wrong one makes
    them loop for ever or answer untruly, so they refuse it with this reason.
    """
    cells = np.asarray(solution).reshape(-1)
    if cells.size != geometry.ncells:
        return f"the solution has {cells.size} cells; a {geometry.name} grid has {geometry.ncells}"
    empty = int(np.count_nonzero(cells == 0))
    if empty:
        return f"the solution must be a full grid; it has {empty} empty cells"
    units = np.asarray(geometry.units)
    if units.ndim == 2 and units.size and units.min() >= 0:  # every unit full: at once
        valid = bool((np.sort(cells[units], axis=1) == np.arange(1, geometry.size + 1)).all())
    else:
        valid = is_solution(Puzzle.trusted(cells.astype(np.int8), geometry))
    if not valid:
        return "the solution breaks a row, column or box: it is no valid grid"
    if clues is not None:
        given = np.asarray(clues).reshape(-1)
        wrong = np.flatnonzero((given != 0) & (cells != given))
        if wrong.size:
            c = int(wrong[0])
            return (
                f"the solution does not keep the puzzle's clue at {geometry.cell_name(c)} "
                f"({int(given[c])}, not {int(cells[c])})"
            )
    return None
