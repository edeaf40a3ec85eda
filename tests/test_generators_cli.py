"""``csp-sudoku generate`` and ``csp-sudoku minimize``, small counts."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import csp_sudoku as cs
from csp_sudoku.cli import main
from tests.helpers import run_cli
from tests.test_generators import verify


def _rows(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_generate_jsonl_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "generate",
            "--count",
            "2",
            "--symmetry",
            "rot180",
            "--level",
            "hard",
            "--level",
            "fiendish",
            "--metric",
            "rounds",
            "--seed",
            "3",
            "--format",
            "jsonl",
        ]
    )
    assert code == 0
    rows = _rows(capsys.readouterr().out)
    assert len(rows) == 2
    for r in rows:
        assert {"puzzle", "clues", "minimal", "symmetry", "seed", "ratings"} <= set(r)
        # minimal among rot180 patterns; plain minimality is checked, not assumed
        assert r["minimal_in_symmetry"] is True and r["symmetry"] == "rot180"
        assert isinstance(r["minimal"], bool)
        p = cs.parse(str(r["puzzle"]))
        assert p.clue_count == r["clues"]
        verify(p, symmetry="rot180")
        ratings = r["ratings"]
        assert isinstance(ratings, dict)
        assert ratings["rounds"]["level"] in ("Hard", "Fiendish")


def test_generate_jobs_gives_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "-n", "3", "--seed", "11", "--format", "jsonl", "--metric", "rounds"]
    assert main([*args, "--jobs", "1"]) == 0
    one = _rows(capsys.readouterr().out)
    assert main([*args, "--jobs", "2"]) == 0
    two = _rows(capsys.readouterr().out)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in one]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in two]
    assert len({r["seed"] for r in one}) == 3
    for r in one:
        verify(cs.parse(str(r["puzzle"])))
    assert all("rounds" in r["ratings"] for r in one)  # type: ignore[operator]


def test_generate_text_and_seed_reproduces(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "-n", "2", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        verify(cs.parse(line.split("\t")[0]))
    seed = int(lines[1].split("\t")[2].removeprefix("seed="))
    assert main(["generate", "-n", "1", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out.split("\t")[0] == lines[1].split("\t")[0]


def test_generate_budget_runs_out(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "generate",
            "-n",
            "2",
            "--score-min",
            "2",
            "--metric",
            "oracle",
            "--seed",
            "1",
            "--attempts",
            "1",
        ]
    )
    assert code == 1
    assert "generated 0 of 2" in capsys.readouterr().err


def test_generate_bad_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--level", "nightmare", "--metric", "rounds"]) == 2
    assert "unknown rounds level" in capsys.readouterr().err


def test_minimize(capsys: pytest.CaptureFixture[str]) -> None:
    full = cs.solve(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )
    assert full is not None
    assert main(["minimize", full.to_line(), "--seed", "2", "--symmetry", "rot90"]) == 0
    out = capsys.readouterr().out.strip()
    verify(cs.parse(out), symmetry="rot90")
    assert main(["minimize", "." * 81]) == 1
    assert "only a unique puzzle" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "listed"),
    [
        (["--metric", "bogus", "--level", "hard"], "hsolve, rounds"),
        (["--level", "nightmare", "--metric", "se"], "diabolical, extreme"),
        (["--exclude-technique", "Telepathy"], "Hidden Single"),
        (["--require-technique", "Telepathy", "--method", "anneal"], "X-Wing"),
    ],
)
def test_unknown_names_are_exit_2_with_the_valid_ones(argv: list[str], listed: str) -> None:
    from tests.helpers import run_cli

    code, out, err = run_cli(["generate", "-n", "2", "--seed", "1", "-q", *argv])
    assert code == 2 and out == ""
    assert listed in err and repr(argv[1]) in err, err  # the bad name, then the good ones


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--require-technique", "XY-Wing", "--exclude-technique", "Wing"], "excluded too"),
        (["--level", "medium", "--metric", "se", "--require-technique", "Swordfish"], "3.8"),
        (
            [
                "--level",
                "easy=2",
                "--level",
                "hard=1",
                "--metric",
                "se",
                "--require-technique",
                "Jellyfish",
            ],
            "5.2 or more",
        ),
        (
            [
                "--score-min",
                "9.5",
                "--metric",
                "se",
                "--exclude-technique",
                "Chain",
                "--exclude-technique",
                "Cycle",
            ],
            "is excluded",
        ),
        (["--max-clues", "16"], "below 17"),
        (["--variant", "x", "--level", "hard", "--metric", "refutation"], "x-9x9 puzzle is"),
    ],
)
def test_options_no_puzzle_can_meet_are_exit_2_before_any_search(argv: list[str], why: str) -> None:
    """Refused before any search: exit 2 and the reason (a search would end at
    its budget with exit 1; without one it would run for ever)."""
    from tests.helpers import run_cli

    quotas = any("=" in a for a in argv)  # the quotas say how many: no --count beside them
    count = [] if quotas else ["-n", "2"]
    code, out, err = run_cli(
        ["generate", *count, "--seed", "1", "-q", "--budget-seconds", "3", *argv]
    )
    assert code == 2 and out == ""
    assert why in err, err


def test_avoid_that_cannot_be_read_is_exit_2_naming_file_and_reason(tmp_path: Path) -> None:
    from tests.helpers import run_cli

    broken = tmp_path / "broken.db"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x07" * 200)
    for path, why in (
        (tmp_path / "missing.txt", "No such file"),
        (tmp_path, "Is a directory"),
        (broken, "not a puzzle bank"),
    ):
        code, out, err = run_cli(["generate", "--avoid", str(path), "--seed", "1", "-q"])
        assert code == 2 and out == ""
        assert f"--avoid {path}" in err and why in err, err


def test_a_jigsaw_file_that_cannot_be_read_is_said_by_name(tmp_path: Path) -> None:
    """--jigsaw of a folder printed Python's "[Errno 21] Is a directory"."""
    from tests.helpers import run_cli

    for path, why in ((tmp_path, "is a folder, not a file"), (tmp_path / "no", "no such file")):
        code, out, err = run_cli(["generate", "--jigsaw", str(path), "--seed", "1", "-q"])
        assert code == 2 and out == "" and "Errno" not in err
        assert f"{path}: cannot open for reading: {why}" in err, err


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "grid"])
def test_avoid_reads_every_form_the_commands_write(tmp_path: Path, fmt: str) -> None:
    """``--avoid`` read only lines whose first field was 81 cells of ``.`` and digits:
    a JSON Lines or CSV output of ``generate`` (or a grid of 9 rows) avoided nothing,
    and the run gave back the very puzzle it was told to avoid."""
    from csp_sudoku.generators.novelty import canonical_bytes
    from tests.helpers import run_cli

    argv = ["generate", "-n", "1", "--seed", "5", "--method", "rg1", "-q"]
    code, out, _ = run_cli([*argv, "--format", "jsonl"])
    assert code == 0
    (row,) = _rows(out)
    puzzle = cs.parse(str(row["puzzle"]))
    mine = tmp_path / f"mine.{fmt}"
    if fmt == "grid":
        mine.write_text(cs.format_grid(puzzle) + "\n", encoding="utf-8")
    else:
        code, out, _ = run_cli([*argv, "--format", fmt, "-o", str(mine)])
        assert code == 0 and out == ""
    code, out, _ = run_cli([*argv, "--format", "jsonl", "--avoid", str(mine)])
    assert code == 0
    (again,) = _rows(out)
    other = cs.parse(str(again["puzzle"]))
    verify(other)
    assert canonical_bytes(other.cells) != canonical_bytes(puzzle.cells)


