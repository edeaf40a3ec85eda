"""Generate variant puzzles, and list the constraints a unique variant puzzle can lose.

Four things, each seeded by the project's one convention (``seed``: an int, a
numpy Generator, a SeedSequence or None; item ``i`` of a run uses
:func:`~csp_sudoku.core.seeds.item_seed` of the run's seed, so the seed a result
carries regenerates it alone):

* :func:`generate_givens`: minimal puzzles for a constraint set. A random
  solution grid of the constraints (SAT with random phases), all its digits
  as givens, then the givens (or symmetric orbits of them) taken away in a
  random order while the puzzle stays unique. Removing givens only adds
  solutions, so one pass leaves a minimal puzzle: no given can go.
* :func:`generate_killers`: killer puzzles with no givens. A random grid is
  tiled by small cages (dominoes and singletons), each with the grid's sum;
  neighbouring cages are merged, in a random order, while the merged cage
  keeps distinct digits, has at most ``N`` cells, and the puzzle stays unique.
  A merge drops two sums but adds "digits differ" across the two cages, so it
  is not monotone: the passes go on until one merges nothing, and then no
  single merge keeps the puzzle unique.
* :func:`generate_drawn`: thermometers, dots or XV drawn from a random grid
  (every side-by-side pair the grid allows), taken away in a random order
  while unique; givens are added first only when the drawn constraints alone
  leave several solutions. Two-cell thermometers that chain are then joined
  into longer ones (the same rule). With a symmetry the pattern of
  thermometer steps, marks and givens keeps it, and orbits go together.
* :func:`removable_constraints`: for a unique puzzle, the constraints whose
  removal keeps it unique (each alone), and the killer cages whose sum can go.

**Difficulty targets.** The three generators take ``level`` (names of
:data:`csp_sudoku.variants.rating.LEVELS`, any of them) and ``score_range``
(inclusive bounds of the score of :func:`~csp_sudoku.variants.rating.rate_variant`):
puzzle ``i`` then tries attempts ``j = 0, 1, ...`` seeded
``attempt_seed(item_seed(seed, i), j)``, rates each, and yields the first on
target (with its rating); ``budget_seconds`` (for the call, looked at between
attempts) and ``attempts`` (per puzzle) bound the search, and when one runs out
:class:`~csp_sudoku.core.errors.BudgetExhaustedError` says how many were found
and the puzzle met nearest the target. Attempt 0 is the item's seed itself, so
without a target the puzzles are those of an untargeted run.

Every uniqueness check is one call of one incremental SAT solver per puzzle
(python-sat, :data:`~csp_sudoku.variants.SAT_SOLVER`): the rules are loaded
once, each constraint's clauses sit behind a selector literal (a clause
``C`` is added as ``C or not s``, so the constraint holds in a call that
assumes ``s``), the givens are assumptions, and one clause forbids the known
solution, so a call is satisfiable exactly when the puzzle has another
solution. Constraints that are gone for good get the unit clause ``not s``.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.constraints import Cnf, Constraint, VariantPuzzle
from csp_sudoku.constraints.difference import WhiteDot
from csp_sudoku.constraints.killer import KillerCage
from csp_sudoku.constraints.ratio import BlackDot
from csp_sudoku.constraints.thermometer import Thermometer
from csp_sudoku.constraints.xv import XV
from csp_sudoku.core.closing import Closing
from csp_sudoku.core.errors import (
    BudgetExhaustedError,
    GenerationError,
    NotUniqueError,
    SudokuError,
)
from csp_sudoku.core.geometry import Geometry, check_geometry
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.parallel import ordered_map
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import SeedLike, as_generator, as_seed, attempt_seed, item_seed
from csp_sudoku.encodings.cnf import HeldSolver, rules_cnf, variable
from csp_sudoku.variants import SAT_SOLVER
from csp_sudoku.variants.rating import LEVELS, VariantRating, level_rank, rate_variant

if TYPE_CHECKING:
    from typing import Unpack

__all__ = [
    "DRAWN_KINDS",
    "Removable",
    "TargetOptions",
    "VariantGenerated",
    "VariantTarget",
    "generate_drawn",
    "generate_givens",
    "generate_killers",
    "make_drawn",
    "make_givens",
    "make_killer",
    "random_solution",
    "removable_constraints",
]

Cell = tuple[int, int]

#: The kinds :func:`generate_drawn` can draw from a grid (f-puzzles names).
DRAWN_KINDS: tuple[str, ...] = ("thermometer", "difference", "ratio", "xv")


@dataclass(frozen=True)
class VariantGenerated:
    """One generated variant puzzle.

    Attributes:
        puzzle: the puzzle (unique).
        solution: its one solution.
        seed: the item's seed: the same ``make_*`` call with it gives this puzzle again.
        minimal: no single given can be taken away (:func:`generate_givens`,
            also with a symmetry: each remaining given is tried alone), no
            merge of two neighbouring cages keeps it unique
            (:func:`generate_killers`, also with a symmetry: each pair is
            tried alone), no drawn constraint or given can go
            (:func:`generate_drawn`, also with a symmetry: each is tried alone).
        calls: the SAT calls made.
        rating: its rating, when a difficulty target was asked for (else None).
        minimal_in_symmetry: with a symmetry (``orbits`` of givens, a
            ``symmetry`` of cages or of drawn constraints), True: no orbit of
            givens can go, no merge of two cages with their images keeps it
            unique, no orbit of drawn constraints or givens can go; None
            without one.
    """

    puzzle: VariantPuzzle
    solution: Puzzle
    seed: int
    minimal: bool
    calls: int
    rating: VariantRating | None = None
    minimal_in_symmetry: bool | None = None

    @classmethod
    def made(
        cls,
        puzzle: VariantPuzzle,
        grid: NDArray[np.int8],
        seed: int,
        minimal: bool,
        calls: int,
        symmetry: Sequence[int] | None,
    ) -> VariantGenerated:
        """A maker's result: ``grid`` its solution; a removal that went by the orbits
        of ``symmetry`` (None: by single items) left it minimal within them."""
        return cls(
            puzzle,
            Puzzle(grid, puzzle.geometry),
            seed,
            minimal,
            calls,
            minimal_in_symmetry=None if symmetry is None else True,
        )


@dataclass(frozen=True)
class Removable:
    """A constraint of a unique puzzle that can go (alone) with the puzzle still unique.

    Attributes:
        index: its place in ``puzzle.constraints``.
        constraint: the constraint.
        keep: what stays in its place: None when the whole constraint can go;
            the cage without its sum when only a killer cage's sum can go.
    """

    index: int
    constraint: Constraint
    keep: Constraint | None


# ---------------------------------------------------------------------- the solver
class _Session(Closing):
    """One incremental SAT solver: the rules, constraints behind selectors, givens as assumptions.

    Its searches and the constraints' cardinality encodings hold a Ctrl-C back
    until they return (:class:`~csp_sudoku.encodings.cnf.HeldSolver`,
    :data:`~csp_sudoku.encodings.cnf.ctrl_c_held`).
    """

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.n = geometry.size
        self.cnf = Cnf(geometry)
        self.solver = HeldSolver(name=SAT_SOLVER, bootstrap_with=rules_cnf(geometry).clauses)
        self.calls = 0

    def close(self) -> None:
        self.solver.delete()

    def fix(self, constraint: Constraint) -> None:
        """Add ``constraint`` for good."""
        self.solver.append_formula(constraint.clauses(self.cnf))

    def switch(self, constraint: Constraint) -> int:
        """Add ``constraint`` behind a new selector; it holds in the calls that assume it."""
        s = self.cnf.new()
        clauses = constraint.clauses(self.cnf)
        self.solver.append_formula([[*clause, -s] for clause in clauses])
        return s

    def retire(self, selector: int) -> None:
        """Switch a selector's constraint off for good."""
        self.solver.add_clause([-selector])

    def given(self, cell: int, digit: int) -> int:
        """The literal "``cell`` holds ``digit``" (a given as an assumption)."""
        return variable(cell, digit, self.n)

    def block(self, grid: NDArray[np.int8]) -> None:
        """Forbid the full ``grid``: from now on a call is satisfiable only with another solution."""
        self.solver.add_clause([-self.given(c, int(d)) for c, d in enumerate(grid.tolist())])

    def other(self, assumptions: Sequence[int]) -> bool:
        """Whether a solution exists under ``assumptions`` (after :meth:`block`: another one)."""
        self.calls += 1
        return bool(self.solver.solve(assumptions=assumptions))

    def grid(self) -> NDArray[np.int8]:
        """The grid of the last satisfiable call."""
        g = self.geometry
        model = self.solver.get_model()
        truth = np.array(model[: g.ncandidates], dtype=np.int64) > 0
        out: NDArray[np.int8] = (truth.reshape(g.ncells, self.n).argmax(axis=1) + 1).astype(np.int8)
        return out

    def random_grid(
        self, rng: np.random.Generator, assumptions: Sequence[int] = ()
    ) -> NDArray[np.int8] | None:
        """A solution under ``assumptions`` near a random wish (the solver's phases), or None."""
        g = self.geometry
        wish = rng.integers(1, self.n + 1, size=g.ncells)
        phases = -np.arange(1, g.ncandidates + 1, dtype=np.int64)
        idx = np.arange(g.ncells) * self.n + wish - 1
        phases[idx] = -phases[idx]
        self.solver.set_phases(phases.tolist())
        if not self.other(assumptions):
            return None
        return self.grid()


