"""The pipeline of ``check``: chunks of lines read like the whole file, a worker killed mid-run.

The main process cuts the input into chunks of whole lines and workers parse
them, so a chunk read from the state the chunk before left must give exactly
the entries the file read in one go gives (line numbers, errors, grids cut by
a chunk's start, CSV headers). A worker that dies must end the run with an
error and a non-zero exit code, leave only whole rows of the lines before its
chunk, and ``--resume`` must then finish the run as if nothing happened.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import signal
import threading
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku.cli.check as check_cli
from csp_sudoku.cli import main
from csp_sudoku.core.errors import BatchError
from csp_sudoku.core.io import (
    Entry,
    ReadState,
    TextChunk,
    _line_ends,
    _LineEnds,
    read_chunk,
    read_chunks,
    read_puzzles,
)
from csp_sudoku.core.parallel import ordered_map
from csp_sudoku.core.puzzle import format_lines
from tests.conftest import load_lines

LINES = load_lines("top1465.txt", limit=12)
MULTI = load_lines("multi_solution_serg.txt", limit=3)


def _grid(line: str) -> list[str]:
    """A 9x9 puzzle as a grid of 9 rows with box separators."""
    rows = [" ".join(line[r * 9 : r * 9 + 9]) for r in range(9)]
    return [*rows[:3], "------+------+------", *rows[3:6], "------+------+------", *rows[6:]]


#: Inputs whose reading carries state from line to line, or trips a line counter.
TEXTS: dict[str, bytes] = {
    "plain": ("\n".join(LINES) + "\n").encode(),
    "crlf, no final line end": "\r\n".join(LINES).encode(),
    "lone cr": ("\r".join(LINES[:5]) + "\r").encode(),
    "bom, comments, bad lines": (
        "\ufeff# head\n" + "\n".join([LINES[0], "x" * 81, "", "# c", LINES[1], "hello"]) + "\n"
    ).encode(),
    "grids, one cut short": (
        "\n".join([*_grid(LINES[0]), "", *_grid(LINES[1])[:6], "", LINES[2], *_grid(LINES[3])])
        + "\n"
        + "\n".join(_grid(LINES[4])[:5])
    ).encode(),
    "csv with a second header": (
        "id,puzzle\n"
        + "\n".join(f"{i},{p}" for i, p in enumerate(LINES[:5]))
        + "\nname,puzzle,x\n"
        + "\n".join(f"n{i},{p},{i}" for i, p in enumerate(LINES[5:9]))
        + "\n"
    ).encode(),
    "json lines": "\n".join(
        [json.dumps({"puzzle": p, "seed": i}) for i, p in enumerate(LINES[:4])] + ["{bad"]
    ).encode(),
    "binary": ("\n".join(LINES[:3]) + "\nab\x00\n" + "\n".join(LINES[3:6]) + "\n").encode(),
    "empty": b"",
}


def _key(e: Entry) -> tuple[Any, ...]:
    puzzle = None if e.puzzle is None else e.puzzle.to_line()
    error = None if e.error is None else e.error.describe()
    return e.line, puzzle, error, e.source, e.fields


def test_chunks_of_a_pipe_come_as_its_writer_sends_them() -> None:
    """``generate ... | check -``: a chunk goes when the writer pauses, with the whole
    lines so far (the rows of a slow writer came only when it ended). The writer
    sends its next lines once the first chunk is out (or after 10 s: then the first
    chunk holds them all, and the test fails rather than hangs)."""
    line = load_lines("top1465.txt", limit=1)[0].encode()
    r, w = os.pipe()
    first_out = threading.Event()

    def writer() -> None:
        with os.fdopen(w, "wb") as out:
            out.write(line + b"\n" + line[:40])  # one line and a half
            out.flush()
            first_out.wait(10)
            out.write(line[40:] + b"\n" + line + b"\n")

    thread = threading.Thread(target=writer)
    thread.start()
    with os.fdopen(r, "rb") as src:
        chunks = read_chunks(src, 4096, source_name="<pipe>")
        first = next(chunks)
        first_out.set()
        rest = list(chunks)
    thread.join()
    assert (first.first_line, first.lines, first.data, first.last) == (1, 1, line + b"\n", False)
    assert sum(c.lines for c in rest) == 2 and rest[-1].last
    assert b"".join(c.data for c in rest) == (line + b"\n") * 2


@pytest.mark.parametrize("name", sorted(TEXTS))
@pytest.mark.parametrize("size", [1, 2, 5, 4096])
def test_chunks_read_as_the_whole_file(tmp_path: Path, name: str, size: int) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(TEXTS[name])
    whole = [_key(e) for e in read_puzzles(str(path))]
    chunks = list(read_chunks(str(path), size))
    assert chunks[-1].last and not any(c.last for c in chunks[:-1])
    assert [c.first_line for c in chunks[1:]] == [c.first_line + c.lines for c in chunks[:-1]]
    got: list[tuple[Any, ...]] = []
    state = ReadState()
    for c in chunks:
        read = read_chunk(c, state)
        if isinstance(read, list):
            got += [_key(e) for e in read]
        else:  # the fast path: bare puzzle lines
            puzzles = format_lines(read[0])
            got += [(c.first_line + i, p, None, c.source, {}) for i, p in enumerate(puzzles)]
    assert got == whole


def test_jobs_read_grids_and_csv_headers_from_the_right_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Chunks sent out ahead start from a guess; a wrong guess is read again."""
    src = tmp_path / "in.txt"
    src.write_bytes(TEXTS["grids, one cut short"] + b"\n" + TEXTS["csv with a second header"])
    outputs = []
    for jobs in ("1", "2"):
        args = ["check", str(src), "--format", "csv", "--chunk-size", "3", "--jobs", jobs]
        assert main(args) == 2
        outputs.append(capsys.readouterr())
    assert outputs[0].out == outputs[1].out
    assert outputs[0].err.splitlines()[:-1] == outputs[1].err.splitlines()[:-1]  # not the timing


