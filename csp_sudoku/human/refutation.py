"""Refutation scores (Pelanek, *Difficulty Rating of Sudoku Puzzles by a
Computational Model*, FLAIRS 2011, section "Refutation score" of the SiSuS
model).

When no single is available, a solver can still fill a cell by refuting every
wrong candidate of it: assume the candidate and follow simple steps (naked and
hidden singles) until the grid contradicts itself. Pelanek measures the effort
as the number of simple steps, taken in a *random* order as his SiSuS model
takes them (not the shortest refutation, which needs a search that people do
not do):

* :func:`refute`: the steps for one candidate (``math.inf`` if the singles run
  out first);
* :func:`cell_refutation_score`: the sum over the wrong candidates of a cell;
* :func:`refutation_scores`: that score for every empty cell.

The runs are compiled (:func:`csp_sudoku._kernels.human.refute_many`) and
repeatable: every random draw comes from the ``numpy.random.Generator`` given.
Each refutation draws one block of ``empty cells`` uniforms from it, so
:func:`refutation_scores` gives the same numbers as calling
:func:`cell_refutation_score` cell by cell with the same generator.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.human._tables import tables
from csp_sudoku.human.state import CandidateState


def _refute_batch(
    state: CandidateState,
    cells: Sequence[int] | NDArray[np.integer],
    digits: Sequence[int] | NDArray[np.integer],
    rng: np.random.Generator,
    limit: int | None,
) -> NDArray[np.float64]:
    from csp_sudoku._kernels.human import refute_many

    t = tables(state.geometry)
    nempty = int(np.count_nonzero(state.values == 0))
    rand = rng.random((len(cells), nempty))
    cap = nempty if limit is None else max(0, int(limit))
    out: NDArray[np.float64] = refute_many(
        state.masks,
        state.values,
        t.peers,
        t.npeers,
        t.units,
        np.asarray(cells, dtype=np.int32),
        np.asarray(digits, dtype=np.int32),
        rand,
        cap,
    )
    return out


def refute(
    state: CandidateState,
    cell: int,
    digit: int,
    rng: np.random.Generator,
    limit: int | None = None,
) -> float:
    """Steps to refute ``digit`` in ``cell`` by singles chosen at random.

    Pelanek, section "Refutation score": assume the candidate, then repeatedly
    place one available single (naked or hidden, picked uniformly at random)
    until an exact-cover column is left without candidates.

    Args:
        state: the position (not changed).
        cell: 0-based row-major cell; it must be empty.
        digit: 1-based candidate of ``cell`` to assume.
        rng: the source of the random choices.
        limit: give up (``math.inf``) after this many steps; None for no limit.

    Returns:
        The number of singles placed after the assumption before the
        contradiction showed (0 when the assumption contradicts at once), or
        ``math.inf`` when the singles ran out (or ``limit`` passed) first.

    Raises:
        ArgumentError: when ``cell`` is filled or ``digit`` is not one of its candidates.
    """
    if not state.has(cell, digit):
        raise ArgumentError(
            f"{digit} is not a candidate of empty cell {state.geometry.cell_name(cell)}"
        )
    return float(_refute_batch(state, [cell], [digit], rng, limit)[0])


def _wrong_candidates(state: CandidateState, cell: int, solution: NDArray[np.integer]) -> list[int]:
    right = int(solution[cell])
    return [d for d in state.candidates(cell) if d != right]


def cell_refutation_score(
    state: CandidateState,
    cell: int,
    solution: NDArray[np.integer],
    rng: np.random.Generator,
) -> float:
    """The refutation score of an empty cell: the sum of :func:`refute` over its
    wrong candidates (Pelanek, section "Refutation score"; ``math.inf`` if one
    of them cannot be refuted by singles).

    Args:
        state: the position (not changed).
        cell: an empty cell.
        solution: the flat solved grid (digits 1..N).
        rng: the source of the random choices.

    Raises:
        ArgumentError: when ``cell`` is filled.
    """
    if state.values[cell]:
        raise ArgumentError(f"cell {state.geometry.cell_name(cell)} is already filled")
    wrong = _wrong_candidates(state, cell, np.asarray(solution).reshape(-1))
    if not wrong:
        return 0.0
    return float(_refute_batch(state, [cell] * len(wrong), wrong, rng, None).sum())


def refutation_scores(
    state: CandidateState,
    solution: NDArray[np.integer],
    rng: np.random.Generator,
) -> dict[int, float]:
    """:func:`cell_refutation_score` of every empty cell, in one compiled run.

    The cell with the lowest score is the one SiSuS fills next when it is stuck
    (Pelanek, section "Refutation score").

    Returns:
        ``{cell: score}`` for every empty cell, ascending cell order.
    """
    sol = np.asarray(solution).reshape(-1).astype(np.int64)
    bits = state.digit_bits()  # live candidates of empty cells, (ncells, N)
    filled = sol > 0
    bits[np.flatnonzero(filled), sol[filled] - 1] = False  # keep the wrong ones only
    cells, digits0 = np.nonzero(bits)  # ascending cell, then digit
    empties = state.empty_cells()
    totals = np.zeros(state.geometry.ncells, dtype=np.float64)
    if cells.size:
        steps = _refute_batch(state, cells, digits0 + 1, rng, None)
        totals = np.asarray(
            np.bincount(cells, weights=steps, minlength=state.geometry.ncells), dtype=np.float64
        )
    return dict(zip(empties.tolist(), totals[empties].tolist(), strict=True))
