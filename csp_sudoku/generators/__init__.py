"""Puzzle generators: full grids, minimal puzzles, symmetry, the papers' generators.

=====================  =============================================================
module                 what (paper)
=====================  =============================================================
``grids``              random full grids for any geometry, seeded
``minimal``            RG2 top-down removal to a minimal puzzle (Hunt, Pong, Tucker;
                       also the oracle paper's design); symmetry, clue limit, mask
``symmetry``           the seven clue-pattern symmetries and their orbits
``rg1``                RG1 bottom-up generation (Hunt, Pong, Tucker)
``hsolve_gen``         hsolve's standard and pseudo-generators (Chang, Fan, Sun 4.1-4.2)
``ddg``                Difficulty-Driven Generation (Hunt, Pong, Tucker)
``oracle_gen``         the oracle paper's generator (Fletcher, Johnson, Morrison)
``target``             :func:`generate`: puzzles at a target level / score, streamed
``anneal``             the hard-end search: simulated annealing and vicinity search
                       over unique minimal puzzles, from scratch
``search``             the hard-end search's settings (:class:`SearchSettings`), the
                       parts its strategies share, a template strategy
``registry``           the base generators and search strategies, by method name
=====================  =============================================================

Example::

    from csp_sudoku.generators import generate, minimal_puzzle
    p = minimal_puzzle(seed=1, symmetry="rot180")
    for g in generate(3, level="hard", metric="rounds", seed=7):
        print(g.puzzle, g.ratings["rounds"].level, g.seed)
"""

from csp_sudoku.core.errors import BudgetExhaustedError, GenerationError
from csp_sudoku.generators.grids import random_grid, random_grids, random_transform
from csp_sudoku.generators.minimal import (
    RemovalStats,
    minimal_puzzle,
    minimal_puzzles,
    minimize,
    neighbour,
    reduce_clues,
)
from csp_sudoku.generators.search.settings import SearchSettings
from csp_sudoku.generators.symmetry import SYMMETRIES, SymmetryError, is_symmetric, orbits
from csp_sudoku.generators.target import (
    METHODS,
    Generated,
    Target,
    generate,
    generate_quotas,
    make_one,
)

__all__ = [
    "METHODS",
    "SYMMETRIES",
    "BudgetExhaustedError",
    "Generated",
    "GenerationError",
    "RemovalStats",
    "SearchSettings",
    "SymmetryError",
    "Target",
    "generate",
    "generate_quotas",
    "is_symmetric",
    "make_one",
    "minimal_puzzle",
    "minimal_puzzles",
    "minimize",
    "neighbour",
    "orbits",
    "random_grid",
    "random_grids",
    "random_transform",
    "reduce_clues",
]
