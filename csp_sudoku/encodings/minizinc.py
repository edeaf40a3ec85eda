"""Sudoku as a MiniZinc model, for users of MiniZinc solvers (Gecode, Chuffed, OR-tools, ...).

The model is generic over geometries: it lists every unit of the geometry
(rows, columns, boxes or jigsaw regions, and extra units such as the X
diagonals) as 1-based cell indices and posts ``alldifferent`` on each, so the
same file shape serves every variant the engine knows. Cells are numbered
row-major from 1 in the model (cell ``i`` of the engine is ``i + 1``).

* :func:`minizinc_model` with a puzzle: one stand-alone ``.mzn`` with the clues.
* :func:`minizinc_model` with a geometry: the rules with ``clues`` left as a
  parameter, plus :func:`minizinc_data` for a ``.dzn`` per puzzle.

Run with ``minizinc --solver gecode puzzle.mzn`` (or ``-a`` to list every
solution: a unique puzzle prints one).
"""

from __future__ import annotations

import os
from typing import IO

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_output
from csp_sudoku.core.puzzle import Puzzle


def _int_list(values: list[int], per_line: int) -> str:
    rows = [
        ", ".join(str(v) for v in values[i : i + per_line]) for i in range(0, len(values), per_line)
    ]
    return ",\n    ".join(rows)


def minizinc_data(puzzle: Puzzle) -> str:
    """A ``.dzn`` data file giving the clues of ``puzzle`` (0 = empty)."""
    n = puzzle.geometry.size
    return f"clues = [\n    {_int_list([int(v) for v in puzzle.cells.tolist()], n)}\n];\n"


def minizinc_model(puzzle_or_geometry: Puzzle | Geometry) -> str:
    """The MiniZinc model text: rules of the geometry, plus the clues for a puzzle."""
    if isinstance(puzzle_or_geometry, Puzzle):
        puzzle: Puzzle | None = puzzle_or_geometry
        g = puzzle_or_geometry.geometry
        title = f"puzzle {puzzle_or_geometry.to_line()}"
    else:
        puzzle = None
        g = puzzle_or_geometry
        title = "rules only: give the clues in a .dzn file"
    n = g.size
    units = [int(c) + 1 for c in g.units.reshape(-1).tolist()]
    kinds = ", ".join(sorted(set(g.unit_kinds)))
    lines = [
        f"% csp_sudoku: {g.name} Sudoku, {title}",
        f"% units: {g.nunits} ({kinds}); cells numbered row-major from 1",
        'include "alldifferent.mzn";',
        "",
        f"int: n = {n};",
        f"int: nunits = {g.nunits};",
        "array[1..nunits, 1..n] of 1..n*n: units = array2d(1..nunits, 1..n, [",
        f"    {_int_list(units, n)}",
        "]);",
    ]
    if puzzle is None:
        lines.append("array[1..n*n] of 0..n: clues;")
    else:
        lines += [
            "array[1..n*n] of 0..n: clues = [",
            f"    {_int_list([int(v) for v in puzzle.cells.tolist()], n)}",
            "];",
        ]
    lines += [
        "",
        "array[1..n*n] of var 1..n: cell;",
        "constraint forall(i in 1..n*n where clues[i] > 0)(cell[i] = clues[i]);",
        "constraint forall(u in 1..nunits)(alldifferent([cell[units[u, k]] | k in 1..n]));",
        "",
        "solve satisfy;",
        "",
        'output [show(cell[i]) ++ if i mod n == 0 then "\\n" else " " endif | i in 1..n*n];',
        "",
    ]
    return "\n".join(lines)


def write_minizinc(
    puzzle_or_geometry: Puzzle | Geometry, target: str | os.PathLike[str] | IO[str]
) -> None:
    """Write :func:`minizinc_model` to a path or an open text file (for ``csp-sudoku export``)."""
    text = minizinc_model(puzzle_or_geometry)
    with open_output(target) as fh:
        fh.write(text)
