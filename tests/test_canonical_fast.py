"""The pruned canonical-form search is the same function as the exhaustive one.

The exhaustive search (``exhaustive_many``: every column map, every row map of
each tie) is the kernel the shipped reference keys and older banks were built
with; the pruned search (``canonical_batch``, row by row) must give the same
form for every puzzle. Each test compares the two on puzzles that stress a
different part of the pruned search: random clue sets of every density,
random isomorphs of one puzzle, clue patterns with symmetries (many row orders
tie), puzzles cut from a grid with many automorphisms (ties in the digits
too), very few and very many clues, and the published lists.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from csp_sudoku._kernels import canonical as k
from csp_sudoku.tools.canonical import canonical_with_isomorphism, random_isomorphism
from tests.conftest import load_lines

#: A solution grid (of the first 17-clue puzzle).
GRID = np.array(
    [
        int(c)
        for c in "693784512487512936125963874932651487568247391741398625319475268856129743274836159"
    ],
    dtype=np.int8,
)
#: A grid with many automorphisms: row ``r`` is the first row shifted by
#: ``3 * (r % 3) + r // 3`` (its bands, stacks and digits map onto each other).
SYMMETRIC_GRID = np.array(
    [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)], dtype=np.int8
)
ROW, COL = np.divmod(np.arange(81), 9)
#: Cell maps of pattern symmetries that are isomorphisms (a clue set closed
#: under one has an automorphism of its pattern): half turn, quarter turn,
#: mirror, main diagonal.
SYMMETRY_MAPS = {
    "rot180": (8 - ROW) * 9 + (8 - COL),
    "rot90": COL * 9 + (8 - ROW),
    "mirror": ROW * 9 + (8 - COL),
    "diagonal": COL * 9 + ROW,
}


def exhaustive(cells: NDArray[np.int8]) -> NDArray[np.int8]:
    """The reference: the exhaustive kernel's forms of an ``(n, 81)`` array."""
    out: NDArray[np.int8] = k.exhaustive_many(
        np.ascontiguousarray(cells, dtype=np.int8), k.LINE_MAPS, k.MASK_TABLE
    )
    return out


def pruned(cells: NDArray[np.int8]) -> NDArray[np.int8]:
    """The fast kernel's forms of an ``(n, 81)`` array."""
    out: NDArray[np.int8] = k.canonical_batch(np.ascontiguousarray(cells, dtype=np.int8))
    return out


def assert_same(cells: NDArray[np.int8]) -> None:
    """Both kernels give the same form for every row of ``cells``."""
    fast, slow = pruned(cells), exhaustive(cells)
    bad = np.flatnonzero((fast != slow).any(axis=1))
    assert bad.size == 0, f"{bad.size} of {len(cells)} differ, first {cells[bad[0]].tolist()}"


def random_grid(rng: np.random.Generator, base: NDArray[np.int8] = GRID) -> NDArray[np.int8]:
    """A random isomorph of a solution grid."""
    iso = random_isomorphism(rng)
    return iso.apply_cells(base)


def cut(rng: np.random.Generator, grid: NDArray[np.int8], clues: int) -> NDArray[np.int8]:
    """``grid`` with ``clues`` cells kept, the others emptied (a random choice)."""
    keep = np.zeros(81, bool)
    keep[rng.choice(81, size=clues, replace=False)] = True
    return np.where(keep, grid, 0).astype(np.int8)


def symmetric_cut(
    rng: np.random.Generator, grid: NDArray[np.int8], symmetry: str, clues: int
) -> NDArray[np.int8]:
    """``grid`` cut to a clue pattern closed under ``symmetry`` (about ``clues`` clues)."""
    step = SYMMETRY_MAPS[symmetry]
    keep = np.zeros(81, bool)
    for cell in rng.permutation(81):
        if keep.sum() >= clues:
            break
        orbit = [int(cell)]
        while (nxt := int(step[orbit[-1]])) != orbit[0]:
            orbit.append(nxt)
        keep[orbit] = True
    return np.where(keep, grid, 0).astype(np.int8)


