"""Candidate state: the pencil marks of a solver, over any geometry.

Each cell holds a bitmask of its candidate digits (bit ``d - 1`` for digit
``d``) and, once filled, its value. In exact-cover terms (Hunt, Pong, Tucker,
*Difficulty-Driven Sudoku Puzzle Generation*, section 2) a live candidate is a
live row of the matrix; a cell column is *covered* when the cell is filled and a
unit-digit column when the digit is placed in the unit. A **contradiction** is an
uncovered column with no live candidate: an empty cell with no candidate, or a
unit where a missing digit has no place.

The state is plain numpy (``masks``: int64 per cell; ``values``: int8 per cell),
so compiled kernels can work on the same arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle


@dataclass(frozen=True, order=True)
class Single:
    """A placement forced by a single.

    Attributes:
        cell: 0-based row-major cell index.
        digit: 1-based digit.
        unit: the unit for a hidden single, -1 for a naked single.
    """

    cell: int
    digit: int
    unit: int = -1

    @property
    def naked(self) -> bool:
        """True for a naked single (the cell has one candidate left)."""
        return self.unit < 0


class CandidateState:
    """Mutable pencil marks of a puzzle being solved.

    Build one with :meth:`from_puzzle`; :meth:`copy` before trying something
    that may be undone.

    Attributes:
        geometry: the grid shape.
        masks: int64 per cell, bit ``d-1`` set while ``d`` is a candidate.
            A filled cell keeps only the bit of its value.
        values: int8 per cell, 0 while empty.
    """

    __slots__ = ("geometry", "masks", "values")

    def __init__(
        self, geometry: Geometry, masks: NDArray[np.int64], values: NDArray[np.int8]
    ) -> None:
        self.geometry = geometry
        self.masks = masks
        self.values = values

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle) -> CandidateState:
        """The state after placing every clue and removing it from its peers.

        A puzzle with clashing clues gives a state where :meth:`is_contradiction` holds.
        """
        from csp_sudoku._kernels.human import candidate_masks
        from csp_sudoku.human._tables import tables

        g = puzzle.geometry
        t = tables(g)
        values = np.array(puzzle.cells, dtype=np.int8)
        # an empty cell keeps the digits no peer holds; a clue keeps its own bit,
        # or nothing when a peer holds the same digit (the clash stays visible)
        return cls(g, candidate_masks(values, t.peers, t.npeers, g.size), values)

    def copy(self) -> CandidateState:
        """An independent copy."""
        return CandidateState(self.geometry, self.masks.copy(), self.values.copy())

    # ------------------------------------------------------------------ changes
    def place(self, cell: int, digit: int) -> None:
        """Fill ``cell`` with ``digit`` and remove ``digit`` from every peer."""
        bit = np.int64(1 << (digit - 1))
        self.values[cell] = digit
        self.masks[self.geometry.peers[cell]] &= ~bit
        self.masks[cell] = bit

    def eliminate(self, cell: int, digit: int) -> bool:
        """Remove candidate ``digit`` from empty ``cell``; True if it was there."""
        bit = 1 << (digit - 1)
        if self.values[cell] or not (int(self.masks[cell]) & bit):
            return False
        self.masks[cell] &= ~np.int64(bit)
        return True

    # ------------------------------------------------------------------ queries
    def has(self, cell: int, digit: int) -> bool:
        """True when ``digit`` is a live candidate of empty ``cell``."""
        return not self.values[cell] and bool(int(self.masks[cell]) >> (digit - 1) & 1)

    def candidates(self, cell: int) -> list[int]:
        """The candidate digits of ``cell`` (its value when filled)."""
        m = int(self.masks[cell])
        return [d + 1 for d in range(self.geometry.size) if m >> d & 1]

    def empty_cells(self) -> NDArray[np.intp]:
        """Indices of the cells not yet filled."""
        return np.flatnonzero(self.values == 0)

    def is_solved(self) -> bool:
        """True when every cell is filled (and, if built by placing, consistently)."""
        return bool(np.all(self.values))

    def digit_bits(self) -> NDArray[np.bool_]:
        """``(ncells, N)`` booleans: live candidates of *empty* cells."""
        n = self.geometry.size
        bits = (self.masks[:, None] >> np.arange(n)) & 1
        bits[self.values != 0] = 0
        return bits.astype(bool)

    def alive(self) -> NDArray[np.bool_]:
        """Live candidates as exact-cover rows: ``(ncandidates,)`` booleans, empty cells only."""
        return self.digit_bits().reshape(-1)

    def unit_digit_counts(self) -> NDArray[np.int64]:
        """``(nunits, N)``: live places for each digit in each unit (empty cells only)."""
        counts: NDArray[np.int64] = self.digit_bits()[self.geometry.units].sum(axis=1)
        return counts

    def placed_in_units(self) -> NDArray[np.bool_]:
        """``(nunits, N)``: True where the digit is already placed in the unit."""
        g = self.geometry
        vals = self.values[g.units].astype(np.int64)  # (nunits, N)
        out = np.zeros((g.nunits, g.size), dtype=bool)
        rows, cols = np.nonzero(vals)
        out[rows, vals[rows, cols] - 1] = True
        return out

    def is_contradiction(self) -> bool:
        """True when an uncovered exact-cover column has no live candidate.

        That is an empty cell with no candidate, a unit missing a digit that has
        nowhere to go, or a digit placed twice in a unit (one compiled scan).
        """
        return self._scan()[0] < 0

    def fault(self) -> str | None:
        """What makes these pencil marks hold no solution, when it shows without a
        search; None when nothing does.

        Marks typed by a player may contradict each other where the placed digits
        alone do not: an empty cell left without candidates, two cells of one unit
        that hold (or can only hold) the same digit, a digit a unit lacks with no
        place left in it; or one of those once the singles the marks force are
        placed one after the other. A hint drawn from such marks would prove
        nothing, and :meth:`is_contradiction` sees only the first and last kinds.
        """
        why = self._plain_fault()
        if why is not None:
            return why
        state = self.copy()
        for _ in range(self.geometry.ncells):
            singles = state.singles()
            if not singles:
                return None
            state.place(singles[0].cell, singles[0].digit)
            why = state._plain_fault()
            if why is not None:
                return f"placing the singles they force leaves {why}"
        return None

    def _plain_fault(self) -> str | None:
        """:meth:`fault` of the marks as they are (no single placed): a sentence
        that names the cells, or None."""
        g = self.geometry
        m = self.masks
        empty = self.values == 0
        blank = np.flatnonzero(empty & (m == 0))
        if blank.size:
            return f"{g.cell_name(int(blank[0]))} with no candidate"
        # each cell's one digit as a bit: its value's, or its only candidate (0: several)
        placed = np.left_shift(np.int64(1), np.maximum(self.values.astype(np.int64) - 1, 0))
        one = np.where(empty, np.where((m & (m - 1)) == 0, m, 0), placed)
        bits = one[g.units]  # (nunits, N)
        seen = np.zeros(g.nunits, np.int64)
        twice = np.zeros(g.nunits, np.int64)
        for k in range(g.size):
            twice |= seen & bits[:, k]
            seen |= bits[:, k]
        if twice.any():
            u = int(np.flatnonzero(twice)[0])
            d = int(twice[u] & -twice[u]).bit_length()
            a, b = g.units[u][bits[u] == 1 << (d - 1)][:2].tolist()
            return (
                f"{g.cell_name(a)} and {g.cell_name(b)}, both in {g.unit_name(u)}, "
                f"both holding only {d}"
            )
        live = np.bitwise_or.reduce(np.where(empty, m, 0)[g.units], axis=1)
        gone = ((1 << g.size) - 1) & ~(live | seen)
        if gone.any():
            u = int(np.flatnonzero(gone)[0])
            d = int(gone[u] & -gone[u]).bit_length()
            return f"no place for {d} in {g.unit_name(u)}"
        return None

    def _scan(self) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]:
        """Count and arrays (cell, digit, unit) of the available singles; count -1 on a
        contradiction (see :func:`csp_sudoku._kernels.human.scan_singles`)."""
        from csp_sudoku._kernels.human import scan_singles
        from csp_sudoku.human._tables import tables

        t = tables(self.geometry)
        cap = self.geometry.ncells + t.units.size
        oc = np.empty(cap, dtype=np.int32)
        od = np.empty(cap, dtype=np.int32)
        ou = np.empty(cap, dtype=np.int32)
        seen = np.empty(self.geometry.ncells, dtype=np.int64)
        cnt = int(scan_singles(self.masks, self.values, t.units, oc, od, ou, seen))
        return cnt, oc, od, ou

    # ------------------------------------------------------------------ singles
    def naked_singles(self) -> list[Single]:
        """Empty cells with exactly one candidate (a cell column with one live row)."""
        m = self.masks
        idx = np.flatnonzero((self.values == 0) & (m != 0) & ((m & (m - 1)) == 0))
        return [Single(int(c), int(m[c]).bit_length()) for c in idx.tolist()]

    def hidden_singles(self) -> list[Single]:
        """(unit, digit) columns with exactly one live candidate, as placements.

        A placement seen from several units is listed once per unit.
        """
        g = self.geometry
        bits = self.digit_bits()[g.units]  # (nunits, N cells, N digits)
        counts = bits.sum(axis=1)
        placed = self.placed_in_units()
        us, ds = np.nonzero((counts == 1) & ~placed)
        out: list[Single] = []
        for u, d in zip(us.tolist(), ds.tolist(), strict=True):
            pos = int(np.argmax(bits[u, :, d]))
            out.append(Single(int(g.units[u, pos]), d + 1, u))
        return out

    def singles(self) -> list[Single]:
        """Every available single: naked ones, then hidden ones not already naked.

        Each distinct placement ``(cell, digit)`` appears once; the count of this
        list is the "number of options" the dependency and rounds metrics use.
        Naked singles come by cell, hidden ones by (unit, digit). In a
        contradictory state the list holds what was found before the
        contradiction; check :meth:`is_contradiction` first when it matters.
        """
        cnt, oc, od, ou = self._scan()
        if cnt < 0:
            return self._singles_slow()
        return [
            Single(c, d, u)
            for c, d, u in zip(oc[:cnt].tolist(), od[:cnt].tolist(), ou[:cnt].tolist(), strict=True)
        ]

    def _singles_slow(self) -> list[Single]:
        naked = self.naked_singles()
        seen = {(s.cell, s.digit) for s in naked}
        out = list(naked)
        for s in self.hidden_singles():
            if (s.cell, s.digit) not in seen:
                seen.add((s.cell, s.digit))
                out.append(s)
        return out

    def solutions(self, limit: int = 2) -> list[NDArray[np.int8]]:
        """Up to ``limit`` solutions of the marks themselves (flat grids): full grids
        that keep every placed digit and give every empty cell one of its candidates.

        Why: marks a player typed are a puzzle of their own (a pencil-mark puzzle,
        as Sukaku Explainer reads them), and the placed digits alone do not say
        how many solutions they have: a hint drawn from marks with none or several
        is no proof (a Unique Rectangle removed both solutions of such marks).

        No backend's search starts from candidate masks, so the SAT solver's rules
        take them as assumptions (every candidate a cell has lost is false), a
        further solution asked for after a clause that blocks the last one, as the
        variant puzzles' SAT backend does. Under a deadline the solver is one that
        can be interrupted (:data:`~csp_sudoku.backends.sat.INTERRUPTIBLE`).
        """
        from csp_sudoku.backends.sat import (
            DEFAULT_SOLVER,
            INTERRUPTIBLE,
            SolverSession,
            model_to_cells,
        )
        from csp_sudoku.core.deadline import remaining
        from csp_sudoku.encodings.cnf import variable

        g = self.geometry
        n = g.size
        allowed = self.digit_bits()
        filled = np.flatnonzero(self.values)
        allowed[filled, self.values[filled].astype(np.intp) - 1] = True
        cells, digits = np.nonzero(~allowed)
        lost = [
            -variable(c, d + 1, n) for c, d in zip(cells.tolist(), digits.tolist(), strict=True)
        ]
        session = SolverSession(g, DEFAULT_SOLVER if remaining() is None else INTERRUPTIBLE)
        found: list[NDArray[np.int8]] = []
        try:
            while len(found) < limit and session.solve(lost):
                grid = model_to_cells(np.asarray(session.solver.get_model()), g)
                found.append(grid)
                session.solver.add_clause([-variable(c, d, n) for c, d in enumerate(grid.tolist())])
        finally:
            session.close()
        return found

    def to_puzzle(self) -> Puzzle:
        """The filled cells as a puzzle."""
        return Puzzle(self.values.copy(), self.geometry)

    def __repr__(self) -> str:
        filled = int(np.count_nonzero(self.values))
        return f"CandidateState({self.geometry.name}, {filled}/{self.geometry.ncells} filled)"


def grid_mask(grid: NDArray[np.integer[Any]], geometry: Geometry) -> NDArray[np.bool_]:
    """One bool per candidate (``cell * size + digit - 1``), True on the candidates
    of the full ``grid`` (a known solution: :func:`solution_mask` without the solver
    call)."""
    mask = np.zeros(geometry.ncandidates, dtype=np.bool_)
    mask[np.arange(geometry.ncells) * geometry.size + np.asarray(grid, dtype=np.int64) - 1] = True
    return mask


def solution_mask(puzzle: Puzzle) -> NDArray[np.bool_] | None:
    """One bool per candidate (``cell * size + digit - 1``), True on the candidates
    of a solution of ``puzzle``; None when it has none (clashing clues included).

    The searches use it only to skip work that cannot find anything (a subset
    with no application, a net that cannot contradict); their steps and
    verdicts are the same without it. One solver call (about 10 us with the
    compiled 9x9 backend).
    """
    from csp_sudoku.backends import backend_per_call

    g = puzzle.geometry
    solved = backend_per_call(g, "auto").solve(puzzle.cells, g)
    if solved is None:
        return None
    return grid_mask(solved, g)
