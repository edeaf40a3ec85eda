"""The one random generator of compiled code: splitmix64 (numba).

Every kernel that draws random numbers (hsolve's and the oracle's random
choices, SiSuS's order, the generators' grid fill) uses these two functions
on a *state*: a one-element ``uint64`` array that the kernel advances in
place. A state's seed is drawn by the caller from a
``numpy.random.Generator`` with :func:`csp_sudoku.core.seeds.kernel_seeds`,
so a run is reproducible under a seed and no global random state (numba's
``np.random``) is touched.

splitmix64 (Steele, Lea, Flood, *Fast splittable pseudorandom number
generators*, OOPSLA 2014) is small, fast, passes BigCrush, and a state of one
word is cheap to carry through a kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from csp_sudoku._kernels import init_numba_target

init_numba_target()  # numba's CPU target without its BLAS probe (see there)

#: An integer argument of a kernel: callers pass ``np.int64`` so each compiles once.
Int = int | np.int64


@njit(cache=True)
def rng_next(st: NDArray[np.uint64]) -> np.uint64:  # pragma: no cover - compiled
    """splitmix64: advance the state and return 64 random bits."""
    st[0] = st[0] + np.uint64(0x9E3779B97F4A7C15)
    z = st[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: np.uint64 = z ^ (z >> np.uint64(31))
    return out


@njit(cache=True)
def rng_below(st: NDArray[np.uint64], n: Int) -> np.int64:  # pragma: no cover - compiled
    """A random integer in ``0 .. n-1`` (``n > 0``)."""
    return np.int64(rng_next(st) % np.uint64(n))  # int64: uint64 mixed with int64 is float64
