"""``csp-sudoku candidates``: the true candidates of variant puzzles (see :mod:`csp_sudoku.cli.variants`)."""

from __future__ import annotations

from typing import Any

from csp_sudoku.cli.variants import register_candidates


def register(sub: Any) -> None:
    register_candidates(sub)
