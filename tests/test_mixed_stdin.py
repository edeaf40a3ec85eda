"""Standard input that mixes plain and variant puzzles: each entry by its own path.

Standard input is not read ahead (its rows come out as its entries come in),
so a run whose first entry is a plain puzzle may meet variant entries later:
an f-puzzles object on its line, a row with an ``fpuzzles`` field, a
``?load=`` link. ``check``, ``count``, ``solve`` and ``candidates`` answer
each by its own path, as they answer the same lines read from a file.

Verdicts are held against independent counts: plain 4x4 puzzles by the
backtracking of :mod:`tests.independent`, variant ones by every 4x4 grid
judged by :func:`tests.independent_variants.broken_rules`; neither shares
code with the package.
"""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_sudoku.constraints import from_fpuzzles, link
from tests.conftest import rows_as_written
from tests.independent import check_solution, count_solutions
from tests.independent_variants import broken_rules
from tests.test_variant_rows import GRIDS4, cli, independent_verdict, sample

#: The verdict words by solution count (capped at 2).
WORDS = ("none", "unique", "multiple")


@cache
def variant_pool() -> tuple[dict[str, Any], ...]:
    """A few 4x4 variant puzzles' f-puzzles objects, one of each verdict."""
    return tuple(sample(made, seed) for made, seed in (("unique", 11), ("multiple", 3)))


def plain_line(grid: int, keep: int) -> str:
    """A 4x4 puzzle line: grid ``grid`` of every 4x4 grid, with the cells of bit mask ``keep``."""
    cells = [v for row in GRIDS4[grid] for v in row]
    return "".join(str(v) if keep >> c & 1 else "." for c, v in enumerate(cells))


def variant_line(data: dict[str, Any], form: str) -> str:
    """A variant entry's line: the object, a row with ``fpuzzles``, or a link."""
    if form == "object":
        return json.dumps(data)
    if form == "row":
        return json.dumps({"puzzle": "." * 16, "seed": 5, "fpuzzles": data})
    return link(from_fpuzzles(data))


def plain_verdict(line: str) -> str:
    cells = [0 if ch == "." else int(ch) for ch in line]
    return WORDS[min(count_solutions(cells, limit=2), 2)]


Entry = tuple[str, Any]  # ("plain", line) or ("variant", f-puzzles object)

plain_entries = st.builds(
    lambda g, keep: ("plain", plain_line(g, keep)),
    st.integers(0, len(GRIDS4) - 1),
    st.integers(0, 2**16 - 1),
)
variant_entries = st.builds(
    lambda k, form: ("variant", (k, form)),
    st.integers(0, 1),
    st.sampled_from(["object", "row", "link"]),
)


def text_of(entries: list[Entry]) -> str:
    lines = []
    for kind, value in entries:
        if kind == "plain":
            lines.append(value)
        else:
            k, form = value
            lines.append(variant_line(variant_pool()[k], form))
    return "".join(line + "\n" for line in lines)


def expected(kind: str, value: Any) -> str:
    return (
        plain_verdict(value) if kind == "plain" else independent_verdict(variant_pool()[value[0]])
    )


def same_rows(out: str, fmt: str) -> list[Any]:
    """The rows of an output; CSV rows without an empty ``fpuzzles`` cell (standard
    input's CSV rows have that column whatever comes, a plain file's have not)."""
    if fmt != "csv":
        return out.splitlines()
    rows = list(csv.DictReader(io.StringIO(out)))
    return [{k: v for k, v in r.items() if k != "fpuzzles" or v} for r in rows]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.tuples(plain_entries, st.lists(st.one_of(plain_entries, variant_entries), max_size=6)),
    st.sampled_from(["check", "count", "solve", "candidates"]),
    st.sampled_from(["text", "jsonl", "csv"]),
    st.integers(1, 3),
)
def test_each_entry_of_standard_input_by_its_own_path(
    tmp_path: Path, drawn: tuple[Entry, list[Entry]], command: str, fmt: str, chunk: int
) -> None:
    """The rows of standard input are those of the same lines read from a file,
    and each verdict is the independent one, whatever comes first after a plain entry."""
    first, rest = drawn
    entries = [first, *rest]
    text = text_of(entries)
    path = tmp_path / "in.txt"
    path.write_text(text)
    extra = ["--chunk-size", str(chunk)] if command == "check" else []
    args = [command, "--format", fmt, "-q", *extra]
    code, out, err = cli(*args, "-", stdin=text)
    code_file, out_file, _ = cli(*args, str(path))
    assert "Traceback" not in err
    assert code == code_file
    assert same_rows(out, fmt) == same_rows(out_file.replace(str(path), "<stdin>"), fmt)
    if command != "check":
        return
    if fmt == "text":
        words = [row.split("\t")[1] for row in out.splitlines()]
    elif fmt == "jsonl":
        words = [json.loads(row)["status"] for row in out.splitlines()]
    else:
        rows = list(csv.DictReader(io.StringIO(out)))
        words = [r["status"] for r in rows]
        for r, (kind, _) in zip(rows, entries, strict=True):  # a variant row keeps its puzzle
            assert bool(r["fpuzzles"]) == (kind == "variant")
    assert words == [expected(kind, value) for kind, value in entries]


