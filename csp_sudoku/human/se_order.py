"""Sudoku Explainer's solving order: one hint at a time, the easiest technique first.

Sudoku Explainer (SE) rates a puzzle by solving it the way its batch rater
does: at every step it asks its techniques, in a fixed order, for a hint,
applies the first hint of the first technique that has one, and records that
hint's difficulty; ER is the largest difficulty met, EP the largest up to the
first placement, ED the first. This module replays that order on
:class:`~csp_sudoku.human.state.CandidateState`:

1. hidden singles (1.0 for the last cell of a unit, 1.2 in a box, 1.5 in a
   line); the "direct" techniques, whose eliminations at once leave a hidden
   single, which they place: direct pointing (1.7) and claiming (1.9), direct
   hidden pair (2.0); naked single (2.3); direct hidden triple (2.5);
2. the constraint subset rule's classic techniques (Hunt, Pong, Tucker,
   *Difficulty-Driven Sudoku Puzzle Generation*, theorem "Constraint Subset
   Rule"), in SE's order and values (:mod:`csp_sudoku.human.costs`), then
   SE's named patterns between them (:mod:`csp_sudoku._kernels.se_patterns`);
3. SE's chain families, cheapest first (:mod:`csp_sudoku._kernels.se_chains`):
   bidirectional cycles (6.5), forcing X-chains (6.6) and forcing chains
   (7.0), Nishio forcing chains (7.5), static cell and region forcing chains
   (8.0), dynamic forcing chains (8.5), and those with techniques inside their
   nets: SE's "(+)" (9.0) and its nesting levels 2 (9.5) and 3 (10.0); each
   plus SE's length bonus (:func:`length_bonus`); within a family SE applies
   its hint of least difficulty, then least complexity;
4. beyond them, the human model's graded refutation
   (:func:`csp_sudoku.human.chains.find_chain_move`) standing in for SE's
   deeper nesting (10.5 and up), rated by a caller-supplied function of the
   level and chain length (the ``se`` metric's fitted one).

Each of SE's techniques is registered, one line each in SE's order, as a
:class:`~csp_sudoku.human.se_techniques.SeTechnique` (SE's name, its place in
the order, the raters that ask for it, its finder; :func:`register`, looked
up by :func:`technique`); the replay asks the registered techniques of its
rater in that order (:func:`techniques`), then the human model's refutation.
``csp_sudoku/human/SE_TEMPLATE.py`` is a technique to copy.

The order and values are SE's (the SukakuExplainer batch rater that produced
the reference ratings in ``se_calibration*.tsv``). Where this replay picks
another hint of the same difficulty than SE would (ties are broken here by
position), its later path can differ; the ratings agree where the hardest
step's family is found (docs/validation.md).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import ArgumentError, ChainBudgetExceeded, GeometryError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.parallel import on_spare_cores, spare_cores
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.human._tables import Tables, tables
from csp_sudoku.human.costs import SE_CHAIN_BASE, SE_DIRECT, SE_VALUES
from csp_sudoku.human.se_techniques import (
    PROFILES,
    Finder,
    Pair,
    SeStep,
    SeTechnique,
    commit,
)
from csp_sudoku.human.state import CandidateState, grid_mask, solution_mask

#: What a chain beyond SE's dynamic forcing chains is worth: ``(level, form, length) -> ER``.
FallbackRating = Callable[[int, str, int], float]


@dataclass
class SeRun:
    """The replay of one puzzle.

    Attributes:
        steps: the hints, in order.
        solved: True when every cell got filled.
        stopped: why it ended early (``""`` when it did not): ``within``
            (asked for: the quick test showed the rest of the path worth less
            than the hardest step so far, :func:`se_solve`'s ``stop_within``),
            ``stuck`` (no technique applies, only for puzzles without one
            solution) or
            ``budget`` (a level-2 search ran past its budget).
    """

    steps: list[SeStep] = field(default_factory=list)
    solved: bool = False
    stopped: str = ""

    @property
    def er(self) -> float:
        """SE's ER: the hardest step (0 for no step)."""
        return max((s.difficulty for s in self.steps), default=0.0)

    @property
    def ep(self) -> float:
        """SE's EP: the hardest step up to and including the first placement."""
        first = next((i for i, s in enumerate(self.steps) if s.placements), len(self.steps) - 1)
        return max((s.difficulty for s in self.steps[: first + 1]), default=0.0)

    @property
    def ed(self) -> float:
        """SE's ED: the first step's difficulty."""
        return self.steps[0].difficulty if self.steps else 0.0


def length_bonus(complexity: int) -> float:
    """SE's addition to a chain's base value for its complexity (0.1 per step).

    The steps come each time ``complexity - 2`` passes 4, 6, 8, 12, 16, 24,
    32, 48, ...: about 0.2 per doubling of the chain.
    """
    from csp_sudoku._kernels.se_chains import length_tenths

    return 0.1 * int(length_tenths(int(complexity)))


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class _Layout:
    """Per-geometry arrays of the replay (built once)."""

    corder: NDArray[np.int32]  # columns of each candidate in SE's order
    ncellcols: int
    units: NDArray[np.int32]
    ukind: NDArray[np.int32]  # 0 box, 1 row, 2 column, 3 other
    rows: NDArray[np.int32]  # the units that are rows (a digit's templates are built on them)
    cell_line: NDArray[np.int32]  # (row, column, box) unit of each cell, -1 where none
    see: NDArray[np.int8]  # 1 where two cells share a unit
    see_bits: NDArray[np.int64]  # row a: the cells sharing a unit with a, bit b of word b >> 6
    member: NDArray[np.int8]  # [u, c] 1 where cell c lies in unit u
    cross: NDArray[np.int8]  # [u, v] 1 where units u and v share a cell
    col_seq: NDArray[np.int32]  # all columns in SE's order: cells, then boxes, rows, columns
    cell_extra: NDArray[np.int64]  # bit k set where the cell lies in the k-th unit of kind 3


@lru_cache(maxsize=16)
def _layout(geometry: Geometry) -> _Layout:
    t = tables(geometry)
    kinds = geometry.unit_kinds
    n = geometry.size
    ncell = t.ncell_columns
    ncols = t.column_candidates.shape[0]
    col_unit = np.full(ncols, -1, dtype=np.int32)
    col_unit[ncell:] = np.arange(ncols - ncell, dtype=np.int32) // n
    rank = {"box": 1, "region": 1, "row": 2, "col": 3}

    def key(c: int) -> tuple[int, int]:
        if c < 0:
            return (9, 0)
        if c < ncell:
            return (0, c)
        return (rank.get(kinds[int(col_unit[c])], 4), c)

    kc = t.candidate_columns
    corder = np.array([sorted(row, key=key) for row in kc.tolist()], dtype=np.int32)
    code = {"box": 0, "region": 0, "row": 1, "col": 2}
    ukind = np.array([code.get(k, 3) for k in kinds], dtype=np.int32)
    cell_line = np.full((geometry.ncells, 3), -1, dtype=np.int32)
    for u, cells in enumerate(t.units.tolist()):
        slot = {1: 0, 2: 1, 0: 2}.get(int(ukind[u]))
        if slot is None:
            continue
        for c in cells:
            if c >= 0 and cell_line[c, slot] < 0:
                cell_line[c, slot] = u
    see = np.zeros((geometry.ncells, geometry.ncells), dtype=np.int8)
    for c, row in enumerate(t.peers.tolist()):
        for p in row[: int(t.npeers[c])]:
            see[c, p] = 1
    see_bits = np.zeros((geometry.ncells, (geometry.ncells + 63) // 64), dtype=np.uint64)
    rows, cols = np.nonzero(see)
    np.bitwise_or.at(see_bits, (rows, cols >> 6), np.uint64(1) << (cols & 63).astype(np.uint64))
    member = np.zeros((t.units.shape[0], geometry.ncells), dtype=np.int8)
    for u, cells in enumerate(t.units.tolist()):
        member[u, [c for c in cells if c >= 0]] = 1
    cross = (member.astype(np.int32) @ member.T.astype(np.int32) > 0).astype(np.int8)
    return _Layout(
        np.ascontiguousarray(corder),
        ncell,
        t.units,
        ukind,
        np.flatnonzero(ukind == 1).astype(np.int32),
        cell_line,
        see,
        see_bits.view(np.int64),
        member,
        cross,
        np.array(sorted(range(ncols), key=key), dtype=np.int32),
        _cell_extra(t.units, ukind, geometry.ncells),
    )


def _cell_extra(
    units: NDArray[np.int32], ukind: NDArray[np.int32], ncells: int
) -> NDArray[np.int64]:
    """Per cell, a bit for each unit that is no row, column or box (an X-Sudoku
    diagonal, a Windoku window) holding it: all zero on a classic grid."""
    out = np.zeros(ncells, dtype=np.int64)
    extra = np.flatnonzero(ukind == 3)
    if extra.size > 63:
        raise GeometryError(f"{extra.size} extra units: the unique rectangles track at most 63")
    for k, u in enumerate(extra.tolist()):
        cells = [c for c in units[u].tolist() if c >= 0]
        out[cells] |= np.int64(1) << np.int64(k)
    return out


def se_layout(geometry: Geometry) -> _Layout:
    """The replay's per-geometry arrays (units, their kinds, membership), for the
    figures that run a kernel again (:mod:`csp_sudoku.human.se_branches`)."""
    return _layout(geometry)


def column_order(geometry: Geometry) -> NDArray[np.int32]:
    """The exact-cover columns of each candidate in the order the chain kernels
    visit them (its cell, then its box, row and column units; -1 padded): the
    order that decides which parent a chain keeps, shared with the drawing of
    branches (:mod:`csp_sudoku.human.se_branches`)."""
    return _layout(geometry).corder


#: The last pencil marks :func:`_alive8` read: ``(size, masks and values as bytes, alive)``.
_alive_last: list[tuple[int, bytes, NDArray[np.int8]]] = []


def _alive8(state: CandidateState) -> NDArray[np.int8]:
    """The live candidates (:meth:`CandidateState.alive`) as int8, the kernels' type.

    The searches of one step all read the same marks, so the last answer is
    kept and given again while the marks are the same; the kernels only read it.
    """
    key = state.masks.tobytes() + state.values.tobytes()
    size = state.geometry.size
    last = _alive_last[0] if _alive_last else None
    if last is not None and last[0] == size and last[1] == key:
        return last[2]
    alive = state.alive().astype(np.int8)
    _alive_last[:] = [(size, key, alive)]
    return alive


def _chain_inputs(state: CandidateState) -> tuple[Geometry, _Layout, Tables, NDArray[np.int8]]:
    """What SE's chain families read of ``state``: its geometry, the replay's
    arrays and the candidate tables of that geometry, and the live candidates
    (:func:`_alive8`)."""
    g = state.geometry
    return g, _layout(g), tables(g), _alive8(state)


# --------------------------------------------------------------------------- singles and subsets


def _hidden_single(state: CandidateState) -> SeStep | None:
    """SE's hidden single: the last empty cell of a unit (1.0), else in a box (1.2), else a line (1.5)."""
    g = state.geometry
    singles = state.hidden_singles()
    if not singles:
        return None
    empty = (state.values[g.units] == 0).sum(axis=1)
    kinds = g.unit_kinds

    def value(unit: int) -> float:
        if empty[unit] == 1:
            return 1.0
        if kinds[unit] in ("box", "region"):
            return SE_VALUES["hidden single (box)"]
        return SE_VALUES["hidden single"]

    best = min(singles, key=lambda s: (value(s.unit), s.unit, s.cell))
    return commit(state, SeStep("Hidden Single", value(best.unit), ((best.cell, best.digit),)))


def _hidden_singles_run(state: CandidateState, steps: list[SeStep], limit: int) -> tuple[int, int]:
    """:func:`_hidden_single` again and again while one is left (at most ``limit``), in one
    compiled call (:func:`csp_sudoku._kernels.human.se_hidden_singles`): the same steps,
    without a trip through Python per placement. Returns how many were placed
    and why the run stopped (a run's status: ``STUCK`` when no hidden single is
    left, ``STEP_LIMIT``, ``SOLVED`` or ``CONTRADICTION``; the replay's loop
    reads the grid's state from it)."""
    from csp_sudoku._kernels.human import se_hidden_singles
    from csp_sudoku._kernels.status import STEP_LIMIT

    g = state.geometry
    if limit <= 0:
        return 0, STEP_LIMIT
    t = tables(g)
    arrays: dict[Geometry, tuple[NDArray[np.int32], ...]] = _NO_HINT.__dict__.setdefault(
        "singles", {}
    )
    out = arrays.get(g)
    if out is None:
        # a run places each empty cell at most once; then why it stopped
        out = arrays[g] = (
            *(np.empty(g.ncells, dtype=np.int32) for _ in range(3)),
            np.empty(1, dtype=np.int32),
        )
    cells, digits, kinds, why = out
    done = int(
        se_hidden_singles(
            state.masks, state.values, t.units, _box_units(g), t.peers, t.npeers,
            min(limit, g.ncells), cells, digits, kinds, why,
        )
    )  # fmt: skip
    values = (1.0, SE_VALUES["hidden single (box)"], SE_VALUES["hidden single"])
    for c, d, k in zip(
        cells[:done].tolist(), digits[:done].tolist(), kinds[:done].tolist(), strict=True
    ):
        steps.append(SeStep("Hidden Single", values[k], ((c, d),)))
    return done, int(why[0])


_BOX_UNITS: dict[Geometry, NDArray[np.bool_]] = {}


def _box_units(g: Geometry) -> NDArray[np.bool_]:
    """Which units are boxes (or jigsaw regions), where SE's hidden single is worth 1.2."""
    if g not in _BOX_UNITS:
        _BOX_UNITS[g] = np.array([k in ("box", "region") for k in g.unit_kinds], dtype=np.bool_)
    return _BOX_UNITS[g]


_SET_WORDS = {2: "pair", 3: "triple", 4: "quad"}

#: Per thread, the last marks (cell masks, placements) on which each of the
#: basic techniques found no hint (and likewise the wings, the static chains
#: and Nishio's nets, :func:`_wing`, :func:`_static_chains`, :func:`_nishio`):
#: :func:`basic_hint` then looks only at the patterns that lost a candidate
#: since, when the marks are those less some candidates (any other marks: a
#: full scan, so a new puzzle or another caller's marks need no reset). The
#: strong-linked fishes keep each digit's own fishes (:func:`_strong_links`).
_NO_HINT = threading.local()


@lru_cache(maxsize=1)
def _basic_codes() -> dict[str, int]:
    """:func:`csp_sudoku._kernels.se_patterns.basic_hint`'s technique codes by name."""
    from csp_sudoku._kernels import se_patterns as kp

    return {
        "locking": kp.LOCKING,
        "naked": kp.NAKED,
        "hidden": kp.HIDDEN,
        "fish": kp.FISH,
        "single": kp.SINGLE,
    }


_FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def _basic_step(
    state: CandidateState,
    technique: str,
    n: int,
    direct: bool,
    keep_marks: bool,
    out: NDArray[np.int32],
    cell: int,
    digit: int,
    kind: int,
) -> SeStep:
    """A hint of one of SE's basic techniques, found as SE scans for it
    (:func:`csp_sudoku._kernels.se_patterns.basic_hint`), as a step, applied.

    ``technique``: ``locking`` (pointing, then claiming), ``naked`` or
    ``hidden`` sets of ``n``, ``fish`` of ``n`` lines; ``direct`` for SE's
    direct pointing, claiming and hidden sets, which place the hidden single
    their eliminations leave; ``keep_marks``: a direct hint only places it
    (SukakuExplainer's, see :attr:`SeStep.shown`). ``out``: the removals
    ``(cell, digit)`` (0-based digits); ``cell``, ``digit``: the placement of
    a direct hint (``cell`` -1 when none); ``kind``: for locking, the base
    unit's kind (0 box: pointing)."""
    removed = tuple((int(c), int(d) + 1) for c, d in out.tolist())
    placed = ((int(cell), int(digit) + 1),) if cell >= 0 else ()
    name, label = _basic_name(technique, n, kind)
    if direct and keep_marks:
        return commit(state, SeStep(f"Direct {label}", SE_DIRECT[name], placed, shown=removed))
    if direct:
        return commit(state, SeStep(f"Direct {label}", SE_DIRECT[name], placed, removed))
    return commit(state, SeStep(label, SE_VALUES[name], placed, removed))


def _basic_name(technique: str, n: int, kind: int = 0) -> tuple[str, str]:
    """A basic hint's name in :mod:`csp_sudoku.human.costs` (its value's key) and
    SE's name of it (less ``Direct``), as :func:`_basic_step` takes them;
    ``kind``: for locking, the base unit's kind (0 box: pointing)."""
    if technique == "single":
        return "naked single", "Naked Single"
    if technique == "locking":
        name = "pointing" if kind == 0 else "claiming"
        return name, name.capitalize()
    if technique == "fish":
        return _FISH_NAMES[n], _FISH_NAMES[n]
    name = f"{technique} {_SET_WORDS[n]}"
    return name, name.title()


#: Per thread and geometry, a run's arrays for :func:`basic_first`: its codes,
#: each technique's marks where it found nothing (masks, placements, known),
#: the hint's fields and its removals.
_RunArrays = tuple[
    NDArray[Any], NDArray[Any], NDArray[Any], NDArray[np.int8], NDArray[np.int64], NDArray[np.int32]
]


#: A run of basic techniques: ``(technique, n, direct)`` as :func:`_basic_step` takes
#: them, or ``("single", 1, False)`` for a naked single.
_Run = tuple[tuple[str, int, bool], ...]


def _basic_run(state: CandidateState, run: _Run, keep_marks: bool = False) -> SeStep | None:
    """The first hint of SE's basic techniques ``run``, tried in turn in one
    compiled call (:func:`csp_sudoku._kernels.se_patterns.basic_first`): the
    same hint as :func:`csp_sudoku._kernels.se_patterns.basic_hint` on each in turn,
    with the same marks kept where each found nothing, less the Python around
    each call."""
    from csp_sudoku._kernels.se_patterns import basic_first

    g = state.geometry
    lay = _layout(g)
    kept: dict[tuple[Geometry, _Run], _RunArrays] = _NO_HINT.__dict__.setdefault("runs", {})
    arrays = kept.get((g, run))
    if arrays is None:
        codes = np.array([(_basic_codes()[t], n, d) for t, n, d in run], dtype=np.int64)
        arrays = kept[(g, run)] = (
            codes,
            np.empty((len(run), g.ncells), dtype=state.masks.dtype),
            np.empty((len(run), g.ncells), dtype=state.values.dtype),
            np.zeros(len(run), dtype=np.int8),
            np.empty(4, dtype=np.int64),
            np.empty((g.ncells * g.size, 2), dtype=np.int32),
        )
    codes, since, since_values, known, found, out = arrays
    t = basic_first(
        state.masks, state.values, lay.units, lay.ukind, lay.member, lay.cross,
        codes, since, since_values, known, out, found,
    )  # fmt: skip
    if t < 0:
        return None
    technique, n, direct = run[t]
    ne, cell, digit, kind = found.tolist()
    if technique == "single":
        key, name = _basic_name(technique, n)
        return commit(state, SeStep(name, SE_VALUES[key], ((cell, digit + 1),)))
    return _basic_step(state, technique, n, direct, keep_marks, out[:ne], cell, digit, kind)


@dataclass(frozen=True)
class _Basic:
    """The finder of one of SE's basic techniques (``technique``, ``n`` and
    ``direct`` as :func:`_basic_step` takes them; ``("single", 1, False)``: the
    naked single): :func:`_basic_run` of it alone. The replay asks a run of them
    side by side in one call (:func:`_compile`)."""

    technique: str
    n: int
    direct: bool = False

    @property
    def key(self) -> tuple[str, int, bool]:
        """Its item of a :data:`_Run`."""
        return (self.technique, self.n, self.direct)

    @property
    def hints(self) -> tuple[str, ...]:
        """SE's names of its hints (pointing and claiming for locking)."""
        kinds = (0, 1) if self.technique == "locking" else (0,)
        prefix = "Direct " if self.direct else ""
        return tuple(prefix + _basic_name(self.technique, self.n, k)[1] for k in kinds)

    def __call__(self, state: CandidateState, keep_marks: bool = False) -> SeStep | None:
        return _basic_run(state, (self.key,), keep_marks)


def _basic(name: str, order: int, technique: str, n: int, direct: bool = False) -> SeTechnique:
    """SE's basic technique ``name`` (:class:`_Basic`), with the names of its hints."""
    find = _Basic(technique, n, direct)
    return SeTechnique(name, order, find, hints=find.hints)


# --------------------------------------------------------------------------- named patterns


def _removals(cells: NDArray[np.int32], digit: int) -> tuple[Pair, ...]:
    return tuple((int(c), digit) for c in cells.tolist())


#: The most links of a strong-linked fish that SE looks for.
_SL_MOST = 6

#: The last strong-link search: ``(geometry, pencil marks, first n, best per n, their cells)``.
_sl_last: list[tuple[Geometry, bytes, int, NDArray[np.int32], NDArray[np.int32]]] = []


def _strong_links(state: CandidateState, n: int) -> SeStep | None:
    """SE's strong-linked fishes of ``n`` links (Skyscraper, 2-String Kite, Turbot Fish, ...).

    One compiled search finds the best fish of every length from ``n`` to
    :data:`_SL_MOST` (its links and their joins are the same for all); SE asks
    for the longer ones, at the same pencil marks, when the techniques between
    them find nothing, so the search is kept for those until the marks change.
    Each digit's own fishes are kept too (per thread), and searched again only
    when its candidates change.
    """
    from csp_sudoku._kernels.se_patterns import fish_memo, strong_links

    g = state.geometry
    alive = _alive8(state)
    marks = alive.tobytes()
    last = _sl_last[0] if _sl_last else None
    if last is not None and last[0] == g and last[1] == marks and last[2] <= n <= _SL_MOST:
        best, cells = last[3], last[4]
    else:
        lay = _layout(g)
        top = max(n, _SL_MOST)
        best = np.zeros((top + 1, 3), dtype=np.int32)
        cells = np.empty((top + 1, g.ncells), dtype=np.int32)
        memos: dict[tuple[Geometry, int, int], tuple[NDArray[Any], ...]] = (
            _NO_HINT.__dict__.setdefault("fishes", {})
        )
        memo = memos.get((g, n, top))
        if memo is None:
            memo = memos[(g, n, top)] = fish_memo(g.ncells, g.size, top)
        # a fish removes its digit by that digit's links alone, so only a
        # candidate that no template of its digit holds (_template_verdicts)
        if (_template_verdicts(state, alive)[0] & (alive != 0)).any():
            strong_links(
                alive, g.size, n, top, lay.units, lay.ukind, lay.cell_line, lay.see_bits,
                memo, cells, best,
            )  # fmt: skip
        _sl_last[:] = [(g, marks, n, best, cells)]
    tenths, ne, d = best[n].tolist()
    if ne == 0:
        return None
    out = cells[n]
    name = "Turbot Fish" if n == 2 else f"{n} Strong Links"
    return commit(state, SeStep(name, tenths / 10, (), _removals(out[:ne], int(d) + 1)))


_WING_NAMES = {2: "XY-Wing", 3: "WXYZ-Wing", 4: "VWXYZ-Wing", 5: "UVWXYZ-Wing", 6: "TUVWXYZ-Wing"}


def _wing(state: CandidateState, k: int) -> SeStep | None:
    """SE's wings: an almost locked set of ``k`` cells and a bivalue cell."""
    from csp_sudoku._kernels.se_patterns import als_wings

    g = state.geometry
    lay = _layout(g)
    cells = np.empty(g.ncells, dtype=np.int32)
    bits = np.empty(g.ncells, dtype=np.int64)
    kept: dict[tuple[Geometry, int], tuple[NDArray[Any], NDArray[Any]]] = (
        _NO_HINT.__dict__.setdefault("wings", {})
    )
    since, since_values = kept.get((g, k), (state.masks[:0], state.values[:0]))
    tenths, _total, ncell = als_wings(
        state.masks, state.values, k, lay.see_bits, since, since_values, cells, bits
    )
    if ncell == 0:
        kept[(g, k)] = (state.masks.copy(), state.values.copy())
        return None
    # the marks where it last found nothing stay: a wing of later marks with
    # no cell changed since was there, removing as much or more
    removed = tuple(
        (int(c), d + 1)
        for c, m in zip(cells[:ncell].tolist(), bits[:ncell].tolist(), strict=True)
        for d in range(state.geometry.size)
        if m >> d & 1
    )
    name = "XYZ-Wing" if tenths == 44 else _WING_NAMES[k]
    return commit(state, SeStep(name, tenths / 10, (), removed))


def _unique_rectangle(state: CandidateState) -> SeStep | None:
    """SE's unique rectangles of types 1 to 4 (4.5-4.8; the rectangle's
    extra digits as one cell of a hidden pair or naked set for type 3).

    On a grid with more units (X-Sudoku, Windoku) a rectangle is a deadly
    pattern only when no such unit holds exactly one of its corners: else
    swapping the two digits may break that unit, and the rectangle may be the
    solution itself (the kernel skips those rectangles)."""
    from csp_sudoku._kernels.se_patterns import unique_rectangles

    lay = _layout(state.geometry)
    out = np.empty((state.geometry.ncells * state.geometry.size, 2), dtype=np.int32)
    n, tenths = unique_rectangles(
        state.masks, state.values, lay.cell_line, lay.units, lay.ukind, lay.cell_extra, out
    )
    if n == 0:
        return None
    removed = tuple((int(c), int(d) + 1) for c, d in out[:n].tolist())
    return commit(state, SeStep("Unique Rectangle", int(tenths) / 10, (), removed))


def _bug(state: CandidateState) -> SeStep | None:
    """SE's bivalue universal grave, type 1 (5.6): every empty cell but one is
    bivalue and the one has three candidates; its digit seen three times in a
    unit of it must go there (else the grid would have two solutions)."""
    g = state.geometry
    m = state.masks
    rest = m & (m - 1)  # the mask less its lowest digit: one digit left for two
    odd = np.flatnonzero((state.values == 0) & ((rest == 0) | (rest & (rest - 1) != 0)))
    if odd.size != 1 or int(m[odd[0]]).bit_count() != 3:
        return None
    cell = int(odd[0])
    bits = state.digit_bits()
    for u in range(g.nunits):
        cells = g.units[u]
        if cell not in cells:
            continue
        for d in state.candidates(cell):
            if int(bits[cells, d - 1].sum()) == 3:
                return commit(state, SeStep("BUG type 1", 5.6, ((cell, d),)))
    return None


# --------------------------------------------------------------------------- chains


def _tenths(value: float) -> int:
    return round(value * 10)


def _conclusion(size: int, k: int, on: bool) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
    """A chain's conclusion on candidate ``k``: ``(placements, removals)``, placing
    it (ON) or removing it (OFF)."""
    pair = ((k // size, k % size + 1),)
    return (pair, ()) if on else ((), pair)


def _static_chains(state: CandidateState) -> SeStep | None:
    """SE's static family (6.5-7.x): bidirectional X-, Y- and XY-cycles, forcing
    X-chains and forcing chains; the easiest hint, then the least complex, as
    SE sorts them (X before Y before XY among equals)."""
    from csp_sudoku._kernels.se_chains import (
        NO_BOUND,
        components,
        continuous_loops,
        forcing_chain,
        forcing_chains,
        length_tenths,
        loop_work_arrays,
        static_tables,
    )

    g, lay, t, alive = _chain_inputs(state)
    ncand = alive.size
    n = g.size
    kept: dict[Geometry, NDArray[np.int8]] = _NO_HINT.__dict__.setdefault("static", {})
    # the last marks where the family found nothing; they stay after a hint:
    # a chain or loop of later marks with no link that those marks lack was
    # there too, and acted there, unless it acts nowhere (_new_strong_link)
    since = _kept_since(kept, g, alive)
    if since is not None and not _new_strong_link(alive, since, t.column_candidates):
        kept[g] = alive.copy()  # none here either: the closer marks to compare with next
        return None
    weak_x, weak_xy, strong_x, strong_xy, strong_y = static_tables(
        alive, t.column_candidates, lay.corder, lay.ncellcols
    )
    # each group's bounds on its chains, kept with the marks they were found on
    records: dict[tuple[Geometry, int], tuple[NDArray[np.int8], NDArray[np.int64]]] = (
        _NO_HINT.__dict__.setdefault("static_bounds", {})
    )
    starts = np.empty((3, ncand), dtype=np.int8)
    scc = np.empty(2 * ncand, dtype=np.int32)  # each group's components of its links
    # (tenths, complexity, SE's sort key, then position) -> the hint
    best: tuple[tuple[int, ...], SeStep] | None = None

    def offer(key: tuple[int, ...], step: SeStep) -> None:
        nonlocal best
        if best is None or key < best[0]:
            best = (key, step)

    def bound_at(base: int) -> int:
        """The complexity, in a family of ``base`` tenths, from which a chain or
        loop is worth more than the best hint so far, so cannot come first."""
        return int(NO_BOUND) if best is None else most_complexity(best[0][0] - base) + 1

    work, out = loop_work_arrays(ncand)
    res = np.empty(2, dtype=np.int64)
    for group, (xr, yr, family, key, name) in enumerate(
        (
            (True, False, "X- or Y-cycle", 2, "Bidirectional X-Cycle"),
            (False, True, "X- or Y-cycle", 3, "Bidirectional Y-Cycle"),
            (True, True, "forcing chain", 4, "Bidirectional Cycle"),
        )
    ):
        if best is not None and best[0][0] < _tenths(SE_CHAIN_BASE[family]):
            continue  # every hint of this group is worth more than the best one
        if not yr and not _one_digit_may_act(state, alive):
            continue  # X links only: no forcing X-chain, no X-loop removes anything
        weak = weak_xy if yr else weak_x
        strong = (strong_xy if xr else strong_y) if yr else strong_x
        lower = _chain_bounds(
            records.get((g, group)), alive, t.column_candidates, weak, strong, starts
        )
        records[(g, group)] = (alive.copy(), lower)
        components(weak, strong, scc)  # for the loops and the forcing chains alike
        chain_base = _tenths(SE_CHAIN_BASE["forcing chain" if yr else "forcing X-chain"])
        if xr and (best is None or best[0][0] >= chain_base):
            # first, so that the loops search under its value (loops are rare)
            elim = np.empty(ncand, dtype=np.int32)
            place = np.empty(ncand, dtype=np.int32)
            # one family's value grows with the complexity, so its easiest chain is
            # the least complex one, the first in candidate order (removal first);
            # none more complex than the best hint's value allows can come first
            forcing_chains(alive, weak, strong, bound_at(chain_base), lower, scc, elim, place)
            comps = np.stack((elim, place), axis=1).reshape(-1)  # index 2k + on
            found = np.flatnonzero(comps >= 0)
            if found.size:
                comp = int(comps[found].min())
                at = int(found[np.argmax(comps[found] == comp)])
                k, on = at // 2, bool(at % 2)
                tenths = chain_base + int(length_tenths(comp))
                if best is None or (tenths, comp, key, group, at) < best[0]:
                    lits = np.empty(comp, dtype=np.int32)
                    m = forcing_chain(alive, weak, strong, k, int(on), lits)
                    chain = tuple(
                        ((x % ncand) // n, x % n + 1, x < ncand) for x in lits[:m].tolist()
                    )
                    placed, removed = _conclusion(n, k, on)
                    kind = "Forcing Chain" if yr else "Forcing X-Chain"
                    step = SeStep(kind, tenths / 10, placed, removed, comp, chain=chain)
                    offer((tenths, comp, key, group, at), step)
        cycle_base = _tenths(SE_CHAIN_BASE[family])
        # a loop worth more than the best hint so far cannot come first
        reach = bound_at(cycle_base)
        continuous_loops(alive, weak, strong, xr, lay.see, n, lower[2], scc, reach, work, out, res)
        if res[0] >= 0:
            comp, ne = int(res[0]), int(res[1])
            removed = tuple((q // n, q % n + 1) for q in out[3][:ne].tolist())
            loop = out[0]
            tenths = cycle_base + int(length_tenths(comp))
            ring = [((x % ncand) // n, x % n + 1, x < ncand) for x in loop[:comp].tolist()]
            cycle = (*ring, ring[0])
            step = SeStep(name, tenths / 10, (), removed, comp, chain=cycle)
            offer((tenths, comp, key, group, -1), step)
    if best is None:
        kept[g] = alive.copy()
        return None
    return commit(state, best[1])


#: SE's names of the hints of :func:`_static_chains`, in SE's order of the catalogue.
_STATIC_HINTS = (
    "Bidirectional X-Cycle",
    "Bidirectional Y-Cycle",
    "Forcing X-Chain",
    "Bidirectional Cycle",
    "Forcing Chain",
)


def _chain_bounds(
    record: tuple[NDArray[np.int8], NDArray[np.int64]] | None,
    alive: NDArray[np.int8],
    cc: NDArray[np.int32],
    weak: tuple[NDArray[np.int32], NDArray[np.int32]],
    strong: tuple[NDArray[np.int32], NDArray[np.int32]],
    starts: NDArray[np.int8],
) -> NDArray[np.int64]:
    """Lower bounds on the complexity of one group's static chains on the marks
    ``alive`` (rows: removing each candidate, placing it, a loop through it;
    what :func:`~csp_sudoku._kernels.se_chains.forcing_chains` and
    :func:`~csp_sudoku._kernels.se_chains.continuous_loops` skip a chain by
    and update): zeros (search everything) unless ``record`` holds the
    bounds the group's last search left, on marks that ``alive`` is less
    some candidates.

    Why they hold: a chain of ``alive`` with no strong link that those marks
    lack is a chain of those marks (its weak links join live candidates of
    one column, live there too; its strong links are columns of two there
    too), of the same complexity, so it was searched there: it is as
    complex as that search found, or past the bound it searched under. A
    chain through a new link can only start where
    :func:`~csp_sudoku._kernels.se_chains.through_new_links` says (``starts``
    receives it), and those start from zero. After a hint the other chains
    of the step before are all still bounded, so the next search looks
    only at those that could still come first. (A loop search from a start
    is breadth first with each true literal met once: like the "found
    nothing" shortcut, the bound of a start that met no loop rests on the
    same search meeting none without the new links.)"""
    from csp_sudoku._kernels.se_chains import through_new_links

    if record is None or not _within(alive, record[0]):
        return np.zeros((3, alive.size), dtype=np.int64)
    through_new_links(alive, record[0], cc, weak, strong, starts)
    return np.where(starts != 0, 0, record[1])


def _within(alive: NDArray[np.int8], since: NDArray[np.int8]) -> bool:
    """True when the marks ``alive`` are the marks ``since`` less some candidates
    (or none): the condition for resuming a search from marks where it found
    nothing."""
    return since.shape == alive.shape and not bool((alive > since).any())


def _kept_since(
    kept: dict[Geometry, NDArray[np.int8]], g: Geometry, alive: NDArray[np.int8]
) -> NDArray[np.int8] | None:
    """The marks kept in ``kept`` where a search last found nothing, when
    ``alive`` is those less some candidates (:func:`_within`); otherwise none,
    and they go (the search runs in full, and keeps its own marks)."""
    since = kept.get(g)
    if since is not None and not _within(alive, since):
        del kept[g]
        return None
    return since


def _new_strong_link(
    alive: NDArray[np.int8], since: NDArray[np.int8], cc: NDArray[np.int32]
) -> bool:
    """False when the marks ``alive`` are the marks ``since`` less some
    candidates and no column that lost one is left with two: then no static
    chain or loop acts on ``alive`` unless one acted on ``since``.

    Why: a static chain's weak links join live candidates of one column, and
    those were live in ``since`` too; its strong links are columns with two
    live candidates, which ``since`` had too unless the column lost one. So a
    chain of ``alive`` with no new strong link is a chain of ``since``, and a
    loop removes there what it removes here, or more. The replay calls it
    with the marks on which the static family last found nothing."""
    if not _within(alive, since):
        return True
    went = since > alive
    real = cc >= 0
    lost = (went[cc] & real).any(axis=1)
    left = (alive[cc[lost]] * real[lost]).sum(axis=1)
    return bool((left == 2).any())


def _premises(alive: NDArray[np.int8], with_off: bool) -> NDArray[np.int32]:
    live = np.flatnonzero(alive).astype(np.int32)
    if not with_off:
        return live
    ncand = alive.size
    out = np.empty(2 * live.size, dtype=np.int32)
    out[0::2] = live
    out[1::2] = live + ncand
    return out


_NET_ARRAYS = threading.local()


def _net_arrays(
    rows: int, nlit: int, words: int
) -> tuple[
    NDArray[np.int32],
    NDArray[np.int32],
    NDArray[np.int32],
    NDArray[np.int32],
    NDArray[np.int64],
    NDArray[np.int64],
]:
    """The output arrays of :func:`~csp_sudoku._kernels.se_chains.implication_nets`
    for ``rows`` nets over ``nlit`` literals (``words`` of nested-chain bits):
    ancestor counts, reach orders, literals reached, how many, nested bits,
    nested chains. The first four are kept from call to call in this thread
    (about 2.5 MB each for a 9x9 step of 432 nets): a fresh array, zeroed and
    paged in at every step, cost more than the nets themselves (measured:
    2.9 ms a step of 432 dynamic nets, 1.4 ms kept). The kernel clears each
    row of counts and orders only where its last net reached, a precondition
    that fresh zeros and its own output meet; the nested bits (level 2 and
    up only) are made afresh."""
    cache: dict[tuple[int, int], tuple[NDArray[Any], ...]] = _NET_ARRAYS.__dict__.setdefault(
        "arrays", {}
    )
    nets = cache.get((nlit, -1))
    if nets is None or nets[0].shape[0] < rows:
        # the counts, orders, reached lists and their lengths are made together
        nets = (
            np.zeros((rows, nlit), dtype=np.int32),
            np.zeros((rows, nlit), dtype=np.int32),
            np.zeros((rows, nlit), dtype=np.int32),
            np.zeros(rows, dtype=np.int32),
        )
        cache[(nlit, -1)] = nets
    nested = rows if words else 0
    # the nested chains' arrays (level 2 and up only, tens of MB) are not kept:
    # rare steps, whose nets cost far more than the arrays
    chains = (
        np.zeros((nested, nlit, words), dtype=np.int64),
        np.zeros((nested, 2, 64 * words), dtype=np.int64),
    )
    return (
        nets[0][:rows],
        nets[1][:rows],
        nets[2][:rows],
        nets[3][:rows],
        chains[0][:nested],
        chains[1][:nested],
    )


#: Parts per spare core of a step's nets with the techniques inside, and the
#: fewest premises split (:func:`_propagate`): nets differ in cost, so a core
#: that finishes early takes another part.
_NET_PARTS = 4
_NET_PARTS_FROM = 16
#: Not empty once this process has built nets with the techniques inside (their
#: kernel compiled or loaded): from then on they may be split.
_PLUS_LOADED: list[bool] = []


#: Called, each once, before this process first builds nets with the basic techniques
#: inside (:func:`_propagate` with ``plus``): a nested helper's waiting
#: (:mod:`csp_sudoku.metrics._helper`), so that the kernel the helper is compiling is
#: loaded from numba's cache, not compiled here a second time.
BEFORE_FIRST_PLUS: list[Callable[[], None]] = []


def _propagate(
    state: CandidateState,
    premises: NDArray[np.int32],
    dynamic: bool,
    yrule: bool,
    plus: bool = False,
    level: int = 1,
    counts: bool = True,
) -> tuple[
    NDArray[np.int32],
    NDArray[np.int32],
    tuple[NDArray[np.int64], NDArray[np.int64]],
    NDArray[np.int32],
    NDArray[np.int32],
    NDArray[np.int32],
]:
    """The implication nets of ``premises`` (:func:`~csp_sudoku._kernels.se_chains.implication_nets`):
    ancestor counts, contradictions, the nets' nested chains (empty below
    level 2), the order each net reached its literals, and the literals each
    reached with how many; ``plus``: with the basic techniques inside (SE's
    dynamic forcing chains (+)), and at nesting ``level`` 2 and 3 the static
    chains too. ``counts`` False: the contradictions only (the other arrays
    come back with no rows). The arrays are this thread's
    (:func:`_net_arrays`): read them before the next call."""
    from csp_sudoku._kernels.se_chains import (
        NESTED_WORDS,
        chain_work_arrays,
        implication_nets,
    )

    g, lay, t, alive = _chain_inputs(state)
    absurd = np.empty(premises.size, dtype=np.int32)
    words = NESTED_WORDS if plus and level >= 2 else 0
    nets = _net_arrays(premises.size if counts else 0, 2 * alive.size, words)
    nested = nets[4:]
    if not plus:
        implication_nets(
            alive, t.column_candidates, lay.corder, lay.ncellcols, premises, dynamic, yrule,
            nets[:4], absurd, None,
        )  # fmt: skip
        return nets[0], absurd, nested, nets[1], nets[2], nets[3]
    from csp_sudoku._kernels.se_offshoots import PLUS_TECHNIQUES, work_arrays

    while BEFORE_FIRST_PLUS:
        BEFORE_FIRST_PLUS.pop(0)()
    vals = state.values.astype(np.int64)

    def part(a: int, b: int) -> None:
        # the nets of premises[a:b] into rows a:b, with work arrays of their own:
        # each net is independent of the others, so the parts may run at once
        extra = (
            vals, lay.units, lay.ukind, lay.member, lay.cross, PLUS_TECHNIQUES,
            work_arrays(g.ncells, g.size), level,
            chain_work_arrays(alive.size, lay.see, level),
            tuple(x[a:b] for x in nested),
        )  # fmt: skip
        implication_nets(
            alive, t.column_candidates, lay.corder, lay.ncellcols, premises[a:b], dynamic, yrule,
            tuple(x[a:b] for x in nets[:4]) if counts else nets[:4], absurd[a:b], extra,
        )  # fmt: skip

    # nets with the techniques inside cost milliseconds each: on the spare cores
    # (a worker of a pool has one), in parts taken in turn as threads finish; the
    # first call of a process alone, which compiles or loads the kernel (so that no
    # thread needs numba's compiler lock)
    split = _PLUS_LOADED and premises.size >= _NET_PARTS_FROM
    parts = _NET_PARTS * spare_cores() if split else 1
    bounds = np.linspace(0, premises.size, min(parts, premises.size) + 1).astype(int)
    on_spare_cores([partial(part, int(a), int(b)) for a, b in pairwise(bounds)])
    if not _PLUS_LOADED:
        _PLUS_LOADED.append(True)
    return nets[0], absurd, nested, nets[1], nets[2], nets[3]


def compile_nested_nets(puzzle: Puzzle) -> None:
    """Have numba compile, and cache, the nets of SE's dynamic forcing chains with
    the basic techniques and the nested chains inside them (:func:`_propagate`
    with ``plus``), with the argument types :func:`_multiple` gives them: the
    nets of two candidates of ``puzzle`` (any puzzle of the geometry will do).

    The se rating's largest kernel, about half of what a first rating compiles
    (48 s of a hard puzzle's 96 s of compiling, measured on one core). A first rating runs this
    in a helper process while it compiles the rest itself
    (:mod:`csp_sudoku.metrics._helper`).
    """
    state = CandidateState.from_puzzle(puzzle)
    premises = _premises(_alive8(state), True)[:2]
    _propagate(state, premises, True, True, plus=True, level=1)


def _nishio(state: CandidateState) -> SeStep | None:
    """SE's Nishio forcing chains (7.5): dynamic chains on one digit that contradict."""
    from csp_sudoku._kernels.se_chains import length_tenths

    g = state.geometry
    alive = _alive8(state)
    prem = _premises(alive, True)
    kept: dict[Geometry, NDArray[np.int8]] = _NO_HINT.__dict__.setdefault("nishio", {})
    since = _kept_since(kept, g, alive)
    if since is not None:
        # a Nishio net reads the candidates of its own digit only (no cell
        # links): a digit that lost none since the marks where every net
        # found nothing finds nothing again (they stay after a hint: such a
        # digit's nets are the same as there)
        lost: NDArray[np.bool_] = np.any((since > alive).reshape(-1, g.size), axis=0)
        prem = prem[lost[prem % g.size]]
    prem = prem[_may_contradict(state, alive, prem)]
    absurd = _propagate(state, prem, True, False, counts=False)[1] if prem.size else prem
    hits = np.flatnonzero(absurd >= 0)
    if hits.size == 0:
        kept[g] = alive.copy()
        return None
    i = int(hits[np.argmin(absurd[hits])])
    comp = int(absurd[i])
    lit = int(prem[i])
    ncand = alive.size
    placed, removed = _conclusion(state.geometry.size, lit % ncand, lit >= ncand)
    tenths = _tenths(SE_CHAIN_BASE["Nishio"]) + int(length_tenths(comp))
    n = state.geometry.size
    premise = ((lit % ncand) // n, lit % n + 1, lit < ncand)
    step = SeStep("Nishio Forcing Chains", tenths / 10, placed, removed, comp, branches=(premise,))
    return commit(state, step)


#: The most partial templates of one digit :func:`_templates` lists before
#: it gives the digit up (then nothing of it is ruled out; a 9x9 digit on a
#: hard step's marks has tens to a few hundred templates).
_TEMPLATE_BUDGET = 20_000


def _templates(
    state: CandidateState, alive: NDArray[np.int8]
) -> tuple[NDArray[np.int64], NDArray[np.int32]]:
    """Each digit's template count (-1: too many to list) and how many of its
    templates hold each cell, on the marks ``alive``
    (:func:`~csp_sudoku._kernels.se_chains.digit_template_table`; kept per
    digit in this thread, so only the digits whose places changed are
    listed again). Read them before the next call."""
    from csp_sudoku._kernels.se_chains import digit_template_table, template_memo

    g = state.geometry
    lay = _layout(g)
    memos: dict[Geometry, tuple[NDArray[Any], ...]] = _NO_HINT.__dict__.setdefault("templates", {})
    memo = memos.get(g)
    if memo is None:
        memo = memos[g] = template_memo(g.ncells, g.size)
    if lay.rows.size == 0:  # no rows to build templates on: every count unknown
        memo[1][:] = -1
        return memo[1], memo[2]
    digit_template_table(
        alive, state.values, g.size, lay.units, lay.rows, lay.corder, lay.ncellcols,
        _TEMPLATE_BUDGET, memo,
    )  # fmt: skip
    return memo[1], memo[2]


#: The last marks :func:`_template_verdicts` read, with its answer.
_verdicts_last: list[tuple[Geometry, bytes, NDArray[np.bool_], NDArray[np.bool_]]] = []


def _template_verdicts(
    state: CandidateState, alive: NDArray[np.int8]
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Per candidate: whether no template of its digit holds it (``none``: only
    then can a one-digit chain remove it) and whether every one does
    (``every``: only then can one place it). Why: a chain that reasons on
    one digit (Nishio's nets, the forcing X-chains and X-loops, the
    strong-linked fishes) makes only
    inferences that hold in every template of the digit
    (:func:`~csp_sudoku._kernels.se_chains.digit_templates`). A digit with
    too many templates to list counts as both, so nothing is ruled out."""
    g = state.geometry
    key = alive.tobytes() + state.values.tobytes()
    last = _verdicts_last[0] if _verdicts_last else None
    if last is not None and last[0] == g and last[1] == key:
        return last[2], last[3]  # the same marks: the static family, Nishio, the fishes
    counts, hits = _templates(state, alive)
    held = hits.T.reshape(-1)  # candidate cell * n + digit
    count = np.tile(counts, g.ncells)
    unknown = count <= 0
    none, every = unknown | (held == 0), unknown | (held == count)
    _verdicts_last[:] = [(g, key, none, every)]
    return none, every


def _one_digit_may_act(state: CandidateState, alive: NDArray[np.int8]) -> bool:
    """False when no chain of one digit can remove or place anything on the
    marks ``alive``: every live candidate lies in some templates of its
    digit but not in all (:func:`_template_verdicts`). Then the static
    family's forcing X-chains and X-loops, which reason on one digit, find
    nothing."""
    none, every = _template_verdicts(state, alive)
    return bool(((none | every) & (alive != 0)).any())


def _may_contradict(
    state: CandidateState, alive: NDArray[np.int8], prem: NDArray[np.int32]
) -> NDArray[np.bool_]:
    """Which of Nishio's premises ``prem`` (literals: ``k`` for "k true",
    ``ncand + k`` for "k false") can meet a contradiction: "k true" where no
    template of k's digit holds k, "k false" where every one does
    (:func:`_template_verdicts`); the others' nets would find nothing, and
    are not built."""
    none, every = _template_verdicts(state, alive)
    k = prem % alive.size
    return np.where(prem < alive.size, none[k], every[k])


#: The kinds of csp_sudoku._kernels.se_chains.best_net_conclusion (DOUBLE, CELL, REGION,
#: CONTRADICTION; not imported here, so that numba loads only when a chain is searched).
_MULTIPLE_NAMES = {
    1: "Double Forcing Chains",
    5: "Cell Forcing Chains",
    6: "Region Forcing Chains",
    7: "Contradiction Forcing Chains",
}


#: SE's names of the nesting levels of its dynamic chains: the techniques used
#: inside the nets, and the family of the base value (costs.SE_CHAIN_BASE).
NESTING = {
    1: (" (+)", "dynamic (+)"),
    2: (" (+ Forcing Chains)", "nested"),
    3: (" (+ Multiple Forcing Chains)", "nested (multiple)"),
}


def _multiple(
    state: CandidateState, dynamic: bool, plus: bool = False, level: int = 1
) -> SeStep | None:
    """SE's cell and region forcing chains (8.0 static, 8.5 dynamic, with the
    dynamic contradiction and double forcing chains; ``plus``: 9.0, their nets
    with the basic techniques inside, SE's "(+)"; ``level`` 2, base 9.5: and
    with the static forcing chains inside when those find nothing, SE's
    "(+ Forcing Chains)"; ``level`` 3, base 10.0: and the static cell and
    region forcing chains after them, SE's "(+ Multiple Forcing Chains)"):
    the easiest hint of the family
    (:func:`csp_sudoku._kernels.se_chains.best_net_conclusion`), applied."""
    from csp_sudoku._kernels.se_chains import best_net_conclusion

    g, lay, t, alive = _chain_inputs(state)
    ncand = alive.size
    prem = _premises(alive, dynamic)
    anc, absurd, nested, order, reached, nreached = _propagate(
        state, prem, dynamic, True, plus, level
    )
    step = 2 if dynamic else 1
    row_on = np.full(ncand, -1, dtype=np.int64)
    row_off = np.full(ncand, -1, dtype=np.int64)
    row_on[prem[::step]] = np.arange(0, prem.size, step)
    if dynamic:
        row_off[prem[1::2] - ncand] = np.arange(1, prem.size, 2)
    family = NESTING[level][1] if plus else "dynamic" if dynamic else "multiple"
    base = _tenths(SE_CHAIN_BASE[family])
    best = np.empty(7, dtype=np.int64)
    best_net_conclusion(
        alive, t.column_candidates, lay.col_seq, lay.ncellcols, prem, anc, absurd,
        row_on, row_off, dynamic, base, best, nested, order, reached, nreached,
    )  # fmt: skip
    if best[0] < 0:
        return None
    tenths, comp, key, _pos, target = (int(v) for v in best[:5])
    placed, removed = _conclusion(g.size, target % ncand, target < ncand)
    lits = _branch_premises(alive, t.column_candidates, best)
    n = g.size
    branches = tuple(((x % ncand) // n, x % n + 1, x < ncand) for x in lits)
    hint = SeStep(
        _multiple_name(key, dynamic, plus, level),
        tenths / 10,
        placed,
        removed,
        comp,
        branches=branches,
    )
    return commit(state, hint)


def _multiple_name(key: int, dynamic: bool, plus: bool, level: int) -> str:
    """SE's name of a :func:`_multiple` hint of ``key`` (:data:`_MULTIPLE_NAMES`):
    ``Dynamic`` before it for dynamic chains, the nesting level after it for
    chains with techniques inside (:data:`NESTING`)."""
    prefix = "Dynamic " if dynamic else ""
    return prefix + _MULTIPLE_NAMES[key] + (NESTING[level][0] if plus else "")


def _branch_premises(
    alive: NDArray[np.int8], cc: NDArray[np.int32], best: NDArray[np.int64]
) -> list[int]:
    """The premise literals (``k`` ON, ``k + ncand`` OFF) of the branches of the
    hint :func:`~csp_sudoku._kernels.se_chains.best_net_conclusion` chose, read back
    from its ``best`` (value, ancestors, key, position, target, column): a
    contradiction's premise, a double chain's two, or the live candidates of
    the cell or region."""
    _, _comp, key, pos, _target, col = (int(v) for v in best[:6])
    ncand = alive.size
    k0 = pos // 2
    if key == 7:  # one premise that contradicts
        return [k0 + (ncand if pos % 2 else 0)]
    if key == 1:  # the ON and OFF premise of one candidate
        return [k0, k0 + ncand]
    return [int(k) for k in cc[col].tolist() if k >= 0 and alive[k]]


def _refutation(state: CandidateState, rating: FallbackRating) -> SeStep | None:
    """Beyond SE's chains nested at level 3: the human model's graded refutation
    standing in for SE's deeper nesting (dynamic forcing chains inside the
    nets). Nothing of level 3 or below applies here, so SE itself would go
    deeper: the step counts as nested (level 2 of the human model at least),
    its value is an estimate, and it is worth at least SE's level-4 base
    (10.5)."""
    from csp_sudoku.human.chains import find_chain_move

    move = find_chain_move(state)
    if move is None:
        return None
    level = max(2, move.level)
    value = max(rating(level, move.form, move.length), SE_CHAIN_BASE["nested (dynamic)"])
    step = SeStep(
        "Nested Forcing Chains",
        value,
        move.placements,
        move.eliminations,
        move.length,
        level,
        move.form,
        chains=move.chains,
    )
    return commit(state, step)


# --------------------------------------------------------------------------- SE's order


#: Whether each rater's direct hints keep the pencil marks they show
#: (:attr:`SeStep.shown`): SukakuExplainer's do, Sudoku Explainer 1.2.1's remove
#: them (measured: each choice reproduces its own rater's calibration ratings,
#: docs/validation.md).
_KEEPS_MARKS: dict[str, bool] = {"sukaku": True, "classic": False}

#: SE's techniques by name (:func:`register`).
_TECHNIQUES: dict[str, SeTechnique] = {}

#: Each rater's finders in SE's order, as the replay asks them: the registered
#: techniques of the rater, sorted by order, each run of basic techniques side by
#: side fused into one compiled call (:func:`_compile`; made again at each
#: :func:`register` and :func:`unregister`).
_ORDER: dict[str, tuple[Finder, ...]] = {}


def register(technique: SeTechnique) -> SeTechnique:
    """Add ``technique`` to SE's order: the replay asks for it, after every
    technique of a smaller order, from now on (in this process). Returns it.

    Raises:
        ArgumentError: its name or its order taken, a rater the replay does not
            know, or an order before the hidden single's: SE asks for hidden
            singles first, and the replay places each run of them in one
            compiled call before it asks the others (:func:`se_solve`).
    """
    unknown = set(technique.raters) - set(PROFILES)
    if unknown:
        raise ArgumentError(
            f"unknown rater(s) {sorted(unknown)}; choose from {', '.join(PROFILES)}"
        )
    if technique.name in _TECHNIQUES:
        raise ArgumentError(f"an SE technique is already called {technique.name!r}")
    taken = next((t for t in _TECHNIQUES.values() if t.order == technique.order), None)
    if taken is not None:
        raise ArgumentError(f"order {technique.order} is {taken.name!r}'s; pick a free one")
    first = _TECHNIQUES.get("Hidden Single")
    if first is not None and technique.order <= first.order:
        raise ArgumentError(
            f"order {technique.order}: SE asks for hidden singles first ({first.order})"
        )
    _TECHNIQUES[technique.name] = technique
    _compile()
    return technique


def unregister(name: str) -> SeTechnique:
    """Take the technique called ``name`` out of SE's order; returns it (to register again).

    Raises:
        ArgumentError: no technique has that name (the message lists them), or
            it is the hidden single, which the replay places itself.
    """
    found = technique(name)
    if found.name == "Hidden Single":
        raise ArgumentError("the replay places hidden singles itself; they stay first")
    del _TECHNIQUES[found.name]
    _compile()
    return found


def technique(name: str) -> SeTechnique:
    """The registered technique called ``name`` (SE's name, as registered).

    Raises:
        ArgumentError: no technique has that name; the message lists them.
    """
    found = _TECHNIQUES.get(name)
    if found is None:
        names = ", ".join(t.name for t in techniques())
        raise ArgumentError(f"no SE technique is called {name!r}; choose from {names}")
    return found


def techniques(rater: str | None = None) -> tuple[SeTechnique, ...]:
    """The registered techniques in SE's order (those whose order ``rater`` replays,
    when given)."""
    ordered = sorted(_TECHNIQUES.values(), key=lambda t: t.order)
    return tuple(t for t in ordered if rater is None or rater in t.raters)


def _compile() -> None:
    """Make :data:`_ORDER` from the registry: each rater's finders in SE's order,
    a run of basic techniques side by side (:class:`_Basic`) fused into one
    :func:`_basic_run` (the same hint as asking each in turn, less the Python
    around each call), with the rater's :data:`_KEEPS_MARKS`."""
    for rater in PROFILES:
        finders: list[Finder] = []
        run: list[tuple[str, int, bool]] = []
        for t in techniques(rater):
            if isinstance(t.find, _Basic):
                run.append(t.find.key)
                continue
            if run:
                finders.append(partial(_basic_run, run=tuple(run), keep_marks=_KEEPS_MARKS[rater]))
                run = []
            finders.append(t.find)
        if run:
            finders.append(partial(_basic_run, run=tuple(run), keep_marks=_KEEPS_MARKS[rater]))
        _ORDER[rater] = tuple(finders)


def _chains(
    name: str, order: int, dynamic: bool, plus: bool = False, level: int = 1
) -> SeTechnique:
    """SE's cell, region, double and contradiction forcing chains of one kind
    (:func:`_multiple`), with the names of their hints."""
    hints = tuple(_multiple_name(key, dynamic, plus, level) for key in _MULTIPLE_NAMES)
    find = partial(_multiple, dynamic=dynamic, plus=plus, level=level)
    return SeTechnique(name, order, find, hints=hints)


_SUKAKU = ("sukaku",)

# SE's techniques, one line each, in SE's order (SukakuExplainer's; Sudoku
# Explainer 1.2.1's lacks those marked _SUKAKU): its name, its place, its finder.
register(SeTechnique("Hidden Single", 10, _hidden_single))
register(_basic("Direct Pointing", 20, "locking", 1, direct=True))
register(_basic("Direct Hidden Pair", 30, "hidden", 2, direct=True))
register(_basic("Naked Single", 40, "single", 1))
register(_basic("Direct Hidden Triple", 50, "hidden", 3, direct=True))
register(_basic("Pointing & Claiming", 60, "locking", 1))
register(_basic("Naked Pair", 70, "naked", 2))
register(_basic("X-Wing", 80, "fish", 2))
register(_basic("Hidden Pair", 90, "hidden", 2))
register(_basic("Naked Triple", 100, "naked", 3))
register(_basic("Swordfish", 110, "fish", 3))
register(_basic("Hidden Triple", 120, "hidden", 3))
register(SeTechnique("Turbot Fish", 130, partial(_strong_links, n=2), _SUKAKU))
register(SeTechnique("XY-Wing", 140, partial(_wing, k=2), hints=("XY-Wing", "XYZ-Wing")))
register(SeTechnique("Unique Rectangle", 150, _unique_rectangle))
register(_basic("Naked Quad", 160, "naked", 4))
register(_basic("Jellyfish", 170, "fish", 4))
register(_basic("Hidden Quad", 180, "hidden", 4))
register(SeTechnique("3 Strong Links", 190, partial(_strong_links, n=3), _SUKAKU))
register(SeTechnique("WXYZ-Wing", 200, partial(_wing, k=3), _SUKAKU))
register(SeTechnique("BUG type 1", 210, _bug))
register(SeTechnique("4 Strong Links", 220, partial(_strong_links, n=4), _SUKAKU))
register(SeTechnique("VWXYZ-Wing", 230, partial(_wing, k=4), _SUKAKU))
register(SeTechnique("5 Strong Links", 240, partial(_strong_links, n=5), _SUKAKU))
register(SeTechnique("UVWXYZ-Wing", 250, partial(_wing, k=5), _SUKAKU))
register(SeTechnique("6 Strong Links", 260, partial(_strong_links, n=6), _SUKAKU))
register(SeTechnique("Forcing Chains & Cycles", 270, _static_chains, hints=_STATIC_HINTS))
register(SeTechnique("TUVWXYZ-Wing", 280, partial(_wing, k=6), _SUKAKU))
register(SeTechnique("Nishio Forcing Chains", 290, _nishio))
register(_chains("Multiple Forcing Chains", 300, dynamic=False))
register(_chains("Dynamic Forcing Chains", 310, dynamic=True))
register(_chains("Dynamic Forcing Chains (+)", 320, dynamic=True, plus=True))
register(_chains("Dynamic Forcing Chains (+ Forcing Chains)", 330, True, True, level=2))
register(_chains("Dynamic Forcing Chains (+ Multiple Forcing Chains)", 340, True, True, level=3))


def _next_step(
    state: CandidateState, rating: FallbackRating, profile: str, *, first: int = 0
) -> SeStep | None:
    """The next hint in SE's order, from the ``first``-th finder on (1: past the hidden
    single, when the caller knows there is none); where none of SE's techniques
    has one, the human model's refutation (:func:`_refutation`)."""
    for find in _ORDER[profile][first:]:
        step = find(state)
        if step is not None:
            return step
    return _refutation(state, rating)


def se_next(
    state: CandidateState, rating: FallbackRating, *, profile: str = "sukaku"
) -> SeStep | None:
    """The next hint of SE's solving order from ``state`` (pencil marks), without
    solving further: for hints in apps, where the player's own marks decide what
    comes next. ``state`` is left unchanged (the hint is applied to a copy).

    Returns:
        The step, or None when the grid is solved, contradictory, or no
        technique applies.

    Raises:
        ArgumentError: for an unknown profile.
        ChainBudgetExceeded: when a level-2 search runs past its budget.
    """
    if profile not in PROFILES:
        raise ArgumentError(f"unknown profile {profile!r}; choose from {', '.join(PROFILES)}")
    work = state.copy()
    if work.is_solved() or work.is_contradiction():
        return None
    return _next_step(work, rating, profile)


def length_progress(complexity: int) -> float:
    """How far a chain of ``complexity`` has come from its length bonus's last
    ceiling towards the next, in ``[0, 1)`` (0 for no chain).

    SE's value of a chain is its base plus 0.1 per length ceiling passed
    (:func:`length_bonus`), so chains of one value differ in how close they are
    to the next tenth. The ceilings grow geometrically, so the progress is
    measured on the logarithm of the length (``complexity - 2``); below the
    first ceiling it is measured from a length of 1. A search that climbs SE's
    rating uses it to break ties (:func:`csp_sudoku.metrics.se.se_rating`'s
    ``fine_score``): a state whose hardest step needs a longer chain is closer
    to a harder puzzle.
    """
    from csp_sudoku._kernels.se_chains import LENGTH_CEILINGS, length_tenths

    length = int(complexity) - 2
    if length < 1:
        return 0.0
    passed = int(length_tenths(int(complexity)))
    if passed >= LENGTH_CEILINGS.size:
        return 0.0
    low = 1 if passed == 0 else int(LENGTH_CEILINGS[passed - 1])
    high = int(LENGTH_CEILINGS[passed])
    # a length equal to the next ceiling has not passed it: the progress stays below 1
    return min(math.log(length / low) / math.log(high / low), 0.999)


def most_complexity(bonus: int) -> int:
    """The largest chain complexity whose SE length bonus is at most ``bonus``
    tenths (-1 when ``bonus`` is negative; the int32 maximum when every length
    fits): the bonus counts the length ceilings that the chain's length,
    complexity - 2, exceeds (:func:`csp_sudoku._kernels.se_chains.length_tenths`)."""
    from csp_sudoku._kernels.se_chains import LENGTH_CEILINGS

    if bonus < 0:
        return -1
    if bonus >= LENGTH_CEILINGS.size:
        return int(np.iinfo(np.int32).max)
    return int(LENGTH_CEILINGS[bonus]) + 2


#: How many live candidates the quick test nets at a time before it removes
#: what they found (:func:`solved_within`). Sizes 8, 16, 32 and 64 were
#: measured on the 922 SE-rated calibration puzzles (limits 9.0 and 9.5) and
#: 440 neighbours of random minimal puzzles (limits 8.6 and 9.0): 0.9 to 2.4
#: times as fast as netting every candidate of a round at once; 32 was the
#: best overall and the only size that changed no verdict (then checked on
#: 440 more neighbours, docs/generators.md).
QUICK_CHUNK = 32


def solved_within(
    puzzle: Puzzle,
    limit: float,
    forcing: bool = False,
    solution: NDArray[np.integer[Any]] | None = None,
) -> bool:
    """A quick bound on SE's ER: True when ``puzzle`` is solved by singles and SE's
    dynamic contradiction chains worth at most ``limit`` each.

    It places every single (naked or hidden) until none is left, then builds
    the dynamic implication nets (SE's dynamic forcing chains, base 8.5) of
    the next :data:`QUICK_CHUNK` live candidates, each assumed placed, going
    round the grid in candidate order, and removes *every* candidate among
    them whose net contradicts worth at most ``limit`` (base plus
    :func:`length_bonus` of its complexity) at once; then singles again, and
    on from the next candidate. It stops, False, when a whole round of the
    live candidates found none (or the marks contradict), and answers False
    at once for a limit below 2.5 (SE's singles and direct hints are worth
    up to 2.5).

    Netting a few candidates at a time lets the easy puzzles (most of a
    search's candidates) end after a few of their contradictions instead of
    all of them. Candidates are not also assumed removed: where removing one
    contradicts, placing any other of its cell removes it and meets the same
    contradiction (singles only gain from more removals), so those are
    removed and the cell's single follows, one link longer. Against netting
    every candidate of a round at once, both placed and removed: the same
    verdicts on all of 1,802 puzzles, each at two limits, 1.5-2.6 times
    faster (docs/generators.md).

    Why it is a bound (not a proof): SE's path applies one hint at a time, the
    cheapest first, and SE's dynamic contradiction chains are among its hints,
    so where SE meets a state whose every hint is worth more than ``limit``
    (ER above ``limit``), this search, whose states have other marks, almost
    always gets stuck too: fewer marks only shorten the contradictions. Above
    a limit of 9.0 it answered as SE on every one of the 922 SE-rated
    calibration puzzles above it (78 of 78) and never called a puzzle above
    it solved among the generator's candidates (docs/generators.md); below the
    limit it is stuck on puzzles that needed SE's other families (static,
    Nishio, cell and region chains), which is what makes it a one-sided test:
    True means "rated at most ``limit``, almost surely", False means nothing.

    Its use: the generator's search at the hard end skips the full replay of a
    candidate this clears (about a quarter of the cost of the replays it
    saves); every output is still rated by the full replay.

    It first finds a solution (one solver call, none when the caller knows it:
    ``solution``, the cells of the puzzle's solution) and never nets the
    solution's own candidates, which cannot contradict (:func:`_settled`), and the whole
    loop runs in one compiled call
    (:func:`~csp_sudoku._kernels.se_chains.quick_settle`): the same verdicts,
    1.4-1.5 times as fast as the Python loop that netted every candidate
    (docs/generators.md, "The quick test").
    """
    if _below_singles(limit):
        return False  # below SE's singles and direct hints: singles prove nothing
    return _settled(CandidateState.from_puzzle(puzzle), limit, _true(puzzle, solution), forcing)


def _below_singles(limit: float) -> bool:
    """Whether ``limit`` is below SE's singles and direct hints, where the quick
    test can show nothing."""
    return _tenths(limit) < _tenths(max(SE_VALUES["naked single"], *SE_DIRECT.values()))


def _true(puzzle: Puzzle, solution: NDArray[np.integer[Any]] | None) -> NDArray[np.bool_] | None:
    """The candidates of ``puzzle``'s solution: of ``solution`` when given (its
    cells), else found by the solver (:func:`solution_mask`)."""
    return solution_mask(puzzle) if solution is None else grid_mask(solution, puzzle.geometry)


def bound_within(
    puzzle: Puzzle,
    low: float,
    top: float,
    solution: NDArray[np.integer[Any]] | None = None,
) -> float | None:
    """A tight bound on SE's ER from one run of the thorough quick test: the least
    limit, in tenths from ``low`` up to ``top``, that :func:`solved_within`'s
    search (with the dynamic forcing chains) needed, raising its limit only where
    nothing within it acts; None when it does not clear ``top``.

    Where the test at a fixed limit would be run tenth by tenth to find the
    least it clears, this raises the limit within one search, to the least
    chain its nets found each time it is stuck, so the search applies short
    chains first. Like the test, a bound, not a proof: the search's states have
    other marks than SE's path.
    """
    from csp_sudoku._kernels.se_chains import length_tenths

    if _below_singles(top):
        return None
    level = np.zeros(1, dtype=np.int64)
    state = CandidateState.from_puzzle(puzzle)
    if _tenths(top) >= _tenths(SE_CHAIN_BASE["dynamic"]):
        low = max(low, SE_CHAIN_BASE["dynamic"])  # below it the test admits no chain
    if not _settled(state, low, _true(puzzle, solution), True, cap=top, level=level):
        return None
    if level[0] < 2:
        return low
    return max(low, (_tenths(SE_CHAIN_BASE["dynamic"]) + int(length_tenths(int(level[0])))) / 10)


def _most_within(limit: float) -> int:
    """The largest dynamic chain complexity that ``limit`` admits."""
    return most_complexity(_tenths(limit) - _tenths(SE_CHAIN_BASE["dynamic"]))


def _settled(
    state: CandidateState,
    limit: float,
    solution: NDArray[np.bool_] | None = None,
    forcing: bool = False,
    walk: bool = True,
    cap: float | None = None,
    level: NDArray[np.int64] | None = None,
) -> bool:
    """:func:`solved_within`'s search from ``state`` (changed: pass a copy).

    ``solution``: a solution of the puzzle, if known, as the mask of its
    candidates (:func:`~csp_sudoku.human.state.solution_mask`). Where the marks still
    hold it, the net of a candidate it holds cannot contradict (every literal
    a net reaches follows from the marks and its premise, and the solution
    satisfies both), so only the other candidates of each chunk are netted:
    the same contradictions, the same verdict, and the nets that run longest
    (they end with no contradiction) are not built. A grid the marks do not
    hold is ignored; one they hold that is not a solution could only leave
    out contradictions, so the answer would err towards "cannot tell".
    ``walk`` False: the nets' contradictions by ancestor sets (the same
    verdicts; ``benchmarks/bench_quick_solution.py --versions walk``
    times both).
    """
    from csp_sudoku._kernels.se_chains import quick_settle

    g = state.geometry
    t = tables(g)
    lay = _layout(g)
    n = g.size
    most_complex = _most_within(limit)
    # the solution's candidates, where the marks hold it
    true = np.zeros(g.ncandidates, dtype=np.bool_)
    if solution is not None:
        cells, digits = np.divmod(np.flatnonzero(solution), n)
        if bool(np.all((state.masks[cells] >> digits) & 1)):  # a placed cell: its own bit
            true = solution
    out = _net_arrays(0, 2 * g.ncandidates, 0)[:4]
    rows = _net_arrays(g.ncandidates, 2 * g.ncandidates, 0)[:4] if forcing else out
    return bool(
        quick_settle(
            state.masks,
            state.values,
            t.peers,
            t.npeers,
            t.units,
            t.column_candidates,
            lay.corder,
            lay.ncellcols,
            true,
            most_complex,
            QUICK_CHUNK,
            out,
            rows,
            walk,
            most_complex if cap is None else max(most_complex, _most_within(cap)),
            np.zeros(1, dtype=np.int64) if level is None else level,
        )
    )


def se_solve(
    puzzle: Puzzle,
    rating: FallbackRating,
    *,
    profile: str = "sukaku",
    max_steps: int | None = None,
    stop_within: bool = False,
) -> SeRun:
    """Replay Sudoku Explainer's solving order on ``puzzle``.

    Args:
        puzzle: the puzzle (any geometry; SE's own values are for 9x9).
        rating: the ER of a graded-refutation chain beyond SE's dynamic
            forcing chains, from its level, form and length.
        profile: whose order: ``sukaku`` (SukakuExplainer's serate, with its
            strong-linked fishes and larger wings) or ``classic`` (Sudoku
            Explainer 1.2.1's serate).
        max_steps: stop after this many hints (None: until solved or stuck).
        stop_within: a search's replay: after each hint at least as hard as
            every one before it, stop with ``stopped`` = ``within`` when the
            quick test (:func:`solved_within`) shows the rest of the path
            worth less than that hint (a tenth less, and at least SE's dynamic
            chains, 8.5, where the test can answer). No later hint then ties
            the hardest, so the run's ER and the chain of its hardest hint are
            the full replay's, almost surely (the test is one-sided); only the
            easier hints after it are left out (docs/generators.md, "Replays
            that stop early").

    Returns:
        The :class:`SeRun`; when a level-2 search runs past its budget the run
        stops there with ``stopped`` = ``budget``, keeping the steps found.

    Raises:
        ArgumentError: for an unknown profile.
    """
    if profile not in PROFILES:
        raise ArgumentError(f"unknown profile {profile!r}; choose from {', '.join(PROFILES)}")
    from csp_sudoku._kernels.status import CONTRADICTION, STUCK

    state = CandidateState.from_puzzle(puzzle)
    run = SeRun()
    limit = max_steps if max_steps is not None else 4 * puzzle.geometry.ncandidates
    hardest = 0.0  # the hardest hint so far (``stop_within``)
    # the quick test's solution (one solver call, against a replay's milliseconds)
    solution = solution_mask(puzzle) if stop_within else None
    while True:
        # the hidden singles first; the run says whether the grid is full,
        # contradicts, or has no hidden single left
        _placed, why = _hidden_singles_run(state, run.steps, limit - len(run.steps))
        if why == CONTRADICTION:
            run.stopped = "stuck"
            break
        if why != STUCK:
            break  # solved, or at the step limit
        try:
            step = _next_step(state, rating, profile, first=1)  # no hidden single is left
        except ChainBudgetExceeded:
            # the steps found so far stay, so that an explanation can show them
            run.stopped = "budget"
            break
        if step is None:
            run.stopped = "stuck"
            break
        run.steps.append(step)
        if stop_within and step.difficulty >= hardest:
            hardest = step.difficulty
            rest = _tenths(hardest) - 1  # a tenth below: no later hint ties the hardest
            if rest >= _tenths(SE_CHAIN_BASE["dynamic"]) and _settled(
                state.copy(), rest / 10, solution
            ):
                run.stopped = "within"
                return run
    run.solved = state.is_solved() and not state.is_contradiction()
    return run


__all__ = [
    "PROFILES",
    "QUICK_CHUNK",
    "FallbackRating",
    "SeRun",
    "SeStep",
    "SeTechnique",
    "column_order",
    "compile_nested_nets",
    "length_bonus",
    "length_progress",
    "most_complexity",
    "register",
    "se_next",
    "se_solve",
    "solved_within",
    "technique",
    "techniques",
    "unregister",
]
