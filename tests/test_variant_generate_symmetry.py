"""Symmetric patterns of variant puzzles: killers whose cages, and drawn puzzles whose
thermometer steps, marks and givens, keep a symmetry; unique, minimal under the symmetry.

Every claim is checked here from the f-puzzles object of the puzzle, by code
that shares nothing with the generator: the symmetries are written again from
their definitions (:func:`image`), the tiling, its invariance and the
connectedness of the cages, and the pattern of drawn steps, marks and givens
are read off the cells' names, the sums, the thermometers' directions, the
dots' kinds and the solution by :func:`tests.independent_variants.broken_rules`,
uniqueness and every merge or removal by the CP-SAT backend (a second encoding
of the constraints; the generator uses SAT).
"""

from __future__ import annotations

import copy
import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku import variants
from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles, to_fpuzzles
from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.variants.generate import (
    VariantGenerated,
    generate_drawn,
    generate_killers,
    make_drawn,
    make_killer,
)
from tests.independent import symmetry_image
from tests.test_variant_generate import assert_solved, cp_count, givens_of, rows

Cell = tuple[int, int]

#: The symmetries of ``generate --symmetry`` but none, by their definitions on an N x N grid.
NAMES = ("rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal")


def image(cell: Cell, name: str, n: int) -> Cell:
    """Where the symmetry ``name`` sends ``cell`` (0-based row and column)."""
    return symmetry_image(n, name, *cell)


def permutation(name: str, n: int) -> list[int]:
    """The symmetry as the generator takes it: the image of every cell, row-major."""
    out = []
    for k in range(n * n):
        r, c = image(divmod(k, n), name, n)
        out.append(r * n + c)
    return out


def parse(cell: str) -> Cell:
    r, c = cell[1:].split("C")
    return int(r) - 1, int(c) - 1


def cages_of(data: dict[str, Any]) -> list[frozenset[Cell]]:
    return [frozenset(parse(x) for x in e["cells"]) for e in data["killercage"]]


def side_by_side(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def connected(cells: frozenset[Cell]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        x = todo.pop()
        for y in cells:
            if y not in seen and side_by_side(x, y):
                seen.add(y)
                todo.append(y)
    return seen == set(cells)


def symmetric_merge(
    cages: list[frozenset[Cell]], i: int, j: int, name: str, n: int
) -> list[list[int]]:
    """The cages (by index) that merging cages ``i`` and ``j`` joins, with all their images:
    cage ``a`` and ``b`` become one whenever some power of the symmetry sends ``i`` to
    ``a`` and ``j`` to ``b``; the groups of two cages or more."""
    where = {cell: k for k, cage in enumerate(cages) for cell in cage}
    group = list(range(len(cages)))

    def root(k: int) -> int:
        while group[k] != k:
            k = group[k]
        return k

    a, b = next(iter(cages[i])), next(iter(cages[j]))
    for _ in range(4):  # every symmetry here has order 1, 2 or 4
        ra, rb = root(where[a]), root(where[b])
        group[max(ra, rb)] = min(ra, rb)
        a, b = image(a, name, n), image(b, name, n)
    parts: dict[int, list[int]] = {}
    for k in range(len(cages)):
        parts.setdefault(root(k), []).append(k)
    return [p for p in parts.values() if len(p) > 1]


def merged(data: dict[str, Any], parts: list[list[int]]) -> dict[str, Any]:
    """``data`` with each group of cages made one cage with their summed sum."""
    out = copy.deepcopy(data)
    gone = {k for p in parts for k in p}
    entries = data["killercage"]
    out["killercage"] = [e for k, e in enumerate(entries) if k not in gone]
    for p in parts:
        cells = [x for k in p for x in entries[k]["cells"]]
        total = sum(int(entries[k]["value"]) for k in p)
        out["killercage"].append({"cells": cells, "value": str(total)})
    return out


def allowed(data: dict[str, Any], got: VariantGenerated, parts: list[list[int]]) -> bool:
    """Whether every new cage has at most N cells, each with a different digit."""
    n = data["size"]
    sol = rows(got)
    cages = cages_of(data)
    for p in parts:
        cells = [cell for k in p for cell in cages[k]]
        if len(cells) > n or len({sol[r][c] for r, c in cells}) < len(cells):
            return False
    return True


def assert_symmetric_killer(got: VariantGenerated, name: str, merges: bool = True) -> None:
    """No givens; cages that tile the grid, connected, the symmetry's images of each other;
    unique (CP-SAT) with the right sums; with ``merges``: no merge of two cages and their
    images keeps it unique, and ``minimal`` says whether a plain merge of two does."""
    data = assert_solved(got)
    n = data["size"]
    assert givens_of(data) == []
    cages = cages_of(data)
    assert sorted(c for cage in cages for c in cage) == [(r, c) for r in range(n) for c in range(n)]
    assert all(connected(cage) for cage in cages)
    for cage in cages:
        assert frozenset(image(c, name, n) for c in cage) in cages, f"{sorted(cage)} has no image"
    assert got.minimal_in_symmetry is True
    if not merges:
        return
    plain = False
    for i in range(len(cages)):
        for j in range(i + 1, len(cages)):
            if not any(side_by_side(a, b) for a in cages[i] for b in cages[j]):
                continue
            sym = symmetric_merge(cages, i, j, name, n)
            if allowed(data, got, sym):
                assert cp_count(merged(data, sym)) == 2, f"cages {i} and {j} can merge"
            if not plain and allowed(data, got, [[i, j]]):
                plain = cp_count(merged(data, [[i, j]])) == 1
    assert got.minimal == (not plain)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), name=st.sampled_from(NAMES), size=st.sampled_from([4, 6]))
