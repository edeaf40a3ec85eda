"""Models of a Sudoku geometry: the exact-cover matrix, CNF and CP-SAT.

Each encoding is a pure function of a :class:`~csp_sudoku.core.geometry.Geometry`,
built once per geometry and cached. Candidates are numbered
``cell * N + (digit - 1)`` everywhere in the library.
"""

from csp_sudoku.encodings.exact_cover import ExactCover, exact_cover

__all__ = ["ExactCover", "exact_cover"]