def test_avoid_with_a_bad_line_or_no_puzzle_is_exit_2(tmp_path: Path) -> None:
    from tests.helpers import run_cli

    bad = tmp_path / "text.db"
    bad.write_text("hello\n", encoding="utf-8")
    code, out, err = run_cli(["generate", "--avoid", str(bad), "--seed", "1", "-q"])
    assert (code, out) == (2, "") and f"--avoid {bad}:1:6: line has 5 cells" in err
    small = tmp_path / "four.txt"
    small.write_text("1234341221434321\n", encoding="utf-8")
    code, out, err = run_cli(["generate", "--avoid", str(small), "--seed", "1", "-q"])
    assert (code, out) == (2, "") and "a 4x4 puzzle; only 9x9 puzzles are taken" in err


def test_avoid_a_bank_deletes_its_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bank given to --avoid is read into a temporary puzzle file: used, then deleted."""
    import tempfile

    from csp_sudoku.generators.novelty import canonical_bytes
    from csp_sudoku.tools.bank import PuzzleBank
    from tests.helpers import run_cli

    argv = ["generate", "-n", "2", "--seed", "4", "--method", "random", "--format", "jsonl", "-q"]
    code, out, _ = run_cli(argv)
    assert code == 0
    first = _rows(out)
    db = tmp_path / "bank.db"
    with PuzzleBank(db) as bank:
        bank.add(cs.parse(str(first[0]["puzzle"])))
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    code, out, _ = run_cli([*argv, "--avoid", str(db)])
    assert code == 0
    again = _rows(out)
    assert list(temp.iterdir()) == []  # the bank's puzzles were written here, and removed
    banned = canonical_bytes(cs.parse(str(first[0]["puzzle"])).cells)
    assert len(again) == 2
    for r in again:
        p = cs.parse(str(r["puzzle"]))
        verify(p)
        assert canonical_bytes(p.cells) != banned


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_anneal_budget_ends_with_exit_1_and_the_closest(jobs: str) -> None:
    """An unreachable target: nothing written, exit 1, how close the best came; while
    the chains run (in workers with --jobs 2) progress lines come on stderr."""
    from tests.helpers import run_cli

    argv = ["generate", "-n", "2", "--method", "anneal", "--metric", "se", "--seed", "1"]
    argv += ["--score-min", "11.9", "--budget-seconds", "6", "--jobs", jobs]
    code, out, err = run_cli(argv)
    assert code == 1 and out == ""
    assert "generated 0 of 2 puzzles at score in [11.9, inf] of metric 'se'" in err
    assert "the hardest puzzle met rated" in err
    assert "csp-sudoku generate: found 0, " in err and "best so far" in err
    # counts in words: "1 restart", "0 vicinities" ("1 restarts" was written)
    for count, noun, plural in re.findall(
        r"(\d+) (step|restart|fresh start|vicinit)(s|ies|y)?\b", err
    ):
        assert (plural in ("", "y")) == (count == "1"), (count, noun, plural)
    # the closest puzzle itself is named, and it is what the message says it is
    m = re.search(
        r"the hardest puzzle met rated ([0-9.]+), level (\w+): ([0-9.]{81}), "
        r"after (\d+) climbs? \(each on a grid\)\)",
        err,
    )
    assert m is not None, err
    assert int(m.group(4)) >= int(jobs)  # every chain climbs at least once
    closest = cs.parse(m.group(3))
    verify(closest)
    assert cs.rate(closest, "se").score == pytest.approx(float(m.group(1)))


@pytest.mark.parametrize(
    ("method", "budget"), [("random", ["--attempts", "3"]), ("climb", ["--budget-seconds", "5"])]
)
def test_other_methods_end_with_the_closest_puzzle_too(method: str, budget: list[str]) -> None:
    """Not only the annealer: a method short of its target names the puzzle nearest
    it among those it rated, with a rating that is the puzzle's own."""
    from tests.helpers import run_cli

    argv = ["generate", "-n", "1", "--method", method, "--metric", "se", "--seed", "4"]
    code, out, err = run_cli([*argv, "--score-min", "11.5", *budget])
    assert code == 1 and out == "", err
    m = re.search(r"the hardest puzzle met rated ([0-9.]+), level (\w+): ([0-9.]{81})\)", err)
    assert m is not None, err
    closest = cs.parse(m.group(3))
    verify(closest)
    rating = cs.rate(closest, "se")
    assert rating.score == pytest.approx(float(m.group(1))) and rating.score < 11.5
    assert rating.level == m.group(2)


