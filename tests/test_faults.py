"""Faults a user meets: an output that names an input, a run interrupted while writing.

No input is ever lost: an output path that names an input (directly, through a link, a
bank included) is refused with exit 2 before anything is opened for writing; a new output
is written beside its target and renamed into place, so an interrupted run leaves a good
file as it was, and ``--resume`` takes up the rows it wrote.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from csp_sudoku.cli._common import PARTIAL, batch_session
from tests.conftest import load_lines
from tests.helpers import run_cli as _run

LINES = load_lines("top1465.txt", limit=20)


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "in.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


COMMANDS = [
    ["check"],
    ["solve"],
    ["count"],
    ["rate", "-m", "rounds"],
    ["minimize"],
    ["explain", "--html"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("via_link", [False, True])
def test_an_output_naming_an_input_is_refused(
    puzzles: Path, command: list[str], via_link: bool
) -> None:
    before = puzzles.read_bytes()
    target = puzzles
    if via_link:
        target = puzzles.with_name("link.txt")
        target.symlink_to(puzzles.name)
    flag = [] if command[-1] == "--html" else ["-o"]
    code, out, err = _run([*command, *flag, str(target), str(puzzles)])
    assert out == ""
    assert code == 2
    assert "names the input" in err and str(puzzles) in err
    assert puzzles.read_bytes() == before


@pytest.mark.parametrize(
    "command",
    [*COMMANDS, ["render"], ["report"], ["generate", "-n", "1", "--seed", "1"]],
    ids=lambda c: c[0],
)
@pytest.mark.parametrize("parent", ["missing", "a file"])
def test_an_output_in_no_folder_is_refused_before_any_work(
    puzzles: Path, tmp_path: Path, command: list[str], parent: str
) -> None:
    """Before, the error came after the work and named a temporary sibling file."""
    folder = tmp_path / "nowhere"
    if parent == "a file":
        folder.write_text("not a folder")
    target = folder / ("out.svg" if command[0] == "render" else "out.html")
    flag = [] if command[-1] == "--html" else ["-o"]
    inputs = [] if command[0] == "generate" else [str(puzzles)]
    code, out, err = _run([*command, *flag, str(target), *inputs])
    assert code == 2 and out == ""
    why = "does not exist" if parent == "missing" else "is a file, not a folder"
    assert f"{target}: {folder} {why}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["in.txt", *(["nowhere"] if parent == "a file" else [])]
    )


@pytest.mark.parametrize(
    "command",
    [*COMMANDS, ["render"], ["report"], ["generate", "-n", "1", "--seed", "1"]],
    ids=lambda c: c[0],
)
def test_an_output_that_is_a_folder_is_refused_before_any_work(
    puzzles: Path, tmp_path: Path, command: list[str]
) -> None:
    """Before, ``check -o /tmp`` did the work, then said "Is a directory"; ``render -o
    /tmp`` said "unknown format ''"."""
    target = tmp_path / "out"
    target.mkdir()
    flag = [] if command[-1] == "--html" else ["-o"]
    inputs = [] if command[0] == "generate" else [str(puzzles)]
    code, out, err = _run([*command, *flag, str(target), *inputs])
    assert code == 2 and out == ""
    assert f"{target} is a folder: name a file to write" in err
    assert list(target.iterdir()) == []


def test_bank_export_over_its_own_bank_is_refused(puzzles: Path, tmp_path: Path) -> None:
    bank = tmp_path / "b.db"
    assert _run(["bank", "add", str(bank), str(puzzles)])[0] == 0
    before = bank.read_bytes()
    code, _, err = _run(["bank", "export", "-o", str(bank), str(bank)])
    assert code == 2 and "names the input" in err
    assert bank.read_bytes() == before


def test_generate_over_its_constraints_file_is_refused(tmp_path: Path) -> None:
    """``generate --constraints FILE -o FILE`` wrote its puzzles over the templates."""
    templates = tmp_path / "t.jsonl"
    lines = (Path(__file__).parents[1] / "examples/data/variants.jsonl").read_text().splitlines()
    templates.write_text("\n".join(lines[:3]) + "\n")
    before = templates.read_bytes()
    args = ["generate", "--constraints", str(templates), "-n", "1", "--seed", "2"]
    code, out, err = _run([*args, "-o", str(templates)])
    assert code == 2 and out == "" and "names the input" in err
    assert templates.read_bytes() == before


@pytest.mark.parametrize("old", ["good\n", None], ids=["over-a-good-file", "new-output"])
def test_an_interrupted_run_leaves_a_good_file_as_it_was(tmp_path: Path, old: str | None) -> None:
    """Over a good file the rows wait in OUTPUT.partial; a new output is written in place."""
    target = tmp_path / "out.txt"
    partial = Path(f"{target}{PARTIAL}")
    if old is not None:
        target.write_text(old, encoding="utf-8")
    with (
        pytest.raises(KeyboardInterrupt),
        batch_session(str(target), appending=False, scheduler=None) as (out, _),
    ):
        assert out is not None
        out.write("half\n")
        raise KeyboardInterrupt
    if old is None:
        assert target.read_text(encoding="utf-8") == "half\n"
        assert not partial.exists()
    else:
        assert target.read_text(encoding="utf-8") == old
        assert partial.read_text(encoding="utf-8") == "half\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_terminated_run_ends_as_an_interrupted_one(tmp_path: Path, jobs: str) -> None:
    """A SIGTERM (``timeout``, a batch scheduler's stop) killed the run on the spot:
    its rows stayed in ``out.txt.partial`` beside a ``.out.txt.lock``. Now it ends as
    a Ctrl-C does: the new output in place, nothing else left, exit 143."""
    import signal
    import subprocess
    import sys
    import time

    target = tmp_path / "out.txt"
    argv = ["generate", "-n", "100000", "--seed", "3", "-o", str(target), "-q", "--jobs", jobs]
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", *argv], stderr=subprocess.PIPE, text=True
    )
    partial = Path(f"{target}{PARTIAL}")
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if partial.exists() and partial.read_text(encoding="utf-8").count("\n") >= 3:
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:  # a run that outlived its SIGTERM fails this test alone, not the next
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143 and err.strip().endswith("csp-sudoku: terminated"), err
    rows = target.read_text(encoding="utf-8").splitlines()
    assert len(rows) >= 3 and all(len(r.split()[0]) == 81 for r in rows)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_finished_run_replaces_the_output(tmp_path: Path, puzzles: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old\n", encoding="utf-8")
    assert _run(["check", str(puzzles), "-o", str(target), "--format", "jsonl", "-q"])[0] == 0
    rows = [json.loads(x) for x in target.read_text(encoding="utf-8").splitlines()]
    assert [r["puzzle"] for r in rows] == LINES
    assert not Path(f"{target}{PARTIAL}").exists()


def test_resume_takes_up_the_rows_of_an_interrupted_run(tmp_path: Path, puzzles: Path) -> None:
    """A run killed while its output stood beside the target (kill -9 leaves it there)."""
    target = tmp_path / "out.jsonl"
    assert _run(["check", str(puzzles), "-o", str(target), "--format", "jsonl", "-q"])[0] == 0
    full = target.read_text(encoding="utf-8")
    rows = full.splitlines(keepends=True)
    target.write_text("stale\n", encoding="utf-8")
    Path(f"{target}{PARTIAL}").write_text("".join(rows[:7]), encoding="utf-8")
    code, _, _ = _run(
        ["check", str(puzzles), "-o", str(target), "--format", "jsonl", "-q", "--resume"]
    )
    assert code == 0
    assert target.read_text(encoding="utf-8") == full
    assert not Path(f"{target}{PARTIAL}").exists()


def test_explain_draws_one_puzzle_or_writes_nothing(puzzles: Path, tmp_path: Path) -> None:
    page = tmp_path / "x.html"
    code, out, err = _run(["explain", str(puzzles), "--html", str(page)])
    assert code == 2 and out == ""
    assert f"holds {len(LINES)} entries: nothing was written" in err
    assert not page.exists()


def test_explain_svg_leaves_no_stale_steps(tmp_path: Path) -> None:
    folder = tmp_path / "svg"
    folder.mkdir()
    (folder / "step-999.svg").write_text("<svg/>", encoding="utf-8")
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, _ = _run(["explain", LINES[0], "--svg", str(folder)])
    assert code == 0
    steps = sorted(p.name for p in folder.glob("step-*.svg"))
    assert "step-999.svg" not in steps
    assert steps == [f"step-{k:0{len(steps[-1]) - 9}d}.svg" for k in range(1, len(steps) + 1)]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["check"], ["solve"], ["rate", "-m", "rounds"]])
def test_a_full_disk_is_a_clear_error(puzzles: Path, command: list[str]) -> None:
    code, _, err = _run([*command, str(puzzles), "-o", "/dev/full", "-q"])
    assert code == 2
    assert "No space left on device: /dev/full" in err
    assert Path("/dev/full").is_char_device()  # written as it is, never renamed over


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_a_clear_error(puzzles: Path) -> None:
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "csp_sudoku", "check", str(puzzles), "-q"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert done.returncode == 2
    assert done.stderr.strip() == "csp-sudoku: error: No space left on device"


KILLED = {
    "check": (["check", "--backend", "sat"], 8000),
    "solve": (["solve", "--backend", "sat"], 8000),
    "rate": (["rate", "-m", "rounds", "--seed", "1"], 1500),
    "generate": (["generate", "-n", "600", "--seed", "1"], 0),
}


@pytest.mark.parametrize("name", sorted(KILLED))
def test_kill_9_then_resume_loses_and_repeats_nothing(tmp_path: Path, name: str) -> None:
    """A run killed mid-write, then resumed: the output equals an uninterrupted run's."""
    import os
    import signal
    import subprocess
    import sys
    import time

    argv, n = KILLED[name]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(load_lines("17_clue.txt", limit=n)) + "\n", encoding="utf-8")
    inputs = [str(source)] if n else []
    base = [sys.executable, "-m", "csp_sudoku", *argv, *inputs, "--format", "jsonl", "-q"]
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    subprocess.run([*base, "-o", str(whole)], check=True, timeout=600)
    proc = subprocess.Popen([*base, "-o", str(cut)])
    partial = Path(f"{cut}{PARTIAL}")
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if partial.exists() and partial.stat().st_size > 2000:
            os.kill(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.05)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    assert not cut.exists()  # nothing half-written stands where the output goes
    done = subprocess.run([*base, "-o", str(cut), "--resume"], timeout=600, check=False)
    assert done.returncode == 0

    def rows(path: Path) -> list[dict[str, object]]:  # timings differ from run to run
        lines = path.read_text(encoding="utf-8").splitlines()
        return [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in lines]

    assert rows(cut) == rows(whole)


