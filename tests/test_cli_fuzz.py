"""No traceback for any input or option: the CLI entry point driven with random command lines.

Argument lists are built from the real subcommands and their options (read
from the parsers, so a new option is fuzzed without a change here) with
random values: valid ones, negative and huge numbers, garbage text. Inputs are
files, standard input or inline text with random bytes, huge lines, huge
numbers, and JSON Lines / CSV records. Every run must end with exit code 0, 1
or 2, and neither a traceback nor the last-resort "internal error" message
(which :func:`csp_sudoku.cli.main` prints only for bugs).

Options that would start long runs get values that keep each example short
(``generate`` runs 4x4 or 9x9 with a small budget, no ``--scheduler``, one
worker, cheap metrics; ``compile --warm`` is not drawn), so each example
takes milliseconds: ``CI=true`` runs 2,000 examples (about 90 s of one core,
measured with the machine busy), a local run 150 (a few seconds).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main
from tests.helpers import cli_commands

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EXAMPLES = 2000 if os.environ.get("CI") == "true" else 150
#: Options never drawn: a cluster to start, help text, a rebuild of the kernels
#: built ahead of time (5-10 s; ``compile`` with no option only says they are built)
#: and ``compile --warm``, which takes no value and always rates the same puzzle
#: (about 20 s: it reaches SE's nested chains): drawn ~27 times in 2,000 examples,
#: it was most of this test's time, and tests/test_rate_helper.py runs it.
SKIPPED = {"--scheduler", "-h", "--help", "--version", "--force", "--warm"}


COMMANDS = cli_commands()
BIG = "9" * 5000

numbers = st.sampled_from(
    ["0", "1", "2", "3", "-1", "-5", "99999999999999999999", BIG, "1e3", "x", ""]
)
small_valid = st.sampled_from(["0", "1", "2"])
texts = st.text(max_size=30)
garbage = st.one_of(numbers, texts)


def _contents() -> st.SearchStrategy[bytes]:
    """File contents: puzzle text, records, binary noise, huge lines and numbers."""
    lines = st.one_of(
        st.just(LINE),
        st.just(LINE[:-1] + "x"),
        st.just("1" * 5000),
        st.just(" ".join([BIG] * 3)),
        st.just('{"puzzle": "' + LINE + '", "seed": 3, "ratings": {"hsolve": {"score": 1}}}'),
        st.just('{"puzzle": 5}'),
        st.just('{"a": ' + BIG + "}"),
        st.just("[" * 5000),
        st.just("file,line,puzzle,status"),
        st.just(f"a.txt,1,{LINE},unique"),
        st.just(f"p.txt:1\tunique\t{LINE}"),
        st.just("1 2 | 3 4"),
        st.text(max_size=40).map(lambda t: t + "#" if len(t.strip()) in (16, 36, 81) else t),
    )
    text = st.lists(lines, max_size=5).map(lambda ls: "\n".join(ls).encode("utf-8", "replace"))
    return st.one_of(st.just(f"{LINE}\n".encode()), text, st.binary(max_size=200))


def _value(option: str, action: argparse.Action, tmp: Path) -> st.SearchStrategy[str]:
    """Values for one option: valid ones kept cheap, and bad ones."""
    if option in ("--output", "-o", "--certify", "--html", "--svg"):
        return st.sampled_from(
            [str(tmp / f"out{s}") for s in (".txt", ".jsonl", ".csv", ".svg", ".html", "")]
            + [str(tmp), str(tmp / "missing" / "x.txt"), str(tmp / "input.txt")]
        )
    if option in ("--jigsaw", "--vicinity-of"):
        return st.sampled_from([str(tmp / "input.txt"), str(tmp / "nope.txt"), str(tmp)])
    if option in ("--jobs", "-j"):  # one process: starting pools would dominate the run time
        return st.sampled_from(["1", "-1", "1025", "99999999999999999999", BIG, "x"])
    if option in ("--runs", "--count", "-n", "--attempts"):
        return st.one_of(small_valid, st.sampled_from(["-1", "99999999999999999999", BIG, "x"]))
    if option == "--size":
        return st.sampled_from(["4", "9", "7", "0", "-3", BIG, "x"])
    if option in ("--metric", "-m", "--rate"):
        return st.sampled_from(["hsolve", "rounds", "hsolve,rounds", "nope", ",", ""])
    if option in ("--budget-seconds",):
        return st.sampled_from(["0.5", "0", "-1", "nan", "inf", "1e400", "x"])
    if option == "--level":
        return st.sampled_from(["Easy", "easy", "nope", ""])
    if option == "--method":
        return st.sampled_from(["random", "auto", "nope"])
    if action.choices is not None:
        return st.one_of(st.sampled_from([str(c) for c in action.choices]), texts)
    if action.type is not None:
        return st.one_of(small_valid, garbage)
    return st.one_of(texts, st.sampled_from(["auto", "fast", "sat", "a=1", "=", str(tmp)]))


@st.composite
def command_lines(draw: st.DrawFn, tmp: Path) -> list[str]:
    """A random command line of one subcommand."""
    top = draw(st.sampled_from(sorted({w[0] for w in COMMANDS})))  # bank as often as check
    words = draw(st.sampled_from(sorted(w for w in COMMANDS if w[0] == top)))
    parser = COMMANDS[words]
    argv = list(words)
    for action in parser._actions:
        if action.option_strings or action.dest == "help":
            continue
        if action.dest == "bank":
            argv.append(draw(st.sampled_from([str(tmp / "bank.db"), str(tmp / "input.txt")])))
        elif action.dest == "model":
            argv.append(draw(st.sampled_from(["cnf", "minizinc", "exact-cover", "x"])))
        else:
            k = draw(st.integers(0, 2))
            argv.extend(
                draw(
                    st.sampled_from(
                        [str(tmp / "input.txt"), "-", LINE, LINE, str(tmp / "no.txt"), "-x"]
                    )
                )
                for _ in range(k)
            )
    options = [
        (opt, a)
        for a in parser._actions
        for opt in a.option_strings[:1]
        if not SKIPPED.intersection(a.option_strings)
    ]
    for opt, action in draw(st.lists(st.sampled_from(options), max_size=3)) if options else []:
        argv.append(opt)
        if action.nargs != 0:
            argv.append(draw(_value(opt, action, tmp)))
    if words[0] == "generate":  # keep every run short, whatever else was drawn
        argv += ["--budget-seconds", "0.2", "--size", draw(st.sampled_from(["4", "9"]))]
        if "--count" not in argv and "-n" not in argv:
            argv += ["--count", "1"]
    if draw(st.integers(0, 5)) == 0:
        argv.insert(len(words), draw(garbage))  # a stray positional
    return argv


def drive(argv: list[str], stdin: str, cwd: Path | None = None) -> tuple[int, str]:
    """Run the entry point in this process; returns the exit code and stderr.

    With ``cwd``, the command runs there, so a file it makes from a random
    argument (``bank`` creates a database at any path) lands in that folder.
    """
    out, err = io.StringIO(), io.StringIO()
    old_stdin, old_cwd = sys.stdin, os.getcwd()
    sys.stdin = io.StringIO(stdin)
    if cwd is not None:
        os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: usage errors (2)
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
    return code, err.getvalue()


@pytest.fixture(scope="module")
def warm() -> None:
    """Compile the numba kernels once, so no example pays for it."""
    drive(["generate", "--count", "1", "--seed", "1"], "")
    drive(["rate", LINE, "-m", "hsolve,rounds", "--seed", "1"], "")


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), content=_contents())
def test_no_traceback_for_any_command_line(warm: None, data: st.DataObject, content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        (tmp / "input.txt").write_bytes(content)
        argv = data.draw(command_lines(tmp), label="argv")
        code, err = drive(argv, content.decode("utf-8", "replace"), cwd=tmp)
    event(f"{argv[0]} exit {code}")
    assert "Traceback" not in err, err
    assert "internal error" not in err, err
    assert code in (0, 1, 2), (code, err)


@pytest.mark.parametrize("command", ["check", "rate", "count", "solve", "minimize", "generate"])
@pytest.mark.parametrize(
    ("fmt", "content"),
    [("jsonl", "[" * 5000 + "\n"), ("csv", "file,line,puzzle\na,1," + "1" * 200_000 + "\n")],
)
def test_resume_from_a_file_that_is_no_output(
    command: str, fmt: str, content: str, tmp_path: Path
) -> None:
    out = tmp_path / f"out.{fmt}"
    out.write_text(content, encoding="utf-8")
    argv = [command] + ([] if command == "generate" else [LINE])
    code, err = drive([*argv, "--seed", "1", "--format", fmt, "-o", str(out), "--resume"], "")
    assert code == 2, err
    assert "not a row of" in err or "not the output of" in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "HUGE"],
        ["minimize", "HUGE"],
        ["count", "--limit", "99999999999999999999", LINE],
        ["generate", "--seed", "-1"],
        ["minimize", "--seed", "-1", LINE],
        ["rate", "--seed", "-5", LINE],
        ["bank", "add", "\x00", "BANK"],  # found by the fuzz test above
        ["check", "-o", "a\x00b", LINE],
        ["solve", LINE[:-1] + "\x00"],
    ],
)
def test_reported_cases_exit_two_with_a_message(argv: list[str], tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    huge.write_text("1" * 10_000_000 + "\n", encoding="utf-8")
    argv = [str(huge) if a == "HUGE" else a for a in argv]
    argv = [str(tmp_path / "bank.db") if a == "BANK" else a for a in argv]
    code, err = drive(argv, "")
    assert code == 2
    assert "Traceback" not in err and "internal error" not in err
    if str(huge) in argv:  # file:line:column: why
        assert f"{huge}:1:10000001: line has 10000000 cells" in err
    else:
        assert "error" in err
    if "--seed" in argv:
        assert "non-negative" in err
    if any("\x00" in a for a in argv):
        assert "holds a NUL character" in err
