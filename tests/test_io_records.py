"""Reading what the commands write: JSON Lines, CSV and text result rows, round trips.

Property tests: puzzles written in any mix of the formats (a line, a grid, a
JSON Lines record, a CSV block, a ``check`` text row), with random extra
fields, read back as the same puzzles, in order, with the same fields.
"""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku.cli._common import RowWriter
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import format_grid, format_line, read_puzzles
from csp_sudoku.core.puzzle import Puzzle

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    n = draw(st.sampled_from([4, 9, 16]))
    cells = draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    return Puzzle(np.array(cells), Geometry.standard(n))


#: Printable text without line ends, U+FFFD (read as "not UTF-8") or a leading
#: bracket (a CSV cell starting with one is read as JSON).
cell_text = st.text(
    st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\ufffd\u2028\u2029"),
    max_size=12,
).filter(lambda t: t[:1] not in ("{", "[") and t == t.strip() and "\x85" not in t)
keys = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(
    # "geometry" and "regions" are read: they name the puzzle's shape (tested below)
    lambda k: k not in ("puzzle", "file", "line", "geometry", "regions")
)
json_values = st.one_of(
    st.integers(-(10**12), 10**12),
    st.booleans(),
    st.none(),
    cell_text,
    st.dictionaries(keys, st.integers(0, 99), max_size=2),
)
csv_values = st.one_of(cell_text, st.dictionaries(keys, st.integers(0, 99), max_size=2))
FORMATS = ("line", "grid", "jsonl", "csv", "row")


@st.composite
def items(draw: st.DrawFn) -> tuple[Puzzle, str, dict[str, Any]]:
    p = draw(puzzles())
    fmt = draw(st.sampled_from(FORMATS))
    values = json_values if fmt == "jsonl" else csv_values
    fields = draw(st.dictionaries(keys, values, max_size=3)) if fmt in ("jsonl", "csv") else {}
    return p, fmt, fields


def _write(stream: list[tuple[Puzzle, str, dict[str, Any]]]) -> str:
    """The stream as the commands write it: each run of CSV items one CSV block."""
    out = io.StringIO()
    k = 0
    while k < len(stream):
        p, fmt, fields = stream[k]
        if fmt == "csv":
            block = [stream[k]]
            while (
                k + 1 < len(stream)
                and stream[k + 1][1] == "csv"
                and stream[k + 1][2].keys() == fields.keys()
            ):
                k += 1
                block.append(stream[k])
            w = RowWriter("csv", ("file", "line", "puzzle"), out)
            for i, (q, _, f) in enumerate(block):
                w.write({"file": "x.txt", "line": i + 1, "puzzle": format_line(q)}, "", f)
        elif fmt == "jsonl":
            w = RowWriter("jsonl", ("file", "line", "puzzle"), out)
            w.write({"file": "x.txt", "line": 1, "puzzle": format_line(p)}, "", fields)
        elif fmt == "row":
            out.write(f"x.txt:{k + 1}\tunique\t{format_line(p)}  # a comment\n")
        elif fmt == "grid":
            out.write(format_grid(p) + "\n\n")
        else:
            out.write(format_line(p) + "\n")
        k += 1
    return out.getvalue()


@settings(max_examples=150, deadline=None)
@given(st.lists(items(), min_size=1, max_size=6))
def test_any_mix_of_formats_reads_back(stream: list[tuple[Puzzle, str, dict[str, Any]]]) -> None:
    text = _write(stream)
    got = list(read_puzzles(io.StringIO(text), source_name="s"))
    assert [e.error for e in got] == [None] * len(stream), text
    for e, (p, fmt, fields) in zip(got, stream, strict=True):
        assert e.puzzle is not None
        assert np.array_equal(e.puzzle.cells, p.cells) and e.puzzle.geometry == p.geometry
        for k, v in fields.items():
            assert e.fields[k] == v, (fmt, k)
        if fmt in ("jsonl", "csv"):
            assert e.fields["file"] == "x.txt"


@settings(max_examples=100, deadline=None)
@given(puzzles(), st.dictionaries(keys, json_values, max_size=4))
def test_jsonl_record_round_trip(p: Puzzle, fields: dict[str, Any]) -> None:
    line = json.dumps({"puzzle": format_line(p), **fields})
    (e,) = read_puzzles(io.StringIO(line + "\n"), p.geometry)
    assert e.puzzle == p and e.fields == fields


def test_bad_records_name_line_and_column() -> None:
    text = "\n".join(
        [
            '{"puzzle": "' + LINE[:-1] + 'x", "seed": 1}',
            "{not json",
            '{"seed": 3}',
            "file,line,puzzle",
            f"a,1,{LINE[:40]}?{LINE[41:]}",
            f"a,2,{LINE}",
            "a,3",
        ]
    )
    got = list(read_puzzles(io.StringIO(text), source_name="s"))
    described = [e.error.describe() if e.error else None for e in got]
    assert described[0] is not None and described[0].startswith("s:1:93: unknown character 'x'")
    assert described[1] is not None and described[1].startswith("s:2:2: not a JSON object")
    assert described[2] == "s:3:1: no 'puzzle' field"
    assert described[3] is not None and described[3].startswith("s:5:45: unknown character '?'")
    assert described[4] is None and got[4].fields == {"file": "a", "line": "2"}
    assert described[5] == "s:7:1: CSV row has 2 fields, the header 3"
    assert got[0].fields == {"seed": 1}


