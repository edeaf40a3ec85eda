"""Start-up: what ``import csp_sudoku`` and ``csp-sudoku check PUZZLE`` load (no timings).

Each case runs in a fresh interpreter and inspects its ``sys.modules``, so the
modules this test process has already imported do not hide a regression.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_module

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ROOT = Path(__file__).resolve().parents[1]

#: Libraries that neither the package import nor ``check`` on the 9x9 path needs.
HEAVY = ("ortools", "pysat", "dask", "distributed", "matplotlib")


def _modules_after(code: str, env: dict[str, str] | None = None) -> tuple[set[str], str]:
    """The modules loaded after running ``code`` in a fresh interpreter, and its stdout."""
    script = (
        "import json, sys\n" + code + "\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
        env=None if env is None else {**os.environ, **env},
    )
    loaded = set(json.loads(proc.stderr.strip().splitlines()[-1]))
    return loaded, proc.stdout


def _tops(modules: set[str]) -> set[str]:
    return {m.partition(".")[0] for m in modules}


def test_import_loads_no_solver_library_and_no_numba() -> None:
    loaded, _ = _modules_after("import csp_sudoku")
    tops = _tops(loaded)
    for name in (*HEAVY, "scipy", "numba", "tqdm"):
        assert name not in tops, f"import csp_sudoku loaded {name}"
    assert "csp_sudoku.metrics" not in loaded
    assert "csp_sudoku.generators" not in loaded


def test_lazy_exports_still_resolve() -> None:
    loaded, out = _modules_after(
        "import csp_sudoku as cs\nprint(cs.rate.__name__, cs.rate_many.__name__, "
        "cs.Rating.__name__, cs.generate.__name__)"
    )
    assert out.split() == ["rate", "rate_many", "Rating", "generate"]
    assert "csp_sudoku.metrics" in loaded


def test_check_path_loads_only_what_check_needs() -> None:
    loaded, out = _modules_after(
        "from csp_sudoku.cli import main\n"
        f"code = main(['check', '--quiet', {LINE!r}])\n"
        "assert code == 0, code"
    )
    assert out.split("\t")[1] == "unique"
    tops = _tops(loaded)
    # one 9x9 puzzle is answered in Python: numba is not even imported
    for name in (*HEAVY, "tqdm", "numba", "llvmlite", "scipy"):
        assert name not in tops, f"check loaded {name}"
    assert "numpy.random" not in loaded  # (csp_sudoku.core.seeds loads it: only for --seed)
    # the other commands, their libraries and kernels stay out
    for mod in (
        "csp_sudoku.cli.rate",
        "csp_sudoku.cli.explain",
        "csp_sudoku.cli.generate",
        "csp_sudoku.cli.export",
        "csp_sudoku.metrics",
        "csp_sudoku.human",
        "csp_sudoku.generators",
        "csp_sudoku.encodings",
        "csp_sudoku.tools.bank",
        "csp_sudoku._kernels.strategies",
        "csp_sudoku._kernels.human",
        "csp_sudoku._kernels.chains",
        "csp_sudoku._kernels.canonical",
        "csp_sudoku._kernels.sudoku9",
        "csp_sudoku.backends.fast",
        "concurrent.futures.process",
    ):
        assert mod not in loaded, f"check loaded {mod}"
    assert "csp_sudoku.backends.small9" in loaded


@pytest.mark.parametrize("built", [False, True])
def test_check_of_a_file_of_puzzles_uses_the_kernel(
    tmp_path: Path, built: bool, request: pytest.FixtureRequest
) -> None:
    """More puzzles in a batch than the Python search takes: a compiled 9x9 kernel answers,
    the one built ahead of time (no numba at all) where there is one, else numba's."""
    from csp_sudoku._kernels import ahead

    env = {ahead.USE_ENV: "0"}
    if built:
        env = {ahead.DIR_ENV: str(request.getfixturevalue("built_kernels")), ahead.USE_ENV: "1"}
    path = tmp_path / "forty.txt"
    path.write_text(f"{LINE}\n" * 40)
    loaded, out = _modules_after(
        "from csp_sudoku.cli import main\n"
        f"code = main(['check', '--quiet', {str(path)!r}])\n"
        "assert code == 0, code",
        env,
    )
    assert out.count("\tunique\t") == 40
    if built:
        assert "csp_sudoku._kernels.ahead" in loaded and "numba" not in loaded
        assert "csp_sudoku._kernels.sudoku9" not in loaded
    else:
        assert "csp_sudoku._kernels.sudoku9" in loaded
    # numba imports the top-level scipy package (a version check); no subpackage
    for sub in ("linalg", "sparse", "stats", "optimize"):
        assert f"scipy.{sub}" not in loaded, f"check loaded scipy.{sub}"


