"""The inventing generator: outputs are unique, new, truly minimal, reproducible.

Uniqueness and minimality are checked with the independent solver of
tests/independent.py (it shares no code with the library); novelty with
canonical keys. Targets are easy (SE ER >= 3, rounds levels) and budgets small,
so these tests stay fast; no timing is asserted.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections import Counter
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import csp_sudoku as cs
from csp_sudoku.cli import main
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators import generate, generate_quotas
from csp_sudoku.generators.anneal import AnnealStats, Found, anneal
from csp_sudoku.generators.hsolve_gen import SEED_BANK
from csp_sudoku.generators.minimal import checker_for
from csp_sudoku.generators.novelty import KeySet, default_keys, keys_of_lines
from csp_sudoku.generators.search import SearchSettings
from csp_sudoku.generators.targeting import make_target
from csp_sudoku.metrics import rate
from csp_sudoku.tools.canonical import canonical_key
from tests.independent import check_solution, count_solutions


def _independent_minimal(cells: np.ndarray) -> bool:
    """No single clue can be removed (independent solver)."""
    work = [int(v) for v in np.asarray(cells).reshape(-1)]
    for i, v in enumerate(list(work)):
        if v:
            work[i] = 0
            if count_solutions(work, limit=2) == 1:
                return False
            work[i] = v
    return True


def _anneal(n: int, seed: int, **kw: object) -> list[cs.generators.Generated]:
    return list(
        generate(n, score_range=(3.0, math.inf), metric="se", method="anneal", seed=seed, **kw)  # type: ignore[arg-type]
    )


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_anneal_outputs_unique_minimal_new(seed: int) -> None:
    got = _anneal(2, seed)
    assert len(got) == 2
    keys = default_keys()
    canon = set()
    for g in got:
        assert g.method == "anneal"
        assert g.ratings["se"].score >= 3.0
        assert count_solutions(g.puzzle.cells, limit=2) == 1
        assert g.minimal is _independent_minimal(g.puzzle.cells) is True
        assert keys.is_new(g.puzzle.cells)  # not a bundled / seed-bank puzzle
        canon.add(canonical_key(g.puzzle))
    assert len(canon) == 2  # no repeats, up to isomorphism


def test_anneal_same_seed_same_output() -> None:
    a = [g.puzzle.to_line() for g in _anneal(2, 11)]
    b = [g.puzzle.to_line() for g in _anneal(2, 11)]
    assert a == b


def test_seed_bank_is_avoided() -> None:
    keys = default_keys()
    assert not any(keys.is_new(cs.parse(line).cells) for line in SEED_BANK)


def test_avoid_file_is_never_output(tmp_path: Path) -> None:
    first = [g.puzzle for g in generate(2, seed=5, method="random")]
    f = tmp_path / "avoid.txt"
    f.write_text("\n".join(p.to_line() for p in first) + "\n")
    again = [g.puzzle for g in generate(2, seed=5, method="random", avoid=[str(f)])]
    bad = KeySet(base=keys_of_lines(p.to_line() for p in first))
    assert all(bad.is_new(p.cells) for p in again)


def test_no_repeats_in_a_run() -> None:
    got = [canonical_key(g.puzzle) for g in generate(6, seed=2, method="random")]
    assert len(set(got)) == len(got)


def _digits_in_order_met(cells: np.ndarray) -> tuple[int, ...]:
    """The clues with each digit named by the order it is first met (independent of the library)."""
    seen: list[int] = []
    for v in cells.tolist():
        if v and v not in seen:
            seen.append(v)
    return tuple(seen.index(v) + 1 if v else 0 for v in cells.tolist())


@pytest.mark.parametrize("size", [4, 6])
def test_no_repeats_on_other_shapes(size: int) -> None:
    """Shapes other than 9x9 (no canonical form there) never repeat a puzzle, nor a
    relabelling of one: 400 4x4 puzzles of one seed once held a repeat."""
    geo = Geometry.standard(size)
    got = [g.puzzle.cells for g in generate(400 if size == 4 else 60, geometry=geo, seed=1)]
    forms = {_digits_in_order_met(np.asarray(c)) for c in got}
    assert len(forms) == len(got)


def test_symmetric_labels_are_true() -> None:
    for g in generate(3, seed=3, method="random", symmetry="rot180"):
        assert g.minimal is _independent_minimal(g.puzzle.cells)
        assert g.minimal_in_symmetry is True
    for g in generate(2, seed=3, method="random", symmetry="rot180", strict_minimal=True):
        assert g.minimal is True
        assert _independent_minimal(g.puzzle.cells)


def test_pseudo_is_labelled_with_its_seed_board() -> None:
    g = next(iter(generate(1, seed=1, method="pseudo")))
    assert g.method == "pseudo"
    assert g.derived_from in SEED_BANK
    assert g.to_dict()["derived_from"] == g.derived_from


def test_auto_anneals_for_hard_targets() -> None:
    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.generators.target import _Options, _wants_search
    from csp_sudoku.generators.targeting import make_target

    def opts(level: str | None, rng: tuple[float, float] | None) -> _Options:
        return _Options(
            Geometry.standard(9),
            make_target("se", level, rng),
            (),
            "none",
            True,
            "auto",
            "auto",
            None,
            10,
            5,
            None,
        )

    assert _wants_search(opts("extreme", None))
    assert _wants_search(opts(None, (9.0, math.inf)))
    assert not _wants_search(opts("hard", None))


def test_quotas() -> None:
    got = list(generate_quotas({"easy": 1, "hard": 2}, metric="rounds", seed=4, method="random"))
    levels = [g.ratings["rounds"].level.lower() for g in got]
    assert levels.count("easy") == 1 and levels.count("hard") == 2
    # different targets under one seed start from different grids
    assert len({g.solution.to_line() for g in got}) == 3


def test_cli_quotas_and_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc = main(
        [
            "generate",
            "--level",
            "easy=1",
            "--level",
            "medium=1",
            "--metric",
            "rounds",
            "--seed",
            "2",
            "--method",
            "random",
            "--format",
            "jsonl",
            "-q",
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert rc == 0 and len(out) == 2
    assert all(json.loads(x)["minimal"] in (True, False) for x in out)
    assert main(["generate", "--avoid", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    rc = main(["generate", "--level", "bogus=1", "--metric", "se", "-q"])
    assert rc == 2
    assert "extreme" in capsys.readouterr().err  # the valid names are listed


def test_technique_filters() -> None:
    from csp_sudoku.metrics import rate

    got = list(
        generate(
            2,
            seed=6,
            method="random",
            exclude_technique=["Forcing Chain"],
            require_technique=["Hidden Single"],
        )
    )
    for g in got:
        counts = rate(g.puzzle, "se").details["technique_counts"]
        assert not any("forcing chain" in t.lower() for t in counts)
        assert "Hidden Single" in counts
    with pytest.raises(cs.generators.GenerationError, match="choose from"):
        list(generate(1, require_technique=["Telepathy"]))
    assert main(["generate", "--exclude-technique", "Telepathy", "-q"]) == 2


def test_anneal_jobs_same_seed_same_output() -> None:
    a = [g.puzzle.to_line() for g in _anneal(3, 8, jobs=2)]
    b = [g.puzzle.to_line() for g in _anneal(3, 8, jobs=2)]
    assert a == b and len(set(a)) == 3


def test_anneal_resume_runs_new_chains_that_avoid_what_was_written() -> None:
    from csp_sudoku.generators.target import chain_seed

    first = _anneal(2, 8, jobs=2)
    lines = [g.puzzle.to_line() for g in first]
    rest = _anneal(4, 8, jobs=2, start=2, done=lines)
    assert len(rest) == 2
    assert {g.seed for g in rest} <= {chain_seed(8, 2, w) for w in range(3)}
    keys = {canonical_key(g.puzzle) for g in [*first, *rest]}
    assert len(keys) == 4  # nothing written before comes again
    for g in rest:
        assert count_solutions(g.puzzle.cells, limit=2) == 1
    assert [g.puzzle.to_line() for g in _anneal(4, 8, jobs=2, start=2, done=lines)] == [
        g.puzzle.to_line() for g in rest
    ]  # a resumed part depends on the seed and what was written


def test_resume_never_repeats_a_puzzle_of_the_file() -> None:
    """Puzzle 1 of a run, handed in as written before, is not output again (a retry is)."""
    p0, p1 = (g.puzzle.to_line() for g in generate(2, seed=12, method="random"))
    (again,) = generate(2, seed=12, method="random", start=1, done=[p1])
    assert canonical_key(again.puzzle) != canonical_key(cs.parse(p1))
    assert count_solutions(again.puzzle.cells, limit=2) == 1
    (same,) = generate(2, seed=12, method="random", start=1, done=[p0])
    assert same.puzzle.to_line() == p1  # with the real file, what the whole run wrote


def test_chains_that_meet_the_same_puzzles_are_topped_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two chains given one seed make the same puzzles: each is kept once, and one more
    chain (seed ``chain_seed(seed, 0, 2)``) makes the rest, avoiding them all."""
    import csp_sudoku.generators.target as target

    real = target.chain_seed
    monkeypatch.setattr(target, "chain_seed", lambda s, k, w: real(s, k, 0 if w < 2 else w))
    got = _anneal(4, 8, jobs=2)
    assert len(got) == 4 and len({canonical_key(g.puzzle) for g in got}) == 4
    assert [g.seed for g in got] == [8, 8, real(8, 0, 2), real(8, 0, 2)]
    for g in got:
        assert count_solutions(g.puzzle.cells, limit=2) == 1


