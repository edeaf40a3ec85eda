"""Arrows past 9x9 and whispers of every size and gap, on all three backends.

An arrow's one-cell circle is that cell's digit on any grid (10 to 16 on
16x16), a pill (several cells) a decimal number on grids up to 9x9 and
refused past them; a whispers line keeps a least difference of half the size
rounded up, or the entry's own ``value``. On each puzzle below the ``fast``,
``sat`` and ``cpsat`` backends must give the same counts (and the same true
candidates), every solution must pass
:func:`tests.independent_variants.broken_rules` (which shares no code with
the package), and the grid a puzzle was built from must be among them.

The grids are built here from a formula (digit ``(b * (r % b) + r // b + c)
% N``, rows of a band shifted by the box width, then the digits shuffled),
and the arrows and lines are read off them, so none comes from the package.
"""

from __future__ import annotations

import copy
import itertools
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku import variants
from csp_sudoku.constraints import VariantPuzzle, from_fpuzzles, to_fpuzzles
from csp_sudoku.constraints.arrow import Arrow
from csp_sudoku.core.errors import ParseError
from csp_sudoku.core.puzzle import Puzzle
from tests.independent_variants import broken_rules

Grid = list[list[int]]
Cell = tuple[int, int]
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def full_grid(n: int, seed: int) -> Grid:
    """A full ``n x n`` Sudoku grid (square boxes: 4, 9 or 16), its digits shuffled by ``seed``."""
    b = math.isqrt(n)
    assert b * b == n
    shuffle = [int(x) + 1 for x in np.random.default_rng(seed).permutation(n)]
    return [[shuffle[(b * (r % b) + r // b + c) % n] for c in range(n)] for r in range(n)]


def name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def empty(n: int) -> dict[str, Any]:
    return {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}


def with_givens(data: dict[str, Any], grid: Grid, blank: set[Cell]) -> dict[str, Any]:
    """``data`` with every cell of ``grid`` given but those of ``blank``."""
    out = copy.deepcopy(data)
    n = len(grid)
    out["grid"] = [
        [{} if (r, c) in blank else {"value": grid[r][c]} for c in range(n)] for r in range(n)
    ]
    return out


def shaft_for(grid: Grid, circle: list[Cell], used: set[Cell]) -> list[Cell] | None:
    """A king's walk of 2 to 4 cells from beside ``circle[0]`` (none in ``used``) whose
    digits sum to the number the circle reads (its digits in decimal, in reading
    order); the first found in a fixed order."""
    n = len(grid)
    want = int("".join(str(grid[r][c]) for r, c in sorted(circle)))

    def walk(path: list[Cell], total: int) -> list[Cell] | None:
        if total == want and len(path) >= 2:
            return path
        if total >= want or len(path) == 4:
            return None
        r, c = path[-1]
        for dr, dc in KING:
            x = (r + dr, c + dc)
            if 0 <= x[0] < n and 0 <= x[1] < n and x not in used and x not in path:
                got = walk([*path, x], total + grid[x[0]][x[1]])
                if got:
                    return got
        return None

    r, c = circle[0]
    for dr, dc in KING:
        x = (r + dr, c + dc)
        if 0 <= x[0] < n and 0 <= x[1] < n and x not in used:
            got = walk([x], grid[x[0]][x[1]])
            if got:
                return got
    return None


def arrows_10_to_16(grid: Grid) -> tuple[list[dict[str, Any]], set[Cell]]:
    """Arrows of the 16x16 ``grid`` whose one-cell circles hold 10, 11, ... 16, and their cells."""
    entries: list[dict[str, Any]] = []
    used: set[Cell] = set()
    for value in range(10, 17):
        for r in range(16):
            circle = (r, grid[r].index(value))
            if circle in used:
                continue
            shaft = shaft_for(grid, [circle], used | {circle})
            if shaft:
                break
        else:
            raise AssertionError(f"no arrow for {value}")
        used |= {circle, *shaft}
        entries.append({"cells": [name(circle)], "lines": [[name(circle), *map(name, shaft)]]})
    return entries, used


def solutions_of(data: dict[str, Any], limit: int) -> dict[str, list[Grid]]:
    """Each backend's solutions of ``data`` (up to ``limit``), each checked independently."""
    n = data["size"]
    puzzle = from_fpuzzles(data)
    out = {}
    for b in variants.BACKENDS:
        grids = [
            s.cells.reshape(n, n).tolist() for s in variants.solutions(puzzle, limit, backend=b)
        ]
        for g in grids:
            assert broken_rules(data, g) == [], b
        out[b] = grids
    return out


def assert_agree(data: dict[str, Any], grid: Grid | None, limit: int = 40) -> int:
    """The backends find the same solutions (all of them, below ``limit``), ``grid`` among them."""
    found = solutions_of(data, limit)
    counts = {b: len(g) for b, g in found.items()}
    assert len(set(counts.values())) == 1, counts
    count = counts["fast"]
    assert count < limit, "the puzzle has too many solutions to compare them all"
    sets = [{tuple(map(tuple, g)) for g in grids} for grids in found.values()]
    assert sets[0] == sets[1] == sets[2]
    if grid is not None:
        assert broken_rules(data, grid) == []
        assert tuple(map(tuple, grid)) in sets[0]
    return count


# ------------------------------------------------------------------ arrows past 9
def test_16x16_arrow_circle_past_9() -> None:
    data = empty(16)
    data["arrow"] = [{"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R3C3"]]}]
    data["grid"][0][0] = {"value": 12}
    for b, grids in solutions_of(data, 2).items():
        assert len(grids) == 2 and all(g[1][1] + g[2][2] == 12 for g in grids), b


@pytest.mark.parametrize("seed", [1, 2])
def test_16x16_arrows_with_circles_10_to_16(seed: int) -> None:
    grid = full_grid(16, seed)
    arrows, cells = arrows_10_to_16(grid)
    data = {**empty(16), "arrow": arrows}
    rng = np.random.default_rng(seed)
    others = [(r, c) for r in range(16) for c in range(16) if (r, c) not in cells]
    extra = {others[i] for i in rng.choice(len(others), 24, replace=False)}
    count = assert_agree(with_givens(data, grid, cells | extra), grid)
    assert count >= 1


def test_16x16_arrow_circles_are_read_by_their_digit_in_the_candidates() -> None:
    """Circle and shaft blank: the circle's true candidates are what the shaft can sum to."""
    grid = full_grid(16, 3)
    arrows, cells = arrows_10_to_16(grid)
    data = with_givens({**empty(16), "arrow": arrows}, grid, cells)
    puzzle = from_fpuzzles(data)
    cands = [variants.candidates(puzzle, backend=b) for b in variants.BACKENDS]
    assert all(np.array_equal(cands[0], c) for c in cands[1:])
    for e in arrows:
        (r, c) = (int(x) - 1 for x in e["cells"][0][1:].split("C"))
        assert cands[0][r * 16 + c, grid[r][c] - 1]  # the grid's own digit, 10 to 16


def test_16x16_arrow_whose_shaft_cannot_reach_its_circle_has_no_solution() -> None:
    grid = full_grid(16, 4)
    arrows, cells = arrows_10_to_16(grid)
    data = with_givens({**empty(16), "arrow": arrows}, grid, cells)
    r, c = (int(x) - 1 for x in arrows[-1]["cells"][0][1:].split("C"))
    data["grid"][r][c] = {"value": 15 if grid[r][c] == 16 else 16}  # the circle one off
    for b in variants.BACKENDS:
        assert variants.count(from_fpuzzles(data), 2, backend=b) == 0, b


@pytest.mark.parametrize("n", [12, 16])
def test_a_pill_past_9x9_is_refused_by_entry(n: int) -> None:
    data = empty(n)
    data["arrow"] = [
        {"cells": ["R1C1"], "lines": [["R1C1", "R2C2"]]},
        {"cells": ["R5C5", "R5C6"], "lines": [["R5C5", "R6C5", "R7C5"]]},
    ]
    with pytest.raises(ParseError, match=rf"arrow\[1\]: a circle of 2 cells \(a pill\) on a {n}x"):
        from_fpuzzles(data)
    grid = Puzzle(np.zeros(n * n, dtype=np.int8))
    with pytest.raises(ParseError, match="a pill"):
        VariantPuzzle(grid, (Arrow(((0, 0), (0, 1)), (((1, 0),),)),))


def test_a_pill_reads_in_decimal_on_9x9() -> None:
    """A pill over a 1 and the digit right of it reads 1x (10 to 19), listed backwards."""
    grid = full_grid(9, 5)
    for r in range(9):
        c = grid[r].index(1)
        if c < 8:
            break
    pill = [(r, c), (r, c + 1)]
    shaft = shaft_for(grid, pill, set(pill))
    assert shaft
    line = [name(pill[0]), *map(name, shaft)]
    data = {**empty(9), "arrow": [{"cells": [name(x) for x in pill[::-1]], "lines": [line]}]}
    assert assert_agree(with_givens(data, grid, {*pill, *shaft}), grid) >= 1


# ------------------------------------------------------------------ whispers
def whisper_lines(grid: Grid, least: int, count: int) -> list[list[Cell]]:
    """Up to ``count`` lines of 3 to 5 orthogonal neighbours of ``grid`` differing by
    ``least`` or more, in a fixed order, none sharing a cell."""
    n = len(grid)
    used: set[Cell] = set()
    lines = []
    for start in itertools.product(range(n), range(n)):
        if start in used:
            continue
        line = [start]
        while len(line) < 5:
            r, c = line[-1]
            step = next(
                (
                    x
                    for x in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c))
                    if 0 <= x[0] < n
                    and 0 <= x[1] < n
                    and x not in used
                    and x not in line
                    and abs(grid[x[0]][x[1]] - grid[r][c]) >= least
                ),
                None,
            )
            if step is None:
                break
            line.append(step)
        if len(line) >= 3:
            lines.append(line)
            used |= set(line)
            if len(lines) == count:
                break
    return lines


