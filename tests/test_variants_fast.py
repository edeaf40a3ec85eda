"""The fast (compiled) variant backend against the SAT and CP-SAT backends.

Puzzles come from the random maker (:mod:`tests.variant_maker`: constraints
drawn to fit a full grid, givens added until unique, then one with a given
removed and one with a constraint broken), every kind among them. On each,
the fast backend's counts to 2 and to 10 must be the SAT and CP-SAT
backends' counts, its solutions must be the SAT backend's (as sets, when
both found them all) and pass :func:`tests.independent_variants.broken_rules`,
which shares no code with the package.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku import variants
from csp_sudoku.constraints import KINDS, VariantPuzzle, from_fpuzzles, lowering
from csp_sudoku.constraints.base import Constraint
from csp_sudoku.constraints.killer import KillerCage
from csp_sudoku.constraints.renban import Renban
from csp_sudoku.constraints.thermometer import Thermometer
from csp_sudoku.core import deadline
from csp_sudoku.core.errors import DeadlinePassed, Stopped
from csp_sudoku.variants import fast
from tests.independent_variants import broken_rules
from tests.variant_maker import PRIMARY, make_cases

CASES = make_cases(2024)  # every kind appears (test_variants.py checks the same seed)


def grids(sols: list[cs.Puzzle]) -> set[tuple[int, ...]]:
    return {tuple(int(x) for x in s.cells) for s in sols}


def agree(data: dict[str, Any], label: str = "") -> None:
    """The fast backend agrees with SAT and CP-SAT on ``data``, its solutions checked independently."""
    puzzle = from_fpuzzles(data)
    n = puzzle.geometry.size
    for limit in (2, 10):
        got = variants.solutions(puzzle, limit, backend="fast")
        sat = variants.solutions(puzzle, limit, backend="sat")
        assert len(got) == len(sat) == variants.count(puzzle, limit, backend="cpsat"), label
        assert variants.count(puzzle, limit, backend="fast") == len(got), label
        assert len(grids(got)) == len(got), label
        if len(got) < limit:  # every solution found by both: the same ones
            assert grids(got) == grids(sat), label
        for s in got:
            assert broken_rules(data, s.cells.reshape(n, n).tolist()) == [], label


def test_every_kind_is_among_the_cases() -> None:
    kinds = {c.kind for _, d in CASES for c in from_fpuzzles(d).constraints}
    assert kinds == set(KINDS)


@pytest.mark.parametrize(("label", "data"), CASES, ids=[label for label, _ in CASES])
def test_fast_agrees_with_sat_and_cpsat(label: str, data: dict[str, Any]) -> None:
    agree(data, label)


def test_the_cases_have_every_verdict() -> None:
    seen = {variants.check(from_fpuzzles(d), backend="fast") for _, d in CASES}
    assert seen == {"unique", "multiple", "none"}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(PRIMARY))
def test_fast_agrees_on_random_seeds(seed: int, kind: str) -> None:
    for label, data in make_cases(seed, kinds=[kind]):
        agree(data, label)


@pytest.mark.parametrize(("label", "data"), CASES[::4], ids=[label for label, _ in CASES[::4]])
def test_true_candidates_agree(label: str, data: dict[str, Any]) -> None:
    puzzle = from_fpuzzles(data)
    assert (variants.candidates(puzzle, backend="fast") == variants.candidates(puzzle)).all()


def empty(size: int = 9) -> cs.Puzzle:
    return cs.Puzzle(np.zeros(size * size, dtype=np.int8))


def test_a_contradiction_gives_none() -> None:
    # two thermometers over the same two cells, each way up: no grid keeps both
    p = VariantPuzzle(empty(), (Thermometer(((0, 0), (0, 1))), Thermometer(((0, 1), (0, 0)))))
    assert variants.check(p, backend="fast") == "none"
    assert variants.solutions(p, 5, backend="fast") == []
    assert not variants.candidates(p, backend="fast").any()
    # a cage whose sum its cells' givens already pass
    q = cs.Puzzle(np.array([9, 8] + [0] * 79, dtype=np.int8))
    assert (
        variants.count(VariantPuzzle(q, (KillerCage(((0, 0), (0, 1)), 16),)), 2, backend="fast")
        == 0
    )


def test_counts_on_small_grids_match_sat() -> None:
    data = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "thermometer": [{"lines": [["R2C1", "R2C2", "R2C3", "R2C4"]]}],
        "killercage": [{"cells": ["R1C1", "R1C2"], "value": "7"}],
        "betweenline": [{"lines": [["R3C1", "R3C2", "R4C3"]]}],
        "sandwichsum": [{"cell": "R0C2", "value": "2"}],
    }
    p = from_fpuzzles(data)
    assert variants.count(p, 1000, backend="fast") == variants.count(p, 1000)
    assert grids(variants.solutions(p, 1000, backend="fast")) == grids(variants.solutions(p, 1000))


def test_a_kind_without_lowering_is_checked_on_full_grids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Renban and killer cages as leaves (the base class's lower): the same answers, slower."""
    monkeypatch.setattr(Renban, "lower", Constraint.lower)
    monkeypatch.setattr(KillerCage, "lower", Constraint.lower)
    fast._lower.cache_clear()
    try:
        picked = [(lb, d) for lb, d in CASES if lb.split(":")[0] in ("renban", "killercage")]
        for label, data in picked:
            assert fast.lower(from_fpuzzles(data)).leaves, label
            agree(data, label)
    finally:
        fast._lower.cache_clear()


def test_big_cages_fall_back_to_a_linear_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lowering, "MOST_SETS", 1)
    lowering.sum_sets.cache_clear()
    fast._lower.cache_clear()
    try:
        assert lowering.sum_sets(3, 15, 9) is None
        for label, data in CASES:
            if label.startswith("killercage"):
                agree(data, label)
    finally:
        lowering.sum_sets.cache_clear()
        fast._lower.cache_clear()


def test_sum_sets_are_every_set_of_the_sum() -> None:
    from itertools import combinations

    for k in range(1, 6):
        for total in range(1, 40):
            want = {
                sum(1 << (d - 1) for d in s)
                for s in combinations(range(1, 10), k)
                if sum(s) == total
            }
            assert set(lowering.sum_sets(k, total, 9) or ()) == want


def test_a_search_past_its_budget_is_answered_by_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    p = next(q for q in map(from_fpuzzles, (d for _, d in CASES)) if variants.count(q, 10) > 1)
    want = variants.count(p, 10)
    monkeypatch.setattr(fast, "BUDGET_BASE", 1)
    monkeypatch.setattr(fast, "BUDGET_PER_SOLUTION", 0)
    assert fast.count(p, 10) is None
    assert variants.count(p, 10, backend="fast") == want


def test_a_long_search_stops_when_asked() -> None:
    p = VariantPuzzle(empty())
    stop = threading.Event()
    stop.set()
    with deadline.stop_when(stop), pytest.raises(Stopped):
        fast.count(p, 10**6)  # far more than one slice of branch nodes


def test_a_passed_deadline_raises() -> None:
    p = VariantPuzzle(empty())
    with deadline.deadline(0.0), pytest.raises(DeadlinePassed):
        variants.count(p, 10**6, backend="fast")


def test_the_candidates_cap_is_honoured() -> None:
    with pytest.raises(DeadlinePassed):
        variants.candidates(VariantPuzzle(empty()), cap=3, backend="fast")
