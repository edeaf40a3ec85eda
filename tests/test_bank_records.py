"""The bank stores facts it computed and the provenance records give, and refuses
what would lose data: wrong claims in records, old schemas, concurrent writers,
foreign and damaged files, an export over the bank itself.

Verdicts (minimal or not, symmetric or not) are compared with
:mod:`tests.independent`, which shares no code with the library.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from csp_sudoku.cli import main
from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.core.io import parse_line
from csp_sudoku.tools.bank import SCHEMA_VERSION, BankQuery, PuzzleBank
from tests.conftest import load_lines
from tests.helpers import run_on_an_old_bank
from tests.independent import count_solutions

#: 17-clue puzzles: each is minimal.
SEVENTEEN = load_lines("17_clue.txt", limit=4)


def _cells(line: str) -> list[int]:
    return [0 if ch in ".0" else int(ch) for ch in line]


def independent_minimal(line: str) -> bool:
    """Minimal by the independent counter: no clue can go with the puzzle staying unique."""
    cells = _cells(line)
    for i, v in enumerate(cells):
        if v:
            cells[i] = 0
            unique = count_solutions(cells, 2) == 1
            cells[i] = v
            if unique:
                return False
    return True


def independent_rot180(line: str) -> bool:
    """Whether the clue pattern maps onto itself under a half turn (computed here)."""
    return all((line[i] == ".") == (line[80 - i] == ".") for i in range(81))


def with_extra_clue(line: str) -> str:
    """The puzzle with one more clue taken from its solution: unique, never minimal."""
    solution = parse_line(line)
    from csp_sudoku.api import solve

    full = solve(solution)
    assert full is not None
    k = line.index(".")
    return line[:k] + str(int(full.cells[k])) + line[k + 1 :]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _jsonl(path: Path, records: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------- facts are computed


def test_claimed_minimal_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = SEVENTEEN[:2] + [with_extra_clue(x) for x in SEVENTEEN[2:4]]
    truth = [independent_minimal(x) for x in lines]
    assert truth == [True, True, False, False]
    records = [{"puzzle": x, "minimal": True, "symmetry": "rot180", "seed": i}
               for i, x in enumerate(lines)]  # fmt: skip
    src = _jsonl(tmp_path / "in.jsonl", records)
    db = str(tmp_path / "bank.db")
    code, out, err = _run(["bank", "add", db, src], capsys)
    assert code == 0 and "added 4" in err
    wrong_sym = sum(not independent_rot180(x) for x in lines)
    assert f"minimal 2, symmetry {wrong_sym}" in err and "corrected" in err
    code, out, _ = _run(["bank", "stats", db], capsys)
    assert "(minimal 2," in out
    code, out, _ = _run(["bank", "query", db, "--minimal"], capsys)
    assert sorted(out.split()) == sorted(x for x, t in zip(lines, truth, strict=True) if t)
    code, out, _ = _run(["bank", "query", db, "--not-minimal"], capsys)
    assert sorted(out.split()) == sorted(x for x, t in zip(lines, truth, strict=True) if not t)
    code, out, _ = _run(["bank", "query", db, "--symmetry", "rot180"], capsys)
    assert sorted(out.split()) == sorted(x for x in lines if independent_rot180(x))


def test_generated_records_claims_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``generate --symmetry rot180 --minimal`` says minimal of every puzzle; the bank
    stores what the independent counter finds."""
    out = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "generate", "-n", "6", "--symmetry", "rot180",
         "--minimal", "--seed", "5", "--format", "jsonl", "-q"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    records = [json.loads(x) for x in out.splitlines()]
    records += [{"puzzle": x, "minimal": True} for x in SEVENTEEN[:2]]
    truth = {r["puzzle"]: independent_minimal(r["puzzle"]) for r in records}
    src = _jsonl(tmp_path / "g.jsonl", records)
    db = str(tmp_path / "bank.db")
    code, _, err = _run(["bank", "add", db, src], capsys)
    assert code == 0
    wrong = sum(r.get("minimal") is True and not truth[r["puzzle"]] for r in records)
    assert (f"minimal {wrong}" in err) == (wrong > 0), err
    code, out, _ = _run(["bank", "stats", db], capsys)
    assert f"(minimal {sum(truth.values())}," in out
    code, out, _ = _run(["bank", "query", db, "--minimal"], capsys)
    assert sorted(out.split()) == sorted(x for x, t in truth.items() if t)
    code, out, _ = _run(["bank", "query", db, "--symmetry", "rot180"], capsys)
    assert sorted(out.split()) == sorted(x for x in truth if independent_rot180(x))