def _kill_when(proc: object, path: Path, rows: int) -> bool:
    """SIGKILL ``proc`` once ``path`` holds ``rows`` complete lines (or it ended, or 120 s);
    whether it was killed before it ended."""
    import os
    import signal
    import subprocess
    import time

    assert isinstance(proc, subprocess.Popen)
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= rows:
            os.kill(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.02)
    proc.wait(timeout=60)
    return proc.returncode == -signal.SIGKILL


def test_kill_9_then_resume_an_annealing_run_loses_and_repeats_nothing(tmp_path: Path) -> None:
    """An annealing run (two chains) killed after some rows, then resumed (twice, from
    copies): the rows kept stay, the rest come from new chains, no puzzle twice (up to
    isomorphism), every one unique (independent solver) and on target; a resumed part
    depends on the seed and the rows kept alone (both resumes write the same)."""
    import shutil
    import subprocess
    import sys

    import csp_sudoku as cs
    from csp_sudoku.generators.novelty import canonical_bytes
    from csp_sudoku.generators.target import chain_seed
    from tests.independent import count_solutions

    count, seed = 24, 3
    argv = ["generate", "-n", str(count), "--method", "anneal", "--metric", "se"]
    argv += ["--score-min", "3", "--seed", str(seed), "--jobs", "2", "--format", "jsonl", "-q"]
    base = [sys.executable, "-m", "csp_sudoku", *argv]
    # Rows come some 20 ms apart once the kernels are warm, so a loaded machine can
    # deschedule the watcher past the last row: such a try is run again, at most thrice.
    for attempt in range(3):
        cut = tmp_path / f"cut{attempt}.jsonl"
        proc = subprocess.Popen([*base, "-o", str(cut)])
        if not _kill_when(proc, Path(f"{cut}{PARTIAL}"), 3):
            continue
        assert not cut.exists()
        kept = Path(f"{cut}{PARTIAL}").read_text(encoding="utf-8").splitlines(keepends=True)
        kept = [x for x in kept if x.endswith("\n")]  # the last row may be cut short
        if len(kept) < count:
            break
    else:
        raise AssertionError("every try ended, or was killed only after its last row")
    again = tmp_path / "again.jsonl"
    shutil.copy(Path(f"{cut}{PARTIAL}"), again)
    for out in (cut, again):
        done = subprocess.run([*base, "-o", str(out), "--resume"], timeout=600, check=False)
        assert done.returncode == 0

    def rows(path: Path) -> list[dict[str, object]]:  # timings differ from run to run
        lines = path.read_text(encoding="utf-8").splitlines()
        return [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in lines]

    got = rows(cut)
    assert got == rows(again)
    assert len(got) == count
    assert [json.loads(x)["puzzle"] for x in kept] == [r["puzzle"] for r in got[: len(kept)]]
    puzzles = [cs.parse(str(r["puzzle"])) for r in got]
    assert len({canonical_bytes(p.cells) for p in puzzles}) == count
    resumed = {chain_seed(seed, len(kept), w) for w in range(3)}
    assert all(r["seed"] in resumed for r in got[len(kept) :])
    for p, r in zip(puzzles, got, strict=True):
        assert count_solutions(p.cells, limit=2) == 1
        ratings = r["ratings"]
        assert isinstance(ratings, dict) and ratings["se"]["score"] >= 3


