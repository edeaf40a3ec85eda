"""The hard-end search's settings: one frozen value with the shipped defaults, its
ranges checked when it is made, and the one value ``generate(search=...)`` hands to
the search."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import Any

import pytest

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.generators.search import DEFAULTS, Found, SearchRequest, SearchSettings
from csp_sudoku.generators.target import generate


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"windows": ()}, "at least one window"),
        ({"windows": (0.1, -0.1)}, "windows must be non-negative"),
        ({"temperature": 0.0}, "temperature must be positive"),
        ({"temperature": math.nan}, "temperature must be positive"),
        ({"reuse": 1.5}, "reuse must be between 0 and 1"),
        ({"expand": -0.1}, "expand must be between 0 and 1"),
        ({"patience": 0}, "patience must be a whole number, at least 1"),
        ({"elite_size": 2.5}, "elite_size must be a whole number"),
        ({"renew": 0}, "renew must be a whole number"),
        ({"deepen": True}, "deepen must be a whole number"),
        ({"deepen_ratings": -3}, "deepen_ratings must be a whole number"),
        ({"lean": -0.05}, "lean must be a finite non-negative number"),
        ({"bounded": math.inf}, "bounded must be a finite non-negative number"),
        ({"pick_trials": 0}, "pick_trials must be a whole number, at least 1"),
    ],
)
def test_settings_out_of_range_are_refused_when_made(change: dict[str, Any], message: str) -> None:
    with pytest.raises(GenerationError, match=message):
        dataclasses.replace(DEFAULTS, **change)


def test_settings_are_one_frozen_value_with_the_shipped_defaults() -> None:
    s = SearchSettings(windows=[0.2, 0.4])  # type: ignore[arg-type]
    assert s.windows == (0.2, 0.4) and hash(s) == hash(SearchSettings(windows=(0.2, 0.4)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.patience = 3  # type: ignore[misc]
    assert SearchSettings() == DEFAULTS and DEFAULTS.renew == 2_500 and DEFAULTS.bound_top
    with pytest.raises(GenerationError, match="search must be a SearchSettings"):
        next(generate(1, metric="se", level="extreme", search={"renew": 1}))  # type: ignore[arg-type]


def test_generate_hands_its_one_settings_value_to_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``generate(search=...)`` passes that value to the annealing search; None: the
    defaults."""
    from csp_sudoku.generators import anneal

    seen: list[SearchSettings] = []
    real = anneal.search

    def spy(request: SearchRequest, settings: SearchSettings) -> Iterator[Found]:
        seen.append(settings)
        return real(request, settings)

    monkeypatch.setattr(anneal, "search", spy)
    mine = dataclasses.replace(DEFAULTS, patience=7, windows=(0.3,))
    for search in (mine, None):
        got = generate(1, method="anneal", metric="se", level="hard", seed=1, search=search)
        assert len(list(got)) == 1
    assert seen == [mine, DEFAULTS]


def _pool(*scores: float) -> Any:
    """An elite pool of states whose objective is each score (clue sets told apart by
    their first cell)."""
    import numpy as np

    from csp_sudoku.generators.search.elite import Elite

    pool = Elite(len(scores))
    for i, h in enumerate(scores):
        clues = np.zeros(81, dtype=np.int8)
        clues[0], clues[1] = i % 9 + 1, i // 9 + 1
        pool.remember(h, clues, clues.copy(), h)
    return pool


def test_the_pick_by_index_spends_moves_on_the_best_state_until_it_misses() -> None:
    """``Elite.by_index``: the best state first; after its moves missed as often as
    its lead is worth (``exp(PROMISE_SLOPE * gap) = 1 + misses / trials``), the next."""
    import numpy as np

    from csp_sudoku.generators.search.elite import PROMISE_SLOPE

    pool = _pool(9.0, 8.8, 8.0)
    rng = np.random.default_rng(0)
    best, second = pool.states[0].clues, pool.states[1].clues
    trials = 100
    lead = math.exp(PROMISE_SLOPE * 0.2)  # the best's promise against the second's
    turns = math.ceil(trials * (lead - 1))  # misses after which the second is ahead
    picks = []
    for _ in range(turns + 1):
        clues, _sol = pool.by_index(rng, trials)
        picks.append(clues.tobytes())
        pool.missed(clues)
    assert picks[:turns] == [best.tobytes()] * turns
    assert picks[turns] == second.tobytes()
    assert pool.misses(best) == turns and pool.misses(pool.states[2].clues) == 0
