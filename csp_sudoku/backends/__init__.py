"""Solving backends, found by name.

=========  ==========================================================
name       engine
=========  ==========================================================
``sat``    python-sat, incremental; ``sat:glucose4`` picks the solver
``cpsat``  OR-tools CP-SAT
``dlx``    Knuth's Algorithm X over the exact-cover matrix
``fast``   compiled bitset propagation + search (standard geometries)
``auto``   ``fast`` where it applies, else ``sat``; a few 9x9 puzzles
           before numba has started: a pure-Python search first; 9x9
           batches before numba has started: the kernel built ahead of time
=========  ==========================================================

Each module imports its solver library only when the backend is first used.
:func:`available` lists each backend with whether it can be used here, its
sub-solvers and the shapes it supports. To add a backend, subclass :class:`~csp_sudoku.backends.base.Backend` in a
module of its own and add a line to ``_FACTORIES``.
"""

from __future__ import annotations

import atexit
import importlib
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import ahead
from csp_sudoku._kernels.status import BAD_VALUE, BUDGET9, GAVE_UP
from csp_sudoku.backends import small9
from csp_sudoku.backends.base import Backend, Cells
from csp_sudoku.core.errors import BackendError
from csp_sudoku.core.geometry import Geometry

_FACTORIES: dict[str, tuple[str, str]] = {
    "sat": ("csp_sudoku.backends.sat", "SatBackend"),
    "cpsat": ("csp_sudoku.backends.cpsat", "CpSatBackend"),
    "dlx": ("csp_sudoku.backends.dlx", "DlxBackend"),
    "fast": ("csp_sudoku.backends.fast", "FastBackend"),
}


def backend_names() -> list[str]:
    """The registered backend names (plus ``auto``)."""
    return [*_FACTORIES, "auto"]


@dataclass(frozen=True)
class BackendInfo:
    """What :func:`available` says of one backend.

    Attributes:
        name: the registry name.
        available: whether it can be used in this installation.
        reason: why not, when it cannot ("" otherwise).
        solvers: the names it takes after a colon (``sat:glucose4``).
        geometries: which of the shapes of :func:`probe_geometries` it supports.
    """

    name: str
    available: bool
    reason: str
    solvers: tuple[str, ...]
    geometries: tuple[str, ...]


def probe_geometries() -> list[Geometry]:
    """The shapes :func:`available` reports on: every standard size and the variants."""
    sizes = [Geometry.standard(n) for n in (4, 6, 9, 12, 16, 25)]
    return [*sizes, Geometry.x_sudoku(), Geometry.windoku()]


def available() -> list[BackendInfo]:
    """Every registered backend: available or not (and why), its sub-solvers, its shapes.

    Like a solver lookup: a program (or ``csp-sudoku``'s ``--backend`` help) can list
    what this installation offers before choosing. Each backend's module is imported
    to find out.
    """
    out = []
    for name in _FACTORIES:
        try:
            _factory(name)  # imports the module: its solver library may be missing
        except ImportError as err:
            out.append(BackendInfo(name, False, str(err), (), ()))
            continue
        backend = get_backend(name)
        shapes = tuple(g.name for g in probe_geometries() if backend.supports(g))
        subs = backend.sub_solvers()
        out.append(BackendInfo(name, True, "", subs, shapes))
    return out


def _factory(name: str) -> Callable[..., Backend]:
    module, cls = _FACTORIES[name]
    factory: Callable[..., Backend] = getattr(importlib.import_module(module), cls)
    return factory


_INSTANCES: dict[str, Backend] = {}
#: Backends made by :func:`new_backend` and still alive: closed at exit like the shared ones.
_OWNED: weakref.WeakSet[Backend] = weakref.WeakSet()


def get_backend(name: str = "auto") -> Backend:
    """The shared backend instance called ``name`` (``"sat:cadical153"`` picks a SAT solver).

    Raises:
        BackendError: for an unknown name.
    """
    _check_name(name)
    backend = _INSTANCES.get(name)
    if backend is None:
        backend = _INSTANCES[name] = _make(name)
    return backend


