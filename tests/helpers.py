"""Plain reference implementations for the human-model tests.

Written from first principles (candidate sets, unit lists) so that the compiled
model has something independent to agree with: a plain singles solver and the
classic named techniques of Hunt, Pong, Tucker's section 1 (pointing, claiming,
naked and hidden subsets, X-Wing / Swordfish / Jellyfish).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

import numpy as np

import csp_sudoku as cs
from csp_sudoku import Geometry, Puzzle
from csp_sudoku.human.state import CandidateState
from tests.independent import check_solution

Pair = tuple[int, int]


def available_backends(names: tuple[str, ...] = ("sat", "cpsat", "dlx", "fast")) -> list[str]:
    """The backends of ``names`` that load here (``fast`` needs numba, ``cpsat`` OR-tools)."""
    from csp_sudoku.backends import BackendError, get_backend

    out = []
    for name in names:
        try:
            get_backend(name)
        except BackendError:
            continue
        out.append(name)
    return out


def lines_of(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Puzzle lines of a reference set (see :func:`tests.conftest.load_lines`)."""
    from tests.conftest import load_lines

    return load_lines(name, limit=limit, step=step)


def solution_of(puzzle: Puzzle) -> np.ndarray:
    """The solution by csp_sudoku.solve, checked by the independent checker."""
    sol = cs.solve(puzzle)
    assert sol is not None
    g = puzzle.geometry
    assert check_solution(
        sol.cells,
        puzzle.cells,
        box_rows=g.box_rows,
        box_cols=g.box_cols,
        diagonals=bool(g.extra_units) and g.name.startswith("x-"),
    )
    return np.asarray(sol.cells, dtype=np.int64)


def cand_sets(state: CandidateState) -> list[set[int]]:
    """Candidate sets of the empty cells (filled cells: empty set)."""
    n = state.geometry.size
    return [
        set() if state.values[c] else {d + 1 for d in range(n) if int(state.masks[c]) >> d & 1}
        for c in range(state.geometry.ncells)
    ]


def plain_singles(
    values: list[int], cands: list[set[int]], units: list[list[int]]
) -> list[tuple[int, int, int]]:
    """Every single as (cell, digit, unit or -1): naked by cell, then hidden by unit, digit."""
    out: list[tuple[int, int, int]] = []
    seen: set[Pair] = set()
    for c, s in enumerate(cands):
        if not values[c] and len(s) == 1:
            d = next(iter(s))
            out.append((c, d, -1))
            seen.add((c, d))
    n = len(units[0])
    for u, cells in enumerate(units):
        placed = {values[c] for c in cells if values[c]}
        for d in range(1, n + 1):
            if d in placed:
                continue
            where = [c for c in cells if not values[c] and d in cands[c]]
            if len(where) == 1 and (where[0], d) not in seen:
                seen.add((where[0], d))
                out.append((where[0], d, u))
    return out


def plain_singles_path(
    puzzle: Puzzle, rand: np.ndarray | None = None
) -> tuple[list[tuple[int, int, int, int]], bool]:
    """A plain singles solver: (cell, digit, unit, options) per step, and solved."""
    g = puzzle.geometry
    units = [list(map(int, u)) for u in g.units]
    peers = plain_peers(units, g.ncells)
    values = [int(v) for v in puzzle.cells]
    cands = [
        set() if values[c] else set(range(1, g.size + 1)) - {values[p] for p in peers[c]}
        for c in range(g.ncells)
    ]
    steps: list[tuple[int, int, int, int]] = []
    while True:
        singles = plain_singles(values, cands, units)
        if not singles:
            break
        k = 0 if rand is None else min(int(rand[len(steps)] * len(singles)), len(singles) - 1)
        c, d, u = singles[k]
        steps.append((c, d, u, len(singles)))
        values[c] = d
        cands[c] = set()
        for p in peers[c]:
            cands[p].discard(d)
    return steps, all(values)


