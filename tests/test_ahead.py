"""The 9x9 kernels built ahead of time (:mod:`csp_sudoku._kernels.ahead`): the same answers
as numba's kernels they are built from and as an independent counter, wrong arguments
refused instead of read, stale builds left unused, and a ``check`` run with no numba."""

from __future__ import annotations

import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from csp_sudoku._kernels import ahead, sudoku9
from csp_sudoku.core.errors import ArgumentError
from tests.conftest import load_lines
from tests.helpers import run_module
from tests.independent import count_solutions
from tests.test_sudoku9 import SETS, _batch, _variants


@pytest.fixture(scope="module")
def built(built_kernels: Path) -> ahead.Kernels9:
    return ahead.load(built_kernels / ahead.built_path().name)


@pytest.mark.parametrize(("name", "step"), SETS)
def test_counts_are_the_jit_kernels(built: ahead.Kernels9, name: str, step: int) -> None:
    """Every limit, the budget running out, no/one/several solutions, clashes and bad values."""
    batch = _variants(_batch(load_lines(name, step=step)), seed=step)
    batch[::7, 3] = 10  # a value out of range: BAD_VALUE
    for limit in (1, 2, 3, 10):
        for budget in (0, 3, 20_000):
            ours = built.count_batch(batch, limit, budget)
            assert ours.tolist() == sudoku9.count_batch(batch, limit, budget).tolist()
    counts = built.count_batch(batch, 3, 0)
    assert {-1, 0}.issubset(set(counts.tolist())) and counts.max() >= 2


def test_counts_match_an_independent_counter(built: ahead.Kernels9) -> None:
    batch = _variants(_batch(load_lines("top1465.txt", step=150)), seed=3)
    assert built.count_batch(batch, 2, 0).tolist() == [count_solutions(p, 2) for p in batch]


def test_wrong_arguments_raise_instead_of_being_misread(built: ahead.Kernels9) -> None:
    """A kernel built ahead of time reads any array as the one it expects: refused first."""
    cells = np.zeros((2, 81), np.int8)
    for bad in (cells.astype(np.int64), cells[0], cells[:, :80].copy(), cells.T, [[0] * 81]):
        with pytest.raises(ArgumentError):
            built.count_batch(bad, 2, 0)  # type: ignore[arg-type]
    rows = np.zeros((1, 82), np.uint8)
    with pytest.raises(ArgumentError):
        built.plain_cells(rows, 81, 0, 9, np.zeros(255, np.uint8))
    with pytest.raises(ArgumentError):
        built.plain_cells(rows[:, :81], 81, 0, 9, np.zeros(256, np.uint8))
    with pytest.raises(ArgumentError):
        built.text_rows(*[np.zeros(3, np.uint8)] * 9)


