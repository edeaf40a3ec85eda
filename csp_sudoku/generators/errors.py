"""The generators' errors; defined in :mod:`csp_sudoku.errors` with every other error."""

from __future__ import annotations

from csp_sudoku.errors import BudgetExhaustedError, GenerationError

__all__ = ["BudgetExhaustedError", "GenerationError"]