def test_solutions_and_candidates_of_a_mixed_standard_input() -> None:
    unique = variant_pool()[0]
    assert independent_verdict(unique) == "unique"
    line = plain_line(0, 0b1010_0101_1100_0011)
    assert plain_verdict(line) == "unique"
    text = f"{line}\n{variant_line(unique, 'row')}\n"
    code, out, _ = cli("solve", "-", "--format", "jsonl", "-q", stdin=text)
    plain_row, variant_row = (json.loads(r) for r in out.splitlines())
    assert code == 0 and variant_row["line"] == 2 and variant_row["seed"] == 5
    cells = [0 if ch == "." else int(ch) for ch in line]
    assert check_solution([int(ch) for ch in plain_row["solution"]], cells)
    solution = variant_row["solution"]
    assert (
        broken_rules(unique, [[int(ch) for ch in solution[r * 4 : r * 4 + 4]] for r in range(4)])
        == []
    )
    code, out, _ = cli("candidates", "-", "-q", stdin=text)
    assert code == 0 and [r.split("\t")[0] for r in out.splitlines()] == ["<stdin>:1", "<stdin>:2"]
    assert out.splitlines()[1].split("\t")[1] == " ".join(solution)  # unique: one digit a cell


def test_check_certifies_each_unique_puzzle_of_a_mixed_standard_input(tmp_path: Path) -> None:
    unique = variant_pool()[0]
    line = plain_line(0, 0b1010_0101_1100_0011)
    text = f"{line}\n{variant_line(unique, 'object')}\n{'.' * 16}\n"
    code, out, _ = cli("check", "-", "--certify", str(tmp_path / "certs"), "-q", stdin=text)
    assert code == 1 and [r.split("\t")[1] for r in out.splitlines()] == [
        "unique",
        "unique",
        "multiple",
    ]
    assert sorted(p.name for p in (tmp_path / "certs").glob("*.drat")) == [
        "stdin-1.drat",
        "stdin-2.drat",
    ]


def test_a_slow_writer_gets_each_row_before_it_sends_the_next(
    tmp_path: Path, started: list[Any]
) -> None:
    """``check -`` and ``count -`` from a pipe whose writer waits for each row before
    sending its next line: a variant line after a plain one is answered at once, not
    when the input ends (the run would wait for ever: the test fails after 120 s)."""
    unique = variant_pool()[0]
    lines = [plain_line(0, 0b1010_0101_1100_0011), variant_line(unique, "row"), "." * 16]
    for command, answers in (
        ("check", ["unique", "unique", "multiple"]),
        ("count", ["1", "1", "3+"]),
    ):
        extra = ["--limit", "3"] if command == "count" else []
        args = [command, "-", "-q", "--backend", "sat", *extra]
        rows, code, _ = rows_as_written(args, lines, started, wait=120)
        assert code == (1 if command == "check" else 0)
        assert [row.split("\t")[1].strip() for row in rows] == answers


# ---------------------------------------------------------------- render
SVG = "{http://www.w3.org/2000/svg}"


def group_ids(path: Path) -> set[str]:
    """The ids of an SVG's groups (``p0-frame``, ``p1-v0-cage-0`` ...)."""
    import xml.etree.ElementTree as ET

    return {g.get("id") or "" for g in ET.parse(path).getroot().iter(f"{SVG}g")} - {""}


def test_render_draws_plain_and_variant_puzzles_each_by_its_own_path(tmp_path: Path) -> None:
    """Files, and standard input whose first entry is plain: each puzzle on its own
    grid, the variant one with its constraints' marks, the plain one with none."""
    unique = variant_pool()[0]
    line = plain_line(0, 0b1010_0101_1100_0011)
    (tmp_path / "plain.txt").write_text(line + "\n")
    (tmp_path / "k.json").write_text(json.dumps(unique))
    runs = {
        "files": ([str(tmp_path / "plain.txt"), str(tmp_path / "k.json")], None),
        "stdin": (["-"], f"{line}\n{variant_line(unique, 'row')}\n"),
    }
    for name, (inputs, stdin) in runs.items():
        out = tmp_path / f"{name}.svg"
        code, _, err = cli("render", *inputs, "-o", str(out), "--per-page", "2", stdin=stdin)
        assert code == 0, err
        ids = group_ids(out)
        assert {"p0-frame", "p1-frame"} <= ids
        assert not any(i.startswith("p0-v") for i in ids)  # the plain puzzle: no marks
        assert any(i.startswith("p1-v") for i in ids)  # the variant one: its constraints
    book = tmp_path / "book.pdf"
    inputs = [str(tmp_path / "k.json"), str(tmp_path / "plain.txt"), "." * 16]
    code, out, err = cli("render", *inputs, "-o", str(book), "--solutions")
    assert code == 2 and out.strip() == str(book) and book.read_bytes().startswith(b"%PDF-")
    assert "<argument>:1: the puzzle has more than one solution" in err  # left out, the rest drawn
