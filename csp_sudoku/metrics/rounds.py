"""The rounds metric (Hunt, Pong, Tucker, *Difficulty-Driven Sudoku Puzzle
Generation*, sections "Building the Metrics" and "Difficulty Levels").

A **round** is either *every* single (naked or hidden) visible in the current
position, placed together, or *exactly one* application of the constraint
subset rule (:mod:`csp_sudoku.human.subsets`) of the smallest size that has one.
The model plays rounds until the puzzle is solved or nothing applies, and the
puzzle gets a level from the largest subset size it needed:

* **Easy**: solved with singles only;
* **Medium**: solved with subsets of size 1 (pointing, claiming, ...) and singles;
* **Hard**: solved with subsets of size 2 and easier;
* **Fiendish**: not solvable with subsets of size 2 or easier.

Within a level the number of rounds ranks puzzles. Subsets beyond size 2 are
still played (up to ``max_size``) so that Fiendish puzzles get round counts
and a largest size too.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from csp_sudoku.api import PuzzleLike, as_puzzle
from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.human._tables import tables
from csp_sudoku.human.state import CandidateState
from csp_sudoku.human.subsets import apply_subset, find_subsets

#: The levels, easiest first.
LEVELS: tuple[str, ...] = ("Easy", "Medium", "Hard", "Fiendish")


@dataclass(frozen=True)
class RoundsResult:
    """The rounds metric of one puzzle.

    Attributes:
        rounds: the number of rounds played.
        level: ``Easy``, ``Medium``, ``Hard`` or ``Fiendish``.
        level_rank: the level's index in :data:`LEVELS` (0..3).
        solved: True when the rounds filled every cell.
        max_subset_size: the largest subset size used (0: singles only).
        singles_rounds: rounds that placed singles.
        subset_rounds: rounds per subset size, ``{n: count}`` (sizes used only).
        technique_counts: subset rounds per classic name (``subset`` when unnamed).
        placements: cells filled by the rounds.
    """

    rounds: int
    level: str
    level_rank: int
    solved: bool
    max_subset_size: int
    singles_rounds: int
    subset_rounds: dict[int, int] = field(default_factory=dict)
    technique_counts: dict[str, int] = field(default_factory=dict)
    placements: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The fields, in their order, as a plain dict with copies of the dicts
        (subset sizes as keys stay ints)."""
        return asdict(self)


def level_of(solved: bool, max_subset_size: int) -> str:
    """The level for a run that did (or did not) solve with subsets up to a size."""
    if not solved or max_subset_size > 2:
        return "Fiendish"
    return LEVELS[max_subset_size]


def rounds(puzzle: PuzzleLike, max_size: int = 4) -> RoundsResult:
    """Play the rounds of Hunt, Pong and Tucker's human model on ``puzzle``.

    Args:
        puzzle: the puzzle, in any supported form.
        max_size: the largest subset size the model tries (at least 2 so the
            levels are meaningful; larger sizes only refine Fiendish puzzles).

    Returns:
        A :class:`RoundsResult`.

    Raises:
        ArgumentError: when ``max_size < 2``.
        ParseError: when the puzzle cannot be read.
    """
    from csp_sudoku._kernels.human import singles_rounds
    from csp_sudoku._kernels.status import RunStatus

    if max_size < 2:
        raise ArgumentError(f"max_size must be at least 2, got {max_size}")
    p = as_puzzle(puzzle)
    state = CandidateState.from_puzzle(p)
    t = tables(p.geometry)
    start_filled = int(np.count_nonzero(state.values))
    total = 0
    n_singles = 0
    by_size: dict[int, int] = {}
    by_name: dict[str, int] = {}
    status = RunStatus.STUCK
    while True:
        r, code = singles_rounds(state.masks, state.values, t.peers, t.npeers, t.units)
        status = RunStatus(int(code))
        total += int(r)
        n_singles += int(r)
        if status is not RunStatus.STUCK:
            break  # solved, or a contradiction
        app = None
        for n in range(1, max_size + 1):
            found = find_subsets(state, n, first=True)
            if found:
                app = found[0]
                break
        if app is None:
            break
        apply_subset(state, app)
        total += 1
        by_size[app.size] = by_size.get(app.size, 0) + 1
        name = app.name or "subset"
        by_name[name] = by_name.get(name, 0) + 1
    solved = status is RunStatus.SOLVED
    biggest = max(by_size, default=0)
    level = level_of(solved, biggest)
    return RoundsResult(
        rounds=total,
        level=level,
        level_rank=LEVELS.index(level),
        solved=solved,
        max_subset_size=biggest,
        singles_rounds=n_singles,
        subset_rounds=dict(sorted(by_size.items())),
        technique_counts=by_name,
        placements=int(np.count_nonzero(state.values)) - start_filled,
    )
