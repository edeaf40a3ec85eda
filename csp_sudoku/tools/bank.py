"""A puzzle bank: one SQLite file of puzzles without duplicates.

Every puzzle is stored once per isomorphism class: a 9x9 puzzle's key is its
canonical form (:mod:`csp_sudoku.tools.canonical`), so a relabelled, rotated or
shuffled copy of a banked puzzle is recognised as a duplicate. Puzzles of
other geometries are keyed by their geometry and their exact text (no
symmetry reduction; the symmetry groups of variants differ).

Each puzzle row keeps its solution, clue count, minimality, the symmetries of
its clue pattern, the generator and seed that made it, and when it was added.
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

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Any, cast

import numpy as np

from csp_sudoku.core.errors import BankError as BankError
from csp_sudoku.core.errors import NotUniqueError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_output
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.generators.symmetry import SYMMETRIES, is_symmetric

SCHEMA_VERSION = 1

#: Clue-pattern symmetries recorded for each puzzle (the generators' names, less "none").
PATTERN_SYMMETRIES: tuple[str, ...] = tuple(name for name in SYMMETRIES if name != "none")

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
    added REAL NOT NULL
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
    """One banked puzzle with its facts and ratings.

    Attributes:
        id: the row id.
        puzzle: the clues, as first added (not the canonical form).
        solution: its only solution.
        clues: the clue count.
        minimal: True/False, or None when it was not checked.
        symmetries: the symmetries of the clue pattern.
        generator: the generator's name, when known.
        seed: the generator's seed, when known.
        ratings: ``{metric: (score, level)}``, the latest rating of each metric.
        key: the deduplication key (canonical form for 9x9).
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


@dataclass(frozen=True)
class AddResult:
    """What :meth:`PuzzleBank.add` did: ``added`` is False for a duplicate of ``id``."""

    id: int
    added: bool


