"""``csp_sudoku.next_step``: the se path's next hint, from a puzzle or pencil marks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import csp_sudoku as cs
from csp_sudoku.core.errors import ArgumentError, NotUniqueError
from csp_sudoku.human.catalogue import technique_names
from csp_sudoku.human.state import CandidateState
from csp_sudoku.metrics.se import replay

PUZZLE = "...........5.9.17..3...2..84..........94..3...7.86...4..7..8...2.......1..19...56"


def test_next_step_is_the_replays_first_step() -> None:
    step = cs.next_step(PUZZLE)
    assert step is not None
    assert step == replay(cs.parse(PUZZLE)).steps[0]
    assert step.technique in technique_names()


def test_next_step_from_pencil_marks_follows_the_marks() -> None:
    """From the state after the replay's first k steps the hint is step k+1,
    and the caller's state is left unchanged."""
    run = replay(cs.parse(PUZZLE))
    state = CandidateState.from_puzzle(cs.parse(PUZZLE))
    solution = cs.solve(PUZZLE)
    assert solution is not None
    for k, expected in enumerate(run.steps[:30]):
        before = state.masks.copy()
        step = cs.next_step(state)
        assert (state.masks == before).all()
        assert step == expected, k
        for cell, digit in step.eliminations:
            assert solution.cells[cell] != digit
            state.eliminate(cell, digit)
        for cell, digit in step.placements:
            assert solution.cells[cell] == digit
            state.place(cell, digit)


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(ArgumentError, match="choose from se"):
        cs.next_step(PUZZLE, order="subsets")
    with pytest.raises(NotUniqueError, match="several solutions"):
        cs.next_step("." * 81)
    assert cs.next_step(cs.solve(PUZZLE)) is None


def test_explain_order_se_shows_the_rated_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from csp_sudoku.cli import main
    from csp_sudoku.metrics.se import se_rating

    src = tmp_path / "p.txt"
    src.write_text(PUZZLE + "\n")
    assert main(["explain", "--order", "se", "--json", str(src)]) == 0
    out = json.loads(capsys.readouterr().out)
    er = se_rating(cs.parse(PUZZLE))[0]
    assert max(s["difficulty"] for s in out["steps"]) == out["er"] == round(er, 2)
    assert main(["explain", "--order", "se", str(src)]) == 0
    assert "Dynamic Region Forcing Chains" in capsys.readouterr().out
    assert main(["explain", "--order", "nope", str(src)]) == 2
    assert "choose from se, subsets" in capsys.readouterr().err


def test_pencil_marks_that_leave_no_solution_get_no_hint() -> None:
    """A player's wrong elimination (or a wrong digit placed) got a hint all the same,
    drawn from a false premise; now it is named."""
    solution = cs.solve(PUZZLE)
    assert solution is not None
    state = CandidateState.from_puzzle(cs.parse(PUZZLE))
    cell = next(i for i, ch in enumerate(PUZZLE) if ch == ".")
    digit = int(solution.cells[cell])
    wrong = state.copy()
    wrong.eliminate(cell, digit)
    name = state.geometry.cell_name(cell)
    with pytest.raises(NotUniqueError, match=f"no {digit} in {name}, its digit in the solution"):
        cs.next_step(wrong)
    placed = state.copy()
    placed.place(cell, next(d for d in state.candidates(cell) if d != digit))
    with pytest.raises(NotUniqueError, match="placed digits have no solution"):
        cs.next_step(placed)
    assert cs.next_step(state) is not None  # the true marks still get their hint


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        ("two_ones", "r1c1 and r1c2, both in row 1, both holding only 1"),
        ("no_candidate", "r1c1 with no candidate"),
        ("no_place", "no place for 5 in row 1"),
    ],
)
def test_contradictory_pencil_marks_get_no_hint(spoil: str, said: str) -> None:
    """Marks that contradict each other got a hint when the placed digits had several
    solutions (the marks are then not checked against a solution): two cells of a
    row both ``{1}`` got "Naked Single r1c1 = 1"."""
    state = CandidateState.from_puzzle(cs.parse("." * 81))
    if spoil == "two_ones":
        state.masks[0] = state.masks[1] = 1
    elif spoil == "no_candidate":
        state.masks[0] = 0
    else:
        for cell in range(9):
            state.eliminate(cell, 5)
    with pytest.raises(NotUniqueError, match=f"contradict each other \\({said}\\)"):
        cs.next_step(state)


def test_marks_that_contradict_once_their_singles_are_placed_get_no_hint() -> None:
    """r1c1 can only be 1 and r1c2 only 1 or 2, r2c1 only 2: placing r1c1's single
    leaves r1c2 and r2c1 both needing 2 in box 1."""
    state = CandidateState.from_puzzle(cs.parse("." * 81))
    state.masks[0], state.masks[1], state.masks[9] = 1, 3, 2
    assert state._plain_fault() is None
    with pytest.raises(NotUniqueError, match="placing the singles they force leaves"):
        cs.next_step(state)
    assert CandidateState.from_puzzle(cs.parse(PUZZLE)).fault() is None