def test_symmetry_none_selects_patterns_without_symmetry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "bank.db")
    with PuzzleBank(db) as bank:
        for x in SEVENTEEN:
            bank.add(x)
        want = sorted(e.puzzle.to_line() for e in bank.query() if not e.symmetries)
    code, out, _ = _run(["bank", "query", db, "--symmetry", "none"], capsys)
    assert code == 0 and sorted(out.split()) == want
    assert all(not independent_rot180(x) for x in want)


def test_no_minimal_check_stores_unknown_not_the_claim(tmp_path: Path) -> None:
    with PuzzleBank(tmp_path / "bank.db") as bank:
        res = bank.add(with_extra_clue(SEVENTEEN[0]), minimal=True, check_minimal=False)
        assert bank.get(res.id).minimal is None
        assert bank.count(BankQuery(minimal=True)) == 0


def test_add_takes_what_puzzlelike_documents(tmp_path: Path) -> None:
    line = SEVENTEEN[0]
    with PuzzleBank(tmp_path / "bank.db") as bank:
        assert bank.add(line).added
        assert not bank.add(np.array(_cells(line), dtype=np.int8)).added
        assert not bank.add(_cells(line)).added
        assert bank.find(line) is not None
        assert line in bank and _cells(line) in bank
        assert SEVENTEEN[1] not in bank and 5 not in bank and "...." not in bank
        with pytest.raises(ArgumentError, match=r"puzzle must be a Puzzle.*got int"):
            bank.add(1234)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="puzzle is not a puzzle"):
            bank.add("....")
        with pytest.raises(ArgumentError, match="solution"):
            bank.add(SEVENTEEN[1], solution=3.5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- provenance


def test_provenance_columns_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = {
        "puzzle": SEVENTEEN[0],
        "seed": 77,
        "method": "rg1",
        "derived_from": SEVENTEEN[1],
        "generator_version": "9.9",
    }
    db = str(tmp_path / "bank.db")
    assert _run(["bank", "add", db, _jsonl(tmp_path / "a.jsonl", [rec])], capsys)[0] == 0
    with PuzzleBank(db) as bank:
        (e,) = bank.query()
    assert (e.seed, e.method, e.generator, e.derived_from, e.generator_version) == (
        77, "rg1", "rg1", SEVENTEEN[1], "9.9",
    )  # fmt: skip
    code, out, _ = _run(["bank", "query", db, "--format", "jsonl"], capsys)
    row = json.loads(out)
    assert (
        code == 0
        and row["seed"] == 77
        and row["method"] == "rg1"
        and row["derived_from"] == SEVENTEEN[1]
    )
    assert row["generator_version"] == "9.9"


def test_the_ratings_of_a_generate_row_reach_the_bank_by_metric(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``generate`` and ``bank export`` rows carry ``{metric: {score, level, ...}}``:
    each rating with a score is stored under its metric, a score given as text
    read as a number, an empty level as none."""
    ratings = {
        "rounds": {"score": 1003, "level": "Hard", "level_rank": 2},
        "se": {"score": "2.6", "level": ""},
        "hsolve": {"level": "easy"},  # no score: not a rating
    }
    src = _jsonl(tmp_path / "g.jsonl", [{"puzzle": SEVENTEEN[0], "ratings": ratings}])
    db = str(tmp_path / "bank.db")
    assert _run(["bank", "add", db, src], capsys)[0] == 0
    with PuzzleBank(db) as bank:
        (e,) = bank.query()
    assert e.ratings == {"rounds": (1003.0, "Hard"), "se": (2.6, None)}


def test_a_rate_row_gives_the_generators_seed_not_the_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _jsonl(tmp_path / "g.jsonl", [{"puzzle": SEVENTEEN[0], "seed": 5, "method": "random"}])
    assert _run(["rate", src, "-m", "rounds", "--seed", "9", "--format", "jsonl", "-q",
                 "-o", str(tmp_path / "r.jsonl")], capsys)[0] == 0  # fmt: skip
    row = json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8"))
    assert row["input_seed"] == 5 and row["method"] == "random"
    db = str(tmp_path / "bank.db")
    assert _run(["bank", "add", db, str(tmp_path / "r.jsonl")], capsys)[0] == 0
    with PuzzleBank(db) as bank:
        (e,) = bank.query()
    assert e.seed == 5 and e.method == "random" and "rounds" in e.ratings
    # rated twice (rounds, then se): both ratings and the generator's seed reach a bank
    assert _run(["rate", str(tmp_path / "r.jsonl"), "-m", "se", "--format", "jsonl", "-q",
                 "-o", str(tmp_path / "r2.jsonl")], capsys)[0] == 0  # fmt: skip
    db2 = str(tmp_path / "bank2.db")
    assert _run(["bank", "add", db2, str(tmp_path / "r2.jsonl")], capsys)[0] == 0
    with PuzzleBank(db2) as bank:
        (e2,) = bank.query()
    assert e2.seed == 5 and set(e2.ratings) == {"rounds", "se"}
    assert e2.ratings["rounds"] == e.ratings["rounds"]
    with sqlite3.connect(db) as raw:
        version, params = raw.execute("SELECT version, parameters FROM ratings").fetchone()
    assert version == row["version"] and json.loads(params) == row["parameters"]


def _old_bank(path: Path, line: str, solution: str) -> None:
    """A bank as version 1 of the schema wrote it (no provenance columns)."""
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE puzzles (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE,
            geometry TEXT NOT NULL, regions TEXT, puzzle TEXT NOT NULL, solution TEXT NOT NULL,
            clues INTEGER NOT NULL, minimal INTEGER, generator TEXT, seed INTEGER,
            added REAL NOT NULL);
        CREATE TABLE symmetries (puzzle_id INTEGER NOT NULL, name TEXT NOT NULL,
            PRIMARY KEY (puzzle_id, name));
        CREATE TABLE ratings (id INTEGER PRIMARY KEY, puzzle_id INTEGER NOT NULL,
            metric TEXT NOT NULL, score REAL NOT NULL, level TEXT, level_rank INTEGER,
            parameters TEXT NOT NULL, runs INTEGER, seed INTEGER, version TEXT, rated REAL NOT NULL);
        CREATE TABLE exports (puzzle_id INTEGER NOT NULL, batch TEXT NOT NULL,
            exported REAL NOT NULL, PRIMARY KEY (puzzle_id, batch));
        INSERT INTO meta VALUES ('schema', '1');
        """
    )
    from csp_sudoku.tools.bank import dedup_key

    db.execute(
        "INSERT INTO puzzles (key, geometry, puzzle, solution, clues, minimal, generator, seed, "
        "added) VALUES (?, '9x9', ?, ?, 17, 1, 'old', 3, 0)",
        (dedup_key(parse_line(line)), line, solution),
    )
    db.commit()
    db.close()


def test_an_old_schema_bank_opens_and_is_migrated(tmp_path: Path) -> None:
    from csp_sudoku.api import solve

    path = tmp_path / "old.db"
    full = solve(SEVENTEEN[0])
    assert full is not None
    _old_bank(path, SEVENTEEN[0], full.to_line())
    out, _ = run_on_an_old_bank(["bank", "query", str(path), "--format", "jsonl"])
    row = json.loads(out)
    assert row["generator"] == "old" and row["seed"] == 3 and row["method"] is None
    with PuzzleBank(path) as bank:
        assert len(bank) == 1
        assert bank.add(SEVENTEEN[1], method="rg1", seed=4).added
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == str(
            SCHEMA_VERSION
        )
    with PuzzleBank(path) as bank:
        assert [e.method for e in bank.query()] == [None, "rg1"]


# ---------------------------------------------------------------------- refusing


def test_a_foreign_sqlite_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "photos.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    before = path.read_bytes()
    for cmd in (["add", str(path), SEVENTEEN[0]], ["stats", str(path)], ["query", str(path)]):
        code, _, err = _run(["bank", *cmd], capsys)
        assert code == 2, cmd
        assert "another program" in err and "not a puzzle bank" in err and "photos" in err
    assert path.read_bytes() == before


def _bank_of(path: Path, n: int) -> None:
    with PuzzleBank(path) as bank:
        bank.add_many(load_lines("top1465.txt", limit=n), check_minimal=False)


def _damaged_bank(path: Path, n: int, damage: Callable[[bytearray], None]) -> bytes:
    """A bank of ``n`` puzzles at ``path``, its file's bytes then changed by ``damage``: them."""
    _bank_of(path, n)
    data = bytearray(path.read_bytes())
    damage(data)
    path.write_bytes(bytes(data))
    return bytes(data)


def _garble_the_header(data: bytearray) -> None:
    data[:16] = b"garbage garbage!"


def _garble_a_middle_page(data: bytearray) -> None:
    page = int.from_bytes(data[16:18], "big") or 65536
    assert len(data) >= 4 * page
    mid = (len(data) // page // 2) * page  # a page in the middle: B-tree pages are there
    data[mid : mid + page] = bytes(range(256)) * (page // 256)


def test_a_header_corrupted_bank_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bank.db"
    damaged = _damaged_bank(path, 5, _garble_the_header)
    for cmd in (["add", str(path), SEVENTEEN[0]], ["stats", str(path)]):
        code, _, err = _run(["bank", *cmd], capsys)
        assert code == 2 and "not a puzzle bank, or a damaged one" in err, (cmd, err)
    assert path.read_bytes() == damaged


def test_a_bank_damaged_mid_file_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bank.db"
    damaged = _damaged_bank(path, 50, _garble_a_middle_page)
    code, _, err = _run(["bank", "add", str(path), SEVENTEEN[0]], capsys)
    assert code == 2 and "the bank file is damaged" in err and "refusing to write" in err, err
    assert path.read_bytes() == damaged
    # a reader (no quick_check) meets the damaged page: a clear error too, not a bug report
    for cmd in (["stats", str(path)], ["query", str(path)]):
        code, _, err = _run(["bank", *cmd], capsys)
        assert code in (0, 2) and "internal error" not in err, (cmd, err)
        assert code == 0 or "damaged" in err


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("x", "its schema version is 'x', not a version number"),
        ("0", "its schema version is '0', not a version number"),
        ("9", "a bank of schema version 9, written by a later csp_sudoku"),
    ],
)
def test_a_bank_of_an_unreadable_schema_version_is_refused_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, why: str
) -> None:
    """A schema value that was no number was an internal error (ValueError); schema 0
    said "adding them now" (an upgrade) and then refused."""
    path = tmp_path / "bank.db"
    _bank_of(path, 3)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (value,))
    kept = path.read_bytes()
    for cmd in (["stats", str(path)], ["add", str(path), SEVENTEEN[0]], ["query", str(path)]):
        code, out, err = _run(["bank", *cmd], capsys)
        assert (code, out) == (2, ""), (cmd, err)
        assert f"{path}: " in err and why in err and "adding them" not in err, (cmd, err)
    assert path.read_bytes() == kept


