"""Sudoku as CNF for python-sat.

One Boolean per candidate, keyed ``(cell, digit)`` in a python-sat ``IDPool``
(so variable ``cell * N + digit`` for a fresh pool: candidate index + 1). Each
exact-cover column becomes an *exactly one* constraint built by python-sat's
``CardEnc`` (pairwise at-most-one, which is the fastest for these small
columns on 9x9; a sequential counter above 9 digits), so the rules are the
same model as :mod:`csp_sudoku.encodings.exact_cover`. Clues are not part of
the formula: they are passed as *assumptions*, so one loaded solver serves every
puzzle of a geometry.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from functools import lru_cache
from typing import IO

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import staged
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.exact_cover import exact_cover


def variable(cell: int, digit: int, size: int) -> int:
    """The CNF variable of candidate ``(cell, digit)``: ``cell * size + digit``."""
    return cell * size + digit


#: python-sat's ``CNF`` records every clause it is given in one process-wide
#: variable pool (``Formula._vpool``), which is not thread-safe: two threads
#: building formulas at once corrupt it ("list modified during sort"). Every
#: formula of the library is built under this lock.
_FORMULA_LOCK = threading.RLock()


def rules_cnf(geometry: Geometry) -> CNF:
    """The (cached) CNF of the rules of ``geometry``, without clues; thread-safe.

    Do not mutate the returned formula; :func:`puzzle_cnf` gives an extended copy.
    """
    with _FORMULA_LOCK:
        return _rules_cnf(geometry)


@lru_cache(maxsize=64)
def _rules_cnf(geometry: Geometry) -> CNF:
    n = geometry.size
    # python-sat's IDPool has a shared mutable default for ``occupied``: two pools made
    # with the default at once in two threads sort one list together and fail
    pool = IDPool(occupied=[])
    for cell in range(geometry.ncells):
        for d in range(1, n + 1):
            pool.id((cell, d))  # reserve ids 1..N^3 in candidate order
    cover = exact_cover(geometry)
    enc = EncType.pairwise if n <= 9 else EncType.seqcounter
    cnf = CNF()
    for cands in cover.column_candidates.tolist():
        lits = [pool.id((c // n, c % n + 1)) for c in cands]
        cnf.extend(CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=enc).clauses)
    return cnf


def clue_literals(puzzle: Puzzle) -> list[int]:
    """The assumptions that fix the clues of ``puzzle``."""
    n = puzzle.geometry.size
    cells = puzzle.cells
    return [variable(int(c), int(cells[c]), n) for c in puzzle.clue_cells()]


def puzzle_cnf(puzzle: Puzzle, extra: Iterable[list[int]] = ()) -> CNF:
    """A stand-alone CNF for one puzzle: the rules, one unit clause per clue, then ``extra``.

    Built under the library's formula lock, so threads may call it at once.
    """
    with _FORMULA_LOCK:
        cnf = _rules_cnf(puzzle.geometry).copy()
        for lit in clue_literals(puzzle):
            cnf.append([lit])
        for clause in extra:
            cnf.append(clause)
        return cnf


def write_dimacs(
    puzzle_or_geometry: Puzzle | Geometry, target: str | os.PathLike[str] | IO[str]
) -> None:
    """Write DIMACS CNF: the rules, plus the clues as unit clauses for a puzzle.

    Variables ``1..N^3`` are the candidates: ``cell * N + digit`` (cell 0-based).
    """
    if isinstance(puzzle_or_geometry, Puzzle):
        cnf = puzzle_cnf(puzzle_or_geometry)
        g = puzzle_or_geometry.geometry
        title = f"puzzle {puzzle_or_geometry.to_line()}"
    else:
        g = puzzle_or_geometry
        cnf = rules_cnf(g)
        title = "rules only"
    comments = [
        f"c csp_sudoku {g.name} {title}",
        f"c variable cell*{g.size}+digit is true when the 0-based cell holds the digit",
    ]
    if isinstance(target, (str, os.PathLike)):
        with staged(target) as tmp:
            cnf.to_file(tmp, comments=comments)
    else:
        cnf.to_fp(target, comments=comments)
