"""The CNF and CP-SAT models say the same as the exact-cover matrix."""

from __future__ import annotations

import io

import numpy as np
import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import csp_sudoku as cs
from csp_sudoku import Geometry
from csp_sudoku.encodings.cnf import clue_literals, puzzle_cnf, rules_cnf, write_dimacs
from csp_sudoku.encodings.cpsat import SudokuModel
from csp_sudoku.encodings.exact_cover import exact_cover
from tests.independent import check_solution

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_nine_by_nine_cnf_is_exactly_one_per_column() -> None:
    cnf = rules_cnf(Geometry.standard(9))
    assert cnf.nv == 729
    # 324 columns x (one at-least-one clause + 36 pairwise at-most-one clauses)
    assert len(cnf.clauses) == 324 * 37
    assert rules_cnf(Geometry.standard(9)) is cnf  # cached


def test_cnf_with_clues_has_the_one_solution() -> None:
    p = cs.parse(LINE)
    cnf = puzzle_cnf(p)
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
        assert s.solve()
        model = np.array(s.get_model()[:729]) > 0
        grid = model.reshape(81, 9).argmax(axis=1) + 1
        assert check_solution(grid, p.cells)
        s.add_clause([-(c * 9 + int(grid[c])) for c in range(81)])
        assert not s.solve()
    assert len(clue_literals(p)) == 17


def test_sixteen_by_sixteen_cnf_uses_auxiliary_variables_and_solves() -> None:
    g = Geometry.standard(16)
    cnf = rules_cnf(g)
    assert cnf.nv > g.ncandidates
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as s:
        assert s.solve()
        vals = np.array(s.get_model()[: g.ncandidates]) > 0
        assert check_solution(vals.reshape(256, 16).argmax(axis=1) + 1)


def test_dimacs_round_trip() -> None:
    buf = io.StringIO()
    write_dimacs(cs.parse(LINE), buf)
    text = buf.getvalue()
    assert text.startswith("c csp_sudoku 9x9 puzzle")
    back = CNF(from_string=text)
    assert len(back.clauses) == 324 * 37 + 17


def test_exact_cover_file_format() -> None:
    buf = io.StringIO()
    exact_cover(Geometry.standard(4)).write(buf)
    rows = [r for r in buf.getvalue().splitlines() if not r.startswith("c")]
    assert rows[0] == "64 64"
    assert rows[1] == "0 16 32 48"  # r1c1=1: cell 0, 1 in row 1, 1 in column 1, 1 in box 1


def test_cpsat_model_accepts_user_constraints() -> None:
    m = SudokuModel(cs.parse("." * 81))
    # a classic extra rule: the main diagonal reads 1..9
    for i in range(9):
        m.model.add(m.value(i * 10) == i + 1)
    sol = m.solve()
    assert sol is not None
    assert check_solution(sol)
    assert [int(sol[i * 10]) for i in range(9)] == list(range(1, 10))
    # enumeration of a unique puzzle finds exactly one solution
    assert len(list(SudokuModel(cs.parse(LINE)).solutions(5))) == 1


def test_formulas_built_in_threads_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """python-sat records every CNF's variables in one process-wide pool
    (``IDPool.occupy``), which is not thread-safe: in CI two checkers built in two
    threads failed with "list modified during sort". The library builds its
    formulas under a lock; here ``occupy`` is slowed so that two threads inside it
    at once are seen, and each thread's rules must equal a lone caller's."""
    import threading
    import time

    from pysat.formula import IDPool

    from csp_sudoku.encodings import cnf as cnf_module

    shapes = [Geometry.standard(4), Geometry.standard(6), Geometry.standard(9), Geometry.x_sudoku()]
    alone = [rules_cnf(g).clauses for g in shapes]
    cnf_module._rules_cnf.cache_clear()
    inside: list[int] = []
    overlaps: list[int] = []
    real_occupy = IDPool.occupy

    def slow_occupy(self: IDPool, start: int, stop: int) -> None:
        inside.append(1)
        if len(inside) > 1:
            overlaps.append(len(inside))
        time.sleep(0.002)
        real_occupy(self, start, stop)
        inside.pop()

    monkeypatch.setattr(IDPool, "occupy", slow_occupy)
    built: dict[int, list[list[int]]] = {}
    start = threading.Barrier(len(shapes))

    def work(k: int) -> None:
        start.wait()
        built[k] = rules_cnf(shapes[k]).clauses

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(shapes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == []
    assert [built[k] for k in range(len(shapes))] == alone
