"""No process outlives its parent: kill a batch command (``kill -9`` or SIGTERM) while its
workers run, and every child it started ends within a few seconds.

Children are found through /proc (Linux), by parent id, before the parent is killed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import load_lines

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid``."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


COMMANDS = {
    "rate": ["rate", "-m", "rounds", "--jobs", "2"],
    "count": ["count", "--jobs", "2", "--limit", "100000"],
    "generate": ["generate", "-n", "400", "--jobs", "2", "--seed", "1"],
}


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "term"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_workers_end_with_their_killed_parent(tmp_path: Path, command: str, sig: int) -> None:
    puzzles = tmp_path / "in.txt"
    lines = load_lines("top1465.txt", limit=400) if command == "rate" else ["." * 81] * 400
    puzzles.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = [*COMMANDS[command], *([] if command == "generate" else [str(puzzles)])]
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", *argv, "-q", "-o", str(tmp_path / "out.txt")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        children: set[int] = set()
        deadline = time.monotonic() + 60
        while len(children) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            children = _children(proc.pid)
        assert len(children) >= 2, "the command started no workers"
        time.sleep(0.5)  # the workers at work
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [c for c in children if _alive(c)]
        assert not left, f"{len(left)} workers outlived their parent"
    finally:
        if proc.poll() is None:
            proc.kill()
        for c in _children(proc.pid):
            os.kill(c, signal.SIGKILL)


def test_the_metrics_helper_ends_with_its_killed_parent(tmp_path: Path) -> None:
    """``rate -m hsolve -m se`` on an empty numba cache starts a helper that compiles the
    second group's kernels; killing the rating process takes the helper with it."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("CSP_SUDOKU_NO_HELPER", None)
    line = load_lines("top1465.txt", limit=1)[0]
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", "rate", "-m", "hsolve", "-m", "se", line, "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        children: set[int] = set()
        deadline = time.monotonic() + 60
        while not children and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            children = _children(proc.pid)
        assert children, "no helper was started (is numba's cache really empty?)"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [c for c in children if _alive(c)], "the helper outlived its parent"
    finally:
        if proc.poll() is None:
            proc.kill()
        for c in _children(proc.pid):
            os.kill(c, signal.SIGKILL)
