"""The rounds metric (Hunt, Pong, Tucker): hand-checked examples and a plain re-count."""

from __future__ import annotations

import json

import pytest

from csp_sudoku import parse
from csp_sudoku.human.state import CandidateState
from csp_sudoku.human.subsets import apply_subset, find_subsets
from csp_sudoku.metrics.rounds import LEVELS, RoundsResult, level_of, rounds
from tests.helpers import cand_sets, lines_of, plain_singles, plain_singles_path

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _holes(cells: list[int]) -> str:
    s = list(SOLUTION)
    for c in cells:
        s[c] = "."
    return "".join(s)


def test_hand_checked_singles_rounds() -> None:
    # a full grid: nothing to do
    r = rounds(SOLUTION)
    assert (r.rounds, r.level, r.solved, r.placements) == (0, "Easy", True, 0)
    # one hole: one naked single, one round
    r = rounds(_holes([40]))
    assert (r.rounds, r.singles_rounds, r.placements) == (1, 1, 1)
    # an empty row: all nine cells are singles at once, one round
    r = rounds(_holes(list(range(9))))
    assert (r.rounds, r.placements, r.level) == (1, 9, "Easy")
    # rows 1-3 x columns 1-4 empty. Round 1 sees r1c2=3, r1c3=4, r2c2=7, r2c3=2,
    # r3c1=1, r3c3=8 (naked), r1c1=5 (hidden in row 1), r3c2=9 (hidden in row 3);
    # r2c1 {1,6} and column 4's {3,6}, {1,6}, {1,3} wait for round 2.
    cells = [r * 9 + c for r in range(3) for c in range(4)]
    r = rounds(_holes(cells))
    assert (r.rounds, r.singles_rounds, r.placements, r.level) == (2, 2, 12, "Easy")
    assert r.max_subset_size == 0 and r.subset_rounds == {}


def test_round_one_of_the_hand_example_is_what_the_comment_says() -> None:
    cells = [r * 9 + c for r in range(3) for c in range(4)]
    st = CandidateState.from_puzzle(parse(_holes(cells)))
    got = {(s.cell, s.digit) for s in st.singles()}
    assert got == {(1, 3), (2, 4), (10, 7), (11, 2), (18, 1), (20, 8), (0, 5), (19, 9)}


def _plain_rounds(line: str, max_size: int = 4) -> tuple[int, dict[int, int], bool]:
    """Rounds re-counted with the plain singles finder and the subset search."""
    st = CandidateState.from_puzzle(parse(line))
    units = [list(map(int, u)) for u in st.geometry.units]
    total = 0
    sizes: dict[int, int] = {}
    while not st.is_solved():
        singles = plain_singles([int(v) for v in st.values], cand_sets(st), units)
        if singles:
            for c, d, _u in singles:
                st.place(c, d)
            total += 1
            continue
        for n in range(1, max_size + 1):
            apps = find_subsets(st, n)
            if apps:
                apply_subset(st, apps[0])
                sizes[n] = sizes.get(n, 0) + 1
                total += 1
                break
        else:
            return total, sizes, False
    return total, sizes, True


def test_rounds_agree_with_a_plain_count() -> None:
    lines = lines_of("top1465.txt", limit=25, step=59) + lines_of(
        "17_clue.txt", limit=15, step=3001
    )
    lines += lines_of("forum_hardest_1106.txt", limit=5, step=70)
    for line in lines:
        r = rounds(line)
        total, sizes, solved = _plain_rounds(line)
        assert (r.rounds, r.subset_rounds, r.solved) == (total, sizes, solved)
        assert r.rounds == r.singles_rounds + sum(sizes.values())
        assert r.level == level_of(solved, max(sizes, default=0))
        assert sum(r.technique_counts.values()) == sum(sizes.values())


def test_levels_of_known_puzzles() -> None:
    hard = rounds(
        "3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6....."
    )
    assert (hard.level, hard.solved, hard.max_subset_size) == ("Hard", True, 2)
    assert hard.technique_counts == {"claiming": 7, "pointing": 7, "hidden pair": 4}
    for line in lines_of("forum_hardest_1106.txt", limit=5, step=60):
        r = rounds(line)
        assert r.level == "Fiendish" and not r.solved
    # Easy exactly when a plain singles solver finishes the puzzle
    sample = lines_of("17_clue.txt", limit=30, step=1601)
    easy = 0
    for line in sample:
        r = rounds(line)
        _steps, solved = plain_singles_path(parse(line))
        assert (r.level == "Easy") == solved
        assert r.level_rank == LEVELS.index(r.level)
        easy += solved
    assert 0 < easy < len(sample)


def test_level_of_and_result_form() -> None:
    assert [level_of(True, k) for k in range(4)] == ["Easy", "Medium", "Hard", "Fiendish"]
    assert level_of(False, 0) == "Fiendish"
    r = rounds(_holes([0, 1]))
    assert isinstance(r, RoundsResult)
    assert json.loads(json.dumps(r.to_dict()))["level"] == "Easy"
    with pytest.raises(ValueError, match="max_size"):
        rounds(SOLUTION, max_size=1)
