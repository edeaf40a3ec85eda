"""Parsing and formatting: every supported form, every kind of bad input."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku import Geometry, ParseError, Puzzle, format_grid, format_line, parse, read_puzzles
from tests.conftest import load_lines

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_one_line_with_every_blank_and_trailing_text() -> None:
    p = parse(LINE)
    assert p.clue_count == 17
    for blank in "0-*_":
        assert parse(LINE.replace(".", blank)) == p
    assert parse("  " + LINE + "\t ED=11.9/11.9/11.3 name") == p


def test_multi_line_grids_with_and_without_separators() -> None:
    p = parse(LINE)
    assert parse(format_grid(p)) == p
    plain = "\n".join(LINE[i : i + 9] for i in range(0, 81, 9))
    assert parse(plain) == p
    spaced = "\n".join(" ".join(LINE[i : i + 9]) for i in range(0, 81, 9))
    assert parse(spaced) == p
    boxed = "+-------+-------+-------+\n" + "\n".join(
        "| " + " | ".join(LINE[i + j : i + j + 3] for j in (0, 3, 6)) + " |"
        for i in range(0, 81, 9)
    )
    assert parse(boxed) == p


def test_big_grids_use_letters_and_numbers() -> None:
    g = Geometry.standard(16)
    cells = np.zeros(256, dtype=np.int8)
    cells[:16] = np.arange(1, 17)
    p = Puzzle(cells, g)
    line = format_line(p)
    assert line.startswith("123456789ABCDEFG")
    assert parse(line) == p
    assert parse(line.lower()) == p
    assert parse(format_grid(p)) == p
    numbers = "\n".join(" ".join(str(v) if v else "." for v in row) for row in p.grid.tolist())
    assert parse(numbers, g) == p


def test_file_with_comments_blank_lines_crlf_and_bom() -> None:
    text = (
        "\ufeff# a comment\r\n\r\n"
        + LINE
        + "\r\n   \r\n# another\r\n"
        + LINE.replace(".", "0")
        + "\r\n"
    )
    entries = list(read_puzzles(io.StringIO(text)))
    assert [e.line for e in entries] == [3, 6]
    assert all(e.puzzle == parse(LINE) for e in entries)


@pytest.mark.parametrize(
    ("line", "column", "reason"),
    [
        (LINE[:-1], 81, "80 cells"),
        (LINE + "1", 83, "82 cells"),
        (LINE[:10] + "x" + LINE[11:], 11, "unknown character 'x'"),
        (LINE[:5] + "A" + LINE[6:], 6, "unknown character 'A' (letters stand for digits 10"),
        (LINE[:5] + "é" + LINE[6:], 6, "unknown character"),
    ],
)
def test_bad_lines_name_line_column_and_reason(line: str, column: int, reason: str) -> None:
    entries = list(
        read_puzzles(io.StringIO(LINE + "\n" + line + "\n" + LINE + "\n"), source_name="f.txt")
    )
    assert [e.puzzle is not None for e in entries] == [True, False, True]
    err = entries[1].error
    assert err is not None
    assert err.line == 2
    assert err.column == column
    assert reason in err.reason
    assert err.describe().startswith(f"f.txt:2:{column}: ")


def test_digit_out_of_range_for_a_small_grid() -> None:
    (e,) = read_puzzles(io.StringIO("1234" + "." * 11 + "5\n"))
    assert e.error is not None
    assert e.error.column == 16
    assert "digit '5' (5) is out of range for a 4x4 grid" in e.error.reason


def test_binary_data_stops_reading_with_a_message() -> None:
    entries = list(read_puzzles(io.StringIO(LINE + "\n\x00\x01\x02binary\n" + LINE + "\n")))
    assert entries[0].puzzle is not None
    assert entries[1].error is not None and "binary" in entries[1].error.reason
    assert len(entries) == 2


def test_incomplete_grid_is_reported() -> None:
    rows = "\n".join(LINE[i : i + 9] for i in range(0, 72, 9))
    entries = list(read_puzzles(io.StringIO(rows + "\n\n" + LINE + "\n")))
    assert entries[0].error is not None and "8 rows, expected 9" in entries[0].error.reason
    assert entries[1].puzzle == parse(LINE)
    # one short line alone reads as a puzzle line of a wrong length as much as a
    # grid's first row: the reason says both ("grid has 1 row" was all it said)
    (entry,) = read_puzzles(io.StringIO("11......\n"))
    assert entry.error is not None
    assert entry.error.reason.startswith("line has 8 cells: a puzzle line has 81 (or one of")
    assert entry.error.reason.endswith("and a grid 8 cells wide has 8 rows")


def test_a_line_of_words_does_not_swallow_the_puzzles_after_it() -> None:
    text = "not a puzzle\n" + "\n".join([LINE] * 10) + "\n"
    entries = list(read_puzzles(io.StringIO(text)))
    assert entries[0].error is not None and entries[0].line == 1
    assert [e.line for e in entries[1:]] == list(range(2, 12))
    assert all(e.puzzle == parse(LINE) for e in entries[1:])


def test_a_grid_cut_short_by_a_puzzle_line_reports_and_goes_on() -> None:
    rows = "\n".join(LINE[i : i + 9] for i in range(0, 36, 9))
    entries = list(read_puzzles(io.StringIO(rows + "\n" + LINE + "\n")))
    assert entries[0].error is not None and "4 rows, expected 9" in entries[0].error.reason
    assert entries[1].puzzle == parse(LINE) and entries[1].line == 5


@pytest.mark.parametrize("spaced", [False, True])
def test_a_bad_cell_in_a_grid_row_is_the_one_error(spaced: bool) -> None:
    """A grid whose row 5 holds an 'x' is one bad entry that names the 'x' (it was
    three: the grid cut short at row 4, row 5 as a line of 9 cells, rows 6-9 as
    another grid cut short), and the puzzle after it reads."""
    rows = [LINE[i : i + 9] for i in range(0, 81, 9)]
    rows[4] = rows[4][:5] + "x" + rows[4][6:]
    if spaced:
        rows = [" ".join(r[:3]) + " | " + " ".join(r[3:6]) + " | " + " ".join(r[6:]) for r in rows]
    entries = list(read_puzzles(io.StringIO("\n".join(rows) + "\n" + LINE + "\n")))
    assert len(entries) == 2 and entries[1].puzzle == parse(LINE) and entries[1].line == 10
    err = entries[0].error
    assert err is not None and entries[0].line == 1 and err.line == 5
    assert err.column == rows[4].index("x") + 1 and "unknown character 'x'" in err.reason


def test_parse_refuses_empty_and_several() -> None:
    with pytest.raises(ParseError, match="no puzzle"):
        parse("# nothing\n\n")
    with pytest.raises(ParseError, match="expected one puzzle"):
        parse(LINE + "\n" + LINE)


def test_reading_is_lazy() -> None:
    def lines():  # type: ignore[no-untyped-def]
        yield LINE + "\n"
        raise RuntimeError("read too far")

    it = read_puzzles(lines())
    assert next(it).puzzle is not None


def test_clashes_are_reportable() -> None:
    p = parse("5" + "." * 5 + "5" + "." * 74)
    (clash,) = p.clashes()
    assert str(clash) == "r1c1 and r1c7 are both 5 (row 1)"
    assert not p.is_consistent()
    assert parse(LINE).clashes() == []


def test_puzzle_is_immutable_and_validated() -> None:
    p = parse(LINE)
    with pytest.raises(ValueError):
        p.cells[0] = 3
    with pytest.raises(ParseError, match=r"outside 0\.\.9"):
        Puzzle([10] + [0] * 80)
    with pytest.raises(ParseError, match="needs 81 cells"):
        Puzzle([0] * 80, Geometry.standard(9))


sizes = st.sampled_from([4, 6, 9, 12, 16, 25])


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    n = draw(sizes)
    cells = draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    return Puzzle(np.array(cells), Geometry.standard(n))


@settings(max_examples=150, deadline=None)
@given(puzzles(), st.sampled_from(".0-*_"))
def test_parse_format_round_trip(p: Puzzle, blank: str) -> None:
    assert parse(format_line(p, blank=blank), p.geometry) == p
    assert parse(format_grid(p), p.geometry) == p


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_arbitrary_text_never_crashes_the_reader(text: str) -> None:
    for e in read_puzzles(io.StringIO(text)):
        assert (e.puzzle is None) != (e.error is None)
        if e.error is not None:
            assert e.error.line is not None


_COMPRESSORS = {"gzip": ".gz", "bz2": ".bz2", "lzma": ".xz"}


def _compress(kind: str, data: bytes) -> bytes:
    import importlib

    out: bytes = importlib.import_module(kind).compress(data)
    return out


@pytest.mark.parametrize("kind", sorted(_COMPRESSORS))
@pytest.mark.parametrize("command", [["check"], ["count"], ["rate", "-m", "rounds"]])
def test_compressed_inputs_read_as_their_text(
    tmp_path: Path, kind: str, command: list[str]
) -> None:
    """A gzip, bzip2 or xz file gives the rows the plain file gives (the name apart)."""
    from tests.helpers import run_cli

    text = "\n".join(load_lines("top1465.txt", limit=60)) + "\nnot a puzzle\n"
    plain = tmp_path / "p.txt"
    plain.write_text(text, encoding="utf-8")
    packed = tmp_path / f"p.txt{_COMPRESSORS[kind]}"
    packed.write_bytes(_compress(kind, text.encode()))
    want = run_cli([*command, str(plain), "-q", "--format", "jsonl"])
    got = run_cli([*command, str(packed), "-q", "--format", "jsonl"])
    assert want[0] == got[0] == 2  # the bad line, in both
    assert want[1].replace(str(plain), "F") == got[1].replace(str(packed), "F")
    assert len(got[1].splitlines()) >= 60  # a row per puzzle (check writes the bad line too)


def test_compressed_standard_input_reads_as_its_text(tmp_path: Path) -> None:
    import subprocess
    import sys

    lines = load_lines("top1465.txt", limit=30)
    data = _compress("gzip", ("\n".join(lines) + "\n").encode())
    done = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "check", "-", "-q"],
        input=data,
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = done.stdout.decode().splitlines()
    assert [r.split("\t")[-1] for r in rows] == [x.split()[0] for x in lines]
    assert all(r.split("\t")[1] == "unique" for r in rows)


@pytest.mark.parametrize("kind", ["gzip", "lzma"])
@pytest.mark.parametrize("command", [["check"], ["check", "--jobs", "2"], ["solve"]])
def test_a_truncated_compressed_file_keeps_the_rows_before_and_says_why(
    tmp_path: Path, command: list[str], kind: str
) -> None:
    """Exit 2 with the file named, after the rows of every whole line before the damage
    (as many as Python's own decompressor gets out of the cut data; 1,257 of 1,882
    came out before, the rest lost with a read that met the damage): never a
    silent end of input, never an internal error."""
    import lzma
    import zlib

    from tests.helpers import run_cli

    lines = load_lines("17_clue.txt", limit=8000)
    packed = _compress(kind, ("\n".join(lines) + "\n").encode())
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    decoder = zlib.decompressobj(31) if kind == "gzip" else lzma.LZMADecompressor()
    whole = decoder.decompress(cut.read_bytes()).count(b"\n")  # the lines there to read
    code, out, err = run_cli([*command, str(cut), "-q"])
    assert code == 2
    assert f"{cut}: the {kind} data is damaged or cut short" in err
    rows = out.splitlines()
    assert 1000 < len(rows) == whole < len(lines)
    puzzles = [r.split("\t")[-1] for r in rows] if command[0] == "check" else None
    if puzzles is not None:  # the lines before the damage, in order, none cut
        assert puzzles == [x.split()[0] for x in lines[: len(rows)]]


def test_read_puzzles_reads_a_compressed_file(tmp_path: Path) -> None:
    from csp_sudoku.core.io import read_puzzles

    lines = load_lines("top1465.txt", limit=10)
    path = tmp_path / "p.txt.xz"
    path.write_bytes(_compress("lzma", ("\n".join(lines) + "\n").encode()))
    got = [e.puzzle.to_line() for e in read_puzzles(path) if e.puzzle is not None]
    assert got == [x.split()[0] for x in lines]


@settings(max_examples=30, deadline=None)
@given(
    picks=st.lists(st.integers(0, 59), max_size=40),
    kind=st.sampled_from(sorted(_COMPRESSORS)),
    crlf=st.booleans(),
    chunk=st.integers(1, 9),
)
def test_compressed_files_read_as_their_text_property(
    picks: list[int], kind: str, crlf: bool, chunk: int
) -> None:
    """Any puzzle text: its compressed file gives the same entries and the same chunks."""
    import tempfile

    from csp_sudoku.core.io import read_chunks

    sample = load_lines("top1465.txt", limit=60)
    data = ("\r\n" if crlf else "\n").join(sample[i] for i in picks).encode()
    with tempfile.TemporaryDirectory() as folder:
        plain, packed = Path(folder) / "p.txt", Path(folder) / "p.txt.z"
        plain.write_bytes(data)
        packed.write_bytes(_compress(kind, data))
        assert [(e.line, e.text) for e in read_puzzles(packed)] == [
            (e.line, e.text) for e in read_puzzles(plain)
        ]
        assert [(c.first_line, c.lines, c.data) for c in read_chunks(packed, chunk)] == [
            (c.first_line, c.lines, c.data) for c in read_chunks(plain, chunk)
        ]


def test_the_one_file_of_a_zip_archive_reads_as_its_text(tmp_path: Path) -> None:
    """A zip archive of one file reads as that file; of several, or from a pipe, it is
    refused with exit 2 and the reason (zip needs to seek, and which file is meant?)."""
    import subprocess
    import sys
    import zipfile

    from tests.helpers import run_cli

    lines = load_lines("top1465.txt", limit=20)
    (tmp_path / "p.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "one.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(tmp_path / "p.txt", "p.txt")
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as z:
        z.write(tmp_path / "p.txt", "p.txt")
        z.write(tmp_path / "p.txt", "q.txt")
    code, out, _ = run_cli(["check", str(tmp_path / "one.zip"), "-q"])
    assert code == 0 and [r.split("\t")[-1] for r in out.splitlines()] == lines
    code, out, err = run_cli(["check", str(tmp_path / "two.zip"), "-q"])
    assert (code, out) == (2, "") and "holds 2 (p.txt, q.txt): unzip the one you mean" in err
    piped = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "check", "-", "-q"],
        input=(tmp_path / "one.zip").read_bytes(),
        capture_output=True,
        timeout=300,
    )
    assert piped.returncode == 2
    assert b"a zip archive cannot be read from a pipe: unzip it first" in piped.stderr


def test_an_open_binary_file_is_read_as_its_text(tmp_path: Path) -> None:
    """``read_puzzles(gzip.open(path))`` or ``open(path, "rb")`` was a TypeError from
    the first line ("a bytes-like object is required"); it reads as the text does,
    and the caller's file stays open."""
    import gzip

    text = "\ufeff# a comment\r\n" + LINE + "\r\n" + "x" * 81 + "\n" + LINE
    path = tmp_path / "p.txt.gz"
    path.write_bytes(gzip.compress(text.encode()))
    want = [(e.line, e.puzzle, e.error is None) for e in read_puzzles(io.StringIO(text))]
    with gzip.open(path) as fh:
        got = [(e.line, e.puzzle, e.error is None) for e in read_puzzles(fh)]
        assert not fh.closed
    assert got == want and [ok for _, _, ok in got] == [True, False, True]
    raw = io.BytesIO(text.encode())
    assert [(e.line, e.puzzle, e.error is None) for e in read_puzzles(raw)] == want


