"""Kept for imports written before :mod:`csp_sudoku.seeds`; use that module.

``derive(seed, index)`` here is :func:`csp_sudoku.seeds.attempt_seed` (attempt
``index`` of a stream), not :func:`csp_sudoku.seeds.derive`.
"""

from __future__ import annotations

from csp_sudoku.seeds import SeedLike, as_generator, as_seed, fresh_seed, numba_seed, stream_seed
from csp_sudoku.seeds import attempt_seed as derive

__all__ = [
    "SeedLike",
    "as_generator",
    "as_seed",
    "derive",
    "fresh_seed",
    "numba_seed",
    "stream_seed",
]