#: The first line of the chunk whose worker is killed.
_DOOMED_LINE = 121


def _dying_check_chunk(chunk: TextChunk, *args: Any) -> Any:
    """Check a chunk, except that the worker given line 121 dies (SIGKILL, as the OOM killer)."""
    if chunk.first_line == _DOOMED_LINE and multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)
    return _REAL_CHECK_CHUNK(chunk, *args)


_REAL_CHECK_CHUNK = check_cli._check_chunk


def test_killed_worker_fails_the_run_and_resume_finishes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the comment first: not a run of bare 81-character lines, so --jobs 2 runs worker
    # processes (a run of them is counted by threads of one process, see the next test)
    lines = ["# 17-clue puzzles", *load_lines("17_clue.txt", limit=300, step=97)]
    lines += [*MULTI, "x" * 81]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    clean, part = tmp_path / "clean.txt", tmp_path / "part.txt"
    args = ["check", str(src), "-q", "--chunk-size", "20"]
    assert main([*args, "-o", str(clean)]) == 2  # the bad last line
    capsys.readouterr()

    monkeypatch.setattr(check_cli, "_check_chunk", _dying_check_chunk)
    code = main([*args, "-o", str(part), "--jobs", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert "a worker process died" in err and "--resume" in err and "Traceback" not in err
    written = part.read_text()
    assert written.endswith("\n") and clean.read_text().startswith(written)
    assert len(written.splitlines()) < _DOOMED_LINE  # nothing of the dead chunk, or after it

    monkeypatch.setattr(check_cli, "_check_chunk", _REAL_CHECK_CHUNK)
    assert main([*args, "-o", str(part), "--jobs", "2", "--resume"]) == 2
    assert part.read_bytes() == clean.read_bytes()
    assert f"{src}:{len(lines)}:1: unknown character 'x'" in capsys.readouterr().err


class _BreaksAfter(Executor):
    """An executor whose pool breaks once ``n`` tasks were taken, as a process pool's
    does when a worker dies while more tasks are being queued: ``submit`` itself raises."""

    def __init__(self, n: int) -> None:
        self.n = n

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.n == 0:
            raise BrokenProcessPool("a child process terminated abruptly")
        self.n -= 1
        done: Future[Any] = Future()
        done.set_result(fn(*args))
        return done


def test_a_pool_broken_while_tasks_are_queued_is_a_batch_error_after_the_results_before() -> None:
    """The race the killed-worker test can hit: the dead worker is seen by ``submit``
    before any result is read. The tasks taken still answer, then the run's error."""
    got: list[int] = []
    with pytest.raises(BatchError, match="worker process died"):
        for out in ordered_map(abs, [(-i,) for i in range(10)], jobs=2, executor=_BreaksAfter(3)):
            got.append(out)
    assert got == [0, 1, 2]


def test_threads_of_a_run_of_bare_lines_answer_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--jobs 3`` on bare 81-character lines: threads of this process, no worker process;
    the rows and messages of ``--jobs 1``; a task's error said after the rows before it."""
    lines = load_lines("17_clue.txt", limit=400, step=53) + MULTI + ["x" * 81] + MULTI
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    args = ["check", str(src), "-q", "--chunk-size", "16"]
    assert main([*args, "-o", str(tmp_path / "one.txt")]) == 2
    one = capsys.readouterr().err
    started: list[str] = []

    def watched(chunk: TextChunk, *rest: Any) -> Any:
        started.append(threading.current_thread().name)
        assert multiprocessing.parent_process() is None
        if chunk.first_line == 17 * 16 + 1 and broken:
            raise OSError(5, "disk on fire")
        return _REAL_CHECK_CHUNK(chunk, *rest)

    monkeypatch.setattr(check_cli, "_check_chunk", watched)
    broken = False
    assert main([*args, "-o", str(tmp_path / "three.txt"), "--jobs", "3"]) == 2
    assert capsys.readouterr().err == one
    assert (tmp_path / "three.txt").read_bytes() == (tmp_path / "one.txt").read_bytes()
    # this thread and the pool's threads took tasks (on a loaded machine one pool
    # thread may get none, so at least one besides this one)
    names = set(started)
    assert "MainThread" in names and len(names) >= 2
    assert all(n == "MainThread" or n.startswith("csp-sudoku_") for n in names)
    broken = True
    assert main([*args, "-o", str(tmp_path / "broken.txt"), "--jobs", "3"]) == 2
    assert "disk on fire" in capsys.readouterr().err
    rows = (tmp_path / "broken.txt").read_text().splitlines()
    assert rows == (tmp_path / "one.txt").read_text().splitlines()[: 17 * 16]


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.sampled_from([b"ab", b"c" * 90, b"", b"\n", b"\r", b"\r\n"]), max_size=60).map(
        b"".join
    ),
    size=st.integers(1, 70),
)
def test_chunks_cut_every_size_line_ends(text: bytes, size: int) -> None:
    """Chunks hold ``size`` lines each (the last the rest), as the line ends of the whole input say."""
    ends = [0, *_line_ends(text, True).tolist()]
    cuts = ends[size::size]
    if not cuts or cuts[-1] != len(text) or not text:
        cuts.append(len(text))
    for steps in (1, 64):  # line ends stepped over one by one before all are listed
        with mock.patch.object(_LineEnds, "STEPS", steps):
            chunks = list(read_chunks(io.BytesIO(text), size))
        assert [c.data for c in chunks] == [
            text[a:b] for a, b in zip([0, *cuts], cuts, strict=False)
        ]
        assert sum(c.lines for c in chunks) == len(ends) - 1 + (
            bool(text) and ends[-1] != len(text)
        )
        assert all(c.lines == size for c in chunks[:-1])


