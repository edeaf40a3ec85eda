"""Drawing variant puzzles: every kind's marks at their places in the SVG, books, bad input.

The SVG is read back with ``xml.etree``: every mark a constraint draws is a
group whose id names the grid, the constraint and the mark
(``p0-v3-cage-0``), and the grid's frame is ``p0-frame``. The checks turn
SVG points into cells with their own geometry (the frame is the grid's
``N x N`` square) and hold each mark against the constraint's cells: a
cage's dashed outline lies inside its cells and runs along every side they
show outside, a dot sits on the edge between its two cells, a thermometer's
bulb on its first cell, a line passes through its cells' centres in order.
Nothing here calls the drawing code's geometry. Solution pages are read back
digit by digit and held against the rules by ``tests/independent_variants.py``.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")

import itertools

from csp_sudoku.cli import main
from csp_sudoku.constraints import KINDS, Constraint, VariantPuzzle, from_fpuzzles
from csp_sudoku.tools.render import render_puzzle
from tests.independent_variants import broken_rules

SVG = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]
Cell = tuple[int, int]


def _empty(n: int = 9) -> list[list[dict[str, Any]]]:
    return [[{} for _ in range(n)] for _ in range(n)]


#: One puzzle with every kind (not a puzzle to solve: a sheet of every mark).
EVERY_KIND: dict[str, Any] = {
    "size": 9,
    "grid": _empty(),
    "killercage": [
        {"cells": ["R1C2", "R1C3", "R2C2"], "value": "15"},  # an L: an inner corner
        {"cells": ["R4C4", "R4C5", "R5C4"]},  # no sum
        # a ring round R8C8: an outline with a hole
        {"cells": ["R7C7", "R7C8", "R7C9", "R8C7", "R8C9", "R9C7", "R9C8", "R9C9"], "value": "40"},
    ],
    "thermometer": [{"lines": [["R3C1", "R4C1", "R4C2", "R5C3"]]}],
    "slowthermometer": [{"lines": [["R2C5", "R2C6", "R2C7"]]}],
    "arrow": [
        {"cells": ["R6C1"], "lines": [["R6C1", "R7C2", "R8C2", "R9C2"]]},
        {"cells": ["R5C5", "R5C6"], "lines": [["R5C6", "R6C7", "R6C8"]]},
        {"cells": ["R1C9", "R2C9"], "lines": [["R2C9", "R3C9", "R4C9"], ["R1C9", "R1C8"]]},
    ],
    "difference": [{"cells": ["R1C7", "R2C7"]}, {"cells": ["R8C1", "R8C2"], "value": "3"}],
    "ratio": [{"cells": ["R2C8", "R3C8"]}],
    "xv": [{"cells": ["R3C7", "R3C8"], "value": "X"}, {"cells": ["R4C7", "R4C8"], "value": "V"}],
    "negative": ["difference", "ratio", "xv"],
    "odd": [{"cell": "R9C4"}],
    "even": [{"cell": "R9C5"}],
    "antiknight": True,
    "antiking": True,
    "nonconsecutive": True,
    "diagonal+": True,
    "diagonal-": True,
    "littlekillersum": [
        {
            "cells": ["R1C4", "R2C5", "R3C6", "R4C7", "R5C8", "R6C9"],
            "value": "30",
            "cell": "R0C3",
            "direction": "DR",
        },
        {"cells": ["R9C3", "R8C2", "R7C1"], "value": "9", "direction": "UL"},
    ],
    "sandwichsum": [{"cell": "R4C0", "value": "20"}, {"cell": "R0C7", "value": "5"}],
    "palindrome": [{"lines": [["R8C4", "R8C5", "R8C6"]]}],
    "renban": [{"lines": [["R4C4", "R4C5", "R4C6"]]}],
    "whispers": [{"lines": [["R6C4", "R7C4", "R7C5", "R7C6"]]}],
    "betweenline": [{"lines": [["R3C3", "R3C4", "R3C5"]]}],
    "regionsumline": [{"lines": [["R5C8", "R5C9", "R4C9", "R4C8"]]}],
    "disjointgroups": True,
    "extraregion": [{"cells": ["R1C5", "R1C6"]}],
}


# ---------------------------------------------------------------- reading the SVG
@dataclass
class Mark:
    """One mark of a constraint, in cells (x the column, y the row, the grid from 0 to N)."""

    role: str
    paths: list[tuple[list[Point], dict[str, str]]] = field(default_factory=list)
    text: str | None = None
    anchor: Point | None = None  # where the text's first letter sits (left end of its baseline)


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
_MARK = re.compile(r"p(\d+)-v(\d+)-([a-z]+)-(\d+)")


def _numbers(text: str) -> list[float]:
    return [float(x) for x in _NUMBER.findall(text)]


def _style(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            out[key.strip()] = value.strip()
    return out


def _root(path: Path) -> ET.Element:
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    return ET.parse(path, parser).getroot()


def _frame(root: ET.Element, grid: int) -> tuple[float, float, float]:
    """``(x0, y0, cell)``: the grid's top-left corner and a cell's side, in SVG units."""
    group = root.find(f".//{SVG}g[@id='p{grid}-frame']")
    assert group is not None, "no frame"
    xs, ys = [], []
    for p in group.iter(f"{SVG}path"):
        nums = _numbers(p.get("d", ""))
        xs += nums[0::2]
        ys += nums[1::2]
    assert max(xs) - min(xs) == pytest.approx(max(ys) - min(ys), rel=1e-6)  # a square
    return min(xs), min(ys), max(xs) - min(xs)


def _anchor(group: ET.Element) -> Point | None:
    for g in group.iter(f"{SVG}g"):
        t = g.get("transform", "")
        if t.startswith("translate("):
            x, y = _numbers(t)[:2]
            return x, y
    return None


def _comment(group: ET.Element) -> str | None:
    for node in group.iter():
        if node.tag is ET.Comment:
            return (node.text or "").strip()
    return None


def read_marks(path: Path, n: int, grid: int = 0) -> tuple[dict[int, list[Mark]], float]:
    """The marks of grid ``grid`` of an SVG page by constraint index, and a cell's side in SVG units."""
    root = _root(path)
    x0, y0, side = _frame(root, grid)
    cell = side / n

    def to_cells(x: float, y: float) -> Point:
        return (x - x0) / cell, (y - y0) / cell

    marks: dict[int, list[Mark]] = defaultdict(list)
    for g in root.iter(f"{SVG}g"):
        m = _MARK.fullmatch(g.get("id", ""))
        if not m or int(m.group(1)) != grid:
            continue
        mark = Mark(m.group(3))
        for p in g.iter(f"{SVG}path"):
            nums = _numbers(p.get("d", ""))
            pts = [to_cells(x, y) for x, y in zip(nums[0::2], nums[1::2], strict=True)]
            mark.paths.append((pts, _style(p.get("style", ""))))
        mark.text = _comment(g)
        anchor = _anchor(g)
        mark.anchor = to_cells(*anchor) if anchor else None
        marks[int(m.group(2))].append(mark)
    return marks, cell