def test_symmetric_killers(seed: int, name: str, size: int) -> None:
    got = make_killer(seed, geometry=Geometry.standard(size), symmetry=permutation(name, size))
    assert_symmetric_killer(got, name)


@pytest.mark.parametrize("name", ["rot180", "rot90"])
def test_a_9x9_symmetric_killer(name: str) -> None:
    got = make_killer(3, symmetry=permutation(name, 9))
    assert_symmetric_killer(got, name, merges=False)


def test_the_identity_is_no_symmetry() -> None:
    """The symmetric maker with the identity is the plain maker: the same cages."""
    six = Geometry.standard(6)
    for seed in range(5):
        plain = make_killer(seed, geometry=six)
        same = make_killer(seed, geometry=six, symmetry=list(range(36)))
        assert same.puzzle == plain.puzzle
        assert same.minimal and plain.minimal and plain.minimal_in_symmetry is None


def test_a_symmetric_target_regenerates_from_its_seed() -> None:
    six = Geometry.standard(6)
    perm = permutation("mirror", 6)
    got = list(generate_killers(2, seed=4, geometry=six, symmetry=perm, level="hard", attempts=60))
    assert [g.rating.level for g in got if g.rating] == ["hard", "hard"]
    for g in got:
        assert make_killer(g.seed, geometry=six, symmetry=perm).puzzle == g.puzzle
        assert_symmetric_killer(g, "mirror", merges=False)


@pytest.mark.parametrize(
    ("symmetry", "message"),
    [
        ([0, 1, 2], "permutation of the 16 cells"),
        ([0] * 16, "permutation of the 16 cells"),
        ([15, *range(1, 15), 0], "side-by-side cells to side-by-side cells"),
    ],
)
def test_bad_symmetries(symmetry: list[int], message: str) -> None:
    with pytest.raises(GenerationError, match=message):
        make_killer(1, geometry=Geometry.standard(4), symmetry=symmetry)


