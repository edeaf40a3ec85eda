"""The bank at scale: every statement served by an index, old banks upgraded, batches,
empty answers that say why, score orders without --metric, signals that stop a query.

Speed itself is measured by ``benchmarks/bench_bank.py``, never asserted here: the
plans are what a test can check on a small bank and what decides the time on a big one.
"""

from __future__ import annotations

import lzma
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from csp_sudoku.cli import main
from csp_sudoku.core.errors import BankUpgradeWarning, NotUniqueError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.tools import bank as bank_module
from csp_sudoku.tools.bank import (
    INDEXES,
    BankError,
    BankQuery,
    PuzzleBank,
    dedup_key,
    dedup_keys,
    key_hash,
)
from csp_sudoku.tools.canonical import random_isomorphism
from tests.conftest import load_lines
from tests.helpers import run_on_an_old_bank

ROOT = Path(__file__).resolve().parents[1]
NINE = Geometry.standard(9)
LINES = load_lines("top1465.txt", limit=24)

#: A bank written by the version before the bank had its indexes (commit e6ce7ad,
#: schema version 2), by that version's own code: tests/data/make_bank_v2.py says
#: how, and what it holds (the first five of LINES, rated with se, puzzle 1 twice).
OLD_BANK = ROOT / "tests" / "data" / "bank_v2.db.xz"

#: The statement of ``bank query --metric M --order -score -n N`` in that version.
OLD_TOP_N = (
    "SELECT p.id FROM puzzles p WHERE EXISTS (SELECT 1 FROM ratings r WHERE r.puzzle_id = p.id "
    "AND r.metric = ?) ORDER BY (SELECT MAX(r3.score) FROM ratings r3 WHERE r3.puzzle_id = p.id "
    "AND r3.metric = ?) DESC, p.id LIMIT ?"
)


@dataclass
class Rated:
    """A rating with the fields the bank stores."""

    metric: str
    score: float
    level: str | None
    level_rank: int | None = None
    parameters: dict[str, Any] = field(default_factory=dict)
    runs: int | None = None
    seed: int | None = None
    version: str = "test"


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _rated_bank(path: Path, metrics: tuple[str, ...] = ("se", "rounds")) -> list[int]:
    """A bank of the 24 puzzles, each rated with ``metrics`` (score: its place, so the
    newest is the hardest), two exported; the ids."""
    with PuzzleBank(path) as bank:
        ids = [r.id for r in bank.add_many(LINES, check_minimal=False, generator="g")]
        for metric in metrics:
            levels = ("Easy", "Hard")
            bank.add_ratings(
                (pid, Rated(metric, float(k), levels[k % 2], k % 2)) for k, pid in enumerate(ids)
            )
        bank.mark_exported(ids[:2], "b1")
    return ids


# ---------------------------------------------------------------------- every statement


#: Query shapes the command line makes (a filter each, alone and with a score order).
CLI_QUERIES = [
    BankQuery(),
    BankQuery(limit=10, order="clues"),
    BankQuery(limit=10, metric="se"),
    BankQuery(limit=10, metric="se", order="-score"),
    BankQuery(limit=10, metric="se", order="score"),
    BankQuery(limit=10, metric="se", level="hard", order="-score"),
    BankQuery(limit=10, metric="se", min_score=3.0, max_score=9.0, order="-score"),
    BankQuery(limit=10, metric="se", level="Hard"),
    BankQuery(limit=10, metric="se", min_score=3.0),
    BankQuery(limit=10, metric="se", unrated=True),
    BankQuery(limit=10, minimal=True),
    BankQuery(limit=10, minimal=False, order="clues"),
    BankQuery(limit=10, min_clues=22, max_clues=26),
    BankQuery(limit=10, min_clues=22, order="clues"),
    BankQuery(limit=10, generator="g"),
    BankQuery(limit=10, geometry="9x9"),
    BankQuery(limit=10, symmetry="rot180"),
    BankQuery(limit=10, symmetry="none"),
    BankQuery(limit=10, not_exported=True),
    BankQuery(limit=10, not_in_batch="b1"),
    BankQuery(
        limit=10,
        metric="rounds",
        level="Easy",
        minimal=False,
        symmetry="none",
        generator="g",
        geometry="9x9",
        not_exported=True,
        order="-score",
    ),
]


