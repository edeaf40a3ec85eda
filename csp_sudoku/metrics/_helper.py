"""A machine's first rating with several metrics: half of the kernels compile in a helper process.

On an empty numba cache, a rating with every metric spends about 20 s of CPU
compiling kernels, one after the other. The metrics fall into two groups
whose kernels hardly overlap: hsolve, the oracle, refutation and dependency
(:mod:`csp_sudoku._kernels.strategies`, the singles kernels) and rounds,
mdrt and se (the solve path's subset searches, Sudoku Explainer's patterns
and chains). While this process rates the puzzle with the first group, a
helper process rates the same puzzle, with the same seed, with the second
group, and numba writes the kernels it compiles to its cache; this process
then waits for it and rates with the second group (and ``combined``), loading
those kernels from the cache instead of compiling them. On an idle two-core
machine that takes about a third off the wall time; on a busy one, less.

Nothing changes in the ratings: every metric is still rated here, with its
own seed, and the rows come out in the order asked. The helper runs only
when it can help: a standard 9x9 puzzle, no ``--param`` or ``--runs``, both
groups asked for, the two probe kernels not yet in numba's cache and that
cache writable (so a warm or read-only cache never starts one). A helper that
fails costs nothing but its CPU: whatever it did not cache compiles here.
``CSP_SUDOKU_NO_HELPER=1`` turns it off.

A first rating with se alone (or with se and metrics of its own group), a
first ``explain`` (the se path) or ``generate`` with se, has no other group to
share: half of what it compiles is one kernel, the nets of
SE's forcing chains with the basic techniques and the nested chains inside
them (48 s of a hard puzzle's 96 s of compiling, measured on one core). A *nested helper*
then compiles that kernel alone
(:func:`~csp_sudoku.human.se_order.compile_nested_nets`) while this process
rates and compiles the rest; a rating that reaches those nets first waits for
the helper to end, then loads what it cached (or compiles them itself when the
helper failed or took over :data:`NESTED_WAIT` seconds: the same ratings
every way). It runs only when numba's cache lacks that kernel and can
be written, the machine has more than one core and the puzzle is a standard
9x9 one; the command does not wait for it to finish (it ends with this
process, or when done) unless a rating needs its kernel. On this project's
two-core machine a hard puzzle's first rating took 51-64 s instead of 84-88 s
(``benchmarks/results/first_rating.md``).

Run as ``python -m csp_sudoku.metrics._helper PUZZLE SEED METRIC... PID`` (or
``--nested PUZZLE PID``) by :func:`rate_all`; it prints nothing.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial
from typing import Any, cast

from csp_sudoku._kernels import compiling_note
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.puzzle import Puzzle

#: The metrics a helper rates with (see the module doc).
SECOND: tuple[str, ...] = ("rounds", "mdrt", "se")
#: Metrics rated after the helper ends: they need both groups' kernels.
LAST: tuple[str, ...] = ("combined",)
#: A kernel of each group the helper compiles: when numba's cache has either, no helper.
_PROBES: tuple[tuple[str, str], ...] = (
    ("csp_sudoku._kernels.subsets", "subset_kernel"),
    ("csp_sudoku._kernels.se_patterns", "basic_hint"),
)
#: The metrics whose ratings reach SE's nets with the basic techniques inside.
NESTED_BY: tuple[str, ...] = ("se", "combined")
#: A kernel that only those nets compile: when numba's cache has it, no nested helper.
_NESTED_PROBES: tuple[tuple[str, str], ...] = (
    ("csp_sudoku._kernels.se_chains", "multiple_offshoots"),
)
#: The first argument that starts a nested helper.
NESTED = "--nested"
#: The nested helper of this process, once started (it runs on across ratings).
_nested: list[subprocess.Popen[bytes]] = []


def rate_all(
    puzzle: Puzzle,
    metrics: list[str],
    *,
    runs: int | None,
    seed: int,
    params: dict[str, Any],
) -> list[dict[str, Any]]:
    """``rate(puzzle, m, runs=runs, seed=seed, **params).to_dict()`` for every metric
    ``m`` in order, with the second group compiled by a helper when it can help."""
    from csp_sudoku.metrics import rate

    def one(m: str) -> dict[str, Any]:
        return rate(puzzle, cast(MetricName, m), runs=runs, seed=seed, **params).to_dict()

    with _saying_when_compiling():
        return _rate_all(puzzle, metrics, one, runs=runs, params=params, seed=seed)


def _rate_all(
    puzzle: Puzzle,
    metrics: list[str],
    one: Any,
    *,
    runs: int | None,
    seed: int,
    params: dict[str, Any],
) -> list[dict[str, Any]]:
    """:func:`rate_all`'s work (``one`` rates one metric)."""
    helper = None
    if runs is None and not params:
        helper = _start(puzzle, metrics, seed)
        if helper is None:
            _start_nested(puzzle, metrics)  # runs on beside the ratings (see _await_nested)
    if helper is None:
        return [one(m) for m in metrics]
    rows: list[dict[str, Any] | None] = [None] * len(metrics)
    try:
        for i, m in enumerate(metrics):
            if m not in SECOND and m not in LAST:
                rows[i] = one(m)
    except BaseException:  # an error or Ctrl-C here: do not wait for the helper's compiling
        helper.kill()
        raise
    finally:
        helper.wait()
    return [row if row is not None else one(m) for row, m in zip(rows, metrics, strict=True)]


#: What is said, once, when numba is still compiling a second after the first rating began.
COMPILING_NOTE = compiling_note("csp-sudoku rate", "the rating kernels")
#: How long the first rating may compile before the note is given, in seconds.
NOTE_AFTER = 1.0


