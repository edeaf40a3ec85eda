"""A human solving path for variant puzzles: singles, each constraint's own logic, the 45 rule,
the constraint subset rule, then refutation; or where the path needs a guess.

:func:`explain` starts from the givens' candidates (every digit that no peer
of a cell holds) and repeats, taking the first move that applies:

1. **singles**: a naked single (a cell with one candidate left), then a
   hidden single (a digit with one place left in a *house*: a row, column,
   box or extra unit of the geometry, or a group of N cells that a
   constraint makes distinct: a diagonal, an extra region, a disjoint group, a
   cage of N cells);
2. **each constraint's own eliminations**, named by its kind (``killer cage
   combinations``, ``thermometer range``, ``arrow bounds``, ``Kropki pair``
   ...): a candidate of a constraint's cells goes when no assignment of those
   cells from their current candidates keeps the constraint alone (with the
   distinctness of the cells that are peers). This is exact per-constraint
   filtering, done from what every kind already gives, its CNF clauses
   (:meth:`~csp_sudoku.constraints.base.Constraint.clauses`): a small SAT
   call per constraint, or a table of the allowed digit pairs for a rule over
   one or two cells. A new kind gets it for free;
3. **the 45 rule** (innies and outies) for killer cages: a house, or a run of
   consecutive rows or columns, that summed cages almost cover gives the sum
   of the leftover cells, filtered as in step 2;
4. **the constraint subset rule** (Hunt, Pong and Tucker; docs/human_model.md)
   up to ``max_subset``: pointing and claiming, naked and hidden pairs, X-Wings,
   over the houses, with the cages and other distinct groups as covers;
5. **refutation**: assume a candidate, propagate with steps 1-4 (the subset
   rule up to ``inner_subset``), reach a contradiction, and the candidate is
   gone; the step keeps the propagation as its chain;
6. when nothing applies, the path stops and says it needs a guess: the
   number of empty cells and candidates left, and the cell with the fewest.

*Peers* are the cells that must hold different digits: those sharing a unit
of the geometry, and the pairs a constraint's clauses keep apart for every
digit (a cage's cells, a diagonal's, an anti-knight or anti-king move). A
placement removes its digit from the cell's peers: from the geometry's peers
silently, as in the classic path, and from the constraints' peers as the
step's listed eliminations.

Every step records what it placed and removed and why (the technique, the
constraint's index and description, the cells); :meth:`VariantPath.to_dict`
gives the JSON of docs/variants.md. The puzzle's solution (found by the SAT
backend when the puzzle has one) only skips refutation hypotheses that
cannot contradict (a candidate of a solution); every step is a deduction from
the pencil marks alone.
"""

from __future__ import annotations

import itertools
import operator
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from csp_sudoku.constraints import Cnf, Constraint, VariantPuzzle
from csp_sudoku.constraints.base import sum_equals
from csp_sudoku.constraints.killer import KillerCage
from csp_sudoku.core.errors import ArgumentError, Contradiction, SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cnf import HeldSolver

Pair = tuple[int, int]

#: The name of each kind's own eliminations (step 2); a kind not listed is ``KIND rule``.
TECHNIQUE_NAMES: dict[str, str] = {
    "killercage": "killer cage combinations",
    "thermometer": "thermometer range",
    "slowthermometer": "slow thermometer range",
    "arrow": "arrow bounds",
    "difference": "Kropki pair",
    "ratio": "Kropki pair",
    "xv": "XV pair",
    "-difference": "negative Kropki pair",
    "-ratio": "negative Kropki pair",
    "-xv": "negative XV pair",
    "odd": "parity",
    "even": "parity",
    "antiknight": "anti-knight",
    "antiking": "anti-king",
    "nonconsecutive": "non-consecutive",
    "diagonal+": "diagonal",
    "diagonal-": "diagonal",
    "littlekillersum": "little killer combinations",
    "sandwichsum": "sandwich combinations",
    "palindrome": "palindrome pair",
    "renban": "renban run",
    "whispers": "whisper range",
    "betweenline": "between line range",
    "regionsumline": "region sum line",
    "disjointgroups": "disjoint group",
    "extraregion": "extra region",
}

#: Step kinds, in the order of the model (``kind`` of a :class:`VariantStep`).
KINDS = ("single", "constraint", "45 rule", "subset", "refutation")
#: The kind of a refutation chain's first move: the assumption placed.
ASSUME = "assume"
#: The subset rule's largest size on the path, and inside a refutation's hypothesis.
DEFAULT_MAX_SUBSET = 2
DEFAULT_INNER_SUBSET = 1
#: The largest size the subset rule takes: it runs over the constraints' cells too, and
#: grows fast (a killer 9x9 took 2.5 s at 3, 8 s at 4, 74 s at 5).
MAX_SUBSET = 4
#: Hypotheses one refutation step may run before the path stops (``stopped = "budget"``).
DEFAULT_BUDGET = 5000
#: The range of each setting of :func:`explain` (and :func:`~csp_sudoku.variants.rating.
#: rate_variant`, ``explain --max-subset``, ``rate --param``): the least and the most
#: (None: no bound).
SETTINGS: dict[str, tuple[int, int | None]] = {
    "max_subset": (0, MAX_SUBSET),
    "inner_subset": (0, MAX_SUBSET),
    "budget": (1, None),
}
#: The most assignments a constraint's filter remembers (to skip solver calls).
MAX_WITNESSES = 256
#: The most leftover cells (innies or outies) the 45 rule turns into a sum.
MAX_LEFTOVER = 5


def technique_name(kind: str) -> str:
    """The name of a kind's own eliminations (step 2)."""
    return TECHNIQUE_NAMES.get(kind, f"{kind} rule")


