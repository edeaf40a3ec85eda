"""Every run stops when asked: Ctrl-C, SIGTERM, a parent killed, inside a long compiled search.

A compiled search sees no signal, and a thread that waits for the interpreter while
a kernel holds it waits for the kernel's end. Counts to a big limit on empty grids
(hours of search) ran on: a Ctrl-C or a SIGTERM was ignored for as long, a run
with ``--jobs 2`` that was told to stop waited for its workers, and a worker whose
parent was killed (``kill -9``) kept its core busy. Now a long search is taken in
slices of a few milliseconds with a look between two (:mod:`csp_sudoku.core.deadline`),
and a run stopped early ends its workers (:mod:`csp_sudoku.core.parallel`).

Each test starts the command in a session of its own, waits until it has spent a
second of CPU in its search (so the signal comes inside the compiled kernel), sends
the signal and measures how long the whole process tree takes to go: it must be
gone within :data:`WITHIN` seconds (the runs measured here take 0.02 to 0.3 s; the
slack is for a slow machine). ``-s`` prints the figures.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

psutil = pytest.importorskip("psutil")  # installed with dask[distributed], a dev dependency

#: One of the forum's hardest (ER 10.4): its se rating splits nets over the cores.
HARD = "....5.7..4.7..9.3..8....1..2.8..7.....4..8....7..9...3......6...4...2.97..2.....1"

#: Seconds the whole process tree may take to go after the signal.
WITHIN = 3.0
#: CPU seconds the busiest process of the tree has spent before the signal: a
#: process's start (imports, the kernels loaded) takes about half a second of it.
BUSY = 1.2


@pytest.fixture(scope="module")
def empty4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four empty 9x9 grids: about 6.7e21 solutions each, a count that never ends.

    A short count and check of one such grid run first, to the end, so that the
    kernels the runs below use are compiled (or loaded) and cached: a run
    stopped while numba compiles stops in Python, not in a kernel.
    """
    folder = tmp_path_factory.mktemp("stop")
    one = folder / "E1.txt"
    one.write_text("." * 81 + "\n", encoding="ascii")
    for argv in (["count", "--limit", "200000"], ["check", "--limit", "200000"]):
        warm = [sys.executable, "-m", "csp_sudoku", *argv, "-q", str(one)]
        subprocess.run(warm, check=False, capture_output=True, timeout=600)
    path = folder / "E4.txt"
    path.write_text(("." * 81 + "\n") * 4, encoding="ascii")
    return path


@pytest.fixture(scope="module")
def empty16(empty4: Path) -> Path:
    """Sixteen empty grids: two tasks of ``count --jobs 2`` (eight puzzles a task), so
    that both workers count and none waits idle for a task."""
    path = empty4.with_name("E16.txt")
    path.write_text(empty4.read_text(encoding="ascii") * 4, encoding="ascii")
    return path


def _tree(root: psutil.Process) -> list[psutil.Process]:
    try:
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _alive(procs: list[psutil.Process]) -> list[psutil.Process]:
    out = []
    for p in procs:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def _cpu(p: psutil.Process) -> float:
    try:
        t = p.cpu_times()
        return float(t.user + t.system)
    except psutil.NoSuchProcess:
        return 0.0


