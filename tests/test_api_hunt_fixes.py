"""Public API fixes from a bug hunt: wrong answers and raw exceptions.

1. ``next_step`` on pencil marks with no solution or several of their own gave
   hints (a Unique Rectangle removed both solutions): the marks' own solutions
   are counted now, not the placed digits'.
2. ``Checker.removable_clues(puzzle, solution)`` skipped the uniqueness check: an
   empty grid or a puzzle with two solutions looked minimal.
3. ``Geometry.standard(6, 3, 2)`` was named ``6x6`` like ``standard(6)``, so a
   record naming it was read back as the other shape.
4. ``rate_many``'s ``seed`` went unchecked ("x", nan, a Generator raised Python's
   errors; 1.5 was cut to 1, "7" taken).
5. and 6. Raw exceptions and options taken silently: a list as a geometry's size,
   ragged or unorderable jigsaw labels, a number or bytes as ``generate``'s level,
   ``climb_steps=nan``, ``solve_path(order="subsets")``'s ``chains``, ``max_steps``,
   ``solution`` and ``max_subset``.

Each test failed on the code before its fix. Verdicts on solution counts come
from ``tests/independent.py``, which shares no code with the package.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.core.errors import (
    ArgumentError,
    GeometryError,
    MetricError,
    NotUniqueError,
    ParseError,
)
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import geometry_fields, record_geometry
from csp_sudoku.human.state import CandidateState
from tests.independent import check_solution, count_solutions

#: A puzzle with two solutions (they differ in r7c6, r7c9, r8c6 and r8c9).
TWO = ".7.68...1.8....4....1..5...7.4....1....2....6.....8.....6.1.8.....53.....9....3.7"
#: A puzzle with one solution.
ONE = "...........5.9.17..3...2..84..........94..3...7.86...4..7..8...2.......1..19...56"
#: A hard puzzle with one solution (its subsets path needs chains).
HARD = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
#: ONE's solution with its first row empty: singles solve it (options went unread).
EASY = "." * 9 + "845693172736142598458239617629471385173865924567318249294756831381924756"


def _cells(line: str) -> list[int]:
    return [0 if ch == "." else int(ch) for ch in line]


def _independent_solutions(line: str) -> list[list[int]]:
    """Every solution of ``line`` (at most 10), by the independent counter."""
    found: list[list[int]] = []
    count_solutions(_cells(line), 10, found)
    return found


def _clues_as_marks(line: str) -> CandidateState:
    """An empty grid whose pencil marks give each clue's cell that digit alone:
    the marks' solutions are the puzzle's, while no digit is placed."""
    state = CandidateState.from_puzzle(cs.parse("." * 81))
    for cell, ch in enumerate(line):
        if ch != ".":
            for digit in range(1, 10):
                if digit != int(ch):
                    state.eliminate(cell, digit)
    return state


def _marks_keep(state: CandidateState, grid: list[int]) -> bool:
    """Whether the full ``grid`` keeps every placed digit and gives each empty cell a
    candidate (read off the masks' bits here, not through the package)."""
    for cell, digit in enumerate(grid):
        value = int(state.values[cell])
        if value and value != digit:
            return False
        if not value and not int(state.masks[cell]) >> (digit - 1) & 1:
            return False
    return True


# --------------------------------------------------------------- 1. pencil marks
def test_marks_with_two_solutions_get_no_hint() -> None:
    """Two solutions, and no digit placed: SE's replay reached a Unique Rectangle
    that removed both."""
    state = _clues_as_marks(TWO)
    sols = _independent_solutions(TWO)
    assert len(sols) == 2 and all(_marks_keep(state, s) for s in sols)
    with pytest.raises(NotUniqueError, match="leave several solutions"):
        cs.next_step(state)


def test_marks_with_no_solution_get_no_hint() -> None:
    """The Unique Rectangle's eliminations (9 from r7c6 and r7c9) made at the start:
    no solution left, and the placed digits (none) do not show it; the old check
    gave a hint ("3 Strong Links")."""
    state = _clues_as_marks(TWO)
    state.eliminate(59, 9)
    state.eliminate(62, 9)
    assert state.fault() is None  # no contradiction shows without a search
    assert not any(_marks_keep(state, s) for s in _independent_solutions(TWO))
    with pytest.raises(NotUniqueError, match="leave no solution"):
        cs.next_step(state)


def test_marks_with_one_solution_get_their_hint() -> None:
    """A pencil-mark puzzle: unique by its marks, though its placed digits (none)
    have many solutions; its hint holds in that solution."""
    state = _clues_as_marks(ONE)
    (sol,) = _independent_solutions(ONE)
    step = cs.next_step(state)
    assert step is not None
    for cell, digit in step.placements:
        assert sol[cell] == digit
    for cell, digit in step.eliminations:
        assert sol[cell] != digit
    found = state.solutions(3)
    assert [s.tolist() for s in found] == [sol]


# --------------------------------------------------------------- 2. removable clues
def test_removable_clues_with_a_solution_checks_uniqueness() -> None:
    first, second = _independent_solutions(TWO)
    assert check_solution(first, _cells(TWO)) and check_solution(second, _cells(TWO))
    grid = "".join(map(str, first))
    with cs.Checker() as chk:
        with pytest.raises(NotUniqueError, match="several solutions"):
            chk.removable_clues("." * 81, grid)
        with pytest.raises(NotUniqueError, match="several solutions"):
            chk.removable_clues(TWO, grid)
        (sol,) = _independent_solutions(ONE)
        with_solution = chk.removable_clues(ONE, "".join(map(str, sol)))
        assert with_solution.tolist() == chk.removable_clues(ONE).tolist()


# --------------------------------------------------------------- 3. geometry names
@pytest.mark.parametrize(
    ("size", "rows", "cols"), [(6, 3, 2), (8, 4, 2), (12, 4, 3), (10, 5, 2), (7, 7, 1)]
)
def test_box_shapes_have_names_read_back(size: int, rows: int, cols: int) -> None:
    g = Geometry.standard(size, rows, cols)
    assert g.name == f"{size}x{size}-{rows}x{cols}"
    assert Geometry.named(g.name) == g
    assert record_geometry(geometry_fields(g), None) == g
    # the boxes are what the name says: R rows of C columns
    first_box = sorted(r * size + c for r in range(rows) for c in range(cols))
    assert sorted(g.units[2 * size].tolist()) == first_box


def test_default_box_shapes_keep_their_names() -> None:
    six = Geometry.standard(6)
    assert six.name == "6x6" and repr(six) == "Geometry('6x6')"
    assert Geometry.standard(6, 2, 3) is six
    assert Geometry.named("6x6") is six
    other = Geometry.standard(6, 3, 2)
    assert other != six and repr(other) != repr(six)
    assert Geometry.named("x-9x9") == Geometry.x_sudoku(9)
    for bad in ("x-9x9-3x3", "jigsaw-6x6-3x2", "6x6-3x3"):
        with pytest.raises(GeometryError):
            Geometry.named(bad, None)


# --------------------------------------------------------------- 4. rate_many's seed
@pytest.mark.parametrize("seed", ["x", float("nan"), np.random.default_rng(1), 1.5, "7", -1, True])
def test_rate_many_checks_its_seed(seed: Any) -> None:
    with pytest.raises(MetricError, match="seed must be"):
        cs.rate_many([ONE], "oracle", runs=2, seed=seed)
    with pytest.raises(MetricError, match="seed must be"):
        cs.rate(ONE, "oracle", runs=2, seed=seed)


def test_rate_many_takes_a_numpy_seed() -> None:
    (a,) = cs.rate_many([ONE], "oracle", runs=2, seed=np.int64(5))
    (b,) = cs.rate_many([ONE], "oracle", runs=2, seed=5)
    assert a.seed == b.seed == 5 and a.score == b.score


# --------------------------------------------------------------- 5. raw exceptions
@pytest.mark.parametrize(
    "make",
    [
        lambda: Geometry.standard([9]),  # type: ignore[arg-type]
        lambda: Geometry.standard(9, [3], 3),  # type: ignore[arg-type]
        lambda: Geometry.x_sudoku([9]),  # type: ignore[arg-type]
        lambda: Geometry.jigsaw([[0, 0], [1]]),
        lambda: Geometry.jigsaw([object()] * 4),  # type: ignore[list-item]
        lambda: Geometry.jigsaw([None] * 4),  # type: ignore[list-item]
    ],
)
def test_bad_shapes_are_geometry_errors(make: Any) -> None:
    with pytest.raises(GeometryError):
        make()


def test_a_jigsaw_still_takes_string_labels() -> None:
    assert Geometry.jigsaw(["a", "a", "b", "b"]) == Geometry.jigsaw([0, 0, 1, 1])


@pytest.mark.parametrize(
    "options",
    [
        {"level": 3},
        {"level": 3.0},
        {"level": b"hard"},
        {"level": ["hard", 3]},
        {"level": "hard", "climb_steps": float("nan")},
        {"level": "hard", "climb_steps": 2.5},
        {"level": "hard", "climb_patience": "3"},
        {"level": "hard", "max_per_grid": 1.5},
    ],
)
def test_generate_refuses_arguments_of_the_wrong_kind(options: dict[str, Any]) -> None:
    with pytest.raises(ArgumentError):
        next(cs.generate(1, seed=1, **options))


def test_generate_still_takes_levels_as_names() -> None:
    with pytest.raises(cs.SudokuError) as info:  # a known level, checked then searched
        next(cs.generate(1, seed=1, level=("hard",), attempts=1, climb_steps=0))
    assert not isinstance(info.value, ArgumentError)


# --------------------------------------------------------------- 6. solve_path options
@pytest.mark.parametrize("puzzle", [HARD, EASY])
@pytest.mark.parametrize(
    ("options", "error", "named"),
    [
        ({"chains": 5}, ArgumentError, "chains"),
        ({"max_steps": -1}, ArgumentError, "max_steps"),
        ({"max_steps": math.nan}, ArgumentError, "max_steps"),
        ({"max_steps": 2.5}, ArgumentError, "max_steps"),
        ({"solution": "zz"}, ParseError, "^solution:"),  # a grid that cannot be read
        ({"solution": 5}, ParseError, "^solution:"),
        ({"solution": "1" * 81}, ArgumentError, "^solution:"),  # not the puzzle's
        ({"max_subset": "2"}, ArgumentError, "max_subset"),
        ({"nope": 1}, ArgumentError, "nope"),
    ],
)
def test_solve_path_checks_its_options(
    puzzle: str, options: dict[str, Any], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=named):
        cs.solve_path(puzzle, order="subsets", **options)


def test_solve_path_leaves_internal_type_errors_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A TypeError from inside the path is a bug, not a bad argument: it was
    relabelled as an ArgumentError."""
    from csp_sudoku.human import path

    def broken(ctx: Any) -> list[Any]:
        raise TypeError("a bug inside")

    monkeypatch.setitem(path.TECHNIQUE_STEPS, "singles", broken)
    with pytest.raises(TypeError, match="a bug inside"):
        cs.solve_path(ONE, order="subsets")


def test_solve_path_still_takes_good_options() -> None:
    (sol,) = _independent_solutions(ONE)
    path = cs.solve_path(
        ONE, order="subsets", max_steps=np.int64(3), solution="".join(map(str, sol))
    )
    assert len(path.steps) == 3 and path.stopped == "max_steps"