def _check_name(name: object) -> None:
    """Refuse a backend ``name`` that is not a string (a list or a Geometry given in its place)."""
    if not isinstance(name, str):
        raise BackendError(
            f"backend must be a name (one of {', '.join(backend_names())}), "
            f"got {type(name).__name__} {name!r:.40}"
        )


def _make(name: str) -> Backend:
    base, _, option = name.partition(":")
    if base == "auto":
        return _AutoBackend()
    if base not in _FACTORIES:
        raise BackendError(f"unknown backend {name!r}; choose one of {', '.join(backend_names())}")
    try:
        factory = _factory(base)
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise BackendError(f"backend {base!r} is not available: {err}") from err
    return factory(option) if option else factory()


def backend_for(geometry: Geometry, name: str = "auto") -> Backend:
    """The backend ``name`` resolved for ``geometry`` (``auto`` picks the fastest that applies).

    For hot loops: ``auto`` resolves here, once. For one request use
    :func:`backend_per_call`.
    """
    backend = get_backend(name)
    if isinstance(backend, _AutoBackend):
        return backend.pick(geometry)
    if not backend.supports(geometry):
        raise BackendError(f"backend {name!r} does not support {geometry.name} grids")
    return backend


def new_backend(geometry: Geometry, name: str = "auto") -> Backend:
    """A backend of its own, not shared: ``name`` resolved for ``geometry``, newly made.

    For an object that owns its backend and closes it (:class:`csp_sudoku.api.Checker`):
    its native solvers are then used by that object alone.

    Raises:
        BackendError: for an unknown name or a backend that does not support ``geometry``.
    """
    _check_name(name)
    resolved = name
    if name.partition(":")[0] == "auto":
        resolved = backend_for(geometry, "auto").name
    backend = _make(resolved)
    if not backend.supports(geometry):
        backend.close()
        raise BackendError(f"backend {name!r} does not support {geometry.name} grids")
    _OWNED.add(backend)
    return backend


def backend_per_call(geometry: Geometry, name: str = "auto") -> Backend:
    """The backend ``name`` for one request on ``geometry``: ``auto`` stays undecided.

    The ``auto`` backend chooses at each call, so a short run (``csp-sudoku
    check PUZZLE``, one puzzle's rating) can be answered without starting numba
    (see :class:`_AutoBackend`); other names are resolved as by :func:`backend_for`.
    """
    backend = get_backend(name)
    return backend if isinstance(backend, _AutoBackend) else backend_for(geometry, name)


#: The module whose import starts numba (and loads or compiles its kernels).
_FAST_MODULE = "csp_sudoku.backends.fast"


