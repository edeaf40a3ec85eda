"""Compiled kernels (numba), one module per user: ``bitset`` for the fast backend.

Kernels take plain numpy arrays and integers only, so they compile once, are
cached on disk (``cache=True``) and load quickly in a fresh process. That is
why their signatures repeat from kernel to kernel (the same arrays, typed the
same way, and the same lines reading their shapes): numba compiles each entry
point on the concrete types of its arguments, with no objects to carry them.
Where a group of arrays always travels together it is one tuple argument
instead (the hypothesis state and the record arrays of ``chains``). This
package imports nothing: each kernel module is imported by its caller when
first used (numpy is the one import of this package itself).

:func:`init_numba_target` starts numba's CPU target without its BLAS probe;
every kernel module calls it when imported, before any kernel runs.
:func:`direct_entry` gives a hot path a kernel's compiled entry point;
:func:`counted_in_slices` runs a 9x9 batch count in slices (with a look
between two whether to stop); :func:`when_compiling` calls back when numba
compiles for a while. numba is imported by this package's modules only.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: The largest count, node budget or limit a compiled search is given (its counters
#: are 64-bit): a limit above it counts as it. No search reaches it (an empty 9x9
#: grid has about 6.7e21 solutions; 2**62 of them at 1e8 a second take 1,500
#: years), and a larger one overflowed the kernels' integers (numba's TypingError).
KERNEL_LIMIT = 1 << 62


def _writable(folder: str) -> bool:
    """Whether numba could keep its cache in ``folder`` (made when missing)."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def cache_folder_fallback() -> str | None:
    """Give numba a cache folder it can write when it has none; the folder, or None
    when numba has one (``NUMBA_CACHE_DIR``, the kernels' own ``__pycache__``, or
    the user's cache folder).

    An install that the user cannot write, for a user without a writable home (a
    service account, a container user), left numba no place for its cache: every
    kernel with ``cache=True`` raised "cannot cache function ...: no locator
    available" when its module was imported, and every command failed (even
    ``--help``). Then the cache goes to a folder of the temporary folder, one per
    user. Called when this package is imported, before numba reads its settings.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
    if os.access(here if os.path.isdir(here) else os.path.dirname(here), os.W_OK | os.X_OK):
        return None
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if _writable(os.path.join(home, "numba")):
        return None
    uid = os.getuid() if hasattr(os, "getuid") else 0
    folder = os.path.join(tempfile.gettempdir(), f"csp_sudoku-numba-{uid}")
    os.environ["NUMBA_CACHE_DIR"] = folder
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba loaded already: its settings were read
        config.CACHE_DIR = folder  # type: ignore[attr-defined]
    return folder


cache_folder_fallback()


class _NoScipyLinalg(MetaPathFinder):
    """Makes ``import scipy.linalg...`` fail (see :func:`init_numba_target`)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == "scipy.linalg" or fullname.startswith("scipy.linalg."):
            raise ImportError(f"{fullname} is not loaded while csp_sudoku starts numba")
        return None


def init_numba_target() -> bool:
    """Start numba's CPU target now, without its BLAS probe.

    numba's first call of a kernel, even one loaded from the disk cache, loads
    every lowering registry; one of them (``numba.np.arraymath``) probes for
    BLAS by importing ``scipy.linalg.cython_blas``, that is all of
    ``scipy.linalg``: about 0.2 s of a warm ``csp-sudoku check PUZZLE``. No
    kernel of ours calls BLAS, so the probe is made to fail while the target
    starts. The one effect, for the rest of the process: numba's
    ``np.correlate``/``np.convolve`` on floats use numba's own loop instead of
    BLAS (``np.dot`` and the ``np.linalg`` functions load BLAS when they are
    compiled, as before). Nothing is done when the target is already up or
    ``scipy.linalg`` is already loaded.

    It relies on numba internals (``cpu_target.target_context.refresh``, the
    module ``numba.np.arraymath``): with a numba that changed them, the
    target starts at the first call as numba does it (the probe included:
    slower, the same answers). Returns whether the target was started here
    without the probe; the tests check that it is, in a fresh interpreter.
    """
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return False
    from numba.core.registry import cpu_target

    blocker = _NoScipyLinalg()
    sys.meta_path.insert(0, blocker)
    try:
        cpu_target.target_context.refresh()
    except (ImportError, AttributeError):  # a numba that needs scipy.linalg, or changed
        return False
    finally:
        sys.meta_path.remove(blocker)
    return "numba.np.arraymath" in sys.modules and "scipy.linalg" not in sys.modules


