"""Counting with a big limit: split into parts, progress, and a time budget."""

from __future__ import annotations

import pytest

import csp_sudoku as cs
from csp_sudoku.cli import main
from csp_sudoku.core.errors import CountBudgetExceeded
from tests.conftest import sample_lines
from tests.independent import count_solutions as plain_count


def test_split_count_is_exact() -> None:
    """The parts partition the solutions: the split count equals the plain one."""
    checked = 0
    for line in sample_lines("multi_solution_serg.txt", 12):
        plain = cs.count_solutions(line, limit=20_000)
        seen: list[tuple[int, int, int]] = []

        def note(*a: int, seen: list[tuple[int, int, int]] = seen) -> None:
            seen.append((a[0], a[1], a[2]))

        split = cs.count_solutions(line, limit=20_000, progress=note)
        assert split == plain
        assert seen and seen[-1][2] == split
        checked += plain < 20_000
    assert checked >= 3
    # and against an independent counter, on small counts
    p = cs.parse(sample_lines("multi_solution_serg.txt", 1)[0])
    assert cs.count_solutions(p, limit=50, progress=lambda *a: None) == plain_count(p.cells, 50)


def test_budget_gives_the_count_so_far() -> None:
    seen: list[tuple[int, int, int]] = []
    with pytest.raises(CountBudgetExceeded) as info:
        cs.count_solutions(
            "1234" + "." * 77, limit=10**12, budget_seconds=0.0, progress=lambda *a: seen.append(a)
        )
    # it stopped after the first part, with what the parts counted so far
    assert len(seen) == 1
    assert info.value.at_least == seen[-1][2]
    assert "budget" in str(info.value)


def test_count_command_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["count", "--limit", "1000000000000", "--budget-seconds", "0.5", "-q", "." * 81]) == 1
    )
    out = capsys.readouterr().out
    assert "+ (budget)" in out
    assert main(["count", "--budget-seconds", "nan", "." * 81]) == 2
