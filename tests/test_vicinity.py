"""The exhaustive {-1+1} vicinity search over every digit.

Moves are checked against a brute force over every (removed, placed, digit)
triple; neighbours with the independent solver of tests/independent.py
(unique, minimal, one clue changed before the minimisation); the best-first
order with a cheap objective (the number of clues), so these tests stay fast.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import math
import time
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku.cli import main
from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators import generate
from csp_sudoku.generators.anneal import AnnealStats, anneal
from csp_sudoku.generators.minimal import checker_for
from csp_sudoku.generators.novelty import canonical_bytes, default_keys
from csp_sudoku.generators.search import SearchSettings
from csp_sudoku.generators.targeting import make_target
from csp_sudoku.generators.vicinity import Bounded, Later, best_first, moves, neighbours
from tests.independent import count_solutions

GEO = Geometry.standard(9)
#: A minimal 9x9 puzzle (SE 9.8) that the annealer made.
STATE = "31.7...6.7....2..1...61.7....7...8..82...9....5..4......43..1...3......92....5..8"
#: Another minimal 9x9 puzzle (SE 10.0), which the whole-vicinity search made.
OTHER = "....746..........8...61.4....1....4.82...9....5......3..6.3..7......2...29......5"


def _cells(line: str) -> np.ndarray:
    return np.array([0 if ch == "." else int(ch) for ch in line], dtype=np.int8)


def _clash(cells: list[int]) -> bool:
    """Two equal digits in a row, column or box (written apart from the library)."""
    for i in range(81):
        for j in range(i + 1, 81):
            if cells[i] and cells[i] == cells[j]:
                ri, ci, rj, cj = i // 9, i % 9, j // 9, j % 9
                if ri == rj or ci == cj or (ri // 3, ci // 3) == (rj // 3, cj // 3):
                    return True
    return False


def test_moves_are_every_one_clue_change_that_leaves_no_clash() -> None:
    base = _cells(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    )
    want = set()
    for c in range(81):
        if not base[c]:
            continue
        for e in range(81):
            if base[e] and e != c:
                continue
            for d in range(1, 10):
                if e == c and d == base[c]:
                    continue
                work = [int(v) for v in base]
                work[c], work[e] = 0, d
                if not _clash(work):
                    want.add((c, e, d))
    got = [(c, e, d) for c, e, d in moves(base, GEO).tolist()]
    assert len(got) == len(set(got))
    assert set(got) == want
    assert (
        base
        == _cells(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        )
    ).all()


def test_neighbours_are_unique_minimal_and_one_clue_away() -> None:
    base = _cells(STATE)
    given = {(i, int(v)) for i, v in enumerate(base) if v}
    got = list(islice(neighbours(base, GEO, checker_for(GEO), np.random.default_rng(3)), 12))
    assert len(got) == 12
    solutions = set()
    for clues, sol in got:
        cells = [int(v) for v in clues]
        assert count_solutions(cells, limit=2) == 1
        for i, v in enumerate(cells):  # minimal: no clue can go
            if v:
                cells[i] = 0
                assert count_solutions(cells, limit=2) == 2
                cells[i] = v
        assert all(sol[i] == v for i, v in enumerate(clues) if v)
        assert sol.min() >= 1 and not _clash([int(v) for v in sol])  # a full grid
        mine = {(i, int(v)) for i, v in enumerate(clues) if v}
        assert len(mine - given) <= 1  # one clue placed; the rest came from the state
        solutions.add(sol.tobytes())
    assert len(solutions) > 1  # the digits change, so the solution grids do too


def test_neighbours_read_off_the_enumerated_solutions_are_those_counted_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The counts read off each state-less-a-clue's solutions, and the count of
    every move in one batch (what a state less a clue with too many solutions
    takes), give the same neighbours with the same solutions in the same order."""
    import csp_sudoku.generators.vicinity as vicinity

    def listed(state: str) -> list[tuple[bytes, bytes]]:
        found = neighbours(_cells(state), GEO, checker_for(GEO), np.random.default_rng(5))
        return [(clues.tobytes(), sol.tobytes()) for clues, sol in found]

    for state in (STATE, OTHER):
        read = listed(state)
        monkeypatch.setattr(vicinity, "ENUMERATE", 0)
        counted = listed(state)
        monkeypatch.undo()
        assert len(read) >= 20
        assert read == counted


