"""The se path is what the se rating rates: the rating's ER is the hardest step
of the very steps the path shows, and every step is sound by an independent
check (placements are the solution's, eliminated candidates are not)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.core.errors import ArgumentError, NotUniqueError
from csp_sudoku.human.catalogue import technique_names
from csp_sudoku.metrics.se import replay, se_rating
from tests.branch_check import check_branches
from tests.conftest import load_lines, load_table
from tests.helpers import cand_sets, plain_peers, solution_of
from tests.independent import check_solution, count_solutions


def _rows(name: str) -> list[dict[str, str]]:
    return load_table(name)


def _sample() -> list[str]:
    """Fast puzzles of three sources: 17-clue, top1465 and the SE calibration set,
    spread over their ratings (cheap enough for a shared machine)."""
    out: list[str] = []
    lines = load_lines("17_clue.txt")
    out += lines[:: max(1, len(lines) // 6)][:6]
    for name in ("se_calibration_top1465.tsv", "se_calibration.tsv"):
        rows = sorted(
            (r for r in _rows(name) if float(r["seconds"]) < 5 and float(r["ER"]) <= 8.5),
            key=lambda r: float(r["ER"]),
        )
        out += [r["puzzle"] for r in rows[:: max(1, len(rows) // 8)][:8]]
    return out


def test_path_maximum_is_the_rating_and_every_step_checks() -> None:
    names = set(technique_names())
    for puzzle in _sample():
        clues = np.array([0 if ch in ".0" else int(ch) for ch in puzzle[:81]])
        assert count_solutions(clues) == 1
        solved = cs.solve(puzzle)
        assert solved is not None
        solution = np.asarray(solved.cells).reshape(-1)
        assert check_solution(solution, clues)
        p = cs.parse(puzzle)
        run = replay(p)
        assert run.solved
        er, _level, _rank, details, _params = se_rating(p)
        assert max(s.difficulty for s in run.steps) == er == run.er
        assert details["hardest"] in names
        assert details["difficulties"] == [round(s.difficulty, 2) for s in run.steps]
        for step in run.steps:
            assert step.technique in names
            for cell, digit in step.placements:
                assert solution[cell] == digit, (puzzle, step)
            for cell, digit in step.eliminations:
                assert solution[cell] != digit, (puzzle, step)


# ---- the public se path: csp_sudoku.solve_path ----

#: top1465: singles, locking, sets, X-Wing, Turbot Fish, forcing, region and
#: cell forcing chains, wings (106 steps, about 0.3 s).
WIDE = "...........5.9.17..3...2..84..........94..3...7.86...4..7..8...2.......1..19...56"


def _units9() -> list[list[int]]:
    rows = [[r * 9 + c for c in range(9)] for r in range(9)]
    cols = [[r * 9 + c for r in range(9)] for c in range(9)]
    boxes = [
        [(br + i) * 9 + bc + j for i in range(3) for j in range(3)]
        for br in (0, 3, 6)
        for bc in (0, 3, 6)
    ]
    return rows + cols + boxes


def _check_figure(step: Any, fig: dict[str, Any], cands: list[set[int]]) -> None:
    """A figure's pattern, checked from the pencil marks with plain 9x9 units:
    what it shows makes the step's eliminations sound."""
    units = _units9()
    peers = plain_peers(units, 81)
    gone = {c for c, _d in step.eliminations}
    d = fig["digit"]
    if "base" in fig:  # a fish: the digit's base cells span as many rows as columns
        base = fig["base"]
        assert all(d in cands[c] for c in base)
        rows, cols = {c // 9 for c in base}, {c % 9 for c in base}
        assert len(rows) == len(cols)
        assert not gone & set(base)
        assert all(c % 9 in cols for c in gone) or all(c // 9 in rows for c in gone)
    if "wing" in fig and d:  # (digit 0: the wings of several digits, joined)
        wing = fig["wing"]
        assert len(set().union(*(cands[c] for c in wing))) == len(wing)
        holders = [c for c in wing if d in cands[c]]
        assert all(all(g in peers[h] for h in holders) for g in gone)
    if "rectangle" in fig:
        rect = fig["rectangle"]
        assert len({c // 9 for c in rect}) == len({c % 9 for c in rect}) == 2
        assert len(set.intersection(*(cands[c] for c in rect))) >= 2
    # a branch's links are checked with their branch (tests/branch_check.py)
    for link in (lk for lk in fig["links"] if "branch" not in lk):
        (a, da, on_a), (b, db, on_b) = link["from"], link["to"]
        assert da in cands[a] and db in cands[b]
        if link["kind"] == "weak":  # a on => b off: they cannot both hold
            assert on_a and not on_b
            assert (a == b and da != db) or (da == db and b in peers[a])
        elif link["kind"] == "strong":  # a off => b on: one of them holds
            assert not on_a and on_b
            if a == b:
                assert cands[a] == {da, db}
            else:  # the digit's places in a unit of both: a and b, or groups of them
                box = {c: next(i for i, u in enumerate(units[18:]) if c in u) for c in range(81)}
                assert da == db and any(
                    a in u
                    and b in u
                    and all(
                        box[c] in (box[a], box[b]) for c in u if da in cands[c] and c not in (a, b)
                    )
                    for u in units
                )
    if step.branches and len(step.branches) > 1:  # the premises cover a cell or a unit
        cells = {c for c, _d, _on in step.branches}
        digits = {dd for _c, dd, _on in step.branches}
        if len(step.branches) == 2 and len(cells) == 1 and len(digits) == 1:
            return  # a double forcing chain: one candidate on and off
        whole = [cands[c] for c in cells] if len(cells) == 1 else []
        assert (len(cells) == 1 and set(digits) == whole[0]) or (
            len(digits) == 1
            and any(cells == {c for c in u if next(iter(digits)) in cands[c]} for u in units)
        )


def test_solve_path_is_the_replay_with_sound_figures() -> None:
    """csp_sudoku.solve_path is the rating's replay (same steps, same ER); every
    step is right against the independent solution and every drawn pattern
    holds in the pencil marks before its step."""
    p = cs.parse(WIDE)
    path = cs.solve_path(WIDE)
    assert path.steps == replay(p).steps and path.solved
    assert path.er == se_rating(p)[0]
    solution = solution_of(p)
    d = json.loads(json.dumps(path.to_dict()))
    assert d["order"] == "se" and len(d["steps"]) == len(path.steps)
    kinds: set[str] = set()
    for state, step, sd in zip(path.states(), path.steps, d["steps"], strict=False):
        for cell, digit in step.placements:
            assert solution[cell] == digit
        for cell, digit in step.eliminations:
            assert solution[cell] != digit
        _check_figure(step, sd["figure"], cand_sets(state))
        kinds |= {k for k in ("base", "wing", "rectangle", "pattern") if k in sd["figure"]}
        kinds |= {link["kind"] for link in sd["figure"]["links"]}
        if step.branches:
            assert check_branches(sd, cand_sets(state)) == len(step.branches)
            kinds |= {"branch"}
    assert {"base", "wing", "pattern", "strong", "weak", "branch"} <= kinds


def test_pointing_and_claiming_are_drawn_in_their_own_shape() -> None:
    """The same removals can be a pointing (a box's places of a digit in one
    line) and a claiming (a line's places in one box); the figure draws the
    shape the step is named for: a pointing's pattern in one box removes
    from its line outside the box, a claiming's in one line from its box."""
    puzzle = "26.7...........4.15........839.........5...6....1......7.....2.....49.......3.8.."
    path = cs.solve_path(puzzle)

    def box(c: int) -> int:
        return (c // 27) * 3 + (c % 9) // 3

    seen = set()
    for step, fig in zip(path.steps, path.figures(), strict=True):
        name = step.technique.removeprefix("Direct ")
        if name not in ("Pointing", "Claiming"):
            continue
        seen.add(name)
        pattern = dict(fig.roles)["pattern"]
        gone = [c for c, _d in step.eliminations] or [c for c, _d in step.shown]
        rows, cols, boxes = (
            {c // 9 for c in pattern},
            {c % 9 for c in pattern},
            {box(c) for c in pattern},
        )
        assert len(boxes) == 1 and (len(rows) == 1 or len(cols) == 1), step
        if name == "Pointing":
            assert all(box(c) not in boxes for c in gone), step
            assert all(c // 9 in rows for c in gone) or all(c % 9 in cols for c in gone), step
        else:
            assert all(box(c) in boxes for c in gone), step
            assert all(c // 9 not in rows for c in gone) or all(c % 9 not in cols for c in gone)
    assert seen == {"Pointing", "Claiming"}


def test_solve_path_orders_and_refusals() -> None:
    from csp_sudoku.human.path import solve_path as human_path

    p = cs.parse(WIDE)
    assert cs.solve_path(p, order="subsets").to_dict() == human_path(p).to_dict()
    with pytest.raises(ArgumentError, match="choose from se, subsets"):
        cs.solve_path(p, order="hodoku")
    with pytest.raises(ArgumentError, match="sukaku"):
        cs.solve_path(p, rater="nope")
    with pytest.raises(ArgumentError, match="max_subset"):
        cs.solve_path(p, max_subset=2)  # a subsets option given to the se path
    with pytest.raises(NotUniqueError, match="several solutions"):
        cs.solve_path("." * 81)


def test_a_budget_stop_keeps_the_steps_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A nested search past its budget ends the path there: the steps found are
    kept (the API, the text with its reason, the JSON), exit 1."""
    from csp_sudoku.cli import main
    from csp_sudoku.core.errors import ChainBudgetExceeded
    from csp_sudoku.human import se_order

    real = se_order._next_step
    calls = {"n": 0}

    def stops_at_five(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] > 5:
            raise ChainBudgetExceeded("past its budget")
        return real(*args, **kwargs)

    whole = cs.solve_path(WIDE)
    monkeypatch.setattr(se_order, "_next_step", stops_at_five)
    path = cs.solve_path(WIDE)
    kept = len(path.steps)
    assert (path.solved, path.stopped) == (False, "budget")
    assert 5 <= kept < len(whole.steps)  # five hints, and the hidden singles between them
    assert [str(s) for s in path.steps] == [str(s) for s in whole.steps[:kept]]
    calls["n"] = 0
    assert main(["explain", WIDE]) == 1
    out = capsys.readouterr().out
    assert f"  {kept}. " in out and f"  {kept + 1}. " not in out
    assert "stopped: a nested search ran past its budget" in out
    calls["n"] = 0
    assert main(["explain", "--json", WIDE]) == 1
    d = json.loads(capsys.readouterr().out)
    assert d["stopped"] == "budget" and len(d["steps"]) == kept


def test_explain_defaults_to_the_se_path(capsys: pytest.CaptureFixture[str]) -> None:
    from csp_sudoku.cli import main

    assert main(["explain", WIDE]) == 0
    out = capsys.readouterr().out
    assert "  4. Turbot Fish (4.1): r4c7<>2" in out
    assert "links: r9c7<>2 => r9c5=2 -> r7c4<>2 => r4c4=2" in out
    assert "branches: r1c8=3 | r1c9=3 | r2c9=3  each => r1c6<>3" in out
    assert out.rstrip().splitlines()[-1].startswith("ER 9.0 (")
    assert main(["explain", "--rater", "nope", WIDE]) == 2
    assert "choose from sukaku, classic" in capsys.readouterr().err
    # the human model's options are refused for the se path, not ignored
    assert main(["explain", "--techniques", "singles", "--budget", "9", WIDE]) == 2
    assert "--techniques, --budget set the human model's path" in capsys.readouterr().err
    assert main(["explain", "." * 81]) == 1
    captured = capsys.readouterr()
    assert "more than one solution" in captured.err and captured.out == ""


def test_nested_chains_are_folded_in_text_and_open_in_json_and_html() -> None:
    """A nested refutation is one link in the text (its conclusion and length),
    the whole inner chain in JSON (``inner``) and a closed <details> in HTML."""
    from csp_sudoku.human.chains import Chain, Link
    from csp_sudoku.metrics.se import folded_chain_text
    from csp_sudoku.tools.explain_view import _chain_html

    g = cs.parse(WIDE).geometry
    inner = Chain(
        (1, 4),
        # r1c3<>4: "row 1 holds 4 once" is exact-cover column 81 + 0 * 9 + 4 - 1
        (Link(1, 4, True, "assume"), Link(2, 4, False, "elim", 84, (0,))),
        0,
        1,
    )
    outer = Chain(
        (0, 3),
        (Link(0, 3, True, "assume"), Link(1, 4, False, "nested", -1, (0,), inner=inner)),
        2,
        2,
    )
    text = "\n".join(folded_chain_text(outer, g, ""))
    assert "r1c2<>4  nested refutation [1 links, folded]" in text
    assert "r1c3" not in text  # the inner chain's link is not printed
    assert outer.to_dict()["links"][1]["inner"]["links"][1]["cell"] == 2
    page = _chain_html(outer, g, 0, 1)
    assert page.count("<details>") == 1 and "r1c3" in page.split("<details>")[1]


def test_a_long_chain_is_drawn_folded() -> None:
    """No figure holds more than MAX_LINKS links: a longer chain keeps its
    assumption and its last links, and says how many it left out."""
    from csp_sudoku.human.se_figures import MAX_LINKS, figure
    from csp_sudoku.human.se_order import SeStep
    from csp_sudoku.human.state import CandidateState

    chain = tuple((k % 81, 1 + k % 9, k % 2 == 0) for k in range(MAX_LINKS + 31))
    step = SeStep("Forcing Chain", 7.9, (), ((0, 1),), len(chain), chain=chain)
    fig = figure(CandidateState.from_puzzle(cs.parse(WIDE)), step)
    assert len(fig.links) == MAX_LINKS and fig.folded == 30
    assert fig.assumption == chain[0] and fig.links[-1][1] == chain[-1]
    assert [strong for _a, _b, strong in fig.links] == [not a[2] for a, _b, _s in fig.links]


# ---- variants: every step sound on X-Sudoku and Windoku ----

#: An X-Sudoku puzzle whose solution holds the rectangle r7c3 r7c8 r9c3 r9c8 on
#: digits 2 and 4: r7c3 lies on a diagonal, so the two digits cannot be swapped
#: and the rectangle is no deadly pattern. A unique rectangle removed the
#: solution's 2 from r9c8, and the replay was stuck.
X_RECTANGLE = "...4......476....9.....3.5......51..3......9..2.......7..98....8.......6......5.."


@pytest.mark.parametrize("variant", ["x", "windoku"])
def test_every_step_is_sound_on_variant_grids(variant: str) -> None:
    from csp_sudoku.generators import minimal_puzzle

    geo = cs.Geometry.x_sudoku(9) if variant == "x" else cs.Geometry.windoku()
    puzzles = [minimal_puzzle(geo, seed=s) for s in range(12)]
    if variant == "x":
        puzzles.append(cs.parse(X_RECTANGLE, geo))
    for p in puzzles:
        found = cs.solutions(p, 2, backend="sat")
        assert len(found) == 1 and cs.count_solutions(p, backend="dlx") == 1
        solution = np.asarray(found[0].cells)
        flags = {"diagonals": True} if variant == "x" else {"windows": True}
        assert check_solution(solution, p.cells, **flags)
        run = replay(p)
        assert run.solved, p.to_line()
        for step in run.steps:
            for cell, digit in step.placements:
                assert solution[cell] == digit, (p.to_line(), step)
            for cell, digit in step.eliminations:
                assert solution[cell] != digit, (p.to_line(), step)