def test_full_parser_still_lists_every_command() -> None:
    proc = run_module(["nosuchcommand"], cwd=ROOT, timeout=600)
    assert proc.returncode == 2
    for name in ("check", "solve", "rate", "generate", "export", "bank"):
        assert repr(name) in proc.stderr


def test_numba_blas_still_works_after_the_fast_backend_started_numba() -> None:
    # the fast backend starts numba's target without its BLAS probe; np.dot in
    # numba code compiled afterwards still finds BLAS (scipy.linalg) as usual
    loaded, out = _modules_after(
        "import numpy as np\n"
        "import csp_sudoku.backends.fast\n"
        "assert 'scipy.linalg' not in sys.modules\n"
        "from numba import njit\n"
        "dot = njit(lambda a, b: np.dot(a, b))\n"
        "print(dot(np.arange(3.0), np.arange(3.0)))"
    )
    assert float(out) == 5.0
    assert "scipy.linalg" in loaded


def test_rate_of_one_puzzle_needs_no_solver_kernel_and_no_blas_probe() -> None:
    # the puzzle's solution comes from the Python search; the metric kernels start
    # numba's target without the BLAS probe (which imports all of scipy.linalg)
    loaded, out = _modules_after(
        "from csp_sudoku.cli import main\n"
        f"code = main(['rate', '--quiet', '--seed', '1', '--metric', 'hsolve,oracle', {LINE!r}])\n"
        "assert code == 0, code"
    )
    assert [row.split("\t")[1] for row in out.splitlines()] == ["hsolve", "oracle"]
    assert "csp_sudoku._kernels.strategies" in loaded
    for mod in ("csp_sudoku.backends.fast", "csp_sudoku._kernels.sudoku9", "scipy.linalg"):
        assert mod not in loaded, f"rate loaded {mod}"


def test_version_is_said_without_any_command_loaded() -> None:
    # argparse's --version built every command's parser first (numba and the
    # constraints started: 0.8 s); the answer is the same line
    loaded, out = _modules_after(
        "from csp_sudoku.cli import main\n"
        "from csp_sudoku.core._version import __version__\n"
        "assert main(['--version']) == 0\n"
        "print('version', __version__)"
    )
    said, version = out.splitlines()
    assert said == f"csp-sudoku {version.split()[1]}"
    assert "numba" not in _tops(loaded)
    for command in ("check", "rate", "generate", "variant_generate"):
        assert f"csp_sudoku.cli.{command}" not in loaded


def test_every_public_name_loads_on_first_use_and_is_listed() -> None:
    # the package imports nothing with itself (the names load on first use):
    # each name of __all__ must still be there, and dir() must list it
    loaded, out = _modules_after(
        "import csp_sudoku as cs\n"
        "before = sorted(m for m in sys.modules if m.startswith('csp_sudoku.'))\n"
        "missing = [n for n in cs.__all__ if getattr(cs, n, None) is None]\n"
        "assert getattr(cs, 'no.such', None) is None and not hasattr(cs, 'nope')\n"
        "print(json.dumps([before, missing, sorted(set(cs.__all__) - set(dir(cs)))]))"
    )
    before, missing, unlisted = json.loads(out)
    assert before == ["csp_sudoku.core", "csp_sudoku.core._version"]
    assert missing == [] and unlisted == []
    assert "csp_sudoku.api" in loaded  # loaded by the names asked for
