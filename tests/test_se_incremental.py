"""The se replay's searches that resume from marks where they found nothing
answer as the same searches run in full.

Most steps of SE's path remove a candidate or two and place nothing. A search
that found nothing on some marks S is handed S again on later marks G (S less
some candidates) and then looks only at the patterns that lost a candidate:
the basic techniques, the wings, the strong-linked fishes, the static chains
(which answer none at once when no strong link is new, and otherwise start
only where a chain through a new strong link can pass), the basic
techniques inside the (+) nets and Nishio's nets (only the digits that lost a
candidate). Each test here takes marks S on which the
search finds nothing (the pencil marks before the chain steps of SE's path on
top1465 puzzles), removes random candidates (for the basic techniques and
the wings, also fills random cells), and compares the resumed answer
on G with the same kernel's full search on G; each also asserts that enough
of those G had a hint, so that a filter that skipped too much would fail.

The static nets, counted by path instead of by ancestor sets, are checked
against the links read from the exact-cover columns; the static family's
kept bounds against each chain searched alone; Nishio's template filter
against templates listed by brute force and against every net that meets a
contradiction.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pytest

import csp_sudoku as cs
from csp_sudoku._kernels import se_patterns as kp
from csp_sudoku._kernels.se_offshoots import PLUS_TECHNIQUES, new_net, offshoots, work_arrays
from csp_sudoku.human import se_order
from csp_sudoku.human._tables import tables
from csp_sudoku.human.state import CandidateState
from tests.conftest import load_table

#: SE's basic techniques as basic_hint runs them: (code, size, direct).
BASIC = [(kp.LOCKING, 1, True), (kp.HIDDEN, 2, True), (kp.HIDDEN, 3, True), (kp.LOCKING, 1, False)]
BASIC += [(code, n, False) for n in (2, 3, 4) for code in (kp.NAKED, kp.FISH, kp.HIDDEN)]


@lru_cache(maxsize=2)
def _marks_before(chains: bool) -> list[CandidateState]:
    """The pencil marks before steps of the se paths of ten top1465 puzzles
    rated 7.5 to 9.0 by SE: before every chain step (SE 6.5 and up; no basic
    technique has a hint there), or before every step of the subset rule
    (pointing, claiming, naked and hidden sets, fishes; SE's direct hints,
    tried first, find nothing there, while those techniques have hints)."""
    rows = [r for r in load_table("se_calibration_top1465.tsv") if 7.5 <= float(r["ER"]) <= 9.0]
    out = []
    for r in rows[:: max(1, len(rows) // 10)][:10]:
        path = cs.solve_path(r["puzzle"])
        for state, step in zip(path.states(), path.steps, strict=False):
            name = step.technique
            subset = step.difficulty < 4.5 and "Single" not in name
            if step.difficulty >= 6.5 if chains else subset and not name.startswith("Direct"):
                out.append(state)
    return out


def _quiet() -> list[CandidateState]:
    return _marks_before(True)


def _pick(g: CandidateState, rng: np.random.Generator) -> tuple[int, int]:
    """A random empty cell of ``g`` with two candidates or more, and one of them (0-based)."""
    held = sum((g.masks >> d) & 1 for d in range(g.geometry.size))
    c = int(rng.choice(np.flatnonzero((g.values == 0) & (held >= 2))))
    digits = [d for d in range(g.geometry.size) if int(g.masks[c]) >> d & 1]
    return c, int(rng.choice(digits))


def _less(state: CandidateState, rng: np.random.Generator, k: int) -> CandidateState:
    """``state`` less ``k`` random candidates of empty cells (each cell keeps one)."""
    g = state.copy()
    for _ in range(k):
        c, d = _pick(g, rng)
        g.masks[c] &= ~np.int64(1 << d)
    return g


def _placed(state: CandidateState, rng: np.random.Generator, k: int) -> CandidateState:
    """``state`` with ``k`` random empty cells of two candidates or more filled
    with one of them (the digit leaves their peers), then less one candidate."""
    g = state.copy()
    for _ in range(k):
        c, d = _pick(g, rng)
        g.place(c, d + 1)
    return _less(g, rng, 1)


def _less_digit(state: CandidateState, rng: np.random.Generator, d: int, k: int) -> CandidateState:
    """``state`` less ``k`` random candidates ``d`` (0-based) of cells holding two or more."""
    g = state.copy()
    held = sum((g.masks >> x) & 1 for x in range(state.geometry.size))
    cells = np.flatnonzero((g.values == 0) & (held >= 2) & ((g.masks >> d) & 1 == 1))
    for c in rng.choice(cells, min(k, cells.size), replace=False):
        g.masks[int(c)] &= ~np.int64(1 << d)
    return g


def _basic(
    s: CandidateState, code: int, n: int, direct: bool, since: CandidateState | None
) -> tuple[tuple[int, ...], list[list[int]]]:
    lay = se_order._layout(s.geometry)
    out = np.full((s.geometry.ncells * s.geometry.size, 2), -7, dtype=np.int32)
    sm = since.masks if since is not None else s.masks[:0]
    sv = since.values if since is not None else s.values[:0]
    r = kp.basic_hint(
        s.masks, s.values, lay.units, lay.ukind, lay.member, lay.cross, code, n, direct,
        sm, sv, out,
    )  # fmt: skip
    return tuple(int(x) for x in r), out[: max(0, int(r[0]))].tolist()


def test_basic_techniques_resumed_find_what_a_full_scan_finds() -> None:
    rng = np.random.default_rng(1)
    compared = found = 0
    for s in _quiet()[::2]:
        for code, n, direct in BASIC:
            if _basic(s, code, n, direct, None)[0][0] >= 0:
                continue  # a hint on S: nothing to resume from
            for k in (1, 2, 4):
                g = _less(s, rng, k)
                full = _basic(g, code, n, direct, None)
                assert _basic(g, code, n, direct, s) == full, (code, n, direct, k)
                compared += 1
                found += full[0][0] >= 0
    assert compared > 1000 and found > 50, (compared, found)


def test_basic_techniques_and_wings_resumed_after_placements_find_what_a_full_search_finds() -> (
    None
):
    """Cells placed since the marks where a search found nothing: the placed
    cells leave every pattern, and the rules that count placements (a set's
    empty cells, a fish's placed digit) only admit fewer patterns."""
    rng = np.random.default_rng(11)
    compared = found = 0
    for s in _quiet()[::2]:
        techniques = [t for t in BASIC if _basic(s, *t, None)[0][0] < 0]
        wings = [k for k in (2, 3, 4) if _wing(s, k, None)[0][2] == 0]
        for k in (1, 2, 3):
            g = _placed(s, rng, k)
            for code, n, direct in techniques:
                full = _basic(g, code, n, direct, None)
                assert _basic(g, code, n, direct, s) == full, (code, n, direct, k)
                compared += 1
                found += full[0][0] >= 0
            for w in wings:
                full_wing = _wing(g, w, None)
                assert _wing(g, w, s) == full_wing, (w, k)
                compared += 1
                found += full_wing[0][2] > 0
    assert compared > 500 and found > 50, (compared, found)


def test_direct_hints_resumed_find_the_single_another_unit_leaves() -> None:
    """A direct hint's single can come from a place lost outside the pattern
    (another unit of the base kind for pointing and claiming): removals of
    one digit make such hints often."""
    rng = np.random.default_rng(7)
    compared = found = 0
    for s in _marks_before(False):
        for code, n, direct in BASIC[:3]:
            if _basic(s, code, n, direct, None)[0][0] >= 0:
                continue
            for d in range(s.geometry.size):
                g = _less_digit(s, rng, d, int(rng.integers(1, 4)))
                full = _basic(g, code, n, direct, None)
                assert _basic(g, code, n, direct, s) == full, (code, n, d)
                compared += 1
                found += full[0][0] >= 0
    assert compared > 500 and found > 50, (compared, found)


def _wing(
    s: CandidateState, k: int, since: CandidateState | None
) -> tuple[tuple[int, ...], list[int], list[int]]:
    lay = se_order._layout(s.geometry)
    cells = np.full(s.geometry.ncells, -7, dtype=np.int32)
    bits = np.full(s.geometry.ncells, -7, dtype=np.int64)
    sm = since.masks if since is not None else s.masks[:0]
    sv = since.values if since is not None else s.values[:0]
    r = kp.als_wings(s.masks, s.values, k, lay.see_bits, sm, sv, cells, bits)
    m = int(r[2])
    return tuple(int(x) for x in r), cells[:m].tolist(), bits[:m].tolist()


def test_wings_resumed_find_the_best_wing_a_full_search_finds() -> None:
    rng = np.random.default_rng(2)
    compared = found = 0
    for s in _quiet()[::3]:
        for k in (2, 3, 4):
            if _wing(s, k, None)[0][2] > 0:
                continue
            for r in (1, 3, 6):
                g = _less(s, rng, r)
                full = _wing(g, k, None)
                assert _wing(g, k, s) == full, (k, r)
                compared += 1
                found += full[0][2] > 0
    assert compared > 100 and found > 5, (compared, found)


def _fishes(
    s: CandidateState, memo_from: CandidateState | None
) -> list[tuple[tuple[int, ...], list[int]]]:
    """Every length's best strong-linked fish on ``s``: searched in full, or
    with the memo left by a search on ``memo_from``."""
    g = s.geometry
    lay = se_order._layout(g)
    top = 6
    memo = kp.fish_memo(g.ncells, g.size, top)
    runs = [memo_from, s] if memo_from is not None else [s]
    for state in runs:
        best = np.full((top + 1, 3), -7, dtype=np.int32)
        cells = np.full((top + 1, g.ncells), -7, dtype=np.int32)
        kp.strong_links(
            state.alive().astype(np.int8), g.size, 2, top, lay.units, lay.ukind, lay.cell_line,
            lay.see_bits, memo, cells, best,
        )  # fmt: skip
    return [
        (tuple(best[n].tolist()), cells[n, : max(0, int(best[n, 1]))].tolist())
        for n in range(2, top + 1)
    ]


def test_strong_linked_fishes_from_a_memo_find_what_a_full_search_finds() -> None:
    """Each digit's fishes are kept with its candidates and read again where
    they are the same; marks with fishes and without, before and after."""
    rng = np.random.default_rng(3)
    compared = found = had = 0
    states = _marks_before(False)[::3] + _quiet()[::2]
    for s in states:
        had += any(b[1] for b, _ in _fishes(s, None))
        for r in (1, 2, 5):
            g = _less(s, rng, r)
            full = _fishes(g, None)
            assert _fishes(g, s) == full, r
            assert _fishes(s, g) == _fishes(s, None), r  # a memo of other marks
            compared += 1
            found += any(b[1] for b, _ in full)
    assert compared > 50 and found > 10 and had > 5, (compared, found, had)


def _forget_static() -> None:
    """Drop what the static family keeps between calls: the marks where it
    found nothing and each group's bounds on its chains."""
    se_order._NO_HINT.__dict__.pop("static", None)
    se_order._NO_HINT.__dict__.pop("static_bounds", None)


def _static(s: CandidateState) -> tuple[object, ...] | None:
    """The static family's hint on ``s``, searched in full (no resumed marks)."""
    _forget_static()
    step = se_order._static_chains(s.copy())
    _forget_static()
    return None if step is None else (step.technique, step.eliminations, step.placements)


def _static_after(s: CandidateState, g: CandidateState) -> tuple[object, ...] | None:
    """The static family's hint on ``g`` when its last search was on ``s``
    (what it keeps from there: the marks and its chains' bounds)."""
    _forget_static()
    se_order._static_chains(s.copy())
    step = se_order._static_chains(g.copy())
    _forget_static()
    return None if step is None else (step.technique, step.eliminations, step.placements)


def test_static_chains_answer_none_only_where_a_full_search_finds_none() -> None:
    rng = np.random.default_rng(4)
    cc = tables(_quiet()[0].geometry).column_candidates
    skipped = searched = 0
    for s in _quiet():
        if _static(s) is not None:
            continue
        for r in (1, 1, 2, 4):
            g = _less(s, rng, r)
            alive, since = g.alive().astype(np.int8), s.alive().astype(np.int8)
            if se_order._new_strong_link(alive, since, cc):
                searched += 1
            else:
                assert _static(g) is None, r
                skipped += 1
    assert skipped > 20 and searched > 20, (skipped, searched)


def _resumed_static(hint: bool, seed: int, removals: tuple[int, ...]) -> tuple[int, int]:
    """Compare the static family resumed from its last search with a full
    search, on marks less random candidates than marks where it found a hint
    (``hint``: applied first, as the replay does) or found nothing. Returns
    how many were compared and how many had a hint."""
    rng = np.random.default_rng(seed)
    compared = found = 0
    for s in _quiet():
        if (_static(s) is not None) != hint:
            continue
        h = s.copy()
        se_order._static_chains(h)  # the hint applied, if any
        _forget_static()
        for r in removals:
            g = _less(h, rng, r)
            full = _static(g)
            assert _static_after(s, g) == full, r
            compared += 1
            found += full is not None
    return compared, found


def test_static_chains_resumed_through_new_links_find_what_a_full_search_finds() -> None:
    """Resumed on marks where the family found nothing, the loops and forcing
    chains start only where a chain through a new strong link can pass
    (:func:`~csp_sudoku._kernels.se_chains.through_new_links`): the hint must
    be the full search's, and enough of them must be hints."""
    compared, found = _resumed_static(False, 8, (1, 2, 3, 5))
    assert compared > 50 and found > 20, (compared, found)


def test_static_chains_resumed_after_a_hint_find_what_a_full_search_finds() -> None:
    """After a hint, each group keeps a bound on every chain of those marks (its
    complexity, or the bound it was searched under): on the marks less the
    hint's removals and more, a chain is searched again only where it could
    still come first or may pass a new strong link. The hint must be the full
    search's, and enough of them must be hints: chains found the step before
    that still act, and chains through new links."""
    compared, found = _resumed_static(True, 12, (0, 1, 2, 4))
    assert compared > 40 and found > 30, (compared, found)


def _by_hand(g: CandidateState) -> tuple[Any, ...]:
    """What the static family's kernels read on ``g``'s marks, for a test that
    runs them itself: the layout, the columns' candidates, the marks, the
    five inference tables, the loops' work and output arrays, and room for
    a loop's result and the forcing chains' removals and placements."""
    from csp_sudoku._kernels import se_chains as kc

    lay = se_order._layout(g.geometry)
    cc = tables(g.geometry).column_candidates
    alive = g.alive().astype(np.int8)
    tabs = kc.static_tables(alive, cc, lay.corder, lay.ncellcols)
    work, out = kc.loop_work_arrays(alive.size)
    ncand = alive.size
    return (
        lay, cc, alive, tabs, work, out, np.empty(2, dtype=np.int64),
        np.empty(ncand, dtype=np.int32), np.empty(ncand, dtype=np.int32),
    )  # fmt: skip


def test_every_static_chain_after_nothing_starts_where_a_new_link_lets_it() -> None:
    """Each candidate is searched alone, in full: wherever a forcing chain
    removes or places it, or a loop with removals runs through it, on marks
    less some candidates than marks where the family found nothing,
    :func:`~csp_sudoku._kernels.se_chains.through_new_links` must have let it
    start (a filter that dropped one start would change SE's first chain)."""
    from csp_sudoku._kernels import se_chains as kc

    rng = np.random.default_rng(9)
    chains = loops = 0
    for s in _quiet()[::3]:
        if _static(s) is not None:
            continue
        g = _less(s, rng, 3)
        lay, cc, alive, tabs, work, out, res, elim, place = _by_hand(g)
        weak_x, weak_xy, strong_x, strong_xy, strong_y = tabs
        since = s.alive().astype(np.int8)
        for xr, weak, strong in (
            (True, weak_x, strong_x),
            (True, weak_xy, strong_xy),
            (False, weak_xy, strong_y),
        ):
            starts = np.zeros((3, alive.size), dtype=np.int8)
            kc.through_new_links(alive, since, cc, weak, strong, starts)
            # one component for every literal: no start left out by the components
            whole = np.zeros(2 * alive.size, dtype=np.int32)
            for k in np.flatnonzero(alive).tolist():
                one = np.full((3, alive.size), kc.NO_BOUND, dtype=np.int64)
                one[:, k] = 0
                kc.forcing_chains(alive, weak, strong, kc.NO_BOUND, one, whole, elim, place)
                if elim[k] >= 0 or place[k] >= 0:
                    chains += 1
                    assert (elim[k] < 0 or starts[0, k]) and (place[k] < 0 or starts[1, k]), k
                kc.continuous_loops(
                    alive, weak, strong, xr, lay.see, g.geometry.size, one[2], whole,
                    kc.NO_BOUND, work, out, res,
                )  # fmt: skip
                if res[0] >= 0:
                    loops += 1
                    assert starts[2, k], k
    assert chains > 20 and loops > 10, (chains, loops)


def test_static_chain_bounds_kept_by_each_group_hold() -> None:
    """Each bound a group keeps (``_chain_bounds``: removing, placing, a loop
    through each candidate) is at most the complexity of that chain searched
    alone and in full on the same marks (none counts as no bound broken),
    and enough of them are that complexity: a bound set too high would let
    a later search skip the chain that comes first."""
    from csp_sudoku._kernels import se_chains as kc

    held = tight = 0
    for s in _quiet()[::2]:
        _forget_static()
        se_order._static_chains(s.copy())
        records = se_order._NO_HINT.__dict__["static_bounds"]
        lay, _cc, alive, tabs, work, out, res, elim, place = _by_hand(s)
        weak_x, weak_xy, strong_x, strong_xy, strong_y = tabs
        whole = np.zeros(2 * alive.size, dtype=np.int32)
        groups = ((True, weak_x, strong_x), (False, weak_xy, strong_y), (True, weak_xy, strong_xy))
        for group, (xr, weak, strong) in enumerate(groups):
            if (s.geometry, group) not in records:
                continue  # not searched (X links only: the templates rule it out)
            marks, kept = records[(s.geometry, group)]
            assert np.array_equal(marks, alive)
            # the bounds the replay kept, and those of searches under a bound
            # that cuts them short (a bound met is where they stop)
            bounded = []
            for bound in (8, 12):
                lower = np.zeros((3, alive.size), dtype=np.int64)
                if group != 1:
                    kc.forcing_chains(alive, weak, strong, bound, lower, whole, elim, place)
                kc.continuous_loops(
                    alive, weak, strong, xr, lay.see, s.geometry.size, lower[2], whole,
                    bound, work, out, res,
                )  # fmt: skip
                bounded.append(lower)
            for k in np.flatnonzero(alive).tolist():
                one = np.full((3, alive.size), kc.NO_BOUND, dtype=np.int64)
                one[:, k] = 0
                truth = [-1, -1, -1]
                if group != 1:  # the forcing chains of X links and of both kinds
                    kc.forcing_chains(alive, weak, strong, kc.NO_BOUND, one, whole, elim, place)
                    truth[:2] = [int(elim[k]), int(place[k])]
                kc.continuous_loops(
                    alive, weak, strong, xr, lay.see, s.geometry.size, one[2], whole,
                    kc.NO_BOUND, work, out, res,
                )  # fmt: skip
                truth[2] = int(res[0])
                for row in (2,) if group == 1 else (0, 1, 2):  # Y-cycles: no forcing chains
                    if truth[row] < 0:
                        continue
                    for lower in (kept, *bounded):
                        assert truth[row] >= lower[row, k], (group, row, k)
                        held += 1
                        tight += truth[row] == lower[row, k]
    _forget_static()
    assert held > 400 and tight > 100, (held, tight)


def test_static_shortcut_refuses_marks_that_are_not_a_subset() -> None:
    s = _quiet()[0]
    cc = tables(s.geometry).column_candidates
    alive = s.alive().astype(np.int8)
    more = alive.copy()
    more[int(np.flatnonzero(alive == 0)[0])] = 1
    assert se_order._new_strong_link(more, alive, cc)
    assert se_order._new_strong_link(alive, alive[:0], cc)


@pytest.mark.parametrize("seed", [5, 6])
def test_plus_net_offshoots_resumed_find_what_a_full_scan_finds(seed: int) -> None:
    """One net's pauses: marks that only lose candidates, each pause's removals
    made before the next. The snapshots kept from pause to pause must give the
    removals that a scan of every pattern gives (a scan from marks with every
    candidate, whose parents differ but whose removals are the same)."""
    rng = np.random.default_rng(seed)
    compared = found = 0
    for s in _quiet()[::4]:
        g = s.geometry
        lay = se_order._layout(g)
        alive = s.alive().astype(np.int8)
        everything = np.ones_like(alive)
        vals = s.values.astype(np.int64)
        kept, fresh = work_arrays(g.ncells, g.size), work_arrays(g.ncells, g.size)
        new_net(kept)
        grid = alive.copy()
        for _pause in range(6):
            live = np.flatnonzero(grid)
            grid[rng.choice(live, int(rng.integers(1, 4)), replace=False)] = 0
            args = (vals, g.size, lay.units, lay.ukind, lay.member, lay.cross, PLUS_TECHNIQUES)
            n = int(offshoots(grid, alive, *args, kept))
            new_net(fresh)
            m = int(offshoots(grid, everything, *args, fresh))
            assert kept[4][:n].tolist() == fresh[4][:m].tolist()
            assert kept[5][:n].tolist() == fresh[5][:m].tolist()
            compared += 1
            found += n > 0
            grid[kept[4][:n]] = 0  # the net makes every removal before its next pause
    assert compared >= 30 and found > 5, (compared, found)


def _nishio(s: CandidateState, since: CandidateState | None) -> tuple[object, ...] | None:
    """The Nishio hint on ``s``: searched in full, or resumed from ``since``."""
    kept = se_order._NO_HINT.__dict__.setdefault("nishio", {})
    kept.pop(s.geometry, None)
    if since is not None:
        kept[s.geometry] = since.alive().astype(np.int8)
    step = se_order._nishio(s.copy())
    kept.pop(s.geometry, None)
    return None if step is None else (step.complexity, step.eliminations, step.placements)


def test_nishio_resumed_finds_what_a_full_search_finds() -> None:
    """Nishio's nets read one digit each: resumed, only the digits that lost a
    candidate are searched, and the first least complex contradiction must
    be the full search's."""
    rng = np.random.default_rng(7)
    compared = found = 0
    for s in _quiet()[::2]:
        if _nishio(s, None) is not None:
            continue
        for r in (1, 2):
            g = _less(s, rng, r)
            full = _nishio(g, None)
            assert _nishio(g, s) == full, r
            compared += 1
            found += full is not None
        g = _less_digit(s, rng, int(rng.integers(s.geometry.size)), 3)
        assert _nishio(g, s) == _nishio(g, None)
    assert compared > 20 and found > 5, (compared, found)


def _static_links(cc: np.ndarray, alive: np.ndarray) -> list[set[int]]:
    """Each literal's static links (``k`` true, ``ncand + k`` false), read from
    the exact-cover columns: a true candidate makes every other live one of
    its columns false; a false one makes true the other of a column of two."""
    ncand = alive.size
    out: list[set[int]] = [set() for _ in range(2 * ncand)]
    for row in cc.tolist():
        live = [k for k in row if k >= 0 and alive[k]]
        for k in live:
            out[k] |= {ncand + q for q in live if q != k}
            if len(live) == 2:
                out[ncand + k] |= {q for q in live if q != k}
    return out


def test_static_nets_are_trees_of_sound_links_closed_or_stopped_at_a_contradiction() -> None:
    """SE's static nets (its 8.0 cell and region forcing chains) are counted by
    path, with no ancestor sets: checked here against the links themselves,
    read from the exact-cover columns in Python. Every literal reached but the
    premise has an earlier parent one ancestor shorter and a link to it (true
    to false in a shared column; false to true in a column of two live
    candidates); a net without a contradiction is closed under the links; a
    contradiction's complexity is the two ancestor counts that meet added."""
    checked = stopped = 0
    for s in _quiet()[::2]:
        alive = s.alive().astype(np.int8)
        ncand = alive.size
        links = _static_links(tables(s.geometry).column_candidates, alive)
        prem = np.flatnonzero(alive).astype(np.int32)
        anc, absurd, _n, order, reached, nreached = se_order._propagate(s, prem, False, True)
        for i in range(prem.size):
            lits = reached[i, : nreached[i]].tolist()
            assert lits[0] == prem[i] and anc[i, lits[0]] == 1
            for pos, lit in enumerate(lits[1:], 1):
                assert order[i, lit] == pos
                assert any(anc[i, p] == anc[i, lit] - 1 and lit in links[p] for p in lits[:pos]), (
                    i,
                    lit,
                )
            got = set(lits)
            if absurd[i] < 0:
                assert all(links[p] <= got for p in lits)
                assert not any(lit + ncand in got for lit in lits if lit < ncand)
                checked += 1
                continue
            meets = [
                anc[i, p] + 1 + anc[i, (q + ncand) % (2 * ncand)]
                for p in lits
                for q in links[p]
                if (q + ncand) % (2 * ncand) in got
            ]
            assert absurd[i] in meets, i
            stopped += 1
    assert checked > 50 and stopped > 5, (checked, stopped)


def test_on_cycles_marks_the_candidates_whose_true_literal_returns_to_itself() -> None:
    """The loop searches start only at candidates on a cycle of the links
    (Tarjan's components, :func:`~csp_sudoku._kernels.se_chains.on_cycles`):
    checked against a plain search from each "k true" over the links read
    from the exact-cover columns, for each of SE's three lists of links."""
    from csp_sudoku._kernels import se_chains as kc

    marked = unmarked = 0
    for s in _quiet()[::9]:
        lay = se_order._layout(s.geometry)
        cc = tables(s.geometry).column_candidates
        alive = s.alive().astype(np.int8)
        ncand = alive.size
        weak_x, weak_xy, strong_x, strong_xy, strong_y = kc.static_tables(
            alive, cc, lay.corder, lay.ncellcols
        )
        for weak, strong in ((weak_x, strong_x), (weak_xy, strong_y), (weak_xy, strong_xy)):
            succ: list[list[int]] = [[] for _ in range(2 * ncand)]
            for k in range(ncand):
                succ[k] = [ncand + int(q) for q in weak[1][weak[0][k] : weak[0][k + 1]]]
                succ[ncand + k] = [int(q) for q in strong[1][strong[0][k] : strong[0][k + 1]]]
            cycles = np.empty(ncand, dtype=np.int8)
            comp = np.empty(2 * ncand, dtype=np.int32)
            kc.components(weak, strong, comp)
            n = kc.on_cycles(comp, cycles)
            assert n == int(cycles.sum())
            for k in np.flatnonzero(alive).tolist():
                seen, todo = set(), list(succ[k])
                while todo and k not in seen:
                    x = todo.pop()
                    if x not in seen:
                        seen.add(x)
                        todo += succ[x]
                assert bool(cycles[k]) == (k in seen), k
                # a path never leads to a component of a higher number
                assert all(comp[x] <= comp[k] for x in seen), k
                marked += k in seen
                unmarked += k not in seen
    assert marked > 100 and unmarked > 100, (marked, unmarked)


def _templates_by_hand(s: CandidateState, d: int) -> tuple[int, list[int]]:
    """Digit ``d``'s templates on ``s``, listed by brute force: one live place
    in each row that lacks ``d``, each unit lacking ``d`` holding exactly one
    (the units read from the geometry, not from the kernel's columns)."""
    import itertools

    g = s.geometry
    units = [[c for c in row if c >= 0] for row in g.units.tolist()]
    lacking = [u for u in units if all(int(s.values[c]) != d + 1 for c in u)]
    rows = [u for u, kind in zip(units, g.unit_kinds, strict=True) if kind == "row"]
    places = [
        [c for c in row if s.values[c] == 0 and int(s.masks[c]) >> d & 1]
        for row in rows
        if row in lacking
    ]
    hits = [0] * g.ncells
    count = 0
    for pick in itertools.product(*places):
        if all(sum(c in u for c in pick) == 1 for u in lacking):
            count += 1
            for c in pick:
                hits[c] += 1
    return count, hits


def test_digit_templates_are_those_listed_by_hand() -> None:
    """Nishio's filter counts each digit's templates, and how many hold each
    cell, as a brute-force listing does (on marks before SE's chain steps,
    and on those less random candidates)."""
    from csp_sudoku._kernels import se_chains as kc

    rng = np.random.default_rng(21)
    checked = with_templates = 0
    for s in _quiet()[::4]:
        for g in (s, _less(s, rng, 6)):
            lay = se_order._layout(g.geometry)
            rows = np.flatnonzero(lay.ukind == 1).astype(np.int32)
            alive = g.alive().astype(np.int8)
            hits = np.empty(g.geometry.ncells, dtype=np.int32)
            for d in range(g.geometry.size):
                sizes = [
                    int(np.count_nonzero(g.digit_bits()[row, d])) for row in g.geometry.units[rows]
                ]
                if np.prod([x for x in sizes if x]) > 5000:
                    continue
                count = kc.digit_templates(
                    alive, g.values, g.geometry.size, d, lay.units, rows, lay.corder,
                    lay.ncellcols, 10**6, hits,
                )  # fmt: skip
                want, want_hits = _templates_by_hand(g, d)
                assert count == want, d
                if count:
                    assert hits.tolist() == want_hits, d
                checked += 1
                with_templates += count > 0
    assert checked > 300 and with_templates > 300, (checked, with_templates)


def test_nishio_premises_left_out_meet_no_contradiction() -> None:
    """Every Nishio net that meets a contradiction starts from a premise the
    template filter keeps (``_may_contradict``), on marks before SE's chain
    steps and on those less random candidates (which make many
    contradictions); and the filter leaves out most premises."""
    rng = np.random.default_rng(22)
    contradictions = kept = total = 0
    for s in _quiet()[::3]:
        for g in (s, _less(s, rng, 4), _less(s, rng, 10)):
            alive = g.alive().astype(np.int8)
            prem = se_order._premises(alive, True)
            absurd = se_order._propagate(g, prem, True, False, counts=False)[1]
            keep = se_order._may_contradict(g, alive, prem)
            assert keep[absurd >= 0].all()
            contradictions += int(np.count_nonzero(absurd >= 0))
            kept += int(np.count_nonzero(keep))
            total += prem.size
    assert contradictions > 500 and kept < total / 10, (contradictions, kept, total)


def test_x_chains_act_only_where_the_templates_allow() -> None:
    """Where every live candidate lies in some templates of its digit but not
    in all, the static family's forcing X-chains and X-loops (one digit's
    links) remove and place nothing, and no strong-linked fish removes
    anything, so the replay skips them (``_one_digit_may_act``,
    ``_strong_links``): each searched here in full, on marks before SE's
    chain steps and on those less random candidates; enough of them must
    find one, and every such removal or placement must be one the templates
    allow."""
    from csp_sudoku._kernels import se_chains as kc

    rng = np.random.default_rng(23)
    found = quiet = fishes = 0
    for s in _quiet()[::2]:
        for g in (s, _less(s, rng, 3), _less(s, rng, 8)):
            lay = se_order._layout(g.geometry)
            cc = tables(g.geometry).column_candidates
            alive = g.alive().astype(np.int8)
            weak_x, _w, strong_x, _s, _y = kc.static_tables(alive, cc, lay.corder, lay.ncellcols)
            lower = np.zeros((3, alive.size), dtype=np.int64)
            whole = np.zeros(2 * alive.size, dtype=np.int32)
            elim = np.empty(alive.size, dtype=np.int32)
            place = np.empty(alive.size, dtype=np.int32)
            kc.forcing_chains(alive, weak_x, strong_x, kc.NO_BOUND, lower, whole, elim, place)
            work, out = kc.loop_work_arrays(alive.size)
            res = np.empty(2, dtype=np.int64)
            kc.continuous_loops(
                alive, weak_x, strong_x, True, lay.see, g.geometry.size, lower[2], whole,
                kc.NO_BOUND, work, out, res,
            )  # fmt: skip
            none, every = se_order._template_verdicts(g, alive)
            acts = bool((elim >= 0).any() or (place >= 0).any() or res[0] >= 0)
            assert none[elim >= 0].all() and every[place >= 0].all()
            if res[0] >= 0:  # the loop's removals
                assert all(none[q] for q in out[3][: int(res[1])].tolist())
            if acts:
                assert se_order._one_digit_may_act(g, alive)
                found += 1
            quiet += not se_order._one_digit_may_act(g, alive)
            # the strong-linked fishes too: each removal one that no template holds
            size = g.geometry.size
            best = np.zeros((7, 3), dtype=np.int32)
            cells = np.empty((7, g.geometry.ncells), dtype=np.int32)
            memo = kp.fish_memo(g.geometry.ncells, size, 6)
            kp.strong_links(
                alive, size, 2, 6, lay.units, lay.ukind, lay.cell_line, lay.see_bits, memo,
                cells, best,
            )  # fmt: skip
            for n in range(2, 7):
                _tenths, ne, d = best[n].tolist()
                assert all(none[c * size + d] for c in cells[n, :ne].tolist()), n
                fishes += ne > 0
    assert found > 80 and quiet > 50 and fishes > 200, (found, quiet, fishes)
