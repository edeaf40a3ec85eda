"""The constraints drawn on a variant puzzle's explain page (``explain --html``).

The page's grid is read back as XML, and every kind's marks are held against
the cells of the f-puzzles object, in the page's own pixel layout (its
``layout`` data: the margin and the cell's size): a cage's outline inside its
cells and its sum in its first cell, a thermometer's bulb and tube through the
centres of its cells in order, a dot or a letter on the edge between its two
cells, a clue outside the grid, a note under it, shaded cells covering their
cells. The positions are computed here from the cell names, not by the package.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles
from csp_sudoku.core.io import parse_line
from csp_sudoku.human.path import solve_path
from csp_sudoku.tools.explain_view import classic_view, html_page
from csp_sudoku.variants.explain import explain
from tests.test_variant_explain import UNIQUE

SVG = "{http://www.w3.org/2000/svg}"


def cells(names: list[str]) -> list[tuple[int, int]]:
    """``R3C4`` -> ``(2, 3)`` (0-based row and column)."""
    out = []
    for name in names:
        m = re.fullmatch(r"R(\d+)C(\d+)", name)
        assert m is not None
        out.append((int(m.group(1)) - 1, int(m.group(2)) - 1))
    return out


DRAWN: dict[str, Any] = {
    "size": 9,
    "grid": [[{} for _ in range(9)] for _ in range(9)],
    "killercage": [
        {"cells": ["R1C1", "R1C2", "R2C1"], "value": "12"},
        {"cells": ["R5C5", "R5C6"], "value": "3"},
    ],
    "thermometer": [{"lines": [["R3C3", "R3C4", "R4C4", "R4C5"]]}],
    "arrow": [{"cells": ["R7C1"], "lines": [["R7C1", "R8C2", "R9C3"]]}],
    "difference": [{"cells": ["R1C8", "R1C9"]}],
    "ratio": [{"cells": ["R2C8", "R2C9"]}],
    "xv": [{"cells": ["R3C8", "R3C9"], "value": "X"}],
    "littlekillersum": [
        {
            "cells": ["R1C2", "R2C3", "R3C4", "R4C5", "R5C6", "R6C7", "R7C8", "R8C9"],
            "value": "40",
            "cell": "R0C1",
            "direction": "DR",
        }
    ],
    "extraregion": [{"cells": ["R6C6", "R6C7", "R7C6", "R7C7"]}],
    "whispers": [{"lines": [["R8C5", "R8C6", "R8C7"]]}],
    "antiknight": True,
}


class Page:
    """The grid of a page as XML, with the page's layout."""

    def __init__(self, text: str) -> None:
        m = re.search(r'<svg[^>]*id="grid".*?</svg>', text, re.S)
        assert m is not None
        self.svg_text = m.group(0)
        # inside HTML the svg has no namespace; give it one to read it as XML
        self.root = ET.fromstring(self.svg_text.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))
        d = re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S)
        assert d is not None
        self.data = json.loads(d.group(1))
        lay = self.data["layout"]
        self.margin, self.cell, self.n = lay["margin"], lay["cell"], lay["n"]
        x, y, w, h = (float(v) for v in self.root.attrib["viewBox"].split())
        self.view = (x, y, x + w, y + h)

    def marks(self, prefix: str) -> list[ET.Element]:
        return [e for e in self.root.iter() if e.attrib.get("id", "").startswith(prefix)]

    def centre(self, cell: tuple[int, int]) -> tuple[float, float]:
        r, c = cell
        return self.margin + (c + 0.5) * self.cell, self.margin + (r + 0.5) * self.cell

    def square(self, cell: tuple[int, int]) -> tuple[float, float, float, float]:
        r, c = cell
        x, y = self.margin + c * self.cell, self.margin + r * self.cell
        return x, y, x + self.cell, y + self.cell

    def inside(self, p: tuple[float, float], cell: tuple[int, int]) -> bool:
        x0, y0, x1, y1 = self.square(cell)
        return x0 <= p[0] <= x1 and y0 <= p[1] <= y1


def points(e: ET.Element) -> list[tuple[float, float]]:
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", e.attrib["d"])]
    return list(zip(nums[::2], nums[1::2], strict=True))


def near(a: tuple[float, float], b: tuple[float, float], tol: float = 0.02) -> bool:
    return abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