# ---------------------------------------------------------------- the test's own geometry
def centre(cell: Cell) -> Point:
    return cell[1] + 0.5, cell[0] + 0.5


def near(p: Point, q: Point, eps: float) -> bool:
    return math.dist(p, q) <= eps


def bbox(points: list[Point]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def box_centre(points: list[Point]) -> Point:
    x0, y0, x1, y1 = bbox(points)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _along(p: Point, pts: list[Point]) -> tuple[float, float]:
    """The distance from ``p`` to the polyline ``pts`` and the arc length where it is nearest."""
    best, where, walked = math.inf, 0.0, 0.0
    for a, b in itertools.pairwise(pts):
        seg = math.dist(a, b)
        t = 0.0
        if seg:
            t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / seg**2
            t = min(1.0, max(0.0, t))
        q = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        if math.dist(p, q) < best:
            best, where = math.dist(p, q), walked + t * seg
        walked += seg
    return best, where


def through_in_order(pts: list[Point], cells: list[Cell], eps: float = 0.03) -> bool:
    """Whether the polyline passes every cell's centre, in the cells' order."""
    last = -1e-9
    for cell in cells:
        d, where = _along(centre(cell), pts)
        if d > eps or where < last:
            return False
        last = where
    return True


def circle_at(pts: list[Point], at: Point, eps: float = 0.03) -> float:
    """The circle's diameter, once its points are centred at ``at`` (a round shape)."""
    x0, y0, x1, y1 = bbox(pts)
    assert near(box_centre(pts), at, eps), (box_centre(pts), at)
    assert x1 - x0 == pytest.approx(y1 - y0, abs=0.02)
    return x1 - x0


def fill(style: dict[str, str]) -> str:
    """The fill of an SVG shape (black, SVG's default, when the style leaves it out)."""
    return style.get("fill", "#000000")


def width(style: dict[str, str], cell: float) -> float:
    return float(style.get("stroke-width", "1").replace("px", "")) / cell


def hue(colour: str) -> str:
    """grey, green, purple or blue (the conventional colours of the lines)."""
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    if max(r, g, b) - min(r, g, b) < 16:
        return "grey"
    if g > r and g > b:
        return "green"
    if r > g and b > g:
        return "purple"
    return "blue" if b > r and b >= g else "other"


def lines(marks: list[Mark], role: str = "line") -> list[tuple[list[Point], dict[str, str]]]:
    return [p for m in marks if m.role == role for p in m.paths]


def _cell_name(text: str) -> Cell:
    m = re.fullmatch(r"R(-?\d+)C(-?\d+)", text)
    assert m
    return int(m.group(1)) - 1, int(m.group(2)) - 1


# ---------------------------------------------------------------- a check for every kind
Check = Callable[[Constraint, list[Mark], float], None]


def _cage(c: Any, marks: list[Mark], cell: float) -> None:
    cells = set(c.cells)
    outline = lines(marks, "cage")
    assert outline and all("stroke-dasharray" in style for _, style in outline)
    pts = [p for path, _ in outline for p in path]
    for x, y in pts:  # inside the cage, off its border: every cell within 0.03 is the cage's
        for dx in (-0.03, 0.03):
            for dy in (-0.03, 0.03):
                assert (math.floor(y + dy), math.floor(x + dx)) in cells, ((x, y), sorted(cells))
    segments = [(a, b) for path, _ in outline for a, b in itertools.pairwise(path)]
    for r, col in cells:  # every side the cage shows outside has the outline running along it
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if (r + dr, col + dc) in cells:
                continue
            mid = (col + 0.5 + dc * 0.5, r + 0.5 + dr * 0.5)  # the side's middle
            assert any(
                _along(mid, [a, b])[0] < 0.2
                and (a[0] == pytest.approx(b[0]) if dc else a[1] == pytest.approx(b[1]))
                for a, b in segments
            ), ((r, col), (dr, dc))
    texts = [m for m in marks if m.text]
    if c.total is None:
        assert not texts
        return
    (label,) = texts
    assert label.text == str(c.total) and label.anchor is not None
    r, col = min(cells)
    x, y = label.anchor
    assert col <= x < col + 0.5 and r <= y < r + 0.5  # the top-left corner of its first cell


def _thermo(c: Any, marks: list[Mark], cell: float) -> None:
    bulbs = lines(marks, "circle")
    assert circle_at(bulbs[0][0], centre(c.cells[0])) > 0.6
    assert fill(bulbs[0][1]) not in ("none", "#ffffff")
    tube, style = lines(marks)[0]
    assert through_in_order(tube, list(c.cells)) and width(style, cell) >= 0.2
    assert hue(style["stroke"]) == "grey"


def _slow_thermo(c: Any, marks: list[Mark], cell: float) -> None:
    _thermo(c, marks, cell)
    inner = [p for p, style in lines(marks) if style["stroke"] == "#ffffff"]
    assert inner and through_in_order(inner[0], list(c.cells))  # hollow: a white inside


def _arrow(c: Any, marks: list[Mark], cell: float) -> None:
    (circle,) = lines(marks, "circle")
    x0, y0, x1, y1 = bbox(circle[0])
    for r, col in c.circle:  # the circle covers its cells' centres, and no more than them
        assert x0 < col + 0.5 < x1 and y0 < r + 0.5 < y1
    rows = [r for r, _ in c.circle]
    cols = [col for _, col in c.circle]
    assert min(cols) <= x0 and x1 <= max(cols) + 1 and min(rows) <= y0 and y1 <= max(rows) + 1
    shafts, heads = lines(marks), lines(marks, "head")
    assert len(shafts) == len(heads) == len(c.shafts)
    for shaft, (path, _), (head, _) in zip(c.shafts, shafts, heads, strict=True):
        start = next(
            x for x in c.circle if max(abs(x[0] - shaft[0][0]), abs(x[1] - shaft[0][1])) == 1
        )
        assert 0.3 <= math.dist(path[0], centre(start)) <= 0.5  # from the circle's edge
        assert through_in_order(path, list(shaft))
        tip = centre(shaft[-1])
        assert near(head[1], tip, 0.03)  # the arrowhead's point at the last cell
        back = path[-2]
        for wing in (head[0], head[2]):  # the wings trail back along the line
            assert math.dist(wing, back) < math.dist(tip, back)


def _dot(filled: bool) -> Check:
    def check(c: Any, marks: list[Mark], cell: float) -> None:
        (dot,) = lines(marks, "dot")
        size = circle_at(dot[0], ((centre(c.a)[0] + centre(c.b)[0]) / 2,
                                  (centre(c.a)[1] + centre(c.b)[1]) / 2))  # fmt: skip
        assert 0.12 < size < 0.4
        assert fill(dot[1]) == ("#000000" if filled else "#ffffff")
        labels = [m.text for m in marks if m.text]
        assert labels == ([] if c.value == c.default else [str(c.value)])

    return check


def _xv(c: Any, marks: list[Mark], cell: float) -> None:
    (letter,) = [m for m in marks if m.role == "letter"]
    assert letter.text == {10: "X", 5: "V"}[c.value] and letter.anchor is not None
    mid = ((centre(c.a)[0] + centre(c.b)[0]) / 2, (centre(c.a)[1] + centre(c.b)[1]) / 2)
    assert near(letter.anchor, mid, 0.3)


def _note(*words: str) -> Check:
    def check(c: Any, marks: list[Mark], cell: float) -> None:
        (note,) = marks
        assert note.role == "note" and note.text is not None and note.anchor is not None
        assert all(w in note.text.lower() for w in words), note.text
        assert note.anchor[1] > 9 and 0 <= note.anchor[0] <= 9  # under the grid

    return check


def _odd(c: Any, marks: list[Mark], cell: float) -> None:
    (circle,) = lines(marks, "circle")
    assert 0.5 < circle_at(circle[0], centre(c.cell)) < 1.0
    assert hue(fill(circle[1])) == "grey"


def _even(c: Any, marks: list[Mark], cell: float) -> None:
    (square,) = lines(marks, "square")
    corners = {(round(x, 3), round(y, 3)) for x, y in square[0]}
    assert len(corners) == 4 and near(box_centre(square[0]), centre(c.cell), 0.01)
    x0, y0, x1, y1 = bbox(square[0])
    assert 0.5 < x1 - x0 < 1.0 and x1 - x0 == pytest.approx(y1 - y0, abs=0.01)
    assert hue(fill(square[1])) == "grey"


def _diagonal(ends: set[Point]) -> Check:
    def check(c: Any, marks: list[Mark], cell: float) -> None:
        (path, _style) = lines(marks)[0]
        got = {(round(x, 2), round(y, 2)) for x, y in (path[0], path[-1])}
        assert got == ends

    return check


def _little_killer(c: Any, marks: list[Mark], cell: float) -> None:
    (clue,) = [m for m in marks if m.role == "clue"]
    step = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}[c.direction]
    first = c.cells[0]
    place = _cell_name(c.clue) if c.clue else (first[0] - step[0], first[1] - step[1])
    assert not (0 <= place[0] < 9 and 0 <= place[1] < 9)  # outside the grid
    assert clue.text == str(c.total) and clue.anchor is not None
    x, y = clue.anchor
    assert place[1] <= x <= place[1] + 1 and place[0] <= y <= place[0] + 1
    (head,) = lines(marks, "head")
    tip = head[0][1]
    home = centre(place)
    assert (tip[0] - home[0]) * step[1] > 0 and (tip[1] - home[1]) * step[0] > 0  # towards it


