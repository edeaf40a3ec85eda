"""Batch commands on several processes, fed by a pipe whose writer is quiet.

``generate ... | rate --jobs 2 -``: a row done while the writer is quiet comes out
then, not when the writer sends its next line (with a slow generator, minutes
later). Each test's writer waits for the row of every line before it sends the
next; a row held back fails the test after a minute rather than hanging it.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku.core.io import input_waits, read_puzzles
from tests.conftest import load_lines, rows_as_written

COMMANDS = {
    "rate": ["-m", "rounds"],
    "check": [],
    "solve": [],
    "count": [],
    "minimize": [],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_row_comes_while_the_writer_waits(command: str, started: list[Any]) -> None:
    lines = load_lines("top1465.txt", limit=3)
    args = [command, "-", "-q", "--jobs", "2", *COMMANDS[command]]
    rows, code, rest = rows_as_written(args, lines, started)
    assert code == 0 and rest == ""
    if command in ("rate", "check", "count"):  # rows that name their line
        assert [r.split("\t")[0] for r in rows] == ["<stdin>:1", "<stdin>:2", "<stdin>:3"]


def _piped(data: bytes) -> list[tuple[int, str]]:
    """The lines of ``data`` read by the puzzle reader from a pipe, written in pieces."""
    r, w = os.pipe()

    def writer() -> None:
        with os.fdopen(w, "wb") as out:
            for k in range(0, len(data), 7):  # pieces that cut lines, and \r\n pairs
                out.write(data[k : k + 7])
                out.flush()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        return [(e.line, e.text) for e in read_puzzles(f"/dev/fd/{r}")]
    finally:
        os.close(r)
        thread.join()


@settings(max_examples=40, deadline=None)
@given(
    lines=st.lists(
        st.tuples(
            st.text(alphabet="123456789.# x\u00e9", max_size=12),
            st.sampled_from(["\n", "\r\n", "\r"]),
        ),
        max_size=6,
    ),
    bom=st.booleans(),
)
def test_a_pipe_reads_as_the_same_bytes_from_a_file(
    lines: list[tuple[str, str]], bom: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A named pipe's lines (read as they come, to know when none is there) are those of
    a file of the same bytes: line ends, a BOM, a last line without its end."""
    data = (b"\xef\xbb\xbf" if bom else b"") + "".join(a + b for a, b in lines).encode()
    path = tmp_path_factory.mktemp("pipe") / "same.txt"
    path.write_bytes(data)
    assert _piped(data) == [(e.line, e.text) for e in read_puzzles(str(path))]


def test_input_waits_only_while_a_pipe_has_no_line() -> None:
    r, w = os.pipe()
    out = os.fdopen(w, "wb")
    out.write(b"1" * 16 + b"\n" + b"2" * 16 + b"\n")
    out.flush()
    entries = read_puzzles(f"/dev/fd/{r}")
    assert not input_waits()  # nothing is being read yet
    first = next(entries)
    assert first.line == 1 and not input_waits()  # the second line is there
    assert next(entries).line == 2 and input_waits()  # the writer is quiet
    out.write(b"3" * 16 + b"\n")
    out.flush()
    assert not input_waits()
    out.close()
    assert [e.line for e in entries] == [3]
    assert not input_waits()  # the reader is done
