"""Known facts about the shared data sets, checked in full (slow) and on samples (fast)."""

from __future__ import annotations

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku import Checker, Geometry
from tests.conftest import load_lines


def _minimal_flags(lines: list[str], backend: str) -> list[bool]:
    chk = Checker(Geometry.standard(9), backend)
    return [chk.removable_clues(cs.parse(s).cells).size == 0 for s in lines]


def test_sample_of_17_clue_is_minimal_on_two_backends() -> None:
    lines = load_lines("17_clue.txt", limit=40, step=1229)
    assert all(_minimal_flags(lines, "auto"))
    assert all(_minimal_flags(lines[:15], "sat"))


def test_a_puzzle_with_a_redundant_clue_is_not_minimal() -> None:
    for line in load_lines("17_clue.txt", limit=10, step=4000):
        p = cs.parse(line)
        sol = cs.solve(p)
        assert sol is not None
        empty = np.flatnonzero(p.cells == 0)
        bigger = p.with_cells({int(empty[0]): int(sol.cells[empty[0]])})
        assert not cs.is_minimal(bigger)


@pytest.mark.slow
def test_every_17_clue_puzzle_is_unique_and_minimal() -> None:
    lines = load_lines("17_clue.txt")
    assert len(lines) == 49158
    arr = np.stack([cs.parse(s).cells for s in lines])
    assert np.all(cs.count_many(arr, limit=2) == 1)
    chk = Checker(Geometry.standard(9))
    not_minimal = [s for s, row in zip(lines, arr, strict=True) if chk.removable_clues(row).size]
    assert not_minimal == []


@pytest.mark.slow
def test_every_multi_solution_puzzle_has_two_or_more() -> None:
    lines = load_lines("multi_solution_serg.txt")
    arr = np.stack([cs.parse(s).cells for s in lines])
    counts = cs.count_many(arr, limit=2)
    assert np.all(counts == 2)