def _search(
    starts: list[tuple[float, np.ndarray]], value: object, seed: int, patience: int, **kw: float
) -> Iterator[tuple[np.ndarray, np.ndarray, object, float, int]]:
    """``best_first`` from ``starts`` on the standard geometry, window 1."""
    return best_first(
        starts,
        GEO,
        checker_for(GEO),
        np.random.default_rng(seed),
        value,  # type: ignore[arg-type]
        canonical_bytes,
        window=1.0,
        patience=patience,
        **kw,
    )


def _few_clues(seed: int, patience: int) -> list[tuple[bytes, float, float]]:
    """A best-first search for fewer clues (objective: minus the clue count)."""
    floors: list[float] = []

    def value(
        clues: np.ndarray, sol: np.ndarray, floor: float, later: bool
    ) -> tuple[float, object]:
        floors.append(floor)
        return -float(np.count_nonzero(clues)), None

    out = []
    for clues, _sol, _r, h, _root in _search([(-24.0, _cells(STATE))], value, seed, patience):
        out.append((canonical_bytes(clues), h, floors[-1]))
    return out


def test_best_first_meets_each_puzzle_once_and_is_reproducible() -> None:
    got = _few_clues(5, patience=2)
    assert got == _few_clues(5, patience=2)
    keys = [k for k, _h, _f in got]
    assert len(keys) == len(set(keys))
    assert canonical_bytes(_cells(STATE)) not in keys
    assert {f for _k, _h, f in got} == {-25.0}  # the best start minus the window
    assert len(got) > 2


def _expansions_logged(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes, float]]:
    """A log that gets ``("expanded", clues, minus the clue count)`` each time the
    search lists a state's neighbours (its expansion); the test appends its own."""
    import csp_sudoku.generators.vicinity as vicinity

    events: list[tuple[str, bytes, float]] = []
    real = vicinity.neighbours

    def spy(clues, *args, **kwargs):  # type: ignore[no-untyped-def]
        events.append(("expanded", clues.tobytes(), -float(np.count_nonzero(clues))))
        return real(clues, *args, **kwargs)

    monkeypatch.setattr(vicinity, "neighbours", spy)
    return events