def _sandwich(c: Any, marks: list[Mark], cell: float) -> None:
    (clue,) = marks
    place = (-1, c.index) if c.column else (c.index, -1)
    assert clue.text == str(c.total) and clue.anchor is not None
    x, y = clue.anchor
    assert place[1] <= x <= place[1] + 1 and place[0] <= y <= place[0] + 1


def _line(colour: str, cells: Callable[[Any], list[Cell]] = lambda c: list(c.cells)) -> Check:
    def check(c: Any, marks: list[Mark], cell: float) -> None:
        path, style = lines(marks)[0]
        assert through_in_order(path, cells(c)) and hue(style["stroke"]) == colour
        assert width(style, cell) >= 0.05

    return check


def _between(c: Any, marks: list[Mark], cell: float) -> None:
    _line("grey")(c, marks, cell)
    ends = lines(marks, "circle")
    assert len(ends) == 2
    for (path, style), end in zip(ends, (c.cells[0], c.cells[-1]), strict=True):
        assert circle_at(path, centre(end)) > 0.6 and fill(style) == "#ffffff"


def _shaded(marks: list[Mark]) -> dict[Cell, str]:
    out = {}
    for path, style in lines(marks, "shade"):
        x0, y0, x1, y1 = bbox(path)
        assert x1 - x0 == pytest.approx(1, abs=0.01) and y1 - y0 == pytest.approx(1, abs=0.01)
        out[(round(y0), round(x0))] = fill(style)
    return out