def test_a_build_from_other_sources_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edited kernel gives another key, so a module built before it is never loaded."""
    monkeypatch.setenv(ahead.DIR_ENV, str(tmp_path / "cache"))
    before = ahead.built_path()
    assert before.parent == tmp_path / "cache" and ahead._load() is None  # nothing built there
    copy = tmp_path / "kernels"
    shutil.copytree(ahead._HERE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(ahead, "_HERE", copy)
    assert ahead.built_path() == before  # the same sources: the same name
    source = copy / "sudoku9.py"
    source.write_text(source.read_text() + "\n# edited\n")
    assert ahead.built_path() != before
    monkeypatch.setattr(ahead, "_HERE", Path(ahead.__file__).resolve().parent)
    monkeypatch.setenv(ahead.USE_ENV, "0")
    assert ahead._load() is None


def _check(src: Path, out: Path, env: dict[str, str], jobs: str) -> str:
    """Run ``check`` in a fresh process; return its exit code and whether numba was imported."""
    code = (
        "import sys; from csp_sudoku.cli import main; "
        f"code = main(['check', {str(src)!r}, '-o', {str(out)!r}, '-q', '--jobs', {jobs!r}]); "
        "print(code, 'numba' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_check_counts_without_numba_and_writes_what_numba_writes(
    built_kernels: Path, tmp_path: Path
) -> None:
    lines = load_lines("17_clue.txt", limit=300, step=37) + load_lines(
        "multi_solution_serg.txt", limit=40, step=11
    )
    lines += ["11" + "." * 79, "x" * 81, *load_lines("forum_hardest_1106.txt", limit=40)]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    env = {**os.environ, ahead.DIR_ENV: str(built_kernels)}
    outputs = []
    for use, jobs in (("1", "1"), ("1", "2"), ("0", "1"), ("0", "2")):
        out = tmp_path / f"out-{use}-{jobs}.txt"
        said = _check(src, out, {**env, ahead.USE_ENV: use}, jobs)
        assert said == f"2 {use == '0'}"  # the bad line; numba only when told not to use the build
        outputs.append(out.read_bytes())
    assert len(set(outputs)) == 1


def test_the_auto_backend_counts_batches_with_the_built_kernels(
    built: ahead.Kernels9, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before numba starts, ``auto`` gives a 9x9 batch to the built kernels (not to Python)."""
    import csp_sudoku.backends as backends
    from csp_sudoku.backends import _AutoBackend, get_backend
    from csp_sudoku.core.errors import ParseError
    from csp_sudoku.core.geometry import Geometry

    g9 = Geometry.standard(9)
    batch = _variants(_batch(load_lines("forum_hardest_1106.txt", step=40)), seed=5)
    want = get_backend("fast").count_many(batch, g9, 3)
    monkeypatch.setattr(backends, "_FAST_MODULE", "not.loaded")  # as if numba had not started
    monkeypatch.setattr(ahead, "_LOADED", [built])
    calls: list[int] = []
    real = built.count_batch

    def counted(cells: np.ndarray, limit: int, budget: int) -> np.ndarray:
        calls.append(len(cells))
        return real(cells, limit, budget)

    monkeypatch.setattr(built, "count_batch", counted)
    auto = _AutoBackend()
    for rows in (batch, batch[:5]):  # a big batch, and one the Python search would take
        assert auto.count_many(rows, g9, 3).tolist() == want[: len(rows)].tolist()
    assert calls == [len(batch), 5] and auto.python_work == _AutoBackend().python_work
    bad = batch[:2].copy()
    bad[1, 0] = 12
    with pytest.raises(ParseError, match="row 1"):  # the fast backend's message
        auto.count_many(bad, g9, 2)


def _damaged(kind: str, good: bytes, rng: np.random.Generator) -> bytes | None:
    """The bytes of a damaged module of this ``kind`` (None: the digest file is removed)."""
    if kind.startswith("truncated"):
        return good[: int(kind.removeprefix("truncated-"))]
    if kind == "random":
        return rng.integers(0, 256, len(good), dtype=np.uint8).tobytes()
    if kind == "empty":
        return b""
    if kind == "foreign":  # another extension module under the name
        return Path(np.random.mtrand.__file__).read_bytes()
    return None


DAMAGE = ["truncated-100000", "truncated-330000", "random", "empty", "foreign", "no-digest"]


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_build_is_never_loaded(built_kernels: Path, tmp_path: Path, kind: str) -> None:
    """A truncated, overwritten, empty or foreign module (or one with no digest) is left
    unused: ``check`` counts with numba's kernels (same output, same exit code) and says
    so in one line; ``compile --status`` says it is damaged, without loading it."""
    good_path = built_kernels / ahead.built_path().name
    folder = tmp_path / "kernels"
    folder.mkdir()
    target = folder / good_path.name
    bad = _damaged(kind, good_path.read_bytes(), np.random.default_rng(5))
    target.write_bytes(good_path.read_bytes() if bad is None else bad)
    if bad is not None:
        shutil.copy(ahead.digest_path(good_path), ahead.digest_path(target))
    lines = [*load_lines("17_clue.txt", limit=50), "x" * 81]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    env = {**os.environ, ahead.DIR_ENV: str(folder)}
    env.pop(ahead.USE_ENV, None)
    runs = {}
    for name, where in (("good", str(built_kernels)), ("bad", str(folder))):
        out = tmp_path / f"{name}.txt"
        done = run_module(
            ["check", str(src), "-o", str(out), "-q"], env={**env, ahead.DIR_ENV: where}
        )
        runs[name] = (done.returncode, out.read_bytes(), done.stderr)
    assert runs["bad"][:2] == runs["good"][:2] and runs["good"][0] == 2  # the bad line
    said = [line for line in runs["bad"][2].splitlines() if line not in runs["good"][2]]
    assert len(said) == 1 and "not used" in said[0] and str(target) in said[0], said
    assert len(runs["bad"][2].splitlines()) == len(runs["good"][2].splitlines()) + 1
    status = run_module(["compile", "--status"], env=env)
    assert status.returncode == 1 and status.stdout.startswith("damaged: "), status
    with pytest.raises(ImportError, match="checksum"):
        ahead.load(target)


