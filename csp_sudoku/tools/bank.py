"""A puzzle bank: one SQLite file of puzzles without duplicates.

Every puzzle is stored once per isomorphism class: a 9x9 puzzle's key is its
canonical form (:mod:`csp_sudoku.tools.canonical`), so a relabelled, rotated or
shuffled copy of a banked puzzle is recognised as a duplicate. Puzzles of
other geometries are keyed by their geometry and their exact text (no
symmetry reduction; the symmetry groups of variants differ). The key index
holds a 64-bit hash of each key (:func:`key_hash`), not the key's text: a
look-up compares the keys of the rows it finds, so two keys that share a hash
are still two puzzles.

Each puzzle row keeps its solution, clue count, minimality, the symmetries of
its clue pattern, its provenance (the generator and its method, seed and
version, the puzzle it was derived from) and when it was added. The facts
(solution, minimality, symmetries) are computed by the library when a puzzle
is added, never copied from the record that brought it: a record whose claims
are wrong is stored with the true values, and :class:`AddResult` says which
claims were corrected.

Puzzles are added in batches (:meth:`PuzzleBank.add_each`): the keys of a
batch are computed by the canonical-form kernel in threads (it releases the
GIL), the duplicates found with one look-up per few hundred keys, the facts
of the new puzzles (solution, uniqueness, minimality) computed outside any
transaction, for plain 9x9 by one compiled kernel in threads too
(:mod:`csp_sudoku._kernels.bank`), and the rows written column by column
with ``executemany`` in one transaction (or in the caller's one:
:meth:`PuzzleBank.transaction`, which ``bank add`` commits every 2 s).
``add_each`` is :meth:`PuzzleBank.prepare` (look-ups, facts begun) then
:meth:`PuzzleBank.write`; ``bank add`` prepares each batch before it writes
the one before, so that the kernel's threads work while SQLite writes.

Several processes may add to one bank at once: each write is one ``BEGIN
IMMEDIATE`` transaction that waits for the others (busy timeout), and an
isomorphic puzzle added by another process in between is a duplicate, not an
error. A file that is not a bank (another program's SQLite database, a file
that is no database) is refused, and so is a bank that fails SQLite's
``quick_check`` when it is opened for writing.
Ratings live in their own table with their provenance (metric, parameters,
runs, seed, library version), one per puzzle and metric (a new rating of a
metric replaces the puzzle's earlier one), and an ``exports`` table records
which puzzles went out in which batch. Every statement is parameterised:
values never enter SQL text.

Every statement a query, a ``stats`` or an ``add`` makes is served by an index
(:data:`INDEXES`; the tests read each plan): the top ``n`` by score reads
``n`` entries of ``ratings_by_score`` or ``ratings_by_level``, not the whole
table. A bank written by an earlier version gets what it lacks when it is
opened (the indexes; for a bank of schema 1 or 2, its puzzles table rewritten
with the hashes of its keys), with a
:class:`~csp_sudoku.core.errors.BankUpgradeWarning` saying so first, so that
no query on it is slow in silence. A long statement is cut short by a
Ctrl-C or SIGTERM: the connection's progress handler lets Python's signal
handlers run, and an interrupted statement comes out as
:class:`KeyboardInterrupt` (the file check, one step of SQLite's machine, runs
in a thread that the main thread stops).

Example::

    with PuzzleBank("puzzles.db") as bank:
        bank.add(puzzle, generator="rg1", seed=7)
        bank.rate("rounds", seed=1)
        picks = bank.query(BankQuery(limit=20, minimal=True, symmetry="rot180",
                                     metric="rounds", level="Hard", not_exported=True))
        bank.export(picks, "book.txt", batch="book-1")
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
import sqlite3
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from hashlib import blake2b
from itertools import repeat
from typing import IO, TYPE_CHECKING, Any, cast, overload

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.closing import Closing
from csp_sudoku.core.errors import (
    ArgumentError,
    BankUpgradeWarning,
    GeometryError,
    NotUniqueError,
)
from csp_sudoku.core.errors import BankError as BankError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_output
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.puzzle import Puzzle, format_lines
from csp_sudoku.tools._inputs import puzzle_arg

if TYPE_CHECKING:
    from csp_sudoku.api import PuzzleLike

SCHEMA_VERSION = 3

#: SQLite's ``application_id`` of a bank file ("CSPB"): marks the file as a bank.
APPLICATION_ID = 0x43535042

#: Seconds a writer waits for another process's write transaction to end.
BUSY_TIMEOUT = 60.0

#: SQLite's page cache of a bank connection, in KiB: the key index of a million
#: puzzles (about 100 MB) is written at random places, and a small cache reads
#: its pages again and again while a batch is added.
CACHE_KIB = 64 * 1024

#: SQLite virtual-machine steps between two calls of the progress handler,
#: which lets a signal handler (Ctrl-C, SIGTERM) stop a long statement.
PROGRESS_STEPS = 10_000

#: Puzzles whose canonical forms one call of the kernel computes (a thread's share
#: of a batch is cut into such blocks: a stop waits for one block at most).
KEY_BLOCK = 256

#: New puzzles whose facts (solution, uniqueness, minimality) one call of the batch
#: kernel computes (about 15 ms of work: a thread's share of a batch is cut into such
#: blocks, and a stop waits for the blocks under way).
FACT_BLOCK = 256

#: Keys looked up, or rows of a batch compared, in one statement (SQLite binds
#: at most 32,766 values in one statement).
LOOKUP_BATCH = 500

#: Clue-pattern symmetries recorded for each puzzle: the names of
#: :data:`csp_sudoku.generators.symmetry.SYMMETRIES` less "none" (a test keeps them
#: equal), written here so that a query does not load the generators (50 ms).
PATTERN_SYMMETRIES: tuple[str, ...] = (
    "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal",
)  # fmt: skip

#: The names a query's ``symmetry`` takes: ``none`` selects patterns with no symmetry.
QUERY_SYMMETRIES: tuple[str, ...] = ("none", *PATTERN_SYMMETRIES)

#: The columns a version 2 bank added to the puzzles table of version 1.
_V2_COLUMNS = (("method", "TEXT"), ("derived_from", "TEXT"), ("generator_version", "TEXT"))

#: The bank's tables: name -> column definitions (created when missing, in this order).
#: A puzzle's ``key`` is its identity (:func:`dedup_key`) and ``key_hash`` the 64-bit
#: integer of it (:func:`key_hash`) that the key index holds: eight bytes an entry
#: instead of the key's 81 characters, so that the index of a million puzzles stays
#: in the page cache while a batch is added. The key is unique because every add
#: looks its keys up inside its write transaction (see :meth:`PuzzleBank._store`),
#: comparing the keys themselves where two hashes are equal.
_TABLES: dict[str, str] = {
    "meta": "key TEXT PRIMARY KEY, value TEXT NOT NULL",
    "puzzles": """
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    key_hash INTEGER NOT NULL,
    geometry TEXT NOT NULL,
    regions TEXT,
    puzzle TEXT NOT NULL,
    solution TEXT NOT NULL,
    clues INTEGER NOT NULL,
    minimal INTEGER,
    generator TEXT,
    seed INTEGER,
    added REAL NOT NULL,
    method TEXT,
    derived_from TEXT,
    generator_version TEXT
""",
    "symmetries": """
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    PRIMARY KEY (puzzle_id, name)
""",
    "ratings": """
    id INTEGER PRIMARY KEY,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    metric TEXT NOT NULL,
    score REAL NOT NULL,
    level TEXT,
    level_rank INTEGER,
    parameters TEXT NOT NULL,
    runs INTEGER,
    seed INTEGER,
    version TEXT,
    rated REAL NOT NULL
""",
    "exports": """
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    batch TEXT NOT NULL,
    exported REAL NOT NULL,
    PRIMARY KEY (puzzle_id, batch)
