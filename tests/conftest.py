"""Shared fixtures: the reference puzzle sets of tests/data/reference.

The reference sets are public puzzle collections kept in the repository,
xz-compressed (tests/data/reference, with a README giving each file's source
and licence), so that a clone with nothing beside it tests every backend.
Each file is checked against ``SHA256SUMS`` before its first use: a damaged
or truncated file fails the test that reads it, naming the file.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import lzma
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

# A run started in the background of a script (``.ci/run &``) inherits SIGINT ignored,
# and so does every command a test starts: the command line then rightly ignores a
# Ctrl-C too (a background job's), and the tests of what a Ctrl-C does to a
# foreground run cannot see it. The tests' processes take SIGINT as a terminal's
# foreground does: Python's handler here, the default in the commands they start.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

TEST_DATA = Path(__file__).resolve().parent / "data"
#: The reference puzzle sets (``NAME.xz`` for each ``NAME`` the helpers take).
REFERENCE = TEST_DATA / "reference"
#: Puzzles a "sample" holds: the first ones of its reference set.
SAMPLE_SIZE = 50


def _sums() -> dict[str, str]:
    out = {}
    for line in (REFERENCE / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split()
        out[name] = digest
    return out


def python_output(code: str, env: dict[str, str] | None = None) -> str:
    """What ``code`` prints, run in a fresh interpreter (this one's executable), with
    ``env`` as its environment (None: this one's); a failure raises with its stderr."""
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@cache
def reference_text(name: str) -> str:
    """The decompressed text of reference set ``name`` (e.g. ``"top1465.txt"``),
    checked against its SHA-256; a missing or damaged file fails the calling test."""
    path = REFERENCE / f"{name}.xz"
    try:
        data = lzma.decompress(path.read_bytes())
    except (OSError, lzma.LZMAError) as exc:
        pytest.fail(f"reference data {path} cannot be read: {exc}")
    want = _sums().get(name)
    if want is None or hashlib.sha256(data).hexdigest() != want:
        pytest.fail(f"reference data {path} is damaged: its SHA-256 is not the one in SHA256SUMS")
    return data.decode("utf-8")


@cache
def _puzzles(name: str) -> tuple[str, ...]:
    lines = (s.strip() for s in reference_text(name).splitlines())
    return tuple(s.split()[0] for s in lines if s and not s.startswith("#"))


def sample_lines(name: str, limit: int | None = None) -> list[str]:
    """The first puzzles of a reference set (:data:`SAMPLE_SIZE` unless ``limit``)."""
    return load_lines(name, SAMPLE_SIZE if limit is None else limit)


def load_lines(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Puzzle lines of a reference set (comments and blanks skipped).

    ``step`` takes every step-th puzzle, to spread a sample over the whole file;
    ``limit`` caps how many are returned.
    """
    return list(_puzzles(name)[::step][:limit])


def load_table(name: str) -> list[dict[str, str]]:
    """The rows of a tab-separated reference table (the SE calibration files) as dicts."""
    return list(csv.DictReader(reference_text(name).splitlines(), delimiter="\t"))


@pytest.fixture(scope="session")
def built_kernels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the 9x9 kernels built ahead of time from the current sources.

    The one ``scripts/setup.sh`` built when there is one; else built here (5-10 s).
    Building needs a C compiler: without one the tests that need it fail in CI
    and are skipped elsewhere, with the reason.
    """
    from csp_sudoku._kernels import ahead

    if ahead.built_path().is_file() and ahead.damage(ahead.built_path()) is None:
        return ahead.built_path().parent
    folder = tmp_path_factory.mktemp("ahead")
    try:
        ahead.build(folder)
    except Exception as err:  # no C compiler, a numba without pycc
        message = f"the kernels could not be built ahead of time: {type(err).__name__}: {err}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return folder


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """The processes a test starts (append each ``Popen``, started in a session of its
    own): every process of their sessions is killed at its end."""
    runs: list[subprocess.Popen[str]] = []
    yield runs
    for proc in runs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()


def rows_as_written(
    args: list[str], lines: list[str], started: list[subprocess.Popen[str]], wait: float = 60
) -> tuple[list[str], int, str]:
    """``csp-sudoku ARGS`` fed by a writer that sends each line only once the row of the
    line before has come: the rows, the exit code and what came after the last row.

    A command that holds a row back until its next input line fails the test
    (after ``wait`` seconds) rather than hanging it.
    """
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started.append(proc)
    assert proc.stdin is not None and proc.stdout is not None
    rows = []
    for k, line in enumerate(lines, 1):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], wait)
        assert ready, f"{' '.join(args)}: no row for line {k} while the writer waits"
        rows.append(proc.stdout.readline())
    proc.stdin.close()
    code = proc.wait(timeout=wait)
    rest = proc.stdout.read()
    proc.stdout.close()
    return rows, code, rest
