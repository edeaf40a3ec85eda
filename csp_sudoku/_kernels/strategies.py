"""Compiled loops of the difficulty metrics (numba): hsolve, the oracle and SiSuS singles.

Everything here works on plain arrays so that any geometry runs through the
same code: ``masks`` (int64 candidate bits per cell, bit ``d-1`` for digit
``d``), ``values`` (int8 per cell, 0 = empty), ``units`` (``(U, N)`` cell
indices), ``cell_units`` and ``peers`` (padded with -1) and the line/box
``intersections`` used by locked candidates. :func:`tables` builds these once per
geometry.

Randomness: the package's compiled generator (:mod:`csp_sudoku._kernels.rng`,
splitmix64 on a one-element ``uint64`` state), seeded by the caller from a
``numpy.random.Generator``, so every run is reproducible under a seed and no
global random state is touched.

Strategy ids follow Appendix A of Chang, Fan, Sun, *hsolve: A Difficulty Metric
and Puzzle Generator for Sudoku* (tiers 0-5); see :data:`STRATEGY_NAMES`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target
from csp_sudoku._kernels.bitset import popcount
from csp_sudoku._kernels.rng import rng_below
from csp_sudoku._kernels.status import CONTRADICTION, SOLVED, STUCK
from csp_sudoku.core.geometry import Geometry

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

I64 = NDArray[np.int64]
#: An integer argument of a kernel: callers pass ``np.int64`` so each compiles once.
Int = int | np.int64
#: The geometry tables the strategy enumerators read, as one kernel argument
#: (:attr:`Tables.scan`): units, cell_units, peers, inter_cells, inter_line, inter_box.
Scan = tuple[I64, I64, I64, I64, I64, I64]

#: Names of the hsolve strategies, indexed by strategy id.
STRATEGY_NAMES: tuple[str, ...] = (
    "naked single",
    "hidden single",
    "naked double",
    "hidden double",
    "locked candidates",
    "naked triple",
    "hidden triple",
    "x-wing",
    "naked quad",
    "hidden quad",
    "swordfish",
    "jellyfish",
    "backtracking",
)
#: Tier of each strategy id.
STRATEGY_TIERS: tuple[int, ...] = (0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5)
#: The k of each subset and fish strategy id (0 for the others), read by
#: :func:`enumerate_strategy` from this array rather than written 2, 3, 4 (see there).
_SUBSET_SIZE = np.array([0, 0, 2, 2, 0, 3, 3, 2, 4, 4, 3, 4, 0], dtype=np.int64)
#: First strategy id of each tier, and one past the last (tier t is ids TIER_START[t]:TIER_START[t+1]).
TIER_START: tuple[int, ...] = (0, 2, 5, 8, 11, 12, 13)
N_STRATEGIES = 13
N_TIERS = 6


@dataclass(frozen=True)
class Tables:
    """The geometry as flat int64 arrays for the kernels."""

    size: int
    units: I64
    kinds: I64  # 0 row, 1 column, 2 box/region, 3 extra
    cell_units: I64
    peers: I64
    inter_cells: I64  # (I, width) cells of each line/box intersection, padded with -1
    inter_line: I64
    inter_box: I64

    @property
    def scan(self) -> Scan:
        """The tables :func:`enumerate_strategy` and :func:`hsolve_runs` read, as one tuple."""
        return (
            self.units,
            self.cell_units,
            self.peers,
            self.inter_cells,
            self.inter_line,
            self.inter_box,
        )


@cache
def tables(geometry: Geometry) -> Tables:
    """The kernel tables of ``geometry`` (cached)."""
    kinds_map = {"row": 0, "col": 1, "box": 2, "region": 2, "extra": 3}
    units = np.ascontiguousarray(geometry.units, dtype=np.int64)
    kinds = np.array([kinds_map[k] for k in geometry.unit_kinds], dtype=np.int64)
    peers = geometry.peer_table.astype(np.int64)
    cells: list[list[int]] = []
    lines: list[int] = []
    boxes: list[int] = []
    unit_sets = [set(u.tolist()) for u in geometry.units]
    for li in range(geometry.nunits):
        if kinds[li] > 1:
            continue
        for bi in range(geometry.nunits):
            if kinds[bi] != 2:
                continue
            common = sorted(unit_sets[li] & unit_sets[bi])
            if len(common) >= 2:
                cells.append(common)
                lines.append(li)
                boxes.append(bi)
    iw = max((len(c) for c in cells), default=1)
    inter = np.full((max(len(cells), 1), iw), -1, dtype=np.int64)
    for i, common_cells in enumerate(cells):
        inter[i, : len(common_cells)] = common_cells
    return Tables(
        size=geometry.size,
        units=units,
        kinds=kinds,
        cell_units=np.ascontiguousarray(geometry.cell_units, dtype=np.int64),
        peers=peers,
        inter_cells=inter if cells else inter[:0],
        inter_line=np.array(lines, dtype=np.int64),
        inter_box=np.array(boxes, dtype=np.int64),
    )


# ---------------------------------------------------------------------- basics
@njit(cache=True)
def low_digit(x: int | np.int64) -> int:  # pragma: no cover - compiled
    """The 1-based digit of the lowest set bit of ``x`` (``x != 0``)."""
    d = 1
    while not (x & 1):
        x >>= 1
        d += 1
    return d


@njit(cache=True, inline="always")
def _record_placement(ops: I64, c: Int, d: Int) -> int:  # pragma: no cover - compiled
    """Write an application that places digit ``d`` in cell ``c`` as ``ops[0]``; returns 1."""
    ops[0, 0] = c
    ops[0, 1] = d
    ops[0, 2] = 1
    return 1


@njit(cache=True, inline="always")
def _record_removals(ops: I64, nops: int, c: Int, bits: Int) -> int:  # pragma: no cover
    """Append to ``ops`` the removal of every digit of ``bits`` from cell ``c``; returns
    the new count of operations."""
    while bits:
        low = bits & -bits
        ops[nops, 0] = c
        ops[nops, 1] = low_digit(low)
        ops[nops, 2] = 0
        nops += 1
        bits ^= low
    return nops


@njit(cache=True)
def place(
    masks: I64, values: NDArray[np.int8], peers: I64, cell: Int, d: Int
) -> None:  # pragma: no cover
    bit = np.int64(1) << np.int64(d - 1)
    values[cell] = d
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        if p < 0:
            break
        masks[p] &= ~bit
    masks[cell] = bit


@njit(cache=True)
def count_empty(values: NDArray[np.int8]) -> int:  # pragma: no cover - compiled
    n = 0
    for c in range(values.shape[0]):
        if values[c] == 0:
            n += 1
    return n


@njit(cache=True)
def unit_once(
    masks: I64, values: NDArray[np.int8], units: I64, once: I64, union: I64
) -> None:  # pragma: no cover
    """Per unit: digits with exactly one place among empty cells, and all digits there."""
    for u in range(units.shape[0]):
        o = np.int64(0)
        t = np.int64(0)
        for j in range(units.shape[1]):
            c = units[u, j]
            if values[c] == 0:
                m = masks[c]
                t |= o & m
                o |= m
        once[u] = o & ~t
        union[u] = o


@njit(cache=True)
def contradiction(
    masks: I64, values: NDArray[np.int8], units: I64, n: Int
) -> bool:  # pragma: no cover
    """An empty cell without candidates, a digit twice in a unit, or a digit with no place."""
    full = (np.int64(1) << np.int64(n)) - 1
    for c in range(values.shape[0]):
        if values[c] == 0 and masks[c] == 0:
            return True
    for u in range(units.shape[0]):
        placed = np.int64(0)
        union = np.int64(0)
        for j in range(units.shape[1]):
            c = units[u, j]
            v = values[c]
            if v:
                bit = np.int64(1) << np.int64(v - 1)
                if placed & bit:
                    return True
                placed |= bit
            else:
                union |= masks[c]
        if (placed | union) != full:
            return True
    return False


@njit(cache=True)
def singles_fixpoint(
    masks: I64, values: NDArray[np.int8], units: I64, peers: I64, n: Int
) -> int:  # pragma: no cover - compiled
    """Naked and hidden singles until none is left: SOLVED, STUCK or CONTRADICTION (:mod:`.status`)."""
    nu = units.shape[0]
    once = np.empty(nu, dtype=np.int64)
    union = np.empty(nu, dtype=np.int64)
    while True:
        changed = False
        for c in range(values.shape[0]):
            if values[c] == 0:
                m = masks[c]
                if m == 0:
                    return CONTRADICTION
                if m & (m - 1) == 0:
                    place(masks, values, peers, c, low_digit(m))
                    changed = True
        unit_once(masks, values, units, once, union)
        for u in range(nu):
            o = once[u]
            if o == 0:
                continue
            for j in range(units.shape[1]):
                c = units[u, j]
                if values[c] == 0:
                    h = masks[c] & o
                    if h:
                        place(masks, values, peers, c, low_digit(h))
                        changed = True
        if contradiction(masks, values, units, n):
            return CONTRADICTION
        if not changed:
            break
    return SOLVED if count_empty(values) == 0 else STUCK


@njit(cache=True)
def apply_ops(
    masks: I64, values: NDArray[np.int8], peers: I64, ops: I64, nops: int
) -> None:  # pragma: no cover
    """Apply ``nops`` rows ``(cell, digit, is_placement)`` of ``ops``."""
    for i in range(nops):
        c = ops[i, 0]
        d = ops[i, 1]
        if ops[i, 2]:
            if values[c] == 0:
                place(masks, values, peers, c, d)
        elif values[c] == 0:
            masks[c] &= ~(np.int64(1) << np.int64(d - 1))


@njit(cache=True)
def _choose(n: Int, k: Int) -> int:  # pragma: no cover - compiled
    if n < k:
        return 0
    r = 1
    for i in range(k):
        r = int(r * (n - i) // (i + 1))
    return r


@njit(cache=True, inline="always")
def _first_combo(idx: I64, k: Int, n: Int) -> int:  # pragma: no cover - compiled
    """Start ``idx`` at the first k-combination of n (0, 1, ..., k-1); returns how
    many combinations there are (each a possible application)."""
    for i in range(k):
        idx[i] = i
    return _choose(np.int64(n), np.int64(k))


@njit(cache=True, inline="always")
def _chosen_union(bits: I64, index: I64, idx: I64, k: Int) -> np.int64:  # pragma: no cover
    """The union of ``bits[index[idx[i]]]`` over the k chosen ``idx``."""
    union = np.int64(0)
    for i in range(k):
        union |= bits[index[idx[i]]]
    return union


@njit(cache=True, inline="always")
def _mark_chosen(
    flags: NDArray[np.bool_], n: Int, index: I64, idx: I64, k: Int
) -> None:  # pragma: no cover - compiled
    """``flags[:n]`` False but at ``index[idx[i]]`` for the k chosen ``idx``."""
    for i in range(n):
        flags[i] = False
    for i in range(k):
        flags[index[idx[i]]] = True


@njit(cache=True)
def _next_combo(idx: I64, k: Int, n: Int) -> bool:  # pragma: no cover - compiled
    i = k - 1
    while i >= 0 and idx[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True, inline="always")
def _hidden_digits(once: I64, cell_units: I64, c: Int) -> np.int64:  # pragma: no cover
    """The digits that have one place in some unit of cell ``c`` (``once``: per unit,
    the digits with one place, from :func:`unit_once`)."""
    h = np.int64(0)
    for j in range(cell_units.shape[1]):
        u = cell_units[c, j]
        if u < 0:
            break
        h |= once[u]
    return h


# ---------------------------------------------------------------------- strategies
# Each enumerator returns (p, v, nops): the possible applications p as Appendix A
# counts them, the number v of valid applications, and, when the valid application
# with index ``target`` was met, its operations written to ``ops``. Their parameter
# lists repeat (masks, values, units, ..., target, ops): numba compiles each as a
# kernel of plain array arguments, so the repetition is of signatures, not of logic.


@njit(cache=True)
def _single(
    masks: I64, values: NDArray[np.int8], units: I64, cell_units: I64,
    hidden: bool, target: Int, ops: I64,
) -> tuple[int, int, int]:  # pragma: no cover  # fmt: skip
    """Naked singles (an empty cell with one candidate) or, with ``hidden``, hidden
    singles (an empty cell holding a digit that has one place in one of its units).
    Each empty cell is a possible application; a cell with one is a valid one,
    which places its lowest such digit."""
    once = np.empty(units.shape[0] if hidden else 0, dtype=np.int64)
    if hidden:
        union = np.empty(units.shape[0], dtype=np.int64)
        unit_once(masks, values, units, once, union)
    p = 0
    v = 0
    nops = 0
    for c in range(values.shape[0]):
        if values[c] == 0:
            p += 1
            m = masks[c]
            if hidden:
                digits = _hidden_digits(once, cell_units, c) & m
            else:
                digits = m if m != 0 and m & (m - 1) == 0 else np.int64(0)
            if digits:
                if v == target:
                    nops = _record_placement(ops, c, low_digit(digits))
                v += 1
    return p, v, nops


@njit(cache=True)
def _subset(
    masks: I64, values: NDArray[np.int8], units: I64, k: Int, hidden: bool, target: Int, ops: I64
) -> tuple[int, int, int]:  # pragma: no cover
    """Naked double/triple/quad (k empty cells of a unit whose candidates are k
    digits: the digits leave the unit's other cells) or, with ``hidden``, hidden
    ones (k digits of a unit confined to k empty cells: those cells lose their
    other digits). Both walk the same combinations of a unit's empty cells."""
    p = 0
    v = 0
    nops = 0
    w = units.shape[1]
    empt = np.empty(w, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    insub = np.zeros(w, dtype=np.bool_)
    at = np.arange(w)  # insub is by place in empt: index idx[i] itself
    for u in range(units.shape[0]):
        n = 0
        for j in range(w):
            if values[units[u, j]] == 0:
                empt[n] = units[u, j]
                n += 1
        if n < k:
            continue
        p += _first_combo(idx, k, n)
        while True:
            hit = False
            gone = np.int64(0)  # the digits that go, from the cells with insub[i] == hidden
            if hidden:
                _mark_chosen(insub, n, at, idx, k)
                other = np.int64(0)
                sub = np.int64(0)
                for i in range(n):
                    if insub[i]:
                        sub |= masks[empt[i]]
                    else:
                        other |= masks[empt[i]]
                dd = sub & ~other
                if popcount(dd) == k:
                    ok = True
                    extra = False
                    for i in range(k):
                        m = masks[empt[idx[i]]]
                        if not (m & dd):
                            ok = False
                        if m & ~dd:
                            extra = True
                    hit = ok and extra
                gone = ~dd
            else:
                un = _chosen_union(masks, empt, idx, k)
                if popcount(un) == k:
                    _mark_chosen(insub, n, at, idx, k)
                    for i in range(n):
                        if not insub[i] and masks[empt[i]] & un:
                            hit = True
                            break
                gone = un
            if hit:
                if v == target:
                    for i in range(n):
                        if insub[i] == hidden:
                            nops = _record_removals(ops, nops, empt[i], masks[empt[i]] & gone)
                v += 1
            if not _next_combo(idx, np.int64(k), np.int64(n)):
                break
    return p, v, nops


@njit(cache=True)
def _in_unit(cell_units: I64, c: int, u: int) -> bool:  # pragma: no cover - compiled
    for j in range(cell_units.shape[1]):
        x = cell_units[c, j]
        if x < 0:
            return False
        if x == u:
            return True
    return False


@njit(cache=True, inline="always")
def _outside(
    masks: I64, values: NDArray[np.int8], units: I64, cell_units: I64, u: int, j: int, other: int
) -> np.int64:  # pragma: no cover - compiled
    """The candidates of the ``j``-th cell of unit ``u`` when it is empty and not in
    unit ``other`` (the rest of a line or box outside an intersection), else 0."""
    c = units[u, j]
    outside = values[c] == 0 and not _in_unit(cell_units, c, other)
    return np.int64(masks[c]) if outside else np.int64(0)


@njit(cache=True)
def _locked_candidates(
    masks: I64, values: NDArray[np.int8], units: I64, cell_units: I64,
    inter_cells: I64, inter_line: I64, inter_box: I64,  # the line/box intersections
    target: Int, ops: I64,
) -> tuple[int, int, int]:  # pragma: no cover  # fmt: skip
    """Pointing and claiming at each line/box intersection with two or more empty cells."""
    p = 0
    v = 0
    nops = 0
    w = units.shape[1]
    for i in range(inter_cells.shape[0]):
        ne = 0
        ini = np.int64(0)
        for j in range(inter_cells.shape[1]):
            c = inter_cells[i, j]
            if c < 0:
                break
            if values[c] == 0:
                ne += 1
                ini |= masks[c]
        if ne < 2:
            continue
        p += 1
        line = inter_line[i]
        box = inter_box[i]
        line_rest = np.int64(0)
        box_rest = np.int64(0)
        for j in range(w):
            line_rest |= _outside(masks, values, units, cell_units, line, j, box)
            box_rest |= _outside(masks, values, units, cell_units, box, j, line)
        pointing = ini & ~box_rest & line_rest  # digit only in the intersection within the box
        claiming = ini & ~line_rest & box_rest  # digit only in the intersection within the line
        if pointing == 0 and claiming == 0:
            continue
        if v == target:
            for j in range(w):
                gone = _outside(masks, values, units, cell_units, line, j, box) & pointing
                nops = _record_removals(ops, nops, units[line, j], gone)
                gone = _outside(masks, values, units, cell_units, box, j, line) & claiming
                nops = _record_removals(ops, nops, units[box, j], gone)
        v += 1
    return p, v, nops


@njit(cache=True)
def _fish(
    masks: I64, values: NDArray[np.int8], n: Int, k: Int, target: Int, ops: I64
) -> tuple[int, int, int]:  # pragma: no cover
    """X-Wing (k=2), Swordfish (3), Jellyfish (4): a digit in k lines confined to k cross lines."""
    p = 0
    v = 0
    nops = 0
    pos = np.empty(n, dtype=np.int64)
    base = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    inset = np.zeros(n, dtype=np.bool_)
    for d in range(1, n + 1):
        bit = np.int64(1) << np.int64(d - 1)
        for orient in range(2):
            nb = 0
            for a in range(n):
                m = np.int64(0)
                for b in range(n):
                    c = a * n + b if orient == 0 else b * n + a
                    if values[c] == 0 and masks[c] & bit:
                        m |= np.int64(1) << np.int64(b)
                pos[a] = m
                cnt = popcount(m)
                if 2 <= cnt <= k:
                    base[nb] = a
                    nb += 1
            if nb < k:
                continue
            p += _first_combo(idx, k, nb)
            while True:
                cover = _chosen_union(pos, base, idx, k)
                if popcount(cover) == k:
                    _mark_chosen(inset, n, base, idx, k)
                    found = False
                    for a in range(n):
                        if not inset[a] and pos[a] & cover:
                            found = True
                            break
                    if found:
                        if v == target:
                            for a in range(n):
                                if not inset[a]:
                                    b2 = pos[a] & cover
                                    while b2:
                                        low = b2 & -b2
                                        b = low_digit(low) - 1
                                        c = a * n + b if orient == 0 else b * n + a
                                        nops = _record_removals(ops, nops, c, bit)
                                        b2 ^= low
                        v += 1
                if not _next_combo(idx, np.int64(k), np.int64(nb)):
                    break
    return p, v, nops


@njit(cache=True)
def _backtracking(
    masks: I64, values: NDArray[np.int8], units: I64, peers: I64, n: Int, target: Int, ops: I64
) -> tuple[int, int, int]:  # pragma: no cover
    """Tier 5: a cell with two candidates; assume one and run tier 0 (singles).

    Valid when a test value leads to a contradiction (the other value is placed)
    or to the solution (the test value is placed). The lower digit is tried first,
    then the higher.
    """
    p = 0
    v = 0
    nops = 0
    for c in range(values.shape[0]):
        if values[c] != 0:
            continue
        m = masks[c]
        if popcount(m) != 2:
            continue
        p += 1
        d1 = low_digit(m)
        d2 = low_digit(m & ~(np.int64(1) << np.int64(d1 - 1)))
        result = 0
        for t in range(2):
            dt = d1 if t == 0 else d2
            do = d2 if t == 0 else d1
            mm = masks.copy()
            vv = values.copy()
            place(mm, vv, peers, c, dt)
            s = singles_fixpoint(mm, vv, units, peers, n)
            if s == CONTRADICTION:
                result = do
                break
            if s == SOLVED:
                result = dt
                break
        if result:
            if v == target:
                nops = _record_placement(ops, c, result)
            v += 1
    return p, v, nops


@njit(cache=True)
def enumerate_strategy(
    s: int, masks: I64, values: NDArray[np.int8], scan: Scan, n: Int, target: Int, ops: I64
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Dispatch to the enumerator of strategy ``s``: returns ``(p, v, nops)``.

    ``scan`` is :attr:`Tables.scan`; ``target`` -1 counts the applications only.

    One call site per enumerator, with the subset size read from
    :data:`_SUBSET_SIZE`: numba compiles a callee once per literal argument
    value (``_fish(..., 2, ...)``, ``3`` and ``4`` were three compilations of
    ``_fish``), and LLVM inlines and optimises a callee once per call site, in
    this function and again in every kernel that calls it. Seconds each, on a
    machine's first run.
    """
    units, cell_units, peers, inter_cells, inter_line, inter_box = scan
    if s <= 1:  # naked, hidden single
        return _single(masks, values, units, cell_units, s == 1, target, ops)
    if s == 4:
        return _locked_candidates(
            masks, values, units, cell_units, inter_cells, inter_line, inter_box, target, ops
        )
    if s >= 12:
        return _backtracking(masks, values, units, peers, n, target, ops)
    k = _SUBSET_SIZE[s]
    if s == 7 or s == 10 or s == 11:  # x-wing, swordfish, jellyfish
        return _fish(masks, values, n, k, target, ops)
    # 2, 5, 8: naked double, triple, quad; 3, 6, 9: hidden ones
    return _subset(masks, values, units, k, s % 3 == 0, target, ops)


@njit(cache=True)
def _reveal(
    masks: I64,
    values: NDArray[np.int8],
    peers: I64,
    solution: NDArray[np.int8],
    st: NDArray[np.uint64],
    empty: Int,
) -> None:  # pragma: no cover - compiled
    """Place the solution's digit in an empty cell drawn uniformly (one of ``empty``)."""
    k = rng_below(st, np.int64(empty))
    for c in range(values.shape[0]):
        if values[c] == 0:
            if k == 0:
                place(masks, values, peers, c, np.int64(solution[c]))
                return
            k -= 1


@njit(cache=True, inline="always")
def _run_start(
    masks0: I64,
    values0: NDArray[np.int8],
    seeds: NDArray[np.uint64],
    r: int,
    st: NDArray[np.uint64],
) -> tuple[I64, NDArray[np.int8]]:  # pragma: no cover - compiled
    """Run ``r`` of a randomised model begins: its seed into the random state ``st``,
    and its own copy of the start marks."""
    st[0] = seeds[r]
    return masks0.copy(), values0.copy()


@njit(cache=True)
def hsolve_runs(
    masks0: I64, values0: NDArray[np.int8], solution: NDArray[np.int8],  # the start
    scan: Scan, n: int, max_tier: int,  # the strategies, the highest tier tried
    seeds: NDArray[np.uint64],  # a run each
    scores: NDArray[np.float64], stuck: I64, counts: I64,  # out: a row a run
) -> None:  # pragma: no cover - compiled  # fmt: skip
    """``len(seeds)`` runs of hsolve (section 3.2); per run: score, stuck count, strategy counts.

    Each step searches tiers from 0 up; a searched tier adds E(p, v) = (p+1)/(v+1)
    (Lemma 1) and, when v > 0, a uniformly random valid application is applied and
    the search restarts at tier 0. When no tier up to ``max_tier`` applies, a
    cell of ``solution`` (if given: non-zero) is revealed and counted in ``stuck``.
    """
    peers = scan[2]
    ncells = values0.shape[0]
    ops = np.empty((ncells * n + ncells, 3), dtype=np.int64)
    tier_start = np.array([0, 2, 5, 8, 11, 12, 13], dtype=np.int64)
    vs = np.zeros(13, dtype=np.int64)
    st = np.zeros(1, dtype=np.uint64)
    has_solution = solution[0] != 0
    for r in range(seeds.shape[0]):
        masks, values = _run_start(masks0, values0, seeds, r, st)
        d = 0.0
        nstuck = 0
        while True:
            empty = 0
            bad = False
            for c in range(ncells):
                if values[c] == 0:
                    empty += 1
                    if masks[c] == 0:
                        bad = True
            if empty == 0 or bad:
                break
            applied = False
            for t in range(max_tier + 1):
                pt = 0
                vt = 0
                for s in range(tier_start[t], tier_start[t + 1]):
                    p, v, _ = enumerate_strategy(s, masks, values, scan, n, np.int64(-1), ops)
                    vs[s] = v
                    pt += p
                    vt += v
                d += (pt + 1.0) / (vt + 1.0)
                if vt > 0:
                    k = rng_below(st, np.int64(vt))
                    for s in range(tier_start[t], tier_start[t + 1]):
                        if k < vs[s]:
                            _, _, nops = enumerate_strategy(s, masks, values, scan, n, k, ops)
                            apply_ops(masks, values, peers, ops, nops)
                            counts[r, s] += 1
                            break
                        k -= vs[s]
                    applied = True
                    break
            if not applied:
                if not has_solution:
                    break
                _reveal(masks, values, peers, solution, st, empty)
                nstuck += 1
        scores[r] = d
        stuck[r] = nstuck


# ---------------------------------------------------------------------- oracle
@njit(cache=True)
def oracle_runs(
    masks0: I64, values0: NDArray[np.int8], solution: NDArray[np.int8],  # the start
    units: I64, peers: I64,  # the geometry
    seeds: NDArray[np.uint64],  # a run each
    out: NDArray[np.float64],  # a row a run
) -> None:  # pragma: no cover - compiled  # fmt: skip
    """Runs of the oracle model (Fletcher, Johnson, Morrison, Algorithm 1).

    Per run ``r``, ``out[r]`` = (naked singles, hidden singles, iterations, oracle
    visits). An iteration fills naked singles until none is left, then makes one
    pass over the units placing hidden singles; when an iteration places nothing
    the oracle reveals a random empty cell of ``solution``.
    """
    ncells = values0.shape[0]
    nu = units.shape[0]
    w = units.shape[1]
    st = np.zeros(1, dtype=np.uint64)
    for r in range(seeds.shape[0]):
        masks, values = _run_start(masks0, values0, seeds, r, st)
        naked = 0
        hidden = 0
        iters = 0
        oracle = 0
        while True:
            empty = count_empty(values)
            if empty == 0:
                break
            iters += 1
            found = 0
            while True:
                more = False
                for c in range(ncells):
                    if values[c] == 0:
                        m = masks[c]
                        if m != 0 and m & (m - 1) == 0:
                            place(masks, values, peers, c, low_digit(m))
                            naked += 1
                            found += 1
                            more = True
                if not more:
                    break
            for u in range(nu):
                o = np.int64(0)
                t = np.int64(0)
                for j in range(w):
                    c = units[u, j]
                    if values[c] == 0:
                        m = masks[c]
                        t |= o & m
                        o |= m
                o &= ~t
                while o:
                    low = o & -o
                    o ^= low
                    for j in range(w):
                        c = units[u, j]
                        if values[c] == 0 and masks[c] & low:
                            place(masks, values, peers, c, low_digit(low))
                            hidden += 1
                            found += 1
                            break
            if found == 0:
                empty = count_empty(values)
                if empty == 0:
                    break
                _reveal(masks, values, peers, solution, st, empty)
                oracle += 1
        out[r, 0] = naked
        out[r, 1] = hidden
        out[r, 2] = iters
        out[r, 3] = oracle


# ---------------------------------------------------------------------- SiSuS singles
@njit(cache=True)
def sisus_singles(
    masks: I64,
    values: NDArray[np.int8],
    units: I64,
    cell_units: I64,
    peers: I64,
    st: NDArray[np.uint64],
    options: I64,
    nsteps: int,
) -> int:  # pragma: no cover - compiled
    """Random singles (Pelanek's SiSuS model) until stuck or solved, in place.

    At each step every available single (distinct placement, naked or hidden)
    is an option; one is chosen uniformly at random and placed. The number of
    options at each step is written to ``options[nsteps], options[nsteps+1], ...``
    (the stuck step, with 0 options, is not written). Returns the new step count.
    """
    ncells = values.shape[0]
    nu = units.shape[0]
    once = np.empty(nu, dtype=np.int64)
    union = np.empty(nu, dtype=np.int64)
    cand = np.empty(ncells, dtype=np.int64)
    while True:
        unit_once(masks, values, units, once, union)
        total = 0
        cand[:] = 0
        for c in range(ncells):
            if values[c] == 0:
                m = masks[c]
                if m == 0:
                    return nsteps
                if m & (m - 1) == 0:
                    cand[c] = m
                    total += 1
                else:
                    h = _hidden_digits(once, cell_units, c) & m
                    if h:
                        cand[c] = h
                        total += popcount(h)
        if total == 0:
            return nsteps
        if nsteps < options.shape[0]:
            options[nsteps] = total
        nsteps += 1
        k = rng_below(st, np.int64(total))
        for c in range(ncells):
            h = cand[c]
            if h:
                pc = popcount(h)
                if k < pc:
                    while k > 0:
                        h &= h - 1
                        k -= 1
                    place(masks, values, peers, c, low_digit(h))
                    break
                k -= pc