def test_best_first_rates_a_neighbour_left_for_later_only_when_it_reaches_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A neighbour whose value answers :class:`Later` joins the frontier's bottom
    unrated: it is rated (``later`` False) only when the search pops it, after
    every rated state of the frontier (here the two starts), one at a time in
    the order met, and expanded only once rated and within the window; most
    are never rated (what the search saves). Objective: minus the clue count;
    every neighbour is left for later."""
    # ("rated" | "expanded", clues, objective)
    events: list[tuple[str, bytes, float]] = _expansions_logged(monkeypatch)
    deferred: list[bytes] = []
    floor = -25.0

    def value(
        clues: np.ndarray, sol: np.ndarray, low: float, later: bool
    ) -> tuple[float, object] | Later:
        assert low == floor
        if later:
            deferred.append(clues.tobytes())
            return Later()
        assert clues.tobytes() in deferred  # rated later only what was left
        h = -float(np.count_nonzero(clues))
        events.append(("rated", clues.tobytes(), h))
        return h, None

    starts = [_cells(STATE), _cells(OTHER)]
    got = list(_search([(-24.0, c) for c in starts], value, 3, 5))
    assert [e[:2] for e in events[:2]] == [("expanded", c.tobytes()) for c in starts]
    rated = [b for e, b, _h in events if e == "rated"]
    assert [c.tobytes() for c, *_rest in got] == rated  # each yielded once rated
    assert 3 <= len(rated) < len(deferred) // 10  # most never rated
    assert rated == [b for b in deferred if b in rated]  # in the order met
    for i, (e, b, h) in enumerate(events[2:], 2):
        if e == "expanded":  # just rated, and within the window
            assert events[i - 1] == ("rated", b, h) and h >= floor


def test_a_neighbour_left_for_later_is_keyed_when_reached_and_skipped_if_met() -> None:
    """A neighbour left for later is not keyed when met (most are never reached, and
    a canonical key costs more than the quick test that left it): it is keyed
    when the search pops it, and skipped unrated when a state isomorphic to it
    (here: every state, one key for all) was met before."""
    rated: list[bytes] = []
    left: list[bytes] = []

    def value(
        clues: np.ndarray, sol: np.ndarray, low: float, later: bool
    ) -> tuple[float, object] | Later:
        if later:
            left.append(clues.tobytes())
            return Later()
        rated.append(clues.tobytes())
        return 0.0, None

    starts = [(0.0, _cells(STATE))]
    got = list(
        best_first(
            starts,
            GEO,
            checker_for(GEO),
            np.random.default_rng(3),
            value,
            lambda clues: b"one key",
            window=1.0,
            patience=5,
        )
    )
    assert left and not rated and not got
    got = list(_search(starts, value, 3, 5))  # canonical keys: they are rated when reached
    assert rated and len(rated) == len({canonical_bytes(np.frombuffer(b, np.int8)) for b in rated})


def test_a_bounded_neighbour_is_placed_by_its_bound_expanded_unrated_and_never_yielded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A neighbour whose value answers :class:`Bounded` is met once (one call of the
    value, never a rating), never yielded, and expanded when its bound is the
    best of the frontier, as a rated state of that objective would be.
    Objective: minus the clue count; the neighbours of an even clue count are
    bounded (at their objective), the others rated."""
    # ("met" | "expanded", clues, objective)
    events: list[tuple[str, bytes, float]] = _expansions_logged(monkeypatch)

    def value(
        clues: np.ndarray, sol: np.ndarray, low: float, later: bool
    ) -> tuple[float, object] | Bounded:
        h = -float(np.count_nonzero(clues))
        events.append(("met", clues.tobytes(), h))
        return Bounded(h) if int(h) % 2 == 0 else (h, None)

    start = _cells(STATE)
    got = [c.tobytes() for c, *_rest in _search([(-24.0, start)], value, 3, 6)]
    met = [b for e, b, _h in events if e == "met"]
    bounded = {b for e, b, h in events if e == "met" and int(h) % 2 == 0}
    expanded = [b for e, b, _h in events if e == "expanded"]
    assert got and not bounded & set(got)  # the rated ones only are yielded
    assert bounded & set(expanded)  # some bounded states were expanded, unrated
    assert len(met) == len(set(met))  # each met once: a bounded one is never rated
    # each expansion took a state of the best objective waiting in the frontier
    # (rated or bounded alike), within the window (floor: the start's minus 1)
    frontier = {start.tobytes(): -24.0}
    keys = {canonical_bytes(start)}  # a state isomorphic to one met is skipped
    for e, b, h in events:
        if e == "met":
            k = canonical_bytes(np.frombuffer(b, np.int8))
            if h >= -25.0 and k not in keys:
                frontier[b] = h
            keys.add(k)
        elif e == "expanded":
            v = frontier.pop(b)
            assert v >= max(frontier.values(), default=v)


