"""Fixes of ``bank``, ``render`` and ``report`` found by a bug hunt.

* ``bank add`` of a good file and a gzip file cut short added nothing: the
  damage, raised through the run, rolled back every puzzle read before it.
* ``bank rate`` left the ratings made before a long rating uncommitted until
  that rating ended: another reader saw none, and a ``kill -9`` lost them.
* ``bank add`` and ``bank rate`` wrote their summaries on stdout.
* ``render --caption '{file} {line}'`` failed on plain puzzles.
* ``render -o x.svg --format png`` wrote PNG data into ``x-1.svg``.
* ``report -o /dev/stdout`` was refused as the unknown format ``''``.

Each test failed before its fix.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from csp_sudoku.cli import render as render_cli
from csp_sudoku.core.errors import RenderError
from csp_sudoku.core.io import parse_line
from csp_sudoku.tools.bank import PuzzleBank
from tests.conftest import load_lines
from tests.helpers import run_cli, run_module

#: Seconds the evidence a test waits for may take to come on a loaded machine.
PATIENCE = 60.0

#: The puzzles of the bug hunt's slow bank (``b5.db``): three 4x4 and a 6x6, which
#: ``se`` rates at once, and a 16x16 that it rates for minutes.
FAST_AND_SLOW = [
    "...43...2......1",
    "...34...2......1",
    "...12...3......4",
    "1...5...6..3.3...4...2.......564....",
    ".2.4..7.9...D...56..D.F.1....ABC..B..2...E.G..7..E.....C.67.1.342...8.A.EB...F....."
    "E...62.57..9.7..9EB2F..A.64.5.........G4.B1....8..5...............F.13...2G.6E..A4CD"
    "2..1.3..B.......3.C2.4.1D.8.1..5.A.E...G9A3..7G...1.5....B..52D...F..7.............."
    "BC.A.",
]


def _ratings_seen(db: Path) -> int:
    """The ratings another connection sees committed in bank ``db``."""
    reader = sqlite3.connect(db, timeout=PATIENCE)
    try:
        return int(reader.execute("SELECT COUNT(*) FROM ratings").fetchone()[0])
    finally:
        reader.close()


# ---------------------------------------------------------------------- bank add


def test_bank_add_keeps_the_puzzles_read_before_damaged_data(tmp_path: Path) -> None:
    """A good file, then a gzip file cut short: the bank held none of them (exit 2, no
    summary). Now it holds the good file's puzzles and the whole lines of the damaged
    one before its damage, says the summary, then the damage, and exits 2."""
    lines = load_lines("17_clue.txt", limit=305)
    good = tmp_path / "good.txt"
    good.write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    whole = gzip.compress(("\n".join(lines[5:]) + "\n").encode())
    cut = whole[: len(whole) // 2]
    damaged = tmp_path / "cut.txt.gz"
    damaged.write_bytes(cut)
    text = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(cut).decode()
    before = text[: text.rfind("\n") + 1].splitlines()  # the whole lines before the damage
    assert 0 < len(before) < 300
    db = tmp_path / "b.db"
    code, out, err = run_cli(["bank", "add", str(db), str(good), str(damaged)])
    assert code == 2, err
    assert out == ""
    summary = f"added {5 + len(before)}, duplicates 0, skipped 0 (0 not unique, 0 bad)"
    assert summary in err
    assert "cut.txt.gz: the gzip data is damaged or cut short" in err
    assert err.index(summary) < err.index("damaged or cut short")  # the damage said last
    with PuzzleBank(db, readonly=True) as bank:
        held = {e.puzzle.to_line() for e in bank.query()}
    assert held == {parse_line(x).to_line() for x in lines[:5] + before}


def test_bank_add_and_rate_summaries_go_to_stderr(tmp_path: Path) -> None:
    """The summaries of ``bank add`` and ``bank rate`` were written on stdout, where
    the results of a command go; ``bank export`` wrote its own on stderr."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join(load_lines("17_clue.txt", limit=3)) + "\n", encoding="utf-8")
    db = str(tmp_path / "b.db")
    code, out, err = run_cli(["bank", "add", db, str(src), "--no-minimal-check"])
    assert (code, out) == (0, "")
    assert "added 3, duplicates 0, skipped 0 (0 not unique, 0 bad); the bank holds 3" in err
    code, out, err = run_cli(["bank", "rate", db, "-m", "rounds", "--seed", "1"])
    assert (code, out) == (0, "")
    assert "rated 3 puzzles with rounds" in err


