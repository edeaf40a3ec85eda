"""Refutation (Pelanek, SiSuS): seeded, repeatable, and never refuting the solution."""

from __future__ import annotations

import math

import numpy as np
import pytest

from csp_sudoku import parse
from csp_sudoku.human.refutation import cell_refutation_score, refutation_scores, refute
from csp_sudoku.human.state import CandidateState
from tests.conftest import sample_lines
from tests.helpers import lines_of, plain_refute, solution_of


def _stuck(line: str) -> CandidateState:
    st = CandidateState.from_puzzle(parse(line))
    while True:
        s = st.singles()
        if not s:
            return st
        st.place(s[0].cell, s[0].digit)


def test_refute_matches_a_plain_implementation() -> None:
    """Against a reference that finds singles and contradictions in plain Python."""
    checked = finite = 0
    for line in sample_lines("top1465.txt")[::8][:6]:
        st = _stuck(line)
        sol = solution_of(parse(line))
        nempty = st.empty_cells().size
        for cell in st.empty_cells().tolist()[:12]:
            for d in st.candidates(cell):
                got = refute(st, cell, d, np.random.default_rng(cell * 10 + d))
                rand = np.random.default_rng(cell * 10 + d).random(nempty)
                assert got == plain_refute(st, cell, d, rand)
                checked += 1
                finite += not math.isinf(got)
                if d == sol[cell]:
                    assert math.isinf(got)  # the solution digit never contradicts
    assert checked > 100 and finite > 20  # the comparison covered real refutations


def test_scores_are_repeatable_and_consistent() -> None:
    line = lines_of("top1465.txt", limit=1, step=1)[0]
    st = _stuck(line)
    sol = solution_of(parse(line))
    before = st.masks.copy()
    a = refutation_scores(st, sol, np.random.default_rng(3))
    b = refutation_scores(st, sol, np.random.default_rng(3))
    assert a == b
    assert np.array_equal(st.masks, before)  # the state is not changed
    rng = np.random.default_rng(3)
    c = {cell: cell_refutation_score(st, cell, sol, rng) for cell in st.empty_cells().tolist()}
    assert a == c
    assert set(a) == set(st.empty_cells().tolist())
    # a cell's score is the sum of its wrong candidates' refutations
    cell = next(iter(a))
    rng = np.random.default_rng(8)
    total = sum(refute(st, cell, d, rng) for d in st.candidates(cell) if d != sol[cell])
    assert cell_refutation_score(st, cell, sol, np.random.default_rng(8)) == total


def test_finite_refutations_on_an_easy_position() -> None:
    # a 17-clue puzzle part-way: refutations of wrong digits are mostly quick
    line = lines_of("17_clue.txt", limit=1, step=1)[0]
    p = parse(line)
    sol = solution_of(p)
    st = CandidateState.from_puzzle(p)
    scores = refutation_scores(st, sol, np.random.default_rng(0))
    assert any(not math.isinf(s) for s in scores.values())
    assert all(s >= 0 for s in scores.values())


def test_limit_and_errors() -> None:
    line = lines_of("17_clue.txt", limit=1, step=1)[0]
    p = parse(line)
    sol = solution_of(p)
    st = CandidateState.from_puzzle(p)
    cell = int(st.empty_cells()[0])
    wrong = next(d for d in st.candidates(cell) if d != sol[cell])
    steps = refute(st, cell, wrong, np.random.default_rng(1))
    if steps > 0 and not math.isinf(steps):
        assert math.isinf(refute(st, cell, wrong, np.random.default_rng(1), limit=int(steps) - 1))
        assert refute(st, cell, wrong, np.random.default_rng(1), limit=int(steps)) == steps
    with pytest.raises(ValueError, match="not a candidate"):
        refute(st, int(p.clue_cells()[0]), 1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="already filled"):
        cell_refutation_score(st, int(p.clue_cells()[0]), sol, np.random.default_rng(0))
