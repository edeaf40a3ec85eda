"""rate in batches: --jobs, --scheduler and --output/--resume give the same rows."""

from __future__ import annotations

import importlib.util
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from csp_sudoku.cli import main
from csp_sudoku.metrics import rate_many
from tests.conftest import load_lines

METRICS = "oracle,rounds"


@pytest.fixture()
def src(tmp_path: Path) -> Path:
    lines = load_lines("top1465.txt", limit=14)
    multi = load_lines("multi_solution_serg.txt", limit=1)
    body = [*lines[:4], "x" * 81, *lines[4:9], *multi, *lines[9:]]
    f = tmp_path / "in.txt"
    f.write_text("# header\n" + "\n".join(body) + "\n")
    return f


def _rate(src: Path, *extra: str, fmt: str = "jsonl") -> list[str]:
    seeded = ["-m", METRICS, "--runs", "3", "--seed", "11"]
    return ["rate", str(src), *seeded, "--format", fmt, "-q", *extra]


def test_jobs_give_the_same_rows(src: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_rate(src)) == 2  # a bad line and a puzzle with several solutions
    serial = capsys.readouterr()
    assert serial.out.count("\n") == 14 * 2 and serial.err.count("csp-sudoku:") == 2
    assert main(_rate(src, "--jobs", "2", "--chunk-size", "3")) == 2
    assert capsys.readouterr() == serial


# another local cluster on this machine may hold the default dashboard port (a warning)
@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs dask")
def test_scheduler_gives_the_same_rows(src: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_rate(src, "--jobs", "2")) == 2
    local = capsys.readouterr()
    assert main(_rate(src, "--scheduler", "local:2", "--chunk-size", "2")) == 2
    assert capsys.readouterr() == local


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_resume_after_a_cut_matches_a_full_run(
    src: Path, tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    full = tmp_path / f"full.{fmt}"
    assert main(_rate(src, "-o", str(full), fmt=fmt)) == 2
    full_err = capsys.readouterr().err
    data = full.read_bytes()
    lines = data.splitlines(keepends=True)
    # cut inside a row, just after a group (a row boundary after both metrics),
    # and inside a group (after its first row, past the bad lines)
    header = 1 if fmt == "csv" else 0
    cuts = [
        len(data) // 2 + 7,
        sum(map(len, lines[: header + 6])),
        sum(map(len, lines[: header + 19])),
    ]
    for cut in cuts:
        part = tmp_path / f"part.{fmt}"
        part.write_bytes(data[:cut])
        args = _rate(src, "-o", str(part), "--resume", "--jobs", "2", "--chunk-size", "2", fmt=fmt)
        assert main(args) == 2  # the bad line and the unrateable puzzle count again
        assert part.read_bytes() == data
        assert capsys.readouterr().err == full_err  # errors of the done part reported again
    assert main(args) == 2  # resuming a finished run writes nothing more
    assert part.read_bytes() == data


def test_resume_refuses_another_seed_metric_or_input(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    main(_rate(src, "-o", str(out)))
    data = out.read_bytes()
    out.write_bytes(data[: len(data) // 2])
    assert main([*_rate(src, "-o", str(out), "--resume"), "--seed", "12"]) == 2
    assert "another seed" in capsys.readouterr().err
    wrong = ["rate", str(src), "-m", "rounds,oracle", "--format", "jsonl", "-q"]
    assert main([*wrong, "-o", str(out), "--resume"]) == 2
    assert "another --metric" in capsys.readouterr().err
    other = tmp_path / "other.txt"
    other.write_text("\n".join(load_lines("17_clue.txt", limit=30)) + "\n")
    assert main(_rate(other, "-o", str(out), "--resume")) == 2
    assert "not this input's output" in capsys.readouterr().err
    assert data.startswith(out.read_bytes())  # refusing writes nothing
    assert main(["rate", str(src), "--resume", "-q"]) == 2


def test_rate_many_on_an_executor_matches_serial() -> None:
    lines = load_lines("top1465.txt", limit=10)
    serial = rate_many(lines, "oracle", runs=3, seed=4)
    assert rate_many(lines, "oracle", runs=3, seed=4, jobs=2) == serial
    with ThreadPoolExecutor(3) as ex:
        assert rate_many(lines, "oracle", runs=3, seed=4, executor=ex) == serial


def test_rate_many_refuses_one_puzzle() -> None:
    """A puzzle line is a string, so a sequence of its characters: said plainly,
    not as a parse error of its first character."""
    import csp_sudoku as cs

    line = load_lines("top1465.txt", limit=1)[0]
    for one in (line, cs.parse(line)):
        with pytest.raises(cs.SudokuError, match="not one puzzle"):
            rate_many(one, "rounds")  # type: ignore[arg-type]


@pytest.mark.parametrize("jobs", [1, 2])
def test_rate_many_names_the_puzzle_it_cannot_rate(jobs: int) -> None:
    """In a batch, "this one has several solutions" is no help: the index is named
    (the chunks of worker processes count from their own first item)."""
    import csp_sudoku as cs

    lines = load_lines("top1465.txt", limit=9)
    multi = load_lines("multi_solution_serg.txt", limit=1)[0]
    with pytest.raises(cs.NotUniqueError, match=r"^puzzles\[7\]: .* several"):
        rate_many([*lines[:7], multi, *lines[7:]], "rounds", jobs=jobs)
    with pytest.raises(cs.ParseError, match=r"^puzzles\[5\]:1:1: unknown character"):
        rate_many([*lines[:5], "x" + lines[5][1:]], "rounds", jobs=jobs)


def test_metric_all_is_every_metric_in_registry_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from csp_sudoku.metrics import METRICS

    f = tmp_path / "one.txt"
    f.write_text(load_lines("17_clue.txt", limit=1)[0] + "\n")
    assert main(["rate", str(f), "-m", "all", "--seed", "3", "--format", "jsonl", "-q"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["metric"] for r in rows] == list(METRICS)
    # beside other names too (it was "unknown metric all", though the message offered it)
    assert main(["rate", str(f), "-m", "all,hsolve", "--seed", "3", "--format", "jsonl"]) == 0
    again = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert again == rows


@pytest.mark.parametrize("jobs", [1, 2])
def test_rate_many_hands_each_rating_over_as_it_is_made(jobs: int) -> None:
    """``on_rating(i, rating)`` hears of every rating in order, before rate_many returns:
    what lets ``bank rate`` store them as they come."""
    lines = load_lines("top1465.txt", limit=9)
    heard: list[tuple[int, object]] = []
    got = rate_many(
        lines, "oracle", seed=4, runs=2, jobs=jobs, on_rating=lambda i, r: heard.append((i, r))
    )
    assert heard == list(enumerate(got))
    assert got == rate_many(lines, "oracle", seed=4, runs=2)