def test_a_csv_file_without_a_puzzle_column_is_refused(tmp_path: Any) -> None:
    f = tmp_path / "p.csv"
    f.write_text(f"name,grid\na,{LINE}\n", encoding="utf-8")
    (first, *_) = read_puzzles(str(f))
    assert first.error is not None and "needs a header line naming a 'puzzle' column" in str(
        first.error
    )


def test_a_huge_csv_field_is_a_bad_line_not_a_crash() -> None:
    text = "file,line,puzzle\n" + "a,1," + "1" * 200_000 + f"\na,2,{LINE}\n"
    first, second = read_puzzles(io.StringIO(text), source_name="s")
    assert first.error is not None and "s:2:1: a CSV field longer than" in str(first.error)
    assert second.puzzle is not None


#: Every kind of shape a record can name: standard, X, Windoku and a jigsaw
#: (two cells of neighbouring boxes swapped; it has full grids).
_JIGSAW = Geometry.jigsaw(
    [
        [0, 0, 0, 1, 1, 1, 2, 2, 2],
        [0, 0, 0, 1, 1, 1, 2, 2, 2],
        [0, 0, 0, 1, 1, 1, 2, 2, 2],
        [3, 3, 3, 4, 4, 4, 5, 5, 5],
        [3, 3, 7, 4, 4, 4, 5, 5, 5],
        [3, 3, 3, 4, 4, 4, 5, 5, 5],
        [6, 6, 6, 7, 7, 7, 8, 8, 8],
        [6, 6, 6, 7, 7, 3, 8, 8, 8],
        [6, 6, 6, 7, 7, 7, 8, 8, 8],
    ]
)
SHAPES = (
    Geometry.standard(4),
    Geometry.standard(9),
    Geometry.x_sudoku(9),
    Geometry.windoku(),
    _JIGSAW,
)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHAPES), st.data(), st.sampled_from(["jsonl", "csv"]))
def test_a_record_naming_its_geometry_is_read_in_it(
    geometry: Geometry, data: st.DataObject, fmt: str
) -> None:
    """A record with ``geometry`` (and a jigsaw's ``regions``), as ``generate`` and
    ``bank query`` write them, is read as a puzzle of that shape with no option
    given, and with the options naming the same shape."""
    n = geometry.size
    cells = data.draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    p = Puzzle(np.array(cells), geometry)
    rec = {"puzzle": p.to_line(), "geometry": geometry.name, "seed": 3}
    if geometry.regions_text is not None:
        rec["regions"] = geometry.regions_text
    out = io.StringIO()
    writer = RowWriter(fmt, ("puzzle", "geometry", "regions", "seed"), out)
    writer.write(rec, p.to_line())
    for given_shape in (None, geometry):
        (entry,) = read_puzzles(io.StringIO(out.getvalue()), given_shape, source_name="r")
        assert entry.error is None and entry.puzzle is not None
        assert entry.puzzle.geometry == geometry and entry.puzzle == p


@pytest.mark.parametrize(
    ("fields", "given", "why"),
    [
        ({"geometry": "x-9x9"}, Geometry.standard(9), "names geometry x-9x9, but the options"),
        ({"geometry": "hexoku"}, None, "unknown geometry 'hexoku'"),
        ({"geometry": "jigsaw-9x9"}, None, "needs its 81 region labels"),
        ({"geometry": "9x9", "regions": "0" * 81}, None, "has no regions"),
        ({"geometry": 9}, None, "must be strings"),
        (
            {"geometry": "jigsaw-9x9", "regions": _JIGSAW.regions_text},
            Geometry.jigsaw([(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]),
            "jigsaw regions are not those of the --jigsaw file",
        ),
    ],
)
def test_a_record_whose_geometry_cannot_be_read_is_a_bad_line(
    fields: dict[str, Any], given: Geometry | None, why: str
) -> None:
    """Named, not guessed: a shape that is unknown, incomplete or not the one the
    options ask for makes the line bad (file and line, and why), and the lines
    around it are still read."""
    text = "\n".join([LINE, json.dumps({"puzzle": LINE, **fields}), LINE]) + "\n"
    first, bad, last = read_puzzles(io.StringIO(text), given, source_name="s")
    assert first.puzzle is not None and last.puzzle is not None
    assert bad.puzzle is None and bad.error is not None
    assert str(bad.error).startswith("s:2:") and why in str(bad.error), str(bad.error)


def test_an_fpuzzles_object_among_plain_lines_is_named_a_variant_puzzle() -> None:
    """An f-puzzles object met by the plain reader (``rate -m rounds -`` of plain lines
    and then variant ones, where the first line routed the run) has no ``puzzle``
    field: "no 'puzzle' field" sent the user looking for a missing column."""
    fpuzzles = json.dumps({"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]})
    got = list(read_puzzles(io.StringIO(f"{LINE}\n{fpuzzles}\n"), source_name="s"))
    assert got[0].error is None
    assert got[1].error is not None
    assert got[1].error.describe() == (
        "s:2:1: a variant puzzle (an f-puzzles object), not a plain one"
    )
