"""Solve paths: never a wrong placement or elimination; singles paths equal a plain
singles solver; JSON form; the explain command."""

from __future__ import annotations

import json

import numpy as np
import pytest

from csp_sudoku import Geometry, Puzzle, parse, solve
from csp_sudoku.cli import main
from csp_sudoku.human.path import SolvePath, solve_path
from tests.helpers import generated_puzzles, lines_of, plain_singles_path, solution_of

ALL = ("singles", "subsets", "refutation", "oracle")


def check_path(p: Puzzle, max_subset: int, seed: int) -> SolvePath:
    """Run every technique and check each step against the solution."""
    sol = solution_of(p)
    path = solve_path(p, ALL, max_subset=max_subset, rng=np.random.default_rng(seed), solution=sol)
    grid = p.cells.astype(np.int64).copy()
    for step in path.steps:
        for c, d in step.placements:
            assert sol[c] == d, (p.to_line(), step)
            assert grid[c] == 0
            grid[c] = d
        for c, d in step.eliminations:
            assert sol[c] != d, (p.to_line(), step)
        assert step.options >= 1
        if step.kind == "subset":
            assert 1 <= step.size <= max_subset and step.eliminations
    assert path.solved and not path.contradiction
    assert np.array_equal(grid, sol)
    assert path.final is not None and np.array_equal(path.final, sol)
    return path


def _sample() -> list[tuple[str, int]]:
    out = [(x, 4) for x in lines_of("17_clue.txt", limit=200, step=241)]
    out += [(x, 2) for x in lines_of("top1465.txt", limit=100, step=14)]
    out += [(x, 4) for x in lines_of("top1465.txt", limit=30, step=47)]
    out += [(x, 2) for x in lines_of("forum_hardest_1106.txt", limit=60, step=6)]
    out += [(x, 4) for x in lines_of("forum_hardest_1106.txt", limit=8, step=45)]
    return out


def test_paths_never_go_wrong_on_a_sample() -> None:
    sample = _sample()
    assert len(sample) >= 380
    used: set[str] = set()
    for i, (line, size) in enumerate(sample):
        path = check_path(parse(line), size, i)
        used.update(s.kind for s in path.steps)
    assert used == {"single", "subset", "refutation", "oracle"}


def _over_2000() -> list[str]:
    lines = lines_of("17_clue.txt", limit=1000, step=49)
    return lines + lines_of("top1465.txt") + lines_of("forum_hardest_1106.txt")


#: The 2,000-puzzle check in parts, so that test workers share it out.
PARTS = 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_paths_never_go_wrong_on_2000_puzzles(request: pytest.FixtureRequest, part: int) -> None:
    if "slow" not in str(request.config.getoption("markexpr", "")):
        pytest.skip("over 2,000 puzzles: run with -m slow")
    lines = _over_2000()
    assert len(lines) >= 2000
    for i in range(part, len(lines), PARTS):
        check_path(parse(lines[i]), 4, i)


@pytest.mark.parametrize(
    ("geometry", "remove"),
    [(Geometry.standard(16), 120), (Geometry.x_sudoku(), 56), (Geometry.standard(6), 22)],
)
def test_paths_on_generated_variants(geometry: Geometry, remove: int) -> None:
    puzzles = generated_puzzles(geometry, 4, seed=21, remove=remove)
    assert len(puzzles) == 4
    for i, p in enumerate(puzzles):
        check_path(p, 3, i)


def test_singles_paths_equal_a_plain_singles_solver() -> None:
    checked = 0
    for line in lines_of("17_clue.txt", limit=80, step=601):
        p = parse(line)
        want, ok = plain_singles_path(p)
        if not ok:
            continue
        checked += 1
        for techniques in (("singles",), ("singles", "subsets"), ALL):
            path = solve_path(p, techniques)
            got = [(s.placements[0][0], s.placements[0][1], s.unit, s.options) for s in path.steps]
            assert got == want and path.solved
            assert {s.technique for s in path.steps} <= {"naked single", "hidden single"}
        nempty = 81 - p.clue_count
        rand = np.random.default_rng(checked).random(nempty)
        want_r, _ = plain_singles_path(p, rand)
        path = solve_path(p, ("singles", "subsets"), rng=np.random.default_rng(checked))
        got = [(s.placements[0][0], s.placements[0][1], s.unit, s.options) for s in path.steps]
        assert got == want_r
    assert checked >= 30


def test_json_form() -> None:
    p = parse("3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6.....")
    path = solve_path(p)
    obj = json.loads(path.to_json())
    assert obj["puzzle"] == p.to_line() and obj["solved"] is True
    assert obj["max_subset_size"] == 2
    for step in obj["steps"]:
        assert {"technique", "size", "placements", "eliminations", "options"} <= set(step)
        for pair in step["placements"] + step["eliminations"]:
            assert len(pair) == 2 and 0 <= pair[0] < 81 and 1 <= pair[1] <= 9
        assert (step["size"] > 0) == (step["kind"] == "subset")
    kinds = {s["technique"] for s in obj["steps"]}
    assert {"naked single", "hidden single", "pointing", "hidden pair"} <= kinds
    lines = path.describe()
    assert len(lines) == len(path.steps)
    assert any("r3c3 = 9" in x for x in lines)


