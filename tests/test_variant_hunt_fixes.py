"""The variant defects of the bug hunt, each held by a test that failed before its fix.

1. A Kropki negative (``"negative": ["difference"]`` or ``["ratio"]``) leaves alone
   every pair with a Kropki dot, white or black (a 1-2 pair may carry either):
   every backend's count, the true candidates and the explained path are held
   against a brute force over every 4x4 grid, written here from the rules.
2. ``candidates`` writes each digit as one symbol (``1D`` is {1, 13}).
3. An f-puzzles line with a U+FFFD character is read whole; a byte that is not
   UTF-8 is said as such, at its true column.
4. ``export fpuzzles`` refuses a grid larger than the reader takes.
5. A region-sum line's parts must be its stretches by region.
6. A little killer must run to the grid's far edge.
7. The explainer's settings are checked by one function: ``explain``, ``rate``,
   ``--max-subset``, ``--param`` alike, a bad option once, before any work.
8. A ``.json`` file holding a JSON array is one clear error.
9. Small messages: an empty file named, a missing field said missing, grammar.

The brute force (:func:`_grids`, :func:`_keeps`) shares no code with the package.
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku import variants
from csp_sudoku.constraints import VariantPuzzle, from_fpuzzles, to_fpuzzles
from csp_sudoku.constraints.little_killer import LittleKiller
from csp_sudoku.constraints.region_sum import RegionSumLine
from csp_sudoku.constraints.whispers import Whispers
from csp_sudoku.core.errors import ArgumentError, ParseError
from tests.helpers import run_cli, run_module

BACKENDS = ("fast", "sat", "cpsat")
Grid = tuple[tuple[int, ...], ...]


# ---------------------------------------------------------------------- brute force
@cache
def _grids() -> tuple[Grid, ...]:
    """Every full 4x4 Sudoku grid (288), by trying every row."""
    rows = list(itertools.permutations(range(1, 5)))
    out: list[Grid] = []

    def extend(done: list[tuple[int, ...]]) -> None:
        if len(done) == 4:
            out.append(tuple(done))
            return
        for row in rows:
            grid = [*done, row]
            cols_ok = all(len({r[c] for r in grid}) == len(grid) for c in range(4))
            boxes_ok = all(
                len({grid[r][c] for r in range(br, min(br + 2, len(grid))) for c in (bc, bc + 1)})
                == 2 * (min(br + 2, len(grid)) - br)
                for br in (0, 2)
                for bc in (0, 2)
                if br < len(grid)
            )
            if cols_ok and boxes_ok:
                extend(grid)

    extend([])
    return tuple(out)


def _cell(name: str) -> tuple[int, int]:
    r, c = name.upper().lstrip("R").split("C")
    return int(r) - 1, int(c) - 1


def _keeps(data: dict[str, Any], g: Grid) -> bool:
    """Whether grid ``g`` keeps the givens, the dots and the Kropki negatives of
    ``data`` (an f-puzzles object), read from the rules: a negative rule binds
    the side-by-side pairs that carry no Kropki dot at all, white or black."""
    for r, row in enumerate(data["grid"]):
        for c, cell in enumerate(row):
            if "value" in cell and g[r][c] != cell["value"]:
                return False
    dotted = set()
    for kind in ("difference", "ratio"):
        for e in data.get(kind, []):
            (ra, ca), (rb, cb) = (_cell(x) for x in e["cells"])
            x, y = g[ra][ca], g[rb][cb]
            dotted.add(frozenset(((ra, ca), (rb, cb))))
            if kind == "difference" and abs(x - y) != 1:
                return False
            if kind == "ratio" and x != 2 * y and y != 2 * x:
                return False
    negative = data.get("negative", [])
    for r in range(4):
        for c in range(4):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr > 3 or cc > 3 or frozenset(((r, c), (rr, cc))) in dotted:
                    continue
                x, y = g[r][c], g[rr][cc]
                if "difference" in negative and abs(x - y) == 1:
                    return False
                if "ratio" in negative and (x == 2 * y or y == 2 * x):
                    return False
    return True


def _solutions(data: dict[str, Any]) -> list[Grid]:
    return [g for g in _grids() if _keeps(data, g)]


def _name(cell: tuple[int, int]) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def _kropki(grid: Grid, rng: np.random.Generator, negative: list[str]) -> dict[str, Any]:
    """A 4x4 f-puzzles object of ``grid``'s Kropki dots: on a pair in ratio 2 that is
    also consecutive (1-2), a white or a black dot at random; every dot the
    negatives need, some of the others; a few givens."""
    data: dict[str, Any] = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "difference": [],
        "ratio": [],
        "negative": negative,
    }
    for r in range(4):
        for c in range(4):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr > 3 or cc > 3:
                    continue
                x, y = grid[r][c], grid[rr][cc]
                fits = (("difference", abs(x - y) == 1), ("ratio", x == 2 * y or y == 2 * x))
                kinds = [k for k, ok in fits if ok]
                if not kinds:
                    continue
                kind = kinds[int(rng.integers(len(kinds)))]
                if kind in negative or rng.random() < 0.5:
                    data[kind].append({"cells": [_name((r, c)), _name((rr, cc))]})
    for cell in rng.permutation(16)[: int(rng.integers(0, 3))].tolist():
        data["grid"][cell // 4][cell % 4] = {"value": grid[cell // 4][cell % 4]}
    return data


#: The reproducer of the hunt: every white dot and every black dot a grid has, a 1-2
#: pair black, under both negatives; the grid is the one solution.
KROPKI12_GRID: Grid = ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))


def _kropki12() -> dict[str, Any]:
    data: dict[str, Any] = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "difference": [],
        "ratio": [],
        "negative": ["difference", "ratio"],
    }
    g = KROPKI12_GRID
    for r in range(4):
        for c in range(4):
            for rr, cc in ((r, c + 1), (r + 1, c)):
                if rr > 3 or cc > 3:
                    continue
                x, y = g[r][c], g[rr][cc]
                entry = {"cells": [_name((r, c)), _name((rr, cc))]}
                if {x, y} == {1, 2} or max(x, y) == 2 * min(x, y):
                    data["ratio"].append(entry)
                elif abs(x - y) == 1:
                    data["difference"].append(entry)
    return data


def _kropki_cases() -> list[dict[str, Any]]:
    rng = np.random.default_rng(2024)
    grids = _grids()
    cases = [_kropki12()]
    for i in range(24):
        negative = [["difference"], ["ratio"], ["difference", "ratio"]][i % 3]
        cases.append(_kropki(grids[int(rng.integers(len(grids)))], rng, negative))
    return cases


KROPKI_CASES = _kropki_cases()


def test_the_kropki_cases_hold_a_1_2_pair_under_the_other_dot() -> None:
    # the cases test what they are meant to: a 1-2 pair carrying a dot of the kind
    # whose negative does not name it, in some solution
    seen = 0
    for data in KROPKI_CASES:
        for kind, other in (("ratio", "difference"), ("difference", "ratio")):
            if other not in data["negative"]:
                continue
            for e in data[kind]:
                (ra, ca), (rb, cb) = (_cell(x) for x in e["cells"])
                seen += any({g[ra][ca], g[rb][cb]} == {1, 2} for g in _solutions(data))
    assert seen >= 5


@pytest.mark.parametrize("index", range(len(KROPKI_CASES)))
def test_a_kropki_dot_of_either_colour_exempts_its_pair_from_both_negatives(index: int) -> None:
    data = KROPKI_CASES[index]
    want = _solutions(data)
    puzzle = from_fpuzzles(json.loads(json.dumps(data)))
    for backend in BACKENDS:
        assert variants.count(puzzle, 300, backend=backend) == len(want), backend
    for g in want:
        assert puzzle.keeps([list(row) for row in g])
    if want:
        cands = variants.candidates(puzzle)
        for cell in range(16):
            got = {d + 1 for d in range(4) if cands[cell, d]}
            assert got == {g[cell // 4][cell % 4] for g in want}, cell


def test_the_reproducer_has_its_grid_as_its_one_solution() -> None:
    data = _kropki12()
    assert _solutions(data) == [KROPKI12_GRID]
    # the setter's solution is read as keeping the puzzle (it was "a damaged file")
    with_solution = {**data, "solution": [d for row in KROPKI12_GRID for d in row]}
    puzzle = from_fpuzzles(with_solution)
    assert [variants.check(puzzle, backend=b) for b in BACKENDS] == ["unique"] * 3


#: The cases with one solution (the explained path is that of a unique puzzle).
UNIQUE = [i for i, data in enumerate(KROPKI_CASES) if len(_solutions(data)) == 1]


@pytest.mark.parametrize("index", UNIQUE[:6])
def test_the_explained_path_of_a_kropki_negative_holds_in_every_solution(index: int) -> None:
    from csp_sudoku.variants.explain import explain

    data = KROPKI_CASES[index]
    (g,) = _solutions(data)
    path = explain(from_fpuzzles(data))
    assert not path.contradiction
    for step in path.steps:
        for cell, digit in step.placements:
            assert g[cell // 4][cell % 4] == digit
        for cell, digit in step.eliminations:
            assert g[cell // 4][cell % 4] != digit


def test_a_black_dot_on_a_1_2_pair_under_all_white_dots_given_on_9x9() -> None:
    # /tmp/hunt_variants/k12_9.json: 'none' before, though it has solutions
    data: dict[str, Any] = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)]}
    data["grid"][0][0] = {"value": 1}
    data["grid"][0][1] = {"value": 2}
    data["ratio"] = [{"cells": ["R1C1", "R1C2"]}]
    data["negative"] = ["difference"]
    puzzle = from_fpuzzles(data)
    for backend in BACKENDS:
        assert variants.check(puzzle, backend=backend) == "multiple", backend
        sol = variants.solve(puzzle, backend=backend)
        assert sol is not None
        rows = sol.cells.reshape(9, 9).tolist()
        assert rows[0][:2] == [1, 2]
        for r in range(9):  # no other side-by-side pair is consecutive
            for c in range(9):
                for rr, cc in ((r, c + 1), (r + 1, c)):
                    if rr < 9 and cc < 9 and (r, c, rr, cc) != (0, 0, 0, 1):
                        assert abs(rows[r][c] - rows[rr][cc]) != 1


def test_the_global_nonconsecutive_rule_still_binds_every_pair() -> None:
    data: dict[str, Any] = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "ratio": [{"cells": ["R1C1", "R1C2"]}],
        "nonconsecutive": True,
    }
    data["grid"][0][0] = {"value": 1}
    data["grid"][0][1] = {"value": 2}
    assert [variants.count(from_fpuzzles(data), 5, backend=b) for b in BACKENDS] == [0, 0, 0]


# ---------------------------------------------------------------------- 2. candidates
_SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def _grid16() -> tuple[list[list[int]], tuple[int, int, int, int]]:
    """A full 16x16 grid and a rectangle of it whose digits 1 and 13 can swap: rows r1,
    r2 of one band, columns c1, c2 of two stacks, 1 and 13 crossed (two solutions
    once the four cells are blank).

    The pattern ``4 (r % 4) + r // 4 + c`` has such rectangles for digits 8 apart
    (1 and 9); 9 and 13 are then swapped everywhere, so that the rectangle holds a
    digit past 9."""
    g = [[(4 * (r % 4) + r // 4 + c) % 16 + 1 for c in range(16)] for r in range(16)]
    g = [[{9: 13, 13: 9}.get(v, v) for v in row] for row in g]
    for r1, r2 in itertools.combinations(range(16), 2):
        for c1, c2 in itertools.permutations(range(16), 2):
            if r1 // 4 != r2 // 4 or c1 // 4 == c2 // 4:
                continue
            if (g[r1][c1], g[r1][c2], g[r2][c1], g[r2][c2]) == (1, 13, 13, 1):
                return g, (r1, r2, c1, c2)
    raise AssertionError("no rectangle")


def _expected16(g: list[list[int]], blanks: list[tuple[int, int]]) -> list[set[int]]:
    """Each cell's digits over every completion of the givens (brute force)."""
    options = []
    for r, c in blanks:
        used = {g[r][x] for x in range(16)} | {g[x][c] for x in range(16)}
        used |= {
            g[rr][cc]
            for rr in range(r // 4 * 4, r // 4 * 4 + 4)
            for cc in range(c // 4 * 4, c // 4 * 4 + 4)
        }
        options.append(sorted(set(range(1, 17)) - (used - {0})))
    out = [{g[r][c]} if g[r][c] else set() for r in range(16) for c in range(16)]
    for pick in itertools.product(*options):
        h = [row[:] for row in g]
        for (r, c), d in zip(blanks, pick, strict=True):
            h[r][c] = d
        units = [[h[r][c] for c in range(16)] for r in range(16)]
        units += [[h[r][c] for r in range(16)] for c in range(16)]
        units += [
            [h[r][c] for r in range(br, br + 4) for c in range(bc, bc + 4)]
            for br in range(0, 16, 4)
            for bc in range(0, 16, 4)
        ]
        if all(sorted(u) == list(range(1, 17)) for u in units):
            for (r, c), d in zip(blanks, pick, strict=True):
                out[r * 16 + c].add(d)
    return out


def test_candidates_of_a_16x16_puzzle_read_back_one_cell_at_a_time(tmp_path: Path) -> None:
    g, (r1, r2, c1, c2) = _grid16()
    blanks = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
    for r, c in blanks:
        g[r][c] = 0
    data = {
        "size": 16,
        "grid": [[{"value": v} if v else {} for v in row] for row in g],
    }
    path = tmp_path / "c16.json"
    path.write_text(json.dumps(data))
    want = ["".join(_SYMBOLS[d - 1] for d in sorted(ds)) or "-" for ds in _expected16(g, blanks)]
    assert want[r1 * 16 + c1] == "1D"

    code, out, err = run_cli(["candidates", "-q", str(path)])
    assert code == 0, err
    assert out.rstrip("\n").split("\t")[1].split(" ") == want
    code, out, err = run_cli(["candidates", "-q", str(path), "--format", "jsonl"])
    assert code == 0, err
    cells = json.loads(out)["candidates"]
    assert cells == want
    # every cell reads back as its set of digits, alone
    assert [{_SYMBOLS.index(ch) + 1 for ch in x} for x in cells] == _expected16(g, blanks)


# ---------------------------------------------------------------------- 3. U+FFFD, not UTF-8
def _thermo4(title: str, at_end: bool = True) -> dict[str, Any]:
    """A 4x4 thermometer puzzle titled ``title``, written last (``at_end``: past the
    80 characters the plain reader keeps of a line it refuses) or first."""
    data = {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "thermometer": [{"lines": [["R2C1", "R2C2", "R2C3", "R2C4"]]}],
    }
    return {**data, "title": title} if at_end else {"title": title, **data}


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
@pytest.mark.parametrize("at_end", [False, True])
def test_a_replacement_character_in_a_title_is_text(
    tmp_path: Path, suffix: str, at_end: bool
) -> None:
    data = _thermo4("a\ufffdb", at_end)
    path = tmp_path / f"fffd{suffix}"
    path.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    code, out, err = run_cli(["count", "-q", str(path)])
    assert code == 0, err
    assert out == f"{path}:1\t{variants.count(from_fpuzzles(data), 1000)}\n"


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
@pytest.mark.parametrize("at_end", [False, True])
def test_a_byte_that_is_not_utf8_is_said_at_its_column(
    tmp_path: Path, suffix: str, at_end: bool
) -> None:
    text = json.dumps(_thermo4("XYZ", at_end))
    column = text.index("XYZ") + 1
    path = tmp_path / f"latin{suffix}"
    path.write_bytes(text.replace("XYZ", "caf\xe9").encode("latin-1") + b"\n")
    code, out, err = run_cli(["check", "-q", str(path)])
    assert code == 2
    assert f"{path}:1:{column + 3}: bytes that are not UTF-8 text" in err
    assert "malformed JSON" not in err + out


def test_a_document_over_several_lines_with_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    text = json.dumps(_thermo4("XYZ"), indent=1)
    before = text[: text.index("XYZ")]
    line, column = before.count("\n") + 1, len(before) - before.rfind("\n") + 3
    path = tmp_path / "multi.json"
    path.write_bytes(text.replace("XYZ", "caf\xe9").encode("latin-1"))
    code, _, err = run_cli(["check", "-q", str(path)])  # read as 'caf\ufffd' before
    assert code == 2
    assert f"{path}:{line}:{column}: bytes that are not UTF-8 text" in err
    good = tmp_path / "multi_fffd.json"
    good.write_text(json.dumps(_thermo4("a\ufffdb"), indent=1, ensure_ascii=False), "utf-8")
    assert run_cli(["check", "-q", str(good)])[0] == 1  # multiple: answered


def test_standard_input_with_a_byte_that_is_not_utf8_says_so() -> None:
    # standard input cannot be read again: the plain reader's reason and column stand
    # (the entry's text, cut to 80 characters, was parsed as JSON before)
    text = json.dumps(_thermo4("XYZ"))
    column = text.index("XYZ") + 4
    data = text.replace("XYZ", "caf\xe9").encode("latin-1") + b"\n"
    proc = run_module(["check", "-q", "-"], text=False, input=data)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert f"<stdin>:1:{column}: bytes that are not UTF-8 text" in err
    assert "malformed JSON" not in err


# ---------------------------------------------------------------------- 4. export sizes
@pytest.mark.parametrize("args", [["--size", "25"], ["--size", "20"], ["--size", "25", "--link"]])
def test_export_refuses_a_grid_the_reader_refuses(args: list[str]) -> None:
    code, out, err = run_cli(["export", "fpuzzles", *args])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "16x16" in err


def test_what_export_writes_reads_back() -> None:
    from csp_sudoku.constraints.fpuzzles import LARGEST

    for size in (1, 4, 6, 8, 9, 10, 12, 16, 20, 25):
        try:
            g = cs.Geometry.standard(size)
        except cs.SudokuError:
            continue
        p = VariantPuzzle(cs.Puzzle(np.zeros(g.ncells, dtype=np.int8), g))
        if size > LARGEST:
            with pytest.raises(ParseError, match="no f-puzzles grid"):
                to_fpuzzles(p)
            continue
        assert from_fpuzzles(to_fpuzzles(p)) == p
        code, out, err = run_cli(["export", "fpuzzles", "--size", str(size)])
        assert code == 0, err
        assert from_fpuzzles(json.loads(out)) == p


# ---------------------------------------------------------------------- 5. region-sum parts
def test_region_sum_parts_must_be_the_stretches_by_region() -> None:
    empty = cs.Puzzle(np.zeros(16, dtype=np.int8))
    with pytest.raises(ParseError, match=r"constraints\[0\] \(regionsumline\): parts: not the"):
        VariantPuzzle(empty, (RegionSumLine((((0, 0),), ((0, 1),))),))
    with pytest.raises(ParseError, match="stretches"):  # one box cut in two
        VariantPuzzle(empty, (RegionSumLine((((0, 0),), ((1, 0),), ((2, 0),))),))
    line = ((0, 0), (0, 1), (0, 2), (0, 3))
    good = RegionSumLine.along(line, empty.geometry)
    assert good.parts == (((0, 0), (0, 1)), ((0, 2), (0, 3)))
    p = VariantPuzzle(empty, (good,))
    assert from_fpuzzles(to_fpuzzles(p)) == p
    # a jigsaw's regions cut the line where they do: R1C2-R1C3 is one region's here
    jig = cs.Geometry.jigsaw([0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3])
    grid = cs.Puzzle(np.zeros(16, dtype=np.int8), jig)
    whole = RegionSumLine((((0, 1), (0, 2)),))
    assert VariantPuzzle(grid, (whole,)).constraints == (whole,)
    with pytest.raises(ParseError, match=r"not the line's stretches by region \(R1C2 \| R1C3\)"):
        VariantPuzzle(empty, (whole,))


# ---------------------------------------------------------------------- 6. little killer
@pytest.mark.parametrize(
    "entry",
    [
        {"cell": "R0C0", "cells": ["R1C1", "R2C2"], "direction": "DR", "value": "3"},
        {"cells": ["R4C1", "R3C2"], "direction": "UR", "value": "3"},
        {"cells": ["R1C4"], "direction": "DL", "value": "3"},
    ],
)
def test_a_little_killer_short_of_the_far_edge_is_refused(entry: dict[str, Any]) -> None:
    data = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]}
    with pytest.raises(
        ParseError, match=r"littlekillersum\[0\]: the diagonal stops at .* far edge"
    ):
        from_fpuzzles({**data, "littlekillersum": [entry]})
    cells = tuple(_cell(x) for x in entry["cells"])
    with pytest.raises(ParseError, match="short of the grid's far edge"):
        VariantPuzzle(
            cs.Puzzle(np.zeros(16, dtype=np.int8)),
            (LittleKiller(cells, 4, "", entry["direction"]),),
        )
    whole = {
        "cell": "R0C0",
        "cells": ["R1C1", "R2C2", "R3C3", "R4C4"],
        "direction": "DR",
        "value": "10",
    }
    assert from_fpuzzles({**data, "littlekillersum": [whole]}).constraints


