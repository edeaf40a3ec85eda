"""Graded refutation: every path solved by logic, every step and chain replayed independently."""

from __future__ import annotations

import json

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.human.chains import ChainSettings, find_chain_move
from csp_sudoku.human.path import solve_path
from csp_sudoku.human.state import CandidateState
from tests.chain_check import ChainError, Position, check_chain, check_path, initial_marks
from tests.conftest import load_lines
from tests.independent import check_solution

#: A top1465 puzzle on which singles and subsets stop after a few steps.
STUCK = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."


def _solution(puzzle: Puzzle) -> list[int]:
    sol = cs.solve(puzzle)
    assert sol is not None
    assert check_solution(sol.cells, puzzle.cells)
    return [int(v) for v in sol.cells]


def _replayed(line: str) -> dict[str, object]:
    """Solve with the default model; replay the JSON path; return it."""
    p = cs.parse(line)
    path = solve_path(p)
    d = json.loads(path.to_json())
    assert path.solved, f"stuck on {line}"
    check_path(d, _solution(p))
    return d


def test_the_stuck_puzzle_is_solved_by_logic() -> None:
    # singles and subsets alone stop early ...
    old = solve_path(cs.parse(STUCK), ("singles", "subsets"))
    assert not old.solved
    # ... the default model goes on with chains and finishes, every step checked
    d = _replayed(STUCK)
    kinds = {s["kind"] for s in d["steps"]}  # type: ignore[attr-defined]
    assert "chain" in kinds and "oracle" not in kinds and "refutation" not in kinds


def test_top1465_sample_solved_and_replayed() -> None:
    lines = load_lines("top1465.txt", limit=12, step=120)
    levels = set()
    for line in lines:
        d = _replayed(line)
        levels.add(d["max_level"])
    assert levels & {0, 1}


def test_hardest_sample_needs_nested_chains_and_is_solved() -> None:
    lines = load_lines("forum_hardest_1106.txt", limit=2, step=150)
    for line in lines:
        d = _replayed(line)
        assert d["max_level"] == 2


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "limit", "step"),
    [
        ("top1465.txt", 250, 6),
        ("forum_hardest_1106.txt", 20, 19),
        ("forum_hardest_11plus.txt", 20, 1200),
        ("17_clue.txt", 200, 245),
    ],
)
def test_sets_solved_by_logic_and_replayed(name: str, limit: int, step: int) -> None:
    """Samples spread over whole sets: every path solved with no oracle, every
    step right, every chain link replayed independently."""
    for line in load_lines(name, limit=limit, step=step):
        d = _replayed(line)
        assert not any(s["kind"] in ("oracle", "refutation") for s in d["steps"])  # type: ignore[attr-defined]


