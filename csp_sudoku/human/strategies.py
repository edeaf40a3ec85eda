"""hsolve's named strategies, tiers 0-5, with possible and valid applications.

Chang, Fan, Sun, *hsolve: A Difficulty Metric and Puzzle Generator for Sudoku*
(MCM 2008), Appendix A ranks thirteen strategies in six tiers and, for each,
says which board configurations a person checks ("Application Enumeration").
This module gives, for a :class:`~csp_sudoku.human.state.CandidateState`:

- :func:`possible_applications`: the paper's count ``p`` for a strategy
  (e.g. ``sum over units of C(n, 2)`` for a naked double, ``n`` = empty cells of the unit);
- :func:`valid_applications`: the configurations among those that actually apply
  (make at least one placement or elimination), each as an :class:`Application`;
- :func:`tier_counts`: ``(p, v)`` summed over a tier, what hsolve's step 2(b)-(c) needs.

A *configuration* is the thing the paper counts: a cell (singles, backtracking),
a set of k empty cells of one unit (naked/hidden subsets), a line/box intersection
with two or more empty cells (locked candidates; both pointing and claiming are
checked there and applying it makes all of its eliminations), or a digit with k
lines (X-Wing, Swordfish, Jellyfish; rows and columns both). Counting valid
applications per configuration keeps ``v <= p``, so E(p, v) = (p+1)/(v+1) of
Lemma 1 is the expected number of checks.

Details the paper leaves open, and what we chose:

- Units are all units of the geometry (rows, columns, boxes or regions, extra
  units such as X-Sudoku's diagonals); locked candidates use row/column x box
  intersections; fish use rows and columns.
- Backtracking (tier 5) tests the lower candidate of a two-candidate cell, then
  the higher, each followed by tier 0 to a fixpoint; the application is valid
  when a test ends in a contradiction (the other value is placed) or in the
  solution (the test value is placed).

The enumeration runs in compiled code (:mod:`csp_sudoku._kernels.strategies`), the
same code the hsolve metric uses, so this listing and the metric never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from csp_sudoku._kernels import strategies as _k
from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.human.state import CandidateState

#: The strategies in tier order (the paper's Appendix A).
STRATEGIES: tuple[str, ...] = _k.STRATEGY_NAMES
#: Tier of each strategy, by name.
TIER_OF: dict[str, int] = dict(zip(_k.STRATEGY_NAMES, _k.STRATEGY_TIERS, strict=True))
#: The strategies of each tier, tiers 0 to 5.
TIERS: tuple[tuple[str, ...], ...] = tuple(
    _k.STRATEGY_NAMES[_k.TIER_START[t] : _k.TIER_START[t + 1]] for t in range(_k.N_TIERS)
)


@dataclass(frozen=True)
class Application:
    """One valid application of a named strategy.

    Attributes:
        strategy: the strategy's name (see :data:`STRATEGIES`).
        tier: its tier (0-5).
        placements: ``(cell, digit)`` pairs it places (cell 0-based row-major, digit 1-based).
        eliminations: ``(cell, digit)`` candidates it removes.
    """

    strategy: str
    tier: int
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]


def _index(strategy: str) -> int:
    try:
        return _k.STRATEGY_NAMES.index(strategy)
    except ValueError:
        raise ArgumentError(
            f"unknown strategy {strategy!r}; known: {', '.join(_k.STRATEGY_NAMES)}"
        ) from None


def _enumerate(state: CandidateState, s: int, target: int) -> tuple[int, int, np.ndarray]:
    t = _k.tables(state.geometry)
    ncells = state.geometry.ncells
    ops = np.empty((ncells * t.size + ncells, 3), dtype=np.int64)
    p, v, nops = _k.enumerate_strategy(
        s,
        np.ascontiguousarray(state.masks, dtype=np.int64),
        np.ascontiguousarray(state.values, dtype=np.int8),
        t.scan,
        t.size,
        target,
        ops,
    )
    return int(p), int(v), ops[:nops]


def possible_applications(state: CandidateState, strategy: str) -> int:
    """The paper's "Application Enumeration" count ``p`` of ``strategy`` in ``state``."""
    return _enumerate(state, _index(strategy), -1)[0]


def valid_applications(state: CandidateState, strategy: str) -> list[Application]:
    """Every valid application of ``strategy`` in ``state`` (see the module notes)."""
    s = _index(strategy)
    _, v, _ = _enumerate(state, s, -1)
    out: list[Application] = []
    for i in range(v):
        ops = _enumerate(state, s, i)[2].tolist()
        out.append(
            Application(
                strategy=strategy,
                tier=_k.STRATEGY_TIERS[s],
                placements=tuple((c, d) for c, d, pl in ops if pl),
                eliminations=tuple((c, d) for c, d, pl in ops if not pl),
            )
        )
    return out


def tier_counts(state: CandidateState, tier: int) -> tuple[int, int]:
    """``(p, v)`` of a whole tier: possible and valid applications of its strategies."""
    if not 0 <= tier < _k.N_TIERS:
        raise ArgumentError(f"tier must be 0..{_k.N_TIERS - 1}, got {tier}")
    p = v = 0
    for s in range(_k.TIER_START[tier], _k.TIER_START[tier + 1]):
        ps, vs, _ = _enumerate(state, s, -1)
        p += ps
        v += vs
    return p, v


def apply(state: CandidateState, application: Application) -> None:
    """Make the placements and eliminations of ``application`` in ``state``."""
    for cell, digit in application.placements:
        if not state.values[cell]:
            state.place(cell, digit)
    for cell, digit in application.eliminations:
        state.eliminate(cell, digit)


def expected_checks(p: int, v: int) -> float:
    """E(p, v) = (p + 1) / (v + 1): Lemma 1 of the hsolve paper.

    The expected number of possible applications a searcher checks, in a
    uniformly random order, before meeting the first of ``v`` valid ones among
    ``p`` (and ``p + 1`` when ``v = 0``).
    """
    if p < 0 or v < 0:
        raise ArgumentError(f"p and v must be non-negative, got p={p}, v={v}")
    return (p + 1) / (v + 1)