@contextmanager
def _saying_when_compiling() -> Iterator[None]:
    """Give :data:`COMPILING_NOTE` on the ``csp_sudoku`` logger if numba compiles for over a second.

    A first rating on an empty numba cache compiles for 5-45 s with nothing
    on the screen; a warm one loads the kernels in well under a second and
    says nothing (see :func:`csp_sudoku._kernels.when_compiling`).
    """
    from csp_sudoku._kernels import when_compiling

    def note() -> None:
        import logging

        logging.getLogger("csp_sudoku").warning(COMPILING_NOTE)

    with when_compiling(NOTE_AFTER, note):
        yield


def _start(puzzle: Puzzle, metrics: list[str], seed: int) -> subprocess.Popen[bytes] | None:
    """The helper process for the second group of ``metrics``, or None (see the module doc)."""
    second = [m for m in metrics if m in SECOND]
    first = [m for m in metrics if m not in SECOND and m not in LAST]
    if not second or not first or not _may_help(puzzle) or not _cold_and_writable():
        return None
    return _spawn([puzzle.to_line(), str(seed), *second])


def start_nested_helper(geometry: Geometry) -> None:
    """For a command that rates with se outside :func:`rate_all` (``explain``, whose path
    is the se rating's, and ``generate``, whose hard-end search rates with it): start
    the nested helper for puzzles of ``geometry`` when it can help (see the module
    doc; it compiles on the empty grid); it runs on beside the command, which waits
    for it only where a rating needs its kernel (:func:`_await_nested`)."""
    import numpy as np

    _start_nested(Puzzle(np.zeros(geometry.ncells, dtype=np.int8), geometry), ["se"])


def _start_nested(puzzle: Puzzle, metrics: list[str]) -> subprocess.Popen[bytes] | None:
    """The nested helper (see the module doc), started unless one runs already or it
    cannot help; None when none is started."""
    if (
        _nested
        or not any(m in NESTED_BY for m in metrics)
        or (os.cpu_count() or 1) < 2
        or not _may_help(puzzle)
        or not _cold_and_writable(_NESTED_PROBES)
    ):
        return None
    from csp_sudoku.human.se_order import BEFORE_FIRST_PLUS

    helper = _spawn([NESTED, puzzle.to_line()])
    _nested.append(helper)
    atexit.register(_end_nested)
    BEFORE_FIRST_PLUS.append(partial(_await_nested, helper))
    return helper


#: The longest a rating waits for the nested helper before it compiles those nets itself.
NESTED_WAIT = 600.0


def _await_nested(helper: subprocess.Popen[bytes]) -> None:
    """Before this process first needs the nets the nested helper compiles: wait for the
    helper to end (it ends once numba has cached them), at most :data:`NESTED_WAIT`
    seconds. Compiling them here instead would take longer than what the helper has
    left, and on two cores would slow it: measured on this project's machine, a
    first rating reached those nets 0.1 s after its helper ended."""
    with suppress(subprocess.TimeoutExpired):
        helper.wait(timeout=NESTED_WAIT)


def _end_nested() -> None:
    """At exit: the nested helper ends with this process (its compiling, if not done, is lost)."""
    for helper in _nested:
        helper.kill()
        helper.wait()


def _may_help(puzzle: Puzzle) -> bool:
    """Whether a helper may run for ``puzzle``: a standard 9x9 puzzle, and not switched off."""
    g = puzzle.geometry
    return g.size == 9 and g.is_standard and not os.environ.get("CSP_SUDOKU_NO_HELPER")


def _spawn(args: list[str]) -> subprocess.Popen[bytes]:
    """This module run as a helper with ``args`` and this process's pid, silent."""
    return subprocess.Popen(
        [sys.executable, "-m", __name__, *args, str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _cold_and_writable(probes: tuple[tuple[str, str], ...] = _PROBES) -> bool:
    """True when numba's cache holds none of the ``probes`` kernels and can be written.

    False too when numba's cache cannot be read this way (see
    :func:`_probe_files`): no helper then, the safe side.
    """
    try:
        return all(
            not os.path.exists(index) and os.access(folder, os.W_OK)
            for index, folder in _probe_files(probes)
        )
    except (AttributeError, OSError):
        return False


def _probe_files(probes: tuple[tuple[str, str], ...] = _PROBES) -> list[tuple[str, str]]:
    """For each probe kernel: numba's index file for it and the folder that holds it.

    Read from numba's cache object of the kernel (``_cache._cache_file._index_path``
    and ``_cache._cache_path``: numba internals; the tests call this function
    directly, so that a numba that renames them fails a test instead of
    silently never starting a helper).

    Raises:
        AttributeError: this numba keeps its cache otherwise (or caching is off).
    """
    import importlib

    files = []
    for module, name in probes:
        cache = getattr(importlib.import_module(module), name)._cache
        files.append((str(cache._cache_file._index_path), str(cache._cache_path)))
    return files


def _main(argv: list[str]) -> int:
    """The helper: rate ``argv[0]`` with seed ``argv[1]`` and metrics ``argv[2:-1]``, or
    (:data:`NESTED` first) compile SE's nested nets for the puzzle ``argv[1]``;
    ``argv[-1]`` is the pid of the process that started it."""
    from csp_sudoku.core.parallel import exit_with_parent

    # a parent killed while this compiles takes the helper with it (its pid is the last
    # argument: the parent may be gone before this line runs)
    exit_with_parent(int(argv[-1]))
    if argv[0] == NESTED:
        from csp_sudoku.core.io import parse_line
        from csp_sudoku.human.se_order import compile_nested_nets

        compile_nested_nets(parse_line(argv[1]))
        return 0
    from csp_sudoku.metrics import rate

    text, seed, metrics = argv[0], int(argv[1]), argv[2:-1]
    for m in metrics:
        rate(text, cast(MetricName, m), seed=seed)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
