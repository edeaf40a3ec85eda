"""Fixes of the command line's pipes, summaries and ``--resume``.

* ``check - --format csv`` writes an ``fpuzzles`` column (empty for a plain
  puzzle); ``rate -`` took such a CSV for variant puzzles by its header alone.
  A row is a variant puzzle only when that field is filled.
* A resumed ``solve`` (``minimize``, ...) forgot the puzzles of the part done
  that were not unique: its exit code was 0 where a whole run's is 1.
* ``count --resume`` took rows counted under another ``--limit`` (and ``solve
  --all``, ``check --limit``, ``rate --runs``/``--param`` likewise).
* ``solve`` and ``count`` of standard input counted a bad line as a puzzle in
  their summary, a file's run did not.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import load_lines
from tests.test_cli_pipes import pipeline
from tests.test_mixed_stdin import group_ids
from tests.test_variant_rows import LINE, cli, sample

#: A 9x9 puzzle with several solutions (LINE less its first clue).
MULTIPLE = "." + LINE[1:]


def _variant_csv(tmp_path: Path) -> str:
    """A CSV row of ``check`` for a unique 4x4 variant puzzle (its ``fpuzzles`` filled)."""
    killer = tmp_path / "killer.json"
    killer.write_text(json.dumps(sample("unique", 11)))
    code, out, _ = cli("check", str(killer), "--format", "csv", "-q")
    assert code == 0
    return out.splitlines()[1]


# ---------------------------------------------------------------- 1. CSV of check, piped
def test_check_csv_of_plain_puzzles_pipes_into_rate(tmp_path: Path) -> None:
    """The header's empty ``fpuzzles`` column made ``rate -`` refuse the plain puzzle."""
    check = ["check", "-", "--format", "csv"]
    rate = ["rate", "-", "--metric", "rounds"]
    (c1, _), (c2, err), (_, out) = pipeline(check, rate, cwd=tmp_path, stdin=f"{LINE}\n".encode())
    assert (c1, c2) == (0, 0), err
    assert out.split("\t")[:2] == ["<stdin>:2", "rounds"]  # line 1 is the header
    code, table, _ = cli(*check, "-q", stdin=f"{LINE}\n")
    assert code == 0 and table.splitlines()[0].endswith(",fpuzzles")
    saved = tmp_path / "checked.csv"
    saved.write_text(table)
    code, out, err = cli("rate", str(saved), "--metric", "rounds")
    assert code == 0 and out.split("\t")[:2] == [f"{saved}:2", "rounds"], err


def test_a_csv_that_mixes_plain_and_variant_rows(tmp_path: Path) -> None:
    """Each row by its own ``fpuzzles`` field: a command that answers both answers
    both; ``rate`` rates one kind a run, and names the line of each other row."""
    plain = cli("check", "-", "--format", "csv", "-q", stdin=f"{LINE}\n")[1].splitlines()
    text = "\n".join([*plain, _variant_csv(tmp_path)]) + "\n"
    code, out, _ = cli("count", "-", "-q", stdin=text)
    assert code == 0 and [r.split("\t")[:2] for r in out.splitlines()] == [
        ["<stdin>:2", "1"],
        ["<stdin>:3", "1"],
    ]
    code, out, err = cli("rate", "-", "--metric", "rounds", stdin=text)
    assert code == 2 and out.startswith("<stdin>:2\trounds\t")
    assert "<stdin>:3:1: a variant puzzle" in err
    mixed = tmp_path / "mixed.csv"
    mixed.write_text(text)
    code, out, err = cli("rate", str(mixed), "--metric", "variant")
    assert code == 2 and out.startswith(f"{mixed}:3\tvariant\t")
    assert f"{mixed}:2: a plain puzzle, not an f-puzzles one" in err


def test_render_draws_a_variant_row_after_a_plain_one_on_standard_input(tmp_path: Path) -> None:
    """A plain first row sends standard input down render's plain path now: the
    variant row after it is still drawn as its variant puzzle."""
    plain = cli("check", "-", "--format", "csv", "-q", stdin=f"{LINE}\n")[1].splitlines()
    text = "\n".join([*plain, _variant_csv(tmp_path)]) + "\n"
    out = tmp_path / "book.svg"
    code, _, err = cli("render", "-", "-o", str(out), "--per-page", "2", stdin=text)
    assert code == 0, err
    ids = group_ids(out)
    assert {"p0-frame", "p1-frame"} <= ids
    assert not any(i.startswith("p0-v") for i in ids) and any(i.startswith("p1-v") for i in ids)