def test_an_index_naming_no_puzzle_is_said_as_a_damaged_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bank whose index pages were overwritten gave ids of no puzzle: ``bank query``
    said "no puzzle with id -1", naming neither the file nor the damage. (The ids
    such an index gives, stood in for here: overwriting pages gives other errors
    as often, which the tests above check.)"""
    from csp_sudoku.core.errors import BankError

    path = tmp_path / "bank.db"
    _bank_of(path, 3)
    with PuzzleBank(path, readonly=True) as bank:
        good = bank.ids()
        monkeypatch.setattr(PuzzleBank, "ids", lambda self, query=None: [good[0], -1])
        with pytest.raises(
            BankError, match=rf"{path}: the bank file is damaged: an index names puzzle -1"
        ):
            bank.query()
        assert next(bank.iter_query()).id == good[0]  # what comes before is read


def test_reading_an_empty_file_as_a_bank_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bank stats`` of a 0-byte file wrote a bank's tables into it (query and stats
    only read)."""
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    for cmd in ("stats", "query"):
        code, _, err = _run(["bank", cmd, str(path)], capsys)
        assert code == 2 and "an empty file, not a puzzle bank" in err, (cmd, err)
    assert path.read_bytes() == b""


@pytest.mark.parametrize("form", ["same", "link", "new"])
def test_export_over_the_bank_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    path = tmp_path / "bank.db"
    if form != "new":
        _bank_of(path, 3)
    before = path.read_bytes() if path.exists() else None
    out = path
    if form == "link":
        out = tmp_path / "link.db"
        os.symlink(path, out)
    code, _, err = _run(["bank", "export", "-o", str(out), str(path)], capsys)
    assert code == 2 and "destroy" in err, err
    assert (path.read_bytes() if path.exists() else None) == before


