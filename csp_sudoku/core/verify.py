"""An independent check that a grid solves a puzzle.

Deliberately simple (Norvig's ``is_solution``): every unit holds each digit once
and every clue is kept. It uses only the geometry's unit list, not any solver
or encoding, so it can judge the backends.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse
from csp_sudoku.core.puzzle import Puzzle


def is_solution(
    solution: Puzzle | str | NDArray[np.integer], puzzle: Puzzle | str | None = None
) -> bool:
    """True when ``solution`` is a full valid grid that keeps every clue of ``puzzle``.

    Either may be a :class:`Puzzle` or puzzle text (``parse``); ``solution``
    may also be an array of cells. A ``solution`` text is read in the
    puzzle's shape when a puzzle is given.

    Raises:
        ParseError: a text that is not a puzzle.
    """
    if isinstance(puzzle, str):
        puzzle = parse(puzzle)
    if isinstance(solution, str):
        solution = parse(solution, puzzle.geometry if puzzle is not None else None)
    if isinstance(solution, Puzzle):
        cells = solution.cells
        geometry: Geometry = solution.geometry
    else:
        cells = np.asarray(solution).reshape(-1)
        geometry = puzzle.geometry if puzzle is not None else Geometry.for_cells(cells.size)
    if cells.size != geometry.ncells:
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
