"""An interrupted rating keeps what it rated.

``rate --jobs N -o FILE`` and ``bank rate --jobs N`` rated in chunks of up to
16 and 64 puzzles whose ratings came back together: a Ctrl-C lost every rating
of the chunks not finished (minutes of work for a slow metric), and ``bank
rate`` those of the chunks finished after one still running. Now a chunk is
about a second of work (one puzzle until the first are timed,
:class:`csp_sudoku.core.parallel.Pace`), and the ratings of the chunks done
when the run stops reach the bank too (``ordered_map``'s ``on_stop``).

The command line runs in a session of its own; a test waits for evidence (a
row written, a worker gone idle) rather than for a fixed time, with generous
limits for a loaded machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from csp_sudoku.core.io import parse_line
from tests.conftest import load_lines

psutil = pytest.importorskip("psutil")  # installed with dask[distributed], a dev dependency

#: Seconds the evidence a test waits for may take to come on a loaded machine.
PATIENCE = 60.0


def _square(x: int) -> int:
    return x * x


def _slow_square(x: int) -> int:
    """``x * x`` after a fifth of a second: still running when the next task is asked for."""
    time.sleep(0.2)
    return x * x


def _cli(*argv: str, **popen: Any) -> subprocess.Popen[str]:
    """``csp-sudoku ARGV`` in a session of its own (stderr piped)."""
    return subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", *argv],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **popen,
    )


def test_pace_sizes_tasks_to_about_a_second_of_work() -> None:
    from csp_sudoku.core.parallel import Pace

    pace = Pace()
    assert pace.size(64) == 1  # nothing measured yet: one item
    pace.add(2.0, 1)  # a slow item (compiling, or a hard puzzle)
    assert pace.size(64) == 1
    pace.add(0.01, 99)  # then many fast ones: 2.01 s for 100
    assert pace.size(64) == 49
    assert pace.size(16) == 16
    pace.add(0.0, 0)
    assert Pace().size(8) == 1 and pace.size(1) == 1


# ---------------------------------------------------------------- interrupts


class _Watched(ThreadPoolExecutor):
    """A thread pool whose futures the test can see."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.futures: list[Future[Any]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future