def plain_peers(units: list[list[int]], ncells: int) -> list[set[int]]:
    """The peers of every cell: the other cells of its units."""
    peers: list[set[int]] = [set() for _ in range(ncells)]
    for u in units:
        for c in u:
            peers[c].update(x for x in u if x != c)
    return peers


def plain_contradiction(values: list[int], cands: list[set[int]], units: list[list[int]]) -> bool:
    """True when the position cannot be completed by the exact-cover rules, checked plainly.

    An empty cell without candidates, a digit placed twice in a unit, or a unit
    where a digit is neither placed nor a candidate of any of its empty cells.
    """
    if any(not values[c] and not cands[c] for c in range(len(values))):
        return True
    n = len(units[0])
    for cells in units:
        placed = [values[c] for c in cells if values[c]]
        if len(placed) != len(set(placed)):
            return True
        for d in range(1, n + 1):
            if d not in placed and not any(not values[c] and d in cands[c] for c in cells):
                return True
    return False


def plain_refute(state: CandidateState, cell: int, digit: int, rand: np.ndarray) -> float:
    """Pelanek's refutation in plain Python: lists and sets, no method of the package model.

    Assume ``digit`` in ``cell``; then, until the position is contradictory, place
    the single at index ``floor(rand[step] * count)`` of :func:`plain_singles`;
    the steps taken, or ``inf`` when the singles run out first.
    """
    g = state.geometry
    units = [list(map(int, u)) for u in g.units]
    peers = plain_peers(units, g.ncells)
    values = [int(v) for v in state.values]
    cands = cand_sets(state)

    def place(c: int, d: int) -> None:
        values[c] = d
        cands[c] = set()
        for q in peers[c]:
            cands[q].discard(d)

    place(cell, digit)
    steps = 0
    while True:
        if plain_contradiction(values, cands, units):
            return float(steps)
        singles = plain_singles(values, cands, units)
        if not singles:
            return float("inf")
        k = min(int(rand[steps] * len(singles)), len(singles) - 1)
        place(singles[k][0], singles[k][1])
        steps += 1


# --------------------------------------------------------------------------- named techniques


def _unit_lists(g: Geometry) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    n = g.size
    u = [list(map(int, x)) for x in g.units]
    return u[:n], u[n : 2 * n], u[2 * n : 3 * n]


