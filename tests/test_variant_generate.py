"""Generated variant puzzles: unique and minimal by the CP-SAT backend, solutions checked from the rules.

The generators use the SAT backend (one incremental solver); every claim is
checked here another way: uniqueness and minimality by the CP-SAT backend
(:func:`csp_sudoku.variants.count` with ``backend="cpsat"``, a second
encoding of every constraint), the solution by
:func:`tests.independent_variants.broken_rules`, which reads the f-puzzles
object and shares no code with the package. Minimal means: no given can go
(givens), no two neighbouring cages can merge (killers), no drawn constraint
or given can go (drawn).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku import variants
from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles, to_fpuzzles
from csp_sudoku.core.errors import GenerationError, NotUniqueError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.seeds import item_seed
from csp_sudoku.generators.symmetry import orbits
from csp_sudoku.variants.generate import (
    VariantGenerated,
    generate_drawn,
    generate_givens,
    generate_killers,
    make_drawn,
    make_givens,
    make_killer,
    random_solution,
    removable_constraints,
)
from tests.independent_variants import broken_rules
from tests.variant_maker import make_cases

FAST = settings(max_examples=6, deadline=None)


def cp_count(data: dict[str, Any]) -> int:
    """Solutions of an f-puzzles object by CP-SAT, up to 2."""
    return variants.count(from_fpuzzles(data), 2, backend="cpsat")


def rows(got: VariantGenerated) -> list[list[int]]:
    n = got.solution.geometry.size
    return got.solution.cells.reshape(n, n).tolist()


def cell_name(r: int, c: int) -> str:
    return f"R{r + 1}C{c + 1}"


def assert_solved(got: VariantGenerated) -> dict[str, Any]:
    """The puzzle is unique by CP-SAT and its solution keeps every rule; its f-puzzles object."""
    data = to_fpuzzles(got.puzzle)
    assert broken_rules(data, rows(got)) == []
    assert cp_count(data) == 1
    return data


def givens_of(data: dict[str, Any]) -> list[tuple[int, int]]:
    n = data["size"]
    return [(r, c) for r in range(n) for c in range(n) if "value" in data["grid"][r][c]]


def without_given(data: dict[str, Any], r: int, c: int) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out["grid"][r][c] = {}
    return out


def assert_givens_minimal(data: dict[str, Any]) -> None:
    for r, c in givens_of(data):
        assert cp_count(without_given(data, r, c)) == 2, f"given R{r + 1}C{c + 1} can go"


# ---------------------------------------------------------------------- minimal givens
TEMPLATES = [
    d
    for label, d in make_cases(64, kinds=("killercage", "thermometer", "arrow", "difference"))
    if label.endswith(":unique")
]


@pytest.mark.parametrize("index", range(len(TEMPLATES)))
def test_givens_are_minimal_and_unique(index: int) -> None:
    template = from_fpuzzles(TEMPLATES[index])
    got = make_givens(template, index)
    data = assert_solved(got)
    assert got.puzzle.constraints == template.constraints
    assert got.minimal
    assert_givens_minimal(data)


def test_the_template_givens_are_kept_in_the_grid() -> None:
    data = copy.deepcopy(max(TEMPLATES, key=lambda d: len(givens_of(d))))
    start = givens_of(data)
    assert start
    got = make_givens(from_fpuzzles(data), 5)
    for r, c in start:
        assert rows(got)[r][c] == data["grid"][r][c]["value"]


def test_a_symmetric_pattern_of_givens() -> None:
    template = from_fpuzzles(TEMPLATES[0])
    pattern = orbits(9, "rot180")
    got = make_givens(template, 3, orbits=pattern)
    data = assert_solved(got)
    cells = got.puzzle.puzzle.cells > 0
    for orbit in pattern:
        assert len(set(cells[orbit].tolist())) == 1, "an orbit half given"
    # minimal among symmetric patterns: no orbit of givens can go
    for orbit in pattern:
        if cells[orbit[0]]:
            trial = copy.deepcopy(data)
            for c in orbit.tolist():
                trial["grid"][c // 9][c % 9] = {}
            assert cp_count(trial) == 2
    # and the label says whether a single given can go
    single = any(cp_count(without_given(data, r, c)) == 1 for r, c in givens_of(data))
    assert got.minimal == (not single)


def test_orbits_must_split_the_cells() -> None:
    with pytest.raises(GenerationError, match="each cell once"):
        make_givens(from_fpuzzles(TEMPLATES[0]), 1, orbits=[[0, 1]])


def test_constraints_no_grid_keeps_are_an_error() -> None:
    data = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "killercage": [{"cells": ["R1C1", "R1C2"], "value": "7"}],
        "thermometer": [{"lines": [["R1C1", "R1C2"]]}, {"lines": [["R1C2", "R1C1"]]}],
    }
    with pytest.raises(GenerationError, match="allow no grid"):
        next(generate_givens(from_fpuzzles(data), 1, seed=0))
    assert random_solution(from_fpuzzles(data), 0) is None


@FAST
@given(seed=st.integers(0, 2**63 - 1), size=st.sampled_from([4, 6]))
def test_small_givens_puzzles(seed: int, size: int) -> None:
    data = {
        "size": size,
        "grid": [[{} for _ in range(size)] for _ in range(size)],
        "thermometer": [{"lines": [[cell_name(0, c) for c in range(3)]]}],
        "diagonal-": True,
    }
    got = make_givens(from_fpuzzles(data), seed)
    out = assert_solved(got)
    assert got.minimal
    assert_givens_minimal(out)


# ---------------------------------------------------------------------- killers
def cages(data: dict[str, Any]) -> list[list[str]]:
    return [e["cells"] for e in data.get("killercage", [])]


def assert_killer(got: VariantGenerated, merges: bool = True) -> dict[str, Any]:
    """A killer with no givens, its cages tiling the grid, unique, and (``merges``) no merge left."""
    data = assert_solved(got)
    n = data["size"]
    assert givens_of(data) == []
    tiles = cages(data)
    assert sorted(c for t in tiles for c in t) == sorted(
        cell_name(r, c) for r in range(n) for c in range(n)
    )
    sol = rows(got)

    def digit(name: str) -> int:
        r, c = (int(x) - 1 for x in name[1:].split("C"))
        return sol[r][c]

    def side_by_side(a: str, b: str) -> bool:
        (ra, ca), (rb, cb) = ((int(x) for x in s[1:].split("C")) for s in (a, b))
        return abs(ra - rb) + abs(ca - cb) == 1

    assert got.minimal
    if not merges:
        return data
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            union = tiles[i] + tiles[j]
            if len(union) > n or len({digit(x) for x in union}) < len(union):
                continue
            if not any(side_by_side(a, b) for a in tiles[i] for b in tiles[j]):
                continue
            merged = copy.deepcopy(data)
            rest = [e for k, e in enumerate(data["killercage"]) if k not in (i, j)]
            total = sum(int(data["killercage"][k]["value"]) for k in (i, j))
            merged["killercage"] = [*rest, {"cells": union, "value": str(total)}]
            assert cp_count(merged) == 2, f"cages {i} and {j} can merge"
    return data


@FAST
@given(seed=st.integers(0, 2**63 - 1), size=st.sampled_from([4, 6]))
def test_small_killers_are_unique_and_merge_minimal(seed: int, size: int) -> None:
    assert_killer(make_killer(seed, geometry=Geometry.standard(size)))


def test_a_9x9_killer_is_unique() -> None:
    got = make_killer(2)
    data = assert_killer(got, merges=False)
    assert len(cages(data)) < 40  # merged well below the starting dominoes


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2])
def test_9x9_killers_are_merge_minimal(seed: int) -> None:
    assert_killer(make_killer(seed))


def test_killer_rules_are_kept() -> None:
    rule = from_fpuzzles(
        {"size": 6, "grid": [[{}] * 6 for _ in range(6)], "antiking": True}
    ).constraints
    got = make_killer(4, geometry=Geometry.standard(6), rules=rule)
    data = assert_killer(got)
    assert data.get("antiking") is True


def test_same_seed_same_puzzles() -> None:
    a = [g.puzzle for g in generate_killers(3, seed=77, geometry=Geometry.standard(6))]
    b = [g.puzzle for g in generate_killers(3, seed=77, geometry=Geometry.standard(6))]
    assert a == b
    assert len(set(map(str, a))) == 3  # three different puzzles
    items = [make_killer(item_seed(77, i), geometry=Geometry.standard(6)).puzzle for i in range(3)]
    assert items == a


def test_same_seed_same_givens_and_drawn() -> None:
    template = from_fpuzzles(TEMPLATES[0])
    first = [g.puzzle for g in generate_givens(template, 2, seed=5)]
    assert first == [g.puzzle for g in generate_givens(template, 2, seed=5)]
    assert first[0] == make_givens(template, 5).puzzle
    drawn = [g.puzzle for g in generate_drawn(2, seed=9, geometry=Geometry.standard(6))]
    assert drawn == [g.puzzle for g in generate_drawn(2, seed=9, geometry=Geometry.standard(6))]


def test_a_seeded_generator_seed_is_taken_as_it_is() -> None:
    rng = np.random.default_rng(3)
    got = list(generate_killers(2, seed=rng, geometry=Geometry.standard(4)))
    assert len(got) == 2
    for g in got:
        assert make_killer(g.seed, geometry=Geometry.standard(4)).puzzle == g.puzzle


@pytest.mark.parametrize("count", [-1, 1.5, True])
def test_bad_counts(count: Any) -> None:
    with pytest.raises(GenerationError, match="count"):
        list(generate_killers(count, seed=1))


# ---------------------------------------------------------------------- drawn constraints
def assert_constraints_minimal(got: VariantGenerated, data: dict[str, Any]) -> None:
    """No drawn constraint (a thermometer's single step, a dot) and no given can go."""
    assert_givens_minimal(data)
    for kind in ("difference", "ratio", "xv"):
        for k in range(len(data.get(kind, []))):
            trial = copy.deepcopy(data)
            del trial[kind][k]
            assert cp_count(trial) == 2, f"{kind}[{k}] can go"
    for k, entry in enumerate(data.get("thermometer", [])):
        (line,) = entry["lines"]
        for step in range(len(line) - 1):  # cut the line after ``step``: one pair less
            trial = copy.deepcopy(data)
            parts = [line[: step + 1], line[step + 1 :]]
            trial["thermometer"][k] = {"lines": [parts[0]]}
            trial["thermometer"].append({"lines": [parts[1]]})
            assert cp_count(trial) == 2, f"thermometer[{k}] step {step} can go"


@FAST
@given(
    seed=st.integers(0, 2**63 - 1),
    size=st.sampled_from([4, 6]),
    kinds=st.sampled_from([("thermometer",), ("difference", "ratio"), ("xv", "difference")]),
)
def test_drawn_puzzles_are_unique_and_minimal(seed: int, size: int, kinds: Any) -> None:
    got = make_drawn(seed, kinds, geometry=Geometry.standard(size))
    data = assert_solved(got)
    assert {k for k in data if k not in ("size", "grid")} <= set(kinds)
    assert_constraints_minimal(got, data)


def test_9x9_thermometers_alone() -> None:
    got = make_drawn(1, ["thermometer"])
    data = assert_solved(got)
    assert givens_of(data) == []  # thermometers alone fix this grid
    assert any(len(e["lines"][0]) > 2 for e in data["thermometer"])  # chains were joined


def test_unknown_drawn_kind() -> None:
    with pytest.raises(GenerationError, match="choose from"):
        list(generate_drawn(1, ["arrow"], seed=1))


# ---------------------------------------------------------------------- removable constraints
def removable_by_cpsat(data: dict[str, Any]) -> list[tuple[int, str]]:
    """(index among the puzzle's constraints, "constraint" or "sum") for each that can go alone."""
    puzzle = from_fpuzzles(data)
    out = []
    for i, c in enumerate(puzzle.constraints):
        rest = puzzle.constraints[:i] + puzzle.constraints[i + 1 :]
        trial = to_fpuzzles(type(puzzle)(puzzle.puzzle, rest))
        if cp_count(trial) == 1:
            out.append((i, "constraint"))
        elif c.kind == "killercage" and getattr(c, "total", None) is not None:
            bare = to_fpuzzles(type(puzzle)(puzzle.puzzle, rest))
            bare.setdefault("killercage", []).append(
                {"cells": [cell_name(r, col) for r, col in c.footprint()]}
            )
            if cp_count(bare) == 1:
                out.append((i, "sum"))
    return out


@FAST
@given(seed=st.integers(0, 2**63 - 1))
def test_removable_constraints_agree_with_cpsat(seed: int) -> None:
    rng = np.random.default_rng(seed)
    got = make_killer(seed, geometry=Geometry.standard(int(rng.choice([4, 6]))))
    data = to_fpuzzles(got.puzzle)
    # a given or two more, so that some cages can go and some cannot
    n = data["size"]
    for _ in range(2):
        r, c = (int(x) for x in rng.integers(n, size=2))
        data["grid"][r][c] = {"value": rows(got)[r][c], "given": True}
    puzzle = from_fpuzzles(data)
    listed = [
        (x.index, "constraint" if x.keep is None else "sum") for x in removable_constraints(puzzle)
    ]
    assert listed == removable_by_cpsat(data)


def test_removable_needs_a_unique_puzzle() -> None:
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], "diagonal-": True}
    with pytest.raises(NotUniqueError, match="several"):
        removable_constraints(from_fpuzzles(data))
    data = {**data, "antiking": True}  # no 4x4 grid keeps the anti-king rule
    with pytest.raises(NotUniqueError, match="no solution"):
        removable_constraints(from_fpuzzles(data))