def _plan(db: sqlite3.Connection, sql: str, params: Any = ()) -> list[str]:
    return [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql, params)]


#: A plan line that reads a whole table of the bank (not an index, not a row by id).
_TABLE_SCAN = re.compile(r"^SCAN (ratings|r|r2|symmetries|s|exports|e|e2)\b(?!.* INDEX)")


@pytest.mark.parametrize("query", CLI_QUERIES, ids=lambda q: repr(q)[10:70])
def test_every_query_shape_reads_an_index(tmp_path: Path, query: BankQuery) -> None:
    """A score order reads its index from the best end (no sort, no scan of ratings):
    the top n of a million costs n entries. No shape scans ratings, symmetries or
    exports; puzzles are read in id order (stopping at the limit) or by an index."""
    _rated_bank(tmp_path / "b.db")
    with PuzzleBank(tmp_path / "b.db") as bank:
        text, params = bank._sql(query)
        plan = _plan(bank._db.db, text, params)
        assert len(bank.query(query)) <= (query.limit or 24)
    assert not [line for line in plan if _TABLE_SCAN.match(line)], plan
    if query.order in ("score", "-score"):
        index = "ratings_by_level" if query.level else "ratings_by_score"
        assert plan[0].startswith(f"SEARCH r USING COVERING INDEX {index} (metric=?"), plan
        assert not any("TEMP B-TREE" in line for line in plan), plan
    if query.order == "clues":
        assert "puzzles_by_clues" in plan[0], plan
    elif query.minimal is not None and query.order == "id":
        assert plan[0] == "SEARCH p USING COVERING INDEX puzzles_by_minimal (minimal=?)", plan