# ---------------------------------------------------------------------- names are checked


@pytest.mark.parametrize("action", ["query", "export", "rate"])
def test_unknown_metric_or_level_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    path = tmp_path / "bank.db"
    _bank_of(path, 2)
    code, out, err = _run(["bank", action, str(path), "--metric", "roundz"], capsys)
    assert code == 2 and "unknown metric 'roundz'" in err and "rounds" in err, err
    assert out == ""
    if action != "rate":
        code, out, err = _run(
            ["bank", action, str(path), "--metric", "rounds", "--level", "Hardd"], capsys
        )
        assert code == 2 and "unknown level 'Hardd'" in err and "Fiendish" in err, err


def test_rate_unknown_metric_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["rate", SEVENTEEN[0], "-m", "rounds", "-m", "sse"], capsys)
    assert code == 2 and "unknown metric 'sse'" in err and out == ""


def test_score_flags_one_spelling_and_the_old_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bank.db"
    _bank_of(path, 4)
    assert _run(["bank", "rate", str(path), "--metric", "rounds"], capsys)[0] == 0
    with PuzzleBank(path) as bank:
        scores = sorted(e.ratings["rounds"][0] for e in bank.query())
    cut = scores[len(scores) // 2]
    want = sum(s >= cut for s in scores)
    for flag in ("--score-min", "--min-score"):
        code, out, _ = _run(
            ["bank", "query", str(path), "--metric", "rounds", flag, str(cut)], capsys
        )
        assert code == 0 and len(out.split()) == want
    help_text = subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "bank", "query", "--help"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "--score-min" in help_text and "--min-score" not in help_text


def test_export_format_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bank.db"
    _bank_of(path, 2)
    code, out, _ = _run(["bank", "export", str(path), "--format", "lines"], capsys)
    assert code == 0 and out.split() == load_lines("top1465.txt", limit=2)


# ---------------------------------------------------------------------- concurrent writers


def test_two_concurrent_adds_both_succeed(tmp_path: Path) -> None:
    lines = load_lines("top1465.txt", limit=30)
    src = tmp_path / "p.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for trial in range(4):
        db = tmp_path / f"bank{trial}.db"
        cmd = [sys.executable, "-m", "csp_sudoku", "bank", "add", str(db), str(src),
               "--no-minimal-check"]  # fmt: skip
        procs = [
            subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        results = [p.communicate(timeout=300) for p in procs]
        for p, (out, err) in zip(procs, results, strict=True):
            assert p.returncode == 0, (trial, out, err)
            assert "Traceback" not in err and "internal error" not in err
        added = [int(err.split("added ")[1].split(",")[0]) for _, err in results]
        assert sum(added) == len(lines), results  # each puzzle added by exactly one of them
        with PuzzleBank(db) as bank:
            assert len(bank) == len(lines)


def test_readers_need_an_existing_bank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.db"
    for action in ("query", "stats"):
        code, out, err = _run(["bank", action, str(path)], capsys)
        assert code == 2 and "no such bank" in err and out == ""
    assert not path.exists()


@pytest.mark.parametrize("link", [False, True])
def test_model_export_over_its_puzzle_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], link: bool
) -> None:
    src = tmp_path / "one.txt"
    src.write_text(SEVENTEEN[0] + "\n", encoding="utf-8")
    out = src
    if link:
        out = tmp_path / "link.txt"
        os.symlink(src, out)
    code, _, err = _run(["export", "cnf", str(src), "-o", str(out)], capsys)
    assert code == 2 and "destroy" in err, err
    assert src.read_text(encoding="utf-8") == SEVENTEEN[0] + "\n"