# ---------------------------------------------------------------------- command line
def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from(["4", "6"]))
def test_cli_killers(seed: int, size: str) -> None:
    # capsys cannot be used with hypothesis: write to a file
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "k.jsonl"
        args = ["generate", "--killer", "-n", "2", "--size", size, "--seed", str(seed)]
        assert main([*args, "-q", "-o", str(path)]) == 0
        lines = path.read_text().splitlines()
    assert len(lines) == 2
    for k, line in enumerate(lines):
        data = json.loads(line)
        puzzle = from_fpuzzles(data)
        assert cp_count(data) == 1
        assert puzzle == make_killer(item_seed(seed, k), geometry=puzzle.geometry).puzzle


def test_cli_constraints_file_keeps_good_puzzles_around_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**TEMPLATES[0], "thermometer": [{"lines": [["R1C1", "R10C1"]]}]}
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in (TEMPLATES[0], bad, TEMPLATES[1])) + "\n")
    code, out, err = run(
        capsys, "generate", "--constraints", str(path), "--seed", "4", "--format", "jsonl"
    )
    assert code == 2
    assert f"{path}:2: thermometer[0]: cell R10C1 is outside the 9x9 grid" in err
    rows_ = [json.loads(x) for x in out.splitlines()]
    assert [r["source"] for r in rows_] == [f"{path}:1", f"{path}:3"]
    for r in rows_:
        assert cp_count(r["fpuzzles"]) == 1
        assert r["givens"] == len(givens_of(r["fpuzzles"]))
    # puzzle k of the file is seeded with item_seed(seed, k)
    assert rows_[1]["seed"] == item_seed(item_seed(4, 2), 0)