def test_explain_json_is_replayable(capsys: pytest.CaptureFixture[str]) -> None:
    from csp_sudoku.cli import main

    assert main(["explain", "--order", "subsets", "--json", STUCK]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["solved"] and d["max_level"] >= 0
    check_path(d, _solution(cs.parse(STUCK)))


def test_explain_budget_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    from csp_sudoku.cli import main

    hard = load_lines("forum_hardest_1106.txt", limit=1)[0]
    assert main(["explain", "--order", "subsets", "--budget", "20", hard]) == 1
    out = capsys.readouterr().out
    assert "budget" in out and "stopped" in out
    assert main(["explain", "--order", "subsets", "--budget", "0", hard]) == 2


def test_chain_move_is_the_cheapest_level() -> None:
    # level 0 finds a move on STUCK once subsets are exhausted: asking for level 0
    # only must give a level-0 move, and higher max levels must not pick a higher level
    state = CandidateState.from_puzzle(cs.parse(STUCK))
    path = solve_path(cs.parse(STUCK), ("singles", "subsets"))
    for step in path.steps:
        for c, d in step.placements:
            state.place(c, d)
        for c, d in step.eliminations:
            state.eliminate(c, d)
    m0 = find_chain_move(state, ChainSettings(max_level=0))
    m2 = find_chain_move(state, ChainSettings(max_level=2))
    assert m0 is not None and m2 is not None
    assert m0.level == 0 and m2.level == 0
    assert m2.length == m0.length


def test_replay_rejects_a_forged_chain() -> None:
    """The independent checker is not a rubber stamp: a tampered link fails."""
    d = _replayed(STUCK)
    values, marks = initial_marks(STUCK)
    pos = Position(values, marks)
    for step in d["steps"]:  # type: ignore[attr-defined]
        if step["kind"] == "chain":
            chain = json.loads(json.dumps(step["chains"][0]))
            # drop the parents of the first derived link: it no longer follows
            for link in chain["links"][1:]:
                if link["reason"] == "single":
                    link["parents"] = []
                    break
            else:
                link = chain["links"][1]
                link["digit"] = link["digit"] % 9 + 1
                link["cell"] = (link["cell"] + 40) % 81
            with pytest.raises(ChainError):
                check_chain(chain, pos)
            return
        for cell, digit in step["placements"]:
            pos.apply(cell, digit, True)
        for cell, digit in step["eliminations"]:
            pos.apply(cell, digit, False)
    pytest.fail("no chain step on the stuck puzzle")


def test_budget_stops_with_the_path_so_far() -> None:
    line = load_lines("forum_hardest_1106.txt", limit=1)[0]
    p = cs.parse(line)
    path = solve_path(p, chains=ChainSettings(budget=50))
    assert not path.solved
    assert path.stopped == "budget"
    # what was done is still right
    check_path(json.loads(path.to_json()), _solution(p))


def test_explanation_text_names_every_link() -> None:
    path = solve_path(cs.parse(STUCK))
    chain_steps = [s for s in path.steps if s.kind == "chain"]
    text = "\n".join(path.describe())
    for s in chain_steps[:3]:
        for ch in s.chains:
            assert len(ch.links) >= 2
            # every link appears as a numbered line of the explanation
            for i in range(len(ch.links)):
                assert f"[{i}]" in text
    assert "assume" in text and "contradiction" in text


def test_no_solution_is_never_presented_as_a_proof() -> None:
    # no clash, but r1c1 has no candidate left: no solution, and no "solved" path
    p = cs.parse(".23456789" + "1........" + "." * 63)
    assert not p.clashes()
    assert cs.count_solutions(p, limit=1) == 0
    path = solve_path(p)
    assert not path.solved and path.contradiction


def test_generated_16x16_chains_are_sound() -> None:
    """Chains work on other geometries too: each move is consistent with the solution."""
    from csp_sudoku.generators import generate

    g = cs.Geometry.standard(4)
    for gen in generate(count=2, geometry=g, seed=3):
        p = gen.puzzle
        sol = cs.solve(p)
        assert sol is not None
        path = solve_path(p, max_subset=2)
        assert path.solved
        s = np.asarray(sol.cells)
        for st in path.steps:
            assert all(s[c] == d for c, d in st.placements)
            assert all(s[c] != d for c, d in st.eliminations)


def test_lean_level0_refutation_equals_refute_all() -> None:
    """refute_level0 gives refute_all's level-0 chain lengths and fixpoints, and
    leaves the state as it found it; _first_size1 is subset_search's first
    size-1 application, also on states that contradict."""
    from csp_sudoku._kernels.chains import _first_size1, refute_all, refute_level0
    from csp_sudoku._kernels.human import subset_search
    from csp_sudoku.human._tables import tables
    from csp_sudoku.human.chains import _base, _free
    from tests.helpers import states_before

    rng = np.random.default_rng(3)
    lines = [STUCK, *load_lines("forum_hardest_11plus.txt", limit=1)]
    runs = 0
    for line in lines:
        p = cs.parse(line)
        t = tables(p.geometry)
        cc, kc = t.column_candidates, t.candidate_columns
        for st in list(states_before(p, ("chain",)))[::3]:
            base = _base(st)
            cands = _free(base)
            arrays = (base.alive, base.on, base.cnt, base.cov)
            before = [a.copy() for a in arrays]
            n, ncand = cands.size, base.alive.size
            want, got = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
            wa, wo = np.empty((n, ncand), np.int8), np.empty((n, ncand), np.int8)
            ga, go = np.empty((n, ncand), np.int8), np.empty((n, ncand), np.int8)
            budget = np.array([10**9], dtype=np.int64)
            refute_all(arrays, cc, kc, cands, 0, 1, 0, budget, True, False, (want, wa, wo))
            refute_level0(arrays, cc, kc, cands, True, (got, ga, go))
            assert all(np.array_equal(a, b) for a, b in zip(arrays, before, strict=True))
            assert np.array_equal(want, got)
            fix = want < 0
            assert np.array_equal(wa[fix], ga[fix]) and np.array_equal(wo[fix], go[fix])
            runs += n
            live = st.alive()
            for drop in (0, 20, 60):
                lv = live.copy()
                lv[rng.choice(lv.size, drop)] = False
                o1, o2 = np.zeros((1, 2), np.int32), np.zeros((1, 2), np.int32)
                hit = _first_size1(lv, cc, kc, o2)
                assert hit == (subset_search(lv, cc, kc, 1, True, o1) > 0)
                assert not hit or np.array_equal(o1, o2)
    assert runs > 1000