class _AutoBackend(Backend):
    """Delegates to ``fast`` where it supports the geometry, else to ``sat``.

    Every method of :class:`Backend` is delegated, not only ``solutions``: the
    generic defaults (a Python loop over ``count`` for ``count_many``, one
    ``other_solution`` per clue for ``removable_clues``) are much slower than
    the resolved backend's own.

    Until the fast backend is loaded, counts and solutions of standard 9x9
    puzzles are first asked of the pure-Python search of
    :mod:`~csp_sudoku.backends.small9`: starting numba costs a process about
    0.4 s (seconds of compiling on a machine's first run), which is most of a
    short run. The process may spend :data:`small9.BUDGET` branch nodes in
    Python in all (a puzzle counts one more), about as long as numba's start;
    a search that runs out of them, and everything after, goes to the fast
    backend. A batch of standard 9x9 puzzles (``count_many``) that the Python
    search does not take goes, while the fast backend is not loaded, to the
    9x9 kernel built ahead of time where there is one
    (:mod:`csp_sudoku._kernels.ahead`, the same code without numba's start);
    once that is loaded, the Python search is skipped. Answers do not
    depend on the route: counts are exact, and a solution list comes from
    Python only when it holds at most one solution, so the order in which a
    backend meets solutions never shows.
    """

    name = "auto"

    def __init__(self) -> None:
        #: Work (branch nodes, and one per puzzle) the Python search may still do in this process.
        self.python_work = small9.BUDGET

    def pick(self, geometry: Geometry) -> Backend:
        return _auto_choice(geometry)

    def _python_first(self, geometry: Geometry) -> bool:
        """True while a 9x9 request should go to the Python search first."""
        return (
            self.python_work > 0
            and _FAST_MODULE not in sys.modules
            and ahead.loaded() is None
            and small9.is_plain9(geometry)
        )

    def supports(self, geometry: Geometry) -> bool:
        return self.pick(geometry).supports(geometry)

    def _python_solutions(self, cells: Cells) -> list[Cells] | None:
        """The solutions of a 9x9 puzzle with at most one, from Python; None otherwise."""
        found, work = small9.solutions9(cells.tolist(), 2, self.python_work)
        self.python_work -= work
        if found is None or len(found) > 1:  # out of budget, a bad value, or an order to keep
            return None
        return [np.array(s, dtype=np.int8) for s in found]

    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        if limit > 0 and self._python_first(geometry):
            found = self._python_solutions(cells)
            if found is not None:
                return found
        return self.pick(geometry).solutions(cells, geometry, limit)

    def count(self, cells: Cells, geometry: Geometry, limit: int = 2) -> int:
        if limit > 0 and self._python_first(geometry):
            n, work = small9.count9(cells.tolist(), limit, self.python_work)
            self.python_work -= work
            if n >= 0:
                return n
        return self.pick(geometry).count(cells, geometry, limit)

    def solve(self, cells: Cells, geometry: Geometry) -> Cells | None:
        if self._python_first(geometry):
            found = self._python_solutions(cells)
            if found is not None:
                return found[0] if found else None
        return self.pick(geometry).solve(cells, geometry)

    def other_solution(self, cells: Cells, geometry: Geometry, known: Cells) -> Cells | None:
        return self.pick(geometry).other_solution(cells, geometry, known)

    def removable_clues(self, cells: Cells, geometry: Geometry, known: Cells) -> NDArray[np.intp]:
        return self.pick(geometry).removable_clues(cells, geometry, known)

    def count_many(
        self, cells: NDArray[np.integer], geometry: Geometry, limit: int = 2
    ) -> NDArray[np.int64]:
        plain = limit > 0 and cells.ndim == 2 and cells.shape[1] == 81
        counts: NDArray[np.int64] | None = None
        if plain and cells.shape[0] <= small9.MAX_BATCH and self._python_first(geometry):
            counts, work = small9.count_many9(cells, limit, self.python_work)
            self.python_work -= work
        elif plain and _FAST_MODULE not in sys.modules and small9.is_plain9(geometry):
            built = ahead.module()
            if built is not None:
                arr = np.ascontiguousarray(cells, dtype=np.int8)
                counts = built.count_batch(arr, limit, BUDGET9 * limit)
        if counts is None or (counts == BAD_VALUE).any():  # the backend's own error message
            return self.pick(geometry).count_many(cells, geometry, limit)
        rest = np.flatnonzero(counts == GAVE_UP)
        if rest.size:
            counts[rest] = self.pick(geometry).count_many(cells[rest], geometry, limit)
        return counts


@cache
def _auto_choice(geometry: Geometry) -> Backend:
    try:
        fast = get_backend("fast")
    except (BackendError, KeyError):
        return get_backend("sat")
    return fast if fast.supports(geometry) else get_backend("sat")


@atexit.register
def _close_all() -> None:
    """Free native solvers before interpreter shutdown tears their modules down."""
    for backend in [*_INSTANCES.values(), *_OWNED]:
        backend.close()
    _INSTANCES.clear()


__all__ = [
    "Backend",
    "BackendInfo",
    "available",
    "backend_for",
    "backend_names",
    "backend_per_call",
    "get_backend",
    "new_backend",
]