def test_a_seed_too_big_for_the_bank_is_said_not_dropped_in_silence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # minimize rows carry the run's seed as given (up to 2**128): SQLite holds 64 bits
    big = 2**100
    src = _jsonl(
        tmp_path / "m.jsonl",
        [{"puzzle": SEVENTEEN[0], "seed": big}, {"puzzle": SEVENTEEN[1], "seed": 12}],
    )
    db = str(tmp_path / "bank.db")
    code, _, err = _run(["bank", "add", db, src], capsys)
    assert code == 0
    assert "1 record gave a seed of 2**63 or more" in err and "stored without it" in err
    with PuzzleBank(db) as bank:
        seeds = {e.puzzle.to_line(): e.seed for e in bank.query()}
    assert seeds == {SEVENTEEN[0]: None, SEVENTEEN[1]: 12}
    # the seeds that fit say nothing
    src2 = _jsonl(tmp_path / "ok.jsonl", [{"puzzle": SEVENTEEN[2], "seed": 2**63 - 1}])
    code, _, err = _run(["bank", "add", db, src2], capsys)
    assert code == 0 and "seed" not in err


def test_a_seed_that_is_no_whole_number_is_said_never_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seed of 2.9 was stored as 2 (int() cut it), -1 as -1, and "abc" or true
    dropped in silence: none reproduces the puzzle. Each is left out, and said."""
    lines = load_lines("17_clue.txt", limit=7)
    records = [
        {"puzzle": lines[0], "seed": 2.9},
        {"puzzle": lines[1], "seed": -1},
        {"puzzle": lines[2], "seed": "abc"},
        {"puzzle": lines[3], "seed": True},
        {"puzzle": lines[4], "seed": "--5"},
        {"puzzle": lines[5], "seed": 7},
        {"puzzle": lines[6], "seed": "8"},
    ]
    src = _jsonl(tmp_path / "s.jsonl", records)
    db = str(tmp_path / "bank.db")
    code, _, err = _run(["bank", "add", db, src], capsys)
    assert code == 0, err
    assert "1 record gave a seed of 2**63 or more, or below 0" in err
    assert "4 records gave a seed that is not a whole number" in err
    with PuzzleBank(db) as bank:
        seeds = {e.puzzle.to_line(): e.seed for e in bank.query()}
    assert seeds == {
        **{lines[i]: None for i in range(5)},
        lines[5]: 7,
        lines[6]: 8,
    }


@pytest.mark.parametrize("content", ["", "# a comment only\n\n"])
def test_an_empty_input_is_said_as_every_command_says_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    """bank add of an empty file said "added 0" and exited 0; minimize, rate, explain
    and render say "no puzzles found in the input" and exit 2."""
    src = tmp_path / "empty.txt"
    src.write_text(content, encoding="utf-8")
    code, _, err = _run(["bank", "add", str(tmp_path / "b.db"), str(src)], capsys)
    assert code == 2 and "no puzzles found in the input" in err
    code, _, err = _run(["rate", str(src)], capsys)
    assert code == 2 and "no puzzles found in the input" in err


def test_a_generated_rating_keeps_the_seed_that_reproduces_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``generate --rate oracle`` rows carry each rating's seed; ``bank add`` stored the
    score without it, so the bank's oracle scores could not be made again. A
    ``ratings`` field that is no object of ratings was passed over in silence; it is
    a bad rating now (the record skipped, exit 2)."""
    import csp_sudoku as cs

    rows = tmp_path / "g.jsonl"
    assert main(["generate", "-n", "2", "--seed", "3", "--rate", "oracle", "--format", "jsonl",
                 "-q", "-o", str(rows)]) == 0  # fmt: skip
    records = [json.loads(x) for x in rows.read_text().splitlines()]
    db = tmp_path / "b.db"
    code, _, err = _run(["bank", "add", str(db), str(rows)], capsys)
    assert code == 0, err
    with sqlite3.connect(db) as con:
        stored = con.execute(
            "SELECT p.puzzle, r.score, r.seed FROM ratings r JOIN puzzles p ON p.id = r.puzzle_id"
        ).fetchall()
    assert len(stored) == 2
    given = {r["ratings"]["oracle"]["seed"] for r in records}
    assert {seed for _, _, seed in stored} == given
    for line, score, seed in stored:
        assert cs.rate(cs.parse(line), "oracle", seed=seed).score == pytest.approx(score)
    bad = _jsonl(tmp_path / "bad.jsonl", [{**records[0], "ratings": "oops"}])
    code, _, err = _run(["bank", "add", str(tmp_path / "c.db"), bad], capsys)
    assert code == 2 and "bad.jsonl:1: bad rating (ratings 'oops'" in err
