"""CandidateState: clues, singles (full list), contradictions, on several geometries."""

from __future__ import annotations

import numpy as np
import pytest

from csp_sudoku import Geometry, Puzzle, parse
from csp_sudoku.human.state import CandidateState, Single
from tests.helpers import cand_sets, generated_puzzles, lines_of, plain_singles


def _placed_by_hand(p: Puzzle) -> CandidateState:
    g = p.geometry
    st = CandidateState(
        g, np.full(g.ncells, (1 << g.size) - 1, dtype=np.int64), np.zeros(g.ncells, dtype=np.int8)
    )
    for c in p.clue_cells().tolist():
        st.place(c, int(p.cells[c]))
    return st


def test_from_puzzle_equals_placing_clues_one_by_one() -> None:
    for line in lines_of("top1465.txt", limit=100, step=14):
        p = parse(line)
        a, b = CandidateState.from_puzzle(p), _placed_by_hand(p)
        assert np.array_equal(a.masks, b.masks)
        assert np.array_equal(a.values, b.values)


def test_singles_list_matches_plain_solver_along_random_runs() -> None:
    rng = np.random.default_rng(7)
    for line in lines_of("top1465.txt", limit=40, step=30) + lines_of(
        "17_clue.txt", limit=40, step=997
    ):
        st = CandidateState.from_puzzle(parse(line))
        units = [list(map(int, u)) for u in st.geometry.units]
        while True:
            got = [(s.cell, s.digit, s.unit) for s in st.singles()]
            want = plain_singles([int(v) for v in st.values], cand_sets(st), units)
            assert got == want
            assert st._singles_slow() == st.singles()
            if not got:
                break
            c, d, _u = got[int(rng.integers(len(got)))]
            st.place(c, d)


def test_singles_on_16x16_and_x_sudoku() -> None:
    for g, remove in ((Geometry.standard(16), 120), (Geometry.x_sudoku(), 45)):
        puzzles = generated_puzzles(g, 3, seed=5, remove=remove)
        assert len(puzzles) == 3
        for p in puzzles:
            st = CandidateState.from_puzzle(p)
            units = [list(map(int, u)) for u in g.units]
            got = [(s.cell, s.digit, s.unit) for s in st.singles()]
            assert got == plain_singles([int(v) for v in st.values], cand_sets(st), units)
            assert got and not st.is_contradiction()


def test_naked_and_hidden_single_values() -> None:
    s = Single(3, 5)
    assert s.naked
    assert not Single(3, 5, 2).naked


def test_contradictions() -> None:
    line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    st = CandidateState.from_puzzle(parse(line))
    assert not st.is_contradiction()
    clash = Puzzle(np.array([4, 4] + [0] * 79))
    assert CandidateState.from_puzzle(clash).is_contradiction()
    # an empty cell with no candidates left
    st2 = st.copy()
    cell = int(st2.empty_cells()[0])
    for d in st2.candidates(cell):
        st2.eliminate(cell, d)
    assert st2.is_contradiction()
    assert not st.is_contradiction()  # the copy was independent
    # a digit with no place left in a unit
    st3 = st.copy()
    for c in range(9):
        st3.eliminate(c, 9)
    assert st3.is_contradiction() == (9 not in [int(v) for v in st3.values[:9]])


def test_queries_and_eliminate() -> None:
    st = CandidateState.from_puzzle(parse("." * 81))
    assert st.candidates(0) == list(range(1, 10))
    assert st.eliminate(0, 3) and not st.eliminate(0, 3)
    assert not st.has(0, 3) and st.has(0, 4)
    st.place(0, 4)
    assert not st.has(1, 4) and not st.eliminate(0, 5)
    assert st.digit_bits().shape == (81, 9)
    assert st.alive().sum() == 80 * 9 - 20
    assert st.unit_digit_counts().shape == (27, 9)
    assert st.empty_cells().size == 80 and not st.is_solved()
    assert st.to_puzzle().clue_count == 1


@pytest.mark.parametrize("size", [4, 6, 9])
def test_empty_grids_have_no_singles(size: int) -> None:
    st = CandidateState.from_puzzle(Puzzle(np.zeros(size * size, dtype=np.int8)))
    assert st.singles() == [] and not st.is_contradiction()
