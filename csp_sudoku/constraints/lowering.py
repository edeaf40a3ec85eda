"""What constraints become for the compiled search: a few generic primitives.

The compiled search of variant puzzles (:mod:`csp_sudoku.variants.fast`,
kernel :mod:`csp_sudoku._kernels.variants`) knows no kind. Each kind says
what it is in terms of a handful of primitives, in its
:meth:`~csp_sudoku.constraints.base.Constraint.lower` method, by calling the
methods of a :class:`Lowering`:

* :meth:`Lowering.only`: a cell takes only some digits (odd and even cells);
* :meth:`Lowering.differ` and :meth:`Lowering.distinct`: cells whose digits
  differ (diagonals, extra regions, cages, anti-knight), joined to the units'
  peers; a group of N cells is also searched for hidden singles;
* :meth:`Lowering.relation`: two cells whose digits keep a relation, given as
  a predicate on two digits and kept as a table of allowed digits (dots, XV
  and their negatives, thermometers, whispers, non-consecutive, palindromes);
  the search keeps every such pair arc consistent;
* :meth:`Lowering.linear`: ``sum(coef * digit) == rhs`` with bounds
  propagation (little killers, arrows with the circle's cells weighted by
  their place in its number, region-sum lines as equalities between
  stretches);
* :meth:`Lowering.combination`: distinct cells whose digits form one of some
  sets (a killer cage's sets of its sum, a renban's runs), filtered exactly;
* :meth:`Lowering.between` and :meth:`Lowering.sandwich`: the two rules that
  fit none of those (a between line, a sandwich sum), each a small propagator
  of its own;
* :meth:`Lowering.leaf`: anything else; the kind's own
  :meth:`~csp_sudoku.constraints.base.Constraint.check` is asked of every full
  grid the search finds (always right, possibly slow: the search does not
  use the rule to cut its tree). The default ``lower`` of a kind does this, so
  a new kind works before it has a lowering of its own.

Every primitive is *sound* (it never removes a digit of a solution) and
*complete on full grids* (a full grid breaking it is a contradiction), so a
count is exact whatever the strength of the propagation.

:meth:`Lowering.arrays` writes the primitives as the flat ``int64`` arrays
the kernel reads; their layout (the ``CON_*`` columns and the primitive
codes) is defined here, once, and the kernel imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.geometry import Geometry

#: A cell as the kinds name it, ``(row, column)`` (this module sits below ``base``).
Cell = tuple[int, int]


class Leaf(Protocol):
    """What the search needs of a constraint it cannot lower: a check of full grids."""

    def check(self, grid: Sequence[Sequence[int]]) -> bool:
        """Whether the full ``grid`` (``grid[row][column]``) keeps the constraint."""
        ...


#: Primitive codes of the constraints the kernel revises (column ``CON_TYPE``).
LINEAR, COMBINATION, BETWEEN, SANDWICH = range(4)
#: The columns of a row of the constraint table: the code, the range of its cells
#: (and coefficients) in the cell list, and up to three parameters (a linear's
#: right-hand side; a combination's range of sets; a sandwich's total).
CON_TYPE, CON_START, CON_END, CON_P0, CON_P1, CON_P2 = range(6)
CON_WIDTH = 6
#: The arrays of a lowered puzzle, in the order of :meth:`Lowering.arrays`.
(
    HEAD,
    INIT,
    PEER_START,
    PEERS,
    UNIT_START,
    UNIT_CELLS,
    ARC_START,
    ARC_TARGET,
    ARC_TABLE,
    CON_INFO,
    CON_CELLS,
    CON_COEF,
    SETS,
    WATCH_START,
    WATCHES,
) = range(15)
#: The words of :data:`HEAD`: the size N, the cells, the constraints.
HEAD_SIZE, HEAD_CELLS, HEAD_CONS = range(3)

#: The most digit sets a combination keeps; a killer cage with more sets of its
#: sum (large cages of 16x16 and bigger grids) is lowered to a linear sum instead.
MOST_SETS = 4096

#: The tables of the relations made so far, by key and size (see :meth:`Lowering.relation`).
_TABLES: dict[tuple[Hashable, int], tuple[list[int], list[int]]] = {}


@lru_cache(maxsize=4096)
def sum_sets(count: int, total: int, size: int) -> tuple[int, ...] | None:
    """The masks of the sets of ``count`` distinct digits of ``1..size`` summing to ``total``.

    Bit ``d - 1`` stands for digit ``d``. None when there are more than
    :data:`MOST_SETS` (the caller takes a linear sum).
    """
    out: list[int] = []

    def grow(start: int, left: int, need: int, mask: int) -> bool:
        if left == 0:
            if need == 0:
                out.append(mask)
            return len(out) <= MOST_SETS
        # the smallest and largest sums of ``left`` digits from ``start`` on
        low = left * (2 * start + left - 1) // 2
        high = left * (2 * size - left + 1) // 2
        if not low <= need <= high:
            return True
        for d in range(start, size + 1):
            if d * left > need + left * (left - 1) // 2:
                break
            if not grow(d + 1, left - 1, need - d, mask | 1 << (d - 1)):
                return False
        return True

    if not grow(1, count, total, 0):
        return None
    return tuple(out)


class Lowering:
    """The primitives a variant puzzle's constraints are lowered to (see the module).

    Cells are ``(row, column)`` pairs, 0-based, as in the kinds; digits are
    ``1..N``.
    """

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.size = n = geometry.size
        self.full = (1 << n) - 1
        self._init = [self.full] * geometry.ncells
        self._differ: list[tuple[int, int]] = []
        self._units: list[tuple[int, ...]] = []
        self._arcs: dict[tuple[int, int], list[int]] = {}
        #: (code, cells, coefficients, parameters, sets) of every revised constraint
        self._cons: list[tuple[int, list[int], list[int], tuple[int, int, int], list[int]]] = []
        #: The constraints the search checks on full grids only.
        self.leaves: list[Leaf] = []

    # ------------------------------------------------------------------ the primitives
    def cell(self, cell: Cell) -> int:
        """The flat index of ``cell`` (row-major)."""
        return cell[0] * self.size + cell[1]

    def only(self, cell: Cell, digits: Iterable[int]) -> None:
        """``cell`` takes no digit but ``digits``."""
        mask = 0
        for d in digits:
            mask |= 1 << (d - 1)
        self._init[self.cell(cell)] &= mask

    def differ(self, pairs: Iterable[tuple[Cell, Cell]]) -> None:
        """The two cells of each pair hold different digits."""
        self._differ.extend((self.cell(a), self.cell(b)) for a, b in pairs)

    def distinct(self, cells: Sequence[Cell]) -> None:
        """The digits of ``cells`` differ (a group of N cells holds every digit once)."""
        flat = [self.cell(c) for c in cells]
        self._differ.extend(combinations(flat, 2))
        if len(flat) == self.size:
            self._units.append(tuple(flat))

    def relation(
        self,
        pairs: Iterable[tuple[Cell, Cell]],
        holds: Callable[[int, int], bool],
        key: Hashable = None,
    ) -> None:
        """For each pair ``(a, b)``, the digits ``x`` of ``a`` and ``y`` of ``b`` keep ``holds(x, y)``.

        The relation is asked once for every two digits (not once a pair), and
        kept both ways as tables of the digits allowed in the other cell. A
        ``key`` names the relation (the kind and its parameters, the same key
        for the same relation): its tables are then made once per key and
        size, for every puzzle.
        """
        n = self.size
        tables = _TABLES.get((key, n)) if key is not None else None
        if tables is None:
            ok = [[bool(holds(x, y)) for y in range(1, n + 1)] for x in range(1, n + 1)]
            tables = (
                [sum(1 << j for j in range(n) if ok[i][j]) for i in range(n)],
                [sum(1 << i for i in range(n) if ok[i][j]) for j in range(n)],
            )
            if key is not None:
                _TABLES[(key, n)] = tables
        forward, backward = tables
        for a, b in pairs:
            fa, fb = self.cell(a), self.cell(b)
            self._arc(fa, fb, forward)
            self._arc(fb, fa, backward)

    def _arc(self, src: int, dst: int, table: list[int]) -> None:
        old = self._arcs.get((src, dst))
        self._arcs[(src, dst)] = (
            table if old is None else [x & y for x, y in zip(old, table, strict=True)]
        )

    def linear(self, terms: Iterable[tuple[int, Cell]], rhs: int) -> None:
        """``sum(coef * digit of cell for coef, cell in terms) == rhs`` (a cell may come twice)."""
        merged: dict[int, int] = {}
        for coef, cell in terms:
            k = self.cell(cell)
            merged[k] = merged.get(k, 0) + coef
        cells = [k for k, v in merged.items() if v != 0]
        self._cons.append((LINEAR, cells, [merged[k] for k in cells], (rhs, 0, 0), []))

    def combination(self, cells: Sequence[Cell], sets: Iterable[Iterable[int]]) -> None:
        """The digits of ``cells`` differ and, taken together, are one of ``sets``.

        Each set has as many digits as there are cells. The search keeps the
        digits of the sets that still fit, and places a digit all of them hold
        when one cell alone can take it.
        """
        masks = []
        for s in sets:
            mask = 0
            for d in s:
                mask |= 1 << (d - 1)
            masks.append(mask)
        self.combination_masks(cells, masks)

    def combination_masks(self, cells: Sequence[Cell], masks: Sequence[int]) -> None:
        """:meth:`combination` with each set given as a mask (bit ``d - 1``: digit ``d``)."""
        self.distinct(cells)
        flat = [self.cell(c) for c in cells]
        self._cons.append((COMBINATION, flat, [1] * len(flat), (0, 0, 0), list(masks)))

    def sum_distinct(self, cells: Sequence[Cell], total: int) -> None:
        """The digits of ``cells`` differ and add up to ``total`` (a killer cage)."""
        sets = sum_sets(len(cells), total, self.size)
        if sets is None:
            self.distinct(cells)
            self.linear(((1, c) for c in cells), total)
        else:
            self.combination_masks(cells, sets)

    def between(self, first: Cell, last: Cell, inner: Sequence[Cell]) -> None:
        """Every digit of ``inner`` lies strictly between the digits of ``first`` and ``last``."""
        if not inner:
            return
        flat = [self.cell(first), self.cell(last), *(self.cell(c) for c in inner)]
        self._cons.append((BETWEEN, flat, [1] * len(flat), (0, 0, 0), []))

    def sandwich(self, line: Sequence[Cell], total: int) -> None:
        """The digits of ``line`` (a whole row or column, in order) strictly between
        its 1 and its N add up to ``total``."""
        flat = [self.cell(c) for c in line]
        self._cons.append((SANDWICH, flat, [1] * len(flat), (total, 0, 0), []))

    def leaf(self, constraint: Leaf) -> None:
        """``constraint`` is checked on every full grid the search finds (its own ``check``)."""
        self.leaves.append(constraint)

    # ------------------------------------------------------------------ the kernel's arrays
    def arrays(self) -> tuple[NDArray[np.int64], ...]:
        """The primitives as the kernel's ``int64`` arrays, in the order of :data:`HEAD` ...

        Peers and arcs are lists by cell (``*_START`` holds each cell's range);
        the constraint table has :data:`CON_WIDTH` columns; ``WATCHES`` lists,
        for each cell, the constraints whose cells it is among.
        """
        g = self.geometry
        ncells = g.ncells
        i64 = np.int64
        peer = g.peer_matrix.copy()
        if self._differ:
            d = np.asarray(self._differ, dtype=np.intp)
            peer[d[:, 0], d[:, 1]] = True
            peer[d[:, 1], d[:, 0]] = True
            np.fill_diagonal(peer, False)
        src, dst = np.nonzero(peer)
        peer_start = np.searchsorted(src, np.arange(ncells + 1)).astype(i64)

        units = [tuple(u) for u in g.units.tolist()]
        seen = {tuple(sorted(u)) for u in units}
        for u in self._units:
            if tuple(sorted(u)) not in seen:
                seen.add(tuple(sorted(u)))
                units.append(u)
        unit_cells = np.asarray(units, dtype=i64).reshape(-1)
        unit_start = np.arange(len(units) + 1, dtype=i64) * self.size

        keys = sorted(self._arcs)
        arc_src = np.asarray([k[0] for k in keys], dtype=i64)
        arc_target = np.asarray([k[1] for k in keys], dtype=i64)
        arc_table = np.asarray([self._arcs[k] for k in keys], dtype=i64).reshape(-1)
        arc_start = np.searchsorted(arc_src, np.arange(ncells + 1)).astype(i64)

        info = np.zeros((len(self._cons), CON_WIDTH), dtype=i64)
        cells: list[int] = []
        coefs: list[int] = []
        sets: list[int] = []
        watch: list[tuple[int, int]] = []
        for k, (code, cs, cf, params, masks) in enumerate(self._cons):
            info[k, CON_TYPE] = code
            info[k, CON_START] = len(cells)
            cells.extend(cs)
            coefs.extend(cf)
            info[k, CON_END] = len(cells)
            info[k, CON_P0] = params[0]
            if code == COMBINATION:
                info[k, CON_P0] = len(sets)
                sets.extend(masks)
                info[k, CON_P1] = len(sets)
            watch.extend((c, k) for c in dict.fromkeys(cs))
        watch.sort()
        watch_start = np.searchsorted(
            np.asarray([w[0] for w in watch], dtype=i64), np.arange(ncells + 1)
        ).astype(i64)
        head = np.asarray([self.size, ncells, len(self._cons)], dtype=i64)
        return (
            head,
            np.asarray(self._init, dtype=i64),
            peer_start,
            dst.astype(i64),
            unit_start,
            unit_cells,
            arc_start,
            arc_target,
            arc_table,
            info.reshape(-1),
            np.asarray(cells, dtype=i64),
            np.asarray(coefs, dtype=i64),
            np.asarray(sets, dtype=i64),
            watch_start,
            np.asarray([w[1] for w in watch], dtype=i64),
        )