def test_kill_9_then_bank_add_again_loses_and_repeats_nothing(tmp_path: Path) -> None:
    """A ``bank add`` killed mid-way, then run again: every puzzle once, as after one run."""
    import os
    import signal
    import subprocess
    import sys
    import time

    source = tmp_path / "in.txt"
    source.write_text("\n".join(load_lines("17_clue.txt", limit=3000)) + "\n", encoding="utf-8")
    add = [sys.executable, "-m", "csp_sudoku", "bank", "add"]
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    subprocess.run([*add, str(whole), str(source)], check=True, timeout=600, capture_output=True)
    proc = subprocess.Popen([*add, str(cut), str(source)], stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    subprocess.run([*add, str(cut), str(source)], check=True, timeout=600, capture_output=True)

    def lines(db: Path) -> list[str]:
        code, out, _ = _run(["bank", "export", str(db)])
        assert code == 0
        return sorted(out.split())

    assert lines(cut) == lines(whole)
    assert (
        len(lines(whole))
        == len(set(lines(whole)))
        == len(set(load_lines("17_clue.txt", limit=3000)))
    )


# ---- every other output (not a batch of rows) is written beside its target and renamed


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".partial" in p.name)


def test_staged_replaces_on_success_and_keeps_the_old_file_on_failure(tmp_path: Path) -> None:
    from csp_sudoku.core.io import staged

    target = tmp_path / "book.pdf"
    target.write_text("good", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), staged(target) as tmp:
        assert tmp.endswith(".pdf") and Path(tmp).parent == tmp_path
        Path(tmp).write_text("half", encoding="utf-8")
        raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "good"
    assert _leftovers(tmp_path) == []
    with staged(target) as tmp:
        Path(tmp).write_text("new", encoding="utf-8")
        assert target.read_text(encoding="utf-8") == "good"  # nobody sees a half-written file
    assert target.read_text(encoding="utf-8") == "new"
    assert _leftovers(tmp_path) == []
    with staged("/dev/null") as tmp:  # a device is written as it is, never renamed over
        assert tmp == "/dev/null"