def test_write_puzzles_takes_puzzle_likes_and_names_a_bad_one(tmp_path: Path) -> None:
    """A puzzle text or cell array was an AttributeError ('str' has no 'cells')."""
    from csp_sudoku.core.io import write_puzzles

    p = parse(LINE)
    out = tmp_path / "w.txt"
    assert write_puzzles([LINE, p, p.cells, p.cells.tolist()], out) == 4
    assert out.read_text().splitlines() == [LINE] * 4
    for bad, why in (
        ("12", "puzzles[1]:1:3: line has 2 cells"),
        ([1] * 50, "puzzles[1]: 50 cells"),
    ):
        with pytest.raises(ParseError, match=re.escape(why)):
            write_puzzles([LINE, bad], tmp_path / "bad.txt")  # type: ignore[list-item]
    assert not (tmp_path / "bad.txt").exists()  # whole or not at all


def test_counted_says_one_and_many() -> None:
    from csp_sudoku.core.io import counted

    assert [counted(n, "restart") for n in (0, 1, 2)] == ["0 restarts", "1 restart", "2 restarts"]
    assert [counted(n, "vicinity", "vicinities") for n in (1, 3)] == ["1 vicinity", "3 vicinities"]


def test_a_file_that_cannot_be_opened_is_the_projects_error_naming_it(tmp_path: Path) -> None:
    """read_puzzles raised a bare FileNotFoundError or IsADirectoryError, and
    write_puzzles into a missing folder named the hidden sibling it writes first."""
    from csp_sudoku.core.errors import FileAccessError, SudokuError
    from csp_sudoku.core.io import read_puzzles, write_puzzles

    cases = [
        (tmp_path / "missing.txt", "cannot open for reading: no such file"),
        (tmp_path, "cannot open for reading: is a folder, not a file"),
    ]
    for path, why in cases:
        with pytest.raises(FileAccessError) as info:
            list(read_puzzles(str(path)))
        assert str(info.value) == f"{path}: {why}"
        assert isinstance(info.value, SudokuError) and isinstance(info.value, OSError)
    target = tmp_path / "nowhere" / "out.txt"
    with pytest.raises(FileAccessError) as info:
        write_puzzles(["." * 81], target)
    assert str(info.value) == f"{target}: cannot open for writing: its folder does not exist"
    assert ".partial" not in str(info.value)


