"""The constraint subset rule (Hunt, Pong, Tucker): soundness, names, and that it
finds every elimination of the classic techniques of the same size."""

from __future__ import annotations

import numpy as np
import pytest

from csp_sudoku import Geometry, Puzzle, parse
from csp_sudoku.encodings.exact_cover import exact_cover
from csp_sudoku.human.state import CandidateState
from csp_sudoku.human.subsets import (
    SubsetApplication,
    apply_subset,
    classic_name,
    find_subsets,
    find_subsets_upto,
    smallest_subsets,
)
from tests.helpers import (
    generated_puzzles,
    lines_of,
    named_eliminations,
    solution_of,
    states_before,
)


def _states(lines: list[str], per_puzzle: int, rng: np.random.Generator) -> list[CandidateState]:
    """Positions along a singles + size-1/2 subset solve: stuck ones and mid-singles ones."""
    out: list[CandidateState] = []
    for line in lines:
        st = CandidateState.from_puzzle(parse(line))
        taken = 0
        while taken < per_puzzle and not st.is_solved():
            singles = st.singles()
            if singles and rng.random() < 0.8:
                s = singles[int(rng.integers(len(singles)))]
                st.place(s.cell, s.digit)
                continue
            out.append(st.copy())
            taken += 1
            if singles:
                st.place(singles[0].cell, singles[0].digit)
                continue
            apps = smallest_subsets(st, 2, first=True)
            if not apps:
                break
            apply_subset(st, apps[0])
    return out