def test_a_closest_puzzle_on_target_says_which_option_refused_it() -> None:
    """The hardest puzzle met can be on target yet refused by another option:
    the message says so (here its clue count), instead of naming an on-target
    level as what the run fell short of."""
    from tests.helpers import run_cli

    argv = ["generate", "-n", "1", "--method", "anneal", "--metric", "rounds", "--seed", "2"]
    argv += ["--level", "fiendish", "--max-clues", "18", "--budget-seconds", "3"]
    code, out, err = run_cli(argv)
    assert code == 1 and out == ""
    m = re.search(
        r"level (\w+), on target but it has (\d+) clues, above max_clues 18: ([0-9.]{81})", err
    )
    assert m is not None, err
    closest = cs.parse(m.group(3))
    verify(closest)
    assert closest.clue_count == int(m.group(2)) > 18
    assert cs.rate(closest, "rounds").level == m.group(1) == "Fiendish"


def test_a_closest_puzzle_that_was_written_is_not_said_refused() -> None:
    """The hardest puzzle met by a run short of its count is often one it wrote: the
    message said "on target but the technique, minimality or novelty options
    refused it" of a puzzle standing in the output above it."""
    from tests.helpers import run_cli

    argv = ["generate", "-n", "500", "--level", "fiendish", "--seed", "1", "-q"]
    code, out, err = run_cli([*argv, "--budget-seconds", "1"])
    assert code == 1
    m = re.search(r"the hardest puzzle met rated [0-9.]+, level \w+(.*?): ([0-9.]{81})", err)
    assert m is not None, err
    written = m.group(2) in {row.split("\t")[0] for row in out.splitlines()}
    assert written == (m.group(1) == ", one of the puzzles written"), err
    assert not written or "refused" not in err


