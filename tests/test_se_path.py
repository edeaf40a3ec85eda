"""The se path is what the se rating rates: the rating's ER is the hardest step
of the very steps the path shows, and every step is sound by an independent
check (placements are the solution's, eliminated candidates are not)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.human.catalogue import technique_names
from csp_sudoku.metrics.se import replay, se_rating
from tests.independent import check_solution, count_solutions

DATA = Path("/work/shared/data")


def _rows(name: str) -> list[dict[str, str]]:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{name} not present")
    with path.open() as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _sample() -> list[str]:
    """Fast puzzles of three sources: 17-clue, top1465 and the SE calibration set,
    spread over their ratings (cheap enough for a shared machine)."""
    out: list[str] = []
    clue17 = DATA / "17_clue.txt"
    if clue17.exists():
        lines = [ln.strip() for ln in clue17.read_text().splitlines() if ln and ln[0] != "#"]
        out += lines[:: max(1, len(lines) // 6)][:6]
    for name in ("se_calibration_top1465.tsv", "se_calibration.tsv"):
        rows = sorted(
            (r for r in _rows(name) if float(r["seconds"]) < 5 and float(r["ER"]) <= 8.5),
            key=lambda r: float(r["ER"]),
        )
        out += [r["puzzle"] for r in rows[:: max(1, len(rows) // 8)][:8]]
    return out


def test_path_maximum_is_the_rating_and_every_step_checks() -> None:
    names = set(technique_names())
    for puzzle in _sample():
        clues = np.array([0 if ch in ".0" else int(ch) for ch in puzzle[:81]])
        assert count_solutions(clues) == 1
        solved = cs.solve(puzzle)
        assert solved is not None
        solution = np.asarray(solved.cells).reshape(-1)
        assert check_solution(solution, clues)
        p = cs.parse(puzzle)
        run = replay(p)
        assert run.solved
        er, _level, _rank, details, _params = se_rating(p)
        assert max(s.difficulty for s in run.steps) == er == run.er
        assert details["hardest"] in names
        assert details["difficulties"] == [round(s.difficulty, 2) for s in run.steps]
        for step in run.steps:
            assert step.technique in names
            for cell, digit in step.placements:
                assert solution[cell] == digit, (puzzle, step)
            for cell, digit in step.eliminations:
                assert solution[cell] != digit, (puzzle, step)