def _interrupt_after_writing(*args: object, **_: object) -> None:
    """Stands for a writer: writes part of its output to its file argument, then is stopped."""
    (out,) = [a for a in args if hasattr(a, "write")]
    out.write("half a file\n")  # type: ignore[attr-defined]
    raise KeyboardInterrupt


def _interrupted_run_keeps(argv: list[str], target: Path, old: bytes) -> str:
    """Run ``argv`` (a writer of it patched to stop part-way) and return its stderr.

    The run must end as interrupted (exit 130) with ``target`` still holding
    ``old`` and no partial file left beside it.
    """
    code, _, err = _run(argv)
    assert code == 130
    assert target.read_bytes() == old
    assert _leftovers(target.parent) == []
    return err


def test_an_interrupted_export_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import csp_sudoku.cli.export as export

    target = tmp_path / "model.cnf"
    assert _run(["export", "cnf", LINES[0], "-o", str(target)])[0] == 0
    good = target.read_bytes()
    assert good.startswith(b"c csp_sudoku")
    monkeypatch.setattr(export, "write_dimacs", _interrupt_after_writing)
    err = _interrupted_run_keeps(["export", "cnf", LINES[1], "-o", str(target)], target, good)
    assert "interrupted" in err


def test_an_interrupted_bank_export_leaves_the_old_file(
    tmp_path: Path, puzzles: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import csp_sudoku.cli.bank as bank_cli

    bank, target = tmp_path / "b.db", tmp_path / "out.jsonl"
    export = ["bank", "export", str(bank), "-o", str(target), "--format", "jsonl"]
    assert _run(["bank", "add", str(bank), str(puzzles)])[0] == 0
    assert _run(export)[0] == 0
    good = target.read_bytes()
    assert len(good.splitlines()) == len(LINES)
    monkeypatch.setattr(bank_cli, "_write_entries", _interrupt_after_writing)
    _interrupted_run_keeps(export, target, good)


def _stop_at_the_second_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """A book's PDF writer is stopped (Ctrl-C) as it writes its second page."""
    from matplotlib.backends.backend_pdf import PdfPages

    pages: list[object] = []
    real = PdfPages.savefig

    def second_page_fails(self: PdfPages, *args: object, **kwargs: object) -> None:
        pages.append(args)
        if len(pages) == 2:
            raise KeyboardInterrupt
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(PdfPages, "savefig", second_page_fails)


def _stop_half_way_through_the_image(monkeypatch: pytest.MonkeyPatch) -> None:
    """A report's figure writes half a PNG to the path it is given and is stopped."""
    import csp_sudoku.tools.report as report

    real = report.report_figure

    def interrupted_figure(data: object) -> object:
        fig = real(data)  # type: ignore[arg-type]

        def half(path: object, **_: object) -> None:
            Path(str(path)).write_bytes(b"\x89PNG half")
            raise KeyboardInterrupt

        fig.savefig = half
        return fig

    monkeypatch.setattr(report, "report_figure", interrupted_figure)


@pytest.mark.parametrize(
    ("name", "argv", "stop"),
    [
        ("book.pdf", ["render", "--title", "T", "--solutions"], _stop_at_the_second_page),
        ("r.png", ["report", "-m", "rounds"], _stop_half_way_through_the_image),
    ],
    ids=["book", "report"],
)
def test_an_interrupted_figure_leaves_the_old_file(
    tmp_path: Path,
    puzzles: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    argv: list[str],
    stop: Callable[[pytest.MonkeyPatch], None],
) -> None:
    """A book or report stopped while matplotlib writes it leaves the old file whole."""
    pytest.importorskip("matplotlib")
    target = tmp_path / name
    target.write_bytes(b"an old good file")
    stop(monkeypatch)
    _interrupted_run_keeps([*argv, str(puzzles), "-o", str(target)], target, b"an old good file")


def test_an_interrupted_svg_run_leaves_the_old_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import csp_sudoku.tools.explain_view as view

    folder = tmp_path / "svg"
    assert _run(["explain", LINES[0], "--svg", str(folder)])[0] == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert len(before) > 3
    real, drawn = view.step_svg, []

    def third_fails(*args: object) -> str:
        drawn.append(args)
        if len(drawn) == 3:
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(view, "step_svg", third_fails)
    assert _run(["explain", LINES[1], "--svg", str(folder)])[0] == 130
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_ctrl_c_inside_a_kernel_call_is_an_interruption(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that lands while a compiled kernel hands back its result comes
    out as a SystemError caused by the KeyboardInterrupt (seen on a long
    ``generate --metric se`` run): the CLI says interrupted, exit 130."""
    import csp_sudoku.cli.export as export

    def kernel_returns_with_interrupt(*_: object, **__: object) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ctrl_c:
            raise SystemError("CPUDispatcher returned a result with an exception set") from ctrl_c

    monkeypatch.setattr(export, "write_dimacs", kernel_returns_with_interrupt)
    code, _, err = _run(["export", "cnf", LINES[0]])
    assert code == 130 and "interrupted" in err and "internal error" not in err

    def plain_bug(*_: object, **__: object) -> None:
        raise SystemError("a bug")

    monkeypatch.setattr(export, "write_dimacs", plain_bug)
    code, _, err = _run(["export", "cnf", LINES[0]])
    assert code == 70 and "internal error" in err


@pytest.mark.parametrize("command", [["check"], ["rate", "-m", "rounds"], ["generate", "-n", "2"]])
def test_a_second_run_writing_the_same_output_is_refused(
    puzzles: Path, tmp_path: Path, command: list[str]
) -> None:
    """Two runs on one output truncated and interleaved each other's rows in
    OUTPUT.partial; while one holds the output, the other is refused, and the lock
    goes with the run (its file removed, nothing left to block the next)."""
    import fcntl

    out = tmp_path / "out.txt"
    out.write_text("kept\n", encoding="utf-8")
    lock = tmp_path / ".out.txt.lock"
    inputs = [] if command[0] == "generate" else [str(puzzles)]
    with open(lock, "ab") as held:  # another run, writing out.txt
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        for extra in ([], ["--resume"]):
            code, stdout, err = _run([*command, *inputs, "-o", str(out), "-q", *extra])
            assert (code, stdout) == (2, "")
            assert "another csp-sudoku run is writing it" in err
            assert out.read_text(encoding="utf-8") == "kept\n"
            assert not Path(f"{out}{PARTIAL}").exists()
    code, _, _ = _run([*command, *inputs, "-o", str(out), "-q"])
    assert code == 0 and out.read_text(encoding="utf-8") != "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.txt"]


# --------------------------------------------------------------------------- bad input, said


@pytest.mark.parametrize("text", ["", "# a comment only\n\n"], ids=["empty", "comments"])
def test_explain_of_no_puzzle_says_so(tmp_path: Path, text: str) -> None:
    """``explain`` of an empty file exited 0 and said nothing."""
    src = tmp_path / "empty.txt"
    src.write_text(text, encoding="utf-8")
    code, out, err = _run(["explain", str(src)])
    assert (code, out) == (2, "")
    assert "no puzzles found in the input" in err


EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_explain_goes_on_past_a_bad_line(tmp_path: Path) -> None:
    """``explain`` stopped at the first bad line (exit 2): the puzzles after it were
    never explained. A clashing puzzle was a bad input (exit 2), where every other
    command answers it as one with no solution."""
    src = tmp_path / "a.txt"
    src.write_text(f"{EASY}\n123\n{EASY}\n", encoding="utf-8")
    code, out, err = _run(["explain", str(src)])
    assert code == 2 and f"{src}:2:4: line has 3 cells" in err
    assert out.count("ER 2.6") == 2  # the lines before and after it, both explained
    clash = tmp_path / "clash.txt"
    clash.write_text("11" + "." * 79 + "\n", encoding="utf-8")
    code, out, err = _run(["explain", str(clash)])
    assert (code, out) == (1, "")
    assert f"{clash}:1: the puzzle has no solution (r1c1 and r1c2 are both 1" in err


def test_render_draws_the_puzzles_around_a_bad_line(tmp_path: Path) -> None:
    """``render`` of plain lines wrote nothing when one line was bad (its variant
    path drew the others): now the book holds the good ones, and the bad line is
    said with exit 2."""
    pytest.importorskip("matplotlib")
    pypdf = pytest.importorskip("pypdf")
    src = tmp_path / "a.txt"
    src.write_text(f"{EASY}\n123\n{EASY[::-1]}\n", encoding="utf-8")
    out = tmp_path / "book.pdf"
    code, _, err = _run(["render", str(src), "-o", str(out), "--caption", "No. {n}: {clues}"])
    assert code == 2 and f"{src}:2:4: line has 3 cells" in err
    text = "".join(page.extract_text() for page in pypdf.PdfReader(out).pages)
    assert "No. 1: 17" in text and "No. 2: 17" in text and "No. 3" not in text
    only_bad = tmp_path / "bad.txt"
    only_bad.write_text("123\n", encoding="utf-8")
    code, _, err = _run(["render", str(only_bad), "-o", str(tmp_path / "none.pdf")])
    assert code == 2 and "line has 3 cells" in err and not (tmp_path / "none.pdf").exists()


@pytest.mark.parametrize("command", [["check"], ["count"], ["generate", "-n", "1"]])
@pytest.mark.parametrize("size", ["7", "64", "1", "x"])
def test_a_size_without_standard_boxes_is_refused_naming_the_sizes(
    command: list[str], size: str
) -> None:
    """``--size 7`` passed the option's range (1..64) and then failed as "give box_rows
    and box_cols", options the command line does not have; 64 was in the range and
    refused all the same."""
    args = [*command, EASY] if command[0] != "generate" else command
    code, out, err = _run([*args, "--size", size])
    assert (code, out) == (2, "")
    assert "4, 6, 8, 9, 10, 12, 15, 16, 20, 25" in err and "box_rows" not in err


def test_certify_needs_a_folder(tmp_path: Path) -> None:
    """``--certify FILE`` of an existing file said the bare "File exists: FILE"; an empty
    name was ignored (no proof, exit 0)."""
    taken = tmp_path / "a.txt"
    taken.write_text("kept\n", encoding="utf-8")
    code, out, err = _run(["check", EASY, "--certify", str(taken)])
    assert (code, out) == (2, "") and f"{taken} is a file; the proofs go into a folder" in err
    assert taken.read_text(encoding="utf-8") == "kept\n"
    code, out, err = _run(["check", EASY, "--certify", ""])
    assert (code, out) == (2, "") and "--certify: needs a folder name" in err


@pytest.mark.skipif(not Path("/proc/self/fd/1").exists(), reason="needs /proc")
@pytest.mark.parametrize(
    "command", [["check", EASY, "-q"], ["generate", "-n", "2", "--seed", "1", "-q"]]
)
def test_an_output_naming_the_standard_output_writes_it(tmp_path: Path, command: list[str]) -> None:
    """``-o /dev/stdout`` with the standard output sent to a file: that file is what
    /dev/stdout resolves to, so the run staged its rows and renamed them over the
    name, replacing the link (as root /dev/stdout itself) and leaving the file
    empty. A link to /proc/self/fd/1 stands for /dev/stdout here."""
    import subprocess
    import sys

    link = tmp_path / "stdout-link"
    link.symlink_to("/proc/self/fd/1")
    sent = tmp_path / "sent.txt"
    with sent.open("w", encoding="utf-8") as fh:
        done = subprocess.run(
            [sys.executable, "-m", "csp_sudoku", *command, "-o", str(link)],
            stdout=fh,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and str(link.readlink()) == "/proc/self/fd/1"
    rows = sent.read_text(encoding="utf-8").splitlines()
    assert len(rows) == (1 if command[0] == "check" else 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sent.txt", "stdout-link"]


@pytest.mark.parametrize(
    "argv",
    [
        ["render", EASY, "-o", "x.pdf", "--count", "0"],
        ["report", EASY, "-o", "r.html", "--count", "0"],
        ["candidates", EASY, "--cap", "0"],
    ],
    ids=["render-count", "report-count", "candidates-cap"],
)
def test_a_count_or_cap_of_zero_is_refused(tmp_path: Path, argv: list[str]) -> None:
    """``--count 0`` drew one puzzle (render, report); ``--cap 0`` was taken."""
    argv = [str(tmp_path / a) if a in ("x.pdf", "r.html") else a for a in argv]
    code, out, err = _run(argv)
    assert (code, out) == (2, "") and "must be an integer from 1 to" in err
    assert list(tmp_path.iterdir()) == []


def test_all_beside_other_metrics_is_every_metric() -> None:
    """``rate -m rounds,all`` said "unknown metric all; known: ... (or all)"."""
    from csp_sudoku.metrics import METRICS

    code, out, _ = _run(["rate", EASY, "-m", "rounds,all", "-q"])
    assert code == 0 and [r.split("\t")[1] for r in out.splitlines()] == list(METRICS)
    code, _, err = _run(["rate", EASY, "-m", "all,nope", "-q"])
    assert code == 2 and "unknown metric 'nope'" in err


@pytest.mark.parametrize("given", [None, 5, 2.5], ids=["None", "int", "float"])
def test_the_batch_api_refuses_what_is_no_sequence(given: object) -> None:
    """``count_many(None)`` and ``rate_many(None)`` raised Python's TypeError ("'NoneType'
    object is not iterable"), not the library's error."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError, MetricError

    with pytest.raises(ArgumentError, match="sequence of puzzles, got"):
        cs.count_many(given)  # type: ignore[arg-type]
    with pytest.raises(MetricError, match="sequence of puzzles, got"):
        cs.rate_many(given)  # type: ignore[arg-type]


@pytest.mark.parametrize("given", [None, 123, 2.5, b"12"], ids=["None", "int", "float", "bytes"])
def test_the_api_says_what_a_puzzle_is(given: object) -> None:
    """``is_unique(None)`` said "puzzle cells must be integers, got dtype object",
    ``is_unique(123)`` and ``is_solution(None)`` "1 cells is not a known grid size",
    ``Geometry.named(None)`` raised re's TypeError."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import GeometryError, ParseError

    for call in (cs.is_unique, cs.solve, cs.count_solutions, cs.Puzzle):
        with pytest.raises(ParseError, match="got " + type(given).__name__):
            call(given)  # type: ignore[operator]
    if not isinstance(given, bytes):
        with pytest.raises(ParseError, match="a solution is a Puzzle"):
            cs.is_solution(given)  # type: ignore[arg-type]
    with pytest.raises(GeometryError, match="a geometry name is a string"):
        cs.Geometry.named(given)  # type: ignore[arg-type]


@pytest.mark.parametrize("budget", [float("nan"), "1", -1, True])
def test_a_budget_that_is_no_positive_number_is_refused(budget: object) -> None:
    """``count_solutions(..., budget_seconds=nan)`` made a deadline no clock passes (a
    count to a big limit ran for ever); a string raised TypeError deep inside."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError, GenerationError

    with pytest.raises(ArgumentError, match="budget_seconds must be"):
        cs.count_solutions("." * 36, limit=10**7, budget_seconds=budget)  # type: ignore[arg-type]
    with pytest.raises(GenerationError, match="budget_seconds must be"):
        list(cs.generate(1, budget_seconds=budget))  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [2**62, 2**63 - 1, 2**70])
def test_a_limit_beyond_64_bits_counts_as_the_kernels_largest(limit: int) -> None:
    """An empty 9x9 grid has about 6.7e21 solutions, so "count everything" limits are
    natural; from about 2**62 the compiled searches' integers overflowed (numba's
    TypingError, OverflowError) where the SAT backend took them."""
    import csp_sudoku as cs

    assert cs.count_solutions(EASY, limit=limit, backend="fast") == 1
    assert cs.count_solutions(EASY, limit=limit) == 1
    assert list(cs.count_many([EASY, EASY], limit=limit)) == [1, 1]
    assert cs.Checker().count(EASY, limit) == 1
    grid = cs.random_grid(cs.Geometry.standard(16), seed=1).cells.copy()
    grid[[0, 5]] = 0  # two cells of one row: one way to fill them back
    assert len(cs.solutions(cs.Puzzle(grid), limit=limit)) == 1


def test_a_limit_or_runs_no_list_can_hold_is_refused() -> None:
    """``variant_solutions(V, 2**63)`` and ``rate(..., runs=2**70)`` failed inside numpy
    ("Maximum allowed dimension exceeded")."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError, MetricError

    data = Path(__file__).resolve().parents[1] / "examples" / "data" / "variants.jsonl"
    variant = cs.parse_fpuzzles(data.read_text(encoding="utf-8").splitlines()[0])
    assert cs.count_variant(variant, 2**70) == 1
    with pytest.raises(ArgumentError, match="solutions holds at most 10,000,000 grids"):
        cs.variant_solutions(variant, 2**63)
    with pytest.raises(MetricError, match="runs must be a whole number from 1 to 1,000,000"):
        cs.rate(EASY, "hsolve", runs=2**70)


def test_cell_and_unit_names_refuse_what_the_grid_lacks() -> None:
    """``cell_name(81)`` was ``r10c1`` and ``cell_name(-1)`` ``r0c9``; ``unit_name(-1)``
    ``box -18`` and ``unit_name(27)`` an IndexError."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import GeometryError

    g = cs.Geometry.standard(9)
    assert (g.cell_name(0), g.cell_name(80), g.unit_name(26)) == ("r1c1", "r9c9", "box 9")
    for bad in (81, -1):
        with pytest.raises(GeometryError, match=f"cells 0 to 80, not {bad}"):
            g.cell_name(bad)
    for bad in (27, -1):
        with pytest.raises(GeometryError, match=f"units 0 to 26, not {bad}"):
            g.unit_name(bad)


def test_solve_path_takes_a_seed_as_its_rng() -> None:
    """``solve_path(..., rng=5)`` raised AttributeError ('int' object has no attribute
    'random'), where every other randomised function takes an int seed."""
    import csp_sudoku as cs

    def steps(rng: object) -> list[tuple[str, object]]:
        path = cs.solve_path(EASY, order="subsets", rng=rng)  # type: ignore[call-overload]
        return [(s.technique, s.placements) for s in path.steps]

    assert steps(5) == steps(5) == steps(np.random.default_rng(5))


def test_small_api_calls_say_what_they_take() -> None:
    """Each raised a bare Python error, or wrote something wrong: ``format_line(text)``
    AttributeError, ``blank=""`` TypeError and ``blank="1"`` a line reading back as
    another puzzle, ``parse_fpuzzles(None)`` AttributeError, ``without(81)`` IndexError
    and ``without(-1)`` emptied the last cell, ``Geometry.for_cells(-1)`` a TypeError
    about complex numbers, ``next_step(..., model="x")`` AttributeError."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError, GeometryError, ParseError

    p = cs.parse(EASY)
    assert cs.format_line(p, blank="0") == EASY.replace(".", "0")
    assert cs.format_line(p, blank="-") == EASY.replace(".", "-")
    for call, match in (
        (lambda: cs.format_line(EASY), "a Puzzle is formatted"),  # type: ignore[arg-type]
        (lambda: cs.format_grid(EASY), "a Puzzle is formatted"),  # type: ignore[arg-type]
        (lambda: cs.format_line(p, blank=""), "blank must be one character"),
        (lambda: cs.format_line(p, blank="1"), "blank must be one character"),
        (lambda: cs.format_grid(p, blank=" "), "blank must be one character"),
        (lambda: cs.parse_fpuzzles(None), "f-puzzles data is text"),  # type: ignore[arg-type]
        (lambda: cs.parse_fpuzzles(b"{}"), "f-puzzles data is text"),  # type: ignore[arg-type]
        (lambda: p.without(81), "are 0 to 80, got 81"),
        (lambda: p.without(-1), "are 0 to 80, got -1"),
    ):
        with pytest.raises(ParseError, match=match):
            call()
    assert p.without([0]).clue_count == p.clue_count - 1
    with pytest.raises(GeometryError, match="-1 cells is not a known grid size"):
        cs.Geometry.for_cells(-1)
    with pytest.raises(ArgumentError, match="model must be an SeModel"):
        cs.next_step(EASY, model="x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="model must be an SeModel"):
        cs.next_step(EASY, model=[1.0])  # type: ignore[arg-type]  # unhashable: no cache key
    for source in (None, b"abc"):
        with pytest.raises(ArgumentError, match="puzzles are read from a path"):
            list(cs.read_puzzles(source))  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="an output is a path or an open text file"):
        cs.write_puzzles([p], None)  # type: ignore[arg-type]


def test_jobs_executor_and_callbacks_of_another_kind_are_refused() -> None:
    """``rate_many(jobs="2")`` raised TypeError, ``executor=5`` AttributeError,
    ``on_rating=5`` TypeError at the first rating; ``generate(jobs=1.5)`` went on."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError, GenerationError, MetricError

    for jobs in ("2", 1.5, -1):
        with pytest.raises(MetricError, match="jobs must be a whole number from 0"):
            cs.rate_many([EASY], "rounds", jobs=jobs)  # type: ignore[arg-type]
        with pytest.raises(GenerationError, match="jobs must be a whole number from 0"):
            list(cs.generate(1, jobs=jobs))  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="executor must be a concurrent"):
        cs.rate_many([EASY, EASY], "rounds", executor=5)
    with pytest.raises(MetricError, match="on_rating must be a function"):
        cs.rate_many([EASY], "rounds", on_rating=5)  # type: ignore[arg-type]


