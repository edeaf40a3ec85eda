"""One set of batch flags: every subcommand's parser walked against one table, and docs/cli.md.

The table is :data:`csp_sudoku.cli._common.BATCH_FLAGS` on the commands of
:data:`~csp_sudoku.cli._common.BATCH_COMMANDS`: each has every flag, with the
same short form, action, type, choices and default. A command outside the
table that has one of the flags must give it the same short form and type
(the listed exceptions say why they differ). docs/cli.md must name every
option of every command in that command's section (batch flags in the
batch-flag table, which lists every batch command).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from pathlib import Path

import pytest

from csp_sudoku.cli._common import BATCH_COMMANDS, BATCH_FLAGS
from tests.conftest import load_lines
from tests.helpers import cli_commands

DOC = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
#: Flags of the geometry group, documented once under "Input formats".
GEOMETRY = {"--size", "--variant", "--jigsaw"}
#: A flag outside the batch commands that means something else, and why.
EXCEPTIONS = {
    ("render", "--format"): "the image format: svg, pdf or png",
    ("bank", "query", "--format"): "also takes 'lines', its old name of text",
    ("bank", "add", "--seed"): "the seed recorded with the puzzles",
}


COMMANDS = cli_commands()


def _flags(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Each action by its long option (the first one starting with ``--``)."""
    out: dict[str, argparse.Action] = {}
    for a in parser._actions:
        longs = [o for o in a.option_strings if o.startswith("--")]
        if longs:
            out[longs[0]] = a
    return out


def _signature(a: argparse.Action) -> tuple[object, ...]:
    return (
        tuple(sorted(a.option_strings)),
        type(a).__name__,
        getattr(a.type, "__name__", a.type),
        tuple(a.choices) if a.choices is not None else None,
        a.default,
    )


def test_every_batch_command_exists() -> None:
    assert {(c,) for c in BATCH_COMMANDS} <= set(COMMANDS)


@pytest.mark.parametrize("command", BATCH_COMMANDS)
def test_batch_commands_have_every_flag_with_one_meaning(command: str) -> None:
    reference = _flags(COMMANDS[("check",)])
    flags = _flags(COMMANDS[(command,)])
    for flag in BATCH_FLAGS:
        assert flag in flags, f"{command} lacks {flag}"
        assert _signature(flags[flag]) == _signature(reference[flag]), (command, flag)


@pytest.mark.parametrize("words", sorted(w for w in COMMANDS if w[0] not in BATCH_COMMANDS))
def test_other_commands_give_a_batch_flag_the_same_form(words: tuple[str, ...]) -> None:
    reference = _flags(COMMANDS[("check",)])
    for flag, action in _flags(COMMANDS[words]).items():
        if flag not in BATCH_FLAGS or (*words, flag) in EXCEPTIONS:
            continue
        want = reference[flag]
        assert sorted(action.option_strings) == sorted(want.option_strings), (words, flag)
        assert getattr(action.type, "__name__", None) == getattr(want.type, "__name__", None), (
            words,
            flag,
        )
        if flag == "--format":
            assert set(action.choices or ()) == {"text", "jsonl", "csv"}, words


def _sections() -> dict[str, str]:
    """docs/cli.md cut at its ``##`` headings: ``csp-sudoku WORD`` -> the section text."""
    text = DOC.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for part in re.split(r"\n(?=## )", text):
        m = re.match(r"## `csp-sudoku (\w+)", part)
        heading = part.split("\n", 1)[0]
        key = m.group(1) if m else heading.lstrip("# ").strip()
        out[key] = out.get(key, "") + part
    return out


def _names(text: str, flag: str) -> bool:
    """Whether ``text`` names ``flag`` as a whole word (``--count``, not ``--count-x``)."""
    return re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text) is not None


def test_an_option_of_several_commands_has_one_short_form() -> None:
    """``rate -m se`` but ``generate -m se`` was "unrecognized arguments": a long
    option that several commands take has the same short form on all of them."""
    shorts: dict[str, dict[tuple[str, ...], tuple[str, ...]]] = {}
    for words, parser in COMMANDS.items():
        for long, action in _flags(parser).items():
            short = tuple(sorted(o for o in action.option_strings if not o.startswith("--")))
            shorts.setdefault(long, {})[words] = short
    differ = {long: by for long, by in shorts.items() if len(set(by.values())) > 1}
    assert differ == {}


def test_docs_name_every_option_of_every_command() -> None:
    sections = _sections()
    batch = sections["Batch flags"]
    header = next(line for line in batch.splitlines() if line.startswith("| flag |"))
    for command in BATCH_COMMANDS:
        assert f"| `{command}` |" in header, command
    rows = [line for line in batch.splitlines() if line.startswith("| `--")]
    for flag in BATCH_FLAGS:
        row = next((r for r in rows if r.startswith(f"| `{flag}")), None)
        assert row is not None, f"no row for {flag}"
        assert row.rstrip(" |").endswith(" | ".join(["x"] * len(BATCH_COMMANDS))), flag
    missing = []
    for words, parser in COMMANDS.items():
        section = sections.get(words[0], "")
        for flag, action in _flags(parser).items():
            if action.help == argparse.SUPPRESS or flag in ("--help", "--version"):
                continue
            if flag in GEOMETRY:
                continue
            if words[0] in BATCH_COMMANDS and flag in BATCH_FLAGS:
                continue  # in the batch-flag table
            if not _names(section, flag):
                missing.append(f"{' '.join(words)} {flag}")
    assert not missing, f"docs/cli.md does not name: {', '.join(missing)}"


