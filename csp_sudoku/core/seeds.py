"""Seeds: the one convention of every randomised function in csp_sudoku.

A function that draws random numbers takes ``seed: SeedLike``:

* ``None``: fresh entropy from the operating system (not reproducible; the
  functions that report a seed draw it with :func:`fresh_seed` and record it);
* a non-negative ``int``: reproducible, the same output for the same seed;
* a :class:`numpy.random.Generator`: used as it is (draws advance it);
* a :class:`numpy.random.SeedSequence`: a generator is made from it.

A negative integer, a ``bool`` or anything else is a :class:`SeedError`
(a :class:`ValueError` too) with a message that names the value.

Derived seeds (the attempts of a generator stream, the puzzles of a batch) are
integers, so that the seed printed beside a result reproduces it alone:

* :func:`derive` ``(seed, *keys)``: ``SeedSequence(seed, spawn_key=keys)``, the
  first 64-bit word of its state, reduced to 63 bits; the one derivation.
  Item ``i`` of a run (a generator's puzzle, a rated batch's puzzle) is
  ``derive(seed, ITEM_KEY, i)`` and attempt ``j`` of an item is
  ``derive(item, j - 1)``; index 0 is the seed itself (:func:`item_seed`,
  :func:`attempt_seed`).

Compiled kernels draw from one generator family too: splitmix64
(:mod:`csp_sudoku._kernels.rng`), each state seeded from a Generator by
:func:`kernel_seeds`. No code uses numpy's or numba's global random state.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.core.errors import SeedError
from csp_sudoku.core.numbers import is_whole

__all__ = [
    "ITEM_KEY",
    "SeedError",
    "SeedLike",
    "as_generator",
    "as_seed",
    "attempt_seed",
    "check_seed",
    "derive",
    "fresh_seed",
    "item_seed",
    "kernel_seeds",
]

#: What a ``seed`` argument accepts (see the module doc).
SeedLike = int | np.integer | np.random.Generator | np.random.SeedSequence | None

_MASK63 = (1 << 63) - 1

#: A spawn-key word that sets the items of a run apart from the attempts of an item.
ITEM_KEY = 0x5EED5


def check_seed(seed: object) -> int:
    """``seed`` as a Python ``int`` when it is a non-negative integer, else :class:`SeedError`."""
    if not is_whole(seed):
        raise SeedError(
            f"seed must be a non-negative integer, a numpy Generator, a SeedSequence "
            f"or None, got {seed!r}"
        )
    if seed < 0:
        raise SeedError(f"seed must be a non-negative integer, got {int(seed)}")
    return int(seed)


def as_generator(seed: SeedLike) -> np.random.Generator:
    """A numpy Generator: ``seed`` itself when it is one, else ``default_rng(seed)``."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    return np.random.default_rng(check_seed(seed))


def fresh_seed() -> int:
    """A new random 63-bit seed from the operating system's entropy."""
    return int(np.random.SeedSequence().generate_state(2, np.uint64)[0]) & _MASK63


def as_seed(seed: SeedLike) -> int:
    """An integer seed: ``seed`` itself, one drawn from a Generator or SeedSequence, or fresh."""
    if seed is None:
        return fresh_seed()
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, _MASK63, dtype=np.int64))
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(2, np.uint64)[0]) & _MASK63
    return check_seed(seed)


def derive(seed: int, *keys: int) -> int:
    """A child seed of ``seed`` named by ``keys``: ``SeedSequence(seed, spawn_key=keys)``.

    Independent of every other key tuple; 63 bits, so it fits an ``int64``.
    """
    child = np.random.SeedSequence(check_seed(seed), spawn_key=tuple(int(k) for k in keys))
    return int(child.generate_state(2, np.uint64)[0]) & _MASK63


def attempt_seed(seed: int, index: int) -> int:
    """The seed of attempt ``index`` of a stream seeded with ``seed``.

    Attempt 0 is ``seed`` itself (so the seed reported with a puzzle regenerates
    it); attempt ``j > 0`` is ``derive(seed, j - 1)`` (``SeedSequence.spawn`` order).
    """
    return check_seed(seed) if index == 0 else derive(seed, index - 1)


def item_seed(seed: int, index: int) -> int:
    """The seed of item ``index`` of a run seeded with ``seed``.

    An item is a puzzle of a generator run (its stream of attempts) or of a
    rated batch (``rate_many``, ``csp-sudoku rate``). Item 0 is ``seed``
    itself, so ``generate(1, seed=s)`` starts with ``s`` and the first puzzle
    of a batch rated with ``s`` gets the rating of ``rate(puzzle, seed=s)``.
    The other items come from a spawn key of their own (:data:`ITEM_KEY`), so
    no item's seed is ever an attempt seed of another item: attempt ``j`` of
    item 0 is ``attempt_seed(seed, j)``, which item ``j`` never starts with.
    (With one derivation for both, puzzle 0's second attempt repeated puzzle
    1's first, and a run could print the same puzzle twice.)
    """
    return check_seed(seed) if index == 0 else derive(seed, ITEM_KEY, index)


def kernel_seeds(rng: np.random.Generator, count: int) -> NDArray[np.uint64]:
    """``count`` seeds for the compiled generator (:mod:`csp_sudoku._kernels.rng`), drawn from ``rng``.

    Each is a state word of splitmix64, the one generator family of compiled
    code; a kernel that needs one state takes ``kernel_seeds(rng, 1)`` as its
    state array.
    """
    return rng.integers(0, 2**63 - 1, size=count, dtype=np.int64).astype(np.uint64)