# ---------------------------------------------------------------- 2. resumed exit codes
def _cut_after(out: Path, entries: int, fmt: str) -> None:
    """Keep the header and the rows of the first ``entries`` lines of the input, and
    one row more (the last entry's rows are done again on ``--resume``)."""
    rows = out.read_text().splitlines(keepends=True)
    head = rows[:1] if fmt == "csv" else []
    body = rows[len(head) :]
    out.write_text("".join(head + body[: entries + 1]))


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("stdin", [False, True])
def test_a_resumed_solve_keeps_the_exit_code_of_the_part_done(
    tmp_path: Path, fmt: str, stdin: bool
) -> None:
    """The puzzle with several solutions is in the part done: exit 1 as a whole run."""
    src = tmp_path / "in.txt"
    src.write_text(f"{MULTIPLE}\n{LINE}\n{LINE}\n")
    out = tmp_path / f"out.{fmt}"
    args = ["solve", "-" if stdin else str(src), "--format", fmt, "-o", str(out)]
    feed = src.read_text() if stdin else None
    code, _, _ = cli(*args, "-q", stdin=feed)
    assert code == 1
    whole = out.read_text()
    _cut_after(out, 1, fmt)
    code, _, err = cli(*args, "--resume", stdin=feed)
    assert code == 1 and "3 puzzles (1 from the earlier run), 1 not uniquely solvable" in err
    assert out.read_text() == whole


def test_a_resumed_minimize_says_the_puzzle_that_is_not_unique_again(tmp_path: Path) -> None:
    """``minimize`` writes no row for a puzzle that is not unique: it is done again."""
    src = tmp_path / "in.txt"
    src.write_text(f"{LINE}\n{MULTIPLE}\n{LINE}\n{LINE}\n")
    out = tmp_path / "out.jsonl"
    args = ["minimize", str(src), "--seed", "1", "--format", "jsonl", "-o", str(out)]
    assert cli(*args, "-q")[0] == 1
    whole = out.read_text()  # the rows of lines 1, 3 and 4: 4 is done again, 2 is in the part done
    code, _, err = cli(*args, "--resume")
    assert code == 1 and f"{src}:2: only a unique puzzle" in err
    assert out.read_text() == whole


# ---------------------------------------------------------------- 3. options that change rows
@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_count_resume_refuses_another_limit(tmp_path: Path, fmt: str) -> None:
    src = tmp_path / "in.txt"
    src.write_text(f"{MULTIPLE}\n{LINE}\n{LINE}\n")
    out = tmp_path / f"out.{fmt}"
    args = ["count", str(src), "--format", fmt, "-o", str(out), "-q"]
    assert cli(*args, "--limit", "5")[0] == 0
    _cut_after(out, 1, fmt)
    cut = out.read_bytes()
    code, _, err = cli(*args, "--limit", "6", "--resume")
    assert code == 2 and "the earlier run used --limit 5" in err and "this one --limit 6" in err
    assert out.read_bytes() == cut  # nothing appended, nothing cut
    assert cli(*args, "--limit", "5", "--resume")[0] == 0


@pytest.mark.parametrize(
    ("command", "before", "after", "option"),
    [
        (["solve", "--format", "jsonl"], ["--all", "3"], ["--all", "2"], "--all"),
        (["check"], ["--limit", "3"], ["--limit", "5"], "--limit"),
        (["check", "--format", "csv"], ["--limit", "5"], ["--limit", "3"], "--limit"),
        (["count", "-", "--format", "jsonl"], ["--limit", "9"], ["--limit", "8"], "--limit"),
        (["rate", "-m", "hsolve", "--format", "csv"], ["--runs", "3"], [], "--runs"),
        (["rate", "-m", "hsolve"], ["--param", "max_tier=3"], [], "--param"),
    ],
)
def test_resume_refuses_rows_that_other_options_wrote(
    tmp_path: Path, command: list[str], before: list[str], after: list[str], option: str
) -> None:
    """Resumed whole: the rows of every entry but the last are kept, and judged."""
    src = tmp_path / "in.txt"
    src.write_text(f"{MULTIPLE}\n{LINE}\n{LINE}\n")
    out = tmp_path / "out"
    fmt = "jsonl" if "jsonl" in command else "csv" if "csv" in command else "text"
    feed = src.read_text() if "-" in command else None
    what = command if "-" in command else [command[0], str(src), *command[1:]]
    args = [*what, "--seed", "1", "-o", str(out), "-q"]
    if fmt == "text" and command[0] == "rate":
        args += ["--format", "jsonl"]  # a text row records no parameters
    cli(*args, *before, stdin=feed)
    written = out.read_bytes()
    code, _, err = cli(*args, *after, "--resume", stdin=feed)
    assert code == 2 and "the earlier run" in err and option in err, err
    assert cli(*args, *before, "--resume", stdin=feed)[0] in (0, 1)  # the same options: taken
    assert out.read_bytes() == written


# ---------------------------------------------------------------- 4. the summary of a bad line
@pytest.mark.parametrize("command", ["solve", "count"])
def test_bad_lines_count_alike_in_a_file_and_on_standard_input(
    tmp_path: Path, command: str
) -> None:
    lines = load_lines("top1465.txt", limit=2)
    src = tmp_path / "in.txt"
    src.write_text(f"{lines[0]}\nabc\n{lines[1]}\n")
    code, _, err = cli(command, str(src))
    ending = err.splitlines()[-1]
    assert code == 2 and ending.startswith("2 puzzles, 0 not ") and ending.endswith(", 1 bad")
    code_in, _, err_in = cli(command, "-", stdin=src.read_text())
    assert (code_in, err_in.splitlines()[-1]) == (code, ending)
    assert cli(command, "-", "--skip-invalid", "-q", stdin=src.read_text())[0] == 0
