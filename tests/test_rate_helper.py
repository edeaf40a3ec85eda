"""A first rating's helper process: same rows, started only when it can help."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

import csp_sudoku as cs
from csp_sudoku.cli import main
from csp_sudoku.metrics import _helper, rate
from tests.conftest import load_lines, python_output

EVERY = ["hsolve", "rounds", "mdrt", "oracle", "refutation", "dependency", "se", "combined"]


def test_rows_with_a_helper_are_the_rows_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced to start (the test's numba cache is warm), the helper rates the second
    group in its own process; the rows are those of one rate() call per metric,
    in the order asked."""
    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER", raising=False)
    monkeypatch.setattr(_helper, "_cold_and_writable", lambda: True)
    started: list[object] = []
    real_start = _helper._start

    def spy(*args: object) -> object:
        helper = real_start(*args)  # type: ignore[arg-type]
        started.append(helper)
        return helper

    monkeypatch.setattr(_helper, "_start", spy)
    p = cs.parse(load_lines("top1465.txt", limit=1)[0])
    order = ["se", "hsolve", "combined", "rounds", "oracle"]
    rows = _helper.rate_all(p, order, runs=None, seed=7, params={})
    assert started and started[0] is not None
    assert started[0].returncode == 0  # type: ignore[attr-defined]
    assert rows == [rate(p, m, seed=7).to_dict() for m in order]  # type: ignore[arg-type]


def test_no_helper_when_it_cannot_help(monkeypatch: pytest.MonkeyPatch) -> None:
    """One group only, a warm cache, another geometry, --runs or --param, or the
    switch: no process is started."""
    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER", raising=False)
    p = cs.parse(load_lines("top1465.txt", limit=1)[0])
    rate(p, "rounds", seed=1)  # both probe kernels compiled, so in numba's cache
    rate(p, "se", seed=1)
    files = _helper._probe_files()  # raises, failing this test, on a numba that renamed them
    assert all(os.path.exists(index) for index, _ in files)  # warm: so no helper
    assert not _helper._cold_and_writable()
    monkeypatch.setattr(_helper, "_cold_and_writable", lambda: True)
    assert _helper._start(p, ["hsolve", "oracle", "combined"], 1) is None
    assert _helper._start(p, ["se", "rounds", "combined"], 1) is None
    big = next(iter(cs.generate(1, geometry=cs.Geometry.standard(4), seed=1))).puzzle
    assert _helper._start(big, EVERY, 1) is None
    monkeypatch.setenv("CSP_SUDOKU_NO_HELPER", "1")
    assert _helper._start(p, EVERY, 1) is None

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("no helper with --runs or --param")

    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER")
    monkeypatch.setattr(_helper, "_start", fail)
    _helper.rate_all(p, ["oracle", "rounds"], runs=3, seed=1, params={})
    _helper.rate_all(p, ["oracle"], runs=None, seed=1, params={"alpha": -0.1})