def _expansions(lean: float, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """A best-first search on a flat objective (every state 0) with ``lean``: for
    each state it expanded after the start, (its clue count, the fewest clues of
    any state then in the frontier); checked on the way: each is a frontier state."""
    import csp_sudoku.generators.vicinity as vicinity

    events: list[tuple[str, bytes]] = []
    real = vicinity.neighbours

    def spy(clues, *args, **kwargs):  # type: ignore[no-untyped-def]
        events.append(("expanded", clues.tobytes()))
        return real(clues, *args, **kwargs)

    monkeypatch.setattr(vicinity, "neighbours", spy)

    def value(clues: np.ndarray, sol: np.ndarray, low: float, later: bool) -> tuple[float, object]:
        return 0.0, None

    for clues, *_rest in _search([(0.0, _cells(STATE))], value, 4, 6, lean=lean):
        events.append(("met", clues.tobytes()))
    frontier: set[bytes] = set()
    out = []
    for i, (e, b) in enumerate(events):
        if e == "met":
            frontier.add(b)
        elif i:
            assert b in frontier
            fewest = min(int(np.count_nonzero(np.frombuffer(x, np.int8))) for x in frontier)
            out.append((int(np.count_nonzero(np.frombuffer(b, np.int8))), fewest))
            frontier.discard(b)
    return out


def test_a_lean_frontier_expands_the_state_with_fewest_clues_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``lean``, among states of one objective the one with the fewest clues is
    expanded first; without it, the one met first (so the order differs)."""
    leaned = _expansions(1.0, monkeypatch)
    assert len(leaned) == 5
    assert all(n == fewest for n, fewest in leaned)
    assert any(n > fewest for n, fewest in _expansions(0.0, monkeypatch))


class _Enough(BaseException):
    """What a test waits for has happened: the search it runs may stop (raised from a
    spy or a step; a BaseException, so that no handler of the search takes it)."""


def _stalled(
    seed: int,
    seconds: float,
    st: AnnealStats,
    *,
    spied: _Spied | None = None,
    until: Callable[[_Spied], bool] | None = None,
    **kw: object,
) -> list[object]:
    """A hard-end search that only climbs (nothing rates SE 20) and stalls at
    once (``renew`` 5 steps; ``deepen`` 1 unless ``kw`` says otherwise): what it
    offered. With ``until``, it runs until ``until(spied)`` holds (asked at each
    step and each bound), for at most three times ``seconds``: a test that waits
    for events, not for a time that a loaded machine makes too short."""
    opts: dict[str, object] = {"elite_size": 2, "renew": 5, "deepen": 1, **kw}
    inputs = {k: opts.pop(k) for k in ("max_chains",) if k in opts}  # the rest: settings
    if spied is not None and until is not None:
        spied.until = lambda: until(spied)
    found: list[object] = []
    try:
        for got in anneal(
            GEO,
            make_target("se", None, (20.0, math.inf)),
            np.random.default_rng(seed),
            checker_for(GEO),
            default_keys(),
            stats=st,
            deadline=time.time() + (3 * seconds if until is not None else seconds),
            settings=SearchSettings(**opts),  # type: ignore[arg-type]
            on_step=None if spied is None else spied.enough,
            **inputs,
        ):
            found.append(got)
    except _Enough:
        pass
    return found


def test_a_stalled_annealer_searches_its_elite_vicinity_whole() -> None:
    """With ``deepen``, a hard-end search whose best stalled for ``renew`` steps
    searches its elite pool's vicinity before it starts over; what it offers
    is unique, minimal and new."""
    st = AnnealStats()
    # until the first whole-vicinity search (at most 60 s)
    assert _stalled(2, 20, st, spied=_Spied([], [], []), until=lambda _s: st.expanded >= 1) == []
    assert st.expanded >= 1
    assert (
        st.best_clues is not None and count_solutions([int(v) for v in st.best_clues], limit=2) == 1
    )


def test_an_attempt_budget_starts_over_instead_of_searching_the_vicinity() -> None:
    """With ``max_chains`` (the attempt budget), a stalled hard-end search starts
    over at once rather than search its elite vicinity (no chain, and no budget
    of chains bounds it), and it ends after its chains, not at its deadline."""
    st = AnnealStats()
    assert _stalled(2, 600, st, max_chains=3) == []
    assert st.expanded == 0 and st.renewals >= 1 and st.restarts == 3


@dataclasses.dataclass
class _Spied:
    """What a whole-vicinity search did, as :func:`_spy_bounds` saw it."""

    #: every bound asked: (low, top, the bound, the puzzle's cells, the pass's
    #: best and the run's best at the time)
    bounds: list[tuple[float, float, float | None, bytes, float, float]]
    rated: list[tuple[bytes, bool]]  # every full rating: (cells, inside a pass)
    starts: list[set[bytes]]  # each pass's starts (clue bytes)
    until: Callable[[], bool] | None = None  # what the test waits for (``_stalled``)

    def enough(self) -> None:
        """Stop the search (:class:`_Enough`) once what the test waits for happened."""
        if self.until is not None and self.until():
            raise _Enough

    def placed(self) -> set[bytes]:
        """The states the bound placed (unrated)."""
        return {cells for _lo, _top, b, cells, _p, _r in self.bounds if b is not None}


def _spy_bounds(monkeypatch: pytest.MonkeyPatch, st: AnnealStats) -> _Spied:
    """Spies on SE's bound, the annealer's full ratings and each pass of
    ``best_first`` (its starts, and its best from them and what it yields)."""
    import csp_sudoku.generators.search.rating as rating_mod
    import csp_sudoku.generators.vicinity as vicinity
    from csp_sudoku.metrics import REGISTRY

    spec = REGISTRY["se"]
    assert spec.bound is not None
    real_bound, real_rate, real_search = spec.bound, rating_mod._rate, vicinity.best_first
    spied = _Spied([], [], [])
    pass_best = [-math.inf]
    in_pass = [False]

    def search(starts, *args, **kwargs):  # type: ignore[no-untyped-def]
        starts = list(starts)
        spied.starts.append({c.tobytes() for _h, c in starts})
        pass_best[0] = max(h for h, _c in starts)
        in_pass[0] = True
        try:
            for item in real_search(starts, *args, **kwargs):
                pass_best[0] = max(pass_best[0], item[3])
                yield item
        finally:
            in_pass[0] = False

    def bound(puzzle, low, top, solution):  # type: ignore[no-untyped-def]
        b = real_bound(puzzle, low, top, solution)
        spied.bounds.append((low, top, b, puzzle.cells.tobytes(), pass_best[0], st.best))
        spied.enough()
        return b

    def rate(puzzle, *args, **kwargs):  # type: ignore[no-untyped-def]
        spied.rated.append((puzzle.cells.tobytes(), in_pass[0]))
        return real_rate(puzzle, *args, **kwargs)

    monkeypatch.setitem(REGISTRY, "se", dataclasses.replace(spec, bound=bound))
    monkeypatch.setattr(rating_mod, "_rate", rate)
    monkeypatch.setattr(vicinity, "best_first", search)
    return spied


def _tenth(x: float) -> float:
    return math.floor(x * 10 + 1e-6) / 10


def test_plateau_states_bounded_below_the_best_are_never_rated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``bound_top=False``: in the whole-vicinity search, a neighbour that
    the metric's bound puts a tenth or more below the best score its pass met is
    left unrated (it is only placed in the frontier and expanded): none of the
    states the bound placed is ever rated, each bound lies within the limits
    it was asked for, and those limits stay a tenth below the pass's own best
    (its starts and what it rated), not the run's: after a fresh start, a later
    climb's neighbours above its own best are rated, so that they can become
    its new best."""
    st = AnnealStats()
    spied = _spy_bounds(monkeypatch, st)

    def later_climb(sp: _Spied) -> bool:
        return (
            st.renewals >= 1
            and bool(sp.placed())
            and any(_tenth(p) < _tenth(r) for *_b, p, r in sp.bounds)
        )

    _stalled(4, 25, st, spied=spied, until=later_climb, windows=(0.4,), deepen=4, bound_top=False)
    for low, top, b, _cells, pass_best, _run_best in spied.bounds:
        assert top <= _tenth(pass_best) - 0.1 + 1e-9
        assert b is None or low - 1e-9 <= b <= top + 1e-9
    placed = spied.placed()
    assert placed and not placed & {cells for cells, _in in spied.rated}
    # a later climb, bounded by its own best
    assert st.renewals >= 1 and any(_tenth(p) < _tenth(r) for *_b, p, r in spied.bounds)


@pytest.mark.parametrize(("options", "ceiling"), [({}, 19.8), ({"bound_floor": True}, 19.9)])
def test_bounded_to_the_floor_no_neighbour_below_the_target_is_rated(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, object], ceiling: float
) -> None:
    """By default (``bound_top``), the bound's ceiling is a tenth below the target's floor,
    whatever the pass's best (with ``bound_floor``, the floor itself): for a
    target no puzzle reaches (SE 20, floor 19.9), no neighbour of the
    whole-vicinity search is rated in full, every bound is asked up to 19.8
    (19.9), and the passes still climb on bounds alone (the later ones start
    from states the bound placed: they join the elite pool)."""
    st = AnnealStats()
    spied = _spy_bounds(monkeypatch, st)

    def from_placed(sp: _Spied) -> bool:
        placed = sp.placed()
        return any(s & placed for s in sp.starts[1:])

    _stalled(4, 20, st, spied=spied, until=from_placed, windows=(0.4, 0.4), deepen=3, **options)
    assert spied.bounds and all(top == pytest.approx(ceiling) for _lo, top, *_r in spied.bounds)
    placed = spied.placed()
    assert placed and not any(in_pass for _cells, in_pass in spied.rated)
    assert any(s & placed for s in spied.starts[1:])


