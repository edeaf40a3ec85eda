"""The generators' errors, all :class:`~csp_sudoku.errors.SudokuError` subclasses."""

from __future__ import annotations

from csp_sudoku.errors import SudokuError

__all__ = ["BudgetExhaustedError", "GenerationError"]


class GenerationError(SudokuError):
    """A generator could not make what was asked (bad options, impossible target)."""


class BudgetExhaustedError(GenerationError):
    """The time or attempt budget ran out before every puzzle asked for was found.

    Attributes:
        found: how many puzzles were produced before the budget ran out.
        wanted: how many were asked for.
    """

    def __init__(self, message: str, *, found: int = 0, wanted: int = 0) -> None:
        super().__init__(message)
        self.found = found
        self.wanted = wanted
