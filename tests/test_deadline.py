"""Time budgets hold inside solver calls: the deadline a generator sets reaches the SAT
backend, which interrupts its solver (a CaDiCaL call, which python-sat cannot interrupt,
runs on an interruptible solver instead, with the same answers).
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from csp_sudoku.backends.sat import SatBackend
from csp_sudoku.core.deadline import DeadlinePassed, deadline, remaining
from csp_sudoku.core.geometry import Geometry
from tests.conftest import load_lines
from tests.independent import count_solutions


def test_deadlines_nest_and_the_earlier_holds() -> None:
    assert remaining() is None
    now = time.time()
    with deadline(now + 100):
        outer = remaining()
        assert outer is not None and 99 < outer <= 100
        with deadline(now + 1000):
            inner = remaining()
            assert inner is not None and inner <= 100
        with deadline(None):
            assert remaining() is not None
    assert remaining() is None


def test_a_passed_deadline_stops_a_solver_call() -> None:
    geo = Geometry.standard(9)
    cells = np.zeros(81, np.int8)
    backend = SatBackend()
    with deadline(time.time() - 1), pytest.raises(DeadlinePassed):
        backend.solutions(cells, geo, 2)
    assert len(backend.solutions(cells, geo, 2)) == 2  # no deadline: the call runs


@pytest.mark.parametrize("solver", ["cadical153", "minisat22"])
def test_answers_under_a_deadline_are_the_same(solver: str) -> None:
    geo = Geometry.standard(9)
    lines = load_lines("top1465.txt", limit=10) + load_lines("multi_solution_serg.txt", limit=10)
    backend = SatBackend(solver)
    with deadline(time.time() + 600):
        for line in lines:
            cells = np.array([0 if c == "." else int(c) for c in line], np.int8)
            assert len(backend.solutions(cells, geo, 2)) == count_solutions(cells, 2)


def test_generate_keeps_its_budget_inside_a_25x25_clue_reduction() -> None:
    """Without the deadline in the solver, this call ran for minutes in one SAT call."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "csp_sudoku",
            "generate",
            "--size",
            "25",
            "-n",
            "1",
            "--budget-seconds",
            "1",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1
    assert "time budget of 1 s ran out" in proc.stderr


_LONG_SEARCH = """
import time, numpy as np
from csp_sudoku.backends.fast import FastBackend
from csp_sudoku.core.deadline import DeadlinePassed, deadline
from csp_sudoku.core.geometry import Geometry
g = Geometry.standard({n})
be = FastBackend(work_budget=0)  # no node budget: only the deadline can end these searches
for call in ("count", "count_many"):
    start = time.time()
    try:
        with deadline(start + 0.5):
            if call == "count":
                be.count(np.zeros({n} * {n}, np.int8), g, 10**15)
            else:
                be.count_many(np.zeros((2, {n} * {n}), np.int8), g, 10**15)
        print(call, "finished")
    except DeadlinePassed:
        print(call, "stopped", round(time.time() - start, 1), be.fallbacks)
"""


@pytest.mark.parametrize("n", [16, 25])
def test_a_deadline_ends_one_long_search_of_a_big_grid(n: int) -> None:
    """Counting an empty grid to 10**15 is one compiled search of days: the kernel itself
    looks at the clock (no SAT fallback is asked: ``fallbacks`` stays 0)."""
    proc = subprocess.run(
        [sys.executable, "-c", _LONG_SEARCH.format(n=n)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split("\n")
    assert [line.split()[:2] for line in lines if line] == [
        ["count", "stopped"],
        ["count_many", "stopped"],
    ]
    assert all(line.split()[3] == "0" for line in lines if line)


def test_big_grid_answers_under_a_deadline_are_the_same() -> None:
    from csp_sudoku.backends.fast import FastBackend
    from csp_sudoku.generators.grids import random_grid

    geo = Geometry.standard(16)
    rng = np.random.default_rng(3)
    backend = FastBackend()
    checked = 0
    for s in range(4):
        cells = np.asarray(random_grid(geo, seed=s).cells, dtype=np.int8).copy()
        cells[rng.random(256) < 0.5] = 0
        plain = backend.count(cells, geo, 3)
        with deadline(time.time() + 600):
            assert backend.count(cells, geo, 3) == plain
            assert backend.count_many(cells[None, :], geo, 3).tolist() == [plain]
        assert plain == count_solutions(cells, 3)
        checked += 1
    assert checked == 4


@pytest.mark.parametrize("name", ["cpsat", "dlx"])
def test_every_backend_keeps_a_deadline(name: str) -> None:
    """Enumerating an empty 9x9 to 10**9 solutions takes days; the deadline ends it."""
    from csp_sudoku.backends import new_backend

    geo = Geometry.standard(9)
    backend = new_backend(geo, name)
    start = time.time()
    with deadline(start + 0.5), pytest.raises(DeadlinePassed):
        backend.count(np.zeros(81, np.int8), geo, 10**9)
    with deadline(start - 1), pytest.raises(DeadlinePassed):
        backend.count(np.zeros(81, np.int8), geo, 2)
    # and under a far deadline the answers are the ones without it
    line = load_lines("multi_solution_serg.txt", limit=1)[0]
    cells = np.array([0 if c == "." else int(c) for c in line], np.int8)
    with deadline(time.time() + 600):
        assert backend.count(cells, geo, 5) == count_solutions(cells, 5)