def test_a_long_search_says_it_is_alive_when_stderr_is_no_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a terminal (no progress bar) a search that finds nothing for a
    while says so on stderr, every HEARTBEAT seconds of silence; ``-q`` does
    not. (17 clues: random minimal puzzles all but never have so few, so
    the budget ends the run.)"""
    import csp_sudoku.cli.generate as gen_cli
    from tests.helpers import run_cli

    monkeypatch.setattr(gen_cli, "HEARTBEAT", 0.5)
    argv = ["generate", "-n", "1", "--seed", "1", "--max-clues", "17", "--budget-seconds", "3"]
    code, out, err = run_cli(argv)
    assert code == 1 and out == ""
    assert "found 0 of 1" in err and "still searching" in err, err
    code, out, err = run_cli([*argv, "-q"])
    assert code == 1 and out == "" and "still searching" not in err
    assert "ran out" in err  # the outcome is still said


def test_a_quota_run_says_what_it_found_of_each_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heartbeat of a quota run counts each level. The stream here yields a
    fiendish puzzle, then searches on in vain until its budget ends."""
    import time

    import csp_sudoku.cli.generate as gen_cli
    from csp_sudoku.core.errors import BudgetExhaustedError
    from tests.helpers import run_cli

    (made,) = cs.generate(1, level="fiendish", seed=1)

    def stream(quotas: list[tuple[str, int]], **_: object) -> Iterator[object]:
        assert quotas == [("fiendish", 1), ("Easy", 2)]
        yield made
        time.sleep(1.5)
        raise BudgetExhaustedError("the time budget ran out", found=1, wanted=3)

    monkeypatch.setattr(gen_cli, "HEARTBEAT", 0.5)
    monkeypatch.setattr(gen_cli, "generate_quotas", stream)
    code, out, err = run_cli(["generate", "--level", "fiendish=1", "--level", "Easy=2"])
    assert code == 1 and len(out.splitlines()) == 1
    assert "found 1 of 3 (fiendish 1 of 1, Easy 0 of 2), " in err, err


