"""The propagation-based model of a human solver (docs/human_model.md).

* :class:`~csp_sudoku.human.state.CandidateState`: the pencil-mark grid every
  technique reads and changes; singles and contradictions;
* :mod:`~csp_sudoku.human.subsets`: the constraint subset rule (Hunt, Pong,
  Tucker), which covers pointing, claiming, naked/hidden subsets and fish;
* :mod:`~csp_sudoku.human.refutation`: refutation scores (Pelanek);
* :mod:`~csp_sudoku.human.path`: solve paths, step by step;
* :mod:`~csp_sudoku.human.se_order`: Sudoku Explainer's solving order
  replayed (the ``se`` metric);
* :mod:`~csp_sudoku.human.strategies`: hsolve's named strategies.

Importing this package does not load numba; the kernels load on first use.
"""

from csp_sudoku.human.path import SolvePath, Step, solve_path
from csp_sudoku.human.refutation import cell_refutation_score, refutation_scores, refute
from csp_sudoku.human.state import CandidateState, Single
from csp_sudoku.human.subsets import SubsetApplication, find_subsets, find_subsets_upto

__all__ = [
    "CandidateState",
    "Single",
    "SolvePath",
    "Step",
    "SubsetApplication",
    "cell_refutation_score",
    "find_subsets",
    "find_subsets_upto",
    "refutation_scores",
    "refute",
    "solve_path",
]