# ---------------------------------------------------------------------- bank rate


def test_bank_rate_commits_the_ratings_made_while_a_long_one_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three quick ratings, then one that runs until the test ends it: the quick ones
    were committed only when a rating came a second or more after the last commit,
    so another connection saw none while the long one ran. Now they are committed
    within a second, while it runs."""
    from csp_sudoku.metrics import registry

    lines = load_lines("17_clue.txt", limit=4)
    last = parse_line(lines[-1]).cells
    release = threading.Event()

    def run(puzzle: Any, solution: Any, runs: int, rng: Any, params: Any) -> Any:
        if np.array_equal(puzzle.cells, last):
            release.wait(PATIENCE)  # the long rating: until the test has looked
        return float(np.count_nonzero(puzzle.cells)), "x", 0, {}, {}

    spec = registry.MetricSpec("slow-last", run, None, False, lambda: ("x",))
    monkeypatch.setitem(registry.REGISTRY, "slow-last", spec)
    db = tmp_path / "b.db"
    with PuzzleBank(db) as bank:
        bank.add_many(lines, check_minimal=False)
    failed: list[BaseException] = []

    def rate() -> None:  # a bank's connection serves the thread that opened it
        try:
            with PuzzleBank(db) as bank:
                bank.rate("slow-last", seed=1)
        except BaseException as err:
            failed.append(err)

    rater = threading.Thread(target=rate, daemon=True)
    rater.start()
    seen, still_rating = 0, False
    try:
        give_up = time.monotonic() + 20.0  # the commit is due within a second
        while seen < 3 and time.monotonic() < give_up and rater.is_alive():
            time.sleep(0.05)
            seen = _ratings_seen(db)
        still_rating = rater.is_alive()
    finally:
        release.set()
        rater.join(PATIENCE)
    assert (seen, still_rating) == (3, True)
    assert not failed and not rater.is_alive()
    assert _ratings_seen(db) == 4  # the long one too, at the end


def test_a_bank_rate_killed_during_a_long_rating_keeps_the_ones_before(
    tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    """The bug hunt's case: four small puzzles rated with ``se`` at once, then a 16x16
    for minutes; another reader saw no rating, and ``kill -9`` left none stored."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join(FAST_AND_SLOW) + "\n", encoding="utf-8")
    db = tmp_path / "b.db"
    added = run_module(["bank", "add", "-q", str(db), str(src)], timeout=PATIENCE * 2)
    assert added.returncode == 0, added.stderr
    proc = subprocess.Popen(
        [sys.executable, "-m", "csp_sudoku", "bank", "rate", str(db), "-m", "se", "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started.append(proc)
    seen = 0
    give_up = time.monotonic() + PATIENCE
    while seen < 4 and proc.poll() is None and time.monotonic() < give_up:
        time.sleep(0.1)
        seen = _ratings_seen(db)
    alive = proc.poll() is None
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(PATIENCE)
    assert (seen, alive) == (4, True), proc.stderr.read() if proc.stderr else ""
    with PuzzleBank(db, readonly=True) as bank:
        rated = {e.puzzle.to_line(): bool(e.ratings) for e in bank.query()}
    assert rated == {line: line != FAST_AND_SLOW[-1] for line in FAST_AND_SLOW}


# ---------------------------------------------------------------------- render


def _captions(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[int, list[str], str]:
    """``csp-sudoku render ARGV``'s exit code, the captions it would draw, and stderr
    (the drawing itself left out)."""
    drawn: list[str] = []

    def draw(args: Any, puzzles: Any, captions: Any, solutions: Any) -> None:
        drawn.extend(captions)

    monkeypatch.setattr(render_cli, "_draw", draw)
    code, _, err = run_cli(["render", *argv])
    return code, drawn, err


def test_captions_take_file_and_line_of_plain_puzzles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``{file}`` and ``{line}`` were fields of variant puzzles only: a plain puzzle's
    caption failed ("no field 'file' in puzzle 1"), exit 2, nothing written. Now both
    name where this command read each puzzle, in a plain run and a mixed one."""
    lines = load_lines("17_clue.txt", limit=2)
    plain = tmp_path / "plain.txt"
    plain.write_text(f"# two\n{lines[0]}\n{lines[1]}\n", encoding="utf-8")
    fmt = "{n} {file} {line}"
    code, drawn, err = _captions(monkeypatch, [str(plain), "-o", "x.pdf", "--caption", fmt])
    assert code == 0, err
    assert drawn == [f"1 {plain} 2", f"2 {plain} 3"]
    variant = (Path(__file__).parents[1] / "examples/data/variants.jsonl").read_text().split("\n")
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(f"{variant[0]}\n{lines[0]}\n", encoding="utf-8")
    code, drawn, err = _captions(monkeypatch, [str(mixed), "-o", "x.pdf", "--caption", fmt])
    assert code == 0, err
    assert drawn == [f"1 {mixed} 1", f"2 {mixed} 2"]


def test_a_records_own_file_and_line_give_way_to_the_input_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record's ``file``/``line`` (another command's input) are not where render
    read the puzzle: as in every command's rows, the command's own input wins."""
    rows = tmp_path / "rows.jsonl"
    line = load_lines("17_clue.txt", limit=1)[0]
    rows.write_text(json.dumps({"puzzle": line, "file": "other.txt", "line": 9}) + "\n")
    code, drawn, err = _captions(
        monkeypatch, [str(rows), "-o", "x.pdf", "--caption", "{file}:{line}"]
    )
    assert code == 0, err
    assert drawn == [f"{rows}:1"]


@pytest.mark.parametrize(("name", "fmt"), [("x.svg", "png"), ("x.pdf", "svg"), ("x.png", "pdf")])
def test_a_format_the_output_suffix_contradicts_is_refused(
    tmp_path: Path, name: str, fmt: str
) -> None:
    """``-o x.svg --format png`` wrote PNG data into ``x-1.svg``; now refused, exit 2,
    before any puzzle is read, and nothing is written."""
    src = tmp_path / "in.txt"
    src.write_text("\n".join(load_lines("17_clue.txt", limit=7)) + "\n", encoding="utf-8")
    out = tmp_path / name
    code, stdout, err = run_cli(["render", str(src), "-o", str(out), "--format", fmt])
    assert (code, stdout) == (2, "")
    assert f"format {fmt} contradicts the name {out}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt"]


def test_render_book_refuses_a_format_its_target_contradicts(tmp_path: Path) -> None:
    """The library's rule is the command's: the suffix of a named format must agree."""
    from csp_sudoku.tools.render import output_format, render_book

    with pytest.raises(RenderError, match="contradicts"):
        render_book([load_lines("17_clue.txt", limit=1)[0]], tmp_path / "x.svg", fmt="png")
    assert list(tmp_path.iterdir()) == []
    assert output_format("x.SVG", "svg") == "svg"  # the same format, any case
    assert output_format("book", "png") == "png"
    assert output_format("/dev/stdout", "pdf") == "pdf"


# ---------------------------------------------------------------------- report


def test_report_to_a_device_writes_the_html_page(tmp_path: Path) -> None:
    """``report -o /dev/stdout`` said "unknown report format ''"; a device is written as
    it is, as ``-`` is: the HTML page, and no path printed after it."""
    from csp_sudoku.core.errors import ReportError
    from csp_sudoku.tools.report import report_format

    assert report_format("/dev/stdout") == "html"
    assert report_format("/dev/stdout", "png") == "png"
    with pytest.raises(ReportError, match="unknown report format ''"):
        report_format(tmp_path / "report")  # a regular file's name still says a format
    src = tmp_path / "in.txt"
    src.write_text("\n".join(load_lines("17_clue.txt", limit=3)) + "\n", encoding="utf-8")
    done = run_module(["report", str(src), "-q", "-o", "/dev/stdout"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<!DOCTYPE html>")
    assert done.stdout.rstrip().endswith("</html>")