def test_the_whole_vicinity_search_widens_its_window_pass_by_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each pass of the whole-vicinity search takes the next of ``windows``,
    from the elite pool as it then stands; after the last the search starts
    over, and the next stall begins again at the first window."""
    import csp_sudoku.generators.vicinity as vicinity

    passes: list[tuple[float, float]] = []  # (window, best start)
    real = vicinity.best_first

    def spy(starts, *args, **kwargs):  # type: ignore[no-untyped-def]
        starts = list(starts)
        passes.append((kwargs["window"], max(h for h, _c in starts)))
        return real(starts, *args, **kwargs)

    monkeypatch.setattr(vicinity, "best_first", spy)
    st = AnnealStats()
    _stalled(  # until a whole round of passes and the first of the next (at most 90 s)
        3,
        30,
        st,
        spied=_Spied([], [], []),
        until=lambda _s: len(passes) >= 4 and st.renewals >= 1,
        windows=(0.5, 0.25, 0.125),
    )
    windows = [w for w, _h in passes]
    assert len(windows) >= 4 and st.renewals >= 1  # a whole round of passes, and another
    assert windows == ([0.5, 0.25, 0.125] * len(windows))[: len(windows)]
    # a pass starts from the pool the one before it left: never from lower
    for i in range(0, len(windows) - 2, 3):
        assert passes[i][1] <= passes[i + 1][1] <= passes[i + 2][1]


def _ratings_per_pass(
    monkeypatch: pytest.MonkeyPatch, until: Callable[[list[int]], bool], **kw: object
) -> list[int]:
    """How many full ratings each pass of a stalled search's whole-vicinity search
    made (one window: one pass a search; none bounded, every neighbour the quick
    test does not clear is rated), with ``kw`` for :func:`anneal`; the search runs
    until ``until`` holds for those counts (the pass under way counted so far),
    24 s at the most."""
    import csp_sudoku.generators.vicinity as vicinity

    st = AnnealStats()
    spans: list[list[int]] = []  # per pass: st.rated at its start, then at its end
    real = vicinity.best_first

    def spy(starts, *args, **kwargs):  # type: ignore[no-untyped-def]
        span = [st.rated]
        spans.append(span)
        try:
            yield from real(starts, *args, **kwargs)
        finally:  # spent, or closed where the search left it
            span.append(st.rated)

    monkeypatch.setattr(vicinity, "best_first", spy)

    def counts() -> list[int]:
        return [(span[1] if len(span) == 2 else st.rated) - span[0] for span in spans]

    _stalled(
        3,
        8,
        st,
        spied=_Spied([], [], []),
        until=lambda _s: until(counts()),
        windows=(0.4,),
        deepen=300,
        bounded=None,
        **kw,
    )
    return [span[1] - span[0] for span in spans if len(span) == 2]


def test_a_cap_on_ratings_ends_the_whole_vicinity_search_and_starts_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``deepen_ratings``, a whole-vicinity search that met no output ends
    after that many full ratings and the search starts over (another stall,
    another search); without it, the first search rates on past the cap."""
    capped = _ratings_per_pass(monkeypatch, lambda n: n.count(3) >= 3, deepen_ratings=3)
    assert len(capped) >= 2 and capped.count(3) >= 2
    assert max(capped) <= 3
    uncapped = _ratings_per_pass(monkeypatch, lambda n: max(n, default=0) > 3)
    assert max(uncapped, default=0) > 3