def test_cli_rate_rows_are_unchanged(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``csp-sudoku rate`` with and without the helper prints the same rows."""
    p = load_lines("top1465.txt", limit=2)
    args = ["rate", "--seed", "3", "--metric", ",".join(EVERY), *p, "-q"]
    monkeypatch.setenv("CSP_SUDOKU_NO_HELPER", "1")
    assert main(args) == 0
    plain = capsys.readouterr().out
    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER")
    monkeypatch.setattr(_helper, "_cold_and_writable", lambda: True)
    assert main(args) == 0
    assert capsys.readouterr().out == plain


def test_an_empty_numba_cache_is_seen_as_cold(tmp_path: object) -> None:
    """A fresh interpreter on an empty numba cache finds it cold and writable: the
    helper's reading of numba's cache (private) still works with this numba."""
    code = (
        "from csp_sudoku.metrics import _helper\n"
        "files = _helper._probe_files()\n"
        f"assert all(f.startswith({str(tmp_path)!r}) for pair in files for f in pair), files\n"
        "print(_helper._cold_and_writable())"
    )
    assert python_output(code, {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}) == "True"


LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _rate_se(cache: str) -> subprocess.CompletedProcess[str]:
    # no nested helper: its compiling is not what this tests, and would take a core
    return subprocess.run(
        [sys.executable, "-m", "csp_sudoku", "rate", "--metric", "se", "-q", LINE],
        env={**os.environ, "NUMBA_CACHE_DIR": cache, "CSP_SUDOKU_NO_HELPER": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )


class _Called(Exception):
    """Raised by the spy on the kernel: the arguments were seen, nothing is compiled."""


def _nested_types(
    monkeypatch: pytest.MonkeyPatch, call: Callable[[], object]
) -> tuple[object, ...]:
    """numba's types of the arguments ``call`` passes the nets' kernel with the basic
    techniques inside (a spy stands in for the kernel: nothing runs or compiles)."""
    import numba

    from csp_sudoku._kernels import se_chains

    seen: list[tuple[object, ...]] = []

    def spy(*args: object) -> int:
        if args[9] is None:  # nets without the techniques inside: another kernel
            return 0
        seen.append(tuple(numba.typeof(a) for a in args))
        raise _Called

    monkeypatch.setattr(se_chains, "implication_nets", spy)
    with pytest.raises(_Called):
        call()
    return seen[0]


def test_the_nested_helper_compiles_the_kernel_the_rating_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The nested helper's nets have the types of the rating's at every nesting level,
    so a rating loads the kernel the helper cached instead of compiling another."""
    from csp_sudoku.human import se_order
    from csp_sudoku.human.state import CandidateState

    p = cs.parse(load_lines("forum_hardest_1106.txt", limit=1)[0])
    other = cs.parse(load_lines("top1465.txt", limit=1)[0])
    helper = _nested_types(monkeypatch, lambda: se_order.compile_nested_nets(other))
    empty = cs.parse("." * 81)  # what explain's and generate's helpers compile on
    assert _nested_types(monkeypatch, lambda: se_order.compile_nested_nets(empty)) == helper
    for level in (1, 2, 3):
        state = CandidateState.from_puzzle(p)
        rating = _nested_types(monkeypatch, partial(se_order._multiple, state, True, True, level))
        assert rating == helper, level


def test_a_nested_helper_starts_only_when_it_can_help(monkeypatch: pytest.MonkeyPatch) -> None:
    """se (or combined) on a standard 9x9 puzzle, a cold cache, two cores or more, no
    switch and none running: a nested helper starts; otherwise none."""
    from csp_sudoku.human.se_order import compile_nested_nets

    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER", raising=False)
    p = cs.parse(load_lines("top1465.txt", limit=1)[0])
    compile_nested_nets(p)  # in numba's cache now: warm
    files = _helper._probe_files(_helper._NESTED_PROBES)  # raises if numba renamed them
    assert all(os.path.exists(index) for index, _ in files)
    assert _helper._start_nested(p, ["se"]) is None  # warm
    monkeypatch.setattr(_helper, "_cold_and_writable", lambda probes=None: True)
    monkeypatch.setattr(_helper, "_nested", [])
    assert _helper._start_nested(p, ["hsolve", "rounds"]) is None  # no se
    big = next(iter(cs.generate(1, geometry=cs.Geometry.standard(4), seed=1))).puzzle
    assert _helper._start_nested(big, ["se"]) is None
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert _helper._start_nested(p, ["se"]) is None
    monkeypatch.undo()
    monkeypatch.setattr(_helper, "_cold_and_writable", lambda probes=None: True)
    monkeypatch.setattr(_helper, "_nested", [])
    monkeypatch.setenv("CSP_SUDOKU_NO_HELPER", "1")
    assert _helper._start_nested(p, ["se"]) is None
    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER")
    helper = _helper._start_nested(p, ["hsolve", "combined"])
    assert helper is not None
    try:
        assert _helper._start_nested(p, ["se"]) is None  # one runs already
        assert helper.wait(timeout=120) == 0  # the kernel is cached: it loads it and ends
    finally:
        _helper._end_nested()


def _fake_helper(seconds: float) -> subprocess.Popen[bytes]:
    """A process that stands for a nested helper compiling for ``seconds``."""
    return subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({seconds})"])


@pytest.mark.parametrize("patience", [None, 0.2])
def test_the_first_nets_with_techniques_wait_for_the_nested_helper(
    monkeypatch: pytest.MonkeyPatch, patience: float | None
) -> None:
    """A rating that reaches the nets the nested helper compiles waits for it to end
    (then loads its kernel), once a process; after ``NESTED_WAIT`` seconds it goes on."""
    from csp_sudoku.human import se_order

    monkeypatch.setattr(_helper, "_cold_and_writable", lambda probes=None: True)
    monkeypatch.setattr(_helper, "_nested", [])
    monkeypatch.setattr(se_order, "BEFORE_FIRST_PLUS", [])
    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER", raising=False)
    if patience is not None:
        monkeypatch.setattr(_helper, "NESTED_WAIT", patience)
    fake = _fake_helper(1.0 if patience is None else 30.0)
    monkeypatch.setattr(_helper, "_spawn", lambda args: fake)
    p = cs.parse(load_lines("top1465.txt", limit=1)[0])
    try:
        assert _helper._start_nested(p, ["se"]) is fake
        assert fake.returncode is None
        se_order.compile_nested_nets(p)
        if patience is None:
            assert fake.returncode == 0  # waited for, to its end
        else:
            assert fake.poll() is None  # still "compiling": the rating went on
        assert se_order.BEFORE_FIRST_PLUS == []  # a second rating does not wait
    finally:
        _helper._end_nested()


def test_rows_with_a_nested_helper_are_the_rows_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """With se alone a first rating starts the nested helper (forced: the cache is
    warm) and rates every metric itself, in the order asked, as rate() does."""
    monkeypatch.delenv("CSP_SUDOKU_NO_HELPER", raising=False)
    monkeypatch.setattr(_helper, "_cold_and_writable", lambda probes=_helper._PROBES: True)
    monkeypatch.setattr(_helper, "_nested", [])
    p = cs.parse(load_lines("forum_hardest_1106.txt", limit=1)[0])
    try:
        rows = _helper.rate_all(p, ["se", "combined"], runs=None, seed=3, params={})
        assert len(_helper._nested) == 1  # no second group: no group helper, a nested one
    finally:
        _helper._end_nested()
    assert rows == [rate(p, m, seed=3).to_dict() for m in ("se", "combined")]


def test_explain_and_generate_with_se_ask_for_the_nested_helper(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``explain`` (the se path) and ``generate`` rating with se ask for the nested
    helper for their shape; the subsets path and another metric do not."""
    asked: list[tuple[int, list[str]]] = []

    def spy(puzzle: cs.Puzzle, metrics: list[str]) -> None:
        asked.append((puzzle.geometry.ncells, metrics))

    monkeypatch.setattr(_helper, "_start_nested", spy)
    line = load_lines("top1465.txt", limit=1)[0]
    assert main(["explain", line]) == 0
    assert asked == [(81, ["se"])]
    assert main(["explain", "--order", "subsets", line]) == 0
    assert len(asked) == 1
    assert main(["generate", "-n", "1", "--metric", "se", "--level", "easy", "--seed", "1"]) == 0
    assert asked[1:] == [(81, ["se"])]
    assert main(["generate", "-n", "1", "--metric", "hsolve", "--seed", "1"]) == 0
    assert len(asked) == 2
    capsys.readouterr()


VARIANTS = str(Path(__file__).resolve().parents[1] / "examples" / "data" / "variants.jsonl")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["explain", "LINE"], "csp-sudoku explain: compiling the solving kernels"),
        # two puzzles, one note for the run
        (["explain", "LINE", "LINE"], "csp-sudoku explain: compiling the solving kernels"),
        (
            ["explain", "--order", "subsets", "LINE"],
            "csp-sudoku explain: compiling the solving kernels",
        ),
        (["generate", "-n", "1", "--seed", "2"], "csp-sudoku generate: compiling kernels"),
        (["minimize", "LINE"], "csp-sudoku minimize: compiling the solver kernels"),
        (["count", "LINE"], "csp-sudoku count: compiling the solver kernels"),
        (["check", VARIANTS], "csp-sudoku check: compiling the variant kernels"),
        (["candidates", VARIANTS], "csp-sudoku candidates: compiling the variant kernels"),
    ],
)
def test_a_first_run_says_that_it_compiles(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    words: str,
) -> None:
    """``explain``, ``generate``, the one-job row commands and the variant commands say once
    on stderr, while numba compiles (here: told so at once by a stand-in for the
    compile watch), why a first run is slow."""
    _compiling_now(monkeypatch)
    line = load_lines("top1465.txt", limit=1)[0]
    assert main([line if a == "LINE" else a for a in argv]) in (0, 1)
    assert _notes(capsys) == [_note(words)]


def _compiling_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand in for the compile watch: it tells at once that numba compiles."""
    import contextlib

    from csp_sudoku import _kernels

    @contextlib.contextmanager
    def compiling_now(after: float, call: Callable[[], None]) -> Iterator[None]:
        call()
        yield

    monkeypatch.setattr(_kernels, "when_compiling", compiling_now)


def _notes(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The compiling notes on stderr since the last read."""
    return [x for x in capsys.readouterr().err.splitlines() if "compiling" in x]


def _note(words: str) -> str:
    """The whole note that begins with ``words``."""
    return (
        f"{words}, up to a minute or two the first time on this machine (cached for later "
        "runs; `csp-sudoku compile --warm` compiles them ahead) ..."
    )


def test_check_says_that_it_compiles_where_it_counts_with_numba(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``check`` gives the note where it counts with numba's kernels: not with those built
    ahead of time, another backend, or a few puzzles (answered in Python)."""
    import contextlib

    from csp_sudoku._kernels import ahead
    from csp_sudoku.backends import small9
    from csp_sudoku.cli import check

    _compiling_now(monkeypatch)
    lines = load_lines("top1465.txt", limit=small9.MAX_BATCH + 8)
    many = tmp_path / "many.txt"
    many.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(ahead, "module", lambda: None)  # none built: numba's kernels
    notes = {}
    for backend, given in [("auto", str(many)), ("fast", lines[0]), ("sat", str(many))]:
        assert main(["check", "--backend", backend, given]) == 0
        notes[backend] = _notes(capsys)
    assert (
        notes["auto"] == notes["fast"] == [_note("csp-sudoku check: compiling the check kernels")]
    )
    assert notes["sat"] == []
    job = check._Job(None, 2, "auto", "text", False)
    note = contextlib._GeneratorContextManager
    assert isinstance(check._saying_when_compiling(job, [str(many)], False), note)
    assert isinstance(check._saying_when_compiling(job, [lines[0]], False), contextlib.nullcontext)
    monkeypatch.setattr(ahead, "module", lambda: object())  # built: no numba, no note
    assert isinstance(check._saying_when_compiling(job, [str(many)], False), contextlib.nullcontext)


def test_a_first_rating_says_once_that_it_compiles(tmp_path: object) -> None:
    """On an empty numba cache (seconds of compiling) one line says so; once cached, none."""
    cold = _rate_se(str(tmp_path))
    assert cold.stderr.splitlines() == [_helper.COMPILING_NOTE]
    warm = _rate_se(str(tmp_path))
    assert warm.stderr == "" and warm.stdout == cold.stdout


def test_compile_warm_runs_the_variant_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compile --warm``'s variant part runs the variant search's kernels (the search and
    the candidates' propagation), so a first variant ``check`` does not compile them."""
    from csp_sudoku._kernels import variants as variant_kernels
    from csp_sudoku.cli.compile import WARM_PARTS, _warm

    called: list[str] = []
    for name in ("run", "root"):
        kernel = getattr(variant_kernels, name)

        def spy(*args: object, _kernel: object = kernel, _name: str = name) -> object:
            called.append(_name)
            return _kernel(*args)  # type: ignore[operator]

        monkeypatch.setattr(variant_kernels, name, spy)
    assert "variants" in WARM_PARTS
    assert _warm("variants") == ""
    assert {"run", "root"} <= set(called), called


def test_compile_warm_rates_with_se(
    built_kernels: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``compile --warm`` (what scripts/setup.sh runs) rates a hard puzzle with se."""
    from csp_sudoku._kernels import ahead

    monkeypatch.setenv(ahead.DIR_ENV, str(built_kernels))
    assert main(["compile", "--warm"]) == 0
    out = capsys.readouterr().out
    from csp_sudoku.cli.compile import WARM_PUZZLE
    from csp_sudoku.metrics import rate

    score = rate(WARM_PUZZLE, "se").score
    # one of the hardest: its rating runs the chains nested at level 3 too
    assert rate(WARM_PUZZLE, "se").details["hardest"].endswith("(+ Multiple Forcing Chains)")
    assert f"warmed: numba's kernels of the se metric (a puzzle rated {score:g})" in out
    assert "the hard-end search's included" in out
    # its parts ran in worker processes: a process of its own finds the search's
    # move and quick test, an hsolve kernel, the human model's chains and the variant
    # search (another puzzle, other kinds) in numba's cache
    check = (
        "import numpy as np, csp_sudoku as cs\n"
        "from csp_sudoku import variants\n"
        "from csp_sudoku._kernels import chains, moves, se_chains, strategies\n"
        "from csp_sudoku._kernels import variants as variant_kernels\n"
        "from csp_sudoku.variants.random import random_variant\n"
        "from csp_sudoku.cli.compile import WARM_PUZZLE\n"
        "from csp_sudoku.generators.minimal import move9\n"
        "from csp_sudoku.human.path import solve_path\n"
        "from csp_sudoku.metrics.se import rated_within\n"
        "p = cs.parse(WARM_PUZZLE)\n"
        "move9(p.cells, cs.solve(p).cells, np.random.default_rng(1))\n"
        "rated_within(p, 9.0)\n"
        "cs.rate(p, 'hsolve')\n"
        "solve_path(p)\n"
        "v = random_variant(1, ('thermometer', 'killercage')).puzzle\n"
        "variants.count(v, 2, backend='fast')\n"
        "variants.candidates(v, backend='fast')\n"
        "kernels = (moves.move9, se_chains.quick_settle, strategies.hsolve_runs, "
        "chains.refute_level0, variant_kernels.run, variant_kernels.root)\n"
        "print([(sum(k.stats.cache_hits.values()) > 0, len(k.stats.cache_misses)) "
        "for k in kernels])\n"
    )
    assert python_output(check) == str([(True, 0)] * 6)