def breaks_least(grid: Grid, lines: list[list[Cell]], least: int) -> bool:
    return any(
        abs(grid[a[0]][a[1]] - grid[b[0]][b[1]]) < least
        for line in lines
        for a, b in itertools.pairwise(line)
    )


@pytest.mark.parametrize(("n", "gap"), [(4, 2), (9, 5), (16, 8)])
def test_whispers_keep_half_the_size_rounded_up(n: int, gap: int) -> None:
    grid = full_grid(n, 10 + n)
    lines = whisper_lines(grid, gap, 4)
    assert lines
    data = {**empty(n), "whispers": [{"lines": [[name(x) for x in line]]} for line in lines]}
    cells = {x for line in lines for x in line}
    assert assert_agree(with_givens(data, grid, cells), grid) >= 1


def test_6x6_whispers_keep_a_gap_of_3() -> None:
    data = {**empty(6), "whispers": [{"lines": [["R1C1", "R1C2"]]}]}
    for second, want in ((4, 1), (3, 0)):
        data["grid"][0][0] = {"value": 1}
        data["grid"][0][1] = {"value": second}
        p = from_fpuzzles(data)
        assert [variants.count(p, 1, backend=b) for b in variants.BACKENDS] == [want] * 3
        if want:
            (s,) = variants.solutions(p, 1)
            assert broken_rules(data, s.cells.reshape(6, 6).tolist()) == []