def same_points(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    return len(a) == len(b) and all(near(p, q) for p, q in zip(a, b, strict=True))


def text_at(e: ET.Element) -> tuple[float, float]:
    return float(e.attrib["x"]), float(e.attrib["y"])


def page_of(data: dict[str, Any]) -> tuple[Page, list[str]]:
    puzzle = from_fpuzzles(data)
    path = explain(puzzle, max_steps=2)
    text = html_page(classic_view(path), constraints=puzzle.constraints)
    return Page(text), [c.kind for c in puzzle.constraints]


def test_every_kind_is_drawn_on_its_cells() -> None:
    page, kinds = page_of(DRAWN)
    index = {k: [i for i, x in enumerate(kinds) if x == k] for k in set(kinds)}
    mid = lambda a, b: ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)  # noqa: E731
    # killer cages: the outline inside the cage's cells, the sum in its first cell
    sums = {}
    for i in index["killercage"]:
        (label,) = [e for e in page.marks(f"v{i}-text") if e.tag == f"{SVG}text"]
        sums[label.text] = (i, label)
    for cage in DRAWN["killercage"]:
        i, label = sums[cage["value"]]
        own = cells(cage["cells"])
        outline = [p for e in page.marks(f"v{i}-cage") for p in points(e)]
        assert outline and all(any(page.inside(p, c) for c in own) for p in outline)
        assert page.inside(text_at(label), min(own))
    # the thermometer: the bulb on the first cell, the tube through the centres in order
    (i,) = index["thermometer"]
    therm = cells(DRAWN["thermometer"][0]["lines"][0])
    (bulb,) = page.marks(f"v{i}-circle")
    assert near((float(bulb.attrib["cx"]), float(bulb.attrib["cy"])), page.centre(therm[0]))
    (tube,) = page.marks(f"v{i}-line")
    assert same_points(points(tube), [page.centre(c) for c in therm])
    # the whisper line, the same
    (i,) = index["whispers"]
    (line,) = page.marks(f"v{i}-line")
    want = [page.centre(c) for c in cells(DRAWN["whispers"][0]["lines"][0])]
    assert same_points(points(line), want)
    # the arrow: a circle on its circle cell, a shaft ending on the last cell's centre
    (i,) = index["arrow"]
    arrow = cells(DRAWN["arrow"][0]["lines"][0])
    (ring,) = page.marks(f"v{i}-circle")
    assert near((float(ring.attrib["cx"]), float(ring.attrib["cy"])), page.centre(arrow[0]))
    shaft = points(page.marks(f"v{i}-line")[0])
    assert near(shaft[-1], page.centre(arrow[-1])) and page.inside(shaft[0], arrow[0])
    # dots and letters on the edge between their cells
    for kind, fill in (("difference", "#ffffff"), ("ratio", "#000000")):
        (i,) = index[kind]
        a, b = cells(DRAWN[kind][0]["cells"])
        (dot,) = page.marks(f"v{i}-dot")
        at = (float(dot.attrib["cx"]), float(dot.attrib["cy"]))
        assert near(at, mid(page.centre(a), page.centre(b))) and dot.attrib["fill"] == fill
    (i,) = index["xv"]
    a, b = cells(DRAWN["xv"][0]["cells"])
    (letter,) = page.marks(f"v{i}-letter")
    x, y = text_at(letter)
    cx, cy = mid(page.centre(a), page.centre(b))
    assert letter.text == "X" and abs(x - cx) < 0.02 and abs(y - cy) < page.cell / 2
    # the little killer's clue outside the grid, inside the picture
    (i,) = index["littlekillersum"]
    (clue,) = page.marks(f"v{i}-clue")
    x, y = text_at(clue)
    assert clue.text == "40" and y < page.margin
    assert page.view[0] <= x <= page.view[2] and page.view[1] <= y - page.cell * 0.4
    # the extra region: each cell shaded whole
    (i,) = index["extraregion"]
    shaded = [points(e) for e in page.marks(f"v{i}-shade")]
    for c in cells(DRAWN["extraregion"][0]["cells"]):
        x0, y0, x1, y1 = page.square(c)
        assert any(sorted(p) == [(x0, y0), (x0, y1), (x1, y0), (x1, y1)] for p in shaded)
    # the anti-knight rule: a note under the grid, inside the picture
    (i,) = index["antiknight"]
    (note,) = page.marks(f"v{i}-note")
    x, y = text_at(note)
    assert "knight" in (note.text or "") and page.margin + 9 * page.cell < y <= page.view[3]


def test_the_marks_sit_in_their_layers() -> None:
    page, kinds = page_of(DRAWN)
    text = page.svg_text
    grid_lines = text.index('class="tn"')
    layer = text.index('id="layer"')
    i = kinds.index("thermometer")
    j = kinds.index("killercage")
    assert text.index(f'id="v{i}-line-') < grid_lines  # under the grid's lines
    assert text.index(f'id="v{j}-cage-') > layer  # over the step's marks


@pytest.mark.parametrize(("label", "data"), UNIQUE, ids=[label for label, _ in UNIQUE])
def test_every_constraint_of_the_makers_puzzles_has_marks(label: str, data: dict[str, Any]) -> None:
    page, kinds = page_of(data)
    x0, y0, x1, y1 = page.view
    for i in range(len(kinds)):
        marks = page.marks(f"v{i}-")
        assert marks, (label, kinds[i])
        for e in marks:
            if e.tag == f"{SVG}path":
                assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in points(e))
            elif e.tag == f"{SVG}circle":
                assert x0 <= float(e.attrib["cx"]) <= x1 and y0 <= float(e.attrib["cy"]) <= y1


def test_a_classic_page_is_unchanged() -> None:
    path = solve_path(
        parse_line(
            "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6....."
        )
    )
    assert html_page(path) == html_page(path, constraints=())
    assert 'id="v0-' not in html_page(path)


def test_cli_html_draws_the_constraints(tmp_path: Path) -> None:
    data = dict(UNIQUE)["killercage:unique"]
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data))
    out = tmp_path / "p.html"
    assert main(["explain", str(f), "--html", str(out), "--json"]) == 0
    page = Page(out.read_text(encoding="utf-8"))
    kinds = [c.kind for c in from_fpuzzles(data).constraints]
    for i, kind in enumerate(kinds):
        assert page.marks(f"v{i}-"), kind