def _disjoint(c: Any, marks: list[Mark], cell: float) -> None:
    shades = _shaded(marks)
    assert set(shades) == {(r, col) for r in range(9) for col in range(9)}
    by_place: dict[Cell, set[str]] = defaultdict(set)
    for (r, col), colour in shades.items():
        by_place[(r % 3, col % 3)].add(colour)
    assert all(len(v) == 1 for v in by_place.values())  # one colour per place in the box
    assert len({next(iter(v)) for v in by_place.values()}) == 9  # and each place its own


def _extra(c: Any, marks: list[Mark], cell: float) -> None:
    assert set(_shaded(marks)) == set(c.cells)


CHECKS: dict[str, Check] = {
    "killercage": _cage,
    "thermometer": _thermo,
    "slowthermometer": _slow_thermo,
    "arrow": _arrow,
    "difference": _dot(False),
    "ratio": _dot(True),
    "xv": _xv,
    "-difference": _note("white", "consecutive"),
    "-ratio": _note("black", "ratio"),
    "-xv": _note("x", "v", "10", "5"),
    "odd": _odd,
    "even": _even,
    "antiknight": _note("knight"),
    "antiking": _note("king"),
    "nonconsecutive": _note("consecutive"),
    "diagonal+": _diagonal({(0.0, 9.0), (9.0, 0.0)}),
    "diagonal-": _diagonal({(0.0, 0.0), (9.0, 9.0)}),
    "littlekillersum": _little_killer,
    "sandwichsum": _sandwich,
    "palindrome": _line("grey"),
    "renban": _line("purple"),
    "whispers": _line("green"),
    "betweenline": _between,
    "regionsumline": _line("blue", lambda c: list(c.footprint())),
    "disjointgroups": _disjoint,
    "extraregion": _extra,
}


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory: pytest.TempPathFactory) -> tuple[VariantPuzzle, Path]:
    puzzle = from_fpuzzles(EVERY_KIND)
    path = render_puzzle(puzzle, tmp_path_factory.mktemp("svg") / "every.svg")
    return puzzle, path


