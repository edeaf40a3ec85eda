"""Constraints built in Python are checked as the f-puzzles reader checks an entry.

A constraint built with the Python API, and the :class:`VariantPuzzle` holding
it, took any value: an empty cage, a float sum, a string, None. The ``fast``,
``sat`` and ``cpsat`` backends then disagreed (an empty cage of sum 0 counted
0, 288, 288 on an empty 4x4) or raised TypeError, IndexError, ValueError. Each
such value is now a :class:`ParseError` naming the constraint, the field and
why, and a bad argument of the puzzle an :class:`ArgumentError`. A list of
lists of cells is taken as the tuples the reader makes. A little killer's clue
is where f-puzzles puts it: one step before the diagonal's first cell, against
its direction, outside the grid.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku import variants
from csp_sudoku.constraints import VariantPuzzle, from_fpuzzles, to_fpuzzles
from csp_sudoku.constraints.arrow import Arrow
from csp_sudoku.constraints.base import Constraint
from csp_sudoku.constraints.difference import WhiteDot
from csp_sudoku.constraints.killer import KillerCage
from csp_sudoku.constraints.little_killer import LittleKiller
from csp_sudoku.constraints.odd import OddCell
from csp_sudoku.constraints.region_sum import RegionSumLine
from csp_sudoku.constraints.sandwich import Sandwich
from csp_sudoku.constraints.thermometer import Thermometer
from csp_sudoku.constraints.whispers import Whispers
from csp_sudoku.core.errors import ArgumentError, ParseError, SudokuError

BACKENDS = ("fast", "sat", "cpsat")
EMPTY = cs.Puzzle(np.zeros(16, dtype=np.int8))
LINE = ((0, 0), (0, 1))

#: (label, how to build the constraint, a fragment of the error's message)
BAD: list[tuple[str, Callable[[], Constraint], str]] = [
    ("empty cage", lambda: KillerCage((), 0), r"killercage\): cells: a cage of no cells"),
    (
        "float little killer",
        lambda: LittleKiller(((0, 0), (1, 1)), 4.5),
        r"total: .* not float 4.5",
    ),
    ("float sandwich", lambda: Sandwich(False, 0, 2.5), r"sandwichsum\): total: .* not float 2.5"),
    ("empty stretch", lambda: RegionSumLine(((), ((0, 0),))), r"parts\[0\]: a stretch of no cells"),
    ("no stretches", lambda: RegionSumLine(()), r"parts: a region-sum line of no cells"),
    ("float whispers", lambda: Whispers(LINE, 1.5), r"difference: .* not float 1.5"),
    ("string cage sum", lambda: KillerCage(LINE, "5"), r"total: a whole number .* not str '5'"),
    ("integral float cage sum", lambda: KillerCage(LINE, 3.0), r"total: .* not float 3.0"),
    ("bool cage sum", lambda: KillerCage(LINE, True), r"total: .* not bool True"),
    (
        "no cage cells",
        lambda: KillerCage(None, 5),
        r"cells: a tuple \(or list\) of cells .* not None",
    ),
    ("string sandwich index", lambda: Sandwich(False, "1", 0), r"index: .* not str '1'"),
    ("no sandwich sum", lambda: Sandwich(False, 1, None), r"total: .* not None"),
    ("int for a bool", lambda: Sandwich(1, 1, 0), r"column: True or False .* not int 1"),
    ("string whispers", lambda: Whispers(LINE, "2"), r"difference: .* not str '2'"),
    (
        "no odd cell",
        lambda: OddCell(None),
        r"odd\): cell: None is not a cell; a cell is a \(row, column\)",
    ),
    ("three numbers", lambda: OddCell((0, 0, 0)), r"cell: \(0, 0, 0\) is not a cell"),
    (
        "cell names",
        lambda: Thermometer(("R1C1", "R1C2")),
        r"cells\[0\]: 'R1C1' is not a cell; a cell is a \(row, column\) pair of 0-based",
    ),
    ("no arrow circle", lambda: Arrow(None, (((0, 1),),)), r"arrow\): circle: .* not None"),
    (
        "bool in a cell",
        lambda: KillerCage(((0, 0), (0, True)), 3),
        r"cells\[1\]: \(0, True\) is not a cell",
    ),
    ("string dot value", lambda: WhiteDot((0, 0), (0, 1), "1"), r"value: .* not str '1'"),
    (
        "killer clue inside",
        lambda: LittleKiller(((1, 1), (2, 2)), 5),
        r"R1C1, one step before R2C2 .* is inside the grid",
    ),
    (
        "against the direction",
        lambda: LittleKiller(((0, 0), (1, 1)), 5, direction="UL"),
        r"go against the direction UL",
    ),
    (
        "clue elsewhere",
        lambda: LittleKiller(((0, 0), (1, 1)), 5, clue="R9C9"),
        r"cell 'R9C9': .* is at R0C0",
    ),
]


@pytest.mark.parametrize(("make", "fragment"), [(m, f) for _, m, f in BAD], ids=[b[0] for b in BAD])
def test_a_bad_value_is_refused_when_the_puzzle_is_built(
    make: Callable[[], Constraint], fragment: str
) -> None:
    with pytest.raises(ParseError, match=r"constraints\[0\] \(") as err:
        VariantPuzzle(EMPTY, (make(),))
    assert err.match(fragment)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("1234", ()), r"puzzle: a Puzzle was expected .* not str '1234'"),
        ((EMPTY, None), r"constraints: a tuple \(or list\) of constraints .* not None"),
        ((EMPTY, KillerCage(LINE, 3)), r"constraints: .* not KillerCage"),
        ((EMPTY, (), 5), r"title: a string was expected, not int 5"),
    ],
)
def test_a_bad_argument_of_the_puzzle_is_an_argument_error(args: Any, fragment: str) -> None:
    with pytest.raises(ArgumentError, match=fragment):
        VariantPuzzle(*args)


@pytest.mark.parametrize("grid", [None, [[1, 2], [3]], [1.5] * 16, ["a"] * 16, {}])
def test_keeps_refuses_what_is_no_grid(grid: Any) -> None:
    with pytest.raises(ArgumentError, match="grid: a Puzzle, a line of digits"):
        VariantPuzzle(EMPTY, ()).keeps(grid)


def test_keeps_answers_false_for_digits_no_cell_holds() -> None:
    assert not VariantPuzzle(EMPTY, ()).keeps(list(range(16)))


def _counts(constraints: tuple[Constraint, ...]) -> list[int]:
    p = VariantPuzzle(EMPTY, constraints)
    return [variants.count(p, 500, backend=b) for b in BACKENDS]


#: (built from lists, numpy integers; the same built from tuples)
GOOD: list[tuple[Callable[[], Constraint], Constraint]] = [
    (lambda: KillerCage([[0, 0], [0, 1]], 5), KillerCage(LINE, 5)),
    (lambda: KillerCage([[0, 0], [1, 0]], np.int64(4)), KillerCage(((0, 0), (1, 0)), 4)),
    (lambda: Thermometer([[0, 0], [0, 1], [0, 2]]), Thermometer(((0, 0), (0, 1), (0, 2)))),
    (
        lambda: LittleKiller([[0, 0], [1, 1], [2, 2], [3, 3]], 10, "R0C0"),
        LittleKiller(((0, 0), (1, 1), (2, 2), (3, 3)), 10, "R0C0"),
    ),
    (
        lambda: LittleKiller([[3, 1], [2, 0]], 5, direction="UL"),
        LittleKiller(((3, 1), (2, 0)), 5, direction="UL"),
    ),
    (
        lambda: RegionSumLine([[[0, 0], [0, 1]], [[0, 2], [0, 3]]]),
        RegionSumLine((LINE, ((0, 2), (0, 3)))),
    ),
    (lambda: Arrow([[0, 0]], [[[1, 1], [2, 2]]]), Arrow(((0, 0),), (((1, 1), (2, 2)),))),
    (lambda: Sandwich(np.bool_(True), np.int64(1), 2), Sandwich(True, 1, 2)),
    (lambda: Whispers([[0, 0], [1, 0]], 2), Whispers(((0, 0), (1, 0)), 2)),
]


@pytest.mark.parametrize(("make", "same"), GOOD, ids=[type(s).__name__ for _, s in GOOD])
def test_lists_are_taken_as_tuples_and_the_backends_agree(
    make: Callable[[], Constraint], same: Constraint
) -> None:
    built = make()
    assert built == same and hash(built) == hash(same)
    counts = _counts((built,))
    assert counts == _counts((same,))
    assert len(set(counts)) == 1, counts


def _little_killer(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "littlekillersum": [entry],
    }


@pytest.mark.parametrize(
    "entry",
    [
        {
            "cells": ["R1C1", "R2C2", "R3C3", "R4C4"],
            "value": "10",
            "cell": "R0C0",
            "direction": "DR",
        },
        {"cells": ["R1C2", "R2C3", "R3C4"], "value": "6", "cell": "R0C1", "direction": "DR"},
        {"cells": ["R4C2", "R3C1"], "value": "5", "cell": "R5C3", "direction": "UL"},
        {"cells": ["R3C1", "R2C2", "R1C3"], "value": "6", "cell": "R4C0", "direction": "UR"},
        {
            "cells": ["R1C4", "R2C3", "R3C2", "R4C1"],
            "value": "10",
            "cell": "R0C5",
            "direction": "DL",
        },
        {"cells": ["R4C2", "R3C1"], "value": "5", "direction": "UL"},  # no clue cell: its place
    ],
)
def test_a_little_killer_clue_where_f_puzzles_puts_it_is_read(entry: dict[str, Any]) -> None:
    (c,) = from_fpuzzles(_little_killer(entry)).constraints
    assert isinstance(c, LittleKiller)


@pytest.mark.parametrize(
    ("entry", "fragment"),
    [
        (
            {
                "cells": ["R1C1", "R2C2"],
                "value": "5",
                "cell": "R99999999C99999999",
                "direction": "DR",
            },
            r"littlekillersum\[0\]: cell 'R99999999C99999999': .* is at R0C0",
        ),
        (
            {"cells": ["R1C1", "R2C2"], "value": "5", "cell": "R0C2", "direction": "DR"},
            r"cell 'R0C2'",
        ),
        (
            {"cells": ["R1C1", "R2C2"], "value": "5", "cell": "R3C3", "direction": "UL"},
            r"go against the direction UL",
        ),
        (
            {"cells": ["R2C2", "R3C3"], "value": "5", "cell": "R1C1", "direction": "DR"},
            r"is inside the grid",
        ),
        ({"cells": ["R2C2", "R3C3"], "value": "5", "direction": "DR"}, r"is inside the grid"),
    ],
)
def test_a_little_killer_clue_anywhere_else_is_refused(
    entry: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(ParseError, match=fragment):
        from_fpuzzles(_little_killer(entry))


def test_the_reader_keeps_a_clue_as_written() -> None:
    entry = {
        "cells": ["R1C1", "R2C2", "R3C3", "R4C4"],
        "value": "10",
        "cell": "R0C0",
        "direction": "DR",
    }
    p = from_fpuzzles(_little_killer(copy.deepcopy(entry)))
    assert to_fpuzzles(p)["littlekillersum"] == [entry]


# ---------------------------------------------------------------------- garbage
CELLS = st.lists(st.tuples(st.integers(-1, 4), st.integers(-1, 4)), max_size=4)
GARBAGE = st.one_of(
    st.none(),
    st.text(max_size=6),
    st.floats(),
    st.booleans(),
    st.integers(-3, 12),
    CELLS,
    CELLS.map(tuple),
    st.lists(CELLS, max_size=3),
    st.lists(
        st.one_of(st.none(), st.text(max_size=3), st.integers(-1, 4), st.floats()), max_size=3
    ),
)
#: Values of each field's type, so that some constructions are puzzles.
CELL = st.tuples(st.integers(0, 3), st.integers(0, 3))
IN_GRID = st.lists(CELL, min_size=1, max_size=4, unique=True)
DIAGONALS = st.sampled_from([[(0, 0), (1, 1), (2, 2), (3, 3)], [(3, 0), (2, 1)], [(0, 2), (1, 1)]])
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "cells": IN_GRID,
    "cell": CELL,
    "diagonal": DIAGONALS,
    "number": st.integers(0, 12),
    "bool": st.booleans(),
    "lines": st.lists(IN_GRID, min_size=1, max_size=2),
}
#: Each constructor and what its arguments are.
MAKERS: dict[str, tuple[Callable[..., Constraint], tuple[str, ...]]] = {
    "killer": (KillerCage, ("cells", "number")),
    "little killer": (LittleKiller, ("diagonal", "number")),
    "sandwich": (Sandwich, ("bool", "number", "number")),
    "whispers": (Whispers, ("cells", "number")),
    "odd": (OddCell, ("cell",)),
    "thermometer": (Thermometer, ("cells",)),
    "arrow": (Arrow, ("cells", "lines")),
    "region sum": (RegionSumLine, ("lines",)),
    "white dot": (WhiteDot, ("cell", "cell", "number")),
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(MAKERS)), st.data())
def test_garbage_values_raise_only_sudoku_errors(name: str, data: st.DataObject) -> None:
    """Any values, fed to a constructor, build a puzzle the backends agree on, or are
    refused with a SudokuError (never TypeError, ValueError, IndexError)."""
    make, kinds = MAKERS[name]
    # each argument garbage one time in four: often all fit, and the puzzle is built
    args = [
        data.draw(GARBAGE if data.draw(st.integers(0, 3)) == 0 else PLAUSIBLE[kind])
        for kind in kinds
    ]
    try:
        p = VariantPuzzle(EMPTY, (make(*args),))
    except SudokuError:
        return
    counts = [variants.count(p, 50, backend=b) for b in BACKENDS]
    assert len(set(counts)) == 1, (p.constraints, counts)
