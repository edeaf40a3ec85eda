"""The generator registry: every ``method`` of :func:`csp_sudoku.generate`, found by name.

A *base generator* makes one unique puzzle and its solution from a
:class:`BaseRequest` (the shape, the attempt's random generator, a uniqueness
checker, the target, and a list to note what a puzzle was derived from); the
searches of :mod:`csp_sudoku.generators.target` (``auto``, ``climb``, and the
strategies below) then make it symmetric, minimal and on target. To add one,
copy ``generators/TEMPLATE.py`` and add its line to :data:`BASES` (and its name
to :data:`csp_sudoku.core.names.MethodName`, the Literal type checkers read).

A *search strategy* (:data:`~csp_sudoku.generators.search.base.Strategy`)
invents puzzles at the hard end from scratch, from a
:class:`~csp_sudoku.generators.search.base.SearchRequest` (the shape, the target,
the chain's random generator, ...) and the run's
:class:`~csp_sudoku.generators.search.settings.SearchSettings`: ``anneal``, and
``auto`` for the targets random puzzles rarely reach. To add one, copy
``generators/search/TEMPLATE.py`` and add its line to :data:`STRATEGIES` (and
its name to ``MethodName``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from csp_sudoku.core.errors import GenerationError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Grid

if TYPE_CHECKING:
    from csp_sudoku.api import Checker
    from csp_sudoku.generators.search.base import Strategy
    from csp_sudoku.generators.targeting import Target

__all__ = [
    "AUTO_STRATEGY",
    "BASES",
    "SEARCHES",
    "STRATEGIES",
    "BaseGenerator",
    "BaseRequest",
    "base_generator",
    "search_strategy",
]


@dataclass(frozen=True)
class BaseRequest:
    """What a base generator is given for one attempt.

    Attributes:
        geometry: the shape of the puzzle.
        rng: the attempt's random generator (the only source of randomness).
        checker: a uniqueness checker for ``geometry``.
        target: the run's target (a generator may steer by it, like ``ddg``).
        origin: a list to append what the puzzle was derived from (a published
            puzzle, for ``pseudo``); it is reported as ``derived_from``.
    """

    geometry: Geometry
    rng: np.random.Generator
    checker: Checker
    target: Target
    origin: list[str] = field(default_factory=list)


#: A base generator: a unique puzzle and its solution (flat arrays), or None to retry.
BaseGenerator = Callable[[BaseRequest], "tuple[Grid, Grid] | None"]

#: Hard-end search strategies by method name: ``"module:function"``, imported on first use.
STRATEGIES: dict[str, str] = {
    "anneal": "csp_sudoku.generators.anneal:search",
}

#: The strategy ``auto`` runs for the targets random puzzles rarely reach.
AUTO_STRATEGY = "anneal"

#: The searches built into :func:`csp_sudoku.generate`: ``auto`` and ``climb`` drive
#: the bases below, the strategies search on their own.
SEARCHES: tuple[str, ...] = ("auto", "climb", *STRATEGIES)

#: Base generators by method name: ``"module:function"``, imported on first use.
BASES: dict[str, str] = {
    "random": "csp_sudoku.generators.grids:base",
    "rg1": "csp_sudoku.generators.rg1:base",
    "ddg": "csp_sudoku.generators.ddg:base",
    "oracle": "csp_sudoku.generators.oracle_gen:base",
    "hsolve": "csp_sudoku.generators.hsolve_gen:base",
    "pseudo": "csp_sudoku.generators.hsolve_gen:pseudo_base",
}


def base_generator(name: str) -> BaseGenerator:
    """The base generator registered as ``name``.

    Raises:
        GenerationError: no base generator has that name; the message lists them.
    """
    made: BaseGenerator = _load(BASES, "base generator", name)
    return made


def search_strategy(name: str) -> Strategy:
    """The search strategy registered as ``name``.

    Raises:
        GenerationError: no strategy has that name; the message lists them.
    """
    made: Strategy = _load(STRATEGIES, "search strategy", name)
    return made


def _load(table: dict[str, str], kind: str, name: str) -> Any:
    """The function ``table`` registers as ``name`` (``"module:function"``, its module
    imported now); an unknown name is an error naming the ``kind`` and the names."""
    where = table.get(name)
    if where is None:
        raise GenerationError(f"unknown {kind} {name!r}; choose one of {', '.join(table)}")
    module, function = where.split(":")
    return getattr(importlib.import_module(module), function)