def _anneal_direct(
    seed: int, n: int, target: str = "open", expand: float = 0.9, low: float = 3.0, **kw: int | None
) -> tuple[list[Found], AnnealStats]:
    """``n`` outputs of :func:`anneal` itself, and its stats."""
    geo = Geometry.standard(9)
    tgt = (
        make_target("se", None, (low, math.inf))  # open above: the vicinity search runs
        if target == "open"
        else make_target("se", "hard", None)  # closed: it never does
    )
    st = AnnealStats()
    inputs = {k: kw.pop(k) for k in ("max_chains", "per_grid") if k in kw}  # the rest: settings
    it = anneal(
        geo,
        tgt,
        np.random.default_rng(seed),
        checker_for(geo),
        default_keys(),
        stats=st,
        settings=SearchSettings(expand=expand, **kw),
        **inputs,
    )
    return list(islice(it, n)), st


def test_vicinity_outputs_unique_minimal_new() -> None:
    got, st = _anneal_direct(5, 6, expand=0.9)
    assert len(got) == 6 and st.vicinity > 0
    assert any(f.vicinity for f in got)  # some came from the vicinity search
    keys = default_keys()
    canon = set()
    for f in got:
        assert f.rating.score >= 3.0
        assert count_solutions(f.clues, limit=2) == 1
        assert _independent_minimal(f.clues)
        assert keys.is_new(f.clues)
        canon.add(canonical_key(cs.Puzzle(f.clues)))
    assert len(canon) == 6