def random_solution(puzzle: VariantPuzzle, seed: SeedLike = None) -> Puzzle | None:
    """A random solution of ``puzzle`` (its givens and constraints), or None when it has none.

    The SAT solver's phases are set to a random wish grid, so different seeds
    give different solutions; the same seed, the same one.
    """
    rng = as_generator(seed)
    with _Session(puzzle.geometry) as s:
        for c in puzzle.constraints:
            s.fix(c)
        cells = puzzle.puzzle.cells
        givens = [s.given(int(c), int(cells[c])) for c in np.flatnonzero(cells)]
        grid = s.random_grid(rng, givens)
    return None if grid is None else Puzzle(grid, puzzle.geometry)


def _count(count: int) -> int:
    if not is_whole(count) or count < 0:
        raise GenerationError(f"count must be a whole number of 0 or more, got {count!r}")
    return int(count)


# ---------------------------------------------------------------------- difficulty targets
@dataclass(frozen=True)
class VariantTarget:
    """What a generated puzzle's rating must be: one of ``levels`` and within ``score_range``.

    Attributes:
        levels: accepted levels of :data:`~csp_sudoku.variants.rating.LEVELS`
            (empty: any level).
        score_range: inclusive ``(low, high)`` bounds of the score, or None.
    """

    levels: tuple[str, ...] = ()
    score_range: tuple[float, float] | None = None

    @staticmethod
    def of(
        level: str | Sequence[str] | None, score_range: tuple[float, float] | None
    ) -> VariantTarget:
        """The target of the generators' ``level`` and ``score_range`` arguments.

        Raises:
            GenerationError: an unknown level, a bad range, or a range that none
                of the levels reaches.
        """
        names = [level] if isinstance(level, str) else list(level or ())
        try:
            levels = tuple(LEVELS[level_rank(x)] for x in names)
        except SudokuError as err:
            raise GenerationError(str(err)) from None
        if score_range is not None:
            lo, hi = (float(x) for x in score_range)
            if not lo <= hi:
                raise GenerationError(
                    f"score_range ({lo:g}, {hi:g}): the low end is above the high"
                )
            score_range = (lo, hi)
        target = VariantTarget(levels, score_range)
        if not target.spans():
            raise GenerationError(
                f"no puzzle can rate {target.describe()}: level k has the scores "
                f"[k, k + 1), k from 0 ({LEVELS[0]}) to {len(LEVELS) - 1} ({LEVELS[-1]})"
            )
        return target

    @property
    def active(self) -> bool:
        """Whether some puzzles miss the target (else every puzzle is on it, unrated)."""
        return bool(self.levels) or self.score_range is not None

    def spans(self) -> list[tuple[float, float]]:
        """The scores on target, as closed intervals (a level's upper end is open,
        so an interval may reach it without holding it)."""
        ranks = [level_rank(x) for x in self.levels] or list(range(len(LEVELS)))
        lo, hi = self.score_range or (-math.inf, math.inf)
        return [
            (max(r, lo), min(r + 1, hi))
            for r in sorted(ranks)
            if max(r, lo) <= min(r + 1, hi) and max(r, lo) < r + 1
        ]

    def matches(self, rating: VariantRating) -> bool:
        """Whether ``rating`` is on target."""
        if self.levels and rating.level not in self.levels:
            return False
        if self.score_range is not None:
            lo, hi = self.score_range
            return lo <= rating.score <= hi
        return True

    def distance(self, rating: VariantRating) -> float:
        """How far the rating's score lies from the scores on target (0 on target)."""
        if self.matches(rating):
            return 0.0
        s = rating.score
        return min(max(lo - s, s - hi, 0.0) for lo, hi in self.spans())

    def describe(self) -> str:
        """``level hard or expert and score in [2.5, 3.5]``."""
        what = []
        if self.levels:
            what.append(f"level {' or '.join(self.levels)}")
        if self.score_range is not None:
            what.append(f"score in [{self.score_range[0]:g}, {self.score_range[1]:g}]")
        return " and ".join(what)


