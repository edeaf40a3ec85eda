"""The puzzle bank: dedup by canonical form, queries, ratings, exports."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from csp_sudoku.core.errors import NotUniqueError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.bank import BankError, BankQuery, PuzzleBank, pattern_symmetries
from csp_sudoku.tools.canonical import random_isomorphism
from tests.conftest import load_lines

#: A minimal puzzle with a rot180 clue pattern (Wikipedia's example is not minimal).
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@dataclass
class FakeRating:
    metric: str
    score: float
    level: str
    level_rank: int
    parameters: dict[str, Any] = field(default_factory=dict)
    runs: int | None = None
    seed: int | None = 5
    version: str = "test"


@pytest.fixture
def bank(tmp_path: Path) -> PuzzleBank:
    b = PuzzleBank(tmp_path / "bank.db")
    yield b  # type: ignore[misc]
    b.close()


def test_isomorphs_are_duplicates(bank: PuzzleBank) -> None:
    p = parse_line(load_lines("17_clue.txt", limit=1)[0])
    first = bank.add(p, generator="royle", seed=1)
    assert first.added
    for s in range(5):
        again = bank.add(random_isomorphism(s).apply(p))
        assert not again.added and again.id == first.id
    assert len(bank) == 1
    e = bank.get(first.id)
    assert e.minimal is True and e.clues == 17 and e.generator == "royle" and e.seed == 1
    assert e.puzzle == p
    assert bank.find(random_isomorphism(9).apply(p)) is not None
    assert random_isomorphism(3).apply(p) in bank


def test_non_unique_puzzles_are_refused(bank: PuzzleBank) -> None:
    with pytest.raises(NotUniqueError):
        bank.add(Puzzle(np.zeros(81, np.int8)))
    assert len(bank) == 0


@pytest.mark.parametrize(
    ("query", "why"),
    [
        (BankQuery(min_clues=30, max_clues=20), "min_clues (--min-clues) 30 is above"),
        (BankQuery(metric="se", min_score=5.0, max_score=4.5), "max_score (--score-max) 4.5"),
    ],
)
def test_a_range_that_no_puzzle_can_match_is_refused(
    bank: PuzzleBank, query: BankQuery, why: str
) -> None:
    """An empty range is a mistake, not an empty answer (the CLI: exit 2); an
    equal bound is a range of one value, and is kept."""
    bank.add(parse_line(EASY))
    with pytest.raises(BankError, match=re.escape(why)):
        bank.query(query)
    clues = parse_line(EASY).clue_count
    assert len(bank.query(BankQuery(min_clues=clues, max_clues=clues))) == 1


def test_query_minimal_symmetry_level_not_exported(bank: PuzzleBank, tmp_path: Path) -> None:
    easy = parse_line(EASY)
    assert "rot180" in pattern_symmetries(easy)
    seventeen = [parse_line(s) for s in load_lines("17_clue.txt", limit=6)]
    res = bank.add_many([easy, *seventeen], generator="mix")
    assert all(r.added for r in res)
    ids = [r.id for r in res]
    assert bank.get(ids[0]).minimal is False  # the classic example has removable clues
    for i, pid in enumerate(ids):
        bank.add_rating(pid, FakeRating("rounds", float(i), "Hard" if i % 2 else "Easy", i % 2))

    hard = BankQuery(limit=20, minimal=True, metric="rounds", level="hard", not_exported=True)
    picked = bank.query(hard)
    assert [e.id for e in picked] == [pid for i, pid in enumerate(ids) if i % 2 and i > 0]
    assert all(e.ratings["rounds"][1] == "Hard" for e in picked)
    assert bank.count(BankQuery(symmetry="rot180")) >= 1
    assert bank.count(BankQuery(min_clues=18)) == 1
    by_score = bank.query(BankQuery(metric="rounds", order="-score", limit=2))
    assert [e.ratings["rounds"][0] for e in by_score] == [6.0, 5.0]

    out = tmp_path / "out.txt"
    assert bank.export(picked[:2], out, batch="book-1") == 2
    assert out.read_text().splitlines() == [e.puzzle.to_line() for e in picked[:2]]
    remaining = bank.query(hard)
    assert [e.id for e in remaining] == [e.id for e in picked[2:]]
    assert bank.count(BankQuery(not_in_batch="book-2")) == len(ids)
    st = bank.stats()
    assert st["puzzles"] == 7 and st["exported"] == 2 and st["clues"][17] == 6


def test_values_never_enter_sql(bank: PuzzleBank) -> None:
    evil = "x'); DROP TABLE puzzles; --"
    bank.add(parse_line(EASY), generator=evil, check_minimal=False)
    assert bank.count(BankQuery(generator=evil)) == 1
    text, params = BankQuery(level=evil, metric=evil).sql()
    assert evil not in text and evil in params
    with pytest.raises(BankError, match="unknown metric"):  # a name nothing can have
        bank.count(BankQuery(level=evil, metric=evil))
    assert len(bank) == 1
    with pytest.raises(BankError):
        BankQuery(symmetry=evil).sql()
    with pytest.raises(BankError):
        BankQuery(order=evil).sql()
    with pytest.raises(BankError):
        BankQuery(level="Hard").sql()  # a level needs a metric


def test_other_geometries_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    x = Geometry.x_sudoku(4)
    solution = Puzzle([1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3], x)
    with PuzzleBank(path) as bank:
        r = bank.add(solution.without(range(0, 16, 2)))
        assert r.added
    with PuzzleBank(path) as bank:
        e = bank.get(r.id)
        assert e.puzzle.geometry == x and e.solution == solution
        assert bank.count(BankQuery(geometry="x-4x4")) == 1
    bad = tmp_path / "not.db"
    bad.write_text("hello, this is not SQLite" * 100)
    with pytest.raises(BankError):
        PuzzleBank(bad)


def test_rate_with_the_metrics_module(bank: PuzzleBank) -> None:
    pytest.importorskip("csp_sudoku.metrics")
    bank.add_many([parse_line(s) for s in load_lines("17_clue.txt", limit=3)])
    assert bank.rate("oracle", seed=1, runs=2) == 3
    assert bank.rate("oracle", seed=1, runs=2) == 0  # already rated
    e = bank.query(BankQuery(limit=1))[0]
    assert "oracle" in e.ratings
    assert bank.count(BankQuery(metric="oracle", level=e.ratings["oracle"][1])) >= 1


def test_cli_bank_add_query_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from csp_sudoku.cli import main

    db = str(tmp_path / "cli.db")
    lines = load_lines("17_clue.txt", limit=4)
    iso = random_isomorphism(1).apply(parse_line(lines[0])).to_line()
    src = tmp_path / "in.txt"
    src.write_text("\n".join([*lines, iso, "." * 81]) + "\n")
    # the empty grid is not unique: exit 1, as every command says it (2 is for bad lines)
    assert main(["bank", "add", db, str(src), "--generator", "royle"]) == 1
    out = capsys.readouterr()
    assert "added 4, duplicates 1, skipped 1 (1 not unique, 0 bad)" in out.err  # a summary
    bad = tmp_path / "bad.txt"
    bad.write_text("x" * 81 + "\n" + "." * 81 + "\n")
    assert main(["bank", "add", db, str(bad)]) == 2
    assert "skipped 2 (1 not unique, 1 bad)" in capsys.readouterr().err
    assert main(["bank", "query", db, "--minimal", "--min-clues", "17", "-n", "3"]) == 0
    assert capsys.readouterr().out.splitlines() == lines[:3]
    book = tmp_path / "book.txt"
    args = ["bank", "export", db, "-o", str(book), "--batch", "b1", "-n", "2", "--not-exported"]
    assert main(args) == 0
    assert main(args) == 0
    capsys.readouterr()
    assert main(["bank", "stats", db]) == 0
    assert "puzzles: 4 (minimal 4, exported 4)" in capsys.readouterr().out
    assert book.read_text().splitlines() == lines[2:4]  # the second export skipped the first two
    # contradicting filters are refused (--minimal --not-minimal answered as --minimal)
    assert main(["bank", "query", db, "--minimal", "--not-minimal"]) == 2
    assert "not allowed with argument --minimal" in capsys.readouterr().err
    # "--order -score" as the help writes it (argparse took -score for an option)
    assert main(["bank", "rate", db, "-m", "rounds", "--seed", "1", "-q"]) == 0
    capsys.readouterr()
    assert main(["bank", "query", db, "-m", "rounds", "--order=-score"]) == 0
    hardest_first = capsys.readouterr().out
    assert main(["bank", "query", db, "-m", "rounds", "--order", "-score"]) == 0
    assert capsys.readouterr().out == hardest_first and len(hardest_first.splitlines()) == 4


def test_an_interrupted_bank_rate_keeps_what_it_rated(bank: PuzzleBank) -> None:
    """Ratings were stored only once all were made: an interrupted ``bank rate`` lost
    them all. Now each is stored as it comes, and the next run rates the rest."""
    bank.add_many([parse_line(s) for s in load_lines("top1465.txt", limit=12)])
    seen: list[tuple[int, int]] = []

    def stop_after_five(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        bank.rate("rounds", progress=stop_after_five)
    assert seen == [(k, 12) for k in range(1, 6)]
    assert bank.count(BankQuery(metric="rounds")) == 5
    assert bank.rate("rounds") == 7  # the rest
    assert bank.count(BankQuery(metric="rounds")) == 12


def test_cli_bank_quiet_and_short_metric_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from csp_sudoku.cli import main

    db = tmp_path / "b.db"
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(load_lines("top1465.txt", limit=3)) + "\n", encoding="utf-8")
    assert main(["bank", "add", str(db), str(puzzles), "-q"]) == 0
    assert main(["bank", "rate", str(db), "-m", "rounds", "-q"]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == ("", "")
    assert main(["bank", "query", str(db), "-m", "rounds", "--format", "jsonl"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 3 and all('"rounds"' in r for r in rows)


def test_cli_bank_rate_takes_several_metrics_and_a_query_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bank rate -m rounds -m hsolve`` rated with hsolve alone (the last option won,
    silently) and ``-m rounds,hsolve`` was an unknown metric. Now each metric of a
    comma list or a repeated option is rated in turn, an unknown one is refused
    before any rating, and a query given two metrics is refused rather than using
    the last."""
    from csp_sudoku.cli import main

    db = tmp_path / "b.db"
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(load_lines("top1465.txt", limit=3)) + "\n", encoding="utf-8")
    assert main(["bank", "add", str(db), str(puzzles), "-q"]) == 0
    assert main(["bank", "rate", str(db), "-m", "rounds", "-m", "oracle,nope"]) == 2
    assert "unknown metric 'nope'" in capsys.readouterr().err
    with PuzzleBank(db) as bank:
        assert bank.rated_metrics() == []  # refused before rounds was rated
    assert (
        main(["bank", "rate", str(db), "-m", "rounds,hsolve", "-m", "rounds", "--seed", "1"]) == 0
    )
    assert capsys.readouterr().err.splitlines() == [  # summaries: on stderr
        "rated 3 puzzles with rounds",
        "rated 3 puzzles with hsolve",
    ]
    with PuzzleBank(db) as bank:
        assert sorted(bank.rated_metrics()) == ["hsolve", "rounds"]
        assert bank.count(BankQuery(metric="hsolve")) == bank.count(BankQuery(metric="rounds")) == 3
    assert (
        main(["bank", "query", str(db), "-m", "rounds", "-m", "hsolve", "--order", "-score"]) == 2
    )
    assert "a selection is by one metric, got rounds, hsolve" in capsys.readouterr().err