def _stop_time(
    started: list[subprocess.Popen[str]],
    argv: list[str],
    sig: signal.Signals,
    *,
    processes: int = 1,
    group: bool = False,
    busy: int = 1,
    busy_cpu: float = BUSY,
) -> tuple[float, subprocess.Popen[str], list[psutil.Process]]:
    """Start ``csp-sudoku ARGV``; once its tree has ``processes`` processes and ``busy``
    of them have spent ``busy_cpu`` CPU seconds each, send ``sig`` (to the whole
    session with ``group``, as a terminal's Ctrl-C does; else to the command); return
    the seconds until no process of the tree is left, the command and the tree."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started.append(proc)
    root = psutil.Process(proc.pid)
    give_up = time.monotonic() + 120
    tree = _tree(root)
    while len(tree) < processes or sum(_cpu(p) >= busy_cpu for p in tree) < busy:
        assert proc.poll() is None, f"the run ended before the signal: {proc.stderr.read()}"  # type: ignore[union-attr]
        assert time.monotonic() < give_up, "the run never got busy"
        time.sleep(0.05)
        tree = _tree(root)
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    sent = time.monotonic()
    while _alive(tree) and time.monotonic() - sent < WITHIN + 5:
        time.sleep(0.01)
    took = time.monotonic() - sent
    print(f"\n{' '.join(argv)}: {sig.name} -> tree of {len(tree)} gone in {took:.2f} s")
    return took, proc, tree


def _exit(proc: subprocess.Popen[str]) -> tuple[int, str]:
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err


COUNT = ["count", "--limit", "1000000000000"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_long_count_stops_at_once(
    started: list[subprocess.Popen[str]], empty4: Path, sig: signal.Signals
) -> None:
    """One process inside one compiled count: Ctrl-C and SIGTERM were ignored for
    as long as the count ran (hours)."""
    took, proc, _ = _stop_time(started, [*COUNT, str(empty4)], sig)
    assert took < WITHIN
    code, err = _exit(proc)
    word = "interrupted" if sig == signal.SIGINT else "terminated"
    assert (code, err.strip()) == (128 + sig, f"csp-sudoku: {word}")


@pytest.mark.parametrize(
    ("sig", "group"),
    [(signal.SIGTERM, False), (signal.SIGINT, True)],
    ids=["SIGTERM", "ctrl-c"],
)
def test_a_run_with_workers_ends_them(
    started: list[subprocess.Popen[str]], empty16: Path, sig: signal.Signals, group: bool
) -> None:
    """``count --jobs 2``: the parent said "terminated" and then waited for its two
    workers, which counted on (a Ctrl-C reached them, but a worker sees it only
    when its kernel returns)."""
    argv = [*COUNT, "--jobs", "2", str(empty16)]
    took, proc, tree = _stop_time(started, argv, sig, processes=3, group=group)
    assert took < WITHIN, [p.pid for p in _alive(tree)]
    assert _exit(proc)[0] == 128 + sig


@pytest.mark.parametrize(
    ("sig", "group"),
    [(signal.SIGTERM, True), (signal.SIGINT, False)],
    ids=["SIGTERM-to-the-group", "SIGINT"],
)
def test_an_annealing_search_with_workers_stops(
    started: list[subprocess.Popen[str]], sig: signal.Signals, group: bool
) -> None:
    """``generate --level extreme --metric se --jobs 2`` (searches in two workers that
    send their finds through a manager process): a SIGTERM to the whole group (as
    ``timeout`` sends it) ended the workers first, and the parent, shutting its
    pool down, said "Connection reset by peer" as a bad input (exit 2); a Ctrl-C
    ended it as it should but waited about a second for the searches to look at
    their stop flag."""
    argv = ["generate", "-n", "1000", "--level", "extreme", "--metric", "se", "--seed", "1"]
    took, proc, tree = _stop_time(started, [*argv, "-j", "2", "-q"], sig, processes=4, group=group)
    assert took < WITHIN, [p.pid for p in _alive(tree)]
    code, err = _exit(proc)
    word = "interrupted" if sig == signal.SIGINT else "terminated"
    assert (code, err.strip().splitlines()[-1]) == (128 + sig, f"csp-sudoku: {word}")


def test_workers_of_a_killed_parent_stop(
    started: list[subprocess.Popen[str]], empty16: Path
) -> None:
    """``kill -9`` of the parent: its workers, inside a compiled count, went on at full
    speed (they looked at their parent only when the count returned)."""
    argv = [*COUNT, "--jobs", "2", str(empty16)]
    took, _, tree = _stop_time(started, argv, signal.SIGKILL, processes=3)
    assert took < WITHIN, [p.pid for p in _alive(tree)]


def test_check_with_threads_stops(started: list[subprocess.Popen[str]], empty4: Path) -> None:
    """``check --jobs 2`` of bare lines counts in two threads of one process (a line
    a task here: both count): the thread that is not the main one had no way to learn
    that the run was stopped, and the exit waited for it."""
    argv = ["check", "--jobs", "2", "--limit", "100000000", "--chunk-size", "1", str(empty4)]
    took, proc, _ = _stop_time(started, argv, signal.SIGTERM)
    assert took < WITHIN
    assert _exit(proc)[0] == 143


def test_check_with_worker_processes_stops(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    """``check --jobs 2 --backend sat`` (worker processes): the queue that feeds the
    workers kept the exit waiting on its full pipe once they were gone."""
    from tests.conftest import load_lines

    src = tmp_path / "many.txt"
    src.write_text("\n".join(load_lines("17_clue.txt")) + "\n", encoding="ascii")
    argv = ["check", "--jobs", "2", "--backend", "sat", "-q", str(src), "-o", str(tmp_path / "o")]
    took, proc, _ = _stop_time(started, argv, signal.SIGTERM, processes=3)
    assert took < WITHIN
    code, err = _exit(proc)
    assert code == 143 and "Traceback" not in err and "Exception" not in err, err


def test_a_ctrl_c_inside_the_sat_solver_is_an_interruption(
    started: list[subprocess.Popen[str]], empty4: Path
) -> None:
    """The SAT backend's count to a big limit (one solver call per solution) stops at
    once too, and as an interruption."""
    argv = [*COUNT, "--backend", "sat", str(empty4)]
    took, proc, _ = _stop_time(started, argv, signal.SIGINT)
    assert took < WITHIN
    code, err = _exit(proc)
    assert (code, err.strip()) == (130, "csp-sudoku: interrupted")


def test_a_solver_that_failed_mid_search_is_not_used_again() -> None:
    """An error out of python-sat's native search (a Ctrl-C that python-sat caught
    itself used to give one, "Caught keyboard interrupt"): CaDiCaL aborted the
    process when the clauses of that search were then retired on the solver it had
    left mid-search. Now the error goes up, nothing more is asked of that solver,
    and a new one serves the next call."""
    from csp_sudoku.backends.sat import SatBackend
    from csp_sudoku.core.geometry import Geometry

    g9 = Geometry.standard(9)
    sat = SatBackend("cadical153")
    empty = np.zeros(81, np.int8)
    assert sat.count(empty, g9, 3) == 3
    session = sat._session(g9)
    added: list[list[int]] = []

    class Failed:
        def solve(self, assumptions: list[int]) -> bool:
            raise RuntimeError("the native search failed")

        def add_clause(self, clause: list[int]) -> None:
            added.append(clause)

        def delete(self) -> None:
            pass

    real, session.solver = session.solver, Failed()
    try:
        with pytest.raises(RuntimeError, match="native search failed"):
            sat.count(empty, g9, 3)
        assert added == []  # nothing more is asked of the solver left mid-search
        assert sat._session(g9) is not session  # a new one serves the next call
        assert sat.count(empty, g9, 3) == 3
    finally:
        real.delete()
        sat.close()


def test_no_call_into_python_sat_lets_it_take_a_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the main thread, python-sat asks ``MainThread.check()`` before a native call
    whether to install its own SIGINT handler, which jumps out of the C++ code
    wherever it is (out of ``malloc`` too) and, having jumped, stays installed with
    the stack it would jump to gone: a hung process, or a segmentation fault after
    the run said "interrupted". Every call the library makes holds that back
    (``ctrl_c_held``): here python-sat's modules get a check that records being
    asked, and the library's solving and encoding paths run: it is never asked."""
    import json

    import pysat.card
    import pysat.solvers

    import csp_sudoku as cs
    from csp_sudoku.backends.sat import SatBackend
    from csp_sudoku.constraints import from_fpuzzles
    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.encodings.cnf import _rules_cnf
    from csp_sudoku.tools.certify import certify
    from csp_sudoku.variants import candidates, count, variant_clauses
    from csp_sudoku.variants.rating import rate_variant

    asked: list[str] = []

    class Spy:
        @staticmethod
        def check() -> bool:
            import traceback

            asked.append(traceback.format_stack(limit=6)[0])
            return True

    for module in (pysat.solvers, pysat.card):
        monkeypatch.setattr(module, "MainThread", Spy)
    rows = Path(__file__).parents[1] / "examples" / "data" / "variants.jsonl"
    variants = [from_fpuzzles(json.loads(line)) for line in rows.read_text().splitlines()]
    for puzzle in variants:
        variant_clauses(puzzle)
        assert count(puzzle, 2, backend="sat") == 1
        candidates(puzzle, backend="sat")
        rate_variant(puzzle)
        certify(puzzle)
    _rules_cnf.__wrapped__(Geometry.standard(16))  # the rules' encoding, past its cache
    sat = SatBackend("cadical153")
    try:
        assert sat.count(np.zeros(81, np.int8), Geometry.standard(9), 5) == 5
    finally:
        sat.close()
    certify(
        cs.parse("." * 16 + "12..3.45...............1.6..7.54.8...3......5.....2.....2..7....9")
    )
    assert asked == []


