"""Symmetric clue patterns: the cell orbits that are kept or removed together.

Puzzle makers like clue patterns that look the same after a rotation or a
reflection. A symmetry here is a permutation of the cells of an ``N x N``
grid; its **orbits** (cells mapped onto each other) are removed together by
:mod:`csp_sudoku.generators.minimal`, so the clue pattern keeps the symmetry.
A puzzle reduced that way is minimal *among puzzles with that symmetric
pattern*: no orbit can be removed, but removing a single clue of an orbit
might still leave a unique (asymmetric) puzzle.

Names (as on the command line):

===============  ===============================================
``none``         every cell on its own
``rot180``       180-degree rotation (the classic newspaper pattern)
``rot90``        90-degree rotation (orbits of up to four cells)
``mirror``       left-right reflection (column c <-> N-1-c)
``flip``         top-bottom reflection (row r <-> N-1-r)
``diagonal``     reflection in the main diagonal (r, c) <-> (c, r)
``antidiagonal`` reflection in the anti-diagonal (r, c) <-> (N-1-c, N-1-r)
===============  ===============================================
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import SymmetryError as SymmetryError

__all__ = ["SYMMETRIES", "is_symmetric", "orbit_index", "orbits", "permutation", "symmetric_mask"]

#: The symmetry names, in the order the CLI lists them.
SYMMETRIES: tuple[str, ...] = (
    "none",
    "rot180",
    "rot90",
    "mirror",
    "flip",
    "diagonal",
    "antidiagonal",
)


def permutation(size: int, name: str) -> NDArray[np.intp]:
    """The cell permutation generating the symmetry ``name`` (cell i goes to perm[i])."""
    n = size
    r, c = np.divmod(np.arange(n * n), n)
    if name == "none":
        rr, cc = r, c
    elif name == "rot180":
        rr, cc = n - 1 - r, n - 1 - c
    elif name == "rot90":
        rr, cc = c, n - 1 - r
    elif name == "mirror":
        rr, cc = r, n - 1 - c
    elif name == "flip":
        rr, cc = n - 1 - r, c
    elif name == "diagonal":
        rr, cc = c, r
    elif name == "antidiagonal":
        rr, cc = n - 1 - c, n - 1 - r
    else:
        raise SymmetryError(f"unknown symmetry {name!r}; choose one of {', '.join(SYMMETRIES)}")
    out: NDArray[np.intp] = (rr * n + cc).astype(np.intp)
    return out


def check_name(name: str) -> str:
    """Return ``name`` normalised (lower case), or raise :class:`SymmetryError`."""
    if not isinstance(name, str):
        raise SymmetryError(
            f"symmetry must be a name, one of {', '.join(SYMMETRIES)}; got {name!r:.40}"
        )
    key = name.strip().lower()
    if key not in SYMMETRIES:
        raise SymmetryError(f"unknown symmetry {name!r}; choose one of {', '.join(SYMMETRIES)}")
    return key


@cache
def orbits(size: int, name: str = "none") -> tuple[NDArray[np.intp], ...]:
    """The orbits of the symmetry ``name`` on an ``size x size`` grid.

    Each orbit is a sorted array of cell indices (one to four cells); orbits
    partition the grid and are listed by their smallest cell.

    Raises:
        SymmetryError: for an unknown name.
    """
    perm = permutation(size, check_name(name))
    seen = np.zeros(size * size, dtype=bool)
    out: list[NDArray[np.intp]] = []
    for start in range(size * size):
        if seen[start]:
            continue
        cyc = [start]
        nxt = int(perm[start])
        while nxt != start:
            cyc.append(nxt)
            nxt = int(perm[nxt])
        arr = np.asarray(sorted(cyc), dtype=np.intp)
        arr.setflags(write=False)
        seen[arr] = True
        out.append(arr)
    return tuple(out)


@cache
def orbit_index(size: int, name: str = "none") -> NDArray[np.intp]:
    """For every cell, the index of its orbit in :func:`orbits`."""
    idx = np.empty(size * size, dtype=np.intp)
    for k, orb in enumerate(orbits(size, name)):
        idx[orb] = k
    idx.setflags(write=False)
    return idx


def is_symmetric(cells: NDArray[np.integer], size: int, name: str) -> bool:
    """True when the clue *pattern* (filled or not) of ``cells`` has the symmetry ``name``."""
    filled = np.asarray(cells).reshape(-1) != 0
    perm = permutation(size, check_name(name))
    return bool(np.array_equal(filled, filled[perm]))


def symmetric_mask(mask: NDArray[np.bool_], size: int, name: str) -> NDArray[np.bool_]:
    """The largest symmetric pattern inside ``mask``: orbits wholly inside it."""
    m = np.asarray(mask, dtype=bool).reshape(-1)
    out = np.zeros_like(m)
    for orb in orbits(size, check_name(name)):
        if m[orb].all():
            out[orb] = True
    return out
