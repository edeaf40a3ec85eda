"""What SQLite costs ``bank add`` a puzzle, and what another key, index or setting would save.

Writes ``--rows`` distinct puzzles (``bench_bank.py``'s made puzzles, keyed by
their canonical forms, computed once) into a new SQLite file shaped like a
bank's ``puzzles`` table and its indexes, as ``bank add`` does: 4,096 rows a
batch, their keys looked up 500 at a time first, one ``executemany``, a commit
every 2 s, a page cache of :data:`csp_sudoku.tools.bank.CACHE_KIB`. Nothing
else of the package runs in the timed part, so the figures are SQLite's and
the sqlite3 module's alone: CPU microseconds a row (user and system), and
wall. Each variant writes a new file, in the order given; a variant is
``KIND[+MODIFIER...]``.

Kinds:

* ``hash``: the bank's own table and indexes (:data:`csp_sudoku.tools.bank._TABLES`
  and the ``puzzles_by_*`` of :data:`~csp_sudoku.tools.bank.INDEXES`): the key's
  81 characters in a column without an index, the key index over its 64-bit
  :func:`~csp_sudoku.tools.bank.key_hash`, looked up by hash;
* ``text``: the key as 81 characters with a UNIQUE index (schema 2, before the hash);
* ``blob``: the key as 41 bytes (two digits a byte) with a UNIQUE index.

Modifiers: ``late`` (the secondary indexes created after the rows),
``nolookup`` (no look-up first), ``sorted`` (each batch's rows in key order;
ids stay those of the batch order), ``cache=MiB`` (the page cache),
``commit=S`` (seconds between commits), ``wal`` (``journal_mode=WAL`` with
``synchronous=NORMAL``), ``nosync`` (``synchronous=OFF``: not safe, a bound).
``text-late`` is read as ``text+late``.

Usage::

    .venv/bin/python benchmarks/bench_bank_sqlite.py [--rows 1000000]
        [--variants hash,text,hash+commit=10] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bank import make_puzzles

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import format_lines
from csp_sudoku.tools.bank import (
    _TABLES,
    CACHE_KIB,
    INDEXES,
    LOOKUP_BATCH,
    dedup_keys,
    key_hashes,
)

#: The secondary indexes of the puzzles table (the key's is its kind's own).
SECONDARY = [
    text
    for name, text in INDEXES.items()
    if name.startswith("puzzles_by") and name != "puzzles_by_key"
]
#: The ``text`` and ``blob`` kinds: schema 2's table, the key of that kind UNIQUE.
OLD_TABLE = """CREATE TABLE puzzles (id INTEGER PRIMARY KEY, key {kind} NOT NULL UNIQUE,
 geometry TEXT NOT NULL, regions TEXT, puzzle TEXT NOT NULL, solution TEXT NOT NULL,
 clues INTEGER NOT NULL, minimal INTEGER, generator TEXT, seed INTEGER, added REAL NOT NULL,
 method TEXT, derived_from TEXT, generator_version TEXT)"""
COLUMNS = (
    "id, {key}geometry, regions, puzzle, solution, clues, minimal, generator, seed, method, "
    "derived_from, generator_version, added"
)
#: generator, seed, method, derived_from, generator_version: none known.
NULLS = (None,) * 5


def packed(forms: list[str]) -> list[bytes]:
    """The canonical forms as 41 bytes each, two digits a byte."""
    table = bytes.maketrans(b".0123456789", bytes(range(11)))
    raw = np.frombuffer("".join(forms).encode().translate(table), np.uint8).reshape(-1, 81)
    raw = np.concatenate([raw, np.zeros((len(raw), 1), np.uint8)], axis=1)
    return [row.tobytes() for row in (raw[:, 0::2] << 4) | raw[:, 1::2]]


@dataclass
class Variant:
    """One way of writing the rows (see the module's docstring)."""

    name: str
    kind: str = "hash"
    late: bool = False
    lookup: bool = True
    ordered: bool = False
    cache_mib: int = CACHE_KIB // 1024
    commit_s: float = 2.0
    journal: str = ""

    @classmethod
    def parse(cls, name: str) -> Variant:
        kind, *mods = name.replace("-", "+").split("+")
        if kind not in ("text", "blob", "hash"):
            sys.exit(f"--variants: unknown kind {kind!r} (hash, text, blob)")
        v = cls(name, kind)
        for mod in mods:
            word, _, value = mod.partition("=")
            if word == "late":
                v.late = True
            elif word == "nolookup":
                v.lookup = False
            elif word == "sorted":
                v.ordered = True
            elif word == "cache":
                v.cache_mib = int(value)
            elif word == "commit":
                v.commit_s = float(value)
            elif word in ("wal", "nosync"):
                v.journal = word
            else:
                sys.exit(f"--variants: unknown modifier {mod!r} of {name!r}")
        return v


@dataclass
class Keys:
    """The keys of the rows in each kind's form: the text, 41 bytes, and the hashes."""

    text: list[str]
    blob: list[bytes]
    hashes: list[int]


def create(db: sqlite3.Connection, variant: Variant) -> tuple[str, str]:
    """Make the table (and key index) of the variant's kind; its INSERT and look-up SELECT."""
    if variant.kind == "hash":
        db.execute(f"CREATE TABLE puzzles ({_TABLES['puzzles']})")
        db.execute(f"CREATE {INDEXES['puzzles_by_key']}")
        columns = COLUMNS.format(key="key, key_hash, ")
        select = "SELECT key, id FROM puzzles WHERE key_hash IN ({marks})"
    else:
        db.execute(OLD_TABLE.format(kind="BLOB" if variant.kind == "blob" else "TEXT"))
        columns = COLUMNS.format(key="key, ")
        select = "SELECT key, id FROM puzzles WHERE key IN ({marks})"
    marks = ", ".join("?" * len(columns.split(", ")))
    return f"INSERT INTO puzzles ({columns}) VALUES ({marks})", select


def run(variant: Variant, keys: Keys, lines: list[str], folder: Path) -> None:
    """Write the rows the way ``variant`` says; print its costs a row."""
    path = folder / "variant.db"
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA cache_size = {-variant.cache_mib * 1024}")
    if variant.journal == "wal":
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
    elif variant.journal == "nosync":
        db.execute("PRAGMA synchronous = OFF")
    insert, select = create(db, variant)
    if not variant.late:
        for text in SECONDARY:
            db.execute(f"CREATE {text}")
    n = len(lines)
    if variant.kind == "hash":
        stored: list[tuple[Any, ...]] = list(zip(keys.text, keys.hashes, strict=True))
        probes: list[Any] = keys.hashes
    else:
        probes = keys.blob if variant.kind == "blob" else keys.text
        stored = [(key,) for key in probes]
    before = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    since = time.monotonic()
    for start in range(0, n, 4096):
        end = min(start + 4096, n)
        for at in range(start, end if variant.lookup else start, LOOKUP_BATCH):
            few = probes[at : min(at + LOOKUP_BATCH, end)]
            db.execute(select.format(marks=", ".join("?" * len(few))), few).fetchall()
        rows = [
            (start + k + 1, *stored[start + k], "9x9", None, line, line, 25, 0, *NULLS, 1.0)
            for k, line in enumerate(lines[start:end])
        ]
        if variant.ordered:
            rows.sort(key=lambda row: row[1])
        db.executemany(insert, rows)
        if time.monotonic() - since > variant.commit_s:
            db.execute("COMMIT")
            db.execute("BEGIN IMMEDIATE")
            since = time.monotonic()
    db.execute("COMMIT")
    if variant.late:
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
        f"  {variant.name}: CPU {user + system:.1f} us a row (user {user:.1f}, system "
        f"{system:.1f}), wall {wall / n * 1e6:.1f} us; file {path.stat().st_size / 2**20:,.0f} "
        f"MiB; load after {load}",
        flush=True,
    )
    for extra in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        extra.unlink(missing_ok=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows written")
    ap.add_argument("--variants", default="hash,text,hash,text", help="comma-separated, in order")
    ap.add_argument("--seed", type=int, default=1, help="seed of the made puzzles")
    ap.add_argument("--dir", help="where the files go (default: a temporary folder)")
    args = ap.parse_args()
    variants = [Variant.parse(name) for name in args.variants.split(",")]
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench_bank_sqlite_"))
    folder.mkdir(parents=True, exist_ok=True)
    cells = make_puzzles(args.rows + args.rows // 50 + 100, np.random.default_rng(args.seed))
    forms = dedup_keys(cells, Geometry.standard(9))
    first: dict[str, int] = {}
    for i, form in enumerate(forms):
        first.setdefault(form, i)
    keep = sorted(first.values())[: args.rows]
    lines = format_lines(cells[keep])
    text = [forms[i] for i in keep]
    keys = Keys(text, packed(text), key_hashes(text))
    print(
        f"bench_bank_sqlite: {len(keep):,} rows; SQLite {sqlite3.sqlite_version}; "
        f"{os.cpu_count()} cores, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for variant in variants:
        run(variant, keys, lines, folder)
    if not args.dir:
        os.rmdir(folder)


if __name__ == "__main__":
    main()
