"""The batch kernel of ``bank add`` (solution, uniqueness, minimality) against the SAT solver.

:func:`csp_sudoku._kernels.bank.facts_rows` runs the fast backend's searches for
a whole batch, with its own yes/no minimality test (singles first, then a
search for one solution a clue, stopping at the first clue that can go); the
checks here count solutions with the SAT backend, which shares no code with
it: a puzzle is unique when SAT finds one solution, and minimal when each
clue removed alone lets SAT find two (the plain clue-removal check).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from csp_sudoku._kernels import bank as kb
from csp_sudoku._kernels.status import BUDGET9
from csp_sudoku.backends import get_backend
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.tools.bank import PuzzleBank, pattern_symmetries_many
from csp_sudoku.tools.canonical import random_isomorphism
from tests.conftest import load_lines

NINE = Geometry.standard(9)


def _cells(lines: list[str]) -> NDArray[np.int8]:
    return np.array([[0 if c in ".0" else int(c) for c in s] for s in lines], dtype=np.int8)


def sat_facts(row: NDArray[np.int8]) -> tuple[int, NDArray[np.int8] | None]:
    """The ``FACT_*`` code of a puzzle (minimality asked) and its solution, by SAT."""
    sat = get_backend("sat")
    found = sat.solutions(row, NINE, 2)
    if len(found) != 1:
        return (kb.FACT_NONE if not found else kb.FACT_SEVERAL), None
    for c in np.flatnonzero(row).tolist():
        less = row.copy()
        less[c] = 0
        if sat.count(less, NINE, 2) == 1:
            return kb.FACT_NOT_MINIMAL, found[0]
    return kb.FACT_MINIMAL, found[0]


def mixed_batch() -> NDArray[np.int8]:
    """Minimal puzzles, the same with clues of their solution added (not minimal),
    with a clue removed (several solutions), with a clashing clue (none)."""
    rng = np.random.default_rng(5)
    base = _cells(load_lines("17_clue.txt", limit=6) + load_lines("top1465.txt", limit=6))
    sat = get_backend("sat")
    rows = [base]
    for row in base:
        sol = sat.solutions(row, NINE, 1)[0]
        more = row.copy()
        empty = np.flatnonzero(row == 0)
        added = rng.choice(empty, 3, replace=False)
        more[added] = sol[added]
        fewer = row.copy()
        fewer[np.flatnonzero(row)[0]] = 0
        clash = row.copy()
        filled = np.flatnonzero(row)[0]
        clash[filled + 1 if filled % 9 < 8 else filled - 1] = row[filled]  # same row, same digit
        rows.append(np.stack([more, fewer, clash]))
    return np.concatenate(rows)


def test_the_kernel_agrees_with_sat() -> None:
    batch = mixed_batch()
    codes = np.empty(len(batch), np.int8)
    sols = np.zeros_like(batch)
    kb.facts_rows(batch, True, 2 * BUDGET9, BUDGET9, sols, codes)
    seen = set()
    for row, code, sol in zip(batch, codes.tolist(), sols, strict=True):
        want, want_sol = sat_facts(row)
        assert code == want
        seen.add(code)
        if want_sol is not None:
            assert np.array_equal(sol, want_sol)
    assert seen == {kb.FACT_MINIMAL, kb.FACT_NOT_MINIMAL, kb.FACT_NONE, kb.FACT_SEVERAL}


def test_without_the_minimality_check_a_unique_puzzle_is_unique() -> None:
    batch = mixed_batch()
    codes = np.empty(len(batch), np.int8)
    kb.facts_rows(batch, False, 2 * BUDGET9, BUDGET9, np.zeros_like(batch), codes)
    for row, code in zip(batch, codes.tolist(), strict=True):
        want = sat_facts(row)[0]
        assert code == (kb.FACT_UNIQUE if want in (kb.FACT_MINIMAL, kb.FACT_NOT_MINIMAL) else want)


def test_a_search_out_of_budget_says_so() -> None:
    hard = _cells(load_lines("top1465.txt", limit=20))
    codes = np.empty(len(hard), np.int8)
    kb.facts_rows(hard, True, 1, 1, np.zeros_like(hard), codes)
    assert kb.FACT_GAVE_UP in codes.tolist()


@pytest.mark.parametrize("budget", [None, 81], ids=["kernel", "out-of-budget-fallback"])
def test_the_bank_stores_the_facts_sat_finds(tmp_path: Path, budget: int | None) -> None:
    """Through ``add_each``: the kernel's rows, or (a tiny budget) the rows it gives
    up on, which the bank's checker takes one by one (its SAT fallback)."""
    batch = mixed_batch()
    with PuzzleBank(tmp_path / "b.db") as bank:
        if budget is not None:
            bank._checker(NINE).backend.work_budget = budget
        results = bank.add_each(batch)
        for row, res in zip(batch, results, strict=True):
            want, want_sol = sat_facts(row)
            if want in (kb.FACT_NONE, kb.FACT_SEVERAL):
                assert not hasattr(res, "added")
                continue
            entry = bank.get(res.id)  # type: ignore[union-attr]
            assert entry.minimal is (want == kb.FACT_MINIMAL)
            assert want_sol is not None
            assert np.array_equal(entry.solution.cells, want_sol)
        if budget is not None:  # the rows the kernel gave up on went to SAT
            assert bank._checker(NINE).backend.fallbacks > 0


