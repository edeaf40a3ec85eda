"""Variant Sudoku: constraints beyond the units, the variant puzzle, f-puzzles in and out.

A variant puzzle (:class:`VariantPuzzle`) is a geometry, its givens and a
tuple of constraints. Each constraint kind is a frozen dataclass in one file
of this package (``killer.py``, ``thermometer.py`` ...), registered by name
in :data:`registry.KINDS`; ``TEMPLATE.py`` shows how to add one. Solving
lives one layer up, in :mod:`csp_sudoku.variants`.
"""

from csp_sudoku.constraints.base import Cell, Cnf, Constraint
from csp_sudoku.constraints.fpuzzles import (
    compress,
    decompress,
    from_fpuzzles,
    link,
    parse_fpuzzles,
    to_fpuzzles,
)
from csp_sudoku.constraints.puzzle import VariantPuzzle
from csp_sudoku.constraints.registry import KINDS

__all__ = [
    "KINDS",
    "Cell",
    "Cnf",
    "Constraint",
    "VariantPuzzle",
    "compress",
    "decompress",
    "from_fpuzzles",
    "link",
    "parse_fpuzzles",
    "to_fpuzzles",
]
