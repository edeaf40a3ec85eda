"""csp_sudoku.core.seeds: one seed convention, the old derivations kept, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from csp_sudoku.core.errors import SeedError, SudokuError
from csp_sudoku.core.seeds import (
    ITEM_KEY,
    as_generator,
    as_seed,
    attempt_seed,
    check_seed,
    derive,
    item_seed,
)

MASK63 = (1 << 63) - 1
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def _spawned(seed: int, *keys: int) -> int:
    """The derivation the generators used before csp_sudoku.core.seeds, written out."""
    state = np.random.SeedSequence(seed, spawn_key=keys).generate_state(2, np.uint64)
    return int(state[0]) & MASK63


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3, MASK63])
def test_derivations_are_the_ones_used_before(seed: int) -> None:
    for j in range(4):
        assert attempt_seed(seed, j) == (seed if j == 0 else _spawned(seed, j - 1))
        assert item_seed(seed, j) == (seed if j == 0 else _spawned(seed, ITEM_KEY, j))
    assert derive(seed, 3, 4) == _spawned(seed, 3, 4)
    assert 0 <= derive(seed, 1) <= MASK63


def test_every_seed_like_makes_a_generator() -> None:
    a = as_generator(5).integers(0, 1000, 5)
    assert np.array_equal(a, np.random.default_rng(5).integers(0, 1000, 5))
    assert np.array_equal(as_generator(np.int64(5)).integers(0, 1000, 5), a)
    ss = np.random.SeedSequence(5)
    assert np.array_equal(as_generator(ss).integers(0, 1000, 5), a)
    g = np.random.default_rng(1)
    assert as_generator(g) is g
    assert isinstance(as_generator(None), np.random.Generator)
    assert as_seed(9) == 9 and 0 <= as_seed(None) <= MASK63
    assert 0 <= as_seed(np.random.default_rng(2)) <= MASK63
    assert as_seed(np.random.SeedSequence(3)) == as_seed(np.random.SeedSequence(3))


@pytest.mark.parametrize("bad", [-1, -(2**70), True, 1.5, "3"])
def test_bad_seeds_are_a_seed_error_naming_the_value(bad: object) -> None:
    with pytest.raises(SeedError, match="seed must be"):
        check_seed(bad)
    with pytest.raises(SeedError) as info:
        as_generator(bad)  # type: ignore[arg-type]
    assert isinstance(info.value, SudokuError) and isinstance(info.value, ValueError)


def test_negative_seeds_in_the_library_are_project_errors() -> None:
    from csp_sudoku.generators import generate, minimal_puzzle, random_grid
    from csp_sudoku.metrics import rate_many

    for call in (
        lambda: random_grid(seed=-1),
        lambda: minimal_puzzle(seed=-2),
        lambda: next(iter(generate(1, seed=-3))),
        lambda: rate_many(
            ["4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"],
            "rounds",
            seed=-4,
        ),
    ):
        with pytest.raises(SudokuError, match="seed must be"):
            call()


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "--seed", "-1"],
        ["explain", "--seed", "-1", HARD],
        ["rate", "--seed", "-1", HARD],
        [
            "minimize",
            "--seed",
            "-1",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ],
    ],
)
def test_cli_negative_seed_is_a_message_not_a_traceback(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from csp_sudoku.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "seed must be a non-negative integer, got -1" in err
    assert "Traceback" not in err


def test_a_batch_rates_its_first_item_with_the_batch_seed() -> None:
    from csp_sudoku.metrics import rate, rate_many

    other = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
    batch = rate_many([HARD, other], "hsolve", runs=3, seed=11)
    assert batch[0].score == rate(HARD, "hsolve", runs=3, seed=11).score
    assert batch[1].seed == item_seed(11, 1)
    assert batch[1].score == rate(other, "hsolve", runs=3, seed=item_seed(11, 1)).score


def test_kernel_seeds_are_the_generators_draws_and_the_grid_kernel_uses_them() -> None:
    from csp_sudoku.core.seeds import kernel_seeds
    from csp_sudoku.generators import random_grid

    seeds = kernel_seeds(np.random.default_rng(4), 3)
    assert seeds.dtype == np.uint64
    want = np.random.default_rng(4).integers(0, 2**63 - 1, size=3, dtype=np.int64)
    assert np.array_equal(seeds.astype(np.int64), want)
    # numba's global np.random is neither used nor touched
    from numba import njit

    @njit  # type: ignore[misc]
    def _draw(s: int) -> float:  # pragma: no cover - compiled
        np.random.seed(s)
        return float(np.random.random())

    @njit  # type: ignore[misc]
    def _next() -> float:  # pragma: no cover - compiled
        return float(np.random.random())

    _draw(1)
    plain = _next()
    _draw(1)
    a = random_grid(seed=8).cells
    assert _next() == plain
    _draw(2)
    assert np.array_equal(random_grid(seed=8).cells, a)
