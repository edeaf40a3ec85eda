"""The SE technique TEMPLATE works as the registry says: registered under its name
at its place in SE's order, the replay asks it there and its steps are right;
taken out again, the replay is what it was. The registry's names and order are
the technique catalogue's, and a technique between two of SE's basic ones
(which the replay asks in one compiled call) changes nothing when it finds
nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from csp_sudoku import parse
from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.human import SE_TEMPLATE, se_order
from csp_sudoku.human.catalogue import technique_names
from csp_sudoku.human.se_techniques import PROFILES, SeStep, SeTechnique
from csp_sudoku.human.state import CandidateState
from csp_sudoku.metrics.se import replay
from tests.conftest import load_lines
from tests.independent import solutions


def test_the_template_registered_is_asked_in_its_place_and_taken_out_again() -> None:
    puzzles = [parse(line) for line in load_lines("17_clue.txt", limit=5)]
    before = {(i, r): replay(p, r) for i, p in enumerate(puzzles) for r in PROFILES}
    taken: list[SeStep] = []

    def mine(state: CandidateState) -> SeStep | None:
        step = SE_TEMPLATE.find(state)
        if step is not None:
            taken.append(step)
        return step

    template = replace(SE_TEMPLATE.TECHNIQUE, find=mine)
    assert se_order.register(template) is template
    try:
        assert se_order.technique(template.name) is template
        assert template.difficulty == "2.3"  # the catalogue's naked single
        for rater in PROFILES:
            order = se_order.techniques(rater)
            assert [t.name for t in order[:2]] == ["Hidden Single", template.name]
        used = 0
        for i, p in enumerate(puzzles):
            solution = solutions([int(v) for v in p.cells], 2)
            assert len(solution) == 1
            for rater in PROFILES:
                taken.clear()
                run = replay(p, rater)
                assert run.solved
                assert all(any(s is t for t in run.steps) for s in taken)
                for s in taken:
                    assert s.technique == "Naked Single" and s.difficulty == 2.3
                    assert all(solution[0][c] == d for c, d in s.placements)
                if taken:  # asked before SE's direct hints: the path is not SE's
                    used += 1
                    assert run.steps != before[(i, rater)].steps
        assert used, "the registered technique took no step"
    finally:
        assert se_order.unregister(template.name) is template
    with pytest.raises(ArgumentError, match="Hidden Single"):
        se_order.technique(template.name)
    for (i, rater), run in before.items():
        assert replay(puzzles[i], rater) == run


def test_a_technique_between_fused_basic_ones_is_asked_and_changes_nothing() -> None:
    """SE's basic techniques side by side are asked in one compiled call; a
    technique registered between two of them (here Pointing & Claiming, 60, and
    Naked Pair, 70) splits that call, is asked there, and, finding nothing,
    leaves every step as it was."""
    puzzles = [parse(line) for line in load_lines("top1465.txt", limit=4)]
    before = [replay(p, r) for p in puzzles for r in PROFILES]
    asked = {"n": 0}

    def nothing(state: CandidateState) -> SeStep | None:
        asked["n"] += 1
        return None

    se_order.register(SeTechnique("Nothing", 65, nothing))
    try:
        assert [replay(p, r) for p in puzzles for r in PROFILES] == before
    finally:
        se_order.unregister("Nothing")
    assert asked["n"] > 0


def test_the_registry_names_the_catalogues_techniques_in_its_order() -> None:
    """Every hint name of SukakuExplainer's order, in order, is the catalogue's row
    of that name, in the catalogue's order (the human model's refutation, the
    last row, stands in beyond SE's techniques); Sudoku Explainer 1.2.1's
    order is a part of it; each technique's difficulty is its rows'."""
    hints = [name for t in se_order.techniques("sukaku") for name in t.names]
    assert hints == [n for n in technique_names() if n != "Nested Forcing Chains"]
    classic = se_order.techniques("classic")
    assert [t for t in se_order.techniques("sukaku") if t in classic] == list(classic)
    assert se_order.techniques() == se_order.techniques("sukaku")
    assert se_order.technique("Hidden Single").difficulty == "1.0-1.5"
    assert se_order.technique("XY-Wing").difficulty == "4.2-4.4"
    assert se_order.technique("Turbot Fish").raters == ("sukaku",)
    assert se_order.technique("Forcing Chains & Cycles").difficulty == "6.5+"
    # the replay's steps carry the names of their rater's techniques
    for rater in PROFILES:
        names = {n for t in se_order.techniques(rater) for n in t.names}
        for line in load_lines("top1465.txt", limit=3):
            assert {s.technique for s in replay(parse(line), rater).steps} <= names


def test_the_registry_refuses_what_would_break_the_order() -> None:
    order = dict(se_order._ORDER)

    def none(state: CandidateState) -> SeStep | None:
        return None

    with pytest.raises(ArgumentError, match="already called"):
        se_order.register(SeTechnique("XY-Wing", 145, none))
    with pytest.raises(ArgumentError, match="'XY-Wing'"):
        se_order.register(SeTechnique("Mine", 140, none))
    with pytest.raises(ArgumentError, match="hidden singles first"):
        se_order.register(SeTechnique("Mine", 5, none))
    with pytest.raises(ArgumentError, match="unknown rater"):
        se_order.register(SeTechnique("Mine", 145, none, ("hodoku",)))
    with pytest.raises(ArgumentError, match="itself"):
        se_order.unregister("Hidden Single")
    with pytest.raises(ArgumentError, match="choose from Hidden Single, Direct Pointing"):
        se_order.unregister("Mine")
    assert order == se_order._ORDER
