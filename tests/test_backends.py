"""Every backend agrees with every other, and every solution passes the independent checker."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku import Geometry, Puzzle
from csp_sudoku.backends import BackendError, backend_for, get_backend
from tests.conftest import load_lines
from tests.helpers import available_backends
from tests.independent import check_solution

FILES = [
    "17_clue.txt",
    "top1465.txt",
    "forum_hardest_1106.txt",
    "forum_hardest_11plus.txt",
    "multi_solution_serg.txt",
]
BACKENDS = ["sat", "cpsat", "dlx"]


ALL_BACKENDS = available_backends(("sat", "cpsat", "dlx", "fast"))


def _cells(line: str) -> np.ndarray:
    return cs.parse(line).cells


@pytest.mark.parametrize("name", FILES)
def test_backends_agree_on_shared_samples(name: str) -> None:
    """Counts (limit 3) and solutions agree across backends; each solution is checked."""
    per_backend = {"sat": 60, "cpsat": 25, "dlx": 6, "fast": 60}
    lines = load_lines(name, limit=60, step=97)
    g = Geometry.standard(9)
    expect_multi = name.startswith("multi")
    for b in ALL_BACKENDS:
        backend = get_backend(b)
        for line in lines[: per_backend[b]]:
            cells = _cells(line)
            sols = backend.solutions(cells, g, 3)
            if expect_multi:
                assert len(sols) >= 2, (b, line)
            else:
                assert len(sols) == 1, (b, line)
            for s in sols:
                assert check_solution(s, cells), (b, line)
            assert len({s.tobytes() for s in sols}) == len(sols)
            if not expect_multi:
                ref = get_backend("sat").solve(cells, g)
                assert ref is not None and np.array_equal(sols[0], ref)


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_empty_4x4_has_288_grids(backend: str) -> None:
    g = Geometry.standard(4)
    sols = get_backend(backend).solutions(np.zeros(16, dtype=np.int8), g, 1000)
    assert len(sols) == 288
    assert len({s.tobytes() for s in sols}) == 288
    assert all(check_solution(s) for s in sols)


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_limit_caps_the_count(backend: str) -> None:
    empty = np.zeros(81, dtype=np.int8)
    assert cs.count_solutions(empty, limit=5, backend=backend) == 5
    assert cs.count_solutions(empty, limit=1, backend=backend) == 1


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_clashing_clues_have_no_solution(backend: str) -> None:
    p = "5" + "." * 5 + "5" + "." * 74
    assert cs.count_solutions(p, backend=backend) == 0
    assert cs.solve(p, backend=backend) is None
    assert not cs.is_unique(p, backend=backend)


@pytest.mark.parametrize(
    ("geo", "box"),
    [
        (Geometry.standard(6), {}),
        (Geometry.x_sudoku(), {"diagonals": True}),
        (Geometry.windoku(), {"windows": True}),
        (Geometry.standard(12), {}),
    ],
)
def test_variants_solve_from_empty_on_every_backend(geo: Geometry, box: dict[str, bool]) -> None:
    for b in ALL_BACKENDS:
        if b == "dlx" and geo.size > 9:
            continue
        backend = get_backend(b)
        if not backend.supports(geo):
            continue
        sol = backend.solve(np.zeros(geo.ncells, dtype=np.int8), geo)
        assert sol is not None
        assert check_solution(sol, **box)  # type: ignore[arg-type]


def test_jigsaw_solutions_respect_regions() -> None:
    # boxes shifted right by one cell per row inside each band: irregular, 9 cells each
    labels = [(r // 3) * 3 + ((c + r % 3) % 9) // 3 for r in range(9) for c in range(9)]
    g = Geometry.jigsaw(labels)
    for b in ("sat", "cpsat", "dlx"):
        sols = get_backend(b).solutions(np.zeros(81, dtype=np.int8), g, 2)
        assert len(sols) == 2
        for s in sols:
            assert check_solution(s, regions=labels)


def test_sixteen_by_sixteen_unique_puzzle() -> None:
    g = Geometry.standard(16)
    full = get_backend("sat").solve(np.zeros(256, dtype=np.int8), g)
    assert full is not None and check_solution(full)
    rng = np.random.default_rng(7)
    clues = full.copy()
    clues[rng.choice(256, size=120, replace=False)] = 0
    for b in ALL_BACKENDS:
        if b == "dlx":
            continue
        sols = get_backend(b).solutions(clues, g, 2)
        assert len(sols) >= 1
        assert any(np.array_equal(s, full) for s in sols) or len(sols) == 2
        for s in sols:
            assert check_solution(s, clues)


@st.composite
def solved_grid_and_mask(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, Geometry]:
    n = draw(st.sampled_from([4, 9]))
    g = Geometry.standard(n)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    # a random full grid: solve a few random consistent clues
    cells = np.zeros(g.ncells, dtype=np.int8)
    for cell in rng.permutation(g.ncells)[:n]:
        cells[cell] = rng.integers(1, n + 1)
    sol = get_backend("sat").solve(cells, g) if Puzzle(cells, g).is_consistent() else None
    if sol is None:
        sol = get_backend("sat").solve(np.zeros(g.ncells, dtype=np.int8), g)
    assert sol is not None
    keep = np.array(draw(st.lists(st.booleans(), min_size=g.ncells, max_size=g.ncells)))
    return sol, np.where(keep, sol, 0).astype(np.int8), g


@settings(max_examples=40, deadline=None)
@given(solved_grid_and_mask())
def test_any_subset_of_a_solution_is_solvable_and_keeps_its_clues(
    case: tuple[np.ndarray, np.ndarray, Geometry],
) -> None:
    sol, clues, g = case
    for b in ("sat", "cpsat", *(["fast"] if "fast" in ALL_BACKENDS else [])):
        found = get_backend(b).solutions(clues, g, 3)
        assert len(found) >= 1
        for s in found:
            assert check_solution(s, clues)
        if len(found) == 1:
            assert np.array_equal(found[0], sol)


def test_auto_backend_resolves_and_unknown_names_fail() -> None:
    assert backend_for(Geometry.standard(9)).name in ("fast", "sat")
    with pytest.raises(BackendError, match="unknown backend"):
        get_backend("nope")
    with pytest.raises(BackendError, match="unknown python-sat solver"):
        get_backend("sat:nope")
    assert (
        get_backend("sat:glucose4").solve(np.zeros(81, dtype=np.int8), Geometry.standard(9))
        is not None
    )


def test_available_lists_every_backend_with_what_it_offers() -> None:
    from csp_sudoku.backends import available, backend_names, probe_geometries
    from csp_sudoku.backends.sat import solver_names
    from tests.independent import check_solution

    infos = {b.name: b for b in available()}
    assert set(infos) == set(backend_names()) - {"auto"}
    assert infos["sat"].solvers == tuple(solver_names())
    assert "glucose4" in infos["sat"].solvers
    for info in infos.values():
        assert info.available, info.reason
        for geo in probe_geometries():  # what it says it supports, it solves
            if geo.name in info.geometries and geo.size <= 9 and geo.is_standard:
                sol = get_backend(info.name).solutions(np.zeros(geo.ncells, np.int8), geo, 1)
                assert len(sol) == 1 and check_solution(sol[0])


def test_the_shared_sat_backend_gives_each_thread_its_own_solver() -> None:
    """A loaded solver is stateful (selectors added and retired around each query):
    two threads on one shared solver got wrong counts, so each thread has its own."""
    import threading

    backend = get_backend("sat")
    geo = Geometry.standard(9)
    mine = backend._session(geo)  # type: ignore[attr-defined]
    assert backend._session(geo) is mine  # type: ignore[attr-defined]
    theirs = []
    worker = threading.Thread(target=lambda: theirs.append(backend._session(geo)))  # type: ignore[attr-defined]
    worker.start()
    worker.join()
    assert theirs[0] is not mine


def test_the_shared_sat_backend_answers_truly_from_many_threads() -> None:
    """Counts and solutions through the module-level API from 8 threads at once equal
    another backend's (dlx), one at a time; every solution passes the independent checker."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    unique = load_lines("top1465.txt", limit=60)
    several = load_lines("multi_solution_serg.txt", limit=120)
    lines = [line.split()[0] for line in [*unique, *several]]
    expected = [cs.count_solutions(line, limit=3, backend="dlx") for line in lines]
    assert set(expected) == {1, 3}  # the sample holds unique and multiple puzzles
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often: a race shows at once
    try:
        with ThreadPoolExecutor(8) as pool:
            counts = list(pool.map(lambda p: cs.count_solutions(p, limit=3, backend="sat"), lines))
            solved = list(pool.map(lambda p: cs.solve(p, backend="sat"), lines[: len(unique)]))
    finally:
        sys.setswitchinterval(switch)
    assert counts == expected
    for line, solution in zip(lines, solved, strict=False):
        assert check_solution(solution.cells, cs.parse(line).cells)


def test_a_closed_sat_backend_loads_its_solver_again() -> None:
    from csp_sudoku.backends import new_backend

    geo = Geometry.standard(9)
    backend = new_backend(geo, "sat")
    line = load_lines("top1465.txt", limit=1)[0].split()[0]
    cells = cs.parse(line).cells
    assert backend.count(cells, geo, 2) == 1
    backend.close()
    assert backend.count(cells, geo, 2) == 1
    backend.close()