def test_puzzle_text_given_as_cells_points_to_parse() -> None:
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ParseError

    with pytest.raises(ParseError, match=r"read a puzzle line with parse\(\)"):
        cs.Puzzle(EASY)
    assert cs.is_unique(EASY)  # the functions read text themselves


def test_a_null_puzzle_field_and_a_bad_jigsaw_file_are_said_as_they_are(tmp_path: Path) -> None:
    """``{"puzzle": null}`` was said as "no 'puzzle' field"; a jigsaw file with too few
    labels gave an error without the file's name."""
    src = tmp_path / "p.jsonl"
    src.write_text('{"puzzle": null}\n{"x": 1}\n', encoding="utf-8")
    code, _, err = _run(["check", str(src)])
    assert code == 2
    assert f"{src}:1:1: the 'puzzle' field is not a string (it is null)" in err
    assert f"{src}:2:1: no 'puzzle' field" in err
    jig = tmp_path / "jig.txt"
    jig.write_text("AAAB\nAABB\n", encoding="utf-8")
    code, _, err = _run(["check", EASY, "--jigsaw", str(jig)])
    assert code == 2 and f"{jig}: a jigsaw needs N*N region labels, got 8" in err


def test_a_lone_technique_name_is_one_name() -> None:
    """``techniques="singles"`` was read letter by letter ("unknown technique 's'")."""
    import csp_sudoku as cs
    from csp_sudoku.human.path import solve_path

    assert solve_path(LINES[0], "singles").techniques == ("singles",)
    assert cs.solve_path(LINES[0], "subsets", techniques="singles").techniques == ("singles",)