class TargetOptions(TypedDict, total=False):
    """The keyword arguments that the three generators share: what a puzzle's rating must
    be, the budget of the search for it, and the processes that search.

    Every key may be left out. ``level`` and ``score_range`` make the
    :class:`VariantTarget` (:meth:`VariantTarget.of`; both left out: no target,
    every puzzle is attempt 0 of its seed, unrated).

    Attributes:
        level: the wanted level(s) of :func:`~csp_sudoku.variants.rating.rate_variant`
            (default: any).
        score_range: the inclusive bounds of the wanted score (default: any).
        budget_seconds: the time for the call, looked at between attempts
            (default: none).
        attempts: the most attempts per puzzle (default: no limit).
        jobs: worker processes that make the attempts (0: every core; never
            more than the cores; default 1). The puzzles do not depend on it:
            puzzle ``i`` is its first attempt on target either way (without a
            time budget, the same puzzles in the same order; with one, how
            many are found before it runs out depends on the machine).
        first: the first puzzle made (default 0): a run resumed after ``first``
            puzzles makes puzzles ``first`` to ``count - 1``, the ones the run
            it resumes would have made next.
    """

    level: str | Sequence[str] | None
    score_range: tuple[float, float] | None
    budget_seconds: float | None
    attempts: int | None
    jobs: int
    first: int


def _targeted(
    make: Callable[[int], VariantGenerated], count: int, seed: SeedLike, run: TargetOptions
) -> Iterator[VariantGenerated]:
    """Puzzle ``i`` from attempts ``attempt_seed(item_seed(seed, i), j)`` until one is on
    ``target`` (rated, with its rating); without a target, attempt 0 of each.

    Puzzle ``i`` is its first attempt on target, whatever ``jobs``: with
    ``jobs > 1`` the attempts run in worker processes
    (:func:`csp_sudoku.core.parallel.ordered_map`), several puzzles' attempts at
    once, and an attempt past the first hit of its puzzle is dropped (skipped
    at once when it had not started: the found puzzle leaves a file in a
    temporary folder, which an attempt looks for before it starts).

    Raises:
        BudgetExhaustedError: the time or the attempts ran out (after yielding what was found).
        GenerationError: a bad target, count, budget, number of attempts or of jobs.
        TypeError: a key that :class:`TargetOptions` does not have.
    """
    unknown = sorted(set(run) - TargetOptions.__optional_keys__)
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    target = VariantTarget.of(run.get("level"), run.get("score_range"))
    budget_seconds = run.get("budget_seconds")
    attempts = run.get("attempts")
    jobs = run.get("jobs", 1)
    first = run.get("first", 0)
    count = _count(count)
    if not is_whole(first) or not 0 <= first <= count:
        raise GenerationError(f"first must be a whole number from 0 to count, got {first!r}")
    if budget_seconds is not None and not (budget_seconds >= 0 and math.isfinite(budget_seconds)):
        raise GenerationError(f"budget_seconds must be 0 or more, got {budget_seconds!r}")
    if attempts is not None and (not is_whole(attempts) or attempts < 1):
        raise GenerationError(f"attempts must be a whole number of 1 or more, got {attempts!r}")
    if not is_whole(jobs) or jobs < 0:
        raise GenerationError(
            f"jobs must be a whole number of 0 (every core) or more, got {jobs!r}"
        )
    attempts = None if attempts is None else int(attempts)
    cores = os.cpu_count() or 1
    workers = min(int(jobs) or cores, cores)
    if not target.active and count - first <= 1:
        workers = 1  # one attempt in all: no pool to start
    deadline = None if budget_seconds is None else time.monotonic() + budget_seconds
    marks = _marks_folder() if workers > 1 else None
    folder = None if marks is None else marks.name
    plan = _Attempts(make, count, as_seed(seed), target, attempts, deadline, folder)
    plan.low = int(first)
    results = ordered_map(_attempt, plan.tasks(), jobs=workers)
    try:
        for got in results:
            yield from plan.take(got)
            if plan.low >= count:
                break  # every puzzle found: the attempts still in flight are not needed
            plan.check(budget_seconds)
        plan.check(budget_seconds, ended=True)
    finally:
        if isinstance(results, Generator):
            results.close()  # stopped early: the workers are ended, not waited for
        if marks is not None:
            marks.cleanup()


#: The name of a folder of found marks starts so, then the process id of its run.
MARKS_PREFIX = "csp-sudoku-found-"


