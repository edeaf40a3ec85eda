"""``check``'s compiled chunk step gives, byte for byte, what the general path gives.

A chunk of bare puzzle lines is read by one compiled pass over its bytes
(:func:`csp_sudoku._kernels.rows.plain_cells`), counted, and its text rows
written by one compiled call (:func:`csp_sudoku._kernels.rows.text_rows`)
where numba is loaded (or the same kernels built ahead of time,
:mod:`csp_sudoku._kernels.ahead`); every other chunk goes the general way (entries,
:class:`~csp_sudoku.tools.batch.Verdicts`, Python formatting). Random mixes
of good and bad lines, cut into chunks of random sizes, must give the same
output and the same messages either way; each kernel must compile once.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import csp_sudoku.cli.check as check_cli
from csp_sudoku._kernels import ahead, rows
from csp_sudoku.cli import main
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import digit_of, numpy_cells
from csp_sudoku.tools.batch import CountedLines, Verdicts, _compiled_cells, count_chunk
from tests.conftest import load_lines

UNIQUE = load_lines("17_clue.txt", limit=6)
MULTI = load_lines("multi_solution_serg.txt", limit=3)
#: Lines of every kind the command meets: puzzles (unique, several solutions,
#: none, other sizes), bad lines, comments, blanks, grid rows and separators.
LINES = [
    *UNIQUE,
    *MULTI,
    "11" + "." * 79,  # two clues clash: no solution, with its reason
    "." * 81,
    "1.3." + "." * 12,  # 4x4
    "." * 255 + "G",  # 16x16
    "x" * 81,
    UNIQUE[0][:-1],
    UNIQUE[0] + "1",
    "",
    "   ",
    "# a comment",
    "1 2 | 3 4",
    "------+------+------",
    "\u00e9" * 81,
    '{"puzzle": "' + UNIQUE[1] + '"}',
]


def _built(folder: Path) -> ahead.Kernels9:
    """The kernels built ahead of time in ``folder`` (loaded once)."""
    if not _BUILT:
        _BUILT.append(ahead.load(folder / ahead.built_path().name))
    return _BUILT[0]


_BUILT: list[ahead.Kernels9] = []


def _as_lists(*args: Any, **options: Any) -> Verdicts:
    """:func:`count_chunk`, its verdicts always as lists: the general way of formatting."""
    done = count_chunk(*args, **options)
    return done.verdicts() if isinstance(done, CountedLines) else done


def _run(argv: list[str], *, general: bool, output: Path | None) -> tuple[Any, ...]:
    """Exit code, output and stderr (without the closing timing line) of ``main(argv)``.

    ``general``: every chunk goes the general way (entries, lists, Python
    rows). ``output``: the rows go to this file (``-o``, where the compiled
    rows are written as bytes, between text rows of other chunks), else to stdout.
    """
    if output is not None:
        argv = [*argv, "-o", str(output)]
    out, err = io.StringIO(), io.StringIO()
    patch = (
        mock.patch.object(check_cli, "count_chunk", _as_lists)
        if general
        else contextlib.nullcontext()
    )
    with patch, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    written = out.getvalue() if output is None else output.read_bytes()
    return code, written, err.getvalue().splitlines()[:-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    picks=st.lists(st.integers(0, len(LINES) - 1), min_size=1, max_size=40),
    plain_runs=st.integers(0, 3),
    crlf=st.booleans(),
    final_end=st.booleans(),
    chunk=st.integers(1, 9),
    limit=st.sampled_from(["2", "3", "5"]),
    skip_invalid=st.booleans(),
    to_file=st.booleans(),
)
def test_fast_chunks_match_the_general_path(
    tmp_path_factory: Any,
    picks: list[int],
    plain_runs: int,
    crlf: bool,
    final_end: bool,
    chunk: int,
    limit: str,
    skip_invalid: bool,
    to_file: bool,
) -> None:
    lines = [LINES[i] for i in picks]
    for k in range(plain_runs):  # runs of bare 9x9 lines, so that whole chunks take the fast path
        lines[k * len(lines) // 4 : k * len(lines) // 4] = (UNIQUE + MULTI)[k : k + chunk + 2]
    end = "\r\n" if crlf else "\n"
    path = Path(tmp_path_factory.mktemp("in")) / "in é.txt"
    path.write_bytes((end.join(lines) + (end if final_end else "")).encode())
    argv = ["check", str(path), "--chunk-size", str(chunk), "--limit", limit]
    argv += ["--skip-invalid"] if skip_invalid else []
    outputs = [path.with_name(f"out{k}.txt") if to_file else None for k in range(2)]
    assert _run(argv, general=False, output=outputs[0]) == _run(
        argv, general=True, output=outputs[1]
    )


#: Each byte's cell value as the reader maps it (255: no symbol).
VALUES = np.array(
    [255 if b > 127 or digit_of(chr(b)) is None else digit_of(chr(b)) for b in range(256)], np.uint8
)
#: Bytes of a line of puzzle symbols, and bytes that are none (or of a bigger grid).
_SYMBOLS = b".0-*_123456789"
_OTHERS = b"ABCDEFGxz \t#\r\n\x00\xc3\xff"


@settings(max_examples=150, deadline=None)
@given(
    size=st.sampled_from([4, 9, 16]),
    n=st.integers(1, 12),
    crlf=st.booleans(),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(_OTHERS)), max_size=3),
    data=st.data(),
)
def test_compiled_reader_answers_as_numpy(
    built_kernels: Path,
    size: int,
    n: int,
    crlf: bool,
    flips: list[tuple[int, int]],
    data: st.DataObject,
) -> None:
    ncells = size * size
    alphabet = _SYMBOLS + (b"ABCDEFG" if size == 16 else b"")
    end = b"\r\n" if crlf else b"\n"
    body = data.draw(st.binary(min_size=n * ncells, max_size=n * ncells))
    text = bytearray(
        b"".join(
            bytes(alphabet[b % len(alphabet)] for b in body[i * ncells : (i + 1) * ncells]) + end
            for i in range(n)
        )
    )
    for where, byte in flips:  # a stray byte: no symbol, or a line end out of place
        text[where % len(text)] = byte
    grid = np.frombuffer(bytes(text), np.uint8).reshape(n, -1)
    expected = numpy_cells(grid, ncells, crlf, size, VALUES)
    for kernels in (rows, _built(built_kernels)):  # numba's, then the one built ahead of time
        with mock.patch.object(ahead, "row_kernels", return_value=kernels):
            got = _compiled_cells(grid, ncells, crlf, size, VALUES)
        if expected is None:
            assert got is None
        else:
            assert got is not None and got.dtype == np.int8 and np.array_equal(got, expected)
    assert len(rows.plain_cells.signatures) == 1


@settings(max_examples=100, deadline=None)
@given(
    size=st.sampled_from([4, 9, 16, 25]),
    n=st.integers(1, 30),
    first_line=st.sampled_from([1, 7, 95, 999_990, 10**12 - 3]),
    limit=st.sampled_from([1, 2, 3, 1000]),
    source=st.sampled_from(["a.txt", "<stdin>", "d\u00e9j\u00e0/\u4e2d.txt", "x\udcff.txt"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_compiled_rows_are_the_python_rows(
    built_kernels: Path, size: int, n: int, first_line: int, limit: int, source: str, seed: int
) -> None:
    """numba's kernel and the one built ahead of time write the rows Python writes."""
    geometry = Geometry.standard(size)
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, size + 1, (n, size * size)).astype(np.int8)
    counts = rng.integers(0, limit + 1, n).astype(np.int64)
    lines = CountedLines(source, first_line, cells, geometry, counts)
    job = check_cli._Job(None, limit, "auto", "text", False)
    python = check_cli._text_rows(lines, job, kernels=None)
    assert isinstance(python, str)
    for kernels in (rows, _built(built_kernels)):
        compiled = check_cli._text_rows(lines, job, kernels=kernels)
        assert isinstance(compiled, bytes) == source.isprintable()  # a lone surrogate: Python's
        assert (compiled.decode() if isinstance(compiled, bytes) else compiled) == python
    assert len(python.splitlines()) == n
    assert len(rows.text_rows.signatures) == 1


def test_workers_forked_after_the_kernels_are_loaded_answer_the_same(tmp_path: Path) -> None:
    """``--jobs 2`` on a forking platform loads the kernels before its workers start: same output."""
    lines = [*load_lines("17_clue.txt", limit=150, step=7), *MULTI, "11" + "." * 79, "x"] * 3
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    loads: list[Any] = []
    real = check_cli._preload

    def counted(job: Any) -> None:
        loads.append(job)
        real(job)

    for extra in ([], ["--limit", "3"], ["--format", "jsonl"]):
        argv = ["check", str(path), "--chunk-size", "100", *extra]
        with mock.patch.object(check_cli, "_preload", counted):
            two = _run([*argv, "--jobs", "2"], general=False, output=None)
        assert two == _run(argv, general=False, output=None)
    assert len(loads) == (3 if check_cli._forks() else 0)
