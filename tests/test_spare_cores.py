"""A step's nets shared out to the spare cores give what one core gives.

The se replay's nets with the basic techniques inside (SE's "(+)" chains and
the nested levels) are split into parts run in threads at once
(:func:`csp_sudoku.core.parallel.on_spare_cores`). Each net is independent of
the others, so the split must not show: the tests compare every output
array, and a whole explanation, with the split forced on and forced off
(whatever the machine's cores), and check when the process has cores to spare.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.core import parallel
from csp_sudoku.human import se_order
from csp_sudoku.human.state import CandidateState

#: One of the forum's hardest (ER 10.4): its path has nested (+) steps.
HARD = "....5.7..4.7..9.3..8....1..2.8..7.....4..8....7..9...3......6...4...2.97..2.....1"


def _cores(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Have the process act as if it had ``n`` spare cores."""
    monkeypatch.setattr(parallel, "spare_cores", lambda: n)
    monkeypatch.setattr(se_order, "spare_cores", lambda: n)


@pytest.mark.parametrize("level", [1, 2])
def test_nets_split_over_threads_are_the_nets_of_one(
    monkeypatch: pytest.MonkeyPatch, level: int
) -> None:
    state = CandidateState.from_puzzle(cs.parse(HARD))
    premises = se_order._premises(se_order._alive8(state), True)
    assert premises.size >= 4 * se_order._NET_PARTS_FROM  # so the split has parts to make
    outputs = []
    for n in (1, 3):
        _cores(monkeypatch, n)
        anc, absurd, nested, order, reached, nreached = se_order._propagate(
            state, premises, True, True, plus=True, level=level
        )
        # the arrays are the thread's own, used again by the next call: copied
        outputs.append([a.copy() for a in (anc, absurd, *nested, order, reached, nreached)])
    one, split = outputs
    assert len(one) == len(split) == 7
    for a, b in zip(one, split, strict=True):
        np.testing.assert_array_equal(a, b)
    assert (one[1] >= 0).any()  # some nets met a contradiction: the outputs say something


def test_an_explanation_with_threads_is_the_one_without(monkeypatch: pytest.MonkeyPatch) -> None:
    _cores(monkeypatch, 1)
    alone = cs.solve_path(HARD)
    _cores(monkeypatch, 2)
    shared = cs.solve_path(HARD)
    assert alone.solved and str(alone) == str(shared)
    assert alone.steps == shared.steps
    assert max(s.difficulty for s in alone.steps) == pytest.approx(10.4)


def test_every_call_runs_once_and_the_first_error_is_raised() -> None:
    seen: list[int] = []
    lock = threading.Lock()

    def call(i: int) -> None:
        with lock:
            seen.append(i)

    parallel.on_spare_cores([lambda i=i: call(i) for i in range(50)])  # type: ignore[misc]
    assert sorted(seen) == list(range(50))

    def fails() -> None:
        raise ValueError("part 3 failed")

    with pytest.raises(ValueError, match="part 3 failed"):
        parallel.on_spare_cores([lambda: None, fails, lambda: None])


def test_spare_cores_are_one_in_a_thread_in_a_pool_and_on_one_core() -> None:
    mine = len(os.sched_getaffinity(0))
    assert parallel.spare_cores() == mine
    answers: list[int] = []
    thread = threading.Thread(target=lambda: answers.append(parallel.spare_cores()))
    thread.start()
    thread.join()
    assert answers == [1]
    # while this process runs a pool of threads, its main thread has one core
    tasks = [(i,) for i in range(4)]
    seen = list(
        parallel.ordered_map(lambda x: (x, parallel.spare_cores()), tasks, jobs=2, threads=True)
    )
    assert [x for x, _ in seen] == [0, 1, 2, 3]
    assert {n for _, n in seen} == {1}
    assert parallel.spare_cores() == mine  # and all of them again after it
    before = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {min(before)})
        assert parallel.spare_cores() == 1
    finally:
        os.sched_setaffinity(0, before)


def test_a_process_builds_its_first_nets_alone() -> None:
    """The first step of a process with the techniques inside compiles or loads the
    kernel under numba's compiler lock, which a Ctrl-C there can leave held: a
    thread that needed it then waited for ever (a run hung after a Ctrl-C). So that
    step runs alone, and later ones are split."""
    script = f"""
import csp_sudoku as cs
from csp_sudoku.core import parallel
from csp_sudoku.human import se_order
from csp_sudoku.human.state import CandidateState
seen = []
real = se_order.on_spare_cores
se_order.on_spare_cores = lambda calls: (seen.append(len(calls)), real(calls))
se_order.spare_cores = parallel.spare_cores = lambda: 2
state = CandidateState.from_puzzle(cs.parse({HARD!r}))
premises = se_order._premises(se_order._alive8(state), True)
for _ in range(2):
    se_order._propagate(state, premises, True, True, plus=True, level=1)
print(seen)
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True
    ).stdout
    assert out.split() == ["[1,", f"{2 * se_order._NET_PARTS}]"]