def test_a_search_by_attempts_says_how_it_goes() -> None:
    """Not only the annealer: a search by attempts, run in this process, tells
    ``progress`` (and the CLI's stderr) every 2 s how many attempts it made
    for the next puzzle and the score nearest the target so far."""
    from csp_sudoku.generators import BudgetExhaustedError
    from tests.helpers import run_cli

    seen: list[dict[str, object]] = []
    options = {"metric": "se", "score_range": (11.5, 12.0), "method": "random", "seed": 2}
    with pytest.raises(BudgetExhaustedError):
        list(cs.generate(1, budget_seconds=5, progress=seen.append, **options))
    assert seen and all(set(r) == {"found", "attempts", "best", "elapsed"} for r in seen)
    attempts = [int(str(r["attempts"])) for r in seen]
    bests = [float(str(r["best"])) for r in seen]
    assert attempts == sorted(attempts) and bests == sorted(bests)  # nearest: hardest here
    assert all(r["found"] == 0 for r in seen) and bests[-1] < 11.5
    argv = ["generate", "--metric", "se", "--score-min", "11.5", "--method", "random"]
    code, _, err = run_cli([*argv, "--seed", "2", "--budget-seconds", "3"])
    assert code == 1 and " for the next, nearest the target so far " in err, err


def test_rate_takes_comma_lists_and_all() -> None:
    """``generate --rate`` reads metrics as ``rate --metric`` does."""
    from csp_sudoku.metrics import METRICS
    from tests.helpers import run_cli

    base = ["generate", "-n", "1", "--seed", "1", "-q", "--format", "jsonl"]
    code, out, _ = run_cli([*base, "--rate", "all"])
    assert code == 0 and list(json.loads(out)["ratings"]) == list(METRICS)
    code, out, _ = run_cli([*base, "--rate", "se,rounds", "--rate", "se"])
    assert code == 0 and list(json.loads(out)["ratings"]) == ["se", "rounds"]


def test_more_jobs_than_cores_is_said_not_cut() -> None:
    """generate's --jobs is how many searches run (an annealing run's puzzles depend on
    it), so unlike the other commands' it is not cut to the cores: the run says what
    it costs."""
    import os

    from tests.helpers import run_cli

    jobs = str((os.cpu_count() or 1) + 1)
    code, out, err = run_cli(["generate", "-n", "2", "--seed", "1", "--jobs", jobs])
    assert code == 0 and len(out.splitlines()) == 2
    assert f"--jobs {jobs} runs {jobs} searches on this machine's" in err
    code, out_q, err_q = run_cli(["generate", "-n", "2", "--seed", "1", "--jobs", jobs, "-q"])
    assert (code, out_q, err_q) == (0, out, "")


def test_a_level_without_a_metric_picks_the_metric_that_has_it() -> None:
    """``--level extreme`` is an se level: without --metric the run rates with se
    and says so; an unknown level names the metrics that have it."""
    code, out, err = run_cli(["generate", "-n", "1", "--level", "extreme", "--seed", "1"])
    assert code == 0, err
    assert "is a level of se: rating with --metric se" in err
    (line,) = out.splitlines()
    assert line.split("\t")[-1].startswith("se=") and line.endswith(" extreme")
    assert float(line.split("\t")[-1].split()[0][3:]) > 9.0
    code, out, err = run_cli(["generate", "-n", "1", "--level", "extreme", "--metric", "oracle"])
    assert (code, out) == (2, "")
    assert "choose from cinch, confusing, challenging, crazy" in err
    assert "'extreme' is a level of se" in err
    with pytest.raises(cs.core.errors.GenerationError, match="is a level of se"):
        list(cs.generate(1, level="extreme"))