@pytest.mark.parametrize("sep", ["", "|", " "])
def test_grid_rows_of_packed_digits_are_rows_of_cells(sep: str) -> None:
    """A row such as 400000805 (or 400|000|805) was read as one or three numbers, so
    a grid written that way was nine bad lines; only tokens of one or two digits
    separated by spaces are numbers (a 16x16 grid's 10 0 3 16)."""
    from csp_sudoku.core.io import read_puzzles

    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    rows = [line[r * 9 : r * 9 + 9].replace(".", "0") for r in range(9)]
    text = "\n".join(sep.join((r[:3], r[3:6], r[6:])) for r in rows) + "\n"
    (entry,) = list(read_puzzles(text.splitlines(keepends=True)))
    assert entry.puzzle is not None and entry.puzzle.to_line() == line
    full = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    (entry,) = list(read_puzzles([full[r * 9 : r * 9 + 9] + "\n" for r in range(9)]))
    assert entry.puzzle is not None and entry.puzzle.to_line() == full


def test_a_file_written_whole_into_a_missing_folder_is_named_by_its_path(tmp_path: Path) -> None:
    """render_puzzle and certify_to into a missing folder raised a raw
    FileNotFoundError naming the hidden sibling (.r.PID.partial.png)."""
    pytest.importorskip("matplotlib")
    from csp_sudoku.core.errors import FileAccessError
    from csp_sudoku.core.io import parse_line
    from csp_sudoku.tools.render import render_puzzle

    target = tmp_path / "nowhere" / "r.png"
    with pytest.raises(FileAccessError) as info:
        render_puzzle(parse_line("." * 81), target)
    assert str(info.value) == f"{target}: cannot open for writing: its folder does not exist"
    assert not (tmp_path / "nowhere").exists()
