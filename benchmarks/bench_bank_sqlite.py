"""What SQLite costs ``bank add`` a puzzle, and what a change of the key or the indexes would save.

Writes ``--rows`` distinct puzzles (``bench_bank.py``'s made puzzles, keyed by
their canonical forms, computed once) into a new SQLite file shaped like a
bank's ``puzzles`` table and its indexes, as ``bank add`` does: 4,096 rows a
batch, their keys looked up 500 at a time first, one ``executemany``, a commit
every 2 s, a page cache of :data:`csp_sudoku.tools.bank.CACHE_KIB`. Nothing
else of the package runs in the timed part, so the figures are SQLite's and
the sqlite3 module's alone: CPU microseconds a row (user and system), and
wall. Variants, each a new file, in the order given:

* ``text``: the key as the canonical form's 81 characters (the bank today);
* ``blob``: the key as 41 bytes (two digits a byte);
* ``text-late`` / ``blob-late``: the four secondary indexes of ``puzzles``
  created after the rows instead of before;
* ``text-nolookup`` / ``blob-nolookup``: no look-up of the keys first.

Usage::

    .venv/bin/python benchmarks/bench_bank_sqlite.py [--rows 1000000] [--variants text,blob]
        [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bank import make_puzzles

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import format_lines
from csp_sudoku.tools.bank import CACHE_KIB, INDEXES, LOOKUP_BATCH, dedup_keys

#: The secondary indexes of the puzzles table (the key's is its UNIQUE constraint).
SECONDARY = [text for name, text in INDEXES.items() if name.startswith("puzzles_by")]
TABLE = """CREATE TABLE puzzles (id INTEGER PRIMARY KEY, key {kind} NOT NULL UNIQUE,
 geometry TEXT NOT NULL, regions TEXT, puzzle TEXT NOT NULL, solution TEXT NOT NULL,
 clues INTEGER NOT NULL, minimal INTEGER, generator TEXT, seed INTEGER, added REAL NOT NULL,
 method TEXT, derived_from TEXT, generator_version TEXT)"""
#: generator, seed, method, derived_from, generator_version: none known.
NULLS = (None,) * 5
INSERT = (
    "INSERT INTO puzzles (id, key, geometry, regions, puzzle, solution, clues, minimal, "
    "generator, seed, method, derived_from, generator_version, added) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def packed(forms: list[str]) -> list[bytes]:
    """The canonical forms as 41 bytes each, two digits a byte."""
    table = bytes.maketrans(b".0123456789", bytes(range(11)))
    raw = np.frombuffer("".join(forms).encode().translate(table), np.uint8).reshape(-1, 81)
    raw = np.concatenate([raw, np.zeros((len(raw), 1), np.uint8)], axis=1)
    return [row.tobytes() for row in (raw[:, 0::2] << 4) | raw[:, 1::2]]


def run(variant: str, keys: list[str] | list[bytes], lines: list[str], folder: Path) -> None:
    """Write the rows the way ``variant`` says; print its costs a row."""
    kind = "BLOB" if variant.startswith("blob") else "TEXT"
    path = folder / f"{variant}.db"
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA cache_size = {-CACHE_KIB}")
    db.execute(TABLE.format(kind=kind))
    late = variant.endswith("-late")
    if not late:
        for text in SECONDARY:
            db.execute(f"CREATE {text}")
    lookup = not variant.endswith("-nolookup")
    n = len(keys)
    before = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    since = time.monotonic()
    for start in range(0, n, 4096):
        part = keys[start : start + 4096]
        for at in range(0, len(part) if lookup else 0, LOOKUP_BATCH):
            few = part[at : at + LOOKUP_BATCH]
            marks = ", ".join("?" * len(few))
            db.execute(f"SELECT key, id FROM puzzles WHERE key IN ({marks})", few).fetchall()
        db.executemany(
            INSERT,
            [
                (start + k + 1, key, "9x9", None, line, line, 25, 0, *NULLS, 1.0)
                for k, (key, line) in enumerate(zip(part, lines[start : start + 4096], strict=True))
            ],
        )
        if time.monotonic() - since > 2.0:
            db.execute("COMMIT")
            db.execute("BEGIN IMMEDIATE")
            since = time.monotonic()
    db.execute("COMMIT")
    if late:
        db.execute("BEGIN IMMEDIATE")
        for text in SECONDARY:
            db.execute(f"CREATE {text}")
        db.execute("COMMIT")
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_SELF)
    db.close()
    user = (after.ru_utime - before.ru_utime) / n * 1e6
    system = (after.ru_stime - before.ru_stime) / n * 1e6
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"  {variant}: CPU {user + system:.1f} us a row (user {user:.1f}, system {system:.1f}), "
        f"wall {wall / n * 1e6:.1f} us; file {path.stat().st_size / 2**20:,.0f} MiB; "
        f"load after {load}",
        flush=True,
    )
    path.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows written")
    ap.add_argument("--variants", default="text,blob,text,blob", help="comma-separated, in order")
    ap.add_argument("--seed", type=int, default=1, help="seed of the made puzzles")
    ap.add_argument("--dir", help="where the files go (default: a temporary folder)")
    args = ap.parse_args()
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench_bank_sqlite_"))
    folder.mkdir(parents=True, exist_ok=True)
    cells = make_puzzles(args.rows + args.rows // 50 + 100, np.random.default_rng(args.seed))
    forms = dedup_keys(cells, Geometry.standard(9))
    first: dict[str, int] = {}
    for i, form in enumerate(forms):
        first.setdefault(form, i)
    keep = sorted(first.values())[: args.rows]
    lines = format_lines(cells[keep])
    text_keys = [forms[i] for i in keep]
    blob_keys = packed(text_keys)
    print(
        f"bench_bank_sqlite: {len(keep):,} rows; SQLite {sqlite3.sqlite_version}; "
        f"{os.cpu_count()} cores, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for variant in args.variants.split(","):
        keys = blob_keys if variant.startswith("blob") else text_keys
        run(variant, keys, lines, folder)
    if not args.dir:
        os.rmdir(folder)


if __name__ == "__main__":
    main()
