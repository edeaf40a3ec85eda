"""Every verdict of the command line is true: commands x options x puzzles of 0, 1 and many
solutions, each answer compared with the independent counter (tests/independent.py).

"unique" must never be said of a puzzle without a search for a second solution: ``check``
refuses a limit below 2, and ``solve`` of a puzzle with several solutions says so.
"""

from __future__ import annotations

import json
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.core.io import read_puzzles
from csp_sudoku.tools.batch import check_entries
from tests.conftest import load_lines
from tests.helpers import run_cli as _run
from tests.independent import check_solution, count_solutions

#: Seven solutions at least (the issue's example: `check --limit 1` once called it unique).
MANY = "......8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@cache
def pool() -> tuple[tuple[str, int], ...]:
    """Puzzles with their true solution counts (capped at 6), from the independent counter.

    Unique ones from two reference sets; several solutions from Serg's set, the empty grid
    and the example above; none from a unique puzzle given one wrong clue in an empty cell
    that clashes with nothing (so only a search finds that it has no solution).
    """
    unique = load_lines("top1465.txt", limit=6, step=200) + load_lines("17_clue.txt", limit=6)
    several = [*load_lines("multi_solution_serg.txt", limit=6), "." * 81, MANY]
    none = []
    for line in unique[:4]:
        cells = [0 if ch == "." else int(ch) for ch in line]
        for cell, ch in enumerate(line):
            if ch != ".":
                continue
            row, col = divmod(cell, 9)
            box = (row // 3) * 3 + col // 3
            peers = {
                cells[i]
                for i in range(81)
                if i // 9 == row or i % 9 == col or (i // 27) * 3 + (i % 9) // 3 == box
            }
            free = [d for d in range(1, 10) if d not in peers]
            if len(free) >= 2:
                bad = cells.copy()
                bad[cell] = free[0]
                if count_solutions(bad, limit=1) == 0:
                    none.append("".join(str(v) if v else "." for v in bad))
                    break
    out = tuple(
        (p, count_solutions([0 if c == "." else int(c) for c in p], limit=6))
        for p in unique + several + none
    )
    assert {min(n, 2) for _, n in out} == {0, 1, 2}, "the pool must hold every kind"
    return out


_WORD = {0: "none", 1: "unique", 2: "multiple"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.integers(0, 63), min_size=1, max_size=6),
    limit=st.sampled_from([2, 3, 5]),
    backend=st.sampled_from(["auto", "fast", "sat", "dlx"]),
    fmt=st.sampled_from(["jsonl", "text"]),
)
def test_check_verdicts_are_true(picks: list[int], limit: int, backend: str, fmt: str) -> None:
    puzzles = [pool()[i % len(pool())] for i in picks]
    code, out, _ = _run(
        [
            "check",
            *(p for p, _ in puzzles),
            "--limit",
            str(limit),
            "--backend",
            backend,
            "--format",
            fmt,
            "-q",
        ]
    )
    rows = out.splitlines()
    assert len(rows) == len(puzzles)
    for (puzzle, truth), row in zip(puzzles, rows, strict=True):
        if fmt == "jsonl":
            rec = json.loads(row)
            assert rec["puzzle"] == puzzle
            assert rec["status"] == _WORD[min(truth, 2)]
            assert rec["count"] == min(truth, limit)
        else:
            assert row.split("\t")[1].split()[0] == _WORD[min(truth, 2)]
    assert code == (0 if all(n == 1 for _, n in puzzles) else 1)


@pytest.mark.parametrize("limit", ["1", "0", "-3"])
def test_check_refuses_a_limit_that_cannot_prove_a_verdict(limit: str) -> None:
    # 0 was refused as "must be an integer from 1 to ...", and then 1 refused too
    code, out, err = _run(["check", MANY, "--limit", limit])
    assert code == 2 and out == ""
    assert f"must be at least 2, got {int(limit)}: a verdict needs a search" in err
    assert "from 1" not in err


def test_the_library_refuses_a_limit_below_two() -> None:
    entries = list(read_puzzles([MANY]))
    with pytest.raises(ArgumentError, match="at least 2"):
        list(check_entries(entries, limit=1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pick=st.integers(0, 63),
    wanted=st.sampled_from([1, 2, 4]),
    fmt=st.sampled_from(["jsonl", "text"]),
)
def test_solve_says_when_a_puzzle_is_not_unique(pick: int, wanted: int, fmt: str) -> None:
    puzzle, truth = pool()[pick % len(pool())]
    code, out, err = _run(["solve", puzzle, "--all", str(wanted), "--format", fmt, "-q"])
    rows = out.splitlines()
    if truth == 0:
        assert code == 1
        if fmt == "jsonl":
            assert json.loads(rows[0])["solutions"] == 0
        return
    clues = [0 if c == "." else int(c) for c in puzzle]
    shown = [json.loads(r)["solution"] for r in rows] if fmt == "jsonl" else rows
    assert len(shown) == min(truth, wanted)
    assert len(set(shown)) == len(shown)
    for s in shown:
        assert check_solution([int(c) for c in s], clues)
    if truth == 1:
        assert code == 0
        if fmt == "jsonl":
            assert all(json.loads(r)["solutions"] == 1 for r in rows)
    else:
        assert code == 1
        assert "not unique" in err
        if fmt == "jsonl":
            for r in rows:
                rec = json.loads(r)
                assert rec["status"] == "multiple" and rec["solutions"] >= 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.integers(0, 63), limit=st.sampled_from([1, 2, 5]))
def test_count_is_exact_below_its_limit(pick: int, limit: int) -> None:
    puzzle, truth = pool()[pick % len(pool())]
    code, out, _ = _run(["count", puzzle, "--limit", str(limit), "--format", "jsonl", "-q"])
    rec = json.loads(out)
    assert code == 0
    assert rec["count"] == min(truth, limit)
    assert rec["capped"] == (truth >= limit)