@pytest.mark.parametrize("name", ["Single", "hidden single", "Hidden"])
def test_excluding_the_technique_every_path_uses_is_refused_at_once(name: str) -> None:
    """``--exclude-technique Single``: every SE path places its last digit by a hidden
    single, so no puzzle can pass; the run searched until its budget ran out (for
    ever without one). Refused before any search now."""
    code, out, err = _run(["generate", "-n", "1", "--seed", "1", "--exclude-technique", name])
    assert (code, out) == (2, "")
    assert "Hidden Single, which every puzzle's SE path uses" in err


def test_excluding_naked_singles_is_still_possible() -> None:
    """Only Hidden Single is in every path: a filter that leaves it is left to the search."""
    from csp_sudoku.core.errors import GenerationError
    from csp_sudoku.generators.targeting import Target
    from csp_sudoku.generators.techniques import check_filters

    check_filters((), "Naked Single", Target("se"))  # a lone name, as one name
    with pytest.raises(GenerationError, match="every puzzle's SE path"):
        check_filters((), "Single", Target("se"))


@pytest.mark.parametrize("name", ["nope", "7x7", "x-9"])
def test_a_bank_query_of_an_unknown_geometry_is_an_error(tmp_path: Path, name: str) -> None:
    """``bank query --geometry nope`` exited 0 with nothing: no puzzle matched the typo."""
    bank = tmp_path / "b.db"
    src = tmp_path / "in.txt"
    src.write_text("\n".join(LINES[:3]) + "\n", encoding="utf-8")
    assert _run(["bank", "add", str(bank), str(src), "-q"])[0] == 0
    code, out, err = _run(["bank", "query", str(bank), "--geometry", name])
    assert (code, out) == (2, "")
    assert f"unknown geometry {name!r}" in err and "9x9" in err and "windoku" in err
    for good in ("9x9", "x-9x9", "windoku", "jigsaw-9x9"):
        code, _, err = _run(["bank", "query", str(bank), "--geometry", good, "-n", "1"])
        assert code in (0, 1) and "unknown geometry" not in err
