"""The less used corners of the command line: each test holds one defect fixed.

``explain``'s summary line and its options on f-puzzles inputs, ``report
--metric`` checked before any work, empty output paths, ``-`` as standard
output, plain and variant puzzles mixed in ``explain`` and ``export``,
``export``'s messages on a missing file or a file of several puzzles, and
``candidates --backend``. Every run goes through :func:`csp_sudoku.cli.main`
in this process, in a temporary folder (so that a file named ``-`` would be
seen).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_cli
from tests.test_variant_rows import cli

#: A 4x4 puzzle with six solutions.
SEVERAL4 = "1.......3....2.."
#: A 4x4 puzzle with one solution (singles only).
UNIQUE4 = "..1..4........21"
#: A hard 9x9 puzzle: its subsets path needs chains.
HARD = ".....9.8.8..3....2.675.......27..6...3..45.1.....1...5..1....9...5..71..49......."
#: A 9x9 puzzle whose se path is short.
PLAIN = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: The first puzzle of examples/data/variants.jsonl (a killer-cage 9x9, unique).
VARIANTS = Path(__file__).resolve().parent.parent / "examples" / "data" / "variants.jsonl"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary working folder with the puzzles of the tests as files."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c4.txt").write_text(SEVERAL4 + "\n")
    (tmp_path / "u4.txt").write_text(UNIQUE4 + "\n")
    (tmp_path / "p.txt").write_text(PLAIN + "\n")
    (tmp_path / "two.txt").write_text(f"{PLAIN}\n{HARD}\n")
    (tmp_path / "comments.txt").write_text("# nothing but a comment\n")
    first = VARIANTS.read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "v0.json").write_text(first + "\n")
    (tmp_path / "mix.txt").write_text(f"{PLAIN}\n{first}\n")
    _, fp, _ = run_cli(["export", "fpuzzles", UNIQUE4])  # the 4x4 as an f-puzzles object
    (tmp_path / "u4.json").write_text(fp)
    (tmp_path / "jig6.txt").write_text("000111\n002111\n022333\n224333\n244555\n444555\n")
    return tmp_path


def _no_dash_file(folder: Path) -> None:
    assert not (folder / "-").exists(), "a file named '-' was written"


# ---------------------------------------------------------------- 1. the summary line
def test_the_subsets_summary_names_chains_and_oracle_steps(here: Path) -> None:
    argv = ["explain", "--order", "subsets"]
    code, out, _ = run_cli([*argv, HARD, "--techniques", "singles,chains", "--max-level", "0"])
    last = out.strip().splitlines()[-1]
    assert code == 0 and "(highest chain level 0)" in last and "singles only" not in last
    code, out, _ = run_cli([*argv, PLAIN, "--techniques", "oracle"])
    last = out.strip().splitlines()[-1]
    assert code == 0 and "(oracle)" in last and "singles only" not in last
    code, out, _ = run_cli([*argv, UNIQUE4])  # every step a single: said so
    assert code == 0 and "(singles only)" in out.strip().splitlines()[-1]


# ---------------------------------------------------------------- 2, 3. report --metric
def test_report_refuses_an_unknown_metric_before_any_work(here: Path) -> None:
    code, out, err = run_cli(["report", "c4.txt", "-o", "z.html", "-m", "bogus,se"])
    assert code == 2 and out == ""
    assert "unknown metric 'bogus'" in err and "none" in err
    assert not (here / "z.html").exists()


def test_report_metric_none_is_counts_only(here: Path) -> None:
    code, out, err = run_cli(["report", "p.txt", "-o", "z.html", "-m", "none"])
    assert code == 0 and out.strip() == "z.html"
    assert "No difficulty metric was asked for" in err
    assert "No difficulty metric" in (here / "z.html").read_text(encoding="utf-8")
    code, _, err = run_cli(["report", "p.txt", "-o", "y.html", "-m", "none,se"])
    assert code == 2 and "--metric none" in err and not (here / "y.html").exists()


# ---------------------------------------------------------------- 4. grid options
@pytest.mark.parametrize("options", [["--size", "4"], ["--variant", "x"], ["--jigsaw", "jig6.txt"]])
def test_explain_refuses_grid_options_on_fpuzzles_inputs(here: Path, options: list[str]) -> None:
    code, out, err = run_cli(["explain", "u4.json", *options])
    assert code == 2 and out == ""
    assert "--size, --variant and --jigsaw do not apply to f-puzzles inputs" in err


def test_check_refuses_grid_options_on_fpuzzles_inputs(here: Path) -> None:
    code, out, err = run_cli(["check", "u4.json", "--variant", "x"])
    assert code == 2 and out == "" and "do not apply to f-puzzles inputs" in err
    code, out, _ = run_cli(["check", "c4.txt", "u4.json", "--size", "4", "-q"])  # for c4.txt
    assert code == 1 and "multiple" in out and "unique" in out


# ---------------------------------------------------------------- 5. --max-subset's range
def test_max_subset_has_an_upper_bound(here: Path) -> None:
    code, out, err = run_cli(["explain", UNIQUE4, "--order", "subsets", "--max-subset", "99"])
    assert code == 2 and out == "" and "--max-subset" in err and "from 0 to 8" in err
    code, out, err = run_cli(["explain", "u4.json", "--max-subset", "5"])
    assert code == 2 and out == "" and "--max-subset must be from 0 to 4" in err
    code, _, err = run_cli(["explain", UNIQUE4, "--order", "subsets", "--max-subset", "8"])
    assert code == 0, err


# ---------------------------------------------------------------- 6. empty output paths
@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "u4.txt", "--html", ""],
        ["explain", "u4.txt", "--svg", ""],
        ["candidates", "c4.txt", "-o", ""],
        ["export", "cnf", "c4.txt", "-o", ""],
        ["render", "c4.txt", "-o", ""],
        ["report", "c4.txt", "-o", ""],
        ["check", "c4.txt", "-o", ""],
    ],
)
def test_an_empty_output_path_is_refused(here: Path, argv: list[str]) -> None:
    code, out, err = run_cli(argv)
    assert code == 2 and out == "" and "empty path" in err


# ---------------------------------------------------------------- 7. '-' is standard output
def test_dash_is_standard_output_for_text(here: Path) -> None:
    code, out, _ = run_cli(["candidates", "c4.txt", "-o", "-", "-q"])
    assert code == 0 and out.startswith("c4.txt:1\t1 34 ")
    code, out, _ = run_cli(["check", "c4.txt", "-o", "-", "-q"])
    assert code == 1 and out.startswith("c4.txt:1\tmultiple")
    code, out, _ = run_cli(["render", "c4.txt", "-o", "-", "--format", "svg"])
    assert code == 0 and out.startswith("<?xml") and out.rstrip().endswith("</svg>")
    code, out, _ = run_cli(["explain", "u4.txt", "--html", "-"])
    assert code == 0 and out.startswith("<!DOCTYPE html>") and "Hidden Single" in out
    _no_dash_file(here)


def test_dash_is_refused_where_standard_output_cannot_take_it(here: Path) -> None:
    for argv, why in [
        (["render", "c4.txt", "-o", "-"], "--format svg"),
        (["render", "c4.txt", "-o", "-", "--format", "pdf"], "binary"),
        (["explain", "u4.txt", "--svg", "-"], "cannot hold a folder"),
        (["explain", "u4.txt", "--html", "-", "--json"], "--html -"),
    ]:
        code, out, err = run_cli(argv)
        assert code == 2 and out == "" and why in err, (argv, err)
    _no_dash_file(here)


# ---------------------------------------------------------------- 8. plain and variant mixed
def test_explain_takes_plain_and_variant_inputs_together(here: Path) -> None:
    code, out, err = run_cli(["explain", "p.txt", "v0.json"])
    assert code == 0, err
    assert "ER 2.6 (Pointing)" in out and "puzzle: v0.json:1 (9x9" in out
    code, out, err = cli("explain", "-", stdin=(here / "mix.txt").read_text())
    assert code == 0, err
    assert "ER 2.6 (Pointing)" in out and "puzzle: <stdin>:2 (9x9" in out
    # a variant path's option is no se path's: refused for the plain input, before any work
    code, out, err = run_cli(["explain", "p.txt", "v0.json", "--max-subset", "2"])
    assert code == 2 and out == "" and "p.txt: plain puzzles beside variant ones" in err


def test_export_fpuzzles_writes_the_plain_puzzles_of_a_mixed_file(here: Path) -> None:
    code, out, err = run_cli(["export", "fpuzzles", "mix.txt"])
    assert code == 0, err
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["grid"][0][0] == {"value": 4, "given": True} and "killercage" in second


# ---------------------------------------------------------------- 9, 10. export's messages
def test_export_says_a_missing_file_is_missing(here: Path) -> None:
    for name in ("nonexist.json", "nonexist.txt", "no/such"):
        code, out, err = run_cli(["export", "cnf", name])
        assert code == 2 and out == "" and f"{name}: no such file" in err


@pytest.mark.parametrize(
    ("model", "name", "found"),
    [("cnf", "two.txt", 2), ("minizinc", "comments.txt", 0), ("exact-cover", "two.txt", 2)],
)
def test_export_names_the_file_and_the_count(here: Path, model: str, name: str, found: int) -> None:
    code, out, err = run_cli(["export", model, name])
    assert code == 2 and out == ""
    assert f"{name}: expected exactly one puzzle, found {found}" in err


# ---------------------------------------------------------------- 11. candidates --backend
def test_candidates_backend_message_of_a_plain_puzzle(here: Path) -> None:
    code, out, err = run_cli(["candidates", "c4.txt", "--backend", "bogus"])
    assert code == 2 and out == ""
    assert "candidates: error: --backend 'bogus'" in err
    assert "the candidates of plain and variant puzzles use fast, sat, cpsat or auto" in err


@pytest.mark.parametrize(
    "argv",
    [["rate", UNIQUE4], ["report", UNIQUE4, "-o", "r.html"], ["bank", "rate", "b.db"]],
    ids=["rate", "report", "bank-rate"],
)
def test_every_command_refuses_an_empty_metric_name_alike(here: Path, argv: list[str]) -> None:
    """``-m ''`` was "unknown metric (none)" in rate, "--metric is required" in bank
    rate, and in report a run of every metric; the three checks are now one."""
    if argv[0] == "bank":
        assert run_cli(["bank", "add", "b.db", "u4.txt"])[0] == 0
    code, out, err = run_cli([*argv, "-m", ""])
    assert (code, out) == (2, "")
    assert "no metric named; known: " in err and "rounds" in err


def test_candidates_read_plain_lines_in_the_shape_the_options_give() -> None:
    """``--size``, ``--variant`` and ``--jigsaw`` set the shape of plain inputs for
    ``candidates`` as for ``check`` (they were refused as unknown arguments): an
    X-Sudoku line with ``--variant x`` has one candidate a cell, its solution
    (checked with the diagonals by the independent checker), while read as a
    plain 9x9 it has several solutions, so some cell has more."""
    from csp_sudoku import Geometry, generate
    from tests.helpers import run_cli
    from tests.independent import check_solution

    (made,) = generate(1, geometry=Geometry.x_sudoku(), seed=3)
    line = made.puzzle.to_line()
    code, out, err = run_cli(["candidates", line, "--variant", "x", "-q"])
    assert code == 0, err
    cells = out.rstrip("\n").split("\t")[1].split(" ")
    assert all(len(c) == 1 for c in cells)
    clues = [0 if ch == "." else int(ch) for ch in line]
    assert check_solution([int(c) for c in cells], clues, diagonals=True)
    code, out, err = run_cli(["candidates", line, "--size", "9", "-q"])
    assert code == 0, err
    assert any(len(c) > 1 for c in out.rstrip("\n").split("\t")[1].split(" "))