def test_every_kind_has_a_check_and_is_on_the_sheet() -> None:
    assert set(CHECKS) == set(KINDS)
    assert set(from_fpuzzles(EVERY_KIND).kinds()) == set(KINDS)


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_is_drawn_at_its_cells(every_kind: tuple[VariantPuzzle, Path], kind: str) -> None:
    puzzle, path = every_kind
    marks, cell = read_marks(path, 9)
    found = [(i, c) for i, c in enumerate(puzzle.constraints) if c.kind == kind]
    assert found
    for i, c in found:
        assert marks.get(i), f"constraint {i} ({kind}) drew nothing"
        CHECKS[kind](c, marks[i], cell)


def test_marks_belong_to_constraints_only(every_kind: tuple[VariantPuzzle, Path]) -> None:
    puzzle, path = every_kind
    marks, _ = read_marks(path, 9)
    assert set(marks) == set(range(len(puzzle.constraints)))


def test_notes_go_under_the_clues_below_the_grid(every_kind: tuple[VariantPuzzle, Path]) -> None:
    _, path = every_kind
    marks, _ = read_marks(path, 9)
    every = [m for ms in marks.values() for m in ms if m.anchor is not None]
    clues = [m.anchor[1] for m in every if m.role == "clue" and m.anchor]
    notes = sorted(m.anchor[1] for m in every if m.role == "note" and m.anchor)
    assert max(clues) > 9 and len(notes) == 6  # a clue under the grid; six rules
    assert notes[0] - 0.2 > max(clues)  # a note's letters start below the clue's baseline
    assert all(b - a > 0.2 for a, b in itertools.pairwise(notes))  # one line each