# ---------------------------------------------------------------------- 7. settings
def test_the_explainer_refuses_a_setting_out_of_range() -> None:
    from csp_sudoku.variants.explain import MAX_SUBSET, explain
    from csp_sudoku.variants.rating import rate_variant

    p = from_fpuzzles(_thermo4(""))
    for call in (explain, rate_variant):
        with pytest.raises(
            ArgumentError, match=f"max_subset must be from 0 to {MAX_SUBSET}, not 9"
        ):
            call(p, max_subset=9)
        with pytest.raises(ArgumentError, match="budget must be at least 1, not 0"):
            call(p, budget=0)


def test_the_command_line_shows_the_library_s_bound() -> None:
    from csp_sudoku.cli.variant_explain import MAX_SUBSET as SHOWN
    from csp_sudoku.variants.explain import MAX_SUBSET

    assert SHOWN == MAX_SUBSET


def _unique_jsonl(tmp_path: Path) -> Path:
    """A file of two unique 4x4 thermometer puzzles (givens of its solution added in
    order until the puzzle is unique)."""
    data = _thermo4("")
    solution = variants.solve(from_fpuzzles(data))
    assert solution is not None
    for cell, digit in enumerate(solution.cells.tolist()):
        if variants.check(from_fpuzzles(data)) == "unique":
            break
        data["grid"][cell // 4][cell % 4] = {"value": digit}
    assert variants.check(from_fpuzzles(data)) == "unique"
    path = tmp_path / "u.jsonl"
    path.write_text(json.dumps(data) + "\n" + json.dumps(data) + "\n")
    return path


@pytest.mark.parametrize(
    ("param", "why"),
    [
        ("max_subset=100", "max_subset must be from 0 to 4, not 100"),
        ("budget=0", "budget must be at least 1, not 0"),
        ("max_subset=-1", "max_subset must be from 0 to 4, not -1"),
    ],
)
def test_rate_refuses_a_bad_param_once_before_any_work(
    tmp_path: Path, param: str, why: str
) -> None:
    path = _unique_jsonl(tmp_path)
    code, out, err = run_cli(["rate", str(path), "--param", param])
    assert code == 2 and out == ""
    assert err == f"csp-sudoku rate: --param {param!r}: {why}\n"


def test_explain_refuses_its_options_by_the_same_check(tmp_path: Path) -> None:
    path = _unique_jsonl(tmp_path)
    code, out, err = run_cli(["explain", str(path), "--max-subset", "5"])
    assert code == 2 and out == "" and "--max-subset must be from 0 to 4, not 5" in err
    code, out, err = run_cli(["explain", str(path), "--budget", "0"])
    assert code == 2 and out == "" and "--budget must be at least 1, not 0" in err


# ---------------------------------------------------------------------- 8. a JSON array
@pytest.mark.parametrize("text", ["[1, 2, 3]", None])
def test_a_json_file_holding_an_array_is_one_clear_error(tmp_path: Path, text: str | None) -> None:
    if text is None:  # two f-puzzles objects, the array over several lines
        text = "[" + json.dumps(_thermo4("")) + ",\n" + json.dumps(_thermo4("")) + "]\n"
    path = tmp_path / "list.json"
    path.write_text(text)
    code, out, err = run_cli(["check", str(path)])
    assert code == 2
    said = [x for x in err.splitlines() if x.startswith("csp-sudoku check:")]
    assert said == [
        f"csp-sudoku check: {path}:1: a JSON array, not an f-puzzles object: for several "
        "puzzles, write one object a line (JSON Lines, a .jsonl file)"
    ]
    assert "1 variant puzzle: 0 unique, 0 not unique, 1 bad" in err
    assert out.count("\n") == 1


# ---------------------------------------------------------------------- 9. messages
def test_an_empty_json_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("")
    code, out, err = run_cli(["check", str(path)])
    assert code == 2 and out == ""
    assert err == f"csp-sudoku: error: {path}: no puzzles found in the input\n"


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({}, "size: the field 'size' is missing"),
        ({"size": 4}, "grid: the field 'grid' is missing"),
    ],
)
def test_a_missing_field_is_said_missing(data: dict[str, Any], why: str) -> None:
    with pytest.raises(ParseError, match=why):
        from_fpuzzles(data)


def test_a_line_of_one_cell_is_said_in_the_singular() -> None:
    empty = cs.Puzzle(np.zeros(16, dtype=np.int8))
    with pytest.raises(ParseError, match=r"\(whispers\): a line of 1 cell; at least 2"):
        VariantPuzzle(empty, (Whispers(((0, 0),)),))