def test_random_puzzles_of_0_to_60_clues() -> None:
    rng = np.random.default_rng(2024)
    rows = [cut(rng, random_grid(rng), int(rng.integers(0, 61))) for _ in range(400)]
    assert_same(np.stack(rows))


def test_typical_clue_counts() -> None:
    rng = np.random.default_rng(7)
    rows = [cut(rng, random_grid(rng), int(rng.integers(17, 36))) for _ in range(1500)]
    assert_same(np.stack(rows))


def test_few_clues() -> None:
    """0-8 clues: the least pattern has long runs of ties at every row."""
    rng = np.random.default_rng(11)
    rows = [np.zeros(81, np.int8)]
    rows += [cut(rng, random_grid(rng), clues) for clues in range(1, 9) for _ in range(40)]
    assert_same(np.stack(rows))


def test_many_clues() -> None:
    """60-80 clues, where many maps keep the pattern (empty cells are rare)."""
    rng = np.random.default_rng(13)
    rows = [cut(rng, random_grid(rng), clues) for clues in range(60, 81) for _ in range(3)]
    assert_same(np.stack(rows))


@pytest.mark.parametrize("base", [GRID, SYMMETRIC_GRID], ids=["grid", "symmetric-grid"])
def test_full_grids(base: NDArray[np.int8]) -> None:
    """A full grid keeps its pattern under every map: the whole group is tried."""
    rng = np.random.default_rng(17)
    assert_same(np.stack([base, random_grid(rng, base)]))


@pytest.mark.parametrize("symmetry", sorted(SYMMETRY_MAPS))
def test_symmetric_patterns(symmetry: str) -> None:
    """Patterns closed under a symmetry, digits from a plain grid and from a grid
    with automorphisms (which may carry the digits along too)."""
    rng = np.random.default_rng(len(symmetry))
    rows = []
    for base in (GRID, SYMMETRIC_GRID):
        for clues in (4, 12, 18, 24, 30, 40, 56):
            for _ in range(15):
                rows.append(
                    random_isomorphism(rng).apply_cells(symmetric_cut(rng, base, symmetry, clues))
                )
    assert_same(np.stack(rows))


def test_isomorphs_of_one_puzzle_share_the_reference_form() -> None:
    rng = np.random.default_rng(19)
    for clues in (17, 25, 33):
        puzzle = cut(rng, GRID, clues)
        images = np.stack([random_isomorphism(rng).apply_cells(puzzle) for _ in range(60)])
        want = exhaustive(puzzle[None, :])[0]
        assert (pruned(images) == want).all()


@pytest.mark.parametrize("name", ["17_clue.txt", "top1465.txt", "forum_hardest_11plus.txt"])
def test_published_lists(name: str) -> None:
    lines = load_lines(name, limit=400, step=37)
    cells = np.array([[0 if c in ".0" else int(c) for c in s] for s in lines], dtype=np.int8)
    assert_same(cells)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 81),
    st.sampled_from([None, *sorted(SYMMETRY_MAPS)]),
    st.booleans(),
)
def test_any_puzzle(seed: int, clues: int, symmetry: str | None, automorphic: bool) -> None:
    rng = np.random.default_rng(seed)
    grid = random_grid(rng, SYMMETRIC_GRID if automorphic else GRID)
    puzzle = (
        cut(rng, grid, clues) if symmetry is None else symmetric_cut(rng, grid, symmetry, clues)
    )
    image = random_isomorphism(rng).apply_cells(puzzle)
    both = np.stack([puzzle, image])
    fast = pruned(both)
    assert np.array_equal(fast, exhaustive(both))
    assert np.array_equal(fast[0], fast[1])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 81))
def test_the_map_found_gives_the_form(seed: int, clues: int) -> None:
    """The fast kernel's map (transposition, row map, column map) produces the form."""
    rng = np.random.default_rng(seed)
    puzzle = cut(rng, random_grid(rng), clues)
    form, iso = canonical_with_isomorphism(puzzle)
    assert np.array_equal(iso.apply_cells(puzzle), form)
    assert np.array_equal(form, exhaustive(puzzle[None, :])[0])
