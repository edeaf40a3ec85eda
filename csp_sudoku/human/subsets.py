"""The constraint subset rule (Hunt, Pong, Tucker, *Difficulty-Driven Sudoku
Puzzle Generation*, theorem "Constraint Subset Rule").

In exact-cover terms (see :mod:`csp_sudoku.encodings.exact_cover`): take ``n``
constraints (columns) A, pairwise disjoint (no two share a live candidate), and
``n`` constraints B such that every live candidate of A lies in some column of
B. The ``n`` candidates that will satisfy A each satisfy a different column of
B, so B is used up by them: every live candidate of B outside A can go.

One rule covers the classic techniques, which are its special cases:

============================  ===============================  ==========================
A                             B                                name
============================  ===============================  ==========================
a box-digit                   a row- or column-digit           pointing
a row- or column-digit        a box-digit                      claiming
n cells of a unit             n digits of that unit            naked pair/triple/quad
n digits of a unit            n cells                          hidden pair/triple/quad
n row-digits (one digit)      n column-digits (same digit)     X-Wing/Swordfish/Jellyfish
============================  ===============================  ==========================

(and columns for rows in the last line). Everything else is reported without a
name. The search (:func:`csp_sudoku._kernels.subsets.search_in_order`) lists the
*connected* applications of a size it reaches by growing A and B through
shared candidates, each once. An application it does not reach splits into
smaller ones that together eliminate at least as much, so searching sizes
1, 2, ..., n finds every elimination the rule can make up to size n
(docs/human_model.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.exact_cover import exact_cover
from csp_sudoku.human._tables import tables
from csp_sudoku.human.state import CandidateState

_SUBSET_WORDS = {2: "pair", 3: "triple", 4: "quad"}
_FISH = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


@dataclass(frozen=True)
class SubsetApplication:
    """One application of the constraint subset rule.

    Attributes:
        size: n, the number of constraints in A (and in B).
        a: the exact-cover columns of A, ascending.
        b: the exact-cover columns of B, ascending.
        eliminations: the ``(cell, digit)`` candidates it removes (digit 1-based), sorted.
        name: the classic technique it is, or None.
    """

    size: int
    a: tuple[int, ...]
    b: tuple[int, ...]
    eliminations: tuple[tuple[int, int], ...]
    name: str | None

    def describe(self, geometry: Geometry) -> str:
        """A readable account: ``A = {...} covered by B = {...}``."""
        ec = exact_cover(geometry)
        a = ", ".join(ec.column_name(c) for c in self.a)
        b = ", ".join(ec.column_name(c) for c in self.b)
        return f"{{{a}}} covered by {{{b}}}"


def _column_kind(geometry: Geometry, column: int) -> tuple[str, int, int]:
    """(kind, unit, digit) of a column: kind ``cell`` (unit -1, digit -1) or the unit kind."""
    if column < geometry.ncells:
        return "cell", -1, -1
    unit, d = divmod(column - geometry.ncells, geometry.size)
    return geometry.unit_kinds[unit], unit, d + 1


def classic_name(geometry: Geometry, a: tuple[int, ...], b: tuple[int, ...]) -> str | None:
    """The classic name of the application (A, B), or None when it has none."""
    n = len(a)
    ka = [_column_kind(geometry, c) for c in a]
    kb = [_column_kind(geometry, c) for c in b]
    kinds_a = {k[0] for k in ka}
    kinds_b = {k[0] for k in kb}
    lines = {"row", "col"}
    boxes = {"box", "region"}
    if kinds_a == {"cell"} and "cell" not in kinds_b and len({k[1] for k in kb}) == 1:
        return "naked single" if n == 1 else f"naked {_SUBSET_WORDS.get(n, 'subset')}"
    if kinds_b == {"cell"} and "cell" not in kinds_a and len({k[1] for k in ka}) == 1:
        return "hidden single" if n == 1 else f"hidden {_SUBSET_WORDS.get(n, 'subset')}"
    if "cell" in kinds_a or "cell" in kinds_b:
        return None
    digits = {k[2] for k in ka} | {k[2] for k in kb}
    if len(digits) != 1:
        return None
    if n == 1:
        if kinds_a <= boxes and kinds_b <= lines:
            return "pointing"
        if kinds_a <= lines and kinds_b <= boxes:
            return "claiming"
        return None
    if (kinds_a == {"row"} and kinds_b == {"col"}) or (kinds_a == {"col"} and kinds_b == {"row"}):
        return _FISH.get(n, "fish")
    return None


def find_subsets(
    state: CandidateState, size: int, *, first: bool = False
) -> list[SubsetApplication]:
    """Every connected application of the constraint subset rule of exactly ``size``.

    Args:
        state: the candidate state (not changed).
        size: n >= 1.
        first: stop at the first application found (the first of the search
            order: A's lowest column ascending).

    Returns:
        Distinct applications (by A and B) with at least one elimination, in
        search order.

    Raises:
        ArgumentError: when ``size < 1``.
    """
    from csp_sudoku._kernels.subsets import search_in_order

    if size < 1:
        raise ArgumentError(f"subset size must be at least 1, got {size}")
    t = tables(state.geometry)
    alive = state.alive()
    cap = 1 if first else 4096
    while True:
        out = np.empty((cap, 2 * size), dtype=np.int32)
        found = search_in_order(alive, t.column_candidates, t.candidate_columns, size, first, out)
        if found <= cap:
            break
        cap = found
    return applications_of(state, out[:found], size, alive)


def applications_of(
    state: CandidateState, rows: np.ndarray, size: int, alive: np.ndarray
) -> list[SubsetApplication]:
    """The distinct applications among the kernel's ``rows`` (A then B per row), in
    their first order, with their eliminations in ``alive`` and classic names."""
    g = state.geometry
    t = tables(g)
    n = g.size
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    result: list[SubsetApplication] = []
    for row in rows.tolist():
        a = tuple(sorted(row[:size]))
        b = tuple(sorted(row[size:]))
        if (a, b) in seen:
            continue
        seen.add((a, b))
        in_a = set(t.column_candidates[list(a)].reshape(-1).tolist())
        elims = {
            x
            for x in t.column_candidates[list(b)].reshape(-1).tolist()
            if alive[x] and x not in in_a
        }
        result.append(
            SubsetApplication(
                size,
                a,
                b,
                tuple((x // n, x % n + 1) for x in sorted(elims)),
                classic_name(g, a, b),
            )
        )
    return result


def find_subsets_upto(state: CandidateState, max_size: int = 4) -> list[SubsetApplication]:
    """Every connected application of sizes 1..``max_size``, smallest sizes first."""
    out: list[SubsetApplication] = []
    for n in range(1, max_size + 1):
        out.extend(find_subsets(state, n))
    return out


def smallest_subsets(
    state: CandidateState, max_size: int = 4, *, first: bool = False
) -> list[SubsetApplication]:
    """The applications of the smallest size that has any (up to ``max_size``).

    This is the human model's step (Hunt, Pong, Tucker, section "Human Model"):
    search sizes 1, 2, ... and stop at the first size with an application.
    With ``first`` only the first application of that size is returned.
    """
    for n in range(1, max_size + 1):
        apps = find_subsets(state, n, first=first)
        if apps:
            return apps
    return []


def apply_subset(state: CandidateState, app: SubsetApplication) -> int:
    """Remove the application's eliminations from ``state``; return how many went."""
    return sum(state.eliminate(cell, digit) for cell, digit in app.eliminations)
