"""The numba internals csp_sudoku leans on, each checked so that a numba that changes
them fails here (every use has a fallback at run time that would hide the change).

The others are checked where they are used: ``numba.pycc.compiler.Flags`` by
tests/test_ahead.py, numba's cache files by tests/test_rate_helper.py.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numba
import numpy as np
import pytest

from tests.conftest import python_output


def test_the_target_starts_without_the_blas_probe() -> None:
    """``init_numba_target`` (``cpu_target.target_context.refresh`` with scipy.linalg
    blocked) starts the target in a fresh interpreter, and a kernel then runs
    without scipy.linalg ever being imported."""
    code = (
        "import sys\n"
        "from csp_sudoku._kernels import init_numba_target\n"
        "started = init_numba_target()\n"
        "from csp_sudoku._kernels import sudoku9\n"
        "import numpy as np\n"
        "sudoku9.count_batch(np.zeros((1, 81), np.int8), 2, 0)\n"
        "print(started, 'numba.np.arraymath' in sys.modules, 'scipy.linalg' in sys.modules)"
    )
    assert python_output(code).split() == ["True", "True", "False"]


def test_direct_entry_bypasses_the_dispatcher() -> None:
    """``overloads[types].entry_point`` is still there: the hot path gets the compiled
    entry point, not the dispatcher it falls back to."""
    from csp_sudoku._kernels import direct_entry, sudoku9
    from csp_sudoku.backends.fast import BUDGET9

    args = (b"." * 81, 2, BUDGET9)
    entry = direct_entry(sudoku9.count_text, args)
    assert entry is not sudoku9.count_text
    types = tuple(numba.typeof(a) for a in args)
    assert entry is sudoku9.count_text.overloads[types].entry_point
    assert np.asarray(entry(*args)).tolist() == np.asarray(sudoku9.count_text(*args)).tolist()


def test_numba_gets_a_cache_folder_where_it_has_none(tmp_path: Path) -> None:
    """An install the user cannot write, for a user without a writable home: numba had
    no place for its cache, and every kernel module raised "cannot cache function
    ...: no locator available" when imported (every command failed, --help too).
    Where the kernels' folder and the user's cache folder cannot be written, the
    cache goes to a folder of the temporary folder. The environment is as it was
    afterwards: a bare ``delenv`` of an unset variable records nothing, so the
    fallback's folder once stayed in the environment of every later test of the
    worker, and each process they started compiled every kernel again (minutes of
    the suite)."""
    import os

    import numba.core.config

    import csp_sudoku._kernels as kernels

    before = os.environ.get("NUMBA_CACHE_DIR")
    with pytest.MonkeyPatch.context() as monkeypatch:
        # set, then deleted, through monkeypatch: put back as it was at the end
        monkeypatch.setenv("NUMBA_CACHE_DIR", "")
        monkeypatch.delenv("NUMBA_CACHE_DIR")
        monkeypatch.setattr(numba.core.config, "CACHE_DIR", numba.core.config.CACHE_DIR)
        assert kernels.cache_folder_fallback() is None  # here the kernels' folder is writable
        blocked = tmp_path / "a-file"
        blocked.write_text("", encoding="utf-8")
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # no folder can be made under a file
        monkeypatch.setattr(os, "access", lambda *a, **k: False)
        folder = kernels.cache_folder_fallback()
        assert folder is not None and folder.startswith(tempfile.gettempdir())
        assert os.environ["NUMBA_CACHE_DIR"] == folder == numba.core.config.CACHE_DIR
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # one the user set is kept
        assert kernels.cache_folder_fallback() is None
    assert os.environ.get("NUMBA_CACHE_DIR") == before
