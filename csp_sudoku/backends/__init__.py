"""Solving backends, found by name.

=========  ==========================================================
name       engine
=========  ==========================================================
``sat``    python-sat, incremental; ``sat:glucose4`` picks the solver
``cpsat``  OR-tools CP-SAT
``dlx``    Knuth's Algorithm X over the exact-cover matrix
``fast``   compiled bitset propagation + search (standard geometries)
``auto``   ``fast`` where it applies, else ``sat``
=========  ==========================================================

Each module imports its solver library only when the backend is first used.
To add a backend, subclass :class:`~csp_sudoku.backends.base.Backend` in a
module of its own and add a line to ``_FACTORIES``.
"""

from __future__ import annotations

import atexit
import importlib
from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import NDArray

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


def _factory(name: str) -> Callable[..., Backend]:
    module, cls = _FACTORIES[name]
    factory: Callable[..., Backend] = getattr(importlib.import_module(module), cls)
    return factory


_INSTANCES: dict[str, Backend] = {}


def get_backend(name: str = "auto") -> Backend:
    """The shared backend instance called ``name`` (``"sat:cadical153"`` picks a SAT solver).

    Raises:
        BackendError: for an unknown name.
    """
    backend = _INSTANCES.get(name)
    if backend is None:
        backend = _INSTANCES[name] = _make(name)
    return backend


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
    """The backend ``name`` resolved for ``geometry`` (``auto`` picks the fastest that applies)."""
    backend = get_backend(name)
    if isinstance(backend, _AutoBackend):
        return backend.pick(geometry)
    if not backend.supports(geometry):
        raise BackendError(f"backend {name!r} does not support {geometry.name} grids")
    return backend


class _AutoBackend(Backend):
    """Delegates to ``fast`` where it supports the geometry, else to ``sat``.

    Every method of :class:`Backend` is delegated, not only ``solutions``: the
    generic defaults (a Python loop over ``count`` for ``count_many``, one
    ``other_solution`` per clue for ``removable_clues``) are much slower than
    the resolved backend's own.
    """

    name = "auto"

    def pick(self, geometry: Geometry) -> Backend:
        return _auto_choice(geometry)

    def supports(self, geometry: Geometry) -> bool:
        return self.pick(geometry).supports(geometry)

    def solutions(self, cells: Cells, geometry: Geometry, limit: int) -> list[Cells]:
        return self.pick(geometry).solutions(cells, geometry, limit)

    def count(self, cells: Cells, geometry: Geometry, limit: int = 2) -> int:
        return self.pick(geometry).count(cells, geometry, limit)

    def solve(self, cells: Cells, geometry: Geometry) -> Cells | None:
        return self.pick(geometry).solve(cells, geometry)

    def other_solution(self, cells: Cells, geometry: Geometry, known: Cells) -> Cells | None:
        return self.pick(geometry).other_solution(cells, geometry, known)

    def removable_clues(self, cells: Cells, geometry: Geometry, known: Cells) -> NDArray[np.intp]:
        return self.pick(geometry).removable_clues(cells, geometry, known)

    def count_many(
        self, cells: NDArray[np.integer], geometry: Geometry, limit: int = 2
    ) -> NDArray[np.int64]:
        return self.pick(geometry).count_many(cells, geometry, limit)


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
    for backend in _INSTANCES.values():
        backend.close()
    _INSTANCES.clear()


__all__ = ["Backend", "backend_for", "backend_names", "get_backend"]