def test_the_whole_vicinity_search_needs_a_window() -> None:
    with pytest.raises(GenerationError, match="at least one window"):
        _stalled(3, 5, AnnealStats(), windows=())


def test_outputs_from_the_vicinity_of_a_start_name_it_and_are_true() -> None:
    """``vicinity_of``: the search begins in the starts' vicinity; its outputs are
    unique and minimal (independent solver), new, rated as the run says, name
    their start, and come again for the same seed."""

    def run() -> list[cs.generators.Generated]:
        return list(
            generate(
                3,
                metric="se",
                score_range=(8.0, math.inf),
                vicinity_of=[STATE],
                seed=4,
                budget_seconds=120,
            )
        )

    got = run()
    assert len(got) == 3
    keys = default_keys()
    for g in got:
        cells = [int(v) for v in g.puzzle.cells]
        assert count_solutions(cells, limit=2) == 1
        for i, v in enumerate(cells):
            if v:
                cells[i] = 0
                assert count_solutions(cells, limit=2) == 2
                cells[i] = v
        assert keys.is_new(g.puzzle.cells) and g.minimal
        assert g.derived_from == STATE and g.method == "anneal"
        assert cs.rate(g.puzzle, "se").score == g.ratings["se"].score >= 8.0
        # the search's ratings stop early (``stop_within``); an output's is the full one
        assert "partial" not in g.ratings["se"].details
    assert [g.puzzle.to_line() for g in run()] == [g.puzzle.to_line() for g in got]