def test_compile_builds_a_damaged_module_again(built_kernels: Path, tmp_path: Path) -> None:
    """``compile`` (no --force) replaces a truncated module, and the new one loads."""
    good_path = built_kernels / ahead.built_path().name
    target = tmp_path / good_path.name
    target.write_bytes(good_path.read_bytes()[:100_000])
    shutil.copy(ahead.digest_path(good_path), ahead.digest_path(target))
    env = {**os.environ, ahead.DIR_ENV: str(tmp_path)}
    done = run_module(["compile"], env=env, timeout=600)
    if done.returncode != 0 and "C compiler" in done.stderr:  # pragma: no cover
        pytest.skip(done.stderr)
    assert done.returncode == 0 and "damaged" in done.stderr, done
    assert ahead.damage(target) is None
    assert ahead.load(target).count_batch(np.zeros((1, 81), np.int8), 2, 0).tolist() == [2]


def test_the_digest_is_checked_in_about_a_millisecond(built_kernels: Path) -> None:
    """Hashing the module at every load must not slow ``check``'s start (a loose bound)."""
    import time

    path = built_kernels / ahead.built_path().name
    started = time.perf_counter()
    for _ in range(10):
        assert ahead.damage(path) is None
    assert (time.perf_counter() - started) / 10 < 0.05


def test_the_gil_hook_finds_numbas_internals() -> None:
    """The build sets ``release_gil`` through ``numba.pycc.compiler.Flags``, an internal:
    this fails (rather than building kernels that hold the GIL) when a numba renames it."""
    compiler = ahead._pycc().compiler  # numba.pycc, without its deprecation warning
    flags = ahead._pycc_flags()
    assert flags is compiler.Flags and "release_gil" in flags.options
    with ahead._releasing_the_gil():
        made = compiler.Flags()
    assert made.release_gil and compiler.Flags is flags
    assert "Flags()" in inspect.getsource(compiler)  # the compiler makes them so


def test_the_gil_hook_refuses_a_compiler_that_ignores_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """No flags made from the subclass, or no such name: the build stops with a clear error."""
    from csp_sudoku.core.errors import KernelBuildError

    compiler = ahead._pycc().compiler

    with pytest.raises(KernelBuildError, match="GIL"), ahead._releasing_the_gil():
        pass  # a compiler that never made its flags from numba.pycc.compiler.Flags
    monkeypatch.delattr(compiler, "Flags")
    with pytest.raises(KernelBuildError, match="gone"):
        ahead._pycc_flags()


def test_the_built_kernels_release_the_gil(built: ahead.Kernels9) -> None:
    """While one thread is inside a long ``count_batch``, this one runs Python.

    Not a speed ratio: a kernel that holds the GIL lets no Python run at all
    during its call, so no time stamp of this thread falls inside it.
    """
    import threading
    import time

    batch = np.tile(_batch(load_lines("forum_hardest_1106.txt", step=1)), (8, 1))
    span: list[float] = []

    def count() -> None:
        span.append(time.perf_counter())
        built.count_batch(batch, 2, 0)
        span.append(time.perf_counter())

    worker = threading.Thread(target=count)
    stamps: list[float] = []
    worker.start()
    while worker.is_alive():
        stamps.append(time.perf_counter())
        time.sleep(0.0005)
    worker.join()
    start, end = span
    inside = [t for t in stamps if start + 0.02 < t < end - 0.02]
    assert end - start > 0.1, f"the batch is too quick to tell ({end - start:.3f} s)"
    assert len(inside) >= 5, (end - start, len(inside))


def test_compile_says_when_setuptools_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """numba's compiler needs setuptools at run time: the message names the extra to install."""
    from csp_sudoku.cli import main

    def no_setuptools(folder: Path | None = None) -> Path:
        raise ImportError("No module named 'setuptools'", name="setuptools")

    monkeypatch.setenv(ahead.DIR_ENV, str(tmp_path))
    monkeypatch.setattr(ahead, "build", no_setuptools)
    assert main(["compile"]) == 1
    err = capsys.readouterr().err
    assert "needs setuptools: pip install 'csp_sudoku[compile]'" in err
    assert "check still works" in err