def test_a_thread_leaves_the_main_threads_hold_alone() -> None:
    """Another thread inside ``ctrl_c_held`` (a Dask worker's SAT call) while the main
    thread enters and leaves it: the main thread's hold works, and python-sat's
    modules are as they were once the main thread has left (they were left
    changed when the two shared one stack of what they saved)."""
    import threading

    import pysat.card
    import pysat.solvers

    from csp_sudoku.encodings.cnf import ctrl_c_held

    before = (pysat.solvers.MainThread, pysat.card.MainThread)
    inside, leave = threading.Event(), threading.Event()

    def other() -> None:
        with ctrl_c_held:
            inside.set()
            leave.wait(30)

    worker = threading.Thread(target=other)
    try:
        with ctrl_c_held:
            worker.start()
            assert inside.wait(30)
            assert not pysat.solvers.MainThread.check()
            assert not pysat.card.MainThread.check()
        assert (pysat.solvers.MainThread, pysat.card.MainThread) == before
    finally:
        leave.set()
        worker.join()
    assert (pysat.solvers.MainThread, pysat.card.MainThread) == before
    assert pysat.solvers.MainThread.check()


#: Runs that compile in helper processes on an empty numba cache: the command line,
#: the processes of its tree while it compiles, and the cores that takes.
COMPILING = {
    # compile --warm: its parts in worker processes (about 2 min)
    "compile-warm": (["compile", "--warm"], 3, 1),
    # a first rate --metric se: SE's nested nets in a helper beside its own compiling
    "first-se-rating": (
        [
            "rate",
            "--metric",
            "se",
            "-q",
            "....5.7..4.7..9.3..8....1..2.8..7.....4..8....7..9...3......6...4...2.97..2.....1",
        ],
        2,
        2,
    ),
}


