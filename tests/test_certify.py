"""Uniqueness certificates: the DRAT proof is accepted by an independent checker."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from csp_sudoku.core.errors import NotUniqueError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.certify import (
    CertificateError,
    blocking_clause,
    certify,
    certify_to,
    drat_trim,
)
from tests.conftest import load_lines
from tests.drup_check import check_drat
from tests.independent import check_solution

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def _puzzles() -> list[Puzzle]:
    hard = load_lines("forum_hardest_11plus.txt", limit=2)
    seventeen = load_lines("17_clue.txt", limit=2)
    return [parse_line(s) for s in [EASY, *seventeen, *hard]]


@pytest.mark.parametrize("index", range(5))
def test_certificate_is_verified_independently(tmp_path: Path, index: int) -> None:
    puzzle = _puzzles()[index]
    cert = certify_to(puzzle, tmp_path / "p.drat")
    assert cert.cnf_path == tmp_path / "p.cnf"
    assert cert.proof_path.read_text().rstrip().endswith("0")
    assert check_solution(cert.solution.cells, puzzle.cells)
    assert check_drat(cert.cnf_path, cert.proof_path)
    verdict = drat_trim(cert.cnf_path, cert.proof_path)
    if verdict is not None:  # drat-trim installed: it must agree
        assert verdict


def test_a_tampered_proof_is_rejected(tmp_path: Path) -> None:
    cert = certify_to(
        parse_line(load_lines("forum_hardest_11plus.txt", limit=1)[0]), tmp_path / "h"
    )
    lemmas = [ln for ln in cert.proof_path.read_text().splitlines() if not ln.startswith("d ")]
    assert len(lemmas) > 2
    bad = tmp_path / "bad.drat"
    bad.write_text("\n".join(lemmas[-2:]) + "\n")  # the conclusion without its reasons
    assert not check_drat(cert.cnf_path, bad)


def test_a_wrong_solution_makes_the_formula_satisfiable(tmp_path: Path) -> None:
    """The formula really encodes the question: blocking a non-solution leaves it SAT."""
    from pysat.solvers import Solver

    from csp_sudoku.encodings.cnf import puzzle_cnf

    puzzle = parse_line(EASY)
    _cnf, _proof, sol = certify(puzzle)
    other = sol.with_cells({int(np.flatnonzero(puzzle.cells == 0)[0]): 0})
    cnf = puzzle_cnf(puzzle)
    cnf.append(blocking_clause(Puzzle(np.where(other.cells == 0, 1, other.cells))))
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
        assert s.solve()


def test_jigsaw_and_x_puzzles_are_certified(tmp_path: Path) -> None:
    x = Geometry.x_sudoku(4)
    solution = Puzzle([1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3], x)
    puzzle = solution.without(range(0, 16, 2))
    cert = certify_to(puzzle, tmp_path / "x.drat", cnf_path=tmp_path / "x.dimacs")
    assert cert.cnf_path.exists()
    assert check_drat(cert.cnf_path, cert.proof_path)


def test_non_unique_and_unsolvable_puzzles_are_refused(tmp_path: Path) -> None:
    with pytest.raises(NotUniqueError):
        certify_to(Puzzle(np.zeros(81, np.int8)), tmp_path / "empty.drat")
    clash = parse_line("11" + "." * 79)
    with pytest.raises(NotUniqueError):
        certify(clash)
    with pytest.raises(CertificateError):
        certify(parse_line(EASY), solver="minisat22")


# ---------------------------------------------------------------------- MiniZinc export
def test_minizinc_model_lists_every_unit() -> None:
    from csp_sudoku.encodings.minizinc import minizinc_data, minizinc_model

    puzzle = parse_line(EASY)
    text = minizinc_model(puzzle)
    assert "int: nunits = 27;" in text
    assert "alldifferent" in text and "solve satisfy;" in text
    x_text = minizinc_model(Geometry.x_sudoku(9))
    assert "int: nunits = 29;" in x_text and "array[1..n*n] of 0..n: clues;" in x_text
    assert minizinc_data(puzzle).startswith("clues = [")


def test_minizinc_model_solves_to_the_engine_solution(tmp_path: Path) -> None:
    import shutil
    import subprocess

    from csp_sudoku.api import solve
    from csp_sudoku.encodings.minizinc import minizinc_data, minizinc_model, write_minizinc

    exe = shutil.which("minizinc")
    if exe is None:
        pytest.skip("minizinc is not installed (Debian package: minizinc)")
    # a real jigsaw of 4x4: two L-shaped regions and two squares
    jig = Geometry.jigsaw([0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3])
    cases = [(parse_line(EASY), None), (parse_line(EASY).geometry, parse_line(EASY))]
    for model_of, data in cases:
        model = tmp_path / "m.mzn"
        write_minizinc(model_of, model)
        args = [exe, "--solver", "gecode", "-a", str(model)]
        if data is not None:
            (tmp_path / "d.dzn").write_text(minizinc_data(data))
            args.append(str(tmp_path / "d.dzn"))
        out = subprocess.run(args, capture_output=True, text=True, timeout=120, check=True).stdout
        grids = [blk for blk in out.split("----------") if blk.strip(" \n=")]
        assert len(grids) == 1  # unique
        sol = solve(parse_line(EASY))
        assert sol is not None
        assert [int(t) for t in grids[0].split()] == sol.cells.tolist()
    assert "nunits = 12" in minizinc_model(jig)


def test_check_certifies_a_record_in_the_shape_it_names(tmp_path: Path) -> None:
    """``check --certify`` on an X-Sudoku JSON Lines record (no ``--variant``) proves
    uniqueness as X-Sudoku: read as plain 9x9 (the independent counter) the
    puzzle has several solutions, so a proof of the plain reading could not
    exist; the independent checker accepts the proof that was written."""
    import json

    from csp_sudoku.generators import generate
    from tests.helpers import run_cli
    from tests.independent import count_solutions

    (g,) = generate(1, seed=4, geometry=Geometry.x_sudoku())
    assert count_solutions(g.puzzle.cells, limit=2) == 2
    records = tmp_path / "x.jsonl"
    records.write_text(json.dumps(g.to_dict()) + "\n")
    code, out, _err = run_cli(["check", str(records), "--certify", str(tmp_path / "certs")])
    assert code == 0 and "\tunique\t" in out
    assert check_drat(tmp_path / "certs" / "x-1.cnf", tmp_path / "certs" / "x-1.drat")
