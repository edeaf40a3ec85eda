"""The propagation-based model of a human solver.

:class:`~csp_sudoku.human.state.CandidateState` is the pencil-mark grid every
technique reads and changes.
"""

from csp_sudoku.human.state import CandidateState

__all__ = ["CandidateState"]
