"""The tests' cases of random variant puzzles, made by :mod:`csp_sudoku.variants.random`.

:func:`make_cases` builds, for each kind asked for, a unique puzzle around
that kind (with two other kinds that are not global) and from it one with
several solutions (givens removed) and a broken one (a constraint or given
that the grid breaks), each as ``(label, f-puzzles object)``. The tests
check every solution of these puzzles with :mod:`tests.independent_variants`,
which shares no code with the package (the maker included). Used by
``test_variants.py``, the variant CLI tests and the f-puzzles round trip.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from csp_sudoku.constraints import KINDS
from csp_sudoku.variants.random import (
    GLOBAL_KINDS,
    N,
    broken_from,
    multiple_from,
    unique_variant,
)

__all__ = ["PRIMARY", "N", "make_cases"]

#: The kinds a maker puzzle is built around, each at least once.
PRIMARY = [k for k in KINDS if not k.startswith("-")]


def make_cases(
    seed: int, rounds: int = 1, kinds: Sequence[str] = tuple(PRIMARY)
) -> list[tuple[str, dict[str, Any]]]:
    """``(label, f-puzzles object)``: per kind of ``kinds`` and round, ``KIND:unique``,
    ``KIND:multiple`` and ``KIND:broken``.

    The other kinds of each puzzle are drawn from :data:`PRIMARY`. The cases of
    one call are made once per process (several test modules ask for the same
    seed at collection); each call gets its own copy, free to change.
    """
    return copy.deepcopy(_made(seed, rounds, tuple(kinds)))


@functools.cache
def _made(seed: int, rounds: int, kinds: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
    """:func:`make_cases`' cases, made once per arguments."""
    rng = np.random.default_rng(seed)
    out: list[tuple[str, dict[str, Any]]] = []
    for _ in range(rounds):
        for kind in kinds:
            others = [k for k in PRIMARY if k != kind and k not in GLOBAL_KINDS]
            extra = [others[int(i)] for i in rng.permutation(len(others))[:2]]
            data, grid, _ = unique_variant(rng, (kind, *extra))
            out.append((f"{kind}:unique", data))
            out.append((f"{kind}:multiple", multiple_from(data, grid, rng)))
            out.append((f"{kind}:broken", broken_from(data, grid, rng)))
    return out
