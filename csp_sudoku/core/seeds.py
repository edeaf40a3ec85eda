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
  first 64-bit word of its state, reduced to 63 bits; used by the generators
  (``attempt j`` of a stream is ``derive(stream, j - 1)``, stream ``i`` of a
  run is ``derive(seed, STREAM_KEY, i)``; index 0 is the seed itself, see
  :func:`attempt_seed` and :func:`stream_seed`);
* :func:`item_seed` ``(seed, index)``: the seed of item ``index`` of a rated
  batch (``rate_many``, ``csp-sudoku rate``): ``SeedSequence([seed, index])``,
  its first word shifted to 63 bits. It predates :func:`derive` and is kept so
  that recorded ratings stay reproducible.
"""

from __future__ import annotations

import numpy as np

from csp_sudoku.core.errors import SeedError

__all__ = [
    "STREAM_KEY",
    "SeedError",
    "SeedLike",
    "as_generator",
    "as_seed",
    "attempt_seed",
    "check_seed",
    "derive",
    "fresh_seed",
    "item_seed",
    "numba_seed",
    "stream_seed",
]

#: What a ``seed`` argument accepts (see the module doc).
SeedLike = int | np.integer | np.random.Generator | np.random.SeedSequence | None

_MASK63 = (1 << 63) - 1

#: A spawn-key word that sets puzzle streams apart from the attempts of a stream.
STREAM_KEY = 0x5EED5


def check_seed(seed: object) -> int:
    """``seed`` as a Python ``int`` when it is a non-negative integer, else :class:`SeedError`."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
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


def stream_seed(seed: int, index: int) -> int:
    """The seed of puzzle ``index``'s stream of attempts in a run seeded with ``seed``.

    Stream 0 is ``seed`` itself (so ``generate(1, seed=s)`` starts with ``s``).
    The other streams come from a spawn key of their own (:data:`STREAM_KEY`),
    so no stream's seed is ever an attempt seed of another stream: attempt
    ``j`` of stream 0 is ``attempt_seed(seed, j)``, which stream ``j`` never
    starts with. (With one derivation for both, puzzle 0's second attempt
    repeated puzzle 1's first, and a run could print the same puzzle twice.)
    """
    return check_seed(seed) if index == 0 else derive(seed, STREAM_KEY, index)


def item_seed(seed: int, index: int) -> int:
    """The seed of item ``index`` of a batch rated with ``seed`` (non-negative 63-bit)."""
    state = np.random.SeedSequence([check_seed(seed), index]).generate_state(1, np.uint64)
    return int(state[0] >> np.uint64(1))


def numba_seed(rng: np.random.Generator) -> int:
    """A seed for numba's internal generator (compiled kernels), drawn from ``rng``."""
    return int(rng.integers(0, 2**31 - 1))
