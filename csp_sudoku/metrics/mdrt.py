"""MDRT, the most difficult required technique, and the rounds metric's rating.

Hunt, Pong, Tucker, *Difficulty-Driven Sudoku Puzzle Generation* (UMAP 2008),
section "DDG with the Most Difficult Required Technique": whatever easy moves a
player makes, they must be able to perform the hardest technique the puzzle
requires. With the human model of :mod:`csp_sudoku.human.path` (singles first,
then the constraint subset rule of the smallest size n that applies), the
largest n on the path is the smallest subset size that solves the puzzle: the
rule only removes candidates, so using a small subset never blocks a later
move, and the path always takes the smallest size available.

The MDRT ladder (score = rank): 0 singles, 1..4 the constraint subset rule of
size 1..4 (size 1 is pointing/claiming; 2 pairs and X-Wing; 3 triples and
Swordfish; 4 quads and Jellyfish), 5 beyond (subsets up to size 4 get stuck).
The rounds metric (Hunt, Pong, Tucker, section "Rounds") comes from
:mod:`csp_sudoku.metrics.rounds`.
"""

from __future__ import annotations

from typing import Any

from csp_sudoku.core.puzzle import Puzzle

#: MDRT level names, from easiest to hardest.
MDRT_LEVELS: tuple[str, ...] = (
    "singles",
    "subsets of size 1",
    "subsets of size 2",
    "subsets of size 3",
    "subsets of size 4",
    "beyond size-4 subsets",
)

_Result = tuple[float, str, int, dict[str, Any], dict[str, Any]]


def mdrt(puzzle: Puzzle, max_subset: int = 4) -> tuple[int, dict[str, Any]]:
    """The MDRT rank of ``puzzle`` (0 singles ... ``max_subset + 1`` beyond) and details."""
    from csp_sudoku.human.path import solve_path

    path = solve_path(puzzle, ("singles", "subsets"), max_subset=max_subset)
    size = path.max_subset_size
    rank = size if path.solved else max_subset + 1
    names = sorted({s.technique for s in path.steps if s.kind == "subset" and s.size == size})
    details: dict[str, Any] = {
        "solved": path.solved,
        "max_subset_size": size,
        "hardest_techniques": names,
        "steps": len(path.steps),
        "technique_counts": path.technique_counts(),
    }
    return rank, details


def mdrt_rating(puzzle: Puzzle) -> _Result:
    """``(score, level, rank, details, parameters)`` of the MDRT metric."""
    rank, details = mdrt(puzzle)
    return float(rank), MDRT_LEVELS[rank], rank, details, {"max_subset": 4}


def rounds_rating(puzzle: Puzzle) -> _Result:
    """``(score, level, rank, details, parameters)`` of the rounds metric.

    The score orders puzzles by level first and rounds within a level
    (``1000 * level_rank + rounds``), as the paper ranks them: "within each
    category, the number of rounds can be used to rank puzzles".
    """
    from csp_sudoku.metrics.rounds import rounds

    res = rounds(puzzle)
    rank = res.level_rank
    details = res.to_dict()
    return 1000.0 * rank + float(res.rounds), res.level, rank, details, {}