# ---------------------------------------------------------------------- command line
def cli_rows(what: list[str], name: str, seed: int) -> list[dict[str, Any]]:
    """The two JSON rows of ``generate WHAT --symmetry NAME`` on 6x6 under ``seed``, each
    checked unique by CP-SAT and labelled with its symmetry, minimal within it."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rows.jsonl"
        args = ["generate", *what, "--symmetry", name, "-n", "2", "--size", "6"]
        args += ["--seed", str(seed), "--format", "jsonl", "-q", "-o", str(path)]
        assert main(args) == 0
        found = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(found) == 2
    for row in found:
        assert cp_count(row["fpuzzles"]) == 1
        assert (row["symmetry"], row["minimal_in_symmetry"]) == (name, True)
    return found


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(NAMES))
def test_cli_symmetric_killers(seed: int, name: str) -> None:
    for row in cli_rows(["--killer"], name, seed):
        data = row["fpuzzles"]
        cages = cages_of(data)
        for cage in cages:
            assert frozenset(image(c, name, 6) for c in cage) in cages
        again = make_killer(
            row["seed"], geometry=Geometry.standard(6), symmetry=permutation(name, 6)
        )
        assert to_fpuzzles(again.puzzle) == data
        assert from_fpuzzles(data) == again.puzzle


def test_cli_rows_without_a_symmetry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--killer", "--size", "4", "--seed", "1", "--format", "jsonl"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["symmetry"], row["minimal_in_symmetry"]) == ("none", None)


# ---------------------------------------------------------------------- drawn constraints
#: The drawn kinds that mark a pair of cells (a dot, an X or a V), as against a thermometer.
MARKS = ("difference", "ratio", "xv")


def cell_name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def orbit_of(cells: frozenset[Cell], name: str, n: int) -> set[frozenset[Cell]]:
    """``cells`` and every image of them under the powers of the symmetry."""
    out = {cells}
    for _ in range(3):  # every symmetry here has order 1, 2 or 4
        cells = frozenset(image(c, name, n) for c in cells)
        out.add(cells)
    return out


def steps_of(data: dict[str, Any]) -> list[tuple[Cell, Cell]]:
    """Every thermometer step, low cell first, read off the lines."""
    return [
        (parse(a), parse(b))
        for e in data.get("thermometer", [])
        for line in e["lines"]
        for a, b in itertools.pairwise(line)
    ]


def mark_pairs(data: dict[str, Any]) -> list[frozenset[Cell]]:
    """The pair of cells of every dot, X and V."""
    return [frozenset(map(parse, e["cells"])) for kind in MARKS for e in data.get(kind, [])]


def without(
    data: dict[str, Any],
    steps: set[frozenset[Cell]] | frozenset[frozenset[Cell]] = frozenset(),
    marks: set[frozenset[Cell]] | frozenset[frozenset[Cell]] = frozenset(),
    cells: set[frozenset[Cell]] | frozenset[frozenset[Cell]] = frozenset(),
) -> dict[str, Any]:
    """``data`` with its thermometers cut into two-cell steps (the same rule: a line
    increases when each step does), less the steps on the pairs ``steps``, the marks
    on the pairs ``marks`` and the givens in the groups ``cells``."""
    out = copy.deepcopy(data)
    out.pop("thermometer", None)
    kept = [s for s in steps_of(data) if frozenset(s) not in steps]
    if kept:
        out["thermometer"] = [{"lines": [[cell_name(a), cell_name(b)]]} for a, b in kept]
    for kind in MARKS:
        entries = [e for e in data.get(kind, []) if frozenset(map(parse, e["cells"])) not in marks]
        out.pop(kind, None)
        if entries:
            out[kind] = entries
    for r, c in (x for group in cells for x in group):
        out["grid"][r][c] = {}
    return out


def assert_symmetric_drawn(
    got: VariantGenerated, name: str, kinds: tuple[str, ...], removals: bool = True
) -> None:
    """Steps, marks and givens that keep the symmetry, of the asked kinds, each step
    low to high and each mark true (the independent checker); unique by CP-SAT and
    SAT; with ``removals``: no orbit of steps, marks or givens can go (CP-SAT), and
    ``minimal`` says whether no single step, mark or given can go either."""
    data = assert_solved(got)
    assert variants.count(from_fpuzzles(data), 2, backend="sat") == 1
    n = data["size"]
    assert set(data) - {"size", "grid"} <= set(kinds)
    steps = [frozenset(s) for s in steps_of(data)]
    marks = mark_pairs(data)
    givens = {frozenset([c]) for c in givens_of(data)}
    assert len(set(steps)) == len(steps), "a pair with two steps"
    assert len(set(marks)) == len(marks), "a pair with two marks"
    for pairs in (set(steps), set(marks), givens):
        assert all(len(p) == 1 or side_by_side(*p) for p in pairs)
        assert {frozenset(image(c, name, n) for c in p) for p in pairs} == pairs
    assert got.minimal_in_symmetry is True
    if not removals:
        return
    assert cp_count(without(data)) == 1  # cutting the lines into steps changes nothing
    for what, pairs in (("steps", set(steps)), ("marks", set(marks)), ("cells", givens)):
        for p in pairs:
            orbit = orbit_of(p, name, n)
            assert cp_count(without(data, **{what: orbit})) == 2, f"{what} {orbit} can go"
    plain = any(
        cp_count(without(data, **{what: {p}})) == 1
        for what, pairs in (("steps", set(steps)), ("marks", set(marks)), ("cells", givens))
        for p in pairs
    )
    assert got.minimal == (not plain)


DRAWN = [("thermometer",), ("difference", "ratio"), ("xv", "difference"), ("thermometer", "xv")]


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    name=st.sampled_from(NAMES),
    size=st.sampled_from([4, 6]),
    kinds=st.sampled_from(DRAWN),
)
def test_symmetric_drawn(seed: int, name: str, size: int, kinds: tuple[str, ...]) -> None:
    got = make_drawn(
        seed, kinds, geometry=Geometry.standard(size), symmetry=permutation(name, size)
    )
    assert_symmetric_drawn(got, name, kinds)


@pytest.mark.parametrize(
    ("name", "kinds"), [("rot90", ("thermometer",)), ("diagonal", ("difference", "ratio", "xv"))]
)
def test_a_9x9_symmetric_drawn(name: str, kinds: tuple[str, ...]) -> None:
    got = make_drawn(2, kinds, symmetry=permutation(name, 9))
    assert_symmetric_drawn(got, name, kinds, removals=False)


def test_a_9x9_symmetric_thermometer_is_minimal_in_symmetry() -> None:
    got = make_drawn(5, ("thermometer",), symmetry=permutation("rot180", 9))
    assert_symmetric_drawn(got, "rot180", ("thermometer",))


def test_a_symmetric_drawn_puzzle_regenerates_from_its_seed() -> None:
    six = Geometry.standard(6)
    perm = permutation("antidiagonal", 6)
    kinds = ("thermometer", "ratio")
    got = list(generate_drawn(3, kinds, seed=11, geometry=six, symmetry=perm))
    assert len({g.seed for g in got}) == 3
    for g in got:
        again = make_drawn(g.seed, kinds, geometry=six, symmetry=perm)
        assert (again.puzzle, again.minimal, again.calls) == (g.puzzle, g.minimal, g.calls)
        assert_symmetric_drawn(g, "antidiagonal", kinds, removals=False)


def test_symmetric_drawn_targets_in_worker_processes() -> None:
    """A target met by some attempts only, made in two workers: the puzzles of one,
    each the first attempt of its seed on target, symmetric."""
    six = Geometry.standard(6)
    perm = permutation("rot180", 6)
    kinds = ("thermometer",)
    run: dict[str, Any] = {"seed": 3, "geometry": six, "symmetry": perm, "level": "guess"}
    alone = list(generate_drawn(2, kinds, attempts=40, **run))
    both = list(generate_drawn(2, kinds, attempts=40, jobs=2, **run))
    assert [(g.seed, g.puzzle) for g in alone] == [(g.seed, g.puzzle) for g in both]
    for g in alone:
        assert g.rating is not None and g.rating.level == "guess"
        assert_symmetric_drawn(g, "rot180", kinds, removals=False)


@pytest.mark.parametrize(
    ("symmetry", "message"),
    [
        ([0, 1, 2], "permutation of the 16 cells"),
        ([15, *range(1, 15), 0], "side-by-side cells to side-by-side cells"),
    ],
)
def test_bad_drawn_symmetries(symmetry: list[int], message: str) -> None:
    with pytest.raises(GenerationError, match=message):
        generate_drawn(1, seed=1, geometry=Geometry.standard(4), symmetry=symmetry).__next__()


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(NAMES), kinds=st.sampled_from(DRAWN))
def test_cli_symmetric_drawn(seed: int, name: str, kinds: tuple[str, ...]) -> None:
    for row in cli_rows(["--drawn", ",".join(kinds)], name, seed):
        data = row["fpuzzles"]
        for pairs in ({frozenset(s) for s in steps_of(data)}, set(mark_pairs(data))):
            assert {frozenset(image(c, name, 6) for c in p) for p in pairs} == pairs
        again = make_drawn(
            row["seed"], kinds, geometry=Geometry.standard(6), symmetry=permutation(name, 6)
        )
        assert to_fpuzzles(again.puzzle) == data
        assert row["minimal"] == again.minimal


def test_cli_symmetric_drawn_resumes_and_checks_the_symmetry(tmp_path: Path) -> None:
    """An interrupted symmetric run, resumed, writes what the whole run wrote (in one
    worker or two); a file of another symmetry is refused, left as it was."""
    base = ["generate", "--drawn", "thermometer,xv", "--size", "6", "--symmetry", "rot90"]
    base += ["-n", "3", "--seed", "8", "--format", "jsonl", "-q"]
    whole = tmp_path / "whole.jsonl"
    assert main([*base, "-o", str(whole)]) == 0
    text = whole.read_text()
    lines = text.splitlines(keepends=True)
    assert len(lines) == 3
    part = tmp_path / "part.jsonl"
    part.write_text(lines[0] + lines[1][: len(lines[1]) // 2])
    assert main([*base, "-o", str(part), "--resume", "--jobs", "2"]) == 0
    assert part.read_text() == text
    other = [*base[:6], "mirror", *base[7:]]
    assert main([*other, "-o", str(whole), "--resume"]) == 2
    assert whole.read_text() == text
