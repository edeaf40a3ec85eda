"""Variant puzzles in the formats ``csp-sudoku export`` writes: MiniZinc, and plain puzzles as variants.

* :func:`minizinc_model`: the MiniZinc model of a variant puzzle. The grid's
  rules and givens are the classic model of
  :func:`csp_sudoku.encodings.minizinc.minizinc_model` (``alldifferent`` on
  every unit, over the integer cells ``cell[1..n*n]``); the constraints are
  their CNF clauses (the very clauses of :func:`csp_sudoku.variants.variant_cnf`)
  as ``bool_clause`` items over Booleans ``x[1..nvars]``, the first ``n*n*n``
  of them channelled to the cells (``x[(i-1)*n+d]`` is ``cell[i] = d``, the
  numbering of :func:`csp_sudoku.encodings.cnf.variable`). Every MiniZinc
  solver reads it; the constraints are not written as MiniZinc's own
  global constraints.
* :func:`as_variant`: a plain puzzle as a variant one, its extra units (X
  diagonals, Windoku windows) written as the diagonal and extra-region kinds,
  so that f-puzzles can hold it.
"""

from __future__ import annotations

from csp_sudoku.constraints import VariantPuzzle
from csp_sudoku.constraints.base import Constraint
from csp_sudoku.constraints.diagonal_down import DiagonalDown
from csp_sudoku.constraints.diagonal_up import DiagonalUp
from csp_sudoku.constraints.extra_region import ExtraRegion
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings import minizinc
from csp_sudoku.variants import _constraint_clauses

#: Clauses written on one line of the model (a long line for each would be as good;
#: a few per line keep the file readable).
_PER_LINE = 4


def minizinc_model(puzzle: VariantPuzzle) -> str:
    """The MiniZinc model text of ``puzzle``: the classic model, then the constraints as clauses."""
    text = minizinc.minizinc_model(puzzle.puzzle)
    clauses, top = _constraint_clauses(puzzle)
    if not clauses:
        return text
    items = [
        "bool_clause([{}], [{}])".format(
            ",".join(f"x[{lit}]" for lit in clause if lit > 0),
            ",".join(f"x[{-lit}]" for lit in clause if lit < 0),
        )
        for clause in clauses
    ]
    rows = [
        "constraint " + " /\\ ".join(items[i : i + _PER_LINE]) + ";"
        for i in range(0, len(items), _PER_LINE)
    ]
    lines = [
        f"% variant constraints: {', '.join(puzzle.kinds())}, as {len(clauses)} clauses",
        "% over x[(i-1)*n+d] (cell i holds digit d) and auxiliary Booleans above n*n*n",
        f"int: nvars = {top};",
        "array[1..nvars] of var bool: x;",
        "constraint forall(i in 1..n*n, d in 1..n)(x[(i-1)*n+d] <-> cell[i] = d);",
        *rows,
        "",
    ]
    return text + "\n".join(lines)


def as_variant(puzzle: Puzzle) -> VariantPuzzle:
    """``puzzle`` as a variant puzzle on the geometry without its extra units.

    A main diagonal becomes :class:`DiagonalDown` or :class:`DiagonalUp`, any
    other extra unit an :class:`ExtraRegion`; standard and jigsaw puzzles have
    no constraints.
    """
    g = puzzle.geometry
    if not g.extra_units:
        return VariantPuzzle(puzzle)
    n = g.size
    plain = (
        Geometry.jigsaw(list(g.regions))
        if g.regions is not None
        else Geometry.standard(n, g.box_rows, g.box_cols)
    )
    down = tuple(i * n + i for i in range(n))
    up = tuple(i * n + (n - 1 - i) for i in range(n))
    constraints: list[Constraint] = []
    for unit in g.extra_units:
        if tuple(sorted(unit)) == down:
            constraints.append(DiagonalDown())
        elif tuple(sorted(unit)) == tuple(sorted(up)):
            constraints.append(DiagonalUp())
        else:
            constraints.append(ExtraRegion(tuple((c // n, c % n) for c in unit)))
    return VariantPuzzle(Puzzle(puzzle.cells, plain), tuple(constraints))


__all__ = ["as_variant", "minizinc_model"]
