"""The variant explainer's path, every step held against an independent checker.

The checker shares no code with :mod:`csp_sudoku.variants.explain`: on 4x4
puzzles it is this file's own brute force (every 4x4 Sudoku grid, kept when
:func:`tests.independent_variants.broken_rules` finds nothing broken); on
9x9 puzzles the solutions come from the CP-SAT backend (an encoding written
apart from the CNF clauses the explainer filters with) and are judged by
``broken_rules`` too, and an elimination on a puzzle with several solutions
is checked by asking CP-SAT for a solution with that digit placed there.
Every placement must be every solution's digit, every elimination (a
refutation's included) a digit no solution has there, and the candidates
left at the end must hold every solution.
"""

from __future__ import annotations

import copy
import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_sudoku import variants
from csp_sudoku.cli import main
from csp_sudoku.constraints import from_fpuzzles
from csp_sudoku.variants.explain import VariantPath, explain
from tests.independent_variants import broken_rules
from tests.variant_maker import make_cases

Grid = list[list[int]]


def nm(r: int, c: int) -> str:
    return f"R{r + 1}C{c + 1}"


# ------------------------------------------------------------------ the checker
@cache
def all_4x4() -> tuple[tuple[int, ...], ...]:
    """Every 4x4 Sudoku grid (288), row-major, by plain enumeration."""
    out = []
    perms = list(itertools.permutations(range(1, 5)))
    for rows in itertools.product(perms, repeat=4):
        ok = all(len({rows[r][c] for r in range(4)}) == 4 for c in range(4))
        boxes = (
            {rows[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}
            for br in (0, 2)
            for bc in (0, 2)
        )
        if ok and all(len(b) == 4 for b in boxes):
            out.append(tuple(d for row in rows for d in row))
    return tuple(out)


def brute_solutions(data: dict[str, Any]) -> list[tuple[int, ...]]:
    """The solutions of a 4x4 f-puzzles object: the grids that break no rule."""
    return [
        g
        for g in all_4x4()
        if not broken_rules(data, [list(g[r * 4 : r * 4 + 4]) for r in range(4)])
    ]


def cpsat_solutions(data: dict[str, Any], limit: int = 2) -> list[tuple[int, ...]]:
    """Solutions by CP-SAT, each checked from the rules."""
    n = data["size"]
    out = []
    for s in variants.solutions(from_fpuzzles(data), limit, backend="cpsat"):
        cells = tuple(int(v) for v in s.cells.tolist())
        assert broken_rules(data, [list(cells[r * n : r * n + n]) for r in range(n)]) == []
        out.append(cells)
    return out


def with_given(data: dict[str, Any], cell: int, d: int) -> dict[str, Any]:
    n = data["size"]
    out = copy.deepcopy(data)
    out["grid"][cell // n][cell % n] = {"value": d, "given": True}
    return out


def claims(path: VariantPath) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Every placement and elimination the path asserts (a refutation's chain is hypothetical)."""
    placed: list[tuple[int, int]] = []
    removed: list[tuple[int, int]] = []
    for s in path.steps:
        placed.extend(s.placements)
        removed.extend(s.eliminations)
    return placed, removed


def check_path(
    data: dict[str, Any], path: VariantPath, sols: list[tuple[int, ...]], *, complete: bool
) -> None:
    """Hold the path against ``sols``: all solutions when ``complete``, else a sample."""
    n = data["size"]
    placed, removed = claims(path)
    for cell, d in placed:
        assert all(s[cell] == d for s in sols), (cell, d)
    for cell, d in removed:
        assert all(s[cell] != d for s in sols), (cell, d)
    for s in sols:  # the candidates left hold every solution
        for cell in range(n * n):
            v = path.values[cell]
            assert v == s[cell] if v else path.candidates[cell] >> (s[cell] - 1) & 1
    if path.solved:
        assert list(path.values) == list(sols[0])
        assert not complete or len(sols) == 1
    else:
        assert path.stopped in ("guess", "budget") or path.contradiction
    if complete and len(sols) > 1:
        assert not path.solved and path.stopped == "guess"


def check_multiple(data: dict[str, Any], path: VariantPath, sample: int = 12) -> None:
    """On a puzzle with several solutions: a sample of eliminations, each placed by CP-SAT."""
    _, removed = claims(path)
    rng = np.random.default_rng(len(removed))
    for k in rng.permutation(len(removed))[:sample].tolist():
        cell, d = removed[k]
        assert variants.count(from_fpuzzles(with_given(data, cell, d)), 1, backend="cpsat") == 0


# ------------------------------------------------------------------ 4x4 puzzles
def random_4x4(seed: int) -> dict[str, Any]:
    """A 4x4 f-puzzles object whose constraints are drawn to fit a random grid."""
    rng = np.random.default_rng(seed)
    grids = all_4x4()
    g = grids[int(rng.integers(len(grids)))]
    v = lambda r, c: g[r * 4 + c]  # noqa: E731
    data: dict[str, Any] = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    pairs = [
        ((r, c), (r + dr, c + dc))
        for r in range(4)
        for c in range(4)
        for dr, dc in ((0, 1), (1, 0))
    ]
    pairs = [(a, b) for a, b in pairs if b[0] < 4 and b[1] < 4]
    for k in rng.permutation(len(pairs))[: int(rng.integers(2, 7))].tolist():
        a, b = pairs[k]
        x, y = v(*a), v(*b)
        cells = [nm(*a), nm(*b)]
        pick = int(rng.integers(5))
        if pick == 0 and abs(x - y) == 1:
            data.setdefault("difference", []).append({"cells": cells})
        elif pick == 1 and (x == 2 * y or y == 2 * x):
            data.setdefault("ratio", []).append({"cells": cells})
        elif pick == 2 and x + y == 5:
            data.setdefault("xv", []).append({"cells": cells, "value": "V"})
        elif pick == 3:
            line = cells if x < y else cells[::-1]
            data.setdefault("thermometer", []).append({"lines": [line]})
        else:
            data.setdefault("killercage", []).append({"cells": cells, "value": str(x + y)})
    for _ in range(int(rng.integers(0, 3))):  # an arrow down a column, when the grid has one
        r, c = int(rng.integers(2)), int(rng.integers(4))
        if v(r, c) == v(r + 1, c) + v(r + 2, c):
            line = [nm(r, c), nm(r + 1, c), nm(r + 2, c)]
            data.setdefault("arrow", []).append({"cells": [nm(r, c)], "lines": [line]})
    for k in rng.permutation(16)[: int(rng.integers(0, 4))].tolist():
        data["grid"][k // 4][k % 4] = {"value": g[k], "given": True}
    return data


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_4x4_paths_hold_against_brute_force(seed: int) -> None:
    data = random_4x4(seed)
    sols = brute_solutions(data)
    assert sols  # drawn to fit a grid
    path = explain(from_fpuzzles(data))
    check_path(data, path, sols, complete=True)


HAND_4X4 = {
    # the thermometer fixes row 2; the cage, the arrow and the V dot do the rest
    "thermo, killer, xv": {
        "thermometer": [{"lines": [["R2C1", "R2C2", "R2C3", "R2C4"]]}],
        "killercage": [
            {"cells": ["R1C1", "R1C2"], "value": "7"},
            {"cells": ["R3C1", "R4C2"], "value": "7"},
        ],
        "xv": [{"cells": ["R3C3", "R3C4"], "value": "V"}],
    },
    "kropki and arrow": {
        "difference": [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C3", "R2C4"]}],
        "ratio": [{"cells": ["R3C1", "R3C2"]}, {"cells": ["R4C3", "R4C4"]}],
        "arrow": [{"cells": ["R1C4"], "lines": [["R1C4", "R2C4", "R3C4"]]}],
    },
}


@pytest.mark.parametrize("name", sorted(HAND_4X4))
def test_hand_made_4x4(name: str) -> None:
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], **HAND_4X4[name]}
    sols = brute_solutions(data)
    path = explain(from_fpuzzles(data))
    check_path(data, path, sols, complete=True)
    assert any(s.kind == "constraint" for s in path.steps)


# ------------------------------------------------------------------ 9x9 puzzles
CASES = make_cases(2024)
UNIQUE = [(label, d) for label, d in CASES if label.endswith(":unique")]
#: by kind: the maker's puzzle with a given taken away (several solutions) and the broken one
SEVERAL = {
    k: d for label, d in CASES for k, what in [label.split(":")] if what not in ("unique", "broken")
}
BROKEN = {k: d for label, d in CASES for k, what in [label.split(":")] if what == "broken"}
#: the maker's puzzles whose paths need many refutations (seconds to a minute each)
HEAVY = {"antiking", "nonconsecutive", "littlekillersum"}


@pytest.mark.parametrize(
    ("label", "data"),
    [
        pytest.param(label, d, marks=[pytest.mark.slow] if label.split(":")[0] in HEAVY else [])
        for label, d in UNIQUE
    ],
    ids=[label for label, _ in UNIQUE],
)
def test_random_9x9_paths_hold_against_cpsat(label: str, data: dict[str, Any]) -> None:
    sols = cpsat_solutions(data)
    assert len(sols) == 1, label
    path = explain(from_fpuzzles(data))
    check_path(data, path, sols, complete=True)
    assert path.solved or path.stopped == "guess", label


@pytest.mark.parametrize("kind", ["killercage", "thermometer", "arrow", "ratio"])
def test_a_puzzle_with_several_solutions_stops_needing_a_guess(kind: str) -> None:
    data = SEVERAL[kind]
    sols = cpsat_solutions(data, 2)
    assert len(sols) == 2
    path = explain(from_fpuzzles(data), max_subset=1)
    check_path(data, path, sols, complete=False)
    assert not path.solved and path.stopped == "guess"
    check_multiple(data, path)
    empty, cands = path.left()
    assert empty > 0 and cands > empty
    cell = path.guess_cell()
    assert path.values[cell] == 0 and path.candidates[cell].bit_count() >= 2


def row_cages(total_a: int, total_b: int) -> dict[str, Any]:
    cages = [
        {"cells": [nm(0, c) for c in range(4)], "value": str(total_a)},
        {"cells": [nm(0, c) for c in range(4, 8)], "value": str(total_b)},
    ]
    return {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], "killercage": cages}


def test_the_45_rule_gives_the_innie_of_a_row() -> None:
    data = row_cages(18, 23)  # row 1 = 5 3 9 1 | 7 2 6 8 | 4: the innie r1c9 is 45 - 41
    path = explain(from_fpuzzles(data), max_steps=1)
    (step,) = path.steps
    assert step.kind == "45 rule" and "r1c9" in step.why
    assert sorted(d for _, d in step.eliminations) == [1, 2, 3, 5, 6, 7, 8, 9]
    assert {c for c, _ in step.eliminations} == {8}
    for cell, d in step.eliminations:
        assert variants.count(from_fpuzzles(with_given(data, cell, d)), 1, backend="cpsat") == 0


def test_outies_of_a_box() -> None:
    # box 1 (r1-3 c1-3) with one cage sticking out of it by r1c4: the outie is the cage's
    # total plus the others' minus 45
    grid = [[{} for _ in range(9)] for _ in range(9)]
    cages = [
        {"cells": ["R1C1", "R1C2", "R1C3", "R1C4"], "value": "12"},
        {"cells": ["R2C1", "R2C2", "R2C3"], "value": "15"},
        {"cells": ["R3C1", "R3C2", "R3C3"], "value": "22"},
    ]
    data = {"size": 9, "grid": grid, "killercage": cages}
    path = explain(from_fpuzzles(data), max_subset=1, budget=1)
    forty_five = [s for s in path.steps if s.kind == "45 rule"]
    assert forty_five and any("outies of box 1" in s.why for s in forty_five)
    step = next(s for s in forty_five if "outies of box 1" in s.why)
    assert {c for c, _ in step.eliminations} == {3}  # r1c4 = 12 + 15 + 22 - 45 = 4
    assert (3, 4) not in step.eliminations and path.candidates[3] == 1 << 3  # only 4 is left
    for cell, d in step.eliminations:
        assert variants.count(from_fpuzzles(with_given(data, cell, d)), 1, backend="cpsat") == 0


@cache
def _refuted() -> tuple[str, Any]:
    """The first of the maker's light unique puzzles whose path refutes a candidate
    (which one depends on the maker's draws, not fixed here)."""
    for label, data in UNIQUE:
        if label.split(":")[0] not in HEAVY and any(
            s.kind == "refutation" for s in explain(from_fpuzzles(data)).steps
        ):
            return label, data
    raise AssertionError("no light unique puzzle of the maker needs a refutation")


def test_a_refutation_step_keeps_its_chain() -> None:
    _label, data = _refuted()
    path = explain(from_fpuzzles(data))
    sols = cpsat_solutions(data)
    check_path(data, path, sols, complete=True)
    refs = [s for s in path.steps if s.kind == "refutation"]
    assert refs
    for s in refs:
        (cell, d) = s.assumption or (-1, -1)
        assert s.eliminations == ((cell, d),) and sols[0][cell] != d
        assert s.chain[0].placements == ((cell, d),) and s.contradiction
        assert s.to_dict()["chain"][0]["kind"] == "assume"


def test_no_refutation_means_a_guess() -> None:
    _label, data = _refuted()
    path = explain(from_fpuzzles(data), budget=1)
    assert not path.solved and path.stopped in ("guess", "budget")
    check_path(data, path, cpsat_solutions(data), complete=False)


def test_a_puzzle_without_solution_ends_in_a_contradiction() -> None:
    data = BROKEN["killercage"]
    assert cpsat_solutions(data) == []
    path = explain(from_fpuzzles(data), max_subset=1)
    assert path.contradiction or path.stopped == "guess"
    assert not path.solved


def test_a_full_grid_that_breaks_a_constraint_is_no_solution() -> None:
    """Singles filled the last cells before the palindrome's marks were looked at
    again, and the path said "solved" with a grid that breaks it."""
    empty = [[{} for _ in range(4)] for _ in range(4)]
    data = {
        "size": 4,
        "grid": empty,
        "slowthermometer": [
            {"lines": [["R2C3", "R2C2", "R3C1", "R4C2"]]},
            {"lines": [["R1C4", "R2C3"]]},
        ],
        "palindrome": [{"lines": [["R4C4", "R3C3"]]}],
    }
    assert brute_solutions(data) == []
    path = explain(from_fpuzzles(data))
    assert path.contradiction and not path.solved


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_two_grids_constraints_solved_only_when_solvable(seed: int) -> None:
    """The constraints of two random grids together: often no solution at all. A
    path says solved only with the one solution, and never on a puzzle without."""
    data = random_4x4(seed)
    for kind, items in random_4x4(seed + 1).items():
        if kind not in ("size", "grid"):
            data.setdefault(kind, []).extend(items)
    sols = brute_solutions(data)
    path = explain(from_fpuzzles(data))
    if path.solved:
        assert sols == [tuple(path.values)]
    if not sols:
        assert not path.solved and (path.contradiction or path.stopped in ("guess", "budget"))
    else:
        check_path(data, path, sols, complete=True)


def test_the_json_and_text_forms() -> None:
    data = dict(CASES)["killercage:unique"]
    path = explain(from_fpuzzles(data))
    d = json.loads(json.dumps(path.to_dict()))
    assert d["solved"] and d["guess"] is None and len(d["steps"]) == len(path.steps)
    assert set(d["technique_counts"]) <= {s["technique"] for s in d["steps"]}
    constraint = [s for s in d["steps"] if s["kind"] == "constraint"]
    assert constraint and all(0 <= s["constraint"] < len(d["constraints"]) for s in constraint)
    text = path.describe()
    assert text[-1].startswith("solved in ")


# ------------------------------------------------------------------ the command line
def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_text_json_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = dict(CASES)["killercage:unique"]
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data))
    code, out, _ = run(capsys, "explain", str(f))
    assert code == 0 and "killer cage combinations" in out and "solved in" in out
    code, out, _ = run(capsys, "explain", str(f), "--json")
    got = json.loads(out)
    assert code == 0 and got["solved"]
    final = [int(ch) for ch in got["final"]]
    assert broken_rules(data, [final[r * 9 : r * 9 + 9] for r in range(9)]) == []
    page = tmp_path / "p.html"
    code, _, _ = run(capsys, "explain", str(f), "--html", str(page))
    assert code == 0 and "killer cage combinations" in page.read_text()


