"""Seeds for the generators: one convention for every randomised function.

Every generator takes ``seed``: an ``int``, a :class:`numpy.random.Generator`,
or None (fresh entropy from the operating system). Streams of attempts derive
their seeds with :class:`numpy.random.SeedSequence` spawning, so a reported
integer seed reproduces exactly the puzzle it came with.
"""

from __future__ import annotations

import numpy as np

SeedLike = int | np.random.Generator | None

_MASK63 = (1 << 63) - 1


def as_generator(seed: SeedLike) -> np.random.Generator:
    """A numpy Generator from an int, a Generator (returned as is) or None (fresh entropy)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def fresh_seed() -> int:
    """A new random 63-bit seed from the operating system's entropy."""
    return int(np.random.SeedSequence().generate_state(2, np.uint64)[0]) & _MASK63


def as_seed(seed: SeedLike) -> int:
    """An integer seed: ``seed`` itself, one drawn from a Generator, or a fresh one."""
    if seed is None:
        return fresh_seed()
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, _MASK63, dtype=np.int64))
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed)


def derive(seed: int, index: int) -> int:
    """The ``index``-th child seed of ``seed`` (``SeedSequence(seed).spawn`` order).

    ``derive(s, 0)`` is ``s`` itself, so that stream 0 of a seed starts with
    that very seed: the seed reported with a puzzle regenerates it.
    """
    if index == 0:
        return seed
    child = np.random.SeedSequence(seed, spawn_key=(index - 1,))
    return int(child.generate_state(2, np.uint64)[0]) & _MASK63


#: A spawn-key word that sets puzzle streams apart from the attempts of a stream.
_STREAM_KEY = 0x5EED5


def stream_seed(seed: int, index: int) -> int:
    """The seed of puzzle ``index``'s stream of attempts in a run seeded with ``seed``.

    Stream 0 is ``seed`` itself (so ``generate(1, seed=s)`` starts with ``s``).
    The other streams come from a spawn key of their own, so no stream's seed is
    ever an attempt seed of another stream: attempt ``j`` of stream 0 is
    ``derive(seed, j)``, which stream ``j`` never starts with. (With one
    derivation for both, puzzle 0's second attempt repeated puzzle 1's first,
    and a run could print the same puzzle twice.)
    """
    if index == 0:
        return seed
    child = np.random.SeedSequence(seed, spawn_key=(_STREAM_KEY, index))
    return int(child.generate_state(2, np.uint64)[0]) & _MASK63


def numba_seed(rng: np.random.Generator) -> int:
    """A seed for numba's internal generator, drawn from ``rng``."""
    return int(rng.integers(0, 2**31 - 1))