def frozen(a: NDArray[Any], dtype: type[np.generic]) -> NDArray[Any]:
    """``a`` as a read-only, C-contiguous array of ``dtype`` (a view when it is one already).

    What the row kernels are given: numba compiles a kernel again for an
    argument that differs in dtype, layout or writability (bytes read by
    ``np.frombuffer`` are read-only, a computed array is not), and a kernel
    built ahead of time (:mod:`~csp_sudoku._kernels.ahead`) takes one kind only.
    """
    view = np.ascontiguousarray(a, dtype=dtype).view()
    view.flags.writeable = False
    return view


def direct_entry(kernel: Any, args: tuple[Any, ...]) -> Callable[..., Any]:
    """The compiled entry point of ``kernel`` for the types of ``args``, without dispatch.

    A numba dispatcher works out the types of the arguments at every call and
    looks up the compiled version for them: about 0.3 us, a tenth of an easy
    puzzle's whole count. A hot path that always passes the same types calls
    the compiled version's entry point directly (it still converts the
    arguments, and raises on a wrong type like the dispatcher). ``kernel`` is
    called once with ``args`` (compiled now, or loaded from the disk cache).
    A numba without ``overloads`` / ``entry_point`` (numba internals) gets
    the dispatcher itself: slower, the same answers; a test fails on such a
    numba rather than let it pass unseen.
    """
    import numba

    kernel(*args)
    try:
        types = tuple(numba.typeof(a) for a in args)  # type: ignore[no-untyped-call]
        entry: Callable[..., Any] = kernel.overloads[types].entry_point
    except (AttributeError, KeyError):
        entry = kernel
    return entry


def counted_in_slices(
    count_rows: Callable[..., int], batch: NDArray[np.int8], limit: int, budget: int
) -> NDArray[np.int64]:
    """The counts of the rows of an ``(n, 81)`` batch by a 9x9 ``count_rows`` kernel, in slices.

    ``count_rows`` is :func:`csp_sudoku._kernels.sudoku9.count_rows` or the same
    kernel built ahead of time; it returns every ``SLICE9`` branch nodes or so,
    and :func:`csp_sudoku.core.deadline.in_slices` looks between two calls
    whether to stop, so a batch of long counts (a big ``limit``) stops when
    asked, as a single count does.
    """
    from csp_sudoku._kernels.status import SLICE9, WORKSPACE9
    from csp_sudoku.core.deadline import in_slices

    n = batch.shape[0]
    counts = np.empty(n, np.int64)
    mem = np.zeros(WORKSPACE9, np.int64)
    in_slices(lambda: int(count_rows(batch, limit, budget, counts, mem, SLICE9)), lambda k: k < n)
    return counts


def compiling_note(who: str, what: str) -> str:
    """The one line a run gives while numba compiles ``what`` on a machine's first run
    (see :func:`when_compiling`); ``who`` speaks it (``csp-sudoku explain``). One
    wording for every command, and for the ratings' note on the logger."""
    return (
        f"{who}: compiling {what}, up to a minute or two the first time on this machine "
        "(cached for later runs; `csp-sudoku compile --warm` compiles them ahead) ..."
    )


@contextmanager
def when_compiling(after: float, call: Callable[[], None]) -> Iterator[None]:
    """Call ``call`` once if numba is compiling at some time from ``after`` seconds into the block.

    So a command can say why its first run is slow (compiling, not working)
    and say nothing when numba loads its kernels from the disk cache.
    numba's compile events (``numba.core.event``, started only for a real
    compile, not a cache load) tell whether it is compiling; a numba without
    them gets no call.
    """
    try:
        from numba.core import event

        install, listener = event.install_listener, event.Listener
    except (ImportError, AttributeError):  # pragma: no cover - a numba without the event API
        yield
        return
    compiling = [0]

    class _Counting(listener):  # type: ignore[misc, valid-type]
        def on_start(self, ev: Any) -> None:
            compiling[0] += 1

        def on_end(self, ev: Any) -> None:
            compiling[0] -= 1

    done = threading.Event()

    def watch() -> None:  # from `after` on, until the block ends: numba compiling?
        if done.wait(after):
            return
        while compiling[0] <= 0:
            if done.wait(0.05):
                return
        call()

    watcher = threading.Thread(target=watch, name="csp_sudoku-compile-note", daemon=True)
    with install("numba:compile", _Counting()):
        watcher.start()
        try:
            yield
        finally:
            done.set()
