"""A puzzle bank: one SQLite file of puzzles without duplicates.

Every puzzle is stored once per isomorphism class: a 9x9 puzzle's key is its
canonical form (:mod:`csp_sudoku.tools.canonical`), so a relabelled, rotated or
shuffled copy of a banked puzzle is recognised as a duplicate. Puzzles of
other geometries are keyed by their geometry and their exact text (no
symmetry reduction; the symmetry groups of variants differ).

Each puzzle row keeps its solution, clue count, minimality, the symmetries of
its clue pattern, its provenance (the generator and its method, seed and
version, the puzzle it was derived from) and when it was added. The facts
(solution, minimality, symmetries) are computed by the library when a puzzle
is added, never copied from the record that brought it: a record whose claims
are wrong is stored with the true values, and :class:`AddResult` says which
claims were corrected.

Several processes may add to one bank at once: each write is one ``BEGIN
IMMEDIATE`` transaction that waits for the others (busy timeout), and an
isomorphic puzzle added by another process in between is a duplicate, not an
error. A file that is not a bank (another program's SQLite database, a file
that is no database) is refused, and so is a bank that fails SQLite's
``quick_check`` when it is opened for writing.
Ratings live in their own table with their provenance (metric, parameters,
runs, seed, library version), so a puzzle can carry ratings of several
metrics, and an ``exports`` table records which puzzles went out in which
batch. Every statement is parameterised: values never enter SQL text.

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
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, cast

import numpy as np

from csp_sudoku.core.closing import Closing
from csp_sudoku.core.errors import ArgumentError, NotUniqueError, ParseError
from csp_sudoku.core.errors import BankError as BankError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_output
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.generators.symmetry import SYMMETRIES, is_symmetric

if TYPE_CHECKING:
    from csp_sudoku.api import PuzzleLike

SCHEMA_VERSION = 2

#: SQLite's ``application_id`` of a bank file ("CSPB"): marks the file as a bank.
APPLICATION_ID = 0x43535042

#: Seconds a writer waits for another process's write transaction to end.
BUSY_TIMEOUT = 60.0

#: Clue-pattern symmetries recorded for each puzzle (the generators' names, less "none").
PATTERN_SYMMETRIES: tuple[str, ...] = tuple(name for name in SYMMETRIES if name != "none")

#: The names a query's ``symmetry`` takes: ``none`` selects patterns with no symmetry.
QUERY_SYMMETRIES: tuple[str, ...] = ("none", *PATTERN_SYMMETRIES)

#: The columns a version 2 bank added to the puzzles table of version 1.
_V2_COLUMNS = (("method", "TEXT"), ("derived_from", "TEXT"), ("generator_version", "TEXT"))

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
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
);
CREATE TABLE IF NOT EXISTS symmetries (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    PRIMARY KEY (puzzle_id, name)
);
CREATE TABLE IF NOT EXISTS ratings (
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
);
CREATE TABLE IF NOT EXISTS exports (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    batch TEXT NOT NULL,
    exported REAL NOT NULL,
    PRIMARY KEY (puzzle_id, batch)
);
CREATE INDEX IF NOT EXISTS ratings_by_metric ON ratings(metric, level, score);
CREATE INDEX IF NOT EXISTS puzzles_by_clues ON puzzles(clues);
"""


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
        ratings: ``{metric: (score, level)}``, the latest rating of each metric.
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


