"""hsolve's named strategies (Appendix A): possible-application counts, valid applications."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.human.state import CandidateState
from csp_sudoku.human.strategies import (
    STRATEGIES,
    TIERS,
    apply,
    expected_checks,
    possible_applications,
    tier_counts,
    valid_applications,
)
from tests.conftest import load_lines

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def singles_fixpoint(state: CandidateState) -> None:
    while True:
        s = state.singles()
        if not s:
            return
        state.place(s[0].cell, s[0].digit)


def test_expected_checks_lemma_1() -> None:
    assert expected_checks(5, 0) == 6.0
    assert expected_checks(9, 1) == 5.0
    assert expected_checks(3, 3) == 1.0
    # the closed form equals the mean first index of a valid one over all orders
    p, v = 5, 2
    firsts = []
    for valid in itertools.combinations(range(p), v):
        firsts.append(min(valid) + 1)
    assert np.mean(firsts) == pytest.approx(expected_checks(p, v))
    with pytest.raises(ValueError):
        expected_checks(-1, 0)


def test_tiers_cover_appendix_a() -> None:
    assert [len(t) for t in TIERS] == [2, 3, 3, 3, 1, 1]
    assert TIERS[1] == ("naked double", "hidden double", "locked candidates")
    assert TIERS[5] == ("backtracking",)
    assert len(STRATEGIES) == 13
    with pytest.raises(ValueError):
        possible_applications(CandidateState.from_puzzle(cs.parse(HARD)), "nishio")


def _stuck_states(n: int) -> list[tuple[CandidateState, np.ndarray]]:
    out = []
    for line in load_lines("top1465.txt", limit=n, step=37):
        p = cs.parse(line)
        st = CandidateState.from_puzzle(p)
        singles_fixpoint(st)
        sol = cs.solve(p)
        assert sol is not None
        out.append((st, sol.cells))
    return out


def test_possible_application_counts_match_the_paper() -> None:
    for st, _ in _stuck_states(6):
        g = st.geometry
        empty = st.values == 0
        n_empty = int(empty.sum())
        per_unit = [int(empty[u].sum()) for u in g.units]
        assert possible_applications(st, "naked single") == n_empty
        assert possible_applications(st, "hidden single") == n_empty
        for name, k in (("naked double", 2), ("naked triple", 3), ("hidden quad", 4)):
            assert possible_applications(st, name) == sum(comb(n, k) for n in per_unit)
        # locked candidates: row/column x box intersections with 2 or 3 empty cells
        lc = 0
        for line in range(18):
            for box in range(18, 27):
                common = set(g.units[line].tolist()) & set(g.units[box].tolist())
                if len(common) == 3 and sum(int(empty[c]) for c in common) >= 2:
                    lc += 1
        assert possible_applications(st, "locked candidates") == lc
        # fish: lines holding digit k 2..size times, choose size
        bits = st.digit_bits().reshape(9, 9, 9)  # row, col, digit
        for name, size in (("x-wing", 2), ("swordfish", 3), ("jellyfish", 4)):
            want = 0
            for d in range(9):
                rows = bits[:, :, d].sum(axis=1)
                cols = bits[:, :, d].sum(axis=0)
                want += comb(int(((rows >= 2) & (rows <= size)).sum()), size)
                want += comb(int(((cols >= 2) & (cols <= size)).sum()), size)
            assert possible_applications(st, name) == want
        twos = sum(1 for c in np.flatnonzero(empty) if len(st.candidates(int(c))) == 2)
        assert possible_applications(st, "backtracking") == twos


def _naked_pairs_brute(st: CandidateState) -> set[tuple[tuple[int, int], ...]]:
    out = set()
    for u in st.geometry.units:
        cells = [int(c) for c in u if not st.values[c]]
        for a, b in itertools.combinations(cells, 2):
            ca, cb = set(st.candidates(a)), set(st.candidates(b))
            if ca == cb and len(ca) == 2:
                el = tuple(
                    sorted((c, d) for c in cells if c not in (a, b) for d in ca if st.has(c, d))
                )
                if el:
                    out.add(el)
    return out


def test_valid_applications_are_sound_and_match_brute_force() -> None:
    for st, sol in _stuck_states(8):
        got = {tuple(sorted(a.eliminations)) for a in valid_applications(st, "naked double")}
        assert got == _naked_pairs_brute(st)
        for name in STRATEGIES:
            apps = valid_applications(st, name)
            p = possible_applications(st, name)
            assert len(apps) <= p
            for app in apps:
                assert app.placements or app.eliminations
                for c, d in app.eliminations:
                    assert sol[c] != d, (name, c, d)
                for c, d in app.placements:
                    assert sol[c] == d, (name, c, d)


def test_tier_counts_and_apply() -> None:
    st = CandidateState.from_puzzle(cs.parse(HARD))
    p0, v0 = tier_counts(st, 0)
    assert p0 == 2 * int((st.values == 0).sum())
    assert v0 == len(valid_applications(st, "naked single")) + len(
        valid_applications(st, "hidden single")
    )
    app = (valid_applications(st, "naked single") + valid_applications(st, "hidden single"))[0]
    before = int((st.values == 0).sum())
    apply(st, app)
    assert int((st.values == 0).sum()) == before - 1
    with pytest.raises(ValueError):
        tier_counts(st, 6)


#: top1465 puzzle 30: after singles it has three two-candidate cells, and testing
#: them settles exactly one, r5c7 (cell 42) = 4, which the solution confirms.
BACKTRACK = "2...4.5...1.....3............6...8.2.7.3.9......1.....4...5.6.....7...9...8......"


def test_backtracking_finds_the_forced_value() -> None:
    p = cs.parse(BACKTRACK)
    st = CandidateState.from_puzzle(p)
    singles_fixpoint(st)
    sol = cs.solve(p)
    assert sol is not None
    two = [c for c in st.empty_cells().tolist() if len(st.candidates(c)) == 2]
    assert possible_applications(st, "backtracking") == len(two) == 3
    apps = valid_applications(st, "backtracking")
    assert [a.placements for a in apps] == [((42, 4),)]
    assert all(sol.cells[c] == d for a in apps for c, d in a.placements)
    # a position where every hole is a naked single has no two-candidate cell to test
    full = CandidateState.from_puzzle(cs.parse(SOLVED).without([0, 1, 9, 10]))
    assert possible_applications(full, "backtracking") == 0
    assert valid_applications(full, "backtracking") == []


SUBSET_SIZE = {
    "locked candidates": 1,
    "naked double": 2,
    "hidden double": 2,
    "x-wing": 2,
    "naked triple": 3,
    "hidden triple": 3,
    "swordfish": 3,
    "naked quad": 4,
    "hidden quad": 4,
    "jellyfish": 4,
}


def test_named_strategies_are_found_by_the_subset_rule() -> None:
    """Every elimination of a named strategy of size n is made by the constraint
    subset rule (Hunt, Pong, Tucker) of size <= n: a cross-check of both models."""
    from csp_sudoku.human.subsets import find_subsets_upto

    checked = 0
    for st, _ in _stuck_states(10):
        by_size = {n: set() for n in range(1, 5)}
        for app in find_subsets_upto(st, 4):
            by_size[app.size].update(app.eliminations)
        for name, size in SUBSET_SIZE.items():
            found = set().union(*(by_size[n] for n in range(1, size + 1)))
            for app in valid_applications(st, name):
                assert set(app.eliminations) <= found, (name, app)
                checked += 1
    assert checked > 0