def test_vicinity_same_seed_same_output() -> None:
    a, _ = _anneal_direct(4, 5, expand=0.9)
    b, _ = _anneal_direct(4, 5, expand=0.9)
    assert [f.clues.tobytes() for f in a] == [f.clues.tobytes() for f in b]


def test_a_stalled_search_starts_over_the_same_way_for_a_seed() -> None:
    """At the hard end, before any hit, a search whose best state has not improved
    for ``renew`` steps starts over from a fresh puzzle; the fresh starts are part
    of the seeded run (the same steps again), and ``renew=None`` never makes one."""

    def run(renew: int | None, **kw: int) -> tuple[int, int, int, float]:
        got, st = _anneal_direct(6, 1, low=20.0, elite_size=4, renew=renew, deepen=None, **kw)
        assert got == []  # no puzzle rates 20: the search only climbs
        return st.steps, st.renewals, st.rated, st.best

    first = run(10, max_chains=3)
    assert first[1] >= 1
    assert run(10, max_chains=3) == first
    assert run(None, max_chains=2, patience=5, expand=0)[1] == 0


def test_forgetting_the_quick_tests_verdicts_changes_no_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search remembers which clue sets the quick test cleared, up to
    ``_CLEARED_MAX`` of them, then forgets them all (a long search meets
    millions): a clue set met again is tested again, with the same answer, so
    the search takes the same steps."""
    import csp_sudoku.generators.search.rating as rating_mod

    def run() -> tuple[tuple[int, int, int, float], int]:
        got, st = _anneal_direct(6, 1, low=20.0, elite_size=4, renew=10, deepen=None, max_chains=3)
        assert got == []
        return (st.steps, st.renewals, st.rated, st.best), st.cleared

    kept, cleared = run()
    assert cleared > 0
    monkeypatch.setattr(rating_mod, "_CLEARED_MAX", 1)
    assert run()[0] == kept


def test_vicinity_only_when_asked_and_open_above() -> None:
    got, st = _anneal_direct(5, 3, expand=0.0)
    assert st.vicinity == 0 and not any(f.vicinity for f in got)
    got, st = _anneal_direct(5, 3, target="hard", expand=1.0)
    assert st.vicinity == 0 and not any(f.vicinity for f in got)
    for f in got:
        assert count_solutions(f.clues, limit=2) == 1 and _independent_minimal(f.clues)


def test_floor_of_a_target_is_the_greatest_score_too_easy_for_it() -> None:
    assert make_target("se", "extreme", None).floor() == 9.0
    assert make_target("se", ("diabolical", "extreme"), None).floor() == 7.0
    assert make_target("se", None, (9.2, math.inf)).floor() == pytest.approx(9.1)
    assert make_target("se", "extreme", (9.2, math.inf)).floor() == pytest.approx(9.1)
    assert make_target("se", "hard", None).floor() is None  # closed above
    assert make_target("se", None, (7.0, 9.0)).floor() is None
    assert make_target("rounds", "fiendish", None).floor() is None  # no score bands
    assert make_target("dependency", None, (0.0, 0.5)).floor() is None  # lower is harder


def test_the_quick_test_changes_no_step_of_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Vicinity moves the metric's quick test clears are not rated: each is rated at
    most the limit it was cleared at (rated in full here), and the search, which
    would have done nothing with them, yields the same puzzles as without the test."""
    import csp_sudoku.generators.search.rating as rating_mod

    cleared: list[tuple[np.ndarray, float]] = []
    real = rating_mod._within

    def recording(metric: str, thorough: bool = False) -> object:
        test = real(metric, thorough)
        assert test is not None

        def within(p: cs.Puzzle, limit: float, solution: cs.Puzzle | None = None) -> bool:
            if solution is not None:  # the search hands the test the puzzle's own solution
                assert check_solution(solution.cells, p.cells)
            ok = test(p, limit, solution)
            if ok:
                cleared.append((np.asarray(p.cells).copy(), limit))
            return ok

        return within

    # from SE 7.5: moves that singles solve are cleared (the test's contradiction
    # chains, 8.5 and up, are above the target's floor of 7.4)
    monkeypatch.setattr(rating_mod, "_within", recording)
    got, st = _anneal_direct(3, 12, expand=0.9, low=7.5, elite_size=4)
    assert st.cleared == len(cleared) > 0
    for cells, limit in cleared:
        assert limit <= 7.4 and rate(cs.Puzzle(cells), "se").score <= limit
    monkeypatch.setattr(rating_mod, "_within", lambda metric, thorough=False: None)
    plain, st_plain = _anneal_direct(3, 12, expand=0.9, low=7.5, elite_size=4)
    assert st_plain.cleared == 0 and st_plain.rated > st.rated
    assert [f.clues.tobytes() for f in got] == [f.clues.tobytes() for f in plain]