@dataclass(frozen=True)
class BankQuery:
    """A selection of banked puzzles; every field is optional.

    Attributes:
        limit: at most this many (None: all).
        minimal: only minimal (True) or only non-minimal (False) puzzles.
        symmetry: only puzzles whose clue pattern has this symmetry (``rot180`` ...);
            ``none``: only puzzles whose pattern has none of them.
        metric: with ``level``/``min_score``/``max_score``: a rating of this metric.
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
        order: ``id`` (oldest first), ``clues``, ``score`` (needs ``metric``) or ``-score``.
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

    def sql(self) -> tuple[str, list[Any]]:
        """The SELECT of matching puzzle ids and its parameters (fixed SQL, values bound)."""
        where: list[str] = []
        params: list[Any] = []
        for least, most, low, high in (
            ("min_clues (--min-clues)", "max_clues (--max-clues)", self.min_clues, self.max_clues),
            ("min_score (--score-min)", "max_score (--score-max)", self.min_score, self.max_score),
        ):
            if low is not None and high is not None and low > high:
                raise BankError(f"{least} {low:g} is above {most} {high:g}: no puzzle can match")
        if self.minimal is not None:
            where.append("p.minimal = ?")
            params.append(int(self.minimal))
        if self.symmetry is not None:
            if self.symmetry not in QUERY_SYMMETRIES:
                raise BankError(
                    f"unknown symmetry {self.symmetry!r}; known: {', '.join(QUERY_SYMMETRIES)}"
                )
            if self.symmetry == "none":
                where.append("NOT EXISTS (SELECT 1 FROM symmetries s WHERE s.puzzle_id = p.id)")
            else:
                where.append(
                    "EXISTS (SELECT 1 FROM symmetries s WHERE s.puzzle_id = p.id AND s.name = ?)"
                )
                params.append(self.symmetry)
        for column, op, value in (
            ("p.clues", ">=", self.min_clues),
            ("p.clues", "<=", self.max_clues),
            ("p.generator", "=", self.generator),
            ("p.geometry", "=", self.geometry),
        ):
            if value is not None:
                where.append(f"{column} {op} ?")
                params.append(value)
        rating_filter = any(
            v is not None for v in (self.level, self.min_score, self.max_score)
        ) or self.order in ("score", "-score")
        if (rating_filter or self.unrated) and self.metric is None:
            raise BankError("a level, score or unrated filter needs a metric")
        if self.metric is not None and (rating_filter or not self.unrated):
            cond = ["r.puzzle_id = p.id", "r.metric = ?"]
            params.append(self.metric)
            if self.level is not None:
                cond.append("r.level = ? COLLATE NOCASE")
                params.append(self.level)
            if self.min_score is not None:
                cond.append("r.score >= ?")
                params.append(self.min_score)
            if self.max_score is not None:
                cond.append("r.score <= ?")
                params.append(self.max_score)
            where.append(f"EXISTS (SELECT 1 FROM ratings r WHERE {' AND '.join(cond)})")
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
        orders = {
            "id": "p.id",
            "clues": "p.clues, p.id",
            "score": "(SELECT MAX(r3.score) FROM ratings r3 WHERE r3.puzzle_id = p.id "
            "AND r3.metric = ?), p.id",
            "-score": "(SELECT MAX(r3.score) FROM ratings r3 WHERE r3.puzzle_id = p.id "
            "AND r3.metric = ?) DESC, p.id",
        }
        if self.order not in orders:
            raise BankError(f"unknown order {self.order!r}; known: {', '.join(orders)}")
        if self.order in ("score", "-score"):
            params.append(self.metric)
        text = "SELECT p.id FROM puzzles p"
        if where:
            text += " WHERE " + " AND ".join(where)
        text += " ORDER BY " + orders[self.order]
        if self.limit is not None:
            if self.limit < 0:
                raise BankError(f"limit must be >= 0, got {self.limit}")
            text += " LIMIT ?"
            params.append(int(self.limit))
        return text, params


def _line(cells: Any) -> str:
    from csp_sudoku.core.io import symbol

    return "".join(symbol(int(v)) if v else "." for v in np.asarray(cells).reshape(-1).tolist())


class _Guarded:
    """An SQLite connection whose errors are :class:`BankError` naming the bank file.

    A damaged file often passes the checks made on opening and fails only when
    a damaged page is read; the error then says what happened in the bank's
    words, not SQLite's exception (which the command line reports as a bug).
    """

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path

    def _error(self, err: sqlite3.Error) -> BankError:
        text = " ".join(str(err).split())
        if isinstance(err, sqlite3.OperationalError):  # locked, read-only, disk full ...
            return BankError(f"{self.path}: {text}")
        return BankError(
            f"{self.path}: not a puzzle bank, or a damaged one ({text}); refusing to use it"
        )

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """``sqlite3.Connection.execute``, its errors as BankError."""
        try:
            return self.db.execute(sql, params)
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


def _as_puzzle(item: Any, what: str, geometry: Geometry | None = None) -> Puzzle:
    """``item`` as a :class:`Puzzle`: a Puzzle, a puzzle line or grid text, or an array of
    cell values (what :data:`csp_sudoku.api.PuzzleLike` documents).

    Raises:
        ArgumentError: naming ``what`` when ``item`` is none of these (or text that is
            no puzzle: the parser's reason is kept).
    """
    from csp_sudoku.api import as_puzzle

    if isinstance(item, Puzzle):
        return item
    if not isinstance(item, (str, np.ndarray, list, tuple)):
        raise ArgumentError(
            f"{what} must be a Puzzle, a puzzle line or an array of cell values, "
            f"got {type(item).__name__}"
        )
    try:
        return as_puzzle(item, geometry)
    except ParseError as err:
        raise ArgumentError(f"{what} is not a puzzle: {err}") from None
    except (TypeError, ValueError) as err:
        raise ArgumentError(f"{what} is not a puzzle: {err}") from None


def pattern_symmetries(puzzle: Puzzle) -> tuple[str, ...]:
    """The symmetries (of :data:`PATTERN_SYMMETRIES`) that map the clue pattern onto itself."""
    n = puzzle.geometry.size
    return tuple(name for name in PATTERN_SYMMETRIES if is_symmetric(puzzle.cells, n, name))


def dedup_key(puzzle: Puzzle) -> str:
    """The bank's identity of a puzzle: its canonical form for 9x9, else geometry + text."""
    g = puzzle.geometry
    if g == Geometry.standard(9):
        from csp_sudoku.tools.canonical import canonical_key

        return canonical_key(puzzle)
    regions = g.regions_text
    shape = g.name if regions is None else f"{g.name}:{regions}"
    return f"{shape}:{puzzle.to_line()}"


class PuzzleBank(Closing):
    """A SQLite puzzle bank (one file, no server); a context manager.

    Args:
        path: the database file (created when missing), or ``":memory:"``.
        readonly: the caller only reads (query, stats): the file is not created
            when missing and not ``quick_check``-ed (a check reads the whole file).

    Raises:
        BankError: when the file is not a puzzle bank (another program's SQLite
            database, or no database at all), is of an unknown schema version,
            or fails ``PRAGMA quick_check`` when opened for writing; and, with
            ``readonly``, when it does not exist.
    """

    def __init__(
        self, path: str | os.PathLike[str] = ":memory:", *, readonly: bool = False
    ) -> None:
        self.path = os.fspath(path)
        memory = self.path == ":memory:"
        existed = not memory and os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if readonly and not memory and not os.path.exists(self.path):
            raise BankError(f"{self.path}: no such bank")
        try:
            # autocommit: every write is an explicit BEGIN IMMEDIATE (see _write)
            self._db = _Guarded(
                sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None), self.path
            )
        except sqlite3.Error as err:
            raise BankError(f"{self.path}: cannot open the bank ({err})") from None
        try:
            self._open(existed, check=not readonly)
        except BaseException:
            self._db.close()
            raise

    def _open(self, existed: bool, *, check: bool) -> None:
        """Recognise (or create) the bank: its tables, schema version and soundness."""
        db = self._db
        try:
            db.execute("PRAGMA foreign_keys = ON")
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and not self._is_bank(tables):
                shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
                raise BankError(
                    f"{self.path}: an SQLite database of another program (tables: {shown}), "
                    "not a puzzle bank; refusing to use it as one"
                )
            if existed and check:
                found = [r[0] for r in db.execute("PRAGMA quick_check(5)")]
                if found != ["ok"]:
                    raise BankError(
                        f"{self.path}: the bank file is damaged "
                        f"({' '.join('; '.join(map(str, found)).split())}); "
                        "refusing to write into it (restore a copy, or .recover it with sqlite3)"
                    )
            if tables and self._current():
                return  # nothing to create or migrate: opening writes nothing
            with self._write():
                for statement in _SCHEMA.split(";"):  # not executescript: it would commit
                    if statement.strip():
                        db.execute(statement)
                db.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                    ("schema", str(SCHEMA_VERSION)),
                )
                row = db.execute("SELECT value FROM meta WHERE key = ?", ("schema",)).fetchone()
                version = int(row[0])
                if version == 1:
                    self._migrate_v1()
                elif version != SCHEMA_VERSION:
                    raise BankError(
                        f"{self.path}: schema version {version}, expected {SCHEMA_VERSION}"
                    )
                if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # a constant
        except sqlite3.DatabaseError as err:
            raise BankError(
                f"{self.path}: not a puzzle bank, or a damaged one ({' '.join(str(err).split())}); "
                "refusing to use it"
            ) from None

    def _is_bank(self, tables: set[str]) -> bool:
        """Whether a database's tables (and ``application_id``) are a bank's."""
        app = int(self._db.execute("PRAGMA application_id").fetchone()[0])
        if app not in (0, APPLICATION_ID) or not {"meta", "puzzles"} <= tables:
            return False
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", ("schema",)).fetchone()
        return row is not None

    def _current(self) -> bool:
        """Whether the bank is of this schema version and marked as a bank already."""
        app = int(self._db.execute("PRAGMA application_id").fetchone()[0])
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", ("schema",)).fetchone()
        return app == APPLICATION_ID and row is not None and row[0] == str(SCHEMA_VERSION)

    def _migrate_v1(self) -> None:
        """Bring a version 1 bank to version 2: the provenance columns, empty for old rows."""
        have = {r[1] for r in self._db.execute("PRAGMA table_info(puzzles)")}
        for name, kind in _V2_COLUMNS:
            if name not in have:
                self._db.execute(f"ALTER TABLE puzzles ADD COLUMN {name} {kind}")  # constants
        self._db.execute("UPDATE meta SET value = ? WHERE key = ?", (str(SCHEMA_VERSION), "schema"))

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, begun IMMEDIATE: it waits (up to :data:`BUSY_TIMEOUT`)
        for another process's write rather than failing half-way; committed on success,
        rolled back on any exception."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.db.in_transaction:
                self._db.db.rollback()
            raise
        self._db.execute("COMMIT")

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0])

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
        puzzles: Iterable[PuzzleLike],
        *,
        solutions: Sequence[PuzzleLike | None] | None = None,
        minimal: Sequence[bool | None] | None = None,
        check_minimal: bool = True,
        generator: str | None = None,
        seeds: Sequence[int | None] | None = None,
        claims: Sequence[Claims | None] | None = None,
        provenance: Sequence[Provenance | None] | None = None,
    ) -> list[AddResult]:
        """Add many puzzles in one transaction (see :meth:`add`); returns one result each.

        The facts of every new puzzle (its solution, minimality, symmetries) are
        computed first, outside the write transaction, so that other processes
        adding to the bank wait only for the inserts. ``minimal`` (per puzzle)
        is a list of claims like ``claims``; ``generator`` and ``seeds`` fill
        what ``provenance`` leaves empty.

        Raises:
            NotUniqueError: when a puzzle has no solution or several (nothing is added).
            ArgumentError: when an item is not a puzzle.
        """
        from csp_sudoku.api import Checker
        from csp_sudoku.core.verify import is_solution

        checkers: dict[Geometry, Checker] = {}
        rows: list[tuple[str, tuple[Any, ...] | None, tuple[str, ...], tuple[str, ...]]] = []
        for i, item in enumerate(puzzles):
            p = _as_puzzle(item, "puzzle")
            key = dedup_key(p)
            claim = (claims[i] if claims is not None else None) or Claims()
            if minimal is not None and minimal[i] is not None and claim.minimal is None:
                claim = Claims(minimal=minimal[i], symmetry=claim.symmetry)
            known = self._db.execute("SELECT id FROM puzzles WHERE key = ?", (key,)).fetchone()
            if known is not None:  # an isomorph is banked: nothing to compute or store
                rows.append((key, None, (), ()))
                continue
            chk = checkers.get(p.geometry)
            if chk is None:
                chk = checkers[p.geometry] = Checker(p.geometry)
            given = solutions[i] if solutions is not None else None
            sol = None if given is None else _as_puzzle(given, "solution", p.geometry)
            if sol is None or not is_solution(sol, p):
                found = chk.backend.solutions(p.cells, p.geometry, 2)
                if len(found) != 1:
                    raise NotUniqueError(
                        f"{p.to_line()}: a bank keeps unique puzzles; this one has "
                        f"{'no solution' if not found else 'several solutions'}"
                    )
                sol = Puzzle(found[0], p.geometry)
            elif chk.has_other_solution(p.cells, sol.cells):
                raise NotUniqueError(f"{p.to_line()}: has a second solution")
            is_min: bool | None = None
            if check_minimal:
                is_min = chk.removable_clues(p.cells, sol.cells).size == 0
            syms = pattern_symmetries(p)
            corrected: list[str] = []
            if claim.minimal is not None and is_min is not None and claim.minimal != is_min:
                corrected.append("minimal")
            if claim.symmetry is not None and not (
                (claim.symmetry == "none" and not syms) or claim.symmetry in syms
            ):
                corrected.append("symmetry")
            prov = provenance[i] if provenance is not None else None
            prov = prov or Provenance()
            seed = prov.seed if prov.seed is not None else (seeds[i] if seeds else None)
            g = p.geometry
            values = (
                key,
                g.name,
                g.regions_text,
                p.to_line(),
                sol.to_line(),
                p.clue_count,
                None if is_min is None else int(is_min),
                prov.generator or generator,
                None if seed is None else int(seed),
                prov.method,
                prov.derived_from,
                prov.generator_version,
            )
            rows.append((key, values, syms, tuple(corrected)))
        results: list[AddResult] = []
        now = time.time()
        with self._write():
            for row_key, row_values, row_syms, row_corrected in rows:
                cur = None
                if row_values is not None:
                    cur = self._db.execute(
                        "INSERT OR IGNORE INTO puzzles (key, geometry, regions, puzzle, "
                        "solution, clues, minimal, generator, seed, method, derived_from, "
                        "generator_version, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (*row_values, now),
                    )
                if cur is None or cur.rowcount == 0:  # banked already, maybe by another process
                    found_id = self._db.execute(
                        "SELECT id FROM puzzles WHERE key = ?", (row_key,)
                    ).fetchone()
                    results.append(AddResult(int(found_id[0]), False, row_corrected))
                    continue
                pid = int(cur.lastrowid or 0)
                self._db.executemany(
                    "INSERT INTO symmetries (puzzle_id, name) VALUES (?, ?)",
                    [(pid, name) for name in row_syms],
                )
                results.append(AddResult(pid, True, row_corrected))
        return results

    def find(self, puzzle: PuzzleLike) -> BankEntry | None:
        """The banked puzzle isomorphic to ``puzzle``, or None.

        Raises:
            ArgumentError: when ``puzzle`` is not a puzzle.
        """
        key = dedup_key(_as_puzzle(puzzle, "puzzle"))
        row = self._db.execute("SELECT id FROM puzzles WHERE key = ?", (key,)).fetchone()
        return None if row is None else self.get(int(row[0]))

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
        row = self._db.execute(
            "SELECT 1 FROM ratings WHERE puzzle_id = ? AND metric = ? LIMIT 1",
            (int(puzzle_id), str(metric)),
        ).fetchone()
        return row is not None

    def add_rating(self, puzzle_id: int, rating: Any) -> None:
        """Store a :class:`csp_sudoku.metrics.Rating` (or any object with its fields)."""
        params = getattr(rating, "parameters", {}) or {}
        with self._write():
            self._db.execute(
                "INSERT INTO ratings (puzzle_id, metric, score, level, level_rank, parameters, "
                "runs, seed, version, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    int(puzzle_id),
                    str(rating.metric),
                    float(rating.score),
                    getattr(rating, "level", None),
                    getattr(rating, "level_rank", None),
                    json.dumps(params, sort_keys=True, default=str),
                    getattr(rating, "runs", None),
                    getattr(rating, "seed", None),
                    getattr(rating, "version", None),
                    time.time(),
                ),
            )

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
        recorded with each rating. Each rating is stored as it comes, so an
        interrupted run keeps what it rated (the next run rates the rest); and
        ``progress(done, total)`` is called after each.
        """
        from dataclasses import replace

        from csp_sudoku.metrics import rate_many

        q = replace(query or BankQuery(), metric=metric, unrated=True)
        entries = self.query(q)
        if not entries:
            return 0

        def store(i: int, rating: Any) -> None:
            self.add_rating(entries[i].id, rating)
            if progress is not None:
                progress(i + 1, len(entries))

        rate_many(
            [e.puzzle for e in entries],
            cast(MetricName, metric),
            runs=runs,
            seed=seed,
            jobs=jobs,
            on_rating=store,
        )
        return len(entries)

    # ------------------------------------------------------------------ reading
    def get(self, puzzle_id: int) -> BankEntry:
        """One banked puzzle by id.

        Raises:
            BankError: when there is no such id.
        """
        row = self._db.execute(
            "SELECT id, key, geometry, regions, puzzle, solution, clues, minimal, generator, seed, "
            "method, derived_from, generator_version FROM puzzles WHERE id = ?",
            (int(puzzle_id),),
        ).fetchone()
        if row is None:
            raise BankError(f"no puzzle with id {puzzle_id}")
        pid, key, gname, regions, text, sol, clues, minimal, generator, seed = row[:10]
        method, derived_from, generator_version = row[10:]
        from csp_sudoku.core.io import parse_line

        geo = Geometry.named(gname, regions)
        syms = tuple(
            r[0]
            for r in self._db.execute(
                "SELECT name FROM symmetries WHERE puzzle_id = ? ORDER BY name", (pid,)
            )
        )
        ratings: dict[str, tuple[float, str | None]] = {}
        for metric, score, level in self._db.execute(
            "SELECT metric, score, level FROM ratings WHERE puzzle_id = ? ORDER BY id", (pid,)
        ):
            ratings[metric] = (float(score), level)
        return BankEntry(
            id=int(pid),
            puzzle=parse_line(text, geo),
            solution=parse_line(sol, geo),
            clues=int(clues),
            minimal=None if minimal is None else bool(minimal),
            symmetries=syms,
            generator=generator,
            seed=seed,
            ratings=ratings,
            key=key,
            method=method,
            derived_from=derived_from,
            generator_version=generator_version,
        )

    def check_query(self, query: BankQuery) -> None:
        """Refuse a query that names a metric or level that nothing can have.

        A metric is known when the library has it or a banked rating uses it;
        a level, when the metric's levels or a banked rating of that metric
        has it (case-insensitive). An unknown name would select nothing, which
        looks like an empty bank rather than a typing mistake.

        Raises:
            BankError: naming the unknown metric or level and the known ones.
        """
        from csp_sudoku.metrics.registry import REGISTRY

        if query.metric is None:
            return
        db = self._db
        banked = [r[0] for r in db.execute("SELECT DISTINCT metric FROM ratings ORDER BY metric")]
        metrics = list(REGISTRY) + [m for m in banked if m not in REGISTRY]
        if query.metric not in metrics:
            raise BankError(f"unknown metric {query.metric!r}; known: {', '.join(metrics)}")
        if query.level is None:
            return
        levels = list(REGISTRY[query.metric].levels()) if query.metric in REGISTRY else []
        for (level,) in db.execute(
            "SELECT DISTINCT level FROM ratings WHERE metric = ? AND level IS NOT NULL "
            "ORDER BY level",
            (query.metric,),
        ):
            if level.lower() not in {lv.lower() for lv in levels}:
                levels.append(level)
        if query.level.lower() not in {lv.lower() for lv in levels}:
            raise BankError(
                f"unknown level {query.level!r} of {query.metric}; known: {', '.join(levels)}"
            )

    def query(self, query: BankQuery | None = None) -> list[BankEntry]:
        """The banked puzzles matching ``query`` (all of them when None), in its order.

        Raises:
            BankError: an unknown metric or level (see :meth:`check_query`), symmetry or order.
        """
        return list(self.iter_query(query))

    def iter_query(self, query: BankQuery | None = None) -> Iterator[BankEntry]:
        """The puzzles of :meth:`query`, read one by one as they are asked for: a bank of
        any size is written out with the memory of its ids (the query is checked at
        the call).

        Raises:
            BankError: as :meth:`query`.
        """
        query = query or BankQuery()
        self.check_query(query)
        text, params = query.sql()
        ids = [int(r[0]) for r in self._db.execute(text, params).fetchall()]
        return (self.get(i) for i in ids)

    def count(self, query: BankQuery | None = None) -> int:
        """How many banked puzzles match ``query`` (checked as by :meth:`query`)."""
        query = query or BankQuery()
        self.check_query(query)
        text, params = query.sql()
        row = self._db.execute(f"SELECT COUNT(*) FROM ({text})", params).fetchone()
        return int(row[0])

    def stats(self) -> dict[str, Any]:
        """Counts for a summary: puzzles, minimal, per clue count, per metric and level."""
        db = self._db
        levels: dict[str, dict[str, int]] = {}
        for metric, level, n in db.execute(
            "SELECT metric, COALESCE(level, '-'), COUNT(DISTINCT puzzle_id) FROM ratings "
            "GROUP BY metric, level ORDER BY metric, MIN(level_rank)"
        ):
            levels.setdefault(metric, {})[level] = int(n)
        return {
            "puzzles": len(self),
            "minimal": int(
                db.execute("SELECT COUNT(*) FROM puzzles WHERE minimal = 1").fetchone()[0]
            ),
            "exported": int(
                db.execute("SELECT COUNT(DISTINCT puzzle_id) FROM exports").fetchone()[0]
            ),
            "clues": {
                int(c): int(n)
                for c, n in db.execute(
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