def test_vicinity_of_is_refused_where_it_cannot_run() -> None:
    with pytest.raises(GenerationError, match="exactly one solution"):
        next(generate(1, metric="se", score_range=(9.0, math.inf), vicinity_of=["." * 81]))
    with pytest.raises(GenerationError, match="hard end"):
        next(generate(1, metric="se", level="hard", vicinity_of=[STATE]))
    with pytest.raises(GenerationError, match="no symmetry"):
        next(generate(1, metric="se", level="extreme", symmetry="rot180", vicinity_of=[STATE]))


def test_cli_vicinity_of_bad_file_says_where_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "starts.txt"
    bad.write_text(STATE + "\n12345\n")
    code, err = _cli(["generate", "--metric", "se", "--score-min", "10", "--vicinity-of", str(bad)])
    assert code == 2 and f"{bad}:2:6" in err and "Traceback" not in err
    code, err = _cli(
        [
            "generate",
            "--metric",
            "se",
            "--score-min",
            "10",
            "--vicinity-of",
            str(bad),
            "-o",
            str(bad),
        ]
    )
    assert code == 2 and "names the input" in err
    assert bad.read_text() == STATE + "\n12345\n"  # not wiped
    code, err = _cli(
        ["generate", "--metric", "se", "--score-min", "10", "--vicinity-of", str(tmp_path / "no")]
    )
    assert code == 2 and "cannot read it" in err
    # a record of another shape is a bad line, not a 9x9 puzzle with several solutions
    other = tmp_path / "x.jsonl"
    other.write_text(json.dumps({"puzzle": STATE, "geometry": "x-9x9"}) + "\n")
    code, err = _cli(
        ["generate", "--metric", "se", "--score-min", "10", "--vicinity-of", str(other)]
    )
    assert code == 2 and f"{other}:1: the record names geometry x-9x9" in err, err


def _cli(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


def test_chains_share_the_starts_out() -> None:
    """With ``--jobs N`` and N starts or more, chain w searches every N-th start
    from the w-th: together all of them, none twice; with fewer, each all."""
    from dataclasses import replace

    from csp_sudoku.generators import target as tg

    target = tg._make_target("se", None, (9.0, math.inf))
    opts = tg._Options(GEO, target, (), "none", True, "anneal", "auto", None, 0, 0, None)
    starts = tuple(f"start{i}" for i in range(5))
    opts = replace(opts, starts=starts)
    for chains in (1, 2, 3, 5):
        parts = [tg.share_starts(opts, w, chains).starts for w in range(chains)]
        assert sorted(s for p in parts for s in p) == sorted(starts)
        assert all(len(p) in (5 // chains, 5 // chains + 1) for p in parts)
    few = replace(opts, starts=starts[:1])
    assert [tg.share_starts(few, w, 2).starts for w in range(2)] == [starts[:1], starts[:1]]
