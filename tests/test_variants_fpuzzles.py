"""The f-puzzles reader and writer: round trips, links, and bad input as errors naming the field."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_sudoku.constraints import (
    KINDS,
    VariantPuzzle,
    from_fpuzzles,
    link,
    parse_fpuzzles,
    to_fpuzzles,
)
from csp_sudoku.core.errors import ParseError, SudokuError
from tests.test_variants import CASES


def empty(size: int = 9) -> dict[str, Any]:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)]}


def test_every_case_round_trips_through_json_and_a_link() -> None:
    for _, data in CASES:
        p = from_fpuzzles(data)
        assert parse_fpuzzles(json.dumps(to_fpuzzles(p))) == p
        assert parse_fpuzzles(link(p)) == p


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"killercage": [{"cells": ["R1C1", "R10C1"], "value": "5"}]}, "killercage[0]: cell R10C1"),
        (
            {"killercage": [{"cells": ["R1C1", "R1C1"]}]},
            "killercage[0]: cells: cell R1C1 comes twice",
        ),
        (
            {"killercage": [{"cells": ["R1C1"]}, {"cells": ["R1C2", "R1C3"], "value": "2"}]},
            "killercage[1]: no 2 distinct digits",
        ),
        (
            {"thermometer": [{"lines": [["R1C1", "R1C2", "R1C1"]]}]},
            "thermometer[0]: lines[0]: cell R1C1 comes twice",
        ),
        (
            {"arrow": [{"cells": ["R1C1"], "lines": [["R2C2", "R3C3"]]}]},
            "arrow[0]: lines[0] starts at R2C2, not in its circle",
        ),
        ({"sudoku": True}, "unknown field 'sudoku'"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "Y"}]}, "xv[0]: value"),
        ({"negative": ["kropki"]}, "negative[0]"),
        ({"antiknight": "yes"}, "antiknight: true or false"),
        (
            {"ratio": [{"cells": ["R1C1", "R3C1"]}]},
            "ratio[0]: cells R1C1 and R3C1 are not side by side",
        ),
        # values no two digits keep: parsed, then answered 'none' by every check
        (
            {"difference": [{"cells": ["R1C1", "R1C2"], "value": "-3"}]},
            "difference[0]: value -3: no two different digits of 1-9 keep",
        ),
        (
            {"difference": [{"cells": ["R1C1", "R1C2"], "value": "9"}]},
            "difference[0]: value 9: no two different digits",
        ),
        ({"ratio": [{"cells": ["R1C1", "R1C2"], "value": "1"}]}, "ratio[0]: value 1: no two"),
        ({"ratio": [{"cells": ["R1C1", "R1C2"], "value": "0"}]}, "ratio[0]: value 0: no two"),
    ],
)
def test_bad_input_names_the_field_and_the_entry(change: dict[str, Any], words: str) -> None:
    data = {**empty(), **change}
    with pytest.raises(ParseError, match=words.replace("[", r"\[").replace("]", r"\]")):
        from_fpuzzles(data)


def test_malformed_json_and_links_are_parse_errors() -> None:
    for text in ('{"size": 9,', "https://www.f-puzzles.com/?load=!!!", "nothing", "{}"):
        with pytest.raises(ParseError):
            parse_fpuzzles(text)


def test_an_unknown_cell_field_is_named() -> None:
    data = empty()
    data["grid"][2][3] = {"value": 5, "given": True, "c": "#ff0000"}
    with pytest.raises(ParseError, match=r"grid\[2\]\[3\]: unknown field 'c'"):
        from_fpuzzles(data)


def test_a_jigsaw_grid_round_trips() -> None:
    data = empty(6)
    # swap two cells between the first two regions of 6x6 (2x3 boxes)
    data["grid"][1][2] = {"region": 1}
    data["grid"][0][3] = {"region": 0}
    p = from_fpuzzles(data)
    assert p.geometry.regions is not None
    assert from_fpuzzles(to_fpuzzles(p)) == p


def test_a_puzzle_built_in_python_validates_its_constraints() -> None:
    from csp_sudoku.constraints.killer import KillerCage
    from csp_sudoku.core.puzzle import Puzzle

    with pytest.raises(ParseError, match=r"constraints\[0\] \(killercage\)"):
        VariantPuzzle(Puzzle([0] * 81), (KillerCage(((0, 0), (9, 0)), 5),))


# ------------------------------------------------------------------- properties
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.randoms(use_true_random=False))
def test_a_shuffled_puzzle_round_trips(case: tuple[str, dict[str, Any]], rnd: Any) -> None:
    """Constraints in any order of kinds (each kind's own order kept) make the same puzzle."""
    _, data = case
    p = from_fpuzzles(data)
    blocks: dict[str, list[Any]] = {}
    for c in p.constraints:
        blocks.setdefault(c.kind, []).append(c)
    order = list(blocks)
    rnd.shuffle(order)
    q = VariantPuzzle(p.puzzle, tuple(c for kind in order for c in blocks[kind]))
    assert q == p
    assert from_fpuzzles(to_fpuzzles(q)) == p


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["cells", "value", "lines", "cell", "direction", "region", *KINDS, "R1C1", "R10C1", "X"]
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CASES), st.data())
def test_mangled_input_is_a_parse_error_or_a_puzzle(
    case: tuple[str, dict[str, Any]], data: st.DataObject
) -> None:
    """Any change to a good object reads as a puzzle or fails with a SudokuError, never a traceback."""
    obj = copy.deepcopy(case[1])
    for _ in range(data.draw(st.integers(1, 3))):
        keys = [k for k in obj if k != "size"] or ["grid"]
        key = data.draw(st.sampled_from(keys))
        target: Any = obj
        path = [key]
        # walk a little way into the field and replace what is there
        while isinstance(target.get(path[-1]) if isinstance(target, dict) else None, (list, dict)):
            inner = target[path[-1]]
            if not inner or data.draw(st.booleans()):
                break
            target = inner
            idx = data.draw(st.integers(0, len(inner) - 1)) if isinstance(inner, list) else None
            path.append(idx if idx is not None else data.draw(st.sampled_from(list(inner))))
        replacement = data.draw(JSON | FIELDS)
        if isinstance(target, dict) and data.draw(st.booleans()):
            target[data.draw(FIELDS | st.text(max_size=5))] = replacement
        else:
            target[path[-1]] = replacement
    try:
        p = from_fpuzzles(obj)
    except SudokuError:
        return
    assert from_fpuzzles(to_fpuzzles(p)) == p


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60) | st.binary(max_size=40).map(lambda b: b.hex()))
def test_any_text_is_a_parse_error_or_a_puzzle(text: str) -> None:
    with contextlib.suppress(SudokuError):
        parse_fpuzzles(text)