@dataclass(frozen=True)
class BankQuery:
    """A selection of banked puzzles; every field is optional.

    Attributes:
        limit: at most this many (None: all).
        minimal: only minimal (True) or only non-minimal (False) puzzles.
        symmetry: only puzzles whose clue pattern has this symmetry (``rot180`` ...).
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
        if self.minimal is not None:
            where.append("p.minimal = ?")
            params.append(int(self.minimal))
        if self.symmetry is not None:
            if self.symmetry not in PATTERN_SYMMETRIES:
                raise BankError(
                    f"unknown symmetry {self.symmetry!r}; known: {', '.join(PATTERN_SYMMETRIES)}"
                )
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


def _geometry_of(name: str, regions: str | None) -> Geometry:
    if regions:
        return Geometry.jigsaw([int(ch, 36) for ch in regions])
    if name == "windoku":
        return Geometry.windoku()
    if name.startswith("x-"):
        return Geometry.x_sudoku(int(name[2:].split("x")[0]))
    return Geometry.standard(int(name.split("x")[0]))


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
    shape = g.name
    if g.regions is not None:
        shape += ":" + "".join(np.base_repr(r, 36) for r in g.regions)
    return f"{shape}:{puzzle.to_line()}"


class PuzzleBank:
    """A SQLite puzzle bank (one file, no server); a context manager.

    Args:
        path: the database file (created when missing), or ``":memory:"``.

    Raises:
        BankError: when the file is not a puzzle bank of a known schema version.
    """

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = os.fspath(path)
        try:
            self._db = sqlite3.connect(self.path)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", ("schema",)).fetchone()
        except sqlite3.DatabaseError as err:
            raise BankError(f"{self.path}: not a puzzle bank ({err})") from None
        if row is None:
            with self._db:
                self._db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?)", ("schema", str(SCHEMA_VERSION))
                )
        elif int(row[0]) != SCHEMA_VERSION:
            raise BankError(f"{self.path}: schema version {row[0]}, expected {SCHEMA_VERSION}")

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> PuzzleBank:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0])

    # ------------------------------------------------------------------ adding
    def add(
        self,
        puzzle: Puzzle,
        *,
        solution: Puzzle | None = None,
        minimal: bool | None = None,
        check_minimal: bool = True,
        generator: str | None = None,
        seed: int | None = None,
    ) -> AddResult:
        """Add one unique puzzle unless an isomorphic one is banked already.

        Args:
            puzzle: the clues; it must have exactly one solution.
            solution: its solution when known (checked, not trusted).
            minimal: its minimality when known; else computed if ``check_minimal``.
            check_minimal: compute minimality (one solver call per clue) when not given.
            generator: the name of what made it.
            seed: the seed that made it.

        Raises:
            NotUniqueError: when the puzzle has no solution or several.
        """
        return self.add_many(
            [puzzle],
            solutions=[solution],
            minimal=[minimal],
            check_minimal=check_minimal,
            generator=generator,
            seeds=[seed],
        )[0]

    def add_many(
        self,
        puzzles: Iterable[Puzzle],
        *,
        solutions: Sequence[Puzzle | None] | None = None,
        minimal: Sequence[bool | None] | None = None,
        check_minimal: bool = True,
        generator: str | None = None,
        seeds: Sequence[int | None] | None = None,
    ) -> list[AddResult]:
        """Add many puzzles in one transaction (see :meth:`add`); returns one result each."""
        from csp_sudoku.api import Checker
        from csp_sudoku.core.verify import is_solution

        results: list[AddResult] = []
        checkers: dict[Geometry, Checker] = {}
        now = time.time()
        with self._db:
            for i, p in enumerate(puzzles):
                key = dedup_key(p)
                row = self._db.execute("SELECT id FROM puzzles WHERE key = ?", (key,)).fetchone()
                if row is not None:
                    results.append(AddResult(int(row[0]), False))
                    continue
                chk = checkers.get(p.geometry)
                if chk is None:
                    chk = checkers[p.geometry] = Checker(p.geometry)
                sol = solutions[i] if solutions is not None else None
                if sol is None or not is_solution(sol, p):
                    found = chk.backend.solutions(p.cells, p.geometry, 2)
                    if len(found) != 1:
                        raise NotUniqueError(
                            f"{p.to_line()}: a bank keeps unique puzzles; this one has "
                            f"{'no' if not found else 'several'} solutions"
                        )
                    sol = Puzzle(found[0], p.geometry)
                elif chk.has_other_solution(p.cells, sol.cells):
                    raise NotUniqueError(f"{p.to_line()}: has a second solution")
                is_min = minimal[i] if minimal is not None else None
                if is_min is None and check_minimal:
                    is_min = chk.removable_clues(p.cells, sol.cells).size == 0
                g = p.geometry
                regions = (
                    "".join(np.base_repr(r, 36) for r in g.regions)
                    if g.regions is not None
                    else None
                )
                seed = seeds[i] if seeds is not None else None
                cur = self._db.execute(
                    "INSERT INTO puzzles (key, geometry, regions, puzzle, solution, clues, "
                    "minimal, generator, seed, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        key,
                        g.name,
                        regions,
                        p.to_line(),
                        sol.to_line(),
                        p.clue_count,
                        None if is_min is None else int(is_min),
                        generator,
                        None if seed is None else int(seed),
                        now,
                    ),
                )
                pid = int(cur.lastrowid or 0)
                self._db.executemany(
                    "INSERT INTO symmetries (puzzle_id, name) VALUES (?, ?)",
                    [(pid, name) for name in pattern_symmetries(p)],
                )
                results.append(AddResult(pid, True))
        return results

    def find(self, puzzle: Puzzle) -> BankEntry | None:
        """The banked puzzle isomorphic to ``puzzle``, or None."""
        row = self._db.execute(
            "SELECT id FROM puzzles WHERE key = ?", (dedup_key(puzzle),)
        ).fetchone()
        return None if row is None else self.get(int(row[0]))

    def __contains__(self, puzzle: object) -> bool:
        return isinstance(puzzle, Puzzle) and self.find(puzzle) is not None

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
        with self._db:
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
    ) -> int:
        """Rate the selected puzzles not yet rated with ``metric``; returns how many.

        Uses :func:`csp_sudoku.metrics.rate_many`, whose per-item seeds are
        recorded with each rating.
        """
        from dataclasses import replace

        from csp_sudoku.metrics import rate_many

        q = replace(query or BankQuery(), metric=metric, unrated=True)
        entries = self.query(q)
        if not entries:
            return 0
        ratings = rate_many(
            [e.puzzle for e in entries], cast(MetricName, metric), runs=runs, seed=seed, jobs=jobs
        )
        for e, r in zip(entries, ratings, strict=True):
            self.add_rating(e.id, r)
        return len(entries)

    # ------------------------------------------------------------------ reading
    def get(self, puzzle_id: int) -> BankEntry:
        """One banked puzzle by id.

        Raises:
            BankError: when there is no such id.
        """
        row = self._db.execute(
            "SELECT id, key, geometry, regions, puzzle, solution, clues, minimal, generator, seed "
            "FROM puzzles WHERE id = ?",
            (int(puzzle_id),),
        ).fetchone()
        if row is None:
            raise BankError(f"no puzzle with id {puzzle_id}")
        pid, key, gname, regions, text, sol, clues, minimal, generator, seed = row
        from csp_sudoku.core.io import parse_line

        geo = _geometry_of(gname, regions)
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
        )

    def query(self, query: BankQuery | None = None) -> list[BankEntry]:
        """The banked puzzles matching ``query`` (all of them when None), in its order."""
        text, params = (query or BankQuery()).sql()
        ids = [int(r[0]) for r in self._db.execute(text, params).fetchall()]
        return [self.get(i) for i in ids]

    def count(self, query: BankQuery | None = None) -> int:
        """How many banked puzzles match ``query``."""
        text, params = (query or BankQuery()).sql()
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
        with self._db:
            self._db.executemany(
                "INSERT OR IGNORE INTO exports (puzzle_id, batch, exported) VALUES (?, ?, ?)",
                [(int(i), batch, now) for i in puzzle_ids],
            )

    def export(
        self,
        entries: Sequence[BankEntry],
        target: str | os.PathLike[str] | IO[str],
        *,
        batch: str | None = None,
        solutions: bool = False,
    ) -> int:
        """Write puzzles one per line (``puzzle`` or ``puzzle solution``) and record the batch.

        The batch is recorded only after every line is written.
        """
        lines = [
            e.puzzle.to_line() + (" " + e.solution.to_line() if solutions else "") for e in entries
        ]
        text = "".join(line + "\n" for line in lines)
        with open_output(target) as fh:
            fh.write(text)
        if batch is not None:
            self.mark_exported((e.id for e in entries), batch)
        return len(lines)