def test_subset_steps_take_the_easiest_application_of_their_size() -> None:
    """Within a size, the step is an application no other one of that size beats
    on Sudoku Explainer's values (pointing 2.6 before claiming 2.8, ...)."""
    from csp_sudoku.human.costs import subset_value
    from csp_sudoku.human.state import CandidateState
    from csp_sudoku.human.subsets import find_subsets

    seen = 0
    for line in lines_of("top1465.txt", limit=6, step=200):
        p = parse(line)
        path = solve_path(p, ("singles", "subsets"))
        state = CandidateState.from_puzzle(p)
        for step in path.steps:
            if step.kind == "subset":
                apps = find_subsets(state, step.size)
                best = min(subset_value(a.name, step.size) for a in apps)
                assert (
                    subset_value(None if step.technique == "subset" else step.technique, step.size)
                    == best
                )
                seen += 1
            for c, d in step.placements:
                state.place(c, d)
            for c, d in step.eliminations:
                state.eliminate(c, d)
    assert seen >= 10


def test_stuck_and_bad_arguments() -> None:
    line = lines_of("forum_hardest_1106.txt", limit=1)[0]
    path = solve_path(parse(line), ("singles",))
    assert not path.solved and not path.contradiction
    with pytest.raises(ValueError, match="unknown technique"):
        solve_path(parse(line), ("guessing",))
    with pytest.raises(ValueError, match="max_subset"):
        solve_path(parse(line), max_subset=0)
    clash = Puzzle(np.array([4, 4] + [0] * 79))
    bad = solve_path(clash)
    assert bad.contradiction and not bad.solved


def test_explain_command(capsys: pytest.CaptureFixture[str]) -> None:
    line = "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6....."
    assert main(["explain", "--order", "subsets", line]) == 0
    out = capsys.readouterr().out
    assert "hidden single: r3c3 = 9 (box 1)" in out and "solved in 81 steps" in out
    last = "." + solve(line).to_line()[1:]  # type: ignore[union-attr]
    assert main(["explain", "--order", "subsets", last]) == 0
    assert "solved in 1 step (" in capsys.readouterr().out  # "1 steps" was written
    assert main(["explain", "--order", "subsets", "--json", line]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["solved"] and len(obj["steps"]) == 81
    hard = lines_of("forum_hardest_1106.txt", limit=1)[0]
    # with the chains left out the model gets stuck: the path so far, exit 1
    assert (
        main(
            [
                "explain",
                "--order",
                "subsets",
                "--techniques",
                "singles,subsets",
                "--max-subset",
                "1",
                hard,
            ]
        )
        == 1
    )
    assert "stuck after" in capsys.readouterr().out
    # several solutions: a message, no path
    assert main(["explain", "." * 81]) == 1
    captured = capsys.readouterr()
    assert "more than one solution" in captured.err and "assume" not in captured.out
    assert (
        main(
            ["explain", "--order", "subsets", "--techniques", "singles,oracle", "--seed", "3", hard]
        )
        == 0
    )
    assert "oracle" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "3.7.4..x"],
        ["explain", "--order", "subsets", "--techniques", "guessing", "." * 81],
        ["explain", "--order", "subsets", "--max-subset", "0", "." * 81],
        ["explain", "--max-subset", "2", "." * 81],  # the human model's option, se path
        ["explain", "no/such/file.txt"],
        ["explain", "--order", "subsets", "--rater", "classic", "." * 81],  # se path's option
        ["explain", "--order", "subsets", "--rater", "sukaku", "." * 81],  # even the default
    ],
)
def test_explain_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("csp-sudoku: error:") and "Traceback" not in err


def test_explain_of_clashing_clues_is_a_puzzle_with_no_solution(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # as every command answers it (exit 1), not as a bad line (exit 2)
    assert main(["explain", "44" + "." * 79]) == 1
    err = capsys.readouterr().err
    assert "the puzzle has no solution (r1c1 and r1c2 are both 4" in err


def test_the_solution_only_saves_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The path's searches use the puzzle's solution to skip work that cannot
    find anything; without it (the plain searches) every path is the same."""
    from csp_sudoku.human import path as path_module

    puzzles = [parse(x) for x in lines_of("top1465.txt", limit=3, step=500)]
    puzzles += [parse(x) for x in lines_of("forum_hardest_11plus.txt", limit=1)]
    puzzles += generated_puzzles(Geometry.standard(16), 1, seed=21, remove=120)
    guided = [solve_path(p).to_json() for p in puzzles]
    monkeypatch.setattr(path_module._Guide, "mask", lambda self: None)
    plain = [solve_path(p).to_json() for p in puzzles]
    assert plain == guided
    assert any('"kind": "chain"' in x for x in guided)


def test_a_wrong_solution_is_refused_not_revealed() -> None:
    """``solve_path(order="subsets", solution=...)`` took the grid on trust: a wrong one
    had the oracle reveal wrong digits (the path ended in a contradiction, no error)
    and one of five cells raised IndexError."""
    import csp_sudoku as cs
    from csp_sudoku.core.errors import ArgumentError, ParseError

    easy = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    opts = {"order": "subsets", "techniques": ["singles", "oracle"]}
    with pytest.raises(ArgumentError, match="does not keep the puzzle's clue at r1c1"):
        cs.solve_path(easy, solution=cs.random_grid(seed=2), **opts)
    with pytest.raises(ParseError, match="needs 81 cells, got 5"):
        cs.solve_path(easy, solution=np.zeros(5, np.int8), **opts)
    assert cs.solve_path(easy, solution=cs.solve(easy), **opts).solved
