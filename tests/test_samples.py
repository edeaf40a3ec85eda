"""The first puzzles of each reference set (tests/data/reference) on every backend."""

from __future__ import annotations

import pytest

import csp_sudoku as cs
from csp_sudoku import Geometry
from csp_sudoku.backends import get_backend
from tests.conftest import REFERENCE, SAMPLE_SIZE, sample_lines
from tests.helpers import available_backends
from tests.independent import check_solution, count_solutions

SETS = {
    "17_clue.txt": "unique",
    "top1465.txt": "unique",
    "forum_hardest_1106.txt": "unique",
    "forum_hardest_11plus.txt": "unique",
    "multi_solution_serg.txt": "several",
}


BACKENDS = available_backends(("fast", "sat", "cpsat", "dlx"))
#: Puzzles per backend and set (dlx and cpsat are the slow ones on the hardest sets).
PER_BACKEND = {"fast": SAMPLE_SIZE, "sat": SAMPLE_SIZE, "cpsat": 12, "dlx": 6}


def test_every_reference_set_is_in_the_repository_and_listed() -> None:
    """Each set the tests read ships in tests/data/reference, is checked by
    SHA256SUMS and has a row (source, licence) in the folder's README."""
    readme = (REFERENCE / "README.md").read_text(encoding="utf-8")
    sums = (REFERENCE / "SHA256SUMS").read_text(encoding="utf-8")
    for name in SETS:
        assert (REFERENCE / f"{name}.xz").is_file(), name
        assert f"| {name}.xz |" in readme, name
        assert f"  {name}\n" in sums, name
        assert len(sample_lines(name)) == SAMPLE_SIZE


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(SETS))
def test_every_backend_on_every_sample(backend: str, name: str) -> None:
    """Counts (limit 3) as the set promises; every solution passes the independent checker."""
    g = Geometry.standard(9)
    b = get_backend(backend)
    for line in sample_lines(name, PER_BACKEND[backend]):
        cells = cs.parse(line).cells
        sols = b.solutions(cells, g, 3)
        if SETS[name] == "unique":
            assert len(sols) == 1, line
        else:
            assert len(sols) >= 2, line
        assert len({s.tobytes() for s in sols}) == len(sols)
        assert all(check_solution(s, cells) for s in sols)


@pytest.mark.parametrize("name", ["17_clue.txt", "top1465.txt", "multi_solution_serg.txt"])
def test_independent_counter_agrees_with_the_package(name: str) -> None:
    """tests/independent.py counts solutions with no code of the package."""
    for line in sample_lines(name, 8):
        cells = [0 if ch in ".0" else int(ch) for ch in line]
        mine = count_solutions(cells, limit=2)
        assert mine == cs.count_solutions(line, limit=2), line
        assert mine == (2 if SETS[name] == "several" else 1)


def test_independent_counter_on_small_known_cases() -> None:
    assert count_solutions([0] * 16, limit=1000) == 288  # every 4x4 grid
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    grid = [int(ch) for ch in solved]
    assert count_solutions(grid) == 1
    bad = grid.copy()
    bad[1] = bad[0]  # two equal clues in row 1
    assert count_solutions(bad) == 0
    holes = grid.copy()
    for c in (0, 1, 9, 10):
        holes[c] = 0
    assert count_solutions(holes) == 1


def test_independent_module_shares_no_code_with_the_package() -> None:
    import ast
    from pathlib import Path

    source = (Path(__file__).parent / "independent.py").read_text(encoding="utf-8")
    names = {
        alias.name if isinstance(node, ast.Import) else (node.module or "")
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert not [m for m in names if m.split(".")[0] in ("csp_sudoku", "tests")]