def named_eliminations(state: CandidateState, size: int) -> Iterator[tuple[str, set[Pair]]]:
    """(technique, eliminations) of every classic technique instance of ``size`` (9x9-style grids)."""
    g = state.geometry
    n = g.size
    cands = cand_sets(state)
    rows, cols, boxes = _unit_lists(g)
    units = rows + cols + boxes
    row_of = [c // n for c in range(g.ncells)]
    col_of = [c % n for c in range(g.ncells)]
    box_of = [0] * g.ncells
    for b, cells in enumerate(boxes):
        for c in cells:
            box_of[c] = b
    if size == 1:
        for d in range(1, n + 1):
            for b, cells in enumerate(boxes):
                where = [c for c in cells if d in cands[c]]
                if not where:
                    continue
                for line_of, lines in ((row_of, rows), (col_of, cols)):
                    if len({line_of[c] for c in where}) == 1:
                        line = lines[line_of[where[0]]]
                        el = {(c, d) for c in line if box_of[c] != b and d in cands[c]}
                        if el:
                            yield "pointing", el
            for line in rows + cols:
                where = [c for c in line if d in cands[c]]
                if where and len({box_of[c] for c in where}) == 1:
                    box = boxes[box_of[where[0]]]
                    el = {(c, d) for c in box if c not in line and d in cands[c]}
                    if el:
                        yield "claiming", el
        return
    for unit in units:
        empty = [c for c in unit if cands[c]]
        for combo in combinations(empty, size):
            digits = set().union(*(cands[c] for c in combo))
            if len(digits) == size:
                el = {(c, d) for c in empty if c not in combo for d in digits if d in cands[c]}
                if el:
                    yield "naked", el
        missing = sorted(set().union(*(cands[c] for c in empty))) if empty else []
        for combo in combinations(missing, size):
            where = {c for c in empty if cands[c] & set(combo)}
            if len(where) == size:
                el = {(c, d) for c in where for d in cands[c] if d not in combo}
                if el:
                    yield "hidden", el
    for d in range(1, n + 1):
        for base, cover_of, covers in ((rows, col_of, cols), (cols, row_of, rows)):
            lines = [line for line in base if any(d in cands[c] for c in line)]
            for combo in combinations(lines, size):
                cover = {cover_of[c] for line in combo for c in line if d in cands[c]}
                if len(cover) == size:
                    inside = {c for line in combo for c in line}
                    el = {
                        (c, d)
                        for k in cover
                        for c in covers[k]
                        if c not in inside and d in cands[c]
                    }
                    if el:
                        yield "fish", el


def states_before(puzzle: Puzzle, kinds: tuple[str, ...]) -> Iterator[CandidateState]:
    """The candidate states a default solve path of ``puzzle`` meets just before
    each of its steps of one of ``kinds`` (``subset``, ``chain``, ...), as copies."""
    from csp_sudoku.human.path import solve_path

    state = CandidateState.from_puzzle(puzzle)
    for step in solve_path(puzzle).steps:
        if step.kind in kinds:
            yield state.copy()
        for c, d in step.placements:
            state.place(c, d)
        for c, d in step.eliminations:
            state.eliminate(c, d)


def generated_puzzles(geometry: Geometry, count: int, seed: int, remove: int) -> list[Puzzle]:
    """Unique puzzles on ``geometry``: a solved grid from csp_sudoku.solve (first row
    shuffled), ``remove`` random cells emptied, kept when csp_sudoku.is_unique says so."""
    rng = np.random.default_rng(seed)
    out: list[Puzzle] = []
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        start = np.zeros(geometry.ncells, dtype=np.int8)
        start[: geometry.size] = rng.permutation(geometry.size) + 1
        sol = cs.solve(start, geometry=geometry)
        if sol is None:
            continue
        cells = np.array(sol.cells, dtype=np.int8)
        cells[rng.choice(geometry.ncells, size=remove, replace=False)] = 0
        p = Puzzle(cells, geometry)
        if cs.is_unique(p):
            out.append(p)
    return out


def cli_commands() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every (sub)command's parser of ``csp-sudoku``, keyed by its words (``("bank", "add")``)."""
    from csp_sudoku.cli import build_parser

    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if words and not subs:
            found[words] = parser
        for action in subs:
            for name, child in action.choices.items():
                walk(child, (*words, name))

    walk(build_parser(), ())
    return found


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``csp-sudoku ARGV`` in this process: exit code, stdout, stderr (never a traceback)."""
    import contextlib
    import io

    from csp_sudoku.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


def run_module(
    args: Sequence[str], *, text: bool = True, timeout: float = 300, **options: Any
) -> subprocess.CompletedProcess[Any]:
    """``python -m csp_sudoku ARGS`` as a process of its own, its output captured.

    ``text``: stdout and stderr as text (else bytes); ``options`` go to
    :func:`subprocess.run` (``cwd``, ``env``, ``stdin``, ``check``).
    """
    return subprocess.run(
        [sys.executable, "-m", "csp_sudoku", *args],
        capture_output=True,
        text=text,
        timeout=timeout,
        **options,
    )


def run_on_an_old_bank(argv: list[str]) -> tuple[str, str]:
    """``csp-sudoku ARGV`` on a bank of an earlier version: its stdout and stderr.

    The run must succeed and say on stderr that it upgrades the bank, once
    (the upgrade is a warning, which the tests otherwise make an error).
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("default")
        code, out, err = run_cli(argv)
    assert code == 0, err
    assert "a bank of an earlier version" in err and "adding them now, once" in err
    return out, err
