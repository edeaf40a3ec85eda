"""A run on a local Dask cluster stops at once and quietly; a count's part progress redraws
a few times a second.

``count --scheduler local:N`` stopped by a Ctrl-C or a SIGTERM took four seconds to end
(Dask's close asked each worker to stop and waited that long for a worker inside a
compiled count before killing it), and stderr filled with Dask's warnings and
tracebacks around the one line of the command line. Now the workers leave a Ctrl-C
to the command, which kills them when it closes the cluster
(:mod:`csp_sudoku.tools.batch`): the run ends in a fraction of a second (about 0.3 s
measured here, 4.2 s before) and says only ``csp-sudoku: interrupted``. The bound
on the time is loose, for a loaded machine; stderr is checked to the letter.

``count --budget-seconds`` on a terminal redrew its part progress at every part,
hundreds of times a second; now it is a bar of the command line
(:func:`csp_sudoku.cli._common.progress`), redrawn a few times a second, which
always draws its last state. ``-s`` prints the figures.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import csp_sudoku as cs
from csp_sudoku.core.puzzle import Puzzle

#: Seconds the whole process tree may take to go after the signal (0.3 s measured).
WITHIN = 10.0
#: CPU seconds each Dask worker has spent before the signal: its start (imports, the
#: kernels loaded) takes about 1.5 s of it, so the signal comes inside a count.
BUSY = 3.0


@pytest.fixture(scope="module")
def empty16(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sixteen empty 9x9 grids: counts to a big limit that never end, in two tasks (eight
    puzzles a task), one for each worker.

    A short count of one runs first, to the end, so that its kernels are compiled
    (or loaded) and cached before the runs below.
    """
    folder = tmp_path_factory.mktemp("dask_stop")
    one = folder / "E1.txt"
    one.write_text("." * 81 + "\n", encoding="ascii")
    warm = [sys.executable, "-m", "csp_sudoku", "count", "--limit", "200000", "-q", str(one)]
    subprocess.run(warm, check=False, capture_output=True, timeout=600)
    path = folder / "E16.txt"
    path.write_text(("." * 81 + "\n") * 16, encoding="ascii")
    return path


def _cpu(p: Any) -> float:
    try:
        t = p.cpu_times()
        return float(t.user + t.system)
    except Exception:  # psutil.NoSuchProcess: gone
        return 0.0


def _alive(procs: list[Any]) -> list[Any]:
    import psutil

    out = []
    for p in procs:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


@pytest.mark.parametrize(
    ("sig", "group"),
    [(signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["ctrl-c", "SIGTERM"],
)
def test_a_run_on_a_local_cluster_stops_at_once_and_says_one_line(
    started: list[subprocess.Popen[str]], empty16: Path, sig: signal.Signals, group: bool
) -> None:
    """``count --scheduler local:2`` of empty grids, stopped while both workers count: a
    Ctrl-C (to the whole group, as a terminal sends it) or a SIGTERM to the command.
    Before, the run took 4.2 s to end and wrote Dask's warnings ("Worker process still
    alive after 4.0 seconds, killing", cancelled tasks) and tracebacks."""
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("distributed")
    argv = ["count", "--limit", "1000000000000", "--scheduler", "local:2", str(empty16)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started.append(proc)
    root = psutil.Process(proc.pid)
    give_up = time.monotonic() + 180
    while True:
        assert proc.poll() is None, f"the run ended before the signal: {proc.stderr.read()}"  # type: ignore[union-attr]
        assert time.monotonic() < give_up, "the workers never got busy"
        try:
            children = root.children(recursive=True)
        except psutil.NoSuchProcess:
            children = []
        if sum(_cpu(c) >= BUSY for c in children) >= 2:
            break
        time.sleep(0.1)
    tree = [root, *children]
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    sent = time.monotonic()
    while _alive(tree) and time.monotonic() - sent < WITHIN + 5:
        time.sleep(0.01)
    took = time.monotonic() - sent
    _, err = proc.communicate(timeout=30)
    print(
        f"\n{sig.name}{' to the group' if group else ''}: tree of {len(tree)} gone in {took:.2f} s"
    )
    word = "interrupted" if sig == signal.SIGINT else "terminated"
    assert (proc.returncode, err) == (128 + sig, f"csp-sudoku: {word}\n")
    assert took < WITHIN, [p.pid for p in _alive(tree)]


class _Terminal(io.StringIO):
    """Standard error as a terminal: a stream that says it is one, and keeps what it got."""

    def isatty(self) -> bool:
        return True


def _count_shown(
    monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, budget: float
) -> tuple[str, dict[str, Any], int, float]:
    """``count_one`` of ``puzzle`` on a terminal with a budget: what the terminal got,
    the row, how many times the count called its progress back, and the seconds."""
    from csp_sudoku.cli import _plain

    calls = [0]
    real = _plain.count_solutions

    def counting(*args: Any, progress: Any = None, **kwargs: Any) -> int:
        def note(*a: int) -> None:
            calls[0] += 1
            progress(*a)

        return real(*args, progress=note if progress is not None else None, **kwargs)

    terminal = _Terminal()
    monkeypatch.setattr(_plain, "count_solutions", counting)
    monkeypatch.setattr(sys, "stderr", terminal)
    options = {"limit": 10**12, "backend": "auto", "budget": budget, "show": True}
    start = time.monotonic()
    _, rows, _ = _plain.count_one(puzzle, options)
    took = time.monotonic() - start
    monkeypatch.undo()
    return terminal.getvalue(), rows[0][0], calls[0], took


def test_a_counts_part_progress_redraws_a_few_times_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A count of an empty grid for a second: its progress came back after every part
    (hundreds of times a second) and each was a redraw of the line; now at most ten
    a second are, and the last one shows what the count found when its budget ended."""
    empty = cs.parse("." * 81)
    cs.count_solutions(empty, limit=30_000, progress=lambda *a: None)  # its kernels loaded
    text, row, calls, took = _count_shown(monkeypatch, empty, 1.0)
    redraws = text.count("\r")
    print(f"\n{calls} progress calls, {redraws} redraws in {took:.2f} s")
    assert row["budget"]
    assert redraws <= 10 * took + 5, redraws
    last = text.rstrip("\n").rsplit("\r", 1)[-1]
    assert f"{row['count']} solutions so far" in last, last


def test_a_finished_counts_last_state_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A count that ends within its budget, however soon: its last state (every part
    done, the whole count) is drawn, whatever the redraws left out before it."""
    text, row, calls, _ = _count_shown(monkeypatch, cs.parse("." * 16), 60.0)
    assert (row["count"], row["capped"], calls > 0) == (288, False, True)
    last = text.rstrip("\n").rsplit("\r", 1)[-1]
    assert "288 solutions so far" in last, last