def _worker_pid(_: int) -> int:
    import time

    time.sleep(0.01)  # long enough that every worker of the pool takes some
    return os.getpid()


def test_a_private_pool_has_at_most_the_cores() -> None:
    """``--jobs 999`` forked 999 processes (8 s for three puzzles) and kept twice
    that many tasks in flight: the pool is cut to the machine's cores."""
    pids = set(ordered_map(_worker_pid, [(i,) for i in range(40)], jobs=999))
    assert os.getpid() not in pids and 1 <= len(pids) <= (os.cpu_count() or 1)


def _sigterm_is_default(_: int) -> bool:
    return signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_workers_die_on_sigterm_whatever_handler_they_were_forked_with() -> None:
    """The CLI handles SIGTERM (it ends as after a Ctrl-C); a worker forked from it
    had that handler too, which runs only between Python steps, not in a kernel."""
    from concurrent.futures import ProcessPoolExecutor

    from csp_sudoku.core.parallel import exit_with_parent

    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        # the pools of ordered_map and of the generators' streams start their workers so
        with ProcessPoolExecutor(1, initializer=exit_with_parent, initargs=(os.getpid(),)) as pool:
            assert pool.submit(_sigterm_is_default, 0).result(timeout=60)
    finally:
        signal.signal(signal.SIGTERM, previous)