def test_rate_many_stopped_hands_on_the_ratings_done_after_one_still_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Ctrl-C while the first puzzle's rating ran lost the four done after it: the
    ratings came to ``on_rating`` in order only. Now they come when the run stops."""
    from csp_sudoku.metrics import rate_many, registry

    lines = load_lines("17_clue.txt", limit=5)
    first = parse_line(lines[0]).cells
    release = threading.Event()

    def run(puzzle: Any, solution: Any, runs: int, rng: Any, params: Any) -> Any:
        if np.array_equal(puzzle.cells, first):
            release.wait(PATIENCE)  # the first puzzle is rated until the test ends
        return float(puzzle.cells.astype(bool).sum()), "x", 0, {}, {}

    spec = registry.MetricSpec("slow-first", run, None, False, lambda: ("x",))
    monkeypatch.setitem(registry.REGISTRY, "slow-first", spec)
    seen: dict[int, float] = {}
    pool = _Watched(2)
    main = threading.main_thread().ident
    assert main is not None

    def interrupt_once_the_others_are_done() -> None:
        give_up = time.monotonic() + PATIENCE
        while time.monotonic() < give_up:
            futures = list(pool.futures)
            if len(futures) == 5 and all(f.done() for f in futures[1:]):
                signal.pthread_kill(main, signal.SIGINT)  # a Ctrl-C
                return
            time.sleep(0.01)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    watcher = threading.Thread(target=interrupt_once_the_others_are_done, daemon=True)
    try:
        watcher.start()
        with pytest.raises(KeyboardInterrupt):
            rate_many(
                lines,
                "slow-first",  # type: ignore[arg-type]
                jobs=2,
                executor=pool,
                on_rating=lambda i, r: seen.__setitem__(i, r.score),
            )
    finally:
        signal.signal(signal.SIGINT, previous)
        release.set()
        watcher.join(PATIENCE)
        pool.shutdown()
    clues = {i: float(np.count_nonzero(parse_line(lines[i]).cells)) for i in range(5)}
    assert seen == {i: clues[i] for i in (1, 2, 3, 4)}


def _idle_worker(proc: subprocess.Popen[str]) -> bool:
    """Whether, of the run's worker processes, one is busy and another has worked and
    gone idle (its CPU time unchanged for a second): it has done every task it got."""
    try:
        root = psutil.Process(proc.pid)
        workers = [
            p for p in root.children() if "csp_sudoku" in " ".join(p.cmdline())
        ]  # not the resource tracker
        before = {p.pid: sum(p.cpu_times()[:2]) for p in workers}
        time.sleep(1.0)
        after = {p.pid: sum(p.cpu_times()[:2]) for p in workers}
    except psutil.Error:
        return False
    busy = [pid for pid in after if after[pid] - before[pid] > 0.1]
    idle = [pid for pid in after if after[pid] == before[pid] and after[pid] > 0.05]
    return len(workers) == 2 and len(busy) == 1 and len(idle) == 1


def test_an_interrupted_bank_rate_keeps_the_ratings_done_after_a_slow_one(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    """``bank rate --jobs 2`` of a slow puzzle, then four fast ones: one worker rates the
    slow one, the other the fast ones and goes idle; a Ctrl-C then stored none of them
    (the ratings were stored in order, and the slow one was first)."""
    from csp_sudoku.metrics import rate
    from csp_sudoku.tools.bank import PuzzleBank

    slow = load_lines("forum_hardest_11plus.txt", limit=38)[37:]  # about 6 s on one core
    fast = load_lines("17_clue.txt", limit=4)
    src = tmp_path / "in.txt"
    src.write_text("\n".join(slow + fast) + "\n", encoding="utf-8")
    db = tmp_path / "b.db"
    added = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "bank", "add", "-q", str(db), str(src)],
        capture_output=True,
        text=True,
        timeout=PATIENCE * 2,
    )
    assert added.returncode == 0, added.stderr
    proc = _cli("bank", "rate", str(db), "-m", "se", "--jobs", "2", "-q", stdout=subprocess.DEVNULL)
    started.append(proc)
    give_up = time.monotonic() + PATIENCE * 2
    while not _idle_worker(proc):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < give_up, "no worker went idle while the other rated"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=PATIENCE)
    assert (proc.returncode, err) == (130, "csp-sudoku: interrupted\n")
    with PuzzleBank(str(db), readonly=True) as bank:
        stored = {e.puzzle.to_line(): e.ratings for e in bank.query()}
    want = {parse_line(p).to_line(): rate(p, "se").score for p in fast}
    assert stored[parse_line(slow[0]).to_line()] == {}  # still being rated
    assert {p: r["se"][0] for p, r in stored.items() if r} == want


def test_an_interrupted_rate_output_has_the_rows_of_the_puzzles_rated(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    """``rate --jobs 2 -o FILE`` of two fast puzzles, then slow ones: the two were
    rated in a second, but their rows waited for the chunk of 16 puzzles they were
    in (a minute and more of slow ones), and a Ctrl-C meanwhile left FILE empty."""
    from csp_sudoku.metrics import rate

    fast = load_lines("17_clue.txt", limit=2)
    slow = load_lines("forum_hardest_11plus.txt", limit=14)
    src = tmp_path / "in.txt"
    src.write_text("\n".join(fast + slow) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    argv = ["rate", str(src), "-m", "se", "--jobs", "2", "--format", "jsonl", "-o", str(out)]
    proc = _cli(*argv, "-q", "--seed", "1", stdout=subprocess.DEVNULL)
    started.append(proc)
    partial = Path(f"{out}.partial")
    give_up = time.monotonic() + PATIENCE / 2  # the old chunk of 16 took over a minute
    while not (partial.exists() and partial.read_text(encoding="utf-8").count("\n") >= 2):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < give_up, "the rows of the fast puzzles were not written"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 130, err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 2
    assert [(r["line"], r["puzzle"]) for r in rows] == [
        (i + 1, parse_line(p).to_line()) for i, p in enumerate((fast + slow)[: len(rows)])
    ]
    assert [r["score"] for r in rows[:2]] == [rate(p, "se").score for p in fast]
