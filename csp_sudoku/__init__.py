"""csp_sudoku: a constraint-programming and SAT engine for Sudoku.

Quick use::

    import csp_sudoku as cs
    cs.is_unique("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    cs.count_solutions(puzzle, limit=10)
    cs.solve(puzzle)

See the README for the command line and the rest of the API.
"""

from typing import TYPE_CHECKING, Any

from csp_sudoku.core._version import __version__

if TYPE_CHECKING:
    from csp_sudoku.api import (
        Checker,
        PuzzleLike,
        as_puzzle,
        count_many,
        count_solutions,
        is_minimal,
        is_unique,
        removable_clues,
        solutions,
        solve,
    )
    from csp_sudoku.backends import backend_names, get_backend
    from csp_sudoku.core.errors import (
        BackendError,
        GeometryError,
        NotUniqueError,
        ParseError,
        SudokuError,
    )
    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.core.io import format_grid, format_line, parse, read_puzzles, write_puzzles
    from csp_sudoku.core.names import MethodName, MetricName, SymmetryName, TechniqueName
    from csp_sudoku.core.puzzle import Clash, Puzzle
    from csp_sudoku.core.verify import is_solution

#: Every public name but the version, loaded on first use (PEP 562): public name ->
#: (module, name there). Nothing is imported with the package, so that the command
#: line (:func:`csp_sudoku.cli.entry`) sets its Ctrl-C and SIGTERM handlers before
#: numpy loads: a Ctrl-C in the first half second was a traceback from numpy's import.
_EXPORTS: dict[str, tuple[str, str]] = {
    **{
        name: ("csp_sudoku.api", name)
        for name in (
            "Checker",
            "PuzzleLike",
            "as_puzzle",
            "count_many",
            "count_solutions",
            "is_minimal",
            "is_unique",
            "removable_clues",
            "solutions",
            "solve",
        )
    },
    "backend_names": ("csp_sudoku.backends", "backend_names"),
    "get_backend": ("csp_sudoku.backends", "get_backend"),
    **{
        name: ("csp_sudoku.core.errors", name)
        for name in ("BackendError", "GeometryError", "NotUniqueError", "ParseError", "SudokuError")
    },
    "Geometry": ("csp_sudoku.core.geometry", "Geometry"),
    **{
        name: ("csp_sudoku.core.io", name)
        for name in ("format_grid", "format_line", "parse", "read_puzzles", "write_puzzles")
    },
    **{
        name: ("csp_sudoku.core.names", name)
        for name in ("MethodName", "MetricName", "SymmetryName", "TechniqueName")
    },
    "Clash": ("csp_sudoku.core.puzzle", "Clash"),
    "Puzzle": ("csp_sudoku.core.puzzle", "Puzzle"),
    "is_solution": ("csp_sudoku.core.verify", "is_solution"),
}

__all__ = [
    "BackendError",
    "Checker",
    "Clash",
    "Geometry",
    "GeometryError",
    "MethodName",
    "MetricName",
    "NotUniqueError",
    "ParseError",
    "Puzzle",
    "PuzzleLike",
    "Rating",
    "SudokuError",
    "SymmetryName",
    "TechniqueName",
    "__version__",
    "as_puzzle",
    "backend_names",
    "count_many",
    "count_solutions",
    "format_grid",
    "format_line",
    "get_backend",
    "is_minimal",
    "is_solution",
    "is_unique",
    "parse",
    "rate",
    "rate_many",
    "read_puzzles",
    "removable_clues",
    "solutions",
    "solve",
    "write_puzzles",
]

if TYPE_CHECKING:
    from csp_sudoku.generators import generate, minimize, neighbour, random_grid
    from csp_sudoku.metrics import Rating, rate, rate_many
    from csp_sudoku.metrics.se import next_step, solve_path

#: Names loaded from the generators on first use (they bring numba in).
_LAZY = ("generate", "minimize", "neighbour", "random_grid")
__all__ += ["generate", "minimize", "neighbour", "next_step", "random_grid", "solve_path"]

# Variant Sudoku (docs/variants.md), loaded on first use (python-sat and OR-tools):
# public name -> (module, name there).
_VARIANTS = {
    "VariantPuzzle": ("csp_sudoku.constraints", "VariantPuzzle"),
    "from_fpuzzles": ("csp_sudoku.constraints", "from_fpuzzles"),
    "parse_fpuzzles": ("csp_sudoku.constraints", "parse_fpuzzles"),
    "to_fpuzzles": ("csp_sudoku.constraints", "to_fpuzzles"),
    "check_variant": ("csp_sudoku.variants", "check"),
    "count_variant": ("csp_sudoku.variants", "count"),
    "solve_variant": ("csp_sudoku.variants", "solve"),
    "variant_solutions": ("csp_sudoku.variants", "solutions"),
    "variant_candidates": ("csp_sudoku.variants", "candidates"),
}
__all__ += list(_VARIANTS)


def __dir__() -> list[str]:
    """The public names, loaded or not (``dir(csp_sudoku)``, completion)."""
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str) -> Any:
    """Lazy exports: the core API's names (:data:`_EXPORTS`) load their modules
    (numpy), ``generate`` (and the other generator functions of
    :data:`_LAZY`) load the generators (and numba), ``rate``, ``rate_many`` and
    ``Rating`` the metrics, ``next_step`` (the next hint of the se path) and
    ``solve_path`` (the whole se path, the explanation) the se metric, on first use, so that importing the package (and
    ``csp-sudoku check``) pays for neither."""
    import importlib
    import importlib.util

    if name in _EXPORTS or name in _VARIANTS:
        module, attr = _EXPORTS.get(name) or _VARIANTS[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value  # looked up here from now on
        return value
    if name in _LAZY:
        from csp_sudoku import generators

        return getattr(generators, name)
    if name in ("next_step", "solve_path"):
        from csp_sudoku.metrics import se

        return getattr(se, name)
    if name in ("Rating", "rate", "rate_many"):
        from csp_sudoku import metrics

        return getattr(metrics, name)
    if (
        name.isidentifier()
        and not name.startswith("_")
        and importlib.util.find_spec(f"csp_sudoku.{name}") is not None
    ):
        # a subpackage (``csp_sudoku.api`` after a bare ``import csp_sudoku``)
        return importlib.import_module(f"csp_sudoku.{name}")
    raise AttributeError(f"module 'csp_sudoku' has no attribute {name!r}")
