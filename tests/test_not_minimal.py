"""Non-minimal generation: a full grid is dug as RG2's paper digs, never given whole.

``random`` (and the annealing search's fresh starts) begin from a full grid;
``minimal=False`` used to keep it, so a run gave solved grids as puzzles, a
``max_clues`` could never be met (the run went on for ever), and the search
climbed grids it could not move. Every puzzle here is checked by the
independent counter of ``tests/independent.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators.grids import random_grid
from csp_sudoku.generators.minimal import reduce_clues
from tests.independent import count_solutions, symmetry_image

NINE = Geometry.standard(9)


def _cells(p: cs.Puzzle) -> list[int]:
    return [int(v) for v in np.asarray(p.cells).ravel()]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), max_clues=st.one_of(st.none(), st.integers(24, 60)))
def test_not_minimal_gives_unique_puzzles_of_at_most_max_clues(
    seed: int, max_clues: int | None
) -> None:
    (g,) = cs.generate(1, minimal=False, max_clues=max_clues, seed=seed)
    cells = _cells(g.puzzle)
    filled = sum(1 for v in cells if v)
    assert filled < 81
    if max_clues is not None:
        assert filled <= max_clues
    assert count_solutions(cells, limit=2) == 1


def test_digging_stops_at_the_first_removal_that_fails() -> None:
    """RG2: once a removal is undone (at most ``until`` clues left), the digging ends,
    so a second dig with the same order and a lower ``until`` removes more."""
    sol = np.asarray(random_grid(NINE, seed=7).cells, dtype=np.int8).ravel()
    outs = {}
    for until in (81, 40, 30):
        rng = np.random.default_rng(11)
        outs[until] = reduce_clues(sol.copy(), sol, NINE, rng, until=until)
    counts = {u: int(np.count_nonzero(c)) for u, c in outs.items()}
    assert counts[30] <= 30 and counts[40] <= 40
    assert counts[30] <= counts[40] <= counts[81] < 81
    # the same order: each dig is the one before it carried further
    assert np.all((outs[40] == 0) | (outs[40] == outs[81]))
    assert np.all((outs[30] == 0) | (outs[30] == outs[40]))
    assert not np.any((outs[81] == 0) & (outs[40] != 0))
    for c in outs.values():
        assert count_solutions([int(v) for v in c], limit=2) == 1
    full = reduce_clues(sol.copy(), sol, NINE, np.random.default_rng(11))
    assert bool(cs.is_minimal(cs.Puzzle(full, NINE)))
    assert int(np.count_nonzero(full)) <= counts[30]


@pytest.mark.parametrize("symmetry", ["rot180", "rot90"])
def test_not_minimal_keeps_the_symmetry(symmetry: str) -> None:
    for g in cs.generate(2, minimal=False, symmetry=symmetry, seed=3):
        cells = _cells(g.puzzle)
        assert 0 < sum(1 for v in cells if v) < 81
        assert count_solutions(cells, limit=2) == 1
        for i, v in enumerate(cells):
            r, c = divmod(i, 9)
            rr, cc = symmetry_image(9, symmetry, r, c)
            assert (v != 0) == (cells[rr * 9 + cc] != 0)


def test_the_annealing_search_climbs_dug_puzzles() -> None:
    """A hard target without minimality: the search's states are dug puzzles, so
    its moves change them and it reaches a rating it could not on a full grid."""
    (g,) = cs.generate(
        1, minimal=False, level="hard", metric="rounds", method="anneal", seed=5,
        budget_seconds=60,
    )  # fmt: skip
    cells = _cells(g.puzzle)
    assert sum(1 for v in cells if v) < 81
    assert count_solutions(cells, limit=2) == 1
    assert cs.rate(g.puzzle, "rounds").level == "Hard"