# ------------------------------------------------------------------ the record
@dataclass(frozen=True)
class VariantStep:
    """One move of a variant path.

    Attributes:
        technique: ``naked single``, ``hidden single``, a kind's name
            (:data:`TECHNIQUE_NAMES`), ``45 rule``, a subset name (``pointing``,
            ``claiming``, ``naked pair``, ``hidden pair``, ``X-Wing``, ``subset``),
            or ``refutation``.
        kind: the family, one of :data:`KINDS`.
        placements: ``(cell, digit)`` pairs filled (cells 0-based row-major).
        eliminations: ``(cell, digit)`` candidates removed (for a placement: its
            digit removed from the constraints' peers of the cell).
        cells: the cells the move looked at.
        why: what the move used, in words (the house, the constraint, the sum, the
            subset's columns, the assumption).
        constraint: the index in ``puzzle.constraints`` of the constraint used
            (step 2), else -1.
        house: the house index of a hidden single (see :attr:`VariantPath.houses`), else -1.
        size: the subset size (subset steps), else 0.
        a: the subset's A columns in words (subset steps).
        b: the subset's B columns in words (subset steps).
        assumption: the candidate assumed (refutation steps).
        chain: the moves the assumption led to (refutation steps), each a step.
        contradiction: what went wrong at the end of the chain (refutation steps).
    """

    technique: str
    kind: str
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    cells: tuple[int, ...] = ()
    why: str = ""
    constraint: int = -1
    house: int = -1
    size: int = 0
    a: tuple[str, ...] = ()
    b: tuple[str, ...] = ()
    assumption: Pair | None = None
    chain: tuple[VariantStep, ...] = ()
    contradiction: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the step (docs/variants.md)."""
        d: dict[str, Any] = {
            "technique": self.technique,
            "kind": self.kind,
            "placements": [list(p) for p in self.placements],
            "eliminations": [list(e) for e in self.eliminations],
            "cells": list(self.cells),
            "why": self.why,
        }
        if self.constraint >= 0:
            d["constraint"] = self.constraint
        if self.house >= 0:
            d["house"] = self.house
        if self.kind == "subset":
            d["size"] = self.size
            d["a"] = list(self.a)
            d["b"] = list(self.b)
        if self.assumption is not None:
            d["assumption"] = list(self.assumption)
            d["chain"] = [s.to_dict() for s in self.chain]
            d["contradiction"] = self.contradiction
        return d

    def describe(self, g: Geometry, number: int | None = None, indent: str = "") -> list[str]:
        """Readable lines: ``12. hidden single: r4c5 = 7 (row 4)``, then a chain indented."""
        what = [f"{g.cell_name(c)} = {d}" for c, d in self.placements]
        what += [f"{g.cell_name(c)}<>{d}" for c, d in self.eliminations]
        head = f"{number}. " if number is not None else ""
        line = f"{indent}{head}{self.technique}: {', '.join(what)}"
        if self.why:
            line += f" ({self.why})"
        out = [line]
        for s in self.chain:
            out.extend(s.describe(g, None, indent + "    "))
        if self.contradiction:
            out.append(f"{indent}    contradiction: {self.contradiction}")
        return out


@dataclass
class VariantPath:
    """The steps of :func:`explain` on one variant puzzle.

    Attributes:
        puzzle: the puzzle explained.
        steps: the moves, in order.
        solved: every cell got filled.
        contradiction: the pencil marks became contradictory (a puzzle without solution).
        stopped: ``""``; ``guess`` (nothing applies: the path needs a guess);
            ``budget`` (a refutation step ran past its hypotheses).
        values: the digits at the end (0: empty), row-major.
        candidates: the candidates at the end, one bit mask a cell (bit d-1: digit d).
        houses: the name of every house (hidden singles' ``house`` indexes it).
    """

    puzzle: VariantPuzzle
    steps: list[VariantStep] = field(default_factory=list)
    solved: bool = False
    contradiction: bool = False
    stopped: str = ""
    values: list[int] = field(default_factory=list)
    candidates: list[int] = field(default_factory=list)
    houses: list[str] = field(default_factory=list)

    def left(self) -> tuple[int, int]:
        """``(empty cells, candidates of the empty cells)`` at the end."""
        empty = [c for c, v in enumerate(self.values) if not v]
        return len(empty), sum(self.candidates[c].bit_count() for c in empty)

    def guess_cell(self) -> int:
        """The empty cell with the fewest candidates at the end (the lowest first); -1 when none."""
        empty = [c for c, v in enumerate(self.values) if not v]
        if not empty:
            return -1
        return min(empty, key=lambda c: (self.candidates[c].bit_count(), c))

    def technique_counts(self) -> dict[str, int]:
        """How many steps used each technique."""
        out: dict[str, int] = {}
        for s in self.steps:
            out[s.technique] = out.get(s.technique, 0) + 1
        return out

    def candidate_text(self) -> list[str]:
        """Each cell's candidates at the end as digits (a placed cell: its digit)."""
        n = self.puzzle.geometry.size
        return [
            str(v) if v else "".join(str(d + 1) for d in range(n) if m >> d & 1)
            for v, m in zip(self.values, self.candidates, strict=True)
        ]

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``explain --json`` for a variant puzzle (docs/variants.md)."""
        g = self.puzzle.geometry
        empty, cands = self.left()
        guess: dict[str, Any] | None = None
        if self.stopped == "guess":
            cell = self.guess_cell()
            guess = {
                "empty_cells": empty,
                "candidates": cands,
                "cell": cell,
                "cell_candidates": [d + 1 for d in range(g.size) if self.candidates[cell] >> d & 1],
            }
        return {
            "puzzle": self.puzzle.puzzle.to_line(),
            "geometry": g.name,
            "constraints": [c.kind for c in self.puzzle.constraints],
            "solved": self.solved,
            "contradiction": self.contradiction,
            "stopped": self.stopped,
            "guess": guess,
            "technique_counts": self.technique_counts(),
            "final": "".join(str(v) if v else "." for v in self.values),
            "candidates": self.candidate_text(),
            "houses": list(self.houses),
            "steps": [s.to_dict() for s in self.steps],
        }

    def describe(self) -> list[str]:
        """The readable path: one entry per step (a refutation's chain indented), then the end."""
        g = self.puzzle.geometry
        lines: list[str] = []
        for i, s in enumerate(self.steps):
            lines.extend(s.describe(g, i + 1))
        lines.append("")
        counts = ", ".join(f"{k} {v}" for k, v in self.technique_counts().items())
        steps = f"{len(self.steps)} step{'s' if len(self.steps) != 1 else ''}"
        if self.solved:
            lines.append(f"solved in {steps}" + (f": {counts}" if counts else ""))
            return lines
        empty, cands = self.left()
        if self.contradiction:
            lines.append(f"contradiction after {steps}: the puzzle has no solution")
        elif self.stopped == "budget":
            lines.append(f"stopped after {steps}: a refutation ran past its budget of hypotheses")
        else:
            cell = self.guess_cell()
            lines.append(
                f"needs a guess after {steps}: {empty} empty cells, {cands} candidates left; "
                f"fewest at {g.cell_name(cell)} ({self.candidate_text()[cell]})"
            )
        lines.append("candidates: " + " ".join(self.candidate_text()))
        return lines


# ------------------------------------------------------------------ the state
@dataclass
class _State:
    """Values (0: empty) and candidate masks (a placed cell keeps its digit's bit); and,
    kept in step with them, for every digit (index d-1) the empty cells where it is a
    candidate (``live``) and the cells holding it (``placed``), as bit sets over the cells."""

    values: list[int]
    masks: list[int]
    live: list[int]
    placed: list[int]

    @staticmethod
    def of(values: list[int], masks: list[int], n: int) -> _State:
        live = [0] * n
        placed = [0] * n
        for cell, (v, m) in enumerate(zip(values, masks, strict=True)):
            if v:
                placed[v - 1] |= 1 << cell
            else:
                for d in _bits(m):
                    live[d - 1] |= 1 << cell
        return _State(values, masks, live, placed)

    def copy(self) -> _State:
        return _State(list(self.values), list(self.masks), list(self.live), list(self.placed))

    def drop(self, cell: int, d: int) -> None:
        """Remove candidate ``d`` of the empty ``cell``."""
        self.masks[cell] &= ~(1 << (d - 1))
        self.live[d - 1] &= ~(1 << cell)


def _bits(mask: int) -> list[int]:
    """The digits (1-based) of a candidate mask."""
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out


def _ones(bits: int) -> list[int]:
    """The indices of the set bits of ``bits``, lowest first (cells, or candidates)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _cell_of(var: int, n: int) -> Pair:
    """``(cell, digit)`` of a candidate variable (:func:`csp_sudoku.encodings.cnf.variable`)."""
    cell, d = divmod(var - 1, n)
    return cell, d + 1


# ------------------------------------------------------------------ the pieces
class _Piece:
    """A rule over a few cells, filtered exactly: a constraint, a part of a global rule,
    or a sum the 45 rule derived.

    A rule over one or two cells without auxiliary variables keeps a table of
    the allowed digits (pairs); a larger one a SAT solver with its clauses, one
    digit a cell, and the peers among its cells distinct; its candidates are
    the assumptions. Results are remembered by the cells' masks.
    """

    def __init__(
        self,
        model: _Model,
        cells: Sequence[int],
        clauses: Sequence[Sequence[int]],
        technique: str,
        why: str,
        source: int,
    ) -> None:
        self.cells = tuple(sorted(cells))
        self.technique = technique
        self.why = why
        self.source = source
        self.memo: dict[tuple[int, ...], list[Pair] | None] = {}
        #: assignments the solver found, each a bit set (bit ``i*N + d-1``: cell i holds d):
        #: a candidate one of them uses on the live candidates needs no solver call
        self.witnesses: deque[int] = deque()
        # the cells' masks as one tuple (itemgetter of one item gives the item)
        get = operator.itemgetter(*self.cells)
        self.key: Callable[[Sequence[int]], tuple[int, ...]] = (
            get if len(self.cells) > 1 else lambda masks: (get(masks),)
        )
        n = model.n
        self.n = n
        ncand = model.g.ncandidates
        self.table: list[list[int]] | None = None
        self.solver: HeldSolver | None = None
        self.useless = False
        #: an empty clause: nothing keeps the rule
        self.impossible = any(len(cl) == 0 for cl in clauses)
        aux = any(abs(lit) > ncand for cl in clauses for lit in cl)
        if not aux and len(self.cells) <= 2 and not self.impossible:
            self._tabulate(model, clauses)
        else:
            self._sat(model, clauses)

    def _tabulate(self, model: _Model, clauses: Sequence[Sequence[int]]) -> None:
        """``table[da-1]``: the mask of the second cell's digits allowed with ``da`` (one
        cell: bit 0 when ``da`` is allowed)."""
        n = self.n
        cells = self.cells
        peer = len(cells) == 2 and cells[1] in model.peers[cells[0]]

        def ok(assign: dict[int, int]) -> bool:
            for cl in clauses:
                if not any(
                    (lit > 0) == (assign[_cell_of(abs(lit), n)[0]] == _cell_of(abs(lit), n)[1])
                    for lit in cl
                ):
                    return False
            return True

        table: list[list[int]] = []
        plain = True  # the rule says nothing beyond the peers
        for da in range(1, n + 1):
            if len(cells) == 1:
                allowed = ok({cells[0]: da})
                table.append([1 if allowed else 0])
                plain = plain and allowed
                continue
            row = 0
            for db in range(1, n + 1):
                if ok({cells[0]: da, cells[1]: db}) and not (peer and da == db):
                    row |= 1 << (db - 1)
                elif da != db or not peer:
                    plain = False
            table.append([row])
        self.table = table
        self.useless = plain

    def _sat(self, model: _Model, clauses: Sequence[Sequence[int]]) -> None:
        n = self.n
        solver = HeldSolver(name="minisat22")
        for cl in clauses:
            solver.add_clause(list(cl))
        for c in self.cells:
            lits = [c * n + d for d in range(1, n + 1)]
            solver.add_clause(lits)
            for x, y in itertools.combinations(lits, 2):
                solver.add_clause([-x, -y])
        for a, b in itertools.combinations(self.cells, 2):
            if b in model.peers[a]:
                for d in range(1, n + 1):
                    solver.add_clause([-(a * n + d), -(b * n + d)])
        self.solver = solver

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def filter(self, masks: Sequence[int]) -> list[Pair] | None:
        """The candidates of the piece's cells that no assignment keeping it allows;
        None when no assignment keeps it (a contradiction)."""
        key = self.key(masks)
        if key in self.memo:
            return self.memo[key]
        got = self._filter(key)
        self.memo[key] = got
        return got

    def _filter(self, key: tuple[int, ...]) -> list[Pair] | None:
        if self.impossible:
            return None
        n = self.n
        if self.table is not None:
            if len(self.cells) == 1:
                keep = sum(1 << (d - 1) for d in _bits(key[0]) if self.table[d - 1][0])
                if not keep:
                    return None
                return [(self.cells[0], d) for d in _bits(key[0] & ~keep)]
            ma, mb = key
            keep_a = keep_b = 0
            for da in _bits(ma):
                row = self.table[da - 1][0] & mb
                if row:
                    keep_a |= 1 << (da - 1)
                    keep_b |= row
            if not keep_a:
                return None
            a, b = self.cells
            return [(a, d) for d in _bits(ma & ~keep_a)] + [(b, d) for d in _bits(mb & ~keep_b)]
        assert self.solver is not None
        solver = self.solver
        cells = self.cells
        off = [
            -(c * n + d)
            for c, m in zip(cells, key, strict=True)
            for d in range(1, n + 1)
            if not m >> (d - 1) & 1
        ]
        live = 0
        for i, m in enumerate(key):
            live |= m << (i * n)
        seen = 0  # the candidates some remembered assignment on the live ones uses
        for w in self.witnesses:
            if not w & ~live:
                seen |= w

        def read() -> int:
            model = solver.get_model()
            assert model is not None
            w = 0
            for i, c in enumerate(cells):
                for d in range(1, n + 1):
                    if model[c * n + d - 1] > 0:
                        w |= 1 << (i * n + d - 1)
                        break
            self.witnesses.append(w)
            if len(self.witnesses) > MAX_WITNESSES:
                self.witnesses.popleft()
            return w

        if not seen:
            if not solver.solve(assumptions=off):
                return None
            seen = read()
        out: list[Pair] = []
        for k in _ones(live & ~seen):  # the candidates not seen yet, by local index
            if seen >> k & 1:
                continue
            i, d = divmod(k, n)
            if solver.solve(assumptions=[*off, cells[i] * n + d + 1]):
                seen |= read()
            else:
                out.append((cells[i], d + 1))
        return sorted(out)


# ------------------------------------------------------------------ the model
@dataclass(frozen=True)
class _Column:
    """A column of the subset rule: its live candidates as one bit set (bit ``cell*N + d-1``)."""

    name: str
    bits: int
    exact: bool  # exactly one true (a cell, a house's digit); else at most one


class _Model:
    """What :func:`explain` derives once from the puzzle: peers, houses, pieces, sums."""

    def __init__(self, puzzle: VariantPuzzle) -> None:
        g = puzzle.geometry
        self.puzzle = puzzle
        self.g = g
        self.n = g.size
        self.peers: list[set[int]] = [set(p.tolist()) for p in g.peers]
        self.geo_peers: list[frozenset[int]] = [frozenset(p) for p in self.peers]
        self.houses: list[tuple[str, tuple[int, ...]]] = [
            (g.unit_name(u), tuple(cells)) for u, cells in enumerate(g.units.tolist())
        ]
        self.groups: list[tuple[str, tuple[int, ...]]] = []  # distinct groups under N cells
        per_constraint: list[tuple[int, Constraint, list[list[int]]]] = []
        for i, c in enumerate(puzzle.constraints):
            clauses = c.clauses(Cnf(g))
            per_constraint.append((i, c, clauses))
            self._differ(i, c, clauses)
        self.pieces: list[_Piece] = []
        for i, c, clauses in per_constraint:
            self._pieces(i, c, clauses)
        self.sums: list[_Piece] = self._forty_five()
        #: the houses, then the distinct groups: the B sets of the subset rule of size 1
        self.containers = self.houses + self.groups
        self.cell_containers: list[list[int]] = [[] for _ in range(g.ncells)]
        for k, (_, members) in enumerate(self.containers):
            for cell in members:
                self.cell_containers[cell].append(k)
        self.container_bits = [sum(1 << c for c in cells) for _, cells in self.containers]
        self.house_bits = self.container_bits[: len(self.houses)]

    # -- peers and houses from the clauses ---------------------------------
    def _differ(self, index: int, c: Constraint, clauses: list[list[int]]) -> None:
        """The pairs ``c`` keeps apart for every digit become peers; its cliques, groups."""
        n = self.n
        ncand = self.g.ncandidates
        seen: dict[tuple[int, int], int] = {}
        for cl in clauses:
            if len(cl) == 2 and cl[0] < 0 and cl[1] < 0 and max(-cl[0], -cl[1]) <= ncand:
                (ca, da), (cb, db) = _cell_of(-cl[0], n), _cell_of(-cl[1], n)
                if da == db and ca != cb:
                    key = (min(ca, cb), max(ca, cb))
                    seen[key] = seen.get(key, 0) | 1 << (da - 1)
        full = (1 << n) - 1
        pairs = [p for p, m in seen.items() if m == full]
        if not pairs:
            return
        adj: dict[int, set[int]] = {}
        for a, b in pairs:
            self.peers[a].add(b)
            self.peers[b].add(a)
            adj.setdefault(a, set()).add(b)
            adj.setdefault(b, set()).add(a)
        label = f"{technique_name(c.kind)} (constraint {index})"
        done: set[int] = set()
        for start in sorted(adj):
            if start in done:
                continue
            comp = {start}
            todo = [start]
            while todo:
                x = todo.pop()
                for y in adj[x]:
                    if y not in comp:
                        comp.add(y)
                        todo.append(y)
            done |= comp
            if all(len(adj[x]) == len(comp) - 1 for x in comp):  # a clique: a distinct group
                cells = tuple(sorted(comp))
                names = _cells_text(self.g, cells)
                if len(cells) == n:
                    self.houses.append((f"{label} {names}", cells))
                else:
                    self.groups.append((f"{label} {names}", cells))

    # -- the pieces of step 2 ------------------------------------------------
    def _pieces(self, index: int, c: Constraint, clauses: list[list[int]]) -> None:
        """One piece for a constraint whose clauses stay on its footprint; else one per
        part of its clauses (joined through shared auxiliary variables)."""
        g = self.g
        n = self.n
        ncand = g.ncandidates
        technique = technique_name(c.kind)
        foot = {r * n + col for r, col in c.footprint()}
        cells_of = [{_cell_of(abs(lit), n)[0] for lit in cl if abs(lit) <= ncand} for cl in clauses]
        every = set().union(*cells_of) if cells_of else set()
        if foot and every <= foot:
            piece = _Piece(self, sorted(foot), clauses, technique, _describe(c, g), index)
            self._keep(piece)
            return
        # a global rule (or one beyond its footprint): split into parts
        parent = list(range(len(clauses)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        owner: dict[Any, int] = {}
        for k, cl in enumerate(clauses):
            keys: list[Any] = [abs(lit) for lit in cl if abs(lit) > ncand]
            if not keys:
                keys = [frozenset(cells_of[k])]
            for key in keys:
                if key in owner:
                    parent[find(k)] = find(owner[key])
                else:
                    owner[key] = k
        parts: dict[int, list[int]] = {}
        for k in range(len(clauses)):
            parts.setdefault(find(k), []).append(k)
        for ks in parts.values():
            cells = sorted(set().union(*(cells_of[k] for k in ks)))
            part = [clauses[k] for k in ks]
            why = f"{_kind_text(c)} on {_cells_text(g, cells)}"
            self._keep(_Piece(self, cells, part, technique, why, index))

    def _keep(self, piece: _Piece) -> None:
        if piece.useless:
            piece.close()
        else:
            self.pieces.append(piece)

    # -- the 45 rule -----------------------------------------------------------
    def _forty_five(self) -> list[_Piece]:
        """The sums of innies and outies of every house and run of rows or columns."""
        n = self.n
        cages: list[tuple[frozenset[int], int]] = []
        used: set[int] = set()
        for c in self.puzzle.constraints:  # summed cages, each sharing no cell with one before
            if isinstance(c, KillerCage) and c.total is not None:
                members = frozenset(r * n + col for r, col in c.cells)
                if not members & used:
                    cages.append((members, c.total))
                    used |= members
        if not cages:
            return []
        regions: list[tuple[str, frozenset[int], int]] = []
        full = n * (n + 1) // 2
        for name, cells in self.houses:
            regions.append((name, frozenset(cells), full))
        for k in range(2, n):
            for start in range(n - k + 1):
                rows = frozenset(r * n + col for r in range(start, start + k) for col in range(n))
                cols = frozenset(r * n + col for col in range(start, start + k) for r in range(n))
                span = f"{start + 1}-{start + k}"
                regions.append((f"rows {span}", rows, k * full))
                regions.append((f"columns {span}", cols, k * full))
        out: list[_Piece] = []
        made: set[tuple[frozenset[int], int]] = set()
        for name, region, total in regions:
            inside = [(cells, t) for cells, t in cages if cells <= region]
            partial = [(cells, t) for cells, t in cages if cells & region and not cells <= region]
            covered = frozenset().union(*(cells for cells, _ in inside))
            innies = region - covered
            if 0 < len(innies) <= MAX_LEFTOVER:
                left = total - sum(t for _, t in inside)
                self._sum(out, made, innies, left, f"innies of {name}", len(inside))
            if partial:
                reach = covered.union(*(cells for cells, _ in partial))
                if region <= reach:
                    outies = reach - region
                    if 0 < len(outies) <= MAX_LEFTOVER:
                        left = sum(t for _, t in inside) + sum(t for _, t in partial) - total
                        self._sum(
                            out, made, outies, left, f"outies of {name}", len(inside) + len(partial)
                        )
        return out

    def _sum(
        self,
        out: list[_Piece],
        made: set[tuple[frozenset[int], int]],
        cells: frozenset[int],
        total: int,
        what: str,
        ncages: int,
    ) -> None:
        if (cells, total) in made:
            return
        made.add((cells, total))
        g = self.g
        n = self.n
        ordered = sorted(cells)
        cnf = Cnf(g)
        clauses = sum_equals(cnf, [divmod(c, n) for c in ordered], total)
        why = (
            f"{what} ({ncages} cage{'s' if ncages != 1 else ''}): "
            f"{' + '.join(g.cell_name(c) for c in ordered)} = {total}"
        )
        out.append(_Piece(self, ordered, clauses, "45 rule", why, -1))

    def close(self) -> None:
        for p in self.pieces + self.sums:
            p.close()


def _cells_text(g: Geometry, cells: Sequence[int]) -> str:
    return " ".join(g.cell_name(c) for c in cells)


def _kind_text(c: Constraint) -> str:
    return technique_name(c.kind).removesuffix(" combinations")


def _describe(c: Constraint, g: Geometry) -> str:
    """A constraint in words: its kind, its cells, its value when it has one."""
    n = g.size
    text = f"{_kind_text(c)} {_cells_text(g, [r * n + col for r, col in c.footprint()])}"
    try:
        entry = c.write_entry()
    except (NotImplementedError, SudokuError):  # no entry of its own (a global rule)
        return text
    if isinstance(entry, dict) and entry.get("value") not in (None, ""):
        text += f" = {entry['value']}"
    return text


# ------------------------------------------------------------------ the moves
@dataclass
class _Run:
    """One explanation: the model, the settings, and the moves on a state."""

    m: _Model
    max_subset: int
    inner_subset: int
    budget: int
    solution: Sequence[int] | None
    out_of_budget: bool = False

    # -- placing ------------------------------------------------------------
    def place(self, st: _State, cell: int, d: int) -> list[Pair]:
        """Fill ``cell`` with ``d``; the digit leaves its peers. Returns the removals from
        the constraints' peers (the geometry's are silent). Raises on an emptied cell."""
        if not st.masks[cell] >> (d - 1) & 1:
            raise Contradiction(f"{self.m.g.cell_name(cell)} cannot hold {d}")
        for x in _bits(st.masks[cell]):
            st.live[x - 1] &= ~(1 << cell)
        st.values[cell] = d
        st.masks[cell] = 1 << (d - 1)
        st.placed[d - 1] |= 1 << cell
        bit = 1 << (d - 1)
        extra: list[Pair] = []
        geo = self.m.geo_peers[cell]
        for p in self.m.peers[cell]:
            if st.masks[p] & bit:
                if st.values[p]:
                    raise Contradiction(f"{d} twice: {self.m.g.cell_name(p)} and its peer")
                st.drop(p, d)
                if p not in geo:
                    extra.append((p, d))
                if not st.masks[p]:
                    raise Contradiction(f"{self.m.g.cell_name(p)} has no candidate left")
        return sorted(extra)

    def remove(self, st: _State, elims: Sequence[Pair]) -> None:
        for c, d in elims:
            st.drop(c, d)
            if not st.masks[c]:
                raise Contradiction(f"{self.m.g.cell_name(c)} has no candidate left")

    # -- step 1 -------------------------------------------------------------
    def single(self, st: _State) -> VariantStep | None:
        for cell, (v, m) in enumerate(zip(st.values, st.masks, strict=True)):
            if not v and m.bit_count() == 1:
                d = m.bit_length()
                extra = self.place(st, cell, d)
                return VariantStep(
                    "naked single",
                    "single",
                    ((cell, d),),
                    tuple(extra),
                    (cell,),
                    "the only candidate",
                )
        live, placed = st.live, st.placed
        for h, hb in enumerate(self.m.house_bits):
            for i in range(self.m.n):
                if placed[i] & hb:
                    continue
                where = live[i] & hb
                if not where:
                    raise Contradiction(f"{i + 1} has no place left in {self.m.houses[h][0]}")
                if where & (where - 1) == 0:
                    cell, d = where.bit_length() - 1, i + 1
                    extra = self.place(st, cell, d)
                    return VariantStep(
                        "hidden single",
                        "single",
                        ((cell, d),),
                        tuple(extra),
                        (cell,),
                        f"the only place of {d} in {self.m.houses[h][0]}",
                        house=h,
                    )
        return None

    # -- steps 2 and 3 --------------------------------------------------------
    def pieces(self, st: _State, pieces: Sequence[_Piece], kind: str) -> VariantStep | None:
        for p in pieces:
            got = p.filter(st.masks)
            if got is None:
                raise Contradiction(f"no digits keep {p.why}")
            if got:
                self.remove(st, got)
                return VariantStep(
                    p.technique, kind, (), tuple(got), p.cells, p.why, constraint=p.source
                )
        return None

    # -- step 4 -------------------------------------------------------------
    def columns(self, st: _State) -> list[_Column]:
        """The subset rule's columns on the current marks (those with live candidates)."""
        n = self.m.n
        g = self.m.g
        out: list[_Column] = []
        for cell, (v, m) in enumerate(zip(st.values, st.masks, strict=True)):
            if not v:
                out.append(_Column(f"cell {g.cell_name(cell)}", m << (cell * n), True))
        for exact, sets in ((True, self.m.houses), (False, self.m.groups)):
            for name, cells in sets:
                for d in range(1, n + 1):
                    bit = 1 << (d - 1)
                    if any(st.values[c] == d for c in cells):
                        continue
                    bits = 0
                    for c in cells:
                        if st.masks[c] & bit:
                            bits |= 1 << (c * n + d - 1)
                    if bits:
                        out.append(_Column(f"{d} in {name}", bits, exact))
        return out

    def subset(self, st: _State, max_size: int) -> VariantStep | None:
        """The first application of the subset rule, by size (1: :meth:`locked`)."""
        if max_size < 1:
            return None
        got = self.locked(st)
        if got is not None or max_size < 2:
            return got
        cols = self.columns(st)
        by_cand: dict[int, list[int]] = {}
        for k, col in enumerate(cols):
            for cand in _ones(col.bits):
                by_cand.setdefault(cand, []).append(k)
        for size in range(2, max_size + 1):
            for first, col in enumerate(cols):
                if not col.exact:
                    continue
                found = self._grow(cols, by_cand, size, [first], [], col.bits, 0)
                if found is not None:
                    return self._subset_step(st, cols, *found, size)
        return None

    def locked(self, st: _State) -> VariantStep | None:
        """The subset rule of size 1 (pointing, claiming): a digit's places in a house all
        lie in another house or distinct group, which loses the digit elsewhere."""
        m = self.m
        live = st.live
        bits = m.container_bits
        for h, hb in enumerate(m.house_bits):
            for i in range(m.n):
                where = live[i] & hb
                if where & (where - 1) == 0:
                    continue  # none: placed in the house; one: a hidden single
                low = (where & -where).bit_length() - 1
                for b in m.cell_containers[low]:
                    if b == h or where & ~bits[b]:
                        continue
                    gone = live[i] & bits[b] & ~where
                    if not gone:
                        continue
                    d = i + 1
                    elims = [(c, d) for c in _ones(gone)]
                    self.remove(st, elims)
                    a_name, b_name = f"{d} in {m.houses[h][0]}", f"{d} in {m.containers[b][0]}"
                    return VariantStep(
                        _subset_name((a_name,), (b_name,)),
                        "subset",
                        (),
                        tuple(elims),
                        tuple(sorted(_ones(where | gone))),
                        f"{{{a_name}}} covered by {{{b_name}}}",
                        size=1,
                        a=(a_name,),
                        b=(b_name,),
                    )
        return None

    def _grow(
        self,
        cols: list[_Column],
        by_cand: dict[int, list[int]],
        size: int,
        a: list[int],
        b: list[int],
        ua: int,
        ub: int,
    ) -> tuple[list[int], list[int], int] | None:
        """Grow A and B (see docs/human_model.md): cover A's candidates with B columns,
        then add a disjoint A column linked to B, until both have ``size`` members."""
        uncovered = ua & ~ub
        if uncovered:
            if len(b) == size:
                return None
            k = (uncovered & -uncovered).bit_length() - 1
            for j in by_cand[k]:
                if j in a or j in b:
                    continue
                got = self._grow(cols, by_cand, size, a, [*b, j], ua, ub | cols[j].bits)
                if got is not None:
                    return got
            return None
        if len(a) == size:
            elim = ub & ~ua
            return (a, b, elim) if elim and len(b) == size else None
        for j in range(a[0] + 1, len(cols)):
            col = cols[j]
            if not col.exact or j in b or col.bits & ua or not col.bits & ub:
                continue
            if len(b) == size and col.bits & ~ub:
                continue
            got = self._grow(cols, by_cand, size, [*a, j], b, ua | col.bits, ub)
            if got is not None:
                return got
        return None

    def _subset_step(
        self, st: _State, cols: list[_Column], a: list[int], b: list[int], elim_bits: int, size: int
    ) -> VariantStep:
        n = self.m.n
        elims: list[Pair] = []
        cells: set[int] = set()
        bits = elim_bits
        while bits:
            low = bits & -bits
            k = low.bit_length() - 1
            elims.append((k // n, k % n + 1))
            bits ^= low
        ua = 0
        for j in a:
            ua |= cols[j].bits
        while ua:
            low = ua & -ua
            cells.add((low.bit_length() - 1) // n)
            ua ^= low
        cells.update(c for c, _ in elims)
        an = tuple(cols[j].name for j in a)
        bn = tuple(cols[j].name for j in b)
        name = _subset_name(an, bn)
        self.remove(st, elims)
        why = f"{{{', '.join(an)}}} covered by {{{', '.join(bn)}}}"
        return VariantStep(
            name, "subset", (), tuple(elims), tuple(sorted(cells)), why, size=size, a=an, b=bn
        )

    # -- a round: steps 1-4 ---------------------------------------------------
    def move(self, st: _State, max_subset: int) -> VariantStep | None:
        """The first move of steps 1-4 on ``st`` (applied to it), or None."""
        return (
            self.single(st)
            or self.pieces(st, self.m.pieces, "constraint")
            or self.pieces(st, self.m.sums, "45 rule")
            or self.subset(st, max_subset)
        )

    # -- step 5 -------------------------------------------------------------
    def refute(self, st: _State) -> VariantStep | None:
        """The first candidate whose assumption reaches a contradiction (cells with the
        fewest candidates first), removed; None when none does or the budget ran out."""
        order = sorted(
            (c for c, v in enumerate(st.values) if not v),
            key=lambda c: (st.masks[c].bit_count(), c),
        )
        tried = 0
        for cell in order:
            for d in _bits(st.masks[cell]):
                if self.solution is not None and self.solution[cell] == d:
                    continue  # a solution's candidate reaches no contradiction
                if tried >= self.budget:
                    self.out_of_budget = True
                    return None
                tried += 1
                chain, why = self.hypothesis(st, cell, d)
                if why:
                    self.remove(st, [(cell, d)])
                    return VariantStep(
                        "refutation",
                        "refutation",
                        (),
                        ((cell, d),),
                        (cell,),
                        f"assuming {self.m.g.cell_name(cell)} = {d} leads to a contradiction",
                        assumption=(cell, d),
                        chain=tuple(chain),
                        contradiction=why,
                    )
        return None

    def hypothesis(self, st: _State, cell: int, d: int) -> tuple[list[VariantStep], str]:
        """Propagate ``cell = d`` on a copy with steps 1-4: the moves, and the
        contradiction reached ("" when none)."""
        work = st.copy()
        chain: list[VariantStep] = []
        try:
            extra = self.place(work, cell, d)
            chain.append(
                VariantStep(
                    "assume", "assume", ((cell, d),), tuple(extra), (cell,), "the assumption"
                )
            )
            while not all(work.values):
                step = self.move(work, self.inner_subset)
                if step is None:
                    return chain, ""
                chain.append(step)
        except Contradiction as err:
            return chain, str(err)
        return chain, ""


def _subset_name(a: Sequence[str], b: Sequence[str]) -> str:
    """The classic name of a subset-rule application, from its columns' kinds."""

    def kind(name: str) -> str:
        if name.startswith("cell "):
            return "cell"
        where = name.split(" in ", 1)[1]
        return where.split(" ", 1)[0]  # row, column, box, region, or a constraint's name

    ka, kb = [kind(x) for x in a], [kind(x) for x in b]
    size = len(a)
    lines = {"row", "column"}
    if size == 1 and ka[0] in ("box", "region") and kb[0] in lines:
        return "pointing"
    if size == 1 and ka[0] in lines and kb[0] in ("box", "region"):
        return "claiming"
    if size == 1:
        return "locked candidates"
    words = {2: "pair", 3: "triple", 4: "quad"}
    if all(k == "cell" for k in ka) and all(k != "cell" for k in kb):
        return f"naked {words.get(size, 'subset')}"
    if all(k != "cell" for k in ka) and all(k == "cell" for k in kb):
        return f"hidden {words.get(size, 'subset')}"
    digits = {x.split(" ", 1)[0] for x in [*a, *b]}
    if len(digits) == 1 and (
        (set(ka) == {"row"} and set(kb) == {"column"})
        or (set(ka) == {"column"} and set(kb) == {"row"})
    ):
        return {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}.get(size, "fish")
    return "subset"


# ------------------------------------------------------------------ entry point
def initial_state(model: _Model) -> _State:
    """The givens placed and every peer's digit removed (the givens' candidates)."""
    g = model.g
    n = model.n
    full = (1 << n) - 1
    values = [0] * g.ncells
    masks = [full] * g.ncells
    for cell, v in enumerate(model.puzzle.puzzle.cells.tolist()):
        if v:
            values[cell] = int(v)
    for cell, v in enumerate(values):
        if v:
            masks[cell] = 1 << (v - 1)
    for cell, v in enumerate(values):
        if v:
            for p in model.peers[cell]:
                if not values[p]:
                    masks[p] &= ~(1 << (v - 1))
    return _State.of(values, masks, n)


def constraint_peers(puzzle: VariantPuzzle) -> list[set[int]]:
    """Every cell's peers: the geometry's, and those the constraints keep apart (see the module doc)."""
    model = _Model(puzzle)
    model.close()
    return [set(p) for p in model.peers]


def setting_refusal(name: str, value: object, shown: str | None = None) -> str | None:
    """Why ``value`` is no ``name`` setting of :func:`explain` (:data:`SETTINGS`), or None:
    the one check of the library's keywords and the command line's options alike
    (``shown`` names the setting in the message: ``--max-subset``).
    """
    low, high = SETTINGS[name]
    whole = isinstance(value, int) and not isinstance(value, bool)
    if isinstance(value, int) and whole and low <= value and (high is None or value <= high):
        return None
    span = f"at least {low}" if high is None else f"from {low} to {high}"
    return f"{shown or name} must be {'' if whole else 'a whole number, '}{span}, not {value!r}"


def check_settings(**settings: object) -> None:
    """Raise :class:`ArgumentError` for the first setting of :func:`explain` out of its
    range (:func:`setting_refusal`)."""
    for name, value in settings.items():
        why = setting_refusal(name, value)
        if why is not None:
            raise ArgumentError(why)


def explain(
    puzzle: VariantPuzzle,
    *,
    max_subset: int = DEFAULT_MAX_SUBSET,
    inner_subset: int = DEFAULT_INNER_SUBSET,
    budget: int = DEFAULT_BUDGET,
    max_steps: int | None = None,
) -> VariantPath:
    """The human solving path of a variant puzzle (see the module doc).

    Args:
        puzzle: the variant puzzle (a plain Puzzle is one without constraints).
        max_subset: the largest size of the constraint subset rule on the path (0: none,
            at most :data:`MAX_SUBSET`).
        inner_subset: the largest size inside a refutation's hypothesis (0: none, at
            most :data:`MAX_SUBSET`).
        budget: the most hypotheses one refutation step runs before the path stops.
        max_steps: stop after this many steps (None: no limit), ``stopped = "max_steps"``.

    Raises:
        ArgumentError: a setting out of its range (:data:`SETTINGS`).

    Returns:
        The path: solved, stopped with ``stopped = "guess"`` where nothing applies
        (the candidates left are in ``values`` and ``candidates``), or, for a
        puzzle without solution, with ``contradiction`` set.
    """
    check_settings(max_subset=max_subset, inner_subset=inner_subset, budget=budget)
    from csp_sudoku.variants import _variant, solve

    puzzle = _variant(puzzle)  # a plain Puzzle is one without constraints, as elsewhere
    sol = solve(puzzle)
    solution = None if sol is None else [int(v) for v in sol.cells.tolist()]
    model = _Model(puzzle)
    run = _Run(model, max_subset, inner_subset, budget, solution)
    path = VariantPath(puzzle, houses=[name for name, _ in model.houses])
    try:
        st = initial_state(model)
        path.values, path.candidates = st.values, st.masks
        for cell, m in enumerate(st.masks):
            if not st.values[cell] and not m:
                raise Contradiction(f"{model.g.cell_name(cell)} has no candidate left")
        while not all(st.values):
            if max_steps is not None and len(path.steps) >= max_steps:
                path.stopped = "max_steps"
                break
            step = run.move(st, max_subset) or run.refute(st)
            if step is None:
                path.stopped = "budget" if run.out_of_budget else "guess"
                break
            path.steps.append(step)
        if all(st.values) and not puzzle.keeps(st.values):
            # singles can fill the last cells before a constraint's pencil marks are
            # looked at again: a full grid that breaks one ends in a contradiction
            raise Contradiction("the full grid breaks a constraint")
    except Contradiction:
        path.contradiction = True
    finally:
        model.close()
    path.solved = all(path.values) and not path.contradiction
    return path


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_INNER_SUBSET",
    "DEFAULT_MAX_SUBSET",
    "KINDS",
    "MAX_SUBSET",
    "SETTINGS",
    "TECHNIQUE_NAMES",
    "VariantPath",
    "VariantStep",
    "check_settings",
    "constraint_peers",
    "explain",
    "setting_refusal",
    "technique_name",
]
