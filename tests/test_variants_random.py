"""The maker of random variant puzzles (:mod:`csp_sudoku.variants.random`).

What it says of a puzzle is checked against the rules by
:func:`tests.independent_variants.broken_rules` (which shares no code with
the package): its grid keeps a ``unique`` or ``multiple`` puzzle and breaks
a ``broken`` one. The counts come from every backend.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_sudoku import variants
from csp_sudoku.core.errors import ArgumentError, SeedError
from csp_sudoku.variants.random import (
    DRAWN,
    GLOBAL_KINDS,
    MADE,
    Made,
    RandomVariant,
    random_full_grid,
    random_variant,
    random_variants,
)
from tests.independent_variants import broken_rules

BATCH = list(random_variants(len(DRAWN), seed=11))


def test_a_batch_builds_around_every_kind_in_turn_and_makes_each_way() -> None:
    assert [v.kinds[0] for v in BATCH] == list(DRAWN)
    assert [v.made for v in BATCH] == [MADE[i % 3] for i in range(len(DRAWN))]
    for v in BATCH:  # a multiple one may have lost constraints, its first kind too
        assert v.made == "multiple" or v.kinds[0] in v.puzzle.kinds(), v.kinds


def as_labelled(v: RandomVariant, backend: str = "sat") -> bool:
    """Whether ``v`` is what its ``made`` says, by the backend's count and the independent checker."""
    n = variants.count(v.puzzle, 2, backend=backend)
    kept = broken_rules(v.data, v.grid) == []
    return {"unique": n == 1 and kept, "multiple": n == 2 and kept, "broken": not kept}[v.made]


@pytest.mark.parametrize("v", BATCH, ids=[f"{v.kinds[0]}:{v.made}" for v in BATCH])
def test_what_the_maker_says_is_true(v: RandomVariant) -> None:
    assert all(as_labelled(v, backend) for backend in variants.BACKENDS)


def test_the_same_seed_makes_the_same_puzzle_again() -> None:
    for v in BATCH[:6]:
        again = random_variant(v.seed, v.kinds, made=v.made)
        assert again.data == v.data and again.grid == v.grid
    assert random_variant(5).data != random_variant(6).data


def test_random_kinds_when_none_are_asked() -> None:
    v = random_variant(8, extra=1)
    assert len(v.kinds) == 2 and set(v.kinds) <= set(DRAWN)
    assert variants.count(v.puzzle, 2) == 1


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ArgumentError, match="quadruple"):
        random_variant(1, ("quadruple",))
    with pytest.raises(ArgumentError, match="made"):
        random_variant(1, ("killercage",), made="none")  # type: ignore[arg-type]
    with pytest.raises(SeedError):
        random_variant(-1)


@pytest.mark.parametrize("rule", GLOBAL_KINDS)
def test_full_grids_keep_their_global_rules(rule: str) -> None:
    grid = random_full_grid(np.random.default_rng(3), [rule])
    empty: list[list[dict[str, int]]] = [[{} for _ in range(9)] for _ in range(9)]
    assert broken_rules({"size": 9, "grid": empty, rule: True}, grid) == []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), kind=st.sampled_from(DRAWN), made=st.sampled_from(MADE))
def test_any_seed_and_kind_give_a_puzzle_as_labelled(seed: int, kind: str, made: Made) -> None:
    v = random_variant(seed, (kind,), made=made)
    assert as_labelled(v)
    assert set(v.puzzle.kinds()) <= {kind.lstrip("-"), f"-{kind.lstrip('-')}"} | set(GLOBAL_KINDS)
