"""The pure-Python 9x9 counter (:mod:`csp_sudoku.backends.small9`) against the 9x9 kernel,
and the ``auto`` backend's route through it before numba has started."""

from __future__ import annotations

import numpy as np
import pytest

import csp_sudoku.backends as backends
from csp_sudoku import Geometry
from csp_sudoku._kernels import ahead
from csp_sudoku._kernels.status import BAD_VALUE, GAVE_UP
from csp_sudoku.backends import _AutoBackend, get_backend, small9
from csp_sudoku.core.errors import ParseError
from tests.conftest import load_lines
from tests.independent import check_solution

G9 = Geometry.standard(9)

#: (file, step): an evenly spread sample of every shared set, the hardest included
SETS = [
    ("17_clue.txt", 983),
    ("top1465.txt", 15),
    ("forum_hardest_1106.txt", 15),
    ("forum_hardest_11plus.txt", 197),
    ("multi_solution_serg.txt", 7),
]

#: No budget to speak of: every search runs to its end.
UNLIMITED = 1 << 40


def _batch(lines: list[str]) -> np.ndarray:
    return np.array([[0 if ch in ".0" else int(ch) for ch in s[:81]] for s in lines], dtype=np.int8)


@pytest.mark.parametrize(("name", "step"), SETS)
def test_counts_agree_with_the_kernel(name: str, step: int) -> None:
    batch = _batch(load_lines(name, step=step))
    fast = get_backend("fast")
    for limit in (2, 3):
        want = fast.count_many(batch, G9, limit)
        got = [small9.count9(row, limit, UNLIMITED)[0] for row in batch.tolist()]
        assert got == want.tolist(), (name, limit)


@pytest.mark.parametrize(("name", "step"), SETS)
def test_solutions_are_solutions_and_agree(name: str, step: int) -> None:
    batch = _batch(load_lines(name, step=step * 3))
    fast = get_backend("fast")
    for row in batch:
        found, _ = small9.solutions9(row.tolist(), 3, UNLIMITED)
        assert found is not None
        want = fast.solutions(row, G9, 3)
        assert len(found) == len(want)
        if len(want) < 3:  # all of them: the same set (which 3 of more depends on the order)
            assert {bytes(s) for s in found} == {s.astype(np.uint8).tobytes() for s in want}
        assert len({bytes(s) for s in found}) == len(found)
        for s in found:
            assert check_solution(np.array(s, dtype=np.int8), row)


def test_clashes_bad_values_and_empty_grids() -> None:
    line = load_lines("top1465.txt", limit=1)[0]
    row = _batch([line])[0]
    clash = row.copy()
    first = int(np.flatnonzero(row)[0])
    r = first // 9
    other = next(c for c in range(9 * r, 9 * r + 9) if row[c] == 0)
    clash[other] = row[first]
    assert small9.count9(clash.tolist(), 2, UNLIMITED)[0] == 0
    bad = row.copy()
    bad[other] = 10
    assert small9.count9(bad.tolist(), 2, UNLIMITED)[0] == BAD_VALUE
    bad[other] = -1
    assert small9.count9(bad.tolist(), 2, UNLIMITED)[0] == BAD_VALUE
    assert small9.count9([0] * 81, 5, UNLIMITED)[0] == 5
    assert small9.count9(row.tolist(), 0, UNLIMITED) == (0, 1)


def test_budget_gives_up_and_counts_its_work() -> None:
    hard = _batch(load_lines("forum_hardest_1106.txt", limit=20))
    n, work = small9.count9(hard[0].tolist(), 2, 1)
    assert (n, work) == (GAVE_UP, 2)
    counts, work = small9.count_many9(hard, 2, 3)
    assert counts[-1] == GAVE_UP  # the shared budget ran out before the last row
    assert work >= 3
    assert small9.solutions9([0] * 81, 2, 0)[0] is None


def test_auto_answers_like_fast_through_every_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """An auto backend answers the same through Python (numba not started) and the kernel."""
    lines = load_lines("top1465.txt", limit=10) + load_lines("multi_solution_serg.txt", limit=3)
    batch = _batch(lines)
    fast = get_backend("fast")
    auto = _AutoBackend()  # fast is loaded in this process: auto goes straight to it
    monkeypatch.setattr(backends, "_FAST_MODULE", "not.loaded")  # as if numba had not started
    monkeypatch.setattr(ahead, "_LOADED", [None])  # and nothing had been built ahead of time
    auto_python = _AutoBackend()
    auto_python.python_work = UNLIMITED
    for be in (auto, auto_python):
        assert be.count_many(batch, G9, 2).tolist() == fast.count_many(batch, G9, 2).tolist()
        for row in batch:
            assert be.count(row, G9, 3) == fast.count(row, G9, 3)
            got = be.solutions(row, G9, 2)
            want = fast.solutions(row, G9, 2)
            assert [s.tolist() for s in got] == [s.tolist() for s in want]
            sol, ref = be.solve(row, G9), fast.solve(row, G9)
            assert (sol is None and ref is None) or np.array_equal(sol, ref)
    assert auto_python.python_work < UNLIMITED  # the Python route was taken
    # a bad value still gets the fast backend's message
    bad = batch[:2].copy()
    bad[1, 0] = 12
    with pytest.raises(ParseError, match="row 1"):
        auto_python.count_many(bad, G9, 2)


def test_auto_spends_its_python_budget_then_uses_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(backends, "_FAST_MODULE", "not.loaded")
    monkeypatch.setattr(ahead, "_LOADED", [None])
    hard = _batch(load_lines("forum_hardest_1106.txt", limit=3))
    auto = _AutoBackend()
    auto.python_work = 5
    want = get_backend("fast").count_many(hard, G9, 2)
    assert auto.count_many(hard, G9, 2).tolist() == want.tolist()  # over budget: the kernel
    assert auto.python_work <= 0
    assert not auto._python_first(G9)
    big = np.zeros((small9.MAX_BATCH + 1, 81), dtype=np.int8)
    fresh = _AutoBackend()
    assert fresh.count_many(big, G9, 2).tolist() == [2] * (small9.MAX_BATCH + 1)
    assert fresh.python_work == small9.BUDGET  # too big a batch: straight to the kernel