def test_geometry_options_are_documented_once() -> None:
    formats = _sections()["Input formats"]
    for flag in GEOMETRY:
        assert f"`{flag}" in formats


LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: One short run of each batch command: the same flags give the same behaviour.
RUNS = {
    "check": ["check", LINE],
    "solve": ["solve", LINE],
    "count": ["count", LINE],
    "rate": ["rate", LINE, "--seed", "1"],
    "generate": ["generate", "--count", "2", "--size", "4", "--seed", "1"],
    "minimize": ["minimize", LINE, "--seed", "1"],
}


def test_runs_cover_every_batch_command() -> None:
    assert set(RUNS) == set(BATCH_COMMANDS)


@pytest.mark.parametrize("command", BATCH_COMMANDS)
def test_quiet_leaves_stderr_empty_and_a_terminal_gets_a_progress_bar(
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from csp_sudoku.cli import main

    out = tmp_path / "rows.jsonl"
    argv = [*RUNS[command], "--format", "jsonl", "-o", str(out)]
    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert rows and all("puzzle" in r for r in rows)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(argv) == 0
    assert re.search(r"\[\d\d:\d\d", capsys.readouterr().err)  # tqdm's elapsed time


@pytest.mark.parametrize("command", ["solve", "count", "minimize"])
def test_resume_keeps_done_puzzles_and_redoes_the_last(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from csp_sudoku.cli import main

    src = tmp_path / "in.txt"
    src.write_text(f"{LINE}\nbad line\n{LINE}\n{LINE}\n", encoding="utf-8")
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    args = [*RUNS[command][:1], str(src), "--format", "jsonl", "-q", "--skip-invalid"]
    if command == "minimize":
        args += ["--seed", "1"]
    assert main([*args, "-o", str(full)]) == 0
    lines = full.read_bytes().splitlines(keepends=True)
    assert len(lines) == 3
    part.write_bytes(b"".join(lines[:2]) + lines[2][:30])  # cut in the third row
    assert main([*args, "-o", str(part), "--resume"]) == 0
    assert part.read_bytes() == full.read_bytes()
    other = tmp_path / "other.txt"
    other.write_text(f"{LINE}\n", encoding="utf-8")
    part.write_bytes(b"".join(lines[:3]))
    seeded = ["--seed", "1"] if command == "minimize" else []
    code = main(
        [args[0], str(other), "--format", "jsonl", "-q", "-o", str(part), "--resume", *seeded]
    )
    assert code == 2 and "not this input's output" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_minimize_rows_say_their_seed_and_a_resume_keeps_to_them(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from csp_sudoku.cli import main

    src = tmp_path / "in.txt"
    src.write_text(f"{LINE}\n{LINE}\n", encoding="utf-8")
    out = tmp_path / f"out.{fmt}"
    base = ["minimize", str(src), "--format", fmt, "--symmetry", "rot180", "-o", str(out)]
    assert main(base) == 0  # no --seed: a fresh one, said and written in every row
    said = capsys.readouterr().err
    seed = int(said.split("--seed ")[1].split()[0])
    text = out.read_text(encoding="utf-8")
    rows = (
        [json.loads(x) for x in text.splitlines()]
        if fmt == "jsonl"
        else list(csv.DictReader(io.StringIO(text)))
    )
    assert [(int(r["seed"]), r["symmetry"]) for r in rows] == [(seed, "rot180")] * 2
    again = tmp_path / f"again.{fmt}"
    assert main([*base[:-1], str(again), "--seed", str(seed)]) == 0
    assert again.read_bytes() == out.read_bytes()  # the row's seed makes it again
    for changed, why in (
        (["--seed", str(seed + 1)], f"written with seed '?{seed}'?, this run has {seed + 1}"),
        (["--seed", str(seed), "--symmetry", "none"], "written with symmetry 'rot180'"),
        ([], "--resume needs the --seed of the interrupted run"),
    ):
        assert main([*base, "--resume", *changed]) == 2
        assert re.search(why, capsys.readouterr().err)
    assert main([*base, "--resume", "--seed", str(seed)]) == 0
    assert out.read_bytes() == again.read_bytes()


@pytest.mark.parametrize("command", ["solve", "count", "minimize"])
@pytest.mark.parametrize("backend", ["nope", "sat:nope"])
def test_an_unknown_backend_is_refused_once_before_any_work(
    command: str, backend: str, tmp_path: Path
) -> None:
    """Not as every puzzle's error (12 lines for 12 puzzles, and exit 0 with
    ``--skip-invalid``): one line, exit 2, nothing on stdout."""
    from tests.helpers import run_cli

    src = tmp_path / "in.txt"
    src.write_text("\n".join(load_lines("top1465.txt", limit=3)) + "\n")
    for extra in ([], ["--skip-invalid"]):
        code, out, err = run_cli([command, str(src), "--backend", backend, *extra])
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "unknown" in err and "nope" in err


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_solve_grid_with_rows_of_a_record_format_is_refused(fmt: str) -> None:
    """``--grid`` draws text rows; with ``--format jsonl|csv`` it did nothing, silently."""
    from tests.helpers import run_cli

    line = load_lines("top1465.txt", limit=1)[0]
    code, out, err = run_cli(["solve", line, "--grid", "--format", fmt])
    assert code == 2 and out == "" and "--grid" in err and err.count("\n") == 1
    code, out, _ = run_cli(["solve", line, "--grid", "-q"])
    assert code == 0 and sum(t.isdigit() for t in out.split()) == 81 and "|" in out