""",
}

#: The bank's indexes (name: what it indexes) and the statements each serves.
#: ``symmetries`` and ``exports`` are indexed by their primary keys.
INDEXES: dict[str, str] = {
    # a puzzle by its key: the look-ups of every add, find
    "puzzles_by_key": "INDEX puzzles_by_key ON puzzles(key_hash)",
    # a puzzle's ratings (get, has_rating, "rated"/"unrated" filters); one per metric
    "ratings_by_puzzle": "UNIQUE INDEX ratings_by_puzzle ON ratings(puzzle_id, metric)",
    # --order score/-score and score ranges: the top n read in index order
    "ratings_by_score": "INDEX ratings_by_score ON ratings(metric, score, puzzle_id)",
    # --level (with a score order or range); the levels of a metric; stats' counts
    "ratings_by_level": "INDEX ratings_by_level ON ratings(metric, level, score, puzzle_id)",
    # --order clues, --min-clues/--max-clues; stats' clue counts
    "puzzles_by_clues": "INDEX puzzles_by_clues ON puzzles(clues)",
    # --minimal/--not-minimal in id order; stats' count of minimal puzzles
    "puzzles_by_minimal": "INDEX puzzles_by_minimal ON puzzles(minimal)",
    # --generator and --geometry in id order
    "puzzles_by_generator": "INDEX puzzles_by_generator ON puzzles(generator)",
    "puzzles_by_geometry": "INDEX puzzles_by_geometry ON puzzles(geometry)",
}

#: Indexes of earlier versions that the upgrade drops (replaced by :data:`INDEXES`).
_OLD_INDEXES = ("ratings_by_metric",)


@dataclass(frozen=True)
class BankEntry:
    """One banked puzzle with its facts, provenance and ratings.

    Attributes:
        id: the row id.
        puzzle: the clues, as first added (not the canonical form).
        solution: its only solution.
        clues: the clue count.
        minimal: True/False (computed when it was added), or None when it was not checked.
        symmetries: the symmetries of the clue pattern (computed from the clues).
        generator: the generator's name, when known.
        seed: the generator's seed, when known.
        ratings: ``{metric: (score, level)}``, the puzzle's rating of each metric.
        key: the deduplication key (canonical form for 9x9).
        method: the generator's method (``random``, ``rg1``, ...), when known.
        derived_from: what the puzzle was derived from (a puzzle line, a file name), when known.
        generator_version: the version of the software that made it, when known.
    """

    id: int
    puzzle: Puzzle
    solution: Puzzle
    clues: int
    minimal: bool | None
    symmetries: tuple[str, ...]
    generator: str | None
    seed: int | None
    ratings: dict[str, tuple[float, str | None]] = field(default_factory=dict)
    key: str = ""
    method: str | None = None
    derived_from: str | None = None
    generator_version: str | None = None


@dataclass(frozen=True)
class Provenance:
    """Where a puzzle came from, as its record says (stored as given: it is not a fact
    the bank can check).

    Attributes:
        generator: the name of what made it.
        seed: the seed that made it.
        method: the generator's method.
        derived_from: what it was derived from (the puzzle it was minimised from, ...).
        generator_version: the version of the software that made it.
    """

    generator: str | None = None
    seed: int | None = None
    method: str | None = None
    derived_from: str | None = None
    generator_version: str | None = None


#: The provenance of a record that gives none.
_NO_PROVENANCE = Provenance()
#: The provenance columns of the puzzles table: the fields of :class:`Provenance`
#: (and of :class:`BankEntry`), of the same names.
_PROVENANCE: tuple[str, ...] = tuple(f.name for f in fields(Provenance))
#: A puzzle's row as :meth:`PuzzleBank.get` reads it.
_GET_PUZZLE = (
    "SELECT id, key, geometry, regions, puzzle, solution, clues, minimal, "
    f"{', '.join(_PROVENANCE)} FROM puzzles WHERE id = ?"
)


@dataclass(frozen=True)
class Claims:
    """What a record says about a puzzle's facts; checked against the computed facts.

    Attributes:
        minimal: the claimed minimality.
        symmetry: the claimed clue-pattern symmetry (``none`` or a name of
            :data:`PATTERN_SYMMETRIES`).
    """

    minimal: bool | None = None
    symmetry: str | None = None


@dataclass(frozen=True)
class AddResult:
    """What :meth:`PuzzleBank.add` did: ``added`` is False for a duplicate of ``id``.

    ``corrected`` names the claims of the record that the computed facts
    contradicted (``minimal``, ``symmetry``): the bank stored the facts.
    """

    id: int
    added: bool
    corrected: tuple[str, ...] = ()


class BatchResults(Sequence["AddResult | NotUniqueError"]):
    """What :meth:`PuzzleBank.add_each` did with a batch: one result a puzzle, in
    batch order (an :class:`AddResult`, or the :class:`NotUniqueError` of a puzzle
    skipped), and their counts.

    A result is made when it is read: a caller that needs only the counts
    (``bank add`` of a million lines) makes none.

    Attributes:
        added: the puzzles added.
        duplicates: the puzzles banked already (or earlier in the batch).
        errors: the puzzles skipped, by batch index.
        corrected: how many records had each claim (``minimal``, ``symmetry``)
            corrected by the computed facts.
    """

    def __init__(
        self,
        keys: Sequence[str],
        ids: dict[str, int],
        added_at: set[int],
        errors: dict[int, NotUniqueError],
        corrected_at: dict[int, tuple[str, ...]],
    ) -> None:
        self._keys, self._ids, self._added_at = keys, ids, added_at
        self._corrected_at = corrected_at
        self.errors = errors
        self.added = len(added_at)
        self.duplicates = len(keys) - len(errors) - self.added
        self.corrected = Counter(what for claims in corrected_at.values() for what in claims)

    def __len__(self) -> int:
        return len(self._keys)

    def _at(self, i: int) -> AddResult | NotUniqueError:
        error = self.errors.get(i)
        if error is not None:
            return error
        return AddResult(
            self._ids[self._keys[i]], i in self._added_at, self._corrected_at.get(i, ())
        )

    @overload
    def __getitem__(self, index: int) -> AddResult | NotUniqueError: ...
    @overload
    def __getitem__(self, index: slice) -> list[AddResult | NotUniqueError]: ...
    def __getitem__(
        self, index: int | slice
    ) -> AddResult | NotUniqueError | list[AddResult | NotUniqueError]:
        if isinstance(index, slice):
            return [self._at(i) for i in range(len(self))[index]]
        return self._at(range(len(self))[index])


#: The orders a query takes, and how each sorts; ``-score`` is ``score`` reversed
#: (equal scores: newest first), so that one index read backwards gives it.
_ORDER_BY: dict[str, str] = {
    "id": "p.id",
    "clues": "p.clues, p.id",
    "score": "r.score, r.puzzle_id",
    "-score": "r.score DESC, r.puzzle_id DESC",
}
ORDERS: tuple[str, ...] = tuple(_ORDER_BY)


@dataclass(frozen=True)
class BankQuery:
    """A selection of banked puzzles; every field is optional.

    Attributes:
        limit: at most this many (None: all).
        minimal: only minimal (True) or only non-minimal (False) puzzles.
        symmetry: only puzzles whose clue pattern has this symmetry (``rot180`` ...);
            ``none``: only puzzles whose pattern has none of them.
        metric: only puzzles rated with this metric (unless ``unrated``); the metric
            of ``level``, ``min_score``, ``max_score`` and a score order.
        level: the rating's level name (case-insensitive), e.g. ``Hard``.
        min_score: the rating's score at least this.
        max_score: the rating's score at most this.
        min_clues: at least this many clues.
        max_clues: at most this many clues.
        generator: made by this generator.
        geometry: of this geometry name (``9x9``, ``x-9x9``, ...).
        not_exported: only puzzles never exported (in any batch).
        not_in_batch: only puzzles not exported in this batch.
        unrated: only puzzles with no rating of ``metric`` yet.
        order: ``id`` (oldest first), ``clues`` (then id), ``score`` (lowest first,
            then id; needs ``metric``) or ``-score``, its reverse (highest first,
            equal scores newest first: one index read backwards serves it).
    """

    limit: int | None = None
    minimal: bool | None = None
    symmetry: str | None = None
    metric: str | None = None
    level: str | None = None
    min_score: float | None = None
    max_score: float | None = None
    min_clues: int | None = None
    max_clues: int | None = None
    generator: str | None = None
    geometry: str | None = None
    not_exported: bool = False
    not_in_batch: str | None = None
    unrated: bool = False
    order: str = "id"

    def needs_metric(self) -> str | None:
        """What in this query needs a metric (``--level``, ``--order -score`` ...) when it
        names none, else None."""
        if self.metric is not None:
            return None
        for name, value in (
            ("level", self.level),
            ("score-min", self.min_score),
            ("score-max", self.max_score),
        ):
            if value is not None:
                return f"--{name}"
        if self.order in ("score", "-score"):
            return f"--order {self.order}"
        if self.unrated:
            return "unrated"
        return None

    def _validate(self) -> None:
        """Refuse what no bank can answer: empty ranges, unknown names, a missing metric."""
        for least, most, low, high in (
            ("min_clues (--min-clues)", "max_clues (--max-clues)", self.min_clues, self.max_clues),
            ("min_score (--score-min)", "max_score (--score-max)", self.min_score, self.max_score),
        ):
            if low is not None and high is not None and low > high:
                raise BankError(f"{least} {low:g} is above {most} {high:g}: no puzzle can match")
        if self.symmetry is not None and self.symmetry not in QUERY_SYMMETRIES:
            raise BankError(
                f"unknown symmetry {self.symmetry!r}; known: {', '.join(QUERY_SYMMETRIES)}"
            )
        if self.order not in ORDERS:
            raise BankError(f"unknown order {self.order!r}; known: {', '.join(ORDERS)}")
        if self.limit is not None and (not is_whole(self.limit) or self.limit < 0):
            # "5" raised TypeError from the comparison
            raise BankError(f"limit must be a whole number >= 0, got {self.limit!r}")
        wants = self.needs_metric()
        if wants is not None:
            raise BankError(f"{wants} needs a metric (--metric): the scores of which metric?")

    def sql(self, levels: Sequence[str] | None = None) -> tuple[str, list[Any]]:
        """The SELECT of matching puzzle ids and its parameters (fixed SQL, values bound).

        Each shape is written for the index that serves it (see :data:`INDEXES`):
        a score order reads ``ratings_by_score`` (``ratings_by_level`` with a
        level) from its best end and looks each puzzle up by id, so the top
        ``n`` costs ``n`` index entries when the other filters let most puzzles
        through; ``clues`` reads ``puzzles_by_clues``; ``id`` reads the puzzles
        in id order or an index of an equality filter (whose entries are in id
        order too), the clue range tested on each row rather than sorted.

        Args:
            levels: the spellings of the query's level that banked ratings use
                (:meth:`PuzzleBank.levels`): the level's index is then read by
                equality; without them the level is compared ignoring case.
        """
        self._validate()
        by_score = self.order in ("score", "-score")
        where: list[str] = []
        params: list[Any] = []
        filters = (self.level, self.min_score, self.max_score)
        rated = self.metric is not None and (
            by_score or not self.unrated or any(v is not None for v in filters)
        )
        rating: list[str] = []
        if rated:
            rating.append("r.metric = ?")
            params.append(self.metric)
            if self.level is not None:
                if levels is None:
                    rating.append("r.level = ? COLLATE NOCASE")
                    params.append(self.level)
                else:
                    same = [lv for lv in levels if lv.lower() == self.level.lower()]
                    same = same or [self.level]
                    rating.append(f"r.level IN ({', '.join('?' * len(same))})")
                    params.extend(same)
            if self.min_score is not None:
                rating.append("r.score >= ?")
                params.append(self.min_score)
            if self.max_score is not None:
                rating.append("r.score <= ?")
                params.append(self.max_score)
        if by_score:
            index = "ratings_by_level" if self.level is not None else "ratings_by_score"
            text = (
                f"SELECT r.puzzle_id FROM ratings r INDEXED BY {index} "
                "CROSS JOIN puzzles p ON p.id = r.puzzle_id"
            )
            where.extend(rating)
        elif self.order == "clues":
            text = "SELECT p.id FROM puzzles p INDEXED BY puzzles_by_clues"
        else:
            text = "SELECT p.id FROM puzzles p"
        if rated and not by_score:
            cond = " AND ".join(["r.puzzle_id = p.id", *rating])
            where.append(f"EXISTS (SELECT 1 FROM ratings r WHERE {cond})")
        # a clue range in id order is tested on each row: its index would give
        # the rows in clue order, to be sorted whole before the first came out
        clues = "p.clues" if self.order == "clues" else "+p.clues"
        for column, op, value in (
            ("p.minimal", "=", None if self.minimal is None else int(self.minimal)),
            (clues, ">=", self.min_clues),
            (clues, "<=", self.max_clues),
            ("p.generator", "=", self.generator),
            ("p.geometry", "=", self.geometry),
        ):
            if value is not None:
                where.append(f"{column} {op} ?")
                params.append(value)
        if self.symmetry == "none":
            where.append("NOT EXISTS (SELECT 1 FROM symmetries s WHERE s.puzzle_id = p.id)")
        elif self.symmetry is not None:
            where.append(
                "EXISTS (SELECT 1 FROM symmetries s WHERE s.puzzle_id = p.id AND s.name = ?)"
            )
            params.append(self.symmetry)
        if self.unrated:
            where.append(
                "NOT EXISTS (SELECT 1 FROM ratings r2 WHERE r2.puzzle_id = p.id AND r2.metric = ?)"
            )
            params.append(self.metric)
        if self.not_exported:
            where.append("NOT EXISTS (SELECT 1 FROM exports e WHERE e.puzzle_id = p.id)")
        if self.not_in_batch is not None:
            where.append(
                "NOT EXISTS (SELECT 1 FROM exports e2 WHERE e2.puzzle_id = p.id AND e2.batch = ?)"
            )
            params.append(self.not_in_batch)
        if where:
            text += " WHERE " + " AND ".join(where)
        text += " ORDER BY " + _ORDER_BY[self.order]
        if self.limit is not None:
            text += " LIMIT ?"
            params.append(int(self.limit))
        return text, params


class _Guarded:
    """An SQLite connection whose errors are :class:`BankError` naming the bank file.

    A damaged file often passes the checks made on opening and fails only when
    a damaged page is read; the error then says what happened in the bank's
    words, not SQLite's exception (which the command line reports as a bug).
    A statement cut short by a signal (see :func:`_let_signals_in`) comes out
    as the :class:`KeyboardInterrupt` that the signal's handler raised.
    """

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path
        self.hinted = True  # False: the indexes are missing (an old bank read-only)

    def _sql(self, sql: str) -> str:
        """The statement, without its ``INDEXED BY`` hints where the indexes are missing."""
        return sql if self.hinted else _HINT.sub("", sql)

    def _error(self, err: sqlite3.Error) -> BaseException:
        text = " ".join(str(err).split())
        if isinstance(err, sqlite3.OperationalError):  # locked, read-only, disk full ...
            if text == "interrupted":  # a signal's handler raised in the progress handler
                return KeyboardInterrupt()
            return BankError(f"{self.path}: {text}")
        return BankError(
            f"{self.path}: not a puzzle bank, or a damaged one ({text}); refusing to use it"
        )

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """``sqlite3.Connection.execute``, its errors as BankError (rows read later
        from the cursor are not guarded: see :meth:`all` and :meth:`one`)."""
        try:
            return self.db.execute(self._sql(sql), params)
        except sqlite3.Error as err:
            raise self._error(err) from None

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of a statement, its errors as BankError."""
        try:
            return self.db.execute(self._sql(sql), params).fetchall()
        except sqlite3.Error as err:
            raise self._error(err) from None

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of a statement (None when it has none), its errors as BankError."""
        try:
            return self.db.execute(self._sql(sql), params).fetchone()
        except sqlite3.Error as err:
            raise self._error(err) from None

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        """``sqlite3.Connection.executemany``, its errors as BankError."""
        try:
            return self.db.executemany(sql, rows)
        except sqlite3.Error as err:
            raise self._error(err) from None

    def close(self) -> None:
        """Close the connection."""
        self.db.close()


#: An index hint of a statement (dropped where the bank lacks its indexes).
_HINT = re.compile(r" INDEXED BY \w+")


def _let_signals_in() -> None:
    """The progress handler of a bank connection: does nothing, but is Python code.

    A signal's Python handler runs only between two Python steps, so during
    one long SQLite statement (a query over a million rows, an index built) a
    Ctrl-C or the command line's SIGTERM handler waited for its end. Called
    every :data:`PROGRESS_STEPS` steps of SQLite's machine, this function gives
    the handler its turn; the exception it raises makes SQLite stop the
    statement (``interrupted``), which :class:`_Guarded` raises again as
    :class:`KeyboardInterrupt`.
    """


def pattern_symmetries(puzzle: Puzzle) -> tuple[str, ...]:
    """The symmetries (of :data:`PATTERN_SYMMETRIES`) that map the clue pattern onto itself."""
    found = pattern_symmetries_many(puzzle.cells.reshape(1, -1), puzzle.geometry.size)
    return found[0]


def pattern_symmetries_many(cells: NDArray[np.integer], size: int) -> list[tuple[str, ...]]:
    """The symmetries of the clue patterns of an ``(n, size*size)`` batch, one tuple each.

    A pattern has a symmetry when each of its orbits is wholly filled or wholly
    empty: every cell is compared with the first cell of its orbit, by the
    compiled :func:`csp_sudoku._kernels.bank.pattern_codes` (a code a row, bit
    ``k`` for the ``k``-th name; about a microsecond a 9x9 puzzle, a few times
    less than numpy's comparisons of whole arrays), and each distinct code is
    named once.
    """
    return [symmetry_names(code) for code in _pattern_codes(cells, size).tolist()]


def _pattern_codes(cells: NDArray[np.integer], size: int) -> NDArray[np.int64]:
    """The symmetry code of each clue pattern of a batch (see :func:`symmetry_names`)."""
    from csp_sudoku._kernels.bank import pattern_codes

    arr = np.ascontiguousarray(np.asarray(cells).reshape(len(cells), -1), dtype=np.int8)
    codes: NDArray[np.int64] = pattern_codes(arr, _orbit_firsts(size))
    return codes


@functools.cache
def symmetry_names(code: int) -> tuple[str, ...]:
    """The names of a symmetry code: bit ``k`` is the ``k``-th of :data:`PATTERN_SYMMETRIES`."""
    return tuple(name for k, name in enumerate(PATTERN_SYMMETRIES) if code >> k & 1)


@functools.cache
def _orbit_firsts(size: int) -> NDArray[np.intp]:
    """``out[k, c]``: the first cell of the orbit of cell ``c`` under the ``k``-th
    symmetry of :data:`PATTERN_SYMMETRIES` (the generators' orbits)."""
    from csp_sudoku.generators.symmetry import orbit_index, orbits

    return np.stack(
        [
            np.array([orbit[0] for orbit in orbits(size, name)], np.intp)[orbit_index(size, name)]
            for name in PATTERN_SYMMETRIES
        ]
    )


def _shape_prefix(geometry: Geometry) -> str:
    """What a key of a puzzle of another geometry than 9x9 starts with: its shape."""
    regions = geometry.regions_text
    return geometry.name if regions is None else f"{geometry.name}:{regions}"


def dedup_key(puzzle: Puzzle) -> str:
    """The bank's identity of a puzzle: its canonical form for 9x9, else geometry + text."""
    return dedup_keys(puzzle.cells.reshape(1, -1), puzzle.geometry, threads=1)[0]


def key_hash(key: str) -> int:
    """The 64-bit integer of a key that the bank's key index holds: the BLAKE2b digest
    of 8 bytes of the key's UTF-8 text, read as a little-endian signed integer
    (SQLite's integers are signed). Banks store it: it never changes.

    Two keys may share a hash; the bank compares the keys themselves then.
    """
    return int.from_bytes(blake2b(key.encode(), digest_size=8).digest(), "little", signed=True)


def key_hashes(keys: Iterable[str]) -> list[int]:
    """:func:`key_hash` of each key (about half a microsecond a key)."""
    return [key_hash(key) for key in keys]


def dedup_keys(
    cells: NDArray[np.integer],
    geometry: Geometry,
    *,
    threads: int | None = None,
    stop: threading.Event | None = None,
) -> list[str]:
    """The keys of :func:`dedup_key` for an ``(n, ncells)`` batch of one geometry.

    For 9x9 the canonical forms come from the compiled kernel, which releases
    the GIL, in blocks of :data:`KEY_BLOCK` puzzles shared among ``threads``
    threads (default: one per core), a few microseconds a puzzle.
    A ``stop`` that is set ends the work at the next block (an interrupted
    ``bank add`` does not wait for the rest of a batch).

    Raises:
        KeyboardInterrupt: ``stop`` was set before every key was computed.
    """
    arr = np.ascontiguousarray(np.asarray(cells).reshape(len(cells), -1), dtype=np.int8)
    if geometry != Geometry.standard(9):
        prefix = _shape_prefix(geometry) + ":"
        return [prefix + line for line in format_lines(arr)]
    from csp_sudoku.tools.canonical import canonical_many

    def forms(start: int) -> NDArray[np.int8]:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        return canonical_many(arr[start : start + KEY_BLOCK])

    starts = range(0, len(arr), KEY_BLOCK)
    parts = max(1, min(threads or os.cpu_count() or 1, len(starts)))
    if parts == 1:
        blocks = [forms(start) for start in starts]
    else:
        with ThreadPoolExecutor(parts, thread_name_prefix="csp-sudoku-keys") as pool:
            blocks = list(pool.map(forms, starts))
    return format_lines(np.concatenate(blocks)) if blocks else []


def _not_unique(line: str, solutions: int) -> NotUniqueError:
    """The error of a puzzle (text ``line``) with no solution (0) or several (2)."""
    return NotUniqueError(
        f"{line}: a bank keeps unique puzzles; this one has "
        f"{'no solution' if not solutions else 'several solutions'}"
    )


@dataclass
class _Fresh:
    """The puzzles of a batch not banked when it was prepared, column by column: the
    rows are zipped from the columns as they are written (no object a puzzle).

    Attributes:
        keys: their keys.
        at: their places in the batch (the first of each key there).
        columns: the ``puzzles`` columns of :data:`_PUZZLE_COLUMNS` after ``id`` and
            ``key``, less ``added``: a list each, a value a puzzle.
        symmetries: the symmetry code of each one's clue pattern (:func:`symmetry_names`).
        corrected: the claims of records that the facts contradicted, by batch index.
    """

    keys: list[str] = field(default_factory=list)
    at: list[int] = field(default_factory=list)
    columns: list[list[Any]] = field(default_factory=lambda: [[] for _ in _FACT_COLUMNS])
    symmetries: list[int] = field(default_factory=list)
    corrected: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.keys)

    def extend(
        self, keys: list[str], at: list[int], columns: list[list[Any]], symmetries: list[int]
    ) -> None:
        """Append puzzles (of another geometry of the batch)."""
        self.keys.extend(keys)
        self.at.extend(at)
        for mine, more in zip(self.columns, columns, strict=True):
            mine.extend(more)
        self.symmetries.extend(symmetries)

    def without(self, gone: dict[str, int]) -> _Fresh:
        """These puzzles less those whose keys are in ``gone``."""
        keep = [j for j, key in enumerate(self.keys) if key not in gone]
        if len(keep) == len(self.keys):
            return self

        def pick(values: list[Any]) -> list[Any]:
            return [values[j] for j in keep]

        return _Fresh(
            pick(self.keys),
            pick(self.at),
            [pick(c) for c in self.columns],
            pick(self.symmetries),
            self.corrected,
        )


@dataclass
class PreparedBatch:
    """A batch ready to be written: its keys, the banked ones among them and the facts
    of the others, made by :meth:`PuzzleBank.prepare`, written by :meth:`PuzzleBank.write`.

    Attributes:
        keys: each puzzle's key, in batch order.
        hashes: each key's :func:`key_hash`, in batch order.
        fresh: the puzzles not banked when it was prepared.
        known: the banked ones, key -> id.
        errors: the puzzles without exactly one solution, by batch index.
        ratings: ``(batch index, rating columns)`` to store unless the puzzle
            has a rating of that metric.
        transaction: the write transaction it was prepared in (its number),
            or None.
        stores: the batches the bank had written when it was prepared: a batch
            prepared in the transaction that writes it is checked again only
            against what was written since (see :meth:`PuzzleBank._raced`).
        pending: what completes the facts (the compiled kernel runs in threads
            meanwhile); run by :meth:`PuzzleBank._finish`.
    """

    keys: list[str]
    hashes: list[int]
    fresh: _Fresh = field(default_factory=_Fresh)
    known: dict[str, int] = field(default_factory=dict)
    errors: dict[int, NotUniqueError] = field(default_factory=dict)
    ratings: list[tuple[int, tuple[Any, ...]]] = field(default_factory=list)
    transaction: int | None = None
    stores: int = 0
    pending: list[Callable[[], None]] = field(default_factory=list)


@dataclass(frozen=True)
class _Given:
    """What the caller of an add says of a batch beside the puzzles (see :meth:`PuzzleBank.add_each`)."""

    solutions: Sequence[PuzzleLike | None] | None = None
    minimal: Sequence[bool | None] | None = None
    check_minimal: bool = True
    generator: str | None = None
    seeds: Sequence[int | None] | None = None
    claims: Sequence[Claims | None] | None = None

    def contradicted(
        self, i: int, is_min: bool | None, symmetries: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The claims of puzzle ``i``'s record that its computed facts contradict."""
        if self.claims is None and self.minimal is None:
            return ()
        claim = (self.claims[i] if self.claims is not None else None) or Claims()
        said_minimal = claim.minimal
        if said_minimal is None and self.minimal is not None:
            said_minimal = self.minimal[i]
        wrong: list[str] = []
        if said_minimal is not None and is_min is not None and said_minimal != is_min:
            wrong.append("minimal")
        if claim.symmetry is not None and not (
            (claim.symmetry == "none" and not symmetries) or claim.symmetry in symmetries
        ):
            wrong.append("symmetry")
        return tuple(wrong)


_PUZZLE_COLUMNS = (
    "id", "key", "key_hash", "geometry", "regions", "puzzle", "solution", "clues", "minimal",
    "generator", "seed", "method", "derived_from", "generator_version", "added",
)  # fmt: skip
#: The columns a batch's preparation computes (:attr:`_Fresh.columns`).
_FACT_COLUMNS: tuple[str, ...] = _PUZZLE_COLUMNS[2:-1]
_INSERT_PUZZLE = (
    f"INSERT INTO puzzles ({', '.join(_PUZZLE_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(_PUZZLE_COLUMNS))})"
)
_RATING_COLUMNS = (
    "puzzle_id", "metric", "score", "level", "level_rank", "parameters", "runs", "seed",
    "version", "rated",
)  # fmt: skip
_INSERT_RATING = (
    f"INSERT INTO ratings ({', '.join(_RATING_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(_RATING_COLUMNS))}) ON CONFLICT (puzzle_id, metric) DO "
)
#: What a rating of a metric the puzzle has already does: replace it, or be dropped.
_REPLACE = "UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in _RATING_COLUMNS[2:])
_KEEP = "NOTHING"


def _rating_values(rating: Any, what: str = "rating") -> tuple[Any, ...]:
    """The ``ratings`` columns after ``puzzle_id`` and before ``rated`` of a
    :class:`csp_sudoku.metrics.Rating` (or any object with its fields).

    Checked here, before any row is written: ``None`` (or a dict) in place of a
    rating raised ``AttributeError``, a metric of ``None`` was stored as the
    metric ``"None"``, and a NaN score was refused by SQLite as "a rating of no
    banked puzzle".

    Raises:
        ArgumentError: naming ``what``: an object with no metric name, or a score
            that is no finite number.
    """
    metric = getattr(rating, "metric", None)
    if not isinstance(metric, str) or not metric:
        raise ArgumentError(
            f"{what} must be a Rating (or an object with its fields: a metric name, a "
            f"score ...), got {type(rating).__name__} {rating!r:.60}"
        )
    given: Any = getattr(rating, "score", None)
    try:
        score = float(given)
    except (TypeError, ValueError, OverflowError):
        score = math.nan
    if not math.isfinite(score):
        raise ArgumentError(f"{what}: score {given!r} of {metric} is not a finite number")
    params = getattr(rating, "parameters", {}) or {}
    return (
        metric,
        score,
        getattr(rating, "level", None),
        getattr(rating, "level_rank", None),
        json.dumps(params, sort_keys=True, default=str),
        getattr(rating, "runs", None),
        getattr(rating, "seed", None),
        getattr(rating, "version", None),
    )


def _rating_row(pair: Any, what: str, now: float) -> tuple[Any, ...]:
    """The ``ratings`` row of a ``(puzzle id, rating)`` pair of :meth:`PuzzleBank.add_ratings`.

    Raises:
        ArgumentError: naming ``what``: no pair, an id that is no whole number, or a
            rating :func:`_rating_values` refuses.
    """
    if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
        raise ArgumentError(
            f"{what} must be a (puzzle id, rating) pair, got {type(pair).__name__} {pair!r:.60}"
        )
    pid, rating = pair
    if not is_whole(pid):
        raise ArgumentError(f"{what}: a puzzle id is a whole number, got {pid!r:.40}")
    return (int(pid), *_rating_values(rating, f"the rating of {what}"), now)


def _insert_ratings(db: _Guarded, rows: Sequence[tuple[Any, ...]], *, replace: bool) -> int:
    """Insert ``ratings`` rows (:func:`_rating_row`) on ``db``, inside the caller's
    transaction; returns how many were stored (a kept rating does not count).

    Raises:
        BankError: an id that is no banked puzzle, or SQLite's error in the bank's words.
    """
    try:
        cur = db.db.executemany(_INSERT_RATING + (_REPLACE if replace else _KEEP), rows)
    except sqlite3.IntegrityError as err:  # FOREIGN KEY constraint failed
        raise BankError(f"{db.path}: a rating of no banked puzzle ({err})") from None
    except sqlite3.Error as err:
        raise db._error(err) from None
    return int(cur.rowcount)


#: Seconds at most that :meth:`PuzzleBank.rate` leaves a rating made uncommitted.
RATING_COMMIT_SECONDS = 1.0


class _RatingCommits:
    """The ratings of one :meth:`PuzzleBank.rate` run, committed as they come.

    A rating reaches the bank when the rating loop hands it on (``on_rating``),
    between two ratings. Committed there, once a second at most, the ratings
    made in the second before a long one (a 16x16 puzzle with ``se``: minutes)
    stayed uncommitted until it ended: another reader saw none of them, and a
    ``kill -9`` lost them. So a thread of its own, on a connection of its own
    (as :meth:`PuzzleBank._quick_check` has), commits what has come every
    :data:`RATING_COMMIT_SECONDS`, one transaction for all of them, while the
    ratings go on; :meth:`close` stores the rest on the bank's connection.

    Without a file to share (``:memory:``), or inside the caller's
    :meth:`PuzzleBank.transaction` (which commits at its end, and whose write
    lock another connection would wait for), each rating is written at once on
    the bank's connection instead (no commit of its own: nothing to wait for).
    """

    def __init__(self, bank: PuzzleBank) -> None:
        self._bank = bank
        self._rows: list[tuple[Any, ...]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._error: BaseException | None = None  # what stopped the thread's commits
        self._thread: threading.Thread | None = None
        if bank.path != ":memory:" and bank._open_since is None:
            self._thread = threading.Thread(
                target=self._commit_each_second, name="csp-sudoku-bank-ratings", daemon=True
            )
            self._thread.start()

    def put(self, puzzle_id: int, rating: Any) -> None:
        """Store ``rating`` of puzzle ``puzzle_id`` (committed within a second).

        Raises:
            BankError: the thread could not commit (a full disk, a lock held past
                :data:`BUSY_TIMEOUT`): the run stops; :meth:`close` tries once more.
        """
        row = _rating_row((puzzle_id, rating), f"puzzle {puzzle_id}", time.time())
        if self._thread is None:
            with self._bank._write():
                _insert_ratings(self._bank._db, [row], replace=True)
            return
        if self._error is not None:
            raise self._error
        with self._lock:
            self._rows.append(row)

    def close(self) -> None:
        """Stop the thread and store what it has not committed, on the bank's connection."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            rows, self._rows = self._rows, []
        if rows:
            with self._bank._write():
                _insert_ratings(self._bank._db, rows, replace=True)

    def _commit_each_second(self) -> None:
        """The thread: every :data:`RATING_COMMIT_SECONDS`, commit the ratings come
        meanwhile; on an error, give them back to :meth:`close` and stop."""
        path = self._bank.path
        try:
            connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.Error as err:
            self._error = BankError(f"{path}: cannot open the bank ({err})")
            return
        db = _Guarded(connection, path)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            while not self._stop.wait(RATING_COMMIT_SECONDS):
                self._commit(db)
        except Exception as err:
            self._error = err
        finally:
            db.close()

    def _commit(self, db: _Guarded) -> None:
        """Commit the ratings come since the last commit, in one transaction."""
        with self._lock:
            rows, self._rows = self._rows, []
        if not rows:
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            _insert_ratings(db, rows, replace=True)
            db.execute("COMMIT")
        except BaseException:
            if db.db.in_transaction:
                db.db.rollback()
            with self._lock:
                self._rows[:0] = rows  # stored by close() instead
            raise


#: The distinct values of an index's first column(s), one index seek each (a
#: "skip scan"): the metrics rated, and the levels of one metric, in a bank of
#: millions of ratings without reading them all.
_RATED_METRICS = """
WITH RECURSIVE m(name) AS (
    SELECT (SELECT MIN(metric) FROM ratings INDEXED BY ratings_by_score)
    UNION ALL
    SELECT (SELECT MIN(metric) FROM ratings INDEXED BY ratings_by_score WHERE metric > m.name)
    FROM m WHERE m.name IS NOT NULL
) SELECT name FROM m WHERE name IS NOT NULL
"""
_LEVELS = """
WITH RECURSIVE l(name) AS (
    SELECT (SELECT MIN(level) FROM ratings INDEXED BY ratings_by_level WHERE metric = ?1)
    UNION ALL
    SELECT (SELECT MIN(level) FROM ratings INDEXED BY ratings_by_level
            WHERE metric = ?1 AND level > l.name)
    FROM l WHERE l.name IS NOT NULL
) SELECT name FROM l WHERE name IS NOT NULL
"""


class PuzzleBank(Closing):
    """A SQLite puzzle bank (one file, no server); a context manager.

    Args:
        path: the database file (created when missing), or ``":memory:"``.
        readonly: the caller only reads (query, stats): the file is not created
            when missing and not ``quick_check``-ed (a check reads the whole file).

    Warns:
        BankUpgradeWarning: the bank was written by an earlier version and lacks
            indexes its queries need: said before they are built (in place, once),
            or, where the file cannot be written, that queries on it may be slow.

    Raises:
        BankError: when the file is not a puzzle bank (another program's SQLite
            database, or no database at all), is of an unknown schema version,
            or fails ``PRAGMA quick_check`` when opened for writing; and, with
            ``readonly``, when it does not exist.
    """

    def __init__(
        self, path: str | os.PathLike[str] = ":memory:", *, readonly: bool = False
    ) -> None:
        if not isinstance(path, (str, os.PathLike)):  # None raised TypeError from fspath
            raise BankError(
                f"a bank is a file path (or ':memory:'), got {type(path).__name__} {path!r:.40}"
            )
        self.path = os.fspath(path)
        memory = self.path == ":memory:"
        existed = not memory and os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if readonly and not memory and not os.path.exists(self.path):
            raise BankError(f"{self.path}: no such bank")
        try:
            # autocommit: every write is an explicit BEGIN IMMEDIATE (see _write)
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.Error as err:
            raise BankError(f"{self.path}: cannot open the bank ({err})") from None
        connection.set_progress_handler(_let_signals_in, PROGRESS_STEPS)
        self._db = _Guarded(connection, self.path)
        self._checkers: dict[Geometry, Any] = {}
        self._open_since: float | None = None  # when the open write transaction began
        self._transactions = 0  # write transactions begun (a plan made in one is current in it)
        self._hashed = True  # False: an old bank read without its upgrade (no key_hash)
        self._stores = 0  # batches written (see _raced)
        self._last_stored: dict[str, int] = {}  # the keys the last one added, and their ids
        self._pool: ThreadPoolExecutor | None = None  # the facts kernel's threads
        try:
            self._open(existed, check=not readonly, readonly=readonly)
        except BaseException:
            self._db.close()
            raise

    def _open(self, existed: bool, *, check: bool, readonly: bool) -> None:
        """Recognise (or create) the bank: its tables, indexes, schema version and soundness."""
        db = self._db
        memory = self.path == ":memory:"
        try:
            db.execute("PRAGMA foreign_keys = ON")
            db.execute(f"PRAGMA cache_size = {-CACHE_KIB}")  # a constant
            tables = {r[0] for r in db.all("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and not self._is_bank(tables):
                shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
                raise BankError(
                    f"{self.path}: an SQLite database of another program (tables: {shown}), "
                    "not a puzzle bank; refusing to use it as one"
                )
            if readonly and not tables and not memory:
                # query, stats and export only read: an empty file was made a bank
                raise BankError(
                    f"{self.path}: an empty file, not a puzzle bank (`csp-sudoku bank add` "
                    "makes one)"
                )
            if tables:
                self._version()  # a version this one can read, before anything is said
            if existed and check:
                found = self._quick_check()
                if found != ["ok"]:
                    raise BankError(
                        f"{self.path}: the bank file is damaged "
                        f"({' '.join('; '.join(map(str, found)).split())}); "
                        "refusing to write into it (restore a copy, or .recover it with sqlite3)"
                    )
            if tables and self._current():
                return  # nothing to create or migrate: opening writes nothing
            missing = [name for name in INDEXES if name not in self._index_names()]
            if tables and (missing or self._version() < SCHEMA_VERSION):
                warnings.warn(BankUpgradeWarning(self._upgrade_text(missing)), stacklevel=3)
            db.execute("PRAGMA foreign_keys = OFF")  # an upgrade drops a table (_migrate_v2)
            try:
                with self._write():
                    self._create()
            except BankError as err:
                if not (readonly and tables and "readonly" in str(err)):
                    raise
                db.hinted = False
                self._hashed = "key_hash" in {r[1] for r in db.all("PRAGMA table_info(puzzles)")}
                warnings.warn(
                    BankUpgradeWarning(
                        f"{self.path}: the indexes cannot be added to a file opened read-only "
                        "here, so a query may read every puzzle (any `csp-sudoku bank` command "
                        "run with write access to the file adds them, once)"
                    ),
                    stacklevel=3,
                )
            finally:
                db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as err:
            raise BankError(
                f"{self.path}: not a puzzle bank, or a damaged one ({' '.join(str(err).split())}); "
                "refusing to use it"
            ) from None

    def _quick_check(self) -> list[str]:
        """What ``PRAGMA quick_check(5)`` says of the file (``["ok"]`` when it is sound).

        The check is one step of SQLite's machine, so the progress handler is not
        called inside it (1.5 s for a bank of a million puzzles): it runs in a
        thread of its own, on a connection of its own, while this thread waits in
        Python, where a signal's handler runs; when the handler raises, the check
        is stopped (``sqlite3_interrupt``) and the exception goes on.
        """
        checker = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, check_same_thread=False)
        said: dict[str, Any] = {}

        def check() -> None:
            try:
                said["rows"] = checker.execute("PRAGMA quick_check(5)").fetchall()
            except sqlite3.Error as err:
                said["error"] = err

        thread = threading.Thread(target=check, name="csp-sudoku-bank-check", daemon=True)
        thread.start()
        try:
            while thread.is_alive():
                thread.join(0.05)
        except BaseException:
            checker.interrupt()
            thread.join()
            raise
        finally:
            if not thread.is_alive():
                checker.close()
        if "error" in said:
            raise self._db._error(said["error"])
        return [str(row[0]) for row in said["rows"]]

    def _upgrade_text(self, missing: list[str]) -> str:
        """What the warning before an upgrade says: what is done, and about how long."""
        n = int(self._db.one("SELECT COUNT(*) FROM puzzles")[0])
        m = int(self._db.one("SELECT COUNT(*) FROM ratings")[0]) if self._has("ratings") else 0
        seconds = (n + m) * 5e-6  # the indexes: 16 s for 1,000,000 and 2,000,000 here
        version = self._version()
        rewrite = ""
        if version < SCHEMA_VERSION:
            seconds += n * 5e-6  # the rebuilt table: 10 s for 1,000,000 puzzles here
            rewrite = (
                f" (schema {version}; this version rewrites its puzzles table once, "
                "to index each key by a 64-bit hash)"
            )
        return (
            f"{self.path}: a bank of an earlier version{rewrite}, without the indexes its "
            f"queries need ({', '.join(missing)}): adding them now, once "
            f"({n:,} puzzles, {m:,} ratings: about {max(1, round(seconds))} s)"
        )

    def _has(self, table: str) -> bool:
        row = self._db.one("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (table,))
        return row is not None

    def _index_names(self) -> set[str]:
        return {r[0] for r in self._db.all("SELECT name FROM sqlite_master WHERE type='index'")}

    def _create(self) -> None:
        """Create what is missing (tables, indexes), migrate an older schema; in a transaction.

        A bank of an earlier version may hold several ratings of one metric for
        a puzzle (made through :meth:`add_rating`, which appended); it showed
        the latest, which is the one kept (one rating per puzzle and metric is
        what ``ratings_by_puzzle`` asks).
        """
        db = self._db
        for name, columns in _TABLES.items():  # not executescript: it would commit
            db.execute(f"CREATE TABLE IF NOT EXISTS {name} ({columns})")  # constants
        db.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
            ("schema", str(SCHEMA_VERSION)),
        )
        version = self._version()
        if version not in range(1, SCHEMA_VERSION + 1):
            raise BankError(f"{self.path}: schema version {version}, expected {SCHEMA_VERSION}")
        if version == 1:
            self._migrate_v1()
        if version <= 2:
            self._migrate_v2()
        have = self._index_names()
        if "ratings_by_puzzle" not in have:
            db.execute(
                "DELETE FROM ratings WHERE id NOT IN "
                "(SELECT MAX(id) FROM ratings GROUP BY puzzle_id, metric)"
            )
        for name in _OLD_INDEXES:
            db.execute(f"DROP INDEX IF EXISTS {name}")  # a constant
        for name, text in INDEXES.items():
            if name not in have:
                db.execute(f"CREATE {text}")  # constants
        if db.one("PRAGMA application_id")[0] != APPLICATION_ID:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # a constant

    def _is_bank(self, tables: set[str]) -> bool:
        """Whether a database's tables (and ``application_id``) are a bank's."""
        app = int(self._db.one("PRAGMA application_id")[0])
        if app not in (0, APPLICATION_ID) or not {"meta", "puzzles"} <= tables:
            return False
        row = self._db.one("SELECT value FROM meta WHERE key = ?", ("schema",))
        return row is not None

    def _current(self) -> bool:
        """Whether the bank is of this schema version, with every index, marked as a bank."""
        app = int(self._db.one("PRAGMA application_id")[0])
        row = self._db.one("SELECT value FROM meta WHERE key = ?", ("schema",))
        return (
            app == APPLICATION_ID
            and row is not None
            and row[0] == str(SCHEMA_VERSION)
            and set(INDEXES) <= self._index_names()
        )

    def _version(self) -> int:
        """The schema version the bank's meta table names.

        Raises:
            BankError: a version that is no whole number from 1 (a damaged bank), or
                one above this version's (a bank of a later csp_sudoku).
        """
        value = self._db.one("SELECT value FROM meta WHERE key = ?", ("schema",))[0]
        try:
            version = int(value)
        except (TypeError, ValueError):
            version = 0
        if version < 1:
            raise BankError(
                f"{self.path}: a damaged bank: its schema version is {value!r}, not a "
                "version number; refusing to use it"
            )
        if version > SCHEMA_VERSION:
            raise BankError(
                f"{self.path}: a bank of schema version {version}, written by a later "
                f"csp_sudoku; this one reads versions 1 to {SCHEMA_VERSION}"
            )
        return version

    def _set_version(self, version: int) -> None:
        self._db.execute("UPDATE meta SET value = ? WHERE key = ?", (str(version), "schema"))

    def _migrate_v1(self) -> None:
        """Bring a version 1 bank to version 2: the provenance columns, empty for old rows."""
        have = {r[1] for r in self._db.all("PRAGMA table_info(puzzles)")}
        for name, kind in _V2_COLUMNS:
            if name not in have:
                self._db.execute(f"ALTER TABLE puzzles ADD COLUMN {name} {kind}")  # constants
        self._set_version(2)

    def _migrate_v2(self) -> None:
        """Bring a version 2 bank to version 3: the puzzles table rebuilt with each key's
        :func:`key_hash` and without the UNIQUE index of the keys' text (which SQLite
        cannot drop from a table), ids and everything else copied as they are; the
        indexes of the table are made again by :meth:`_create`.

        Foreign keys must be off (:meth:`_open` turns them off around the upgrade):
        dropping the old table would otherwise delete every rating with it.
        """
        db = self._db
        db.db.create_function("csp_key_hash", 1, key_hash, deterministic=True)
        kept = ", ".join(c for c in _PUZZLE_COLUMNS if c != "key_hash")
        db.execute(f"CREATE TABLE puzzles_v3 ({_TABLES['puzzles']})")  # constants
        db.execute(
            f"INSERT INTO puzzles_v3 (key_hash, {kept}) "
            f"SELECT csp_key_hash(key), {kept} FROM puzzles ORDER BY id"
        )
        db.execute("DROP TABLE puzzles")
        db.execute("ALTER TABLE puzzles_v3 RENAME TO puzzles")
        self._set_version(3)

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, begun IMMEDIATE: it waits (up to :data:`BUSY_TIMEOUT`)
        for another process's write rather than failing half-way; committed on success,
        rolled back on any exception (a Ctrl-C included). Inside :meth:`transaction`
        it is part of that one, which commits or rolls back."""
        if self._open_since is not None:
            yield
            return
        self._db.execute("BEGIN IMMEDIATE")
        self._open_since = time.monotonic()
        self._transactions += 1
        try:
            yield
        except BaseException:
            self._open_since = None
            if self._db.db.in_transaction:
                self._db.db.rollback()
            raise
        self._open_since = None
        self._db.execute("COMMIT")

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Callable[[float], bool]]:
        """Group the writes of a block (adds, ratings, exports) into one transaction.

        Each commit of a bank file waits for the disk (an ``fsync``, 0.1 s here)
        and writes every page it changed; a batch of new keys changes about a
        page of the key index each, so many small commits write the same pages
        again and again. Inside this block the writes commit together at its
        end, or roll back together on an exception. It yields ``renew(seconds)``:
        commit and begin anew when the transaction is older than ``seconds``
        (what ``bank add`` calls after each batch, so that other processes may
        write in between and a Ctrl-C loses only the last seconds).
        """

        def renew(seconds: float) -> bool:
            since = self._open_since
            if since is None or time.monotonic() - since < seconds:
                return False
            self._db.execute("COMMIT")
            self._db.execute("BEGIN IMMEDIATE")
            self._open_since = time.monotonic()
            self._transactions += 1
            return True

        with self._write():
            yield renew

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Close the database (and free the solvers of the puzzles added, and the
        threads of their facts, once the blocks under way are done)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        for checker in self._checkers.values():
            checker.close()
        self._checkers.clear()
        self._db.close()

    def __len__(self) -> int:
        return int(self._db.one("SELECT COUNT(*) FROM puzzles")[0])

    # ------------------------------------------------------------------ adding
    def add(
        self,
        puzzle: PuzzleLike,
        *,
        solution: PuzzleLike | None = None,
        minimal: bool | None = None,
        check_minimal: bool = True,
        generator: str | None = None,
        seed: int | None = None,
        method: str | None = None,
        derived_from: str | None = None,
        generator_version: str | None = None,
        symmetry: str | None = None,
    ) -> AddResult:
        """Add one unique puzzle unless an isomorphic one is banked already.

        Args:
            puzzle: the clues (a :class:`Puzzle`, a puzzle line, or an array of
                cell values); it must have exactly one solution.
            solution: its solution when known (checked, not trusted).
            minimal: the record's claim of minimality: checked, never stored as
                such (a wrong claim is named in :attr:`AddResult.corrected`).
            check_minimal: compute minimality (one solver call per clue); when
                False the bank stores it as unknown.
            generator: the name of what made it.
            seed: the seed that made it.
            method: the generator's method.
            derived_from: what it was derived from.
            generator_version: the version of the software that made it.
            symmetry: the record's claim of a clue-pattern symmetry (checked).

        Raises:
            NotUniqueError: when the puzzle has no solution or several.
            ArgumentError: when ``puzzle`` or ``solution`` is not a puzzle.
        """
        return self.add_many(
            [puzzle],
            solutions=[solution],
            claims=[Claims(minimal=minimal, symmetry=symmetry)],
            check_minimal=check_minimal,
            provenance=[
                Provenance(
                    generator=generator,
                    seed=seed,
                    method=method,
                    derived_from=derived_from,
                    generator_version=generator_version,
                )
            ],
        )[0]

    def add_many(
        self,
        puzzles: Iterable[PuzzleLike] | NDArray[np.integer],
        *,
        solutions: Sequence[PuzzleLike | None] | None = None,
        minimal: Sequence[bool | None] | None = None,
        check_minimal: bool = True,
        generator: str | None = None,
        seeds: Sequence[int | None] | None = None,
        claims: Sequence[Claims | None] | None = None,
        provenance: Sequence[Provenance | None] | None = None,
        geometry: Geometry | None = None,
    ) -> list[AddResult]:
        """Add many puzzles in one transaction (see :meth:`add`); returns one result each.

        As :meth:`add_each`, except that a puzzle without exactly one solution
        stops the whole batch before anything is written. ``minimal`` (per
        puzzle) is a list of claims like ``claims``.

        Raises:
            NotUniqueError: when a puzzle has no solution or several (nothing is added).
            ArgumentError: when an item is not a puzzle.
        """
        given = _Given(solutions, minimal, check_minimal, generator, seeds, claims)
        plan = self._plan(puzzles, given, geometry=geometry, provenance=provenance)
        self._finish(plan)
        if plan.errors:
            raise plan.errors[min(plan.errors)]
        return cast("list[AddResult]", list(self.write(plan)))

    def add_each(
        self, puzzles: Iterable[PuzzleLike] | NDArray[np.integer], **options: Any
    ) -> BatchResults:
        """Add a batch of puzzles in one transaction; one result each, in order: an
        :class:`AddResult`, or the :class:`NotUniqueError` of a puzzle without exactly
        one solution (which is skipped, the others added). The results also
        count themselves (:class:`BatchResults`), which is all ``bank add`` reads.

        The options are those of :meth:`prepare` (``geometry``, ``solutions``,
        ``check_minimal``, ``generator``, ``claims``, ``provenance``, ``ratings``,
        ``keys``, ``hashes``): it is :meth:`prepare`, then :meth:`write`.

        Raises:
            ArgumentError: when an item is not a puzzle, or a rating is none (no
                metric name, a score that is no finite number): nothing is added.
            TypeError: an option :meth:`prepare` does not take.
        """
        return self.write(self.prepare(puzzles, **options))

    def prepare(
        self,
        puzzles: Iterable[PuzzleLike] | NDArray[np.integer],
        *,
        geometry: Geometry | None = None,
        solutions: Sequence[PuzzleLike | None] | None = None,
        check_minimal: bool = True,
        generator: str | None = None,
        claims: Sequence[Claims | None] | None = None,
        provenance: Sequence[Provenance | None] | None = None,
        ratings: Sequence[Sequence[Any]] | None = None,
        keys: Sequence[str] | None = None,
        hashes: Sequence[int] | None = None,
    ) -> PreparedBatch:
        """The first half of :meth:`add_each`: the keys looked up and the facts of the
        new puzzles begun in threads; nothing is written. :meth:`write` finishes and
        writes it.

        The fast path of ``bank add``: an ``(n, ncells)`` array of cell values of one
        ``geometry`` (inferred from the width when None) is taken as it is. The keys
        (computed in threads, or given as ``keys``: :func:`dedup_keys` of the same
        puzzles, e.g. computed while the batch before was written) are looked up
        a few hundred at a time; the facts of the puzzles not banked (solution,
        uniqueness, minimality, symmetries) are computed outside any transaction,
        so that other writers wait only for the inserts, which are one
        ``executemany`` per table. ``bank add`` prepares a batch before it writes
        the one before, so that the facts of a batch are computed while the one
        before is written: a puzzle that the batch written in between added is
        then a duplicate, as it would be had the batches been added one by one.

        Args:
            puzzles: the puzzles (see :meth:`add`), or an array of them.
            geometry: the geometry of an array (and the shape text is read in).
            solutions: per puzzle, its solution when known (checked, not trusted).
            check_minimal: as for :meth:`add`.
            generator: the generator of the puzzles whose provenance names none.
            claims: per puzzle, what its record claims (checked).
            provenance: per puzzle, where it came from.
            ratings: per puzzle, ratings (:class:`csp_sudoku.metrics.Rating` or any
                object with its fields) to store unless the banked puzzle has one of
                that metric already.
            keys: per puzzle, its :func:`dedup_key` when computed already.
            hashes: with ``keys``, their :func:`key_hash` values when computed already.

        Raises:
            ArgumentError: when an item is not a puzzle, or a rating is none (no
                metric name, a score that is no finite number).
        """
        given = _Given(solutions, None, check_minimal, generator, None, claims)
        return self._plan(puzzles, given, geometry, provenance, ratings, keys, hashes)

    def _checker(self, geometry: Geometry) -> Any:
        """The bank's uniqueness checker of a geometry (made once, freed by :meth:`close`)."""
        chk = self._checkers.get(geometry)
        if chk is None:
            from csp_sudoku.api import Checker

            chk = self._checkers[geometry] = Checker(geometry)
        return chk

    def _groups(
        self, puzzles: Iterable[PuzzleLike] | NDArray[np.integer], geometry: Geometry | None
    ) -> tuple[int, list[tuple[Geometry, list[int], NDArray[np.int8]]]]:
        """The batch as ``(count, [(geometry, batch indices, cells)])``, one group a geometry.

        Raises:
            ArgumentError: an item (or an array) that is no puzzle.
        """
        if isinstance(puzzles, np.ndarray) and puzzles.ndim == 2:
            arr = puzzles
            try:
                geo = geometry or Geometry.for_cells(arr.shape[1])
            except GeometryError as err:  # no square count of cells
                raise ArgumentError(f"puzzles: {err}") from None
            if not np.issubdtype(arr.dtype, np.integer) or arr.shape[1] != geo.ncells:
                raise ArgumentError(
                    f"puzzles: an (n, {geo.ncells}) integer array of {geo.name} puzzles "
                    f"needed, got shape {arr.shape} of {arr.dtype}"
                )
            if arr.size and (arr.min() < 0 or arr.max() > geo.size):
                raise ArgumentError(f"puzzles: cell values must be in 0..{geo.size}")
            cells = np.ascontiguousarray(arr, dtype=np.int8)
            return len(cells), [(geo, list(range(len(cells))), cells)]
        if isinstance(puzzles, (str, bytes)) or not isinstance(puzzles, Iterable):
            raise ArgumentError(  # None raised TypeError; a line was read letter by letter
                "puzzles: an iterable of puzzles (or an (n, cells) array) was expected, got "
                f"{type(puzzles).__name__} {puzzles!r:.40}"
            )
        by_geometry: dict[Geometry, list[tuple[int, Puzzle]]] = {}
        n = 0
        for i, item in enumerate(puzzles):
            p = puzzle_arg(item, "puzzle", geometry)
            by_geometry.setdefault(p.geometry, []).append((i, p))
            n = i + 1
        return n, [
            (geo, [i for i, _ in items], np.stack([p.cells for _, p in items]).astype(np.int8))
            for geo, items in by_geometry.items()
        ]

    def _ids_of(self, keys: Sequence[str], hashes: Sequence[int]) -> dict[str, int]:
        """The ids of the banked puzzles among ``keys`` (whose :func:`key_hash` values are
        ``hashes``): the key index, a few hundred hashes a look-up, then the keys of the
        rows found compared with those asked for (two keys may share a hash)."""
        wanted = set(keys)
        column, values = ("key_hash", hashes) if self._hashed else ("key", keys)
        found: dict[str, int] = {}
        for start in range(0, len(values), LOOKUP_BATCH):
            part = values[start : start + LOOKUP_BATCH]
            marks = ", ".join("?" * len(part))
            for key, pid in self._db.all(
                f"SELECT key, id FROM puzzles WHERE {column} IN ({marks})", part
            ):
                if key in wanted:
                    found[key] = int(pid)
        return found

    def _plan(
        self,
        puzzles: Iterable[PuzzleLike] | NDArray[np.integer],
        given: _Given,
        geometry: Geometry | None = None,
        provenance: Sequence[Provenance | None] | None = None,
        ratings: Sequence[Sequence[Any]] | None = None,
        keys: Sequence[str] | None = None,
        hashes: Sequence[int] | None = None,
    ) -> PreparedBatch:
        """The keys, the duplicates and the facts (begun) of the new puzzles of a batch."""
        n, groups = self._groups(puzzles, geometry)
        all_keys: list[str] = [""] * n
        if keys is not None:
            if len(keys) != n:
                raise ArgumentError(f"keys: {len(keys)} keys for {n} puzzles")
            all_keys = list(keys)
        else:
            for geo, indices, cells in groups:
                for i, key in zip(indices, dedup_keys(cells, geo), strict=True):
                    all_keys[i] = key
        if hashes is None or keys is None:
            hashes = key_hashes(all_keys)
        elif len(hashes) != n:
            raise ArgumentError(f"hashes: {len(hashes)} hashes for {n} puzzles")
        plan = PreparedBatch(all_keys, list(hashes), stores=self._stores)
        if self._open_since is not None:
            plan.transaction = self._transactions
        if ratings is not None:
            plan.ratings = [
                (i, _rating_values(r, f"a rating in ratings[{i}]"))
                for i, items in enumerate(ratings)
                for r in items or ()
            ]
        # the first place of each key: the later places assigned first, so the first wins
        first = dict(zip(reversed(all_keys), range(n - 1, -1, -1), strict=True))
        plan.known = self._ids_of(list(first), [plan.hashes[i] for i in first.values()])
        every_new = len(first) == n and not plan.known
        for geo, indices, cells in groups:
            if every_new:
                self._facts(plan, geo, cells, indices, given, provenance)
                continue
            new = [
                (row, i)
                for row, i in enumerate(indices)
                if first[all_keys[i]] == i and all_keys[i] not in plan.known
            ]
            if new:
                rows = cells[[row for row, _ in new]]
                self._facts(plan, geo, rows, [i for _, i in new], given, provenance)
        return plan

    def _finish(self, plan: PreparedBatch) -> None:
        """Complete the facts of a prepared batch (waiting for its threads): the new
        puzzles' columns, and the errors of the puzzles without one solution."""
        while plan.pending:
            plan.pending.pop(0)()
        if plan.errors:  # an isomorph of a puzzle without one solution has none either
            bad = {plan.keys[i]: err for i, err in plan.errors.items()}
            for i, key in enumerate(plan.keys):
                if key in bad:
                    plan.errors[i] = bad[key]

    def _facts(
        self,
        plan: PreparedBatch,
        geo: Geometry,
        rows: NDArray[np.int8],
        indices: list[int],
        given: _Given,
        provenance: Sequence[Provenance | None] | None,
    ) -> None:
        """Begin the facts of the new puzzles ``rows`` of one geometry (batch indices
        ``indices``), and leave in ``plan.pending`` what completes them into
        ``plan.fresh``: the solution (a given one checked, else searched),
        uniqueness, minimality (when asked), the pattern's symmetries (the whole
        group at once) and the claims the facts contradict.

        The rows of a plain 9x9 batch with no solution given go through the
        compiled batch kernel (:meth:`_start_facts9`, threads sharing the rows,
        begun here); the others, and the rows whose search there ran out of
        budget, one at a time through the bank's checker when completed.
        """
        from csp_sudoku._kernels import bank as kb

        started = self._start_facts9(geo, rows, given)
        lines = format_lines(rows)  # while the threads work
        symmetries = _pattern_codes(rows, geo.size)

        def complete() -> None:
            if started is None:
                codes, sols = np.full(len(rows), kb.FACT_GAVE_UP, np.int8), np.empty_like(rows)
            else:
                codes, sols = started()
            minimal: list[int | None] = (
                (codes == kb.FACT_MINIMAL).astype(np.int8).tolist()
                if given.check_minimal
                else [None] * len(rows)
            )
            ok = codes <= kb.FACT_UNIQUE
            for k in np.flatnonzero(codes == kb.FACT_GAVE_UP).tolist():  # rare: the backend
                i = indices[k]
                stated = given.solutions[i] if given.solutions is not None else None
                sol = self._solution(geo, rows[k], lines[k], stated)
                if isinstance(sol, NotUniqueError):
                    plan.errors[i] = sol
                    continue
                sols[k], ok[k] = sol, True
                if given.check_minimal:
                    backend = self._checker(geo).backend
                    minimal[k] = int(backend.removable_clues(rows[k], geo, sol).size == 0)
            for k in np.flatnonzero((codes == kb.FACT_NONE) | (codes == kb.FACT_SEVERAL)).tolist():
                solutions = 0 if codes[k] == kb.FACT_NONE else 2
                plan.errors[indices[k]] = _not_unique(lines[k], solutions)
            self._columns(
                plan, geo, rows, indices, ok, (lines, sols, minimal, symmetries), given, provenance
            )

        plan.pending.append(complete)

    def _columns(
        self,
        plan: PreparedBatch,
        geo: Geometry,
        rows: NDArray[np.int8],
        indices: list[int],
        ok: NDArray[np.bool_],
        facts: tuple[list[str], NDArray[np.int8], list[int | None], NDArray[np.int64]],
        given: _Given,
        provenance: Sequence[Provenance | None] | None,
    ) -> None:
        """Add the new puzzles of one geometry with one solution (``ok``) to
        ``plan.fresh``, column by column: most of a batch's Python work is here.
        ``facts``: each row's text, solution, minimality and symmetry code."""
        lines, sols, minimal, symmetries = facts
        kept = np.flatnonzero(ok)
        if not len(kept):
            return
        every = len(kept) == len(rows)
        if not every:
            picked = kept.tolist()
            lines = [lines[k] for k in picked]
            minimal = [minimal[k] for k in picked]
            indices = [indices[k] for k in picked]
            rows, sols, symmetries = rows[kept], sols[kept], symmetries[kept]
        m = len(indices)
        provs = [_NO_PROVENANCE]
        if provenance is not None:
            provs = [provenance[i] or _NO_PROVENANCE for i in indices]
        if all(p is provs[0] for p in provs):  # bank add of plain lines: one for all
            one = provs[0]
            generator = [one.generator or given.generator] * m
            seeds: list[int | None] = [one.seed] * m
            method, derived = [one.method] * m, [one.derived_from] * m
            version = [one.generator_version] * m
        else:
            generator = [p.generator or given.generator for p in provs]
            seeds = [p.seed for p in provs]
            method, derived = [p.method for p in provs], [p.derived_from for p in provs]
            version = [p.generator_version for p in provs]
        if given.seeds:
            seeds = [
                given.seeds[i] if s is None else s for i, s in zip(indices, seeds, strict=True)
            ]
        codes = symmetries.tolist()
        if given.claims is not None or given.minimal is not None:
            for i, is_min, code in zip(indices, minimal, codes, strict=True):
                wrong = given.contradicted(
                    i, None if is_min is None else bool(is_min), symmetry_names(code)
                )
                if wrong:
                    plan.fresh.corrected[i] = wrong
        plan.fresh.extend(
            [plan.keys[i] for i in indices],
            indices,
            [
                [plan.hashes[i] for i in indices],
                [geo.name] * m,
                [geo.regions_text] * m,
                lines,
                format_lines(sols),
                np.count_nonzero(rows, axis=1).tolist(),
                minimal,
                generator,
                [None if s is None else int(s) for s in seeds],
                method,
                derived,
                version,
            ],
            codes,
        )

    def _solution(
        self, geo: Geometry, row: NDArray[np.int8], line: str, stated: PuzzleLike | None
    ) -> NDArray[np.int8] | NotUniqueError:
        """The solution of one new puzzle (a stated one checked, else searched), or
        the error that says it has none or several."""
        from csp_sudoku.core.verify import is_solution

        backend = self._checker(geo).backend
        sol = None if stated is None else puzzle_arg(stated, "solution", geo)
        if sol is None or not is_solution(sol, Puzzle(row, geo)):
            found = backend.solutions(row, geo, 2)
            if len(found) != 1:
                return _not_unique(line, len(found))
            return np.asarray(found[0], dtype=np.int8)
        if backend.other_solution(row, geo, sol.cells) is not None:
            return NotUniqueError(f"{line}: has a second solution")
        return sol.cells

    def _start_facts9(
        self, geo: Geometry, rows: NDArray[np.int8], given: _Given
    ) -> Callable[[], tuple[NDArray[np.int8], NDArray[np.int8]]] | None:
        """Begin the facts of plain 9x9 ``rows`` by the batch kernel
        (:func:`csp_sudoku._kernels.bank.facts_rows`: a ``FACT_*`` code each, and
        the solution of each unique one); returns what waits for them and gives
        ``(codes, solutions)``, or None when the rows are not for it (another
        geometry or backend, or solutions given, which are checked one by one).

        The rows are cut into blocks of :data:`FACT_BLOCK` shared among the bank's
        threads, one per core (the kernel releases the GIL). An exception while
        waiting (a Ctrl-C) cancels the blocks not begun; :meth:`close` waits for
        those under way.
        """
        from csp_sudoku.backends.fast import FastBackend

        backend = self._checker(geo).backend
        if (
            geo != Geometry.standard(9)
            or type(backend) is not FastBackend
            or (given.solutions is not None and any(s is not None for s in given.solutions))
        ):
            return None
        from csp_sudoku._kernels.bank import facts_rows

        codes = np.empty(len(rows), np.int8)
        sols = np.empty_like(rows)
        budgets = (backend._budget9(2), backend._budget9(1))  # its budgets of these searches

        def block(start: int) -> None:
            end = start + FACT_BLOCK
            facts_rows(
                rows[start:end], given.check_minimal, *budgets, sols[start:end], codes[start:end]
            )

        starts = range(0, len(rows), FACT_BLOCK)
        threads = os.cpu_count() or 1
        if threads == 1 or len(starts) == 1:
            for start in starts:
                block(start)
            return lambda: (codes, sols)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(threads, thread_name_prefix="csp-sudoku-facts")
        futures = [self._pool.submit(block, start) for start in starts]

        def wait() -> tuple[NDArray[np.int8], NDArray[np.int8]]:
            try:
                for future in futures:
                    future.result()
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
            return codes, sols

        return wait

    def write(self, plan: PreparedBatch) -> BatchResults:
        """Write a prepared batch (:meth:`prepare`) in one transaction; the results in
        batch order, as :meth:`add_each` gives them.

        The keys of its new puzzles are checked again inside the transaction
        (:meth:`_raced`): a puzzle that another process, or a batch written since
        this one was prepared, added is a duplicate, not a second row.
        """
        self._finish(plan)
        now = time.time()
        ids = dict(plan.known)
        fresh = plan.fresh
        with self._write():
            if fresh:
                raced = self._raced(plan)
                ids.update(raced)
                fresh = fresh.without(raced)
            pids = range(0)
            if fresh:
                top = int(self._db.one("SELECT COALESCE(MAX(id), 0) FROM puzzles")[0])
                pids = range(top + 1, top + 1 + len(fresh))
                ids.update(zip(fresh.keys, pids, strict=True))
                self._db.executemany(
                    _INSERT_PUZZLE, zip(pids, fresh.keys, *fresh.columns, repeat(now))
                )
                self._db.executemany(
                    "INSERT INTO symmetries (puzzle_id, name) VALUES (?, ?)",
                    [
                        (pid, name)
                        for pid, code in zip(pids, fresh.symmetries, strict=True)
                        if code
                        for name in symmetry_names(code)
                    ],
                )
            self._stores += 1
            self._last_stored = dict(zip(fresh.keys, pids, strict=True))
            rating_rows = [
                (ids[plan.keys[i]], *values, now)
                for i, values in plan.ratings
                if i not in plan.errors and plan.keys[i] in ids
            ]
            if rating_rows:
                self._db.executemany(_INSERT_RATING + _KEEP, rating_rows)
        return BatchResults(plan.keys, ids, set(fresh.at), plan.errors, plan.fresh.corrected)

    def _raced(self, plan: PreparedBatch) -> dict[str, int]:
        """The new puzzles of a prepared batch banked since it was prepared, key -> id.

        Prepared in the transaction that writes it, only this bank's writes came
        in between: none (nothing to check) or the batch written last (checked
        in memory). Else the keys are looked up again.
        """
        keys = plan.fresh.keys
        if plan.transaction == self._transactions:
            since = self._stores - plan.stores
            if since == 0:
                return {}
            if since == 1:
                last = self._last_stored
                return {key: last[key] for key in keys if key in last}
        return self._ids_of(keys, plan.fresh.columns[0])

    def find(self, puzzle: PuzzleLike) -> BankEntry | None:
        """The banked puzzle isomorphic to ``puzzle``, or None.

        Raises:
            ArgumentError: when ``puzzle`` is not a puzzle.
        """
        key = dedup_key(puzzle_arg(puzzle, "puzzle"))
        found = self._ids_of([key], [key_hash(key)])
        return None if not found else self.get(found[key])

    def __contains__(self, puzzle: object) -> bool:
        """Whether an isomorph of ``puzzle`` (anything :meth:`find` takes) is banked;
        False for what is no puzzle."""
        try:
            return self.find(cast("PuzzleLike", puzzle)) is not None
        except ArgumentError:
            return False

    # ------------------------------------------------------------------ ratings
    def has_rating(self, puzzle_id: int, metric: str) -> bool:
        """Whether the puzzle has a rating with ``metric`` already."""
        row = self._db.one(
            "SELECT 1 FROM ratings WHERE puzzle_id = ? AND metric = ? LIMIT 1",
            (int(puzzle_id), str(metric)),
        )
        return row is not None

    def add_rating(self, puzzle_id: int, rating: Any) -> None:
        """Store a :class:`csp_sudoku.metrics.Rating` (or any object with its fields);
        it replaces a rating of the same metric that the puzzle had."""
        self.add_ratings([(puzzle_id, rating)])

    def add_ratings(self, ratings: Iterable[tuple[int, Any]], *, replace: bool = True) -> int:
        """Store ``(puzzle id, rating)`` pairs in one transaction; returns how many were stored.

        A puzzle keeps one rating per metric: with ``replace`` a new one replaces
        the rating it had, else that one is kept and the new one dropped (what
        ``bank add`` does with the ratings records carry).

        Raises:
            ArgumentError: ``ratings`` that is no iterable, an item that is no such
                pair, an id that is no whole number, an object that is no rating, or
                a score that is no finite number (nothing is stored).
            BankError: an id that is no banked puzzle.
        """
        given: object = ratings  # checked as the caller may have given anything
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            raise ArgumentError(
                "ratings must be an iterable of (puzzle id, rating) pairs, got "
                f"{type(given).__name__}"
            )
        now = time.time()
        rows = [_rating_row(pair, f"ratings[{i}]", now) for i, pair in enumerate(given)]
        if not rows:
            return 0
        with self._write():
            return _insert_ratings(self._db, rows, replace=replace)

    def rate(
        self,
        metric: str,
        *,
        query: BankQuery | None = None,
        seed: int | None = None,
        runs: int | None = None,
        jobs: int = 1,
        progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Rate the selected puzzles not yet rated with ``metric``; returns how many.

        Uses :func:`csp_sudoku.metrics.rate_many`, whose per-item seeds are
        recorded with each rating. The ratings are stored as they come and
        committed within :data:`RATING_COMMIT_SECONDS` (one transaction for
        those of that second, not one each), by a thread, so also while a long
        rating runs (:class:`_RatingCommits`), and the last ones when the run
        ends, however it ends: an interrupted run keeps what it rated, a killed
        one what it rated up to a second before (the next run rates the rest);
        and ``progress(done, total)`` is called after each.
        """
        from dataclasses import replace

        from csp_sudoku.metrics import rate_many

        if self.rated_count(metric) >= len(self):
            return 0  # every puzzle is rated: no need to look at each
        q = replace(query or BankQuery(), metric=metric, unrated=True)
        entries = self.query(q)
        if not entries:
            return 0
        commits = _RatingCommits(self)

        def store(i: int, rating: Any) -> None:
            commits.put(entries[i].id, rating)
            if progress is not None:
                progress(i + 1, len(entries))

        try:
            rate_many(
                [e.puzzle for e in entries],
                cast(MetricName, metric),
                runs=runs,
                seed=seed,
                jobs=jobs,
                on_rating=store,
            )
        finally:
            commits.close()
        return len(entries)

    # ------------------------------------------------------------------ reading
    def get(self, puzzle_id: int) -> BankEntry:
        """One banked puzzle by id.

        Raises:
            BankError: when there is no such id.
        """
        row = self._db.one(_GET_PUZZLE, (int(puzzle_id),))
        if row is None:
            raise BankError(f"no puzzle with id {puzzle_id}")
        pid, key, gname, regions, text, sol, clues, minimal = row[:8]
        given = dict(zip(_PROVENANCE, row[8:], strict=True))  # stored as the record said
        from csp_sudoku.core.io import parse_line

        geo = Geometry.named(gname, regions)
        syms = tuple(
            r[0]
            for r in self._db.all(
                "SELECT name FROM symmetries WHERE puzzle_id = ? ORDER BY name", (pid,)
            )
        )
        ratings: dict[str, tuple[float, str | None]] = {}
        for metric, score, level in self._db.all(
            "SELECT metric, score, level FROM ratings WHERE puzzle_id = ? ORDER BY id", (pid,)
        ):
            ratings[metric] = (float(score), level)
        puzzle, solution = parse_line(text, geo), parse_line(sol, geo)
        is_minimal = None if minimal is None else bool(minimal)
        return BankEntry(
            int(pid),
            puzzle,
            solution,
            int(clues),
            is_minimal,
            syms,
            ratings=ratings,
            key=key,
            **given,
        )

    def rated_metrics(self) -> list[str]:
        """The metrics of the banked ratings, sorted (one index seek each)."""
        return [r[0] for r in self._db.all(_RATED_METRICS)]

    def levels(self, metric: str) -> list[str]:
        """The level names that banked ratings of ``metric`` use, sorted (one seek each)."""
        return [r[0] for r in self._db.all(_LEVELS, (metric,))]

    def check_query(self, query: BankQuery) -> None:
        """Refuse a query that names a metric or level that nothing can have.

        A metric is known when the library has it or a banked rating uses it;
        a level, when the metric's levels or a banked rating of that metric
        has it (case-insensitive). An unknown name would select nothing, which
        looks like an empty bank rather than a typing mistake.

        Raises:
            BankError: naming the unknown metric or level and the known ones, or a
                level of a metric that has none (saying to select by score).
        """
        self._levels_of(query)

    def _levels_of(self, query: BankQuery) -> list[str] | None:
        """Check the query's metric and level (see :meth:`check_query`); the spellings
        of its level in the bank's ratings (None without a level)."""
        if query.metric is None:
            return None
        banked = self.rated_metrics()
        if query.level is None and query.metric in banked:
            return None  # known: no need to load the metrics (20 ms of a query's start)
        from csp_sudoku.metrics.registry import REGISTRY

        metrics = list(REGISTRY) + [m for m in banked if m not in REGISTRY]
        if query.metric not in metrics:
            raise BankError(f"unknown metric {query.metric!r}; known: {', '.join(metrics)}")
        if query.level is None:
            return None
        levels = list(REGISTRY[query.metric].levels()) if query.metric in REGISTRY else []
        rated = self.levels(query.metric)
        for level in rated:
            if level.lower() not in {lv.lower() for lv in levels}:
                levels.append(level)
        if not levels:  # "known: " and nothing after it said no more than the error
            raise BankError(
                f"metric {query.metric} has no levels (the library does not know it and "
                f"its banked ratings name none), so level {query.level!r} selects nothing; "
                "select by score instead: min_score/max_score (--score-min/--score-max)"
            )
        if query.level.lower() not in {lv.lower() for lv in levels}:
            raise BankError(
                f"unknown level {query.level!r} of {query.metric}; known: {', '.join(levels)}"
            )
        return [lv for lv in rated if lv.lower() == query.level.lower()]

    def _sql(self, query: BankQuery) -> tuple[str, list[Any]]:
        """The query's statement, checked (:meth:`check_query`), its level as banked."""
        query.sql()  # the query's own checks come first: a range, an order, a missing metric
        return query.sql(self._levels_of(query))

    def query(self, query: BankQuery | None = None) -> list[BankEntry]:
        """The banked puzzles matching ``query`` (all of them when None), in its order.

        Raises:
            BankError: an unknown metric or level (see :meth:`check_query`), symmetry or order.
        """
        return list(self.iter_query(query))

    def iter_query(self, query: BankQuery | None = None) -> Iterator[BankEntry]:
        """The puzzles of :meth:`query`, read one by one as they are asked for: a bank of
        any size is written out with the memory of its ids (the query is checked and
        its ids read at the call).

        Raises:
            BankError: as :meth:`query`; and, while they are read, an id of the
                query's index that names no puzzle (a damaged file: it said "no
                puzzle with id -1", naming neither the file nor the damage).
        """
        return self._read(self.ids(query))

    def _read(self, ids: list[int]) -> Iterator[BankEntry]:
        for i in ids:
            try:
                entry = self.get(i)
            except BankError:
                raise BankError(
                    f"{self.path}: the bank file is damaged: an index names puzzle {i}, "
                    "which its puzzles table does not hold (restore a copy, or rebuild "
                    f"the indexes: sqlite3 {self.path} REINDEX)"
                ) from None
            yield entry

    def ids(self, query: BankQuery | None = None) -> list[int]:
        """The ids of the puzzles of :meth:`query`, in its order (all: ``len`` ints).

        Raises:
            BankError: as :meth:`query`.
        """
        text, params = self._sql(query or BankQuery())
        ids = [int(r[0]) for r in self._db.all(text, params)]
        # once each: an old bank read without its upgrade may rate a puzzle twice by a metric
        return ids if self._db.hinted else list(dict.fromkeys(ids))

    def count(self, query: BankQuery | None = None) -> int:
        """How many banked puzzles match ``query`` (checked as by :meth:`query`)."""
        text, params = self._sql(query or BankQuery())
        return int(self._db.one(f"SELECT COUNT(*) FROM ({text})", params)[0])

    def rated_count(self, metric: str) -> int:
        """How many puzzles have a rating of ``metric`` (an index range counted)."""
        row = self._db.one(
            "SELECT COUNT(*) FROM ratings INDEXED BY ratings_by_score WHERE metric = ?", (metric,)
        )
        return int(row[0])

    def stats(self) -> dict[str, Any]:
        """Counts for a summary: puzzles, minimal, per clue count, per metric and level.

        Each count reads an index, not the tables: about a second for a million
        puzzles with two metrics rated.
        """
        db = self._db
        levels: dict[str, dict[str, int]] = {}
        counted = db.all(
            "SELECT metric, level, COUNT(*) FROM ratings INDEXED BY ratings_by_level "
            "GROUP BY metric, level"
        )
        ranks = {
            (metric, level): db.one(
                "SELECT level_rank FROM ratings WHERE metric = ? AND level IS ? LIMIT 1",
                (metric, level),
            )[0]
            for metric, level, _ in counted
        }
        for metric, level, n in sorted(
            counted,
            key=lambda r: (r[0], ranks[r[0], r[1]] is None, ranks[r[0], r[1]] or 0, r[1] or ""),
        ):
            levels.setdefault(metric, {})["-" if level is None else level] = int(n)
        return {
            "puzzles": len(self),
            "minimal": int(db.one("SELECT COUNT(*) FROM puzzles WHERE minimal = 1")[0]),
            "exported": int(db.one("SELECT COUNT(DISTINCT puzzle_id) FROM exports")[0]),
            "clues": {
                int(c): int(n)
                for c, n in db.all(
                    "SELECT clues, COUNT(*) FROM puzzles GROUP BY clues ORDER BY clues"
                )
            },
            "levels": levels,
        }

    # ------------------------------------------------------------------ exporting
    def mark_exported(self, puzzle_ids: Iterable[int], batch: str) -> None:
        """Record that these puzzles went out in ``batch``."""
        now = time.time()
        with self._write():
            self._db.executemany(
                "INSERT OR IGNORE INTO exports (puzzle_id, batch, exported) VALUES (?, ?, ?)",
                [(int(i), batch, now) for i in puzzle_ids],
            )

    def export(
        self,
        entries: Iterable[BankEntry],
        target: str | os.PathLike[str] | IO[str],
        *,
        batch: str | None = None,
        solutions: bool = False,
    ) -> int:
        """Write puzzles one per line (``puzzle`` or ``puzzle solution``) and record the batch.

        The entries are written as they come (an :meth:`iter_query` streams a bank
        of any size); the batch is recorded only after every line is written.
        """
        ids: list[int] = []
        with open_output(target) as fh:
            for e in entries:
                fh.write(
                    e.puzzle.to_line() + (" " + e.solution.to_line() if solutions else "") + "\n"
                )
                ids.append(e.id)
        if batch is not None:
            self.mark_exported(ids, batch)
        return len(ids)