def test_per_grid_caps_the_outputs_of_each_solution_grid() -> None:
    """With ``per_grid``, no solution grid gives more than its share: the search
    leaves a grid's hits and goes on elsewhere (without it, one grid gives most)."""
    got, _ = _anneal_direct(3, 12, expand=0.9, low=7.5, per_grid=2)
    assert len(got) == 12
    per: dict[bytes, int] = {}
    for f in got:
        assert count_solutions(f.clues, limit=2) == 1 and _independent_minimal(f.clues)
        per[f.solution.tobytes()] = per.get(f.solution.tobytes(), 0) + 1
    assert max(per.values()) <= 2 and len(per) >= 6
    free, _ = _anneal_direct(3, 12, expand=0.9, low=7.5)
    assert max(Counter(f.solution.tobytes() for f in free).values()) > 2


def test_max_per_grid_is_checked_before_any_search(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(cs.generators.GenerationError, match="max_per_grid"):
        next(generate(1, level="extreme", metric="se", max_per_grid=0))
    assert main(["generate", "--level", "extreme", "--metric", "se", "--max-per-grid", "0"]) == 2
    assert "--max-per-grid" in capsys.readouterr().err
    # a method that makes every puzzle on a fresh grid has no family to cap: refused,
    # not ignored
    with pytest.raises(cs.generators.GenerationError, match="hard-end search"):
        next(generate(1, max_per_grid=3, seed=1))
    assert main(["generate", "-n", "1", "--max-per-grid", "3", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert "--max-per-grid" in captured.err and captured.out == ""


def test_a_count_beside_per_level_quotas_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """-n 5 with --level hard=1 made one puzzle: the count was ignored in silence."""
    assert main(["generate", "-n", "5", "--level", "Hard=1", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert "--count 5 and per-level quotas" in captured.err and captured.out == ""
    assert main(["generate", "--level", "Easy=1", "--seed", "1", "-q"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_a_generated_row_says_when_its_rating_is_an_estimate() -> None:
    """The JSON row of a puzzle whose se rating used steps beyond the replayed
    nesting (an estimate) carries ``estimated``; other rows are as before, a
    forum-hardest puzzle's (SE's nested chains, replayed) included."""
    import dataclasses

    hardest = ".......1......4.32.2..3.5.......7....4..2...5..89..4....78..6...3..1..5.9........"
    g = next(iter(generate(1, rate_with=("se",), seed=1)))
    plain = g.to_dict()["ratings"]["se"]
    assert set(plain) == {"score", "level", "level_rank"}  # replayed: no mark
    nested = rate(hardest, "se")
    row = dataclasses.replace(g, ratings={"se": nested}).to_dict()["ratings"]["se"]
    assert set(row) == {"score", "level", "level_rank"} and row["score"] >= 9.5
    marked = dataclasses.replace(nested, details={**nested.details, "estimated": True})
    est = dataclasses.replace(g, ratings={"se": marked}).to_dict()["ratings"]["se"]
    assert est["estimated"] is True and est["score"] == nested.score


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"require_technique": ["X-Wing"], "exclude_technique": ["x-wing"]}, "excluded too"),
        (
            {"require_technique": ["Forcing Chains"], "exclude_technique": ["Dynamic", "Forcing"]},
            "excluded too",
        ),
        ({"metric": "se", "level": "easy", "require_technique": ["X-Wing"]}, "3.2 or more"),
        (
            {"metric": "se", "score_range": (4.0, 8.4), "require_technique": ["Dynamic"]},
            "8.5 or more",
        ),
        (
            {"metric": "se", "score_range": (5.0, 6.0), "exclude_technique": ["Strong Links"]},
            None,
        ),
        (
            {"metric": "se", "score_range": (10.5, 11.0), "exclude_technique": ["Chain", "Cycle"]},
            "is excluded",
        ),
        ({"metric": "se", "level": "easy", "score_range": (5.0, math.inf)}, "no se score"),
        ({"max_clues": 16}, "fewest clues"),
        (
            {"metric": "hsolve", "level": "hard", "geometry": cs.Geometry.standard(4)},
            "every 4x4 puzzle is 'unrated'",
        ),
        ({"minimal": False, "strict_minimal": True, "symmetry": "rot180"}, "one or the other"),
        ({"max_clues": 3, "geometry": cs.Geometry.standard(4)}, "fewest clues"),
    ],
)
def test_options_no_puzzle_can_meet_are_refused_before_any_search(
    options: dict[str, Any], why: str | None
) -> None:
    """Technique filters and clue bounds that no puzzle can pass are a
    GenerationError at the first ``next``, saying why, instead of a search that
    runs until its budget ends; a filter some puzzle can pass is not refused."""
    stream = generate(1, seed=1, method="random", budget_seconds=0.5, **options)
    if why is None:  # searched: a puzzle, or the budget's end
        with contextlib.suppress(cs.generators.BudgetExhaustedError):
            assert next(stream).puzzle is not None
        return
    # refused at once: a search would have ended with BudgetExhaustedError instead
    with pytest.raises(cs.generators.GenerationError, match=re.escape(why)):
        next(stream)


def test_quotas_check_the_filters_of_every_level_first() -> None:
    """``generate_quotas`` refuses a filter that one level cannot pass before it
    searches any level (the easy level is first, the impossible one second)."""
    from csp_sudoku.generators import generate_quotas

    stream = generate_quotas(
        [("diabolical", 1), ("easy", 1)], metric="se", seed=1, require_technique=["XY-Wing"]
    )
    with pytest.raises(cs.generators.GenerationError, match=r"4\.2 or more"):
        next(stream)


def test_a_level_with_two_quotas_is_refused() -> None:
    """``--level hard=2 --level Hard=3`` ran level hard twice on one seed (the
    second run repeating the first's puzzles); now it says which level."""
    from csp_sudoku.generators import generate_quotas

    with pytest.raises(cs.generators.GenerationError, match="'Hard' has two quotas"):
        next(generate_quotas([("hard", 2), ("Hard", 3)], seed=1))
    assert main(["generate", "--level", "hard=1", "--level", "hard=1", "-q"]) == 2


def test_a_jigsaw_with_no_full_grid_is_refused_not_searched_for_ever() -> None:
    """Two cells swapped between the first two boxes of row 1 leave regions no
    grid can fill (CP-SAT agrees: the empty grid has no solution; the check
    itself asks the SAT backend); ``generate`` and ``random_grid`` say so
    instead of restarting the grid sampler for ever. A jigsaw that has grids is
    generated on, and its rows carry its regions."""
    from csp_sudoku.generators.grids import random_grid

    labels = [[(r // 3) * 3 + c // 3 for c in range(9)] for r in range(9)]
    labels[0][2], labels[0][3] = 1, 0
    closed = cs.Geometry.jigsaw(labels)
    assert cs.get_backend("cpsat").solutions(np.zeros(81, dtype=np.int8), closed, 1) == []
    with pytest.raises(cs.GeometryError, match="has no full grid"):
        next(generate(1, seed=1, geometry=closed))
    with pytest.raises(cs.GeometryError, match="has no full grid"):
        random_grid(closed, seed=1)
    labels[0][2], labels[0][3] = 0, 1  # back to boxes ...
    labels[4][2], labels[7][5] = 7, 3  # ... then a swap that leaves grids
    (g,) = generate(1, seed=1, geometry=cs.Geometry.jigsaw(labels))
    assert g.puzzle.geometry.regions is not None and g.to_dict()["regions"]


def test_target_bounds_are_the_se_level_bands_and_the_score_range() -> None:
    """SE's levels are bands of its ER (docs/metrics.md): easy up to 2.0, extreme
    above 9.0; a score range narrows them; a metric whose levels are not bands
    of its score is bounded by its range alone."""
    from csp_sudoku.generators.targeting import make_target

    assert make_target("se", "easy", None).bounds() == (0.0, 2.0)
    assert make_target("se", ["medium", "hard"], None).bounds() == (2.0, 5.0)
    assert make_target("se", "extreme", (9.5, 11.0)).bounds() == (9.5, 11.0)
    assert make_target("se", None, (3.0, 4.0)).bounds() == (3.0, 4.0)
    assert make_target("rounds", "hard", None).bounds() == (-math.inf, math.inf)


def test_random_method_at_the_hard_end_rates_only_what_the_quick_test_cannot_clear(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``method="random"`` at SE extreme tests each random puzzle at the floor first:
    of some thousands of attempts only a handful are rated in full, and the output
    is rated above the floor by a rating made apart from the run."""
    from csp_sudoku.generators import target as target_mod

    rated: list[int] = []
    real = target_mod._rate

    def counted(*args: Any, **kwargs: Any) -> Any:
        rated.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(target_mod, "_rate", counted)
    (g,) = generate(1, level="extreme", metric="se", method="random", seed=7)
    assert cs.rate(g.puzzle, "se").score > 9.0
    assert g.attempts >= 100  # random minimal puzzles: about 1 in 4,000 is extreme
    assert len(rated) * 20 <= g.attempts