#: Puzzles the property test starts from: minimal 17-clue puzzles, and hard
#: puzzles of 20-25 clues, whose clues the singles test alone seldom decides.
_STARTS = load_lines("17_clue.txt", limit=40, step=997) + load_lines(
    "forum_hardest_11plus.txt", limit=40, step=331
)


@settings(max_examples=40, deadline=None)
@given(
    start=st.sampled_from(_STARTS),
    iso=st.integers(min_value=0, max_value=2**32 - 1),
    added=st.sampled_from([0, 0, 0, 1, 2, 4]),
    removed=st.sampled_from([False, False, False, True]),
    pick=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_the_minimality_check_agrees_with_the_plain_one(
    start: str, iso: int, added: int, removed: bool, pick: int
) -> None:
    """A random isomorph of a minimal or hard puzzle, with up to four clues of
    its solution added (found by SAT) and maybe one clue taken away: the
    kernel's code is the one the plain clue-removal check by SAT gives."""
    row = random_isomorphism(iso).apply(parse_line(start)).cells.astype(np.int8)
    rng = np.random.default_rng(pick)
    sol = get_backend("sat").solutions(row, NINE, 1)[0]
    empty = np.flatnonzero(row == 0)
    more = rng.choice(empty, added, replace=False)
    row[more] = sol[more]
    if removed:
        row[rng.choice(np.flatnonzero(row))] = 0
    codes = np.empty(1, np.int8)
    sols = np.zeros((1, 81), np.int8)
    kb.facts_rows(row.reshape(1, 81), True, 2 * BUDGET9, BUDGET9, sols, codes)
    want, want_sol = sat_facts(row)
    assert int(codes[0]) == want
    if want_sol is not None:
        assert np.array_equal(sols[0], want_sol)


def test_some_non_minimal_puzzles_need_the_search() -> None:
    """The cases above reach the search, not only the singles test: a hard
    puzzle with one clue of its solution added is not minimal (SAT says so),
    yet no clue of it is a naked or hidden single of the others."""
    reached = 0
    for line in _STARTS[40:50]:
        row = _cells([line])[0]
        sol = get_backend("sat").solutions(row, NINE, 1)[0]
        for c in np.flatnonzero(row == 0)[:6].tolist():
            more = row.copy()
            more[c] = sol[c]
            clue_cells = np.flatnonzero(more).astype(np.int64)
            single = kb._a_single_can_go(
                more, len(clue_cells), clue_cells, np.empty(81, np.int8), np.zeros(10, np.int64)
            )
            if not single:
                assert sat_facts(more)[0] == kb.FACT_NOT_MINIMAL
                codes = np.empty(1, np.int8)
                kb.facts_rows(
                    more.reshape(1, 81),
                    True,
                    2 * BUDGET9,
                    BUDGET9,
                    np.zeros((1, 81), np.int8),
                    codes,
                )
                assert int(codes[0]) == kb.FACT_NOT_MINIMAL
                reached += 1
    assert reached > 0


def _kept_by(pattern: NDArray[np.bool_]) -> set[str]:
    """The symmetries that map a square pattern onto itself, by numpy's flips and turns."""
    images = {
        "rot180": np.rot90(pattern, 2),
        "rot90": np.rot90(pattern),
        "mirror": np.fliplr(pattern),
        "flip": np.flipud(pattern),
        "diagonal": pattern.T,
        "antidiagonal": np.rot90(pattern, 2).T,
    }
    return {name for name, image in images.items() if np.array_equal(image, pattern)}


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([4, 9, 16]),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    made=st.sampled_from(["random", "rot180", "rot90", "mirror", "diagonal", "antidiagonal"]),
)
def test_pattern_symmetries_are_the_flips_and_turns_that_keep_the_pattern(
    size: int, seed: int, made: str
) -> None:
    """Random patterns, some made symmetric by or-ing in their images: the bank's
    symmetry names are those numpy's flips and turns keep."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(8):
        p = rng.random((size, size)) < rng.uniform(0.05, 0.6)
        if made == "rot180":
            p |= np.rot90(p, 2)
        elif made == "rot90":
            p = p | np.rot90(p) | np.rot90(p, 2) | np.rot90(p, 3)
        elif made == "mirror":
            p |= np.fliplr(p)
        elif made == "diagonal":
            p |= p.T
        elif made == "antidiagonal":
            p |= np.rot90(p, 2).T
        rows.append(p)
    cells = np.stack([p.reshape(-1) * rng.integers(1, size + 1, size * size) for p in rows])
    found = pattern_symmetries_many(cells, size)
    for p, names in zip(rows, found, strict=True):
        assert set(names) == _kept_by(p)
        if made != "random":
            assert made in names