def test_every_statement_of_a_session_reads_an_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every SELECT the command line sends (traced as SQLite runs it, values inlined) in a
    session of add, query, export and stats: no plain scan of ratings, symmetries or
    exports, and no sort of ratings but those of one puzzle."""
    sent: list[str] = []
    connect = sqlite3.connect

    def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        db = connect(*args, **kwargs)
        db.set_trace_callback(sent.append)
        return db

    db_path = tmp_path / "b.db"
    source = tmp_path / "in.txt"
    source.write_text("\n".join(LINES) + "\n")
    monkeypatch.setattr(sqlite3, "connect", traced)
    assert main(["bank", "add", str(db_path), str(source), "-q", "--no-minimal-check"]) == 0
    monkeypatch.setattr(sqlite3, "connect", connect)
    with PuzzleBank(db_path) as bank:
        ids = bank.ids()
        bank.add_ratings((pid, Rated("se", float(k), "Hard")) for k, pid in enumerate(ids))
    monkeypatch.setattr(sqlite3, "connect", traced)
    for args in (
        ["query", "--metric", "se", "--order", "-score", "-n", "3"],
        ["query", "--order=-score", "-n", "3", "--level", "hard"],
        ["query", "--minimal", "--not-exported", "-n", "3"],
        ["query", "--metric", "se", "--score-min", "3", "--format", "jsonl"],
        ["export", "-o", str(tmp_path / "o.txt"), "--metric", "se", "--level", "Hard", "-n", "4"],
        ["stats"],
    ):
        code, _, err = _run(["bank", args[0], str(db_path), *args[1:]], capsys)
        assert code in (0, 1), (args, err)
    monkeypatch.setattr(sqlite3, "connect", connect)
    selects = {s for s in sent if re.match(r"\s*(SELECT|WITH)", s) and "sqlite_master" not in s}
    assert len(selects) > 20
    plain = sqlite3.connect(db_path)
    for statement in selects:
        plan = _plan(plain, statement)
        assert not [line for line in plan if _TABLE_SCAN.match(line)], (statement, plan)
        one_puzzle = re.search(r"WHERE puzzle_id = \d+", statement)  # its few ratings sorted
        if "FROM ratings" in statement and "GROUP BY" not in statement and not one_puzzle:
            assert not any("TEMP B-TREE" in line for line in plan), (statement, plan)
    plain.close()


def test_stats_and_the_skip_scans_count_by_index(tmp_path: Path) -> None:
    """stats counts from indexes (no table read); the rated metrics and levels are one
    index seek each (a "skip scan"), whatever the number of ratings."""
    _rated_bank(tmp_path / "b.db")
    with PuzzleBank(tmp_path / "b.db") as bank:
        db = bank._db.db
        for statement, params in (
            ("SELECT COUNT(*) FROM puzzles", ()),
            ("SELECT COUNT(*) FROM puzzles WHERE minimal = 1", ()),
            ("SELECT clues, COUNT(*) FROM puzzles GROUP BY clues ORDER BY clues", ()),
            (
                "SELECT metric, level, COUNT(*) FROM ratings INDEXED BY ratings_by_level "
                "GROUP BY metric, level",
                (),
            ),
        ):
            plan = _plan(db, statement, params)
            assert all("INDEX" in line for line in plan), (statement, plan)
            assert not any("TEMP B-TREE" in line for line in plan), (statement, plan)
        assert bank.rated_metrics() == ["rounds", "se"]
        assert bank.levels("se") == ["Easy", "Hard"]
        st = bank.stats()
        assert st["levels"] == {"rounds": {"Easy": 12, "Hard": 12}, "se": {"Easy": 12, "Hard": 12}}
        assert st["puzzles"] == 24 and st["exported"] == 2


def test_score_orders_are_reverses_of_each_other(tmp_path: Path) -> None:
    """``-score``: highest first, equal scores newest first; ``score`` is the same list
    reversed (one index read in either direction)."""
    with PuzzleBank(tmp_path / "b.db") as bank:
        ids = [r.id for r in bank.add_many(LINES[:6], check_minimal=False)]
        scores = [2.0, 5.0, 5.0, 1.0, 5.0, 3.0]
        bank.add_ratings((pid, Rated("se", s, None)) for pid, s in zip(ids, scores, strict=True))
        down = bank.ids(BankQuery(metric="se", order="-score"))
        up = bank.ids(BankQuery(metric="se", order="score"))
    assert down == [ids[4], ids[2], ids[1], ids[5], ids[0], ids[3]]
    assert up == down[::-1]


# ---------------------------------------------------------------------- old banks


def _old_v2_bank(path: Path) -> None:
    """A copy of the bank of :data:`OLD_BANK` at ``path``: five puzzles, six ratings."""
    path.write_bytes(lzma.decompress(OLD_BANK.read_bytes()))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("2",)
        assert [r[0] for r in db.execute("SELECT puzzle FROM puzzles ORDER BY id")] == LINES[:5]


def test_an_old_bank_is_upgraded_in_place_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    _old_v2_bank(path)
    with sqlite3.connect(path) as db:  # the earlier version's top n read, for each puzzle,
        plan = _plan(db, OLD_TOP_N, ("se", "se", 2))  # every rating of the metric, then sorted
        assert plan[0].startswith("SCAN p") and "USE TEMP B-TREE FOR ORDER BY" in plan
        assert "SEARCH r USING INDEX ratings_by_metric (metric=?)" in plan
    out, err = run_on_an_old_bank(["bank", "query", str(path), "-m", "se", "--order", "-score"])
    assert "5 puzzles, 6 ratings" in err
    assert out.splitlines()[0] == LINES[0]  # its latest rating, 9.5, is the highest
    assert "rewrites its puzzles table once" in err
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert set(INDEXES) <= names and "ratings_by_metric" not in names
        assert "sqlite_autoindex_puzzles_1" not in names  # the keys' text is not indexed
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("3",)
        assert db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] == 5
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = db.execute(
            "SELECT id, key, key_hash, puzzle, generator, seed FROM puzzles"
        ).fetchall()
    assert [(r[0], r[3], r[4], r[5]) for r in rows] == [
        (k + 1, line, "old", k) for k, line in enumerate(LINES[:5])
    ]
    assert all(key == dedup_key(parse_line(p)) and h == key_hash(key) for _, key, h, p, *_ in rows)
    code, _, err = _run(["bank", "stats", str(path)], capsys)  # upgraded once: no more notes
    assert code == 0 and err == ""
    with PuzzleBank(path) as bank:  # an isomorph is found, and is a duplicate
        iso = random_isomorphism(9).apply(parse_line(LINES[2]))
        assert bank.find(iso) == bank.get(3) and bank.get(3).ratings == {"se": (2.0, "Hard")}
        assert not bank.add(iso).added and bank.add(LINES[5]).id == 6


def test_keys_that_share_a_hash_are_told_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key index holds 64-bit hashes of the keys; where two keys share one, the
    keys themselves decide (here every key has the same hash)."""
    monkeypatch.setattr(bank_module, "key_hash", lambda key: 7)
    with PuzzleBank(tmp_path / "b.db") as bank:
        results = bank.add_many(LINES[:4], check_minimal=False)
        assert [(r.id, r.added) for r in results] == [(1, True), (2, True), (3, True), (4, True)]
        iso = random_isomorphism(5).apply(parse_line(LINES[2]))
        assert bank.find(iso) == bank.get(3) and bank.find(LINES[4]) is None
        assert (bank.add(iso).id, bank.add(iso).added) == (3, False)
        hashes = bank._db.all("SELECT DISTINCT key_hash FROM puzzles")
    assert hashes == [(7,)]