def _marks_folder() -> tempfile.TemporaryDirectory[str]:
    """A new folder for the marks of the puzzles found, named after this process.

    Removed at the run's end; a run killed with no chance to clean up
    (``kill -9``) leaves its folder behind, so the folders of processes that
    no longer exist are removed first (those of live runs are left alone).
    """
    root = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(root):
            pid = name[len(MARKS_PREFIX) :].split("-", 1)[0]
            if name.startswith(MARKS_PREFIX) and pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(os.path.join(root, name), ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f"{MARKS_PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    """Whether a process of this id exists (another user's included)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # not ours to signal, but there
        return True
    return True


def _attempt(
    make: Callable[[int], VariantGenerated], seed: int, target: VariantTarget, found: str | None
) -> VariantGenerated | None:
    """One attempt (in a worker process with ``jobs > 1``): the puzzle of ``seed``,
    with its rating when there is a target; None, at once, when the file ``found``
    says that its puzzle was found while the attempt waited in the queue."""
    if found is not None and os.path.exists(found):
        return None
    got = make(seed)
    if target.active:
        got = replace(got, rating=rate_variant(got.puzzle))
    return got


class _Attempts:
    """The attempts of a targeted run: which to make next, and what the ones made gave.

    Puzzles are yielded in order: ``low`` is the first not yet yielded. The next
    attempt goes to the first puzzle from ``low`` on that may still need one and
    would then have no more attempts in flight than a puzzle takes on average
    (attempts read per hit, counting one hit in one attempt before the run's
    own), else to the one with the fewest in flight. A target most attempts
    meet spreads the workers over the puzzles, one attempt each (an attempt
    made past a puzzle's first hit is wasted); one they rarely meet keeps them
    on the puzzle that comes next, which a budget then ends soonest. Only the
    last puzzles of a run, fewer than the attempts in flight, get several
    each. With one worker an attempt is read before the next is asked for, so
    the attempts go one after the other, as a loop would make them. Results
    come back in the order the attempts were handed out, so a puzzle's attempts
    are read in the order of ``j`` and its first hit is its first attempt on
    target.
    """

    def __init__(
        self,
        make: Callable[[int], VariantGenerated],
        count: int,
        base: int,
        target: VariantTarget,
        attempts: int | None,
        deadline: float | None,
        marks: str | None,
    ) -> None:
        self.make, self.count, self.base, self.target = make, count, base, target
        self.marks = marks  # a folder where puzzle i found leaves the file "i" (workers only)
        self.limit = attempts if target.active else 1  # attempts a puzzle may take
        self.attempts = attempts
        self.deadline = deadline
        self.low = 0
        self.made: dict[int, int] = {}  # puzzle -> attempts handed out
        self.flying: dict[int, int] = {}  # puzzle -> attempts handed out, not read
        self.missed: dict[int, int] = {}  # puzzle -> attempts read off target
        self.found: dict[int, VariantGenerated] = {}  # puzzles found, not yet yielded
        self.nearest: dict[
            int, VariantGenerated | None
        ] = {}  # puzzle -> its miss nearest the target
        self.order: deque[int] = deque()  # the puzzle of every attempt in flight, in order
        self.read = 0  # attempts read, but those past a puzzle's hit
        self.hits = 0

    def _open(self, i: int) -> bool:
        """Whether puzzle ``i`` may take another attempt."""
        return i not in self.found and (self.limit is None or self.made.get(i, 0) < self.limit)

    def _pick(self) -> int | None:
        per_hit = (self.read + 1) / (self.hits + 1)
        fewest = None
        for i in range(self.low, self.count):
            if not self._open(i):
                continue
            flying = self.flying.get(i, 0)
            if flying + 1 <= per_hit:
                return i
            if fewest is None or flying < self.flying.get(fewest, 0):
                fewest = i
        # (the loop ends soon: at most the attempts in flight, 2 * jobs + 1, are skipped)
        return fewest

    def tasks(
        self,
    ) -> Iterator[tuple[Callable[[int], VariantGenerated], int, VariantTarget, str | None]]:
        """The attempts to make, read one at a time as results come back."""
        while self.deadline is None or time.monotonic() < self.deadline:
            i = self._pick()
            if i is None:
                return
            j = self.made.get(i, 0)
            self.made[i] = j + 1
            self.flying[i] = self.flying.get(i, 0) + 1
            self.order.append(i)
            found = None if self.marks is None else os.path.join(self.marks, str(i))
            yield self.make, attempt_seed(item_seed(self.base, i), j), self.target, found

    def take(self, got: VariantGenerated | None) -> Iterator[VariantGenerated]:
        """Read the next result (None: an attempt skipped, its puzzle found); yield
        the puzzles it lets out, in order."""
        i = self.order.popleft()
        if i < self.low:
            return  # an attempt past the first hit of a puzzle yielded already
        self.flying[i] -= 1
        if i in self.found or got is None:
            return  # an attempt past the puzzle's first hit
        self.read += 1
        if got.rating is None or self.target.matches(got.rating):
            self.found[i] = got
            self.hits += 1
            if self.marks is not None:  # its attempts still waiting in the queue are skipped
                Path(self.marks, str(i)).touch()
        else:
            self.missed[i] = self.missed.get(i, 0) + 1
            self.nearest[i] = self._nearer(self.nearest.get(i), got)
        while self.low in self.found:
            yield self.found.pop(self.low)
            for book in (self.made, self.flying, self.missed):
                book.pop(self.low, None)
            # the nearest miss of the puzzles yielded so far is kept under the key -1
            self.nearest[-1] = self._nearer(self.nearest.get(-1), self.nearest.pop(self.low, None))
            self.low += 1

    def _nearer(
        self, first: VariantGenerated | None, then: VariantGenerated | None
    ) -> VariantGenerated | None:
        """Of two misses met in this order, the one nearer the target (the first among equals)."""
        if then is None or then.rating is None:
            return first
        if first is None or _nearer(then.rating, first.rating, self.target):
            return then
        return first

    def check(self, budget_seconds: float | None, ended: bool = False) -> None:
        """Raise the budget's error when puzzle ``low`` cannot be found any more: its
        attempts all missed, the time is up, or (``ended``) no attempt is left."""
        if self.low >= self.count:
            return
        why = ""
        if self.limit is not None and self.missed.get(self.low, 0) >= self.limit:
            n = self.attempts
            why = f"the budget of {n} attempt{'s' if n != 1 else ''} per puzzle"
        elif ended or (self.deadline is not None and time.monotonic() >= self.deadline):
            why = f"the time budget of {budget_seconds:g} s"
        if why:
            nearest = self._nearer(self.nearest.get(-1), self.nearest.get(self.low))
            raise _budget_error(why, self.low, self.count, self.target, nearest)


def _nearer(a: VariantRating, b: VariantRating | None, target: VariantTarget) -> bool:
    """Whether ``a`` is nearer the target than ``b`` (among equals, the harder)."""
    if b is None:
        return True
    return (target.distance(a), -a.score) < (target.distance(b), -b.score)


def _budget_error(
    why: str, found: int, count: int, target: VariantTarget, nearest: VariantGenerated | None
) -> BudgetExhaustedError:
    """The error of a run short of its target: found of count, the target, the budget,
    and the puzzle met nearest the target (the hardest, when every one was below it)."""
    met = ""
    if nearest is not None and nearest.rating is not None:
        r = nearest.rating
        low = min(lo for lo, _ in target.spans())
        high = max(hi for _, hi in target.spans())
        which = "hardest" if r.score < low else "easiest" if r.score > high else "nearest"
        met = (
            f" (the {which} puzzle met rated {r.score:.4g}, level {r.level}, "
            f"hardest step {r.hardest_technique or r.hardest}; seed {nearest.seed})"
        )
    aim = f" at {target.describe()}" if target.active else ""
    return BudgetExhaustedError(
        f"generated {found} of {count} variant puzzle{'s' if count != 1 else ''}{aim} "
        f"before {why} ran out{met}; raise budget_seconds/attempts "
        f"(--budget-seconds/--attempts){' or widen the target' if target.active else ''}",
        found=found,
        wanted=count,
    )


# ---------------------------------------------------------------------- minimal givens
def _check_orbits(orbits: Iterable[Iterable[int]] | None, ncells: int) -> list[list[int]]:
    if orbits is None:
        return [[c] for c in range(ncells)]
    out = [sorted(int(c) for c in orb) for orb in orbits]
    flat = sorted(c for orb in out for c in orb)
    if flat != list(range(ncells)):
        raise GenerationError(f"orbits must split the {ncells} cells into groups, each cell once")
    return out


def make_givens(
    template: VariantPuzzle, seed: int, *, orbits: Iterable[Iterable[int]] | None = None
) -> VariantGenerated:
    """One minimal puzzle with the constraints of ``template`` (see :func:`generate_givens`)."""
    g = template.geometry
    groups = _check_orbits(orbits, g.ncells)
    rng = as_generator(seed)
    with _Session(g) as s:
        for c in template.constraints:
            s.fix(c)
        cells = template.puzzle.cells
        start = [s.given(int(c), int(cells[c])) for c in np.flatnonzero(cells)]
        grid = s.random_grid(rng, start)
        if grid is None:
            raise GenerationError("the constraints (and givens) of the template allow no grid")
        s.block(grid)
        keep = np.ones(g.ncells, dtype=bool)
        lits = [s.given(c, int(d)) for c, d in enumerate(grid.tolist())]

        def unique_without(cells: Iterable[int]) -> bool:
            trial = keep.copy()
            trial[list(cells)] = False
            return not s.other([lits[c] for c in np.flatnonzero(trial)])

        for k in rng.permutation(len(groups)).tolist():
            if unique_without(groups[k]):
                keep[groups[k]] = False
        minimal = orbits is None or not any(
            unique_without([c]) for c in np.flatnonzero(keep).tolist()
        )
        calls = s.calls
    givens = np.where(keep, grid, 0)
    puzzle = replace(template, puzzle=Puzzle(givens, g))
    # removing givens only adds solutions: after the pass no orbit can go
    in_orbits = None if orbits is None else True
    return VariantGenerated(
        puzzle, Puzzle(grid, g), seed, minimal, calls, minimal_in_symmetry=in_orbits
    )


def generate_givens(
    template: VariantPuzzle,
    count: int = 1,
    *,
    seed: SeedLike = None,
    orbits: Iterable[Iterable[int]] | None = None,
    **run: Unpack[TargetOptions],
) -> Iterator[VariantGenerated]:
    """``count`` minimal puzzles with the constraints of ``template``, each from its own grid.

    Args:
        template: the constraints; its givens (if any) are kept in the solution
            grid, then taken away like the others when the puzzle stays unique.
        count: how many puzzles.
        seed: the run's seed (puzzle ``i`` is ``make_givens(template, item_seed(seed, i))``;
            with a target, its attempt ``j`` ``attempt_seed(item_seed(seed, i), j)``).
        orbits: groups of cells taken away together (a symmetric pattern, e.g.
            :func:`csp_sudoku.generators.symmetry.orbits`); None: each cell alone.
        run: the difficulty target, its budget and the worker processes
            (:class:`TargetOptions`).

    Raises:
        GenerationError: the constraints allow no grid, a bad count, orbits that
            do not split the cells, or a bad target.
        BudgetExhaustedError: a budget ran out (after yielding what was found).
    """
    groups = None if orbits is None else [list(o) for o in orbits]
    yield from _targeted(partial(make_givens, template, orbits=groups), count, seed, run)


# ---------------------------------------------------------------------- killers
def _shape(geometry: Geometry | None) -> Geometry:
    """The shape of a generator's ``geometry`` argument: 9x9 for None, else a
    :class:`Geometry` (anything else: :class:`GeometryError`)."""
    return check_geometry(geometry) or Geometry.standard(9)


def _symmetry_group(symmetry: Sequence[int] | None, n: int) -> list[NDArray[np.intp]]:
    """The powers of the cell permutation ``symmetry`` (identity first): the group whose
    images of a cage are cages too. None: the identity alone.

    Raises:
        GenerationError: not a permutation of the cells, or one that sends two
            side-by-side cells apart (its images of a connected cage would not be).
    """
    ncells = n * n
    ident = np.arange(ncells, dtype=np.intp)
    if symmetry is None:
        return [ident]
    wanted = f"symmetry must be a permutation of the {ncells} cells (cell -> its image)"
    given: object = symmetry  # a caller's name ("rot180") passes no type check at run time
    if isinstance(given, str):
        raise GenerationError(
            f"{wanted}, got the name {given!r:.40}: a named symmetry's permutation is "
            f"csp_sudoku.generators.symmetry.permutation({n}, {given!r:.40})"
        )
    try:
        perm = np.asarray(list(symmetry), dtype=np.intp)
    except (TypeError, ValueError, OverflowError):
        perm = np.empty(0, dtype=np.intp)
    if perm.shape != (ncells,) or not np.array_equal(np.sort(perm), ident):
        raise GenerationError(f"{wanted}, got {symmetry!r:.60}")
    rows = ident.reshape(n, n)
    for a, b in ((rows[:, :-1], rows[:, 1:]), (rows[:-1, :], rows[1:, :])):
        (ra, ca), (rb, cb) = np.divmod(perm[a], n), np.divmod(perm[b], n)
        if not (np.abs(ra - rb) + np.abs(ca - cb) == 1).all():
            raise GenerationError("symmetry must send side-by-side cells to side-by-side cells")
    group = [ident]
    power = perm
    while not np.array_equal(power, ident):
        group.append(power)
        power = perm[power]
    return group


def _images(cells: Sequence[int], group: Sequence[NDArray[np.intp]]) -> list[list[int]]:
    """The distinct images of a set of cells under ``group``, each sorted, the set's own first."""
    out: list[list[int]] = []
    for g in group:
        image = sorted(int(x) for x in g[list(cells)])
        if image not in out:
            out.append(image)
    return out


def _tiling(
    geometry: Geometry, rng: np.random.Generator, group: Sequence[NDArray[np.intp]]
) -> list[list[int]]:
    """A random tiling of the grid by dominoes (side by side cells) and singletons, whose
    images under ``group`` are tiles too: a domino goes in with all its images, when they
    are free and pairwise disjoint or equal; a cell left alone, with its orbit."""
    n = geometry.size
    free = np.ones(geometry.ncells, dtype=bool)
    tiles: list[list[int]] = []
    for c in rng.permutation(geometry.ncells).tolist():
        if not free[c]:
            continue
        r, col = divmod(c, n)
        options = []
        for rr, cc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
            if 0 <= rr < n and 0 <= cc < n and free[rr * n + cc]:
                images = _images([c, rr * n + cc], group)
                flat = [x for image in images for x in image]
                if len(set(flat)) == len(flat) and free[flat].all():
                    options.append(images)
        chosen = options[int(rng.integers(len(options)))] if options else _images([c], group)
        for tile in chosen:
            free[tile] = False
            tiles.append(tile)
    return tiles


class _Cages:
    """The cages of a killer in the making: cells, sums and selectors, and their neighbours.

    The tiling keeps ``group`` (the identity alone without a symmetry): a merge of two
    cages merges their images too, with every cage an image touches (the finest
    tiling with the symmetry in which the two are one cage)."""

    def __init__(
        self, session: _Session, grid: NDArray[np.int8], group: Sequence[NDArray[np.intp]]
    ) -> None:
        self.s = session
        self.grid = grid
        self.n = session.n
        self.group = group
        self.cells: dict[int, list[int]] = {}  # selector -> sorted cells
        self.owner = np.zeros(session.geometry.ncells, dtype=np.int64)

    def cage(self, cells: list[int]) -> KillerCage:
        n = self.n
        total = int(sum(int(self.grid[c]) for c in cells))
        return KillerCage(tuple(divmod(c, n) for c in cells), total)

    def add(self, cells: list[int]) -> int:
        sel = self.s.switch(self.cage(cells))
        self.cells[sel] = cells
        self.owner[cells] = sel
        return sel

    def remove(self, sel: int) -> None:
        self.s.retire(sel)
        del self.cells[sel]

    def allowed(self, cells: list[int]) -> bool:
        """Whether ``cells`` may be one cage: distinct digits in the grid, at most N cells."""
        digits = {int(self.grid[c]) for c in cells}
        return len(cells) <= self.n and len(digits) == len(cells)

    def mergeable(self, a: int, b: int) -> bool:
        return self.allowed(self.cells[a] + self.cells[b])

    def merged(self, a: int, b: int) -> list[tuple[list[int], list[int]]] | None:
        """The merge of cages ``a`` and ``b`` and of their images, as ``(old cages,
        new cage's cells)`` for each new cage; None when a new cage is not allowed."""
        parent: dict[int, int] = {}

        def root(x: int) -> int:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        ca, cb = self.cells[a][0], self.cells[b][0]
        for g in self.group:
            ra, rb = root(int(self.owner[g[ca]])), root(int(self.owner[g[cb]]))
            parent[max(ra, rb)] = min(ra, rb)
        parts: dict[int, list[int]] = {}
        for sel in parent:
            parts.setdefault(root(sel), []).append(sel)
        out = []
        for olds in parts.values():
            cells = sorted(c for sel in olds for c in self.cells[sel])
            if not self.allowed(cells):
                return None
            out.append((sorted(olds), cells))
        return out

    def pairs(self) -> list[tuple[int, int]]:
        """The pairs of side-by-side cages whose union keeps distinct digits, each once, sorted."""
        n = self.n
        own = self.owner.reshape(n, n)
        found: set[tuple[int, int]] = set()
        for a, b in itertools.chain(
            zip(own[:, :-1].ravel().tolist(), own[:, 1:].ravel().tolist(), strict=True),
            zip(own[:-1, :].ravel().tolist(), own[1:, :].ravel().tolist(), strict=True),
        ):
            if a != b:
                found.add((min(a, b), max(a, b)))
        return sorted(p for p in found if self.mergeable(*p))

    def orbits(self, sels: Iterable[int]) -> list[list[int]]:
        """``sels`` grouped by orbit (a cage with its images), in the order of their first."""
        out: list[list[int]] = []
        placed: set[int] = set()
        for sel in sels:
            if sel not in placed:
                orbit = list(
                    dict.fromkeys(int(self.owner[g[self.cells[sel][0]]]) for g in self.group)
                )
                placed.update(orbit)
                out.append(orbit)
        return out

    def try_merge(self, merge: list[tuple[list[int], list[int]]], keep: bool = True) -> bool:
        """Whether the puzzle stays unique with ``merge`` made (one SAT call); made for
        good when it does and ``keep`` is set, else undone."""
        olds = {sel for old, _ in merge for sel in old}
        news = [self.add(cells) for _, cells in merge]
        others = [x for x in self.cells if x not in olds]
        unique = not self.s.other(others)
        if unique and keep:
            for sel in sorted(olds):
                self.remove(sel)
            return True
        for sel in news:
            self.remove(sel)
        for sel in olds:
            self.owner[self.cells[sel]] = sel
        return unique

    def puzzle(self, geometry: Geometry) -> VariantPuzzle:
        cages = [self.cage(cells) for cells in sorted(self.cells.values())]
        return VariantPuzzle(
            Puzzle(np.zeros(geometry.ncells, dtype=np.int8), geometry), tuple(cages)
        )


def make_killer(
    seed: int,
    *,
    geometry: Geometry | None = None,
    rules: Sequence[Constraint] = (),
    symmetry: Sequence[int] | None = None,
) -> VariantGenerated:
    """One killer puzzle with no givens (see :func:`generate_killers`)."""
    g = _shape(geometry)
    group = _symmetry_group(symmetry, g.size)
    rng = as_generator(seed)
    with _Session(g) as s:
        for c in rules:
            s.fix(c)
        grid = s.random_grid(rng)
        if grid is None:
            raise GenerationError("the rules allow no grid")
        s.block(grid)
        cages = _Cages(s, grid, group)
        for tile in _tiling(g, rng, group):
            cages.add(tile)
        # the dominoes may leave two solutions: split them (with their images), in a
        # random order, until unique
        dominoes = cages.orbits(sel for sel, cells in cages.cells.items() if len(cells) == 2)
        for k in rng.permutation(len(dominoes)).tolist():
            if not s.other(list(cages.cells)):
                break
            for sel in dominoes[k]:
                cells = cages.cells[sel]
                cages.remove(sel)
                for cell in cells:
                    cages.add([cell])
        while True:
            merged = False
            tried: set[tuple[tuple[int, ...], ...]] = set()  # merges refused since the last change
            pairs = cages.pairs()
            for k in rng.permutation(len(pairs)).tolist():
                a, b = pairs[k]
                if a not in cages.cells or b not in cages.cells or not cages.mergeable(a, b):
                    continue
                merge = cages.merged(a, b)
                key = tuple(sorted(tuple(cells) for _, cells in merge or ()))
                if merge is None or key in tried:
                    continue
                if cages.try_merge(merge):
                    merged = True
                    tried.clear()
                else:
                    tried.add(key)
            if not merged:
                break
        # with a symmetry, no merge of images keeps the puzzle unique; a plain merge of
        # two cages (which breaks the symmetry) may
        minimal = symmetry is None or not any(
            cages.try_merge([([a, b], sorted(cages.cells[a] + cages.cells[b]))], keep=False)
            for a, b in cages.pairs()
        )
        puzzle = cages.puzzle(g)
        if rules:
            puzzle = replace(puzzle, constraints=(*puzzle.constraints, *rules))
        calls = s.calls
    return VariantGenerated.made(puzzle, grid, seed, minimal, calls, symmetry)


def generate_killers(
    count: int = 1,
    *,
    seed: SeedLike = None,
    geometry: Geometry | None = None,
    rules: Sequence[Constraint] = (),
    symmetry: Sequence[int] | None = None,
    **run: Unpack[TargetOptions],
) -> Iterator[VariantGenerated]:
    """``count`` killer puzzles with no givens, each unique and with no merge left that keeps it so.

    Args:
        count: how many puzzles.
        seed: the run's seed (puzzle ``i`` is ``make_killer(item_seed(seed, i))``;
            with a target, its attempt ``j`` ``attempt_seed(item_seed(seed, i), j)``).
        geometry: the shape (default 9x9).
        rules: constraints every grid keeps besides the cages (anti-knight ...),
            written into every puzzle.
        symmetry: a permutation of the cells (``symmetry[c]`` is the image of
            cell ``c``, row-major) that sends side-by-side cells to side-by-side
            cells (a rotation or reflection of the grid): the cage pattern
            keeps it, every cage's image is a cage (a cage may be its own).
            Merges then merge two cages and their images at once, and the
            passes end when no such merge keeps the puzzle unique
            (``minimal_in_symmetry``); ``minimal`` says whether no plain
            merge of two cages does either. None: no symmetry.
        run: the difficulty target, its budget and the worker processes
            (:class:`TargetOptions`).

    Raises:
        GenerationError: a bad count or symmetry, rules that allow no grid, or a bad target.
        GeometryError: a geometry that is not a :class:`Geometry`.
        BudgetExhaustedError: a budget ran out (after yielding what was found).
    """
    # a bad shape or symmetry is an error before any attempt is made
    _symmetry_group(symmetry, _shape(geometry).size)
    yield from _targeted(
        partial(make_killer, geometry=geometry, rules=tuple(rules), symmetry=symmetry),
        count,
        seed,
        run,
    )


# ---------------------------------------------------------------------- drawn constraints
def _edges(n: int) -> list[tuple[int, int]]:
    """The side-by-side pairs of cells of an ``n x n`` grid, row-major: each cell with
    the cell to its right, then with the cell below it."""
    out: list[tuple[int, int]] = []
    for k in range(n * n):
        r, c = divmod(k, n)
        if c + 1 < n:
            out.append((k, k + 1))
        if r + 1 < n:
            out.append((k, k + n))
    return out


def _step(a: Cell, b: Cell, x: int, y: int) -> Thermometer:
    """The two-cell thermometer on ``a`` (digit ``x``) and ``b`` (digit ``y``), low to high."""
    return Thermometer((a, b) if x < y else (b, a))


def _marks(kinds: Sequence[str], a: Cell, b: Cell, x: int, y: int) -> list[Constraint]:
    """The marks of ``kinds`` (dots, X or V) that the digits ``x`` in ``a`` and ``y`` in
    ``b`` allow between the two cells, in the order of :data:`DRAWN_KINDS`."""
    out: list[Constraint] = []
    if "difference" in kinds and abs(x - y) == 1:
        out.append(WhiteDot(a, b))
    if "ratio" in kinds and (x == 2 * y or y == 2 * x):
        out.append(BlackDot(a, b))
    if "xv" in kinds and x + y in (5, 10):
        out.append(XV(a, b, x + y))
    return out


def _drawn(kinds: Sequence[str], grid: NDArray[np.int8], n: int) -> list[Constraint]:
    """Every constraint of ``kinds`` on a side-by-side pair that the full ``grid`` keeps."""
    out: list[Constraint] = []
    for p, q in _edges(n):
        a, b, x, y = divmod(p, n), divmod(q, n), int(grid[p]), int(grid[q])
        if "thermometer" in kinds:
            out.append(_step(a, b, x, y))
        out += _marks(kinds, a, b, x, y)
    return out


def _drawn_orbits(
    kinds: Sequence[str],
    grid: NDArray[np.int8],
    n: int,
    group: Sequence[NDArray[np.intp]],
    rng: np.random.Generator,
) -> tuple[list[Constraint], list[list[int]]]:
    """The constraints drawn from ``grid`` in a pattern that keeps ``group``, and their
    orbits (indices into the list: the constraints that go in and out together).

    The side-by-side pairs fall into orbits under ``group``. With ``thermometer``
    asked for, each orbit of pairs gives one orbit of thermometer steps, each
    step low to high in the grid. With marks asked for (``difference``,
    ``ratio``, ``xv``), an orbit of pairs whose every pair allows a mark gives
    one orbit of marks, one mark a pair, of a kind its digits allow (drawn at
    random among them when they allow several); an orbit with a pair that
    allows none gives no marks.
    """
    drawn: list[Constraint] = []
    orbits: list[list[int]] = []
    seen: set[tuple[int, int]] = set()
    wants_marks = any(k != "thermometer" for k in kinds)
    for p, q in _edges(n):
        if (p, q) in seen:
            continue
        pairs = list(
            dict.fromkeys((min(int(s[p]), int(s[q])), max(int(s[p]), int(s[q]))) for s in group)
        )
        seen.update(pairs)
        cells = [(divmod(x, n), divmod(y, n), int(grid[x]), int(grid[y])) for x, y in pairs]
        if "thermometer" in kinds:
            orbits.append(list(range(len(drawn), len(drawn) + len(pairs))))
            drawn += [_step(*pair) for pair in cells]
        options = [_marks(kinds, *pair) for pair in cells] if wants_marks else []
        if options and all(options):
            orbits.append(list(range(len(drawn), len(drawn) + len(pairs))))
            drawn += [o[int(rng.integers(len(o)))] if len(o) > 1 else o[0] for o in options]
    return drawn, orbits


def _join_thermometers(constraints: list[Constraint]) -> list[Constraint]:
    """Chained thermometers joined into one line each (the same pairs, so the same rule)."""
    thermos = [c for c in constraints if isinstance(c, Thermometer)]
    rest = [c for c in constraints if not isinstance(c, Thermometer)]
    lines = [list(t.cells) for t in thermos]
    joined = True
    while joined:
        joined = False
        for i, j in itertools.permutations(range(len(lines)), 2):
            if lines[i][-1] == lines[j][0]:
                lines[i] = lines[i] + lines[j][1:]
                del lines[j]
                joined = True
                break
    return [*(Thermometer(tuple(line)) for line in lines), *rest]


def _check_kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    if isinstance(kinds, str):
        kinds = (kinds,)
    bad = [k for k in kinds if k not in DRAWN_KINDS]
    if bad or not kinds:
        raise GenerationError(
            f"kinds to draw: {', '.join(map(repr, bad)) or 'none given'}; "
            f"choose from {', '.join(DRAWN_KINDS)}"
        )
    return tuple(dict.fromkeys(kinds))


def make_drawn(
    seed: int,
    kinds: Sequence[str] = ("thermometer",),
    *,
    geometry: Geometry | None = None,
    symmetry: Sequence[int] | None = None,
) -> VariantGenerated:
    """One puzzle of constraints drawn from a random grid (see :func:`generate_drawn`)."""
    kinds = _check_kinds(kinds)
    g = _shape(geometry)
    group = _symmetry_group(symmetry, g.size)
    rng = as_generator(seed)
    with _Session(g) as s:
        grid = s.random_grid(rng)
        if grid is None:
            raise GenerationError(f"no {g.name} grid keeps the rules")
        s.block(grid)
        if symmetry is None:
            drawn = _drawn(kinds, grid, g.size)
            orbits = [[i] for i in range(len(drawn))]
        else:
            drawn, orbits = _drawn_orbits(kinds, grid, g.size, group, rng)
        sels = [s.switch(c) for c in drawn]
        givens: list[list[int]] = []  # orbits of cells
        # too few constraints: givens (with their images) where another solution
        # differs, until unique
        while s.other([*sels, *(s.given(c, int(grid[c])) for o in givens for c in o)]):
            differ = np.flatnonzero(s.grid() != grid)
            cell = int(differ[int(rng.integers(differ.size))])
            givens.append(list(dict.fromkeys(int(p[cell]) for p in group)))
        # then every orbit of drawn constraints and of givens, in a random order, goes
        # while unique (without a symmetry, each constraint and each given alone)
        items = [tuple(("c", i) for i in orbit) for orbit in orbits]
        items += [tuple(("g", c) for c in orbit) for orbit in givens]
        keep = {key for item in items for key in item}

        def unique(kept: set[tuple[str, int]]) -> bool:
            return not s.other(
                [sels[i] if what == "c" else s.given(i, int(grid[i])) for what, i in sorted(kept)]
            )

        for k in rng.permutation(len(items)).tolist():
            trial = keep - set(items[k])
            if unique(trial):
                keep = trial
        # removing constraints or givens only adds solutions: after the pass no orbit can
        # go; with a symmetry, a single constraint or given (which breaks it) may
        minimal = symmetry is None or not any(unique(keep - {key}) for key in sorted(keep))
        calls = s.calls
    kept = [drawn[i] for what, i in sorted(keep) if what == "c"]
    cells = np.zeros(g.ncells, dtype=np.int8)
    for what, i in keep:
        if what == "g":
            cells[i] = grid[i]
    puzzle = VariantPuzzle(Puzzle(cells, g), tuple(_join_thermometers(kept)))
    return VariantGenerated.made(puzzle, grid, seed, minimal, calls, symmetry)


def generate_drawn(
    count: int = 1,
    kinds: Sequence[str] = ("thermometer",),
    *,
    seed: SeedLike = None,
    geometry: Geometry | None = None,
    symmetry: Sequence[int] | None = None,
    **run: Unpack[TargetOptions],
) -> Iterator[VariantGenerated]:
    """``count`` puzzles whose constraints, drawn from a random grid, fix it (givens only if needed).

    Args:
        count: how many puzzles.
        kinds: what to draw, from :data:`DRAWN_KINDS`: ``thermometer`` (every
            side-by-side pair, low to high), ``difference`` (white dots where
            the digits are consecutive), ``ratio`` (black dots where one is
            twice the other), ``xv`` (where they sum to 10 or 5).
        seed: the run's seed (puzzle ``i`` is ``make_drawn(item_seed(seed, i), kinds)``;
            with a target, its attempt ``j`` ``attempt_seed(item_seed(seed, i), j)``).
        geometry: the shape (default 9x9).
        symmetry: a permutation of the cells (``symmetry[c]`` is the image of
            cell ``c``, row-major) that sends side-by-side cells to side-by-side
            cells: the pattern keeps it. The image of a thermometer step is a
            step (low to high in the grid, whichever way that runs), the image
            of a mark (a dot, an X or a V) is a mark of a kind its digits allow
            (an orbit of pairs where one pair allows none has no marks), and
            the image of a given is a given. Orbits go in and out together
            (``minimal_in_symmetry``); ``minimal`` says whether no single step,
            mark or given can go either. None: no symmetry, every constraint
            the grid allows is drawn.
        run: the difficulty target, its budget and the worker processes
            (:class:`TargetOptions`).

    Raises:
        GenerationError: an unknown kind, a bad symmetry, a bad count, or a bad target.
        GeometryError: a geometry that is not a :class:`Geometry`.
        BudgetExhaustedError: a budget ran out (after yielding what was found).
    """
    kinds = _check_kinds(kinds)
    # a bad shape or symmetry is an error before any attempt is made
    _symmetry_group(symmetry, _shape(geometry).size)
    yield from _targeted(
        partial(make_drawn, kinds=kinds, geometry=geometry, symmetry=symmetry), count, seed, run
    )


# ---------------------------------------------------------------------- removable constraints
def removable_constraints(puzzle: VariantPuzzle) -> list[Removable]:
    """The constraints of a unique ``puzzle`` that can go, each alone, with it still unique.

    A killer cage whose whole cage cannot go but whose sum can is listed with
    ``keep`` the cage without its sum. Taking two listed constraints away
    together may leave several solutions.

    Raises:
        NotUniqueError: ``puzzle`` has no solution or several.
    """
    g = puzzle.geometry
    with _Session(g) as s:
        sels = [s.switch(c) for c in puzzle.constraints]
        cells = puzzle.puzzle.cells
        givens = [s.given(int(c), int(cells[c])) for c in np.flatnonzero(cells)]
        if not s.other([*givens, *sels]):
            raise NotUniqueError("the puzzle has no solution")
        grid = s.grid()
        s.block(grid)
        if s.other([*givens, *sels]):
            raise NotUniqueError("the puzzle has several solutions")
        out: list[Removable] = []
        for i, c in enumerate(puzzle.constraints):
            others = [*givens, *sels[:i], *sels[i + 1 :]]
            if not s.other(others):
                out.append(Removable(i, c, None))
            elif isinstance(c, KillerCage) and c.total is not None:
                bare = KillerCage(c.cells)
                if not s.other([*others, s.switch(bare)]):
                    out.append(Removable(i, c, bare))
    return out