# ---------------------------------------------------------------- random shapes
def _polyomino(draw: st.DrawFn, n: int, most: int) -> list[Cell]:
    """Connected cells grown from a random cell (any shape: holes, inner corners)."""
    cells = [(draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)))]
    for _ in range(draw(st.integers(0, most - 1))):
        r, c = cells[draw(st.integers(0, len(cells) - 1))]
        dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
        nxt = (r + dr, c + dc)
        if 0 <= nxt[0] < n and 0 <= nxt[1] < n and nxt not in cells:
            cells.append(nxt)
    return cells


def _walk(draw: st.DrawFn, n: int, most: int) -> list[Cell]:
    """A path of distinct cells, each a king's move from the last."""
    cells = [(draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)))]
    for _ in range(draw(st.integers(1, most - 1))):
        r, c = cells[-1]
        steps = [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in cells
        ]
        if not steps:
            break
        cells.append(draw(st.sampled_from(steps)))
    return cells


def _name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


@st.composite
def random_sheets(draw: st.DrawFn) -> dict[str, Any]:
    """An f-puzzles object with random cages, lines and dots on a 6x6 or 9x9 grid."""
    n = draw(st.sampled_from([6, 9]))
    data: dict[str, Any] = {"size": n, "grid": _empty(n)}
    cages = []
    for _ in range(draw(st.integers(1, 3))):
        cells = _polyomino(draw, n, n)
        entry: dict[str, Any] = {"cells": [_name(c) for c in cells]}
        k = len(cells)
        if draw(st.booleans()):
            entry["value"] = str(draw(st.integers(k * (k + 1) // 2, k * (2 * n - k + 1) // 2)))
        cages.append(entry)
    data["killercage"] = cages
    for kind in ("thermometer", "whispers", "renban", "betweenline"):
        if draw(st.booleans()):
            data[kind] = [{"lines": [[_name(c) for c in _walk(draw, n, 6)]]}]
    r, c = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 2))
    data[draw(st.sampled_from(["difference", "ratio"]))] = [
        {"cells": [_name((r, c)), _name((r, c + 1))]}
    ]
    return data


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_sheets())
def test_random_shapes_are_drawn_at_their_cells(
    tmp_path_factory: Any, data: dict[str, Any]
) -> None:
    if any(len(e["lines"][0]) < 2 for k in ("whispers", "betweenline") for e in data.get(k, [])):
        data = {k: v for k, v in data.items() if k not in ("whispers", "betweenline")}
    puzzle = from_fpuzzles(data)
    n = data["size"]
    path = render_puzzle(puzzle, tmp_path_factory.mktemp("random") / "r.svg")
    marks, cell = read_marks(path, n)
    for i, c in enumerate(puzzle.constraints):
        if c.kind in ("-difference", "-ratio"):
            continue
        assert marks.get(i), c
        CHECKS[c.kind](c, marks[i], cell)


# ---------------------------------------------------------------- files and the command line
def _unique(seed: int, kinds: tuple[str, ...]) -> dict[str, Any]:
    from csp_sudoku.variants.random import random_variant

    data = random_variant(seed, kinds=kinds).data
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def unique_puzzles() -> list[dict[str, Any]]:
    return [
        _unique(1, ("killercage", "thermometer")),
        _unique(2, ("arrow", "xv", "littlekillersum")),
        _unique(3, ("renban", "odd", "even", "antiknight")),
    ]


