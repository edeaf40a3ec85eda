"""Canonical form: invariant under the symmetry group, and exact on real data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku.core.errors import GeometryError, SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.canonical import (
    are_isomorphic,
    canonical_cells,
    canonical_form,
    canonical_key,
    canonical_many,
    canonical_with_isomorphism,
    random_isomorphism,
)
from tests.conftest import load_lines

#: A solution grid (of the first 17-clue puzzle) to cut random puzzles from.
GRID = "693784512487512936125963874932651487568247391741398625319475268856129743274836159"
GRID_CELLS = np.array([int(c) for c in GRID], dtype=np.int8)


def _cut(mask_seed: int, keep: float) -> Puzzle:
    rng = np.random.default_rng(mask_seed)
    cells = np.where(rng.random(81) < keep, GRID_CELLS, 0).astype(np.int8)
    return Puzzle(cells)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**32 - 1),
    st.sampled_from([0.0, 0.2, 0.25, 0.3, 0.4, 0.6]),
)
def test_random_isomorphs_share_the_form(mask_seed: int, iso_seed: int, keep: float) -> None:
    p = _cut(mask_seed, keep)
    q = random_isomorphism(iso_seed).apply(p)
    assert canonical_key(p) == canonical_key(q)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_form_is_an_isomorph_of_the_input(mask_seed: int, iso_seed: int) -> None:
    p = random_isomorphism(iso_seed).apply(_cut(mask_seed, 0.3))
    form, iso = canonical_with_isomorphism(p)
    assert np.array_equal(iso.apply(p).cells, form)
    assert sorted(iso.digit_map[1:]) == list(range(1, 10))
    # idempotent, and the clue count is kept
    assert np.array_equal(canonical_cells(Puzzle(form)), form)
    assert np.count_nonzero(form) == p.clue_count


def test_full_grid_and_empty_grid() -> None:
    grid = Puzzle(GRID_CELLS)
    iso = random_isomorphism(7)
    assert canonical_key(grid) == canonical_key(iso.apply(grid))
    assert canonical_key(Puzzle(np.zeros(81, np.int8))) == "." * 81
    # the form of a full grid starts 123456789 (least relabelling of row one)
    assert canonical_key(grid).startswith("123456789")


def test_distinct_classes_get_distinct_forms() -> None:
    lines = load_lines("17_clue.txt", limit=300)
    keys = {canonical_key(parse_line(s)) for s in lines}
    assert len(keys) == len(lines)  # the 17-clue list holds one puzzle per class


def test_batch_agrees_with_single() -> None:
    puzzles = [_cut(s, 0.35) for s in range(20)]
    arr = canonical_many(puzzles)
    assert arr.shape == (20, 81)
    for p, row in zip(puzzles, arr, strict=True):
        assert np.array_equal(row, canonical_cells(p))
    assert np.array_equal(canonical_many(np.stack([p.cells for p in puzzles])), arr)


def test_non_isomorphic_puzzles_differ() -> None:
    a = _cut(1, 0.3)
    b = a.without([int(a.clue_cells()[0])])
    assert not are_isomorphic(a, b)
    assert are_isomorphic(a, random_isomorphism(3).apply(a))
    assert canonical_form(a).clue_count == a.clue_count


def test_other_geometries_are_refused() -> None:
    with pytest.raises(GeometryError):
        canonical_key(Puzzle(np.zeros(16, np.int8)))
    with pytest.raises(SudokuError):
        canonical_key(Puzzle(np.zeros(81, np.int8), Geometry.x_sudoku(9)))
    with pytest.raises(GeometryError):
        canonical_many(np.zeros((2, 80), np.int8))


@pytest.mark.slow
def test_17_clue_list_has_49158_forms() -> None:
    lines = load_lines("17_clue.txt")
    arr = np.array([[0 if c == "." else int(c) for c in s] for s in lines], dtype=np.int8)
    forms = canonical_many(arr)
    assert len(lines) == 49158
    assert len({row.tobytes() for row in forms}) == 49158


def test_canonical_many_takes_lines_and_refuses_what_is_no_batch() -> None:
    """Lines raised AttributeError, None TypeError, and 1.5 was cut to 1."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError
    from csp_sudoku.tools.canonical import canonical_many, random_isomorphism

    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    moved = random_isomorphism(3).apply(line)  # a line is a puzzle here too
    forms = canonical_many([line, moved, cs.parse(line)])
    assert (forms[0] == forms[1]).all() and (forms[0] == forms[2]).all()
    for bad in (None, line):
        with pytest.raises(ArgumentError, match="canonical_many takes"):
            canonical_many(bad)  # type: ignore[arg-type]
    with pytest.raises(cs.GeometryError, match="whole numbers"):
        canonical_many(np.full((1, 81), 1.5))  # type: ignore[arg-type]
