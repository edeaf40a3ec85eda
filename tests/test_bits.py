"""csp_sudoku.core.bits: one popcount, the same with and without np.bitwise_count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from csp_sudoku.core.bits import _popcount_portable, popcount
from csp_sudoku.core.errors import ArgumentError


@given(st.lists(st.integers(-(2**62), 2**62), min_size=0, max_size=40))
def test_popcount_counts_bits(values: list[int]) -> None:
    arr = np.asarray(values, dtype=np.int64)
    want = [bin(abs(v)).count("1") for v in values]
    assert popcount(arr).tolist() == want
    assert _popcount_portable(arr).tolist() == want
    assert popcount(arr).dtype == np.uint8 == _popcount_portable(arr).dtype


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64])
def test_popcount_keeps_the_shape_for_any_integer_type(dtype: type) -> None:
    arr = np.arange(12, dtype=dtype).reshape(3, 4)
    assert np.array_equal(_popcount_portable(arr), popcount(arr))
    assert popcount(arr).shape == (3, 4)


def test_popcount_refuses_floats() -> None:
    with pytest.raises(ArgumentError):
        popcount(np.ones(3))