@pytest.mark.parametrize(("n", "least", "count"), [(9, 4, 6), (9, 3, 6), (9, 1, 2), (16, 6, 6)])
def test_whispers_with_their_own_gap(n: int, least: int, count: int) -> None:
    """A ``value`` below the default: lines the default refuses, the gap keeps."""
    grid = full_grid(n, 20 + least)
    lines = whisper_lines(grid, least, count)
    assert breaks_least(grid, lines, (n + 1) // 2)  # some neighbours closer than the default
    entries = [{"lines": [[name(x) for x in line]], "value": str(least)} for line in lines]
    data = {**empty(n), "whispers": entries}
    cells = {x for line in lines for x in line}
    assert assert_agree(with_givens(data, grid, cells), grid) >= 1
    default = {**empty(n), "whispers": [{"lines": e["lines"]} for e in entries]}
    p = from_fpuzzles(with_givens(default, grid, cells))
    assert [variants.count(p, 2, backend=b) for b in variants.BACKENDS] == [0, 0, 0]


def test_whispers_with_a_gap_above_the_default() -> None:
    """Value 7 on 9x9: only 1-8, 1-9 and 2-9 may touch, so a 2 forces 2-9-1 along the line."""
    data = {**empty(9), "whispers": [{"lines": [["R1C1", "R1C2", "R1C3"]], "value": "7"}]}
    data["grid"][0][0] = {"value": 2}
    p = from_fpuzzles(data)
    assert [variants.count(p, 1, backend=b) for b in variants.BACKENDS] == [1, 1, 1]
    s = variants.solve(p)
    assert s is not None and broken_rules(data, s.cells.reshape(9, 9).tolist()) == []
    assert [int(x) for x in s.cells[:3]] == [2, 9, 1]
    for cell, digit in ((1, 8), (2, 3)):  # 8 beside the 2, 3 beside the 9: closer than 7
        data["grid"][0][cell] = {"value": digit}
        q = from_fpuzzles(data)
        assert [variants.count(q, 1, backend=b) for b in variants.BACKENDS] == [0, 0, 0]
        data["grid"][0][cell] = {}


@settings(max_examples=60, deadline=None)
@given(
    n=st.sampled_from([4, 6, 9, 16]),
    data=st.data(),
)
def test_whispers_entries_round_trip(n: int, data: st.DataObject) -> None:
    cells = [f"R{r + 1}C{c + 1}" for r in range(n) for c in range(n)]
    entries = []
    for _ in range(data.draw(st.integers(1, 3))):
        line = data.draw(st.lists(st.sampled_from(cells), min_size=2, max_size=5, unique=True))
        entry: dict[str, Any] = {"lines": [line]}
        value = data.draw(st.one_of(st.none(), st.integers(1, n - 1)))
        if value is not None:
            entry["value"] = data.draw(st.sampled_from([str(value), value]))
        entries.append(entry)
    puzzle = from_fpuzzles({**empty(n), "whispers": entries})
    back = to_fpuzzles(puzzle)["whispers"]
    assert back == [
        {"lines": e["lines"], **({"value": str(e["value"])} if "value" in e else {})}
        for e in entries
    ]
    assert from_fpuzzles({**empty(n), "whispers": back}) == puzzle


@settings(max_examples=60, deadline=None)
@given(
    n=st.sampled_from([4, 6, 9, 16]),
    value=st.one_of(
        st.integers(-3, 40),
        st.text(max_size=4),
        st.booleans(),
        st.floats(allow_nan=True),
        st.lists(st.integers(), max_size=2),
    ),
)
def test_a_whispers_value_is_a_difference_or_a_parse_error(n: int, value: Any) -> None:
    entry = {"lines": [["R1C1", "R1C2"]], "value": value}
    data = {**empty(n), "whispers": [{"lines": [["R2C1", "R2C2"]]}, entry]}
    try:
        puzzle = from_fpuzzles(data)
    except ParseError as err:
        assert str(err).startswith("whispers[1]: value")
        return
    got = int(value) if value not in (None, "") else None
    assert got is None or 1 <= got <= n - 1
    (_, w) = puzzle.constraints
    assert to_fpuzzles(puzzle)["whispers"][1] == (
        {"lines": [["R1C1", "R1C2"]]} if got is None else {**entry, "value": str(got)}
    )
    assert w.check([[1] * n for _ in range(n)]) is False  # equal neighbours never whisper