def _check_application(st: CandidateState, app: SubsetApplication) -> None:
    """The application meets the theorem's hypotheses and eliminates B minus A."""
    ec = exact_cover(st.geometry)
    alive = st.alive()
    live = {c: {int(x) for x in ec.column_candidates[c] if alive[x]} for c in app.a + app.b}
    a_union: set[int] = set()
    for c in app.a:
        assert live[c], "an A column without live candidates"
        assert not (live[c] & a_union), "A columns must be disjoint"
        a_union |= live[c]
    b_union = set().union(*(live[c] for c in app.b))
    assert a_union <= b_union
    assert not set(app.a) & set(app.b)
    n = st.geometry.size
    assert set(app.eliminations) == {(x // n, x % n + 1) for x in b_union - a_union}
    assert app.eliminations and len(app.a) == len(app.b) == app.size


def test_rule_finds_every_named_elimination_of_its_size() -> None:
    rng = np.random.default_rng(11)
    states = _states(lines_of("top1465.txt", limit=25, step=57), 4, rng)
    states += _states(lines_of("17_clue.txt", limit=15, step=3001), 3, rng)
    assert len(states) >= 100
    seen_names: set[str] = set()
    for st in states:
        found: set[tuple[int, int]] = set()
        smaller_empty = True
        for n in range(1, 5):
            apps = find_subsets(st, n)
            at_n = set().union(*(set(a.eliminations) for a in apps)) if apps else set()
            found |= at_n
            for kind, el in named_eliminations(st, n):
                seen_names.add(kind)
                assert el <= found, (kind, n, sorted(el - found))
                if smaller_empty:
                    assert el <= at_n, (kind, n)
            smaller_empty = smaller_empty and not apps
    assert {"pointing", "claiming", "naked", "hidden", "fish"} <= seen_names


def test_applications_are_sound_and_never_remove_the_solution() -> None:
    for line in lines_of("top1465.txt", limit=12, step=120):
        p = parse(line)
        sol = solution_of(p)
        st = CandidateState.from_puzzle(p)
        while True:
            s = st.singles()
            if not s:
                break
            st.place(s[0].cell, s[0].digit)
        apps = find_subsets_upto(st, 4)
        assert len({(a.a, a.b) for a in apps}) == len(apps)
        for app in apps:
            _check_application(st, app)
            for cell, digit in app.eliminations:
                assert sol[cell] != digit


def test_classic_names() -> None:
    g = Geometry.standard(9)
    ncells = 81

    def col(unit: int, digit: int) -> int:
        return ncells + unit * 9 + digit - 1

    box0, row0, col0, row1, col1 = 18, 0, 9, 1, 10
    assert classic_name(g, (col(box0, 5),), (col(row0, 5),)) == "pointing"
    assert classic_name(g, (col(col0, 5),), (col(box0, 5),)) == "claiming"
    assert classic_name(g, (col(row0, 2), col(row1, 2)), (col(col0, 2), col(col1, 2))) == "X-Wing"
    assert (
        classic_name(g, (col(0, 2), col(1, 2), col(2, 2)), (col(9, 2), col(10, 2), col(11, 2)))
        == "Swordfish"
    )
    assert classic_name(g, (0, 1), (col(row0, 3), col(row0, 7))) == "naked pair"
    assert classic_name(g, (0, 1, 2), (col(row0, 3), col(row0, 7), col(row0, 8))) == "naked triple"
    assert classic_name(g, (col(box0, 3), col(box0, 4)), (0, 1)) == "hidden pair"
    assert classic_name(g, tuple(col(box0, d) for d in (1, 2, 3, 4)), (0, 1, 2, 9)) == "hidden quad"
    assert classic_name(g, (0, col(row0, 4)), (col(row1, 3), col(row0, 7))) is None


def test_named_search_results_on_a_known_position() -> None:
    # this top1465 puzzle needs pointing, claiming and hidden pairs under singles
    p = parse("3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6.....")
    st = CandidateState.from_puzzle(p)
    sol = solution_of(p)
    names: set[str | None] = set()
    for _ in range(300):
        s = st.singles()
        if s:
            st.place(s[0].cell, s[0].digit)
            continue
        if st.is_solved():
            break
        apps = smallest_subsets(st, 4)
        assert apps
        names.update(a.name for a in apps)
        for app in apps:
            _check_application(st, app)
        for c, d in apps[0].eliminations:
            assert sol[c] != d
        apply_subset(st, apps[0])
    assert st.is_solved()
    assert {"pointing", "claiming", "hidden pair"} <= names


def test_first_equals_head_of_full_search() -> None:
    for line in lines_of("forum_hardest_1106.txt", limit=6, step=50):
        st = CandidateState.from_puzzle(parse(line))
        for n in (1, 2, 3):
            full = find_subsets(st, n)
            first = find_subsets(st, n, first=True)
            assert first == full[:1]


def test_subsets_on_16x16_and_x_sudoku_are_sound() -> None:
    for g, remove in ((Geometry.standard(16), 120), (Geometry.x_sudoku(), 52)):
        puzzles = generated_puzzles(g, 2, seed=9, remove=remove)
        assert len(puzzles) == 2
        for p in puzzles:
            sol = solution_of(p)
            st = CandidateState.from_puzzle(p)
            for n in (1, 2):
                for app in find_subsets(st, n):
                    _check_application(st, app)
                    assert all(sol[c] != d for c, d in app.eliminations)


def test_bad_size() -> None:
    st = CandidateState.from_puzzle(Puzzle(np.zeros(81, dtype=np.int8)))
    with pytest.raises(ValueError, match="at least 1"):
        find_subsets(st, 0)
    assert find_subsets(st, 1) == []
    assert "covered by" in SubsetApplication(1, (100,), (90,), ((0, 1),), None).describe(
        st.geometry
    )


def _app_set(rows: np.ndarray, n: int) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    return {(tuple(sorted(r[:n])), tuple(sorted(r[n:]))) for r in rows.tolist()}


def test_path_searches_find_what_subset_search_finds() -> None:
    """On a state with no smaller application, the path's searches (guided by the
    solution, or the plain growth from A's largest column, whole or from given
    roots) find the same applications as the search in order; the order's part
    from one lowest column is that part of the full list."""
    from csp_sudoku._kernels.subsets import search_in_order, size_search
    from csp_sudoku.human._tables import tables

    rng = np.random.default_rng(5)
    puzzles = [parse(x) for x in lines_of("top1465.txt", limit=4, step=300)]
    puzzles += generated_puzzles(Geometry.standard(16), 1, seed=21, remove=120)
    checked = found = 0
    for p in puzzles:
        g = p.geometry
        t = tables(g)
        cc, kc = t.column_candidates, t.candidate_columns
        sol = solution_of(p)
        mask = np.zeros(g.ncandidates, dtype=np.bool_)
        mask[np.arange(g.ncells) * g.size + np.asarray(sol, dtype=np.int64) - 1] = True
        for st in states_before(p, ("subset", "chain")):
            alive = st.alive()
            for n in range(1, 5):
                out = np.empty((4096, 2 * n), dtype=np.int32)
                m = search_in_order(alive, cc, kc, n, False, out)
                want = _app_set(out[:m], n)
                roots = rng.choice(cc.shape[0], 30, replace=False).astype(np.int32)
                rooted = {app for app in want if set(app[0]) & set(roots.tolist())}
                every = np.empty(0, dtype=np.int32)
                for solution in (mask, np.empty(0, dtype=np.bool_)):
                    got = np.empty((4096, 2 * n), dtype=np.int32)
                    k = size_search(alive, cc, kc, solution, n, False, got, every)
                    assert k == len(want) and _app_set(got[:k], n) == want
                    k = size_search(alive, cc, kc, solution, n, False, got, roots)
                    assert k == len(rooted) and _app_set(got[:k], n) == rooted
                if m:
                    low = np.unique(np.sort(out[:m, :n], axis=1)[:, 0])
                    lowest = np.array([int(rng.choice(low))], dtype=np.int32)
                    part = np.empty((m, 2 * n), dtype=np.int32)
                    k = search_in_order(alive, cc, kc, n, False, part, lowest)
                    head = [r for r in out[:m].tolist() if min(r[:n]) == lowest[0]]
                    assert part[:k].tolist() == head
                    found += 1
                    break
                checked += 1
    assert checked >= 100 and found >= 20