@pytest.mark.parametrize("run", COMPILING)
@pytest.mark.parametrize(
    ("sig", "group"),
    [(signal.SIGTERM, False), (signal.SIGINT, True), (signal.SIGKILL, False)],
    ids=["SIGTERM", "ctrl-c", "kill-9"],
)
def test_a_compiling_run_stops_with_its_helpers(
    started: list[subprocess.Popen[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sig: signal.Signals,
    group: bool,
    run: str,
) -> None:
    """``compile --warm`` and a first ``rate --metric se`` compile in helper processes
    on an empty numba cache: stopped, or the parent killed, while numba compiles in
    all of them, the whole tree is gone at once."""
    argv, processes, cores = COMPILING[run]
    if (os.cpu_count() or 1) < cores:
        pytest.skip("no helper on a machine of one core")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # empty: every process compiles
    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER", raising=False)
    took, proc, tree = _stop_time(started, argv, sig, processes=processes, group=group)
    assert took < WITHIN, [p.pid for p in _alive(tree)]
    if sig != signal.SIGKILL:
        assert _exit(proc)[0] == 128 + sig


def test_a_variant_run_killed_leaves_no_folder_behind(
    started: list[subprocess.Popen[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kill -9`` of ``generate --killer --jobs 2`` cannot remove the folder where its
    workers find the puzzles found (``csp-sudoku-found-PID-*``); the next run with
    workers removes it, and leaves a live run's alone."""
    from csp_sudoku.variants.generate import MARKS_PREFIX

    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # the runs' temporary folder, and theirs alone
    argv = ["generate", "--killer", "-n", "50", "--level", "expert", "-q", "--jobs", "2"]
    argv += ["--seed", "2", "-o", str(tmp_path / "k.jsonl")]
    took, proc, _ = _stop_time(started, argv, signal.SIGKILL, processes=3)
    assert took < WITHIN and proc.wait(timeout=30) == -signal.SIGKILL  # reaped, as a shell does
    left = [p.name for p in temp.iterdir()]
    assert [n for n in left if n.startswith(f"{MARKS_PREFIX}{proc.pid}-")] == left != []
    live = temp / f"{MARKS_PREFIX}{os.getpid()}-live"  # a run still going: this process
    live.mkdir()
    again = ["generate", "--killer", "--size", "4", "-n", "3", "--jobs", "2", "--seed", "1", "-q"]
    after = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", *again],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert after.returncode == 0, after.stderr
    assert [p.name for p in temp.iterdir()] == [live.name]


def test_a_ctrl_c_while_the_parser_is_built_is_an_interruption(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Building ``generate``'s parser starts numba (its help lists the metrics' levels):
    more than a second of CPU on a loaded machine, and a Ctrl-C there ended the run
    with a traceback."""
    import csp_sudoku.cli as cli

    def interrupted(_only: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_parser", interrupted)
    try:
        code = cli.main(["generate", "-n", "1"])
    except KeyboardInterrupt:  # let through, it would end this test run too
        pytest.fail("the Ctrl-C left main as a KeyboardInterrupt")
    assert code == 130
    assert capsys.readouterr().err == "csp-sudoku: interrupted\n"


def test_a_signal_inside_an_llvm_callback_comes_again_outside_it() -> None:
    """A signal handled while a frame of llvmlite runs (LLVM's callbacks into Python
    while numba compiles: a KeyboardInterrupt raised there is lost, and numba then
    failed with an internal error or the process crashed) is sent again a moment
    later; anywhere else the handler acts at once."""
    import threading
    import types

    from csp_sudoku.cli import _outside_llvm

    seen: list[str] = []
    again = threading.Event()

    def handler(signum: int, frame: Any) -> None:
        seen.append(frame.f_code.co_filename)

    def llvm_frame(path: str, back: object = None) -> types.SimpleNamespace:
        return types.SimpleNamespace(f_code=types.SimpleNamespace(co_filename=path), f_back=back)

    previous = signal.signal(signal.SIGUSR1, lambda *_: again.set())
    import csp_sudoku.cli as cli

    cli._REPORTED.clear()  # an earlier main() in this process stopped: not this "run"
    try:
        wrapped = _outside_llvm(handler)
        inside = llvm_frame(
            os.path.join(os.sep, "env", "llvmlite", "binding", "executionengine.py")
        )
        wrapped(signal.SIGUSR1, inside)
        assert seen == []  # not handled inside the callback
        assert again.wait(5)  # the signal came again
        # numba's code called back from llvmlite's (its lock's release): the same
        again.clear()
        called_back = llvm_frame(os.path.join(os.sep, "env", "numba", "core", "base.py"), inside)
        wrapped(signal.SIGUSR1, called_back)
        assert seen == []
        assert again.wait(5)
        outside = llvm_frame(os.path.join(os.sep, "repo", "csp_sudoku", "cli", "rate.py"))
        wrapped(signal.SIGUSR1, outside)
        assert seen == [outside.f_code.co_filename]
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_the_command_line_module_loads_nothing_heavy_before_its_handlers() -> None:
    """The script imports ``csp_sudoku.cli`` and then calls ``entry``, which sets the
    Ctrl-C and SIGTERM handlers: what loads before must be light. The package once
    imported numpy (and the API) on its own import, so a Ctrl-C in the first half
    second was a traceback from numpy's import, or numpy's "bad install" text."""
    script = "import json, sys; import csp_sudoku.cli; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    loaded = {m.partition(".")[0] for m in json.loads(out)}
    assert "numpy" not in loaded and "numba" not in loaded


def _handlers_set(pid: int, timeout: float = 60.0) -> None:
    """Wait until process ``pid`` catches SIGTERM: the command's handlers are set.

    Before that, the interpreter starts and imports the command line (a tenth of
    a second, several on a loaded machine); a Ctrl-C there is Python's own (a
    traceback), as for any Python program.
    """
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        pytest.skip("needs /proc to see a process's signal handlers")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            caught = next(ln for ln in status.read_text().splitlines() if ln.startswith("SigCgt:"))
        except (OSError, StopIteration):
            break  # the process is gone
        if int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.005)
    pytest.fail("the command never set its signal handlers")


@pytest.mark.parametrize("after", [0.0, 0.05, 0.15, 0.3, 0.6])
def test_a_ctrl_c_soon_after_the_start_is_an_interruption(after: float) -> None:
    """Signals from the moment the command's handlers are set on (imports, parsing,
    the kernels loaded, the first nets) end the run with the one line, exit 130."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", "rate", "--metric", "se", HARD],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    _handlers_set(proc.pid)
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    # exit 130, or killed by the SIGINT itself (which a shell reports as 130 too):
    # Python ends so after a KeyboardInterrupt passed through exec() of a string
    # (numba does that while it starts), whatever caught it
    assert proc.returncode in (130, -signal.SIGINT)
    assert err == "csp-sudoku: interrupted\n"


def test_a_ctrl_c_while_nets_run_on_spare_cores_waits_for_them_and_stops() -> None:
    """A Ctrl-C in the calling thread of :func:`on_spare_cores` stops the other threads
    taking new calls; it is raised once their running calls are done (nothing writes
    to the caller's arrays after it), and never waits for calls not started."""
    import threading

    from csp_sudoku.core.parallel import on_spare_cores

    lock = threading.Lock()
    running = [0]
    ran: list[int] = []

    def call(i: int) -> None:
        with lock:
            running[0] += 1
        try:
            if threading.current_thread() is threading.main_thread() and i > 0:
                raise KeyboardInterrupt
            time.sleep(0.02)
            ran.append(i)
        finally:
            with lock:
                running[0] -= 1

    calls = [lambda i=i: call(i) for i in range(200)]
    with pytest.raises(KeyboardInterrupt):
        on_spare_cores(calls)  # type: ignore[arg-type]
    assert running == [0]
    assert len(ran) < 50  # the others stopped taking calls


#: A command whose first step (the pre-flight check, patched) sends itself a
#: Ctrl-C where the KeyboardInterrupt is lost, then works on for ``LONG`` seconds.
_LOST_CTRL_C = """
import os, signal, sys, time
import csp_sudoku.cli as cli
import csp_sudoku.cli._common as common

class Finalized:
    def __del__(self):  # a finalizer: Python prints what it raises and goes on
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)

def swallowed():
    try:  # a library's bare except
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)
    except BaseException:
        pass

def preflight(args):
    {lose}
    time.sleep({long})

common.preflight = preflight
sys.exit(cli.main(["check", "-q", {puzzle!r}]))
"""


@pytest.mark.parametrize(("lose", "ends_early"), [("Finalized()", True), ("swallowed()", False)])
def test_a_ctrl_c_that_something_swallowed_still_stops_the_run(lose: str, ends_early: bool) -> None:
    """A signal's handler runs wherever the main thread is. In a finalizer (or a
    ctypes or garbage-collector callback) its KeyboardInterrupt is printed as
    "Exception ignored" and lost, and the run went on to its end with exit 0: the
    signal now comes again a moment later and stops the run. One that a library's
    bare ``except`` swallowed cannot be sent again blindly, but the run still ends
    with the interrupted line and exit 130."""
    script = _LOST_CTRL_C.format(lose=lose, long=20 if ends_early else 0.5, puzzle=HARD)
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    took = time.monotonic() - start
    assert (done.returncode, done.stderr) == (130, "csp-sudoku: interrupted\n")
    if ends_early:
        assert took < 15  # not the 20 s of work after the lost signal


@pytest.mark.parametrize(
    ("sig", "group"), [(signal.SIGINT, True), (signal.SIGTERM, False)], ids=["ctrl-c", "SIGTERM"]
)
def test_a_run_on_a_local_cluster_stops_at_once_and_says_one_line(
    started: list[subprocess.Popen[str]], empty16: Path, sig: signal.Signals, group: bool
) -> None:
    """``count --scheduler local:2`` of empty grids, stopped while both Dask workers count
    (3 CPU seconds each: a worker's start takes about 1.5): a Ctrl-C to the whole group,
    as a terminal sends it, or a SIGTERM to the command. The run took 4.2 s to end
    (Dask's close waited for each worker inside its compiled count, then killed it)
    and wrote Dask's warnings ("Worker process still alive after 4.0 seconds,
    killing", cancelled tasks) and tracebacks; now the workers leave a Ctrl-C to the
    command, which kills them when it closes the cluster (about 0.3 s)."""
    pytest.importorskip("distributed")
    argv = [*COUNT, "--scheduler", "local:2", str(empty16)]
    took, proc, tree = _stop_time(started, argv, sig, group=group, busy=2, busy_cpu=3.0)
    word = "interrupted" if sig == signal.SIGINT else "terminated"
    assert _exit(proc) == (128 + sig, f"csp-sudoku: {word}\n")
    assert took < WITHIN, [p.pid for p in _alive(tree)]


def test_a_signal_sent_again_is_not_sent_once_the_run_is_reported_stopped() -> None:
    """A signal whose KeyboardInterrupt was lost is sent again 20 ms later; when the run
    had meanwhile stopped another way, the signal came after the command's handlers
    were gone, and Python's ended the process with exit -2 after our line."""
    import threading

    import csp_sudoku.cli as cli

    came = threading.Event()
    previous = signal.signal(signal.SIGUSR1, lambda *_: came.set())
    try:
        cli._REPORTED[:] = [True]
        cli._send_again(signal.SIGUSR1, 0.01)
        assert not came.wait(0.5)
        cli._REPORTED.clear()
        cli._send_again(signal.SIGUSR1, 0.01)
        assert came.wait(5)
    finally:
        cli._REPORTED.clear()
        signal.signal(signal.SIGUSR1, previous)


def test_a_ctrl_c_after_main_is_an_interruption_too() -> None:
    """A Ctrl-C that comes once ``main`` has put Python's handler back reaches the
    script's entry point as a KeyboardInterrupt: exit 130 with the one line, not a
    traceback or Python's exit for it."""
    script = (
        "import csp_sudoku.cli as cli\n"
        "def main(argv=None):\n"
        "    raise KeyboardInterrupt\n"
        "cli.main = main\n"
        "cli.entry()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (130, "csp-sudoku: interrupted\n")