def test_the_library_warns_before_it_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _old_v2_bank(path)
    with pytest.warns(BankUpgradeWarning, match="without the indexes its queries need"):
        bank = PuzzleBank(path, readonly=True)
    with bank:
        assert bank.get(1).ratings == {"se": (9.5, "Fiendish")}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PuzzleBank(path).close()  # current now: nothing to say


def test_an_old_bank_that_cannot_be_written_is_read_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    _old_v2_bank(path)
    connect = sqlite3.connect

    def read_only(database: str, **kwargs: Any) -> sqlite3.Connection:
        return connect(f"file:{database}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.warns(BankUpgradeWarning) as said, PuzzleBank(path, readonly=True) as bank:
        assert len(bank.query(BankQuery(metric="se", order="-score"))) == 5
        assert bank.find(LINES[3]) == bank.get(4)  # found by the old key column
    assert "cannot be added to a file opened read-only" in str(said[-1].message)
    with pytest.warns(BankUpgradeWarning), pytest.raises(BankError, match="readonly"):
        PuzzleBank(path)  # a writer needs the indexes: refused, not slow


# ---------------------------------------------------------------------- adding in batches


def test_dedup_keys_in_threads_are_the_keys_one_by_one() -> None:
    base = [parse_line(line) for line in LINES[:8]]
    puzzles = [random_isomorphism(s).apply(base[s % 8]) for s in range(600)]
    cells = np.stack([p.cells for p in puzzles])
    keys = dedup_keys(cells, NINE, threads=2)
    assert keys == [dedup_key(p) for p in puzzles]
    assert len(set(keys)) == 8
    x = Geometry.x_sudoku(4)
    assert dedup_keys(np.zeros((1, 16), np.int8), x) == ["x-4x4:" + "." * 16]
    stop = threading.Event()
    stop.set()  # an interrupted bank add: the keys ahead stop at the next block
    with pytest.raises(KeyboardInterrupt):
        dedup_keys(cells, NINE, threads=2, stop=stop)


def test_the_pattern_symmetries_are_the_generators_names() -> None:
    from csp_sudoku.generators.symmetry import SYMMETRIES
    from csp_sudoku.tools.bank import PATTERN_SYMMETRIES

    assert tuple(name for name in SYMMETRIES if name != "none") == PATTERN_SYMMETRIES


def test_add_each_answers_each_puzzle_in_place(tmp_path: Path) -> None:
    """A batch with an isomorph of a banked puzzle, a repeat inside the batch and a
    puzzle with no unique solution: one answer each, in order, the rest added."""
    iso = random_isomorphism(3).apply(parse_line(LINES[0])).to_line()
    with PuzzleBank(tmp_path / "b.db") as bank:
        first = bank.add(LINES[0])
        batch = [LINES[1], iso, "." * 81, LINES[2], LINES[1]]
        results = bank.add_each(
            batch,
            ratings=[[Rated("se", 4.0, "Hard")], [Rated("se", 1.0, "Easy")], [], [], []],
        )
        assert isinstance(results[2], NotUniqueError)
        assert [(r.id, r.added) for r in results if not isinstance(r, NotUniqueError)] == [
            (2, True), (first.id, False), (3, True), (2, False),
        ]  # fmt: skip
        assert bank.get(first.id).ratings == {"se": (1.0, "Easy")}
        # a record's rating never replaces one the puzzle has; add_rating does
        bank.add_each([LINES[1]], ratings=[[Rated("se", 7.0, "Fiendish")]])
        assert bank.get(2).ratings == {"se": (4.0, "Hard")}
        bank.add_rating(2, Rated("se", 7.0, "Fiendish"))
        assert bank.get(2).ratings == {"se": (7.0, "Fiendish")}
        with pytest.raises(NotUniqueError):  # add_many stops the whole batch
            bank.add_many([LINES[3], "." * 81])
        assert len(bank) == 3
        arr = np.stack([parse_line(line).cells for line in LINES[3:6]])
        assert all(r.added for r in bank.add_many(arr, geometry=NINE))  # type: ignore[union-attr]


def test_a_batch_prepared_before_another_is_written_sees_its_puzzles(tmp_path: Path) -> None:
    """``bank add`` prepares a batch (look-ups, facts) before it writes the one before:
    a puzzle that batch adds is a duplicate, whether one write came in between
    (checked in memory), two (looked up again), or a commit (looked up in the file)."""
    iso = [random_isomorphism(k).apply(parse_line(line)) for k, line in enumerate(LINES[:6])]
    with PuzzleBank(tmp_path / "b.db") as bank, bank.transaction() as renew:
        first = bank.prepare(LINES[:2], check_minimal=False)
        second = bank.prepare([iso[1], LINES[2]], check_minimal=False)
        third = bank.prepare([iso[0], iso[2], LINES[3]], check_minimal=False)
        assert [(r.id, r.added) for r in bank.write(first)] == [(1, True), (2, True)]
        assert [(r.id, r.added) for r in bank.write(second)] == [(2, False), (3, True)]
        assert [(r.id, r.added) for r in bank.write(third)] == [(1, False), (3, False), (4, True)]
        fourth = bank.prepare([LINES[4]], check_minimal=False)
        fifth = bank.prepare([iso[4], LINES[5]], check_minimal=False)
        assert [(r.id, r.added) for r in bank.write(fourth)] == [(5, True)]
        assert renew(0.0)  # a new transaction: another process might have written
        assert [(r.id, r.added) for r in bank.write(fifth)] == [(5, False), (6, True)]
        assert len(bank) == 6
        assert bank._db.all("SELECT key FROM puzzles GROUP BY key HAVING COUNT(*) > 1") == []


def test_bank_add_finds_isomorphs_across_its_batches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of two lines: each isomorph comes one, two or three batches after its
    puzzle, so that it meets every way a batch is checked against those before."""
    from csp_sudoku.cli import bank as bank_cli

    monkeypatch.setattr(bank_cli, "ADD_BATCH", 2)
    iso = [random_isomorphism(k).apply(parse_line(line)).to_line() for k, line in enumerate(LINES)]
    lines = [LINES[0], LINES[1], iso[0], LINES[2], iso[1], LINES[3], iso[2], iso[3], LINES[4]]
    source = tmp_path / "in.txt"
    source.write_text("\n".join(lines) + "\n")
    path = tmp_path / "b.db"
    code, _, err = _run(["bank", "add", str(path), str(source), "--no-minimal-check"], capsys)
    assert code == 0 and "added 5, duplicates 4" in err
    with PuzzleBank(path) as bank:
        assert [e.puzzle.to_line() for e in bank.query()] == LINES[:5]


def test_a_transaction_commits_together_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    with PuzzleBank(path) as bank:
        with pytest.raises(KeyboardInterrupt), bank.transaction() as renew:
            bank.add_many(LINES[:2], check_minimal=False)
            assert not renew(60.0)
            raise KeyboardInterrupt
        assert len(bank) == 0
        with bank.transaction() as renew:
            bank.add_many(LINES[:2], check_minimal=False)
            assert renew(0.0)  # committed: another process sees them now
            with PuzzleBank(path, readonly=True) as other:
                assert len(other) == 2
            bank.add_many(LINES[2:4], check_minimal=False)
        assert len(bank) == 4


def test_bank_add_skips_a_record_with_a_bad_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(
        f'{{"puzzle": "{LINES[0]}", "metric": "se", "score": "NaN"}}\n'
        f'{{"puzzle": "{LINES[1]}", "metric": "se", "score": 4.5, "level": "Hard"}}\n'
    )
    code, out, err = _run(["bank", "add", str(tmp_path / "b.db"), str(source)], capsys)
    assert code == 2 and out == ""
    assert "in.jsonl:1: bad rating (score 'NaN' of se is not a finite number)" in err
    assert "added 1, duplicates 0, skipped 1 (0 not unique, 1 bad)" in err


# ---------------------------------------------------------------------- empty answers


def test_an_empty_answer_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.db"
    with PuzzleBank(path):
        pass
    code, out, err = _run(["bank", "query", str(path)], capsys)
    assert (code, out) == (1, "")
    assert f"{path} holds no puzzles; add some with `csp-sudoku bank add {path} FILE`" in err
    with PuzzleBank(path) as bank:
        bank.add_many(LINES[:3], check_minimal=False)
    code, out, err = _run(["bank", "query", str(path), "--metric", "se"], capsys)
    assert (code, out) == (1, "")
    assert (
        f"no puzzle in {path} is rated with se; run `csp-sudoku bank rate {path} --metric se`"
        in err
    )
    code, out, err = _run(["bank", "query", str(path), "--min-clues", "80"], capsys)
    assert (code, out) == (1, "")
    assert f"no puzzle matches the selection ({path} holds 3 puzzles)" in err
    code, out, err = _run(["bank", "query", str(path), "-n", "0"], capsys)
    assert (code, out, err) == (0, "", "")  # nothing asked for, nothing to explain
    book = tmp_path / "book.txt"
    code, _, err = _run(["bank", "export", str(path), "-o", str(book), "-m", "rounds"], capsys)
    assert code == 1 and "is rated with rounds" in err and not book.exists()
    code, _, err = _run(["bank", "query", str(path), "--metric", "nope"], capsys)
    assert code == 2 and "unknown metric 'nope'" in err  # a typing mistake stays exit 2


def test_rate_with_nothing_left_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "b.db"
    _rated_bank(path, ("rounds",))
    code, out, err = _run(["bank", "rate", str(path), "-m", "rounds"], capsys)
    assert code == 0 and out == "" and "rated 0 puzzles with rounds" in err
    assert "every selected puzzle is rated with rounds already" in err


# ---------------------------------------------------------------------- orders without --metric


def test_a_score_order_without_metric_uses_the_only_one_rated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "b.db"
    code, out, err = _run(["bank", "query", str(path), "--order", "clues"], capsys)
    assert code == 2 and "no such bank" in err
    with PuzzleBank(path) as bank:
        bank.add_many(LINES[:4], check_minimal=False)
    code, out, err = _run(["bank", "query", str(path), "--order", "-score"], capsys)
    assert (code, out) == (1, "")
    assert "is rated, so --order -score selects none" in err
    code, out, _ = _run(["bank", "query", str(path), "--order", "clues"], capsys)
    clues = [81 - line.count(".") for line in out.splitlines()]
    assert code == 0 and clues == sorted(clues) and len(clues) == 4
    ids = _rated_bank(tmp_path / "one.db", ("se",))
    code, out, err = _run(["bank", "query", str(tmp_path / "one.db"), "--order", "-score"], capsys)
    assert code == 0 and out.splitlines() == LINES[::-1]
    assert "--order -score with the ratings of se, the only metric rated" in err
    code, out, _ = _run(["bank", "query", str(tmp_path / "one.db"), "--level", "easy"], capsys)
    assert code == 0 and out.splitlines() == LINES[::2]
    _rated_bank(tmp_path / "two.db")
    code, out, err = _run(["bank", "query", str(tmp_path / "two.db"), "--order=-score"], capsys)
    assert (code, out) == (2, "")
    assert "--order -score needs --metric: " in err and "has ratings of rounds, se" in err
    assert len(ids) == 24
    with pytest.raises(BankError, match="--order -score needs a metric"):
        BankQuery(order="-score").sql()


# ---------------------------------------------------------------------- signals


def test_a_signal_stops_a_long_statement(tmp_path: Path) -> None:
    """The progress handler lets a signal's handler raise inside one long statement,
    which ends as KeyboardInterrupt (a statement was deaf to signals until it ended)."""

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        with PuzzleBank(tmp_path / "b.db") as bank:
            signal.setitimer(signal.ITIMER_REAL, 0.2)
            with pytest.raises(KeyboardInterrupt) as stopped:
                bank._db.all(  # tens of seconds if it ran to its end
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                    "WHERE x < 1000000000) SELECT COUNT(*) FROM c"
                )
            # raised for the statement SQLite stopped, not by the handler after it ended
            assert isinstance(stopped.value.__context__, sqlite3.OperationalError)
            assert len(bank) == 0  # the connection goes on
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_sigterm_ends_bank_query_within_a_second(tmp_path: Path) -> None:
    """``timeout`` could not stop a query of a big bank (515 s until killed): the
    command line's SIGTERM handler now runs inside the statement. The query here
    is made endless on purpose (its SQL replaced) so that only the signal ends it (in
    well under a second here; the time is not asserted)."""
    path = tmp_path / "b.db"
    with PuzzleBank(path) as bank:
        bank.add_many(LINES[:2], check_minimal=False)
    script = textwrap.dedent(
        f"""
        import sys
        from csp_sudoku.tools import bank
        endless = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                   "SELECT x FROM c WHERE x < 0")
        bank.PuzzleBank._sql = lambda self, query: (endless, [])
        from csp_sudoku.cli import main
        print("started", flush=True)
        sys.exit(main(["bank", "query", {str(path)!r}]))
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as proc:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "started"
        time.sleep(1.0)  # inside the statement by now
        assert proc.poll() is None
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)  # without the handler: never (TimeoutExpired)
        took = time.monotonic() - sent
    assert proc.returncode == 143, took
    assert "csp-sudoku: terminated" in err
