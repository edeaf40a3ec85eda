"""Per-geometry tables for the compiled kernels of the human model (built once, cached)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.exact_cover import exact_cover

I32 = NDArray[np.int32]


@dataclass(frozen=True)
class Tables:
    """Contiguous int32 tables of one geometry.

    Attributes:
        peers: ``(ncells, maxp)`` peers of each cell, -1 padded.
        npeers: number of peers of each cell.
        units: ``(nunits, N)`` cells of each unit.
        column_candidates: ``(ncols, N)`` exact-cover candidates of each column.
        candidate_columns: ``(ncand, k)`` columns of each candidate, -1 padded.
        ncell_columns: the number of cell columns (= ncells).
    """

    peers: I32
    npeers: I32
    units: I32
    column_candidates: I32
    candidate_columns: I32
    ncell_columns: int


@lru_cache(maxsize=64)
def tables(geometry: Geometry) -> Tables:
    """The (cached) kernel tables of ``geometry``."""
    ec = exact_cover(geometry)
    return Tables(
        geometry.peer_table,
        geometry.peer_counts,
        np.ascontiguousarray(geometry.units, dtype=np.int32),
        np.ascontiguousarray(ec.column_candidates, dtype=np.int32),
        np.ascontiguousarray(ec.candidate_columns, dtype=np.int32),
        ec.ncell_columns,
    )
