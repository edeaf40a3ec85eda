"""Uniqueness certificates: a DRAT proof that a puzzle has no second solution.

A puzzle with solution ``S`` is unique exactly when the formula

    rules  AND  clues  AND  (some cell differs from S)

is unsatisfiable. :func:`certify` builds that CNF (the rules of
:func:`csp_sudoku.encodings.cnf.rules_cnf`, one unit clause per clue, and the
clause blocking ``S``), solves it with a python-sat solver that logs a proof
(Glucose 4 by default, which writes DRUP: every lemma is a reverse-unit-
propagation consequence), and returns the proof lines. Anyone can then check
the claim without trusting csp_sudoku: ``drat-trim puzzle.cnf puzzle.drat``
(or any DRAT checker) must print ``s VERIFIED``, and the solution itself is
checked by reading the grid.

:func:`certify_to` writes both files, for ``csp-sudoku check --certify``.

A variant puzzle (:class:`~csp_sudoku.constraints.VariantPuzzle`) is
certified the same way, its formula being
:func:`csp_sudoku.variants.variant_cnf` (the rules, the givens and every
constraint's clauses, with their auxiliary variables) plus the same clause
blocking its solution: the variables of the candidates are the same, so the
blocking clause and the reading of a model are too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from pysat.formula import CNF

from csp_sudoku.constraints import VariantPuzzle
from csp_sudoku.core.errors import CertificateError as CertificateError
from csp_sudoku.core.errors import NotUniqueError
from csp_sudoku.core.io import staged, write_text
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.cnf import HeldSolver, puzzle_cnf, variable
from csp_sudoku.tools._inputs import plain_or_variant, puzzle_arg
from csp_sudoku.variants import variant_cnf

if TYPE_CHECKING:
    from csp_sudoku.api import PuzzleLike

#: python-sat solvers that log DRAT proofs with ``with_proof=True``.
PROOF_SOLVERS = ("glucose4", "glucose3", "cadical153", "cadical195", "lingeling")
DEFAULT_PROOF_SOLVER = "glucose4"
#: What can be certified: a plain puzzle, or a variant one.
Certifiable = Puzzle | VariantPuzzle


@dataclass(frozen=True)
class Certificate:
    """A written uniqueness certificate.

    Attributes:
        puzzle: the certified puzzle (plain or variant).
        solution: its only solution.
        cnf_path: the DIMACS formula (rules, clues, blocked solution).
        proof_path: the DRAT proof that the formula is unsatisfiable.
        lemmas: number of lemma lines in the proof (deletions not counted).
        solver: the python-sat solver that wrote the proof.
    """

    puzzle: Certifiable
    solution: Puzzle
    cnf_path: Path
    proof_path: Path
    lemmas: int
    solver: str


def blocking_clause(solution: Puzzle) -> list[int]:
    """The clause "some cell differs from ``solution``" over the candidate variables."""
    n = solution.geometry.size
    return [-variable(c, int(d), n) for c, d in enumerate(solution.cells.tolist())]


def _formula(puzzle: Certifiable, extra: list[list[int]] | None = None) -> CNF:
    """The puzzle's stand-alone CNF (rules, clues, a variant's constraints), then ``extra``."""
    if isinstance(puzzle, VariantPuzzle):
        return variant_cnf(puzzle, extra or [])
    return puzzle_cnf(puzzle, extra or [])


def uniqueness_cnf(puzzle: Certifiable, solution: Puzzle) -> CNF:
    """Rules + clues (+ constraints) + the clause blocking ``solution``: UNSAT iff it is the only one."""
    return _formula(puzzle, [blocking_clause(solution)])


def _solve_once(puzzle: Certifiable, solver: str) -> Puzzle:
    n = puzzle.geometry.size
    with HeldSolver(name=solver, bootstrap_with=_formula(puzzle).clauses) as s:
        if not s.solve():
            raise NotUniqueError("the puzzle has no solution: nothing to certify")
        model = np.asarray(s.get_model()[: puzzle.geometry.ncandidates]) > 0
    return Puzzle((model.reshape(-1, n).argmax(axis=1) + 1).astype(np.int8), puzzle.geometry)


def _certifiable(
    puzzle: Certifiable | PuzzleLike, solution: PuzzleLike | None
) -> tuple[Certifiable, Puzzle | None]:
    """The puzzle and the solution given to :func:`certify` as a :data:`Certifiable`
    and a :class:`Puzzle` of its shape: the plain ones may come in any form
    :data:`csp_sudoku.api.PuzzleLike` names, as the rest of the API takes them (a
    puzzle line raised ``AttributeError`` from deep in the formula).

    Raises:
        ArgumentError: naming the argument that is no puzzle.
    """
    p = plain_or_variant(puzzle, "puzzle")
    return p, None if solution is None else puzzle_arg(solution, "solution", p.geometry)


def certify(
    puzzle: Certifiable | PuzzleLike,
    solution: PuzzleLike | None = None,
    *,
    solver: str = DEFAULT_PROOF_SOLVER,
) -> tuple[CNF, list[str], Puzzle]:
    """Build the uniqueness formula of a puzzle and a DRAT proof of its unsatisfiability.

    Args:
        puzzle: the puzzle to certify, plain or variant; a plain one may be anything
            :data:`csp_sudoku.api.PuzzleLike` names (a puzzle line, cell values).
        solution: its solution when known (it is checked, not trusted); found otherwise.
        solver: a python-sat solver with proof logging (see :data:`PROOF_SOLVERS`).

    Returns:
        ``(cnf, proof_lines, solution)``; the proof lines are DRAT text without
        line ends, the last being ``"0"`` (the empty clause).

    Raises:
        NotUniqueError: when the puzzle has no solution or more than one.
        CertificateError: for an unknown proof solver.
        ArgumentError: a ``puzzle`` or ``solution`` that is no puzzle.
    """
    if solver not in PROOF_SOLVERS:
        raise CertificateError(
            f"solver {solver!r} cannot log proofs; use one of {', '.join(PROOF_SOLVERS)}"
        )
    puzzle, solution = _certifiable(puzzle, solution)
    if solution is None:
        solution = _solve_once(puzzle, solver)
    else:
        from csp_sudoku.core.verify import is_solution

        if isinstance(puzzle, VariantPuzzle):
            solves = puzzle.keeps(solution.cells)
        else:
            solves = is_solution(solution, puzzle)
        if not solves:
            raise CertificateError("the given solution does not solve the puzzle")
    cnf = uniqueness_cnf(puzzle, solution)
    with HeldSolver(name=solver, bootstrap_with=cnf.clauses, with_proof=True) as s:
        if s.solve():
            raise NotUniqueError(
                "the puzzle has a second solution: "
                + "".join(str(int(v)) for v in _model_cells(s.get_model(), puzzle))
            )
        proof = [str(line) for line in s.get_proof()]
    if not proof or proof[-1].strip() != "0":
        proof.append("0")
    return cnf, proof, solution


def _model_cells(model: list[int], puzzle: Certifiable) -> list[int]:
    n = puzzle.geometry.size
    vals = np.asarray(model[: puzzle.geometry.ncandidates]) > 0
    return [int(x) for x in vals.reshape(-1, n).argmax(axis=1) + 1]


def certify_to(
    puzzle: Certifiable | PuzzleLike,
    path: str | os.PathLike[str],
    *,
    cnf_path: str | os.PathLike[str] | None = None,
    solution: PuzzleLike | None = None,
    solver: str = DEFAULT_PROOF_SOLVER,
) -> Certificate:
    """Write the DRAT proof of uniqueness to ``path`` and its formula beside it.

    The formula goes to ``cnf_path``, by default ``path`` with the suffix
    ``.cnf`` (``p1.drat`` -> ``p1.cnf``). Check with ``drat-trim p1.cnf p1.drat``.
    ``puzzle`` and ``solution`` are taken as :func:`certify` takes them.

    Raises:
        NotUniqueError: when the puzzle has no solution or more than one.
        CertificateError: for an unknown proof solver.
        ArgumentError: a ``puzzle`` or ``solution`` that is no puzzle.
        OSError: when a file cannot be written.
    """
    puzzle, solution = _certifiable(puzzle, solution)
    proof_path = Path(path)
    formula_path = Path(cnf_path) if cnf_path is not None else proof_path.with_suffix(".cnf")
    if formula_path == proof_path:
        formula_path = proof_path.with_name(proof_path.name + ".cnf")
    cnf, proof, sol = certify(puzzle, solution, solver=solver)
    g = puzzle.geometry
    grid = puzzle.puzzle if isinstance(puzzle, VariantPuzzle) else puzzle
    kinds = puzzle.kinds() if isinstance(puzzle, VariantPuzzle) else []
    said = [f"c constraints (clauses after the givens' units): {', '.join(kinds)}"] if kinds else []
    with staged(formula_path) as tmp:
        cnf.to_file(
            tmp,
            comments=[
                f"c csp_sudoku uniqueness certificate, {g.name} puzzle {grid.to_line()}",
                *said,
                f"c solution {sol.to_line()}",
                f"c variable cell*{g.size}+digit: the 0-based cell holds the digit",
                "c the last clause blocks the solution: UNSAT means it is the only one",
            ],
        )
    write_text(proof_path, "\n".join(proof) + "\n")
    lemmas = sum(1 for line in proof if not line.startswith("d "))
    return Certificate(puzzle, sol, formula_path, proof_path, lemmas, solver)


def certificate_path(folder: Path, source: str, line: int, taken: set[str]) -> Path:
    """Where ``check --certify`` writes the proof of the puzzle at ``source:line``.

    ``FOLDER/FILE-LINE.drat`` (the formula goes beside it as ``.cnf``), ``FILE``
    the input's name without its folder and suffix; ``<stdin>`` and
    ``<argument>`` lose their brackets. ``taken`` holds the names the run has
    written: a name met again (two files of one name in two folders, several
    puzzles given as arguments, all ``<argument>`` line 1) gets ``~2``, ``~3``
    ..., and is added to it.
    """
    base = f"{Path(source).stem.strip('<>')}-{line}"
    name, k = base, 1
    while name in taken:
        k += 1
        name = f"{base}~{k}"
    taken.add(name)
    return folder / f"{name}.drat"


def drat_trim(
    cnf_path: str | os.PathLike[str], proof_path: str | os.PathLike[str], timeout: float = 60.0
) -> bool | None:
    """Run ``drat-trim`` when it is installed: True for ``s VERIFIED``, None if absent."""
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    done = subprocess.run(
        [exe, os.fspath(cnf_path), os.fspath(proof_path)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return "s VERIFIED" in done.stdout
