"""Bit helpers for candidate masks at the numpy level (the compiled ones are in the kernels).

A candidate mask holds digit ``d`` in bit ``d - 1``. :func:`popcount` counts the
set bits of every element of an integer array, with ``np.bitwise_count`` where
NumPy has it (2.0 and later) and the same result from ``np.unpackbits`` on the
older NumPy that ``pyproject.toml`` allows.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from csp_sudoku.core.errors import ArgumentError

__all__ = ["popcount"]


def popcount(values: ArrayLike) -> NDArray[np.uint8]:
    """The number of set bits of each element (of its absolute value), as ``uint8``.

    The same as ``np.bitwise_count`` (NumPy 2), on NumPy 1.26 too.
    """
    arr = np.asarray(values)
    if not np.issubdtype(arr.dtype, np.integer):
        raise ArgumentError(f"popcount needs an integer array, got {arr.dtype}")
    counter = getattr(np, "bitwise_count", None)
    if counter is not None:
        out: NDArray[np.uint8] = counter(arr)
        return out
    return _popcount_portable(arr)


def _popcount_portable(arr: NDArray[np.integer]) -> NDArray[np.uint8]:
    """``np.bitwise_count`` without it: unpack the bytes of ``|arr|`` and sum the bits."""
    magnitude = np.ascontiguousarray(
        np.abs(arr) if np.issubdtype(arr.dtype, np.signedinteger) else arr
    )
    as_bytes = magnitude.view(np.uint8).reshape(*magnitude.shape, magnitude.dtype.itemsize)
    out: NDArray[np.uint8] = np.unpackbits(as_bytes, axis=-1).sum(axis=-1, dtype=np.uint8)
    return out