def test_iter_query_reads_each_entry_when_asked(
    bank: PuzzleBank, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bank query``/``export`` held every entry at once (about 1.1 KB each: a million
    would take a gigabyte); ``iter_query`` reads each when asked, the query checked first."""
    bank.add_many([parse_line(s) for s in load_lines("top1465.txt", limit=5)])
    reads: list[int] = []
    get = bank.get
    monkeypatch.setattr(bank, "get", lambda i: (reads.append(i), get(i))[1])
    entries = bank.iter_query(BankQuery(order="clues"))
    assert reads == []
    first = next(entries)
    assert len(reads) == 1
    rest = list(entries)
    assert [e.id for e in [first, *rest]] == [e.id for e in bank.query(BankQuery(order="clues"))]
    with pytest.raises(BankError):
        bank.iter_query(BankQuery(order="nope"))  # at the call, not when read


def test_arguments_that_are_no_bank_query_or_batch_are_the_projects_errors() -> None:
    """PuzzleBank(None), BankQuery(limit="5") and add_each(None) raised TypeError; a
    puzzle line given as the batch was read letter by letter."""
    from csp_sudoku.core.errors import ArgumentError

    with pytest.raises(BankError, match="a bank is a file path"):
        PuzzleBank(None)  # type: ignore[arg-type]
    with PuzzleBank() as bank:
        with pytest.raises(BankError, match="limit must be a whole number >= 0, got '5'"):
            bank.query(BankQuery(limit="5"))  # type: ignore[arg-type]
        for batch in (None, load_lines("17_clue.txt", limit=1)[0]):
            with pytest.raises(ArgumentError, match="an iterable of puzzles"):
                bank.add_each(batch)  # type: ignore[arg-type]
        assert len(bank) == 0
        assert len(bank.add_many(load_lines("17_clue.txt", limit=2))) == 2