def test_png_and_pdf_are_valid_files(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text(json.dumps(EVERY_KIND))
    assert main(["render", str(tmp_path / "p.json"), "-o", str(tmp_path / "p.png")]) == 0
    assert main(["render", str(tmp_path / "p.json"), "-o", str(tmp_path / "p.pdf")]) == 0
    from matplotlib.image import imread

    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = imread(tmp_path / "p.png")
    assert img.ndim == 3 and min(img.shape[:2]) > 300
    colours = img[..., :3].reshape(-1, 3)
    assert ((colours.max(axis=1) - colours.min(axis=1)) > 0.3).any()  # the coloured lines
    pdf = (tmp_path / "p.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")


def _digits(path: Path, grid: int, n: int = 9) -> list[list[int]]:
    """The digits drawn in grid ``grid`` of an SVG page (0 for an empty cell)."""
    root = _root(path)
    x0, y0, side = _frame(root, grid)
    cell = side / n
    rows = [[0] * n for _ in range(n)]
    for g in root.iter(f"{SVG}g"):
        if not re.fullmatch(r"text_\d+", g.get("id", "")):
            continue
        text, anchor = _comment(g), _anchor(g)
        if text is None or anchor is None or not re.fullmatch(r"[1-9]", text):
            continue
        x, y = (anchor[0] - x0) / cell, (anchor[1] - y0) / cell
        if 0 <= x < n and 0 <= y < n:
            assert rows[int(y)][int(x)] == 0
            rows[int(y)][int(x)] = int(text)
    return rows


def test_book_with_solution_pages(tmp_path: Path, unique_puzzles: list[dict[str, Any]]) -> None:
    book = tmp_path / "book.jsonl"
    book.write_text("".join(json.dumps(d) + "\n" for d in unique_puzzles))
    assert main(["render", str(book), "-o", str(tmp_path / "book.pdf"), "--solutions", "-q"]) == 0
    pdf = (tmp_path / "book.pdf").read_bytes()
    assert (
        pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type /Page>") == 2
    )
    out = tmp_path / "book.svg"
    assert main(["render", str(book), "-o", str(out), "--solutions", "--per-page", "3", "-q"]) == 0
    solutions = tmp_path / "book-2.svg"
    assert (tmp_path / "book-1.svg").is_file() and solutions.is_file()
    for k, data in enumerate(unique_puzzles):
        grid = _digits(solutions, k)
        assert broken_rules(data, grid) == []  # the independent checker
        for r, row in enumerate(data["grid"]):
            for c, entry in enumerate(row):
                if "value" in entry:
                    assert grid[r][c] == int(entry["value"])
        assert marks_of(tmp_path / "book-1.svg", k)  # the constraints on the puzzle page too


def marks_of(path: Path, grid: int) -> dict[int, list[Mark]]:
    return read_marks(path, 9, grid)[0]


def test_a_bad_puzzle_is_reported_and_the_others_drawn(
    tmp_path: Path, unique_puzzles: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    bad = dict(unique_puzzles[0], killercage=[{"cells": ["R1C1", "R10C1"], "value": "5"}])
    book = tmp_path / "mixed.jsonl"
    lines_ = [unique_puzzles[0], bad, unique_puzzles[1]]
    book.write_text("".join(json.dumps(d) + "\n" for d in lines_) + "{not json\n")
    out = tmp_path / "mixed.svg"
    assert main(["render", str(book), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{book}:2: killercage[0]: cell R10C1 is outside the 9x9 grid" in err
    assert f"{book}:4" in err and "Traceback" not in err
    root = _root(out)
    frames = {g.get("id") for g in root.iter(f"{SVG}g") if (g.get("id") or "").endswith("frame")}
    assert frames == {"p0-frame", "p1-frame"}


def test_solutions_of_a_puzzle_without_one_are_refused(
    tmp_path: Path, unique_puzzles: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    several = {"size": 9, "grid": _empty(), "antiking": True}
    book = tmp_path / "s.jsonl"
    book.write_text(json.dumps(several) + "\n" + json.dumps(unique_puzzles[2]) + "\n")
    assert main(["render", str(book), "-o", str(tmp_path / "s.pdf"), "--solutions"]) == 2
    assert f"{book}:1: the puzzle has more than one solution" in capsys.readouterr().err
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["{missing}.json"], "no such file"),
        (["{json}", "--size", "9"], "do not apply"),
        (["{json}", "--caption", "{{nothing}}"], "no field 'nothing'"),
        (["{empty}"], "no puzzles"),
    ],
)
def test_bad_input_exits_2_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    (tmp_path / "p.json").write_text(json.dumps(EVERY_KIND))
    (tmp_path / "plain.txt").write_text("." * 81 + "\n")
    (tmp_path / "e.json").write_text("{}")
    names = {
        "missing": str(tmp_path / "nope"),
        "json": str(tmp_path / "p.json"),
        "plain": str(tmp_path / "plain.txt"),
        "empty": str(tmp_path / "e.json"),
    }
    out = tmp_path / "o.svg"
    assert main(["render", *(a.format(**names) for a in args), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not out.exists()


def test_a_link_is_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from csp_sudoku.constraints import link

    puzzle = from_fpuzzles(EVERY_KIND)
    out = tmp_path / "l.svg"
    assert main(["render", link(puzzle), "-o", str(out)]) == 0
    marks, cell = read_marks(out, 9)
    for i, c in enumerate(puzzle.constraints):
        CHECKS[c.kind](c, marks[i], cell)
