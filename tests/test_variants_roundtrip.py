"""f-puzzles in, ``csp-sudoku export fpuzzles`` out, read again: the same puzzle, on every kind.

Random puzzles are drawn to fit a random full grid (every kind of the
registry, negative dots included, with random givens from the grid, a title
and an author); each is written as an f-puzzles file, exported by the CLI
(as JSON, and as ``?load=`` links with ``--link``) and read back. The puzzle
read back must equal the one read first (the same constraints, givens,
geometry and texts), and the exported object must still hold the grid it was
drawn from by :func:`tests.independent_variants.broken_rules`, which reads
the f-puzzles object with no code of the package: so the export says what
the input said, not only what the reader reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_sudoku.cli import main
from csp_sudoku.constraints import KINDS, from_fpuzzles, parse_fpuzzles
from csp_sudoku.variants.random import GLOBAL_KINDS, N, draw, random_full_grid
from tests.independent_variants import broken_rules

#: The kinds drawn on a grid, with no global rule (the grid must be drawn to keep those).
LOCAL = [k for k in KINDS if k not in GLOBAL_KINDS]


def build(seed: int, kinds: list[str], givens: int, title: str) -> tuple[dict[str, Any], Any]:
    """An f-puzzles object with constraints of ``kinds`` that a random grid keeps, and the grid."""
    rng = np.random.default_rng(seed)
    grid = random_full_grid(rng, [k for k in kinds if k in GLOBAL_KINDS])
    data: dict[str, Any] = {"size": N, "grid": [[{} for _ in range(N)] for _ in range(N)]}
    for kind in kinds:
        draw(kind, rng, grid, data)
    for i in rng.permutation(N * N)[:givens].tolist():
        r, c = divmod(i, N)
        data["grid"][r][c] = {"value": int(grid[r][c]), "given": bool(rng.random() < 0.5)}
    if title:
        data["title"] = title
        data["author"] = title[::-1]
    return data, grid


def export(tmp_path: Path, data: dict[str, Any], *flags: str) -> list[str]:
    """The lines ``export fpuzzles`` writes for ``data`` given as a ``.json`` file."""
    src = tmp_path / "in.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out.txt"
    assert main(["export", "fpuzzles", str(src), "-o", str(out), *flags]) == 0
    return out.read_text(encoding="utf-8").splitlines()


def same_back(tmp_path: Path, data: dict[str, Any], grid: Any) -> None:
    """The round trip through JSON and through a link gives the puzzle back; the grid keeps it."""
    first = from_fpuzzles(data)
    (line,) = export(tmp_path, data)
    written = json.loads(line)
    assert from_fpuzzles(written) == first
    assert broken_rules(written, grid) == []
    (url,) = export(tmp_path, data, "--link")
    assert url.startswith("https://www.f-puzzles.com/?load=")
    assert parse_fpuzzles(url) == first


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_comes_back(kind: str, tmp_path: Path) -> None:
    data, grid = build(sum(map(ord, kind)), [kind], givens=10, title="")
    puzzle = from_fpuzzles(data)
    assert kind in puzzle.kinds(), "the maker drew no constraint of the kind"
    same_back(tmp_path, data, grid)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    kinds=st.lists(st.sampled_from(LOCAL), min_size=1, max_size=5, unique=True),
    rule=st.none() | st.sampled_from(GLOBAL_KINDS),
    givens=st.integers(0, 30),
    title=st.text(max_size=12),
)
def test_random_puzzles_come_back(
    tmp_path: Path, seed: int, kinds: list[str], rule: str | None, givens: int, title: str
) -> None:
    data, grid = build(seed, kinds + ([rule] if rule else []), givens, title)
    same_back(tmp_path, data, grid)


#: Jigsaw regions of a 4x4 grid: rows, columns, the standard boxes (a jigsaw all the
#: same: written with every region, it must not come back as the standard 4x4), and
#: an L-shaped cut.
JIGSAWS = [
    [[r] * 4 for r in range(4)],
    [list(range(4)) for _ in range(4)],
    [[(r // 2) * 2 + c // 2 for c in range(4)] for r in range(4)],
    [[0, 0, 0, 1], [0, 2, 1, 1], [2, 2, 3, 1], [2, 3, 3, 3]],
]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    regions=st.sampled_from(JIGSAWS),
    values=st.lists(st.integers(0, 4), min_size=16, max_size=16),
    cage=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=3, unique=True),
)
def test_jigsaws_come_back(
    tmp_path: Path, regions: list[list[int]], values: list[int], cage: list[tuple[int, int]]
) -> None:
    grid = [
        [
            {"region": regions[r][c], **({"value": values[r * 4 + c]} if values[r * 4 + c] else {})}
            for c in range(4)
        ]
        for r in range(4)
    ]
    data: dict[str, Any] = {"size": 4, "grid": grid}
    if cage:
        data["killercage"] = [{"cells": [f"R{r + 1}C{c + 1}" for r, c in cage]}]
    first = from_fpuzzles(data)
    assert first.geometry.regions is not None
    (line,) = export(tmp_path, data)
    back = from_fpuzzles(json.loads(line))
    assert back == first and back.geometry == first.geometry


def test_a_file_of_many_comes_back_line_for_line(tmp_path: Path) -> None:
    made = [build(seed, [kind], 5, "")[0] for seed, kind in enumerate(LOCAL[:6])]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(d) + "\n" for d in made), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["export", "fpuzzles", str(src), "-o", str(out)]) == 0
    back = [from_fpuzzles(json.loads(x)) for x in out.read_text(encoding="utf-8").splitlines()]
    assert back == [from_fpuzzles(d) for d in made]