def test_cli_bad_input_and_several_solutions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = dict(CASES)["thermometer:unique"]
    bad = {**good, "thermometer": [{"lines": [["R1C1", "R10C1"]]}]}
    fewer = SEVERAL["thermometer"]
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(json.dumps(d) for d in (bad, good, fewer)) + "\n")
    code, out, err = run(capsys, "explain", str(f), "--json")
    assert code == 2
    assert [json.loads(x)["solved"] for x in out.splitlines()] == [True]
    assert f"{f}:1: thermometer[0]: cell R10C1 is outside the 9x9 grid" in err
    assert f"{f}:3: the puzzle has more than one solution" in err
    code, out, err = run(capsys, "explain", str(tmp_path / "p2.json"))
    assert code == 2 and "no such file" in err
    g = tmp_path / "one.json"
    g.write_text(json.dumps(good))
    code, _, err = run(capsys, "explain", str(g), "--order", "subsets")
    assert code == 2 and "--order" in err and "Traceback" not in err
    code, _, _ = run(capsys, "explain", str(g), "--budget", "0")
    assert code == 2


def test_a_plain_puzzle_is_explained_as_one_without_constraints() -> None:
    """explain(Puzzle) raised AttributeError; the other variant functions take one."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError

    plain = cs.parse("1234341221434321")
    plain = cs.Puzzle(np.where(np.arange(16) % 3 == 0, 0, plain.cells), plain.geometry)
    path = explain(plain)
    assert path.solved and path.values == [int(v) for v in "1234341221434321"]
    with pytest.raises(ArgumentError, match="a variant puzzle is a VariantPuzzle"):
        explain(3.5)  # type: ignore[arg-type]