def test_cli_symmetry_and_removable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(TEMPLATES[0]))
    code, out, _ = run(
        capsys,
        "generate",
        "--constraints",
        str(path),
        "--symmetry",
        "mirror",
        "--seed",
        "2",
        "--format",
        "jsonl",
        "--report-removable",
    )
    assert code == 0
    row = json.loads(out)
    cells = np.array([[("value" in c) for c in r] for r in row["fpuzzles"]["grid"]])
    assert (cells == cells[:, ::-1]).all()
    expected = removable_by_cpsat(row["fpuzzles"])
    assert [(x["index"], x["what"]) for x in row["removable"]] == expected


def test_cli_drawn_text_is_fpuzzles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "generate", "--drawn", "thermometer,difference", "--size", "4", "--seed", "1"
    )
    assert code == 0 and "1 variant puzzle" in err
    data = json.loads(out)
    assert cp_count(data) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--killer", "--drawn", "xv"], "choose one kind"),
        (["--killer", "--metric", "se"], "--metric is an option of classic puzzles"),
        (["--killer", "--not-minimal"], "--not-minimal is an option of classic puzzles"),
        (["--drawn", "arrow"], "choose kinds from"),
        (["--killer", "--report-removable"], "use --format jsonl or csv"),
        (["--constraints", "no/such.json"], "no/such.json: no such file"),
        (["--constraints", "x.json", "--size", "6"], "the file gives the grid's shape"),
        (["--killer", "--variant", "x"], "extra units"),
    ],
)
def test_cli_bad_options(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, "generate", *args)
    assert code == 2 and out == ""
    assert message in err
    assert "Traceback" not in err


def test_cli_constraints_with_no_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "thermometer": [{"lines": [["R1C1", "R1C2"]]}, {"lines": [["R1C2", "R1C1"]]}],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "generate", "--constraints", str(path), "--seed", "1")
    assert code == 2 and out == ""
    assert f"{path}:1: the constraints (and givens) of the template allow no grid" in err
