"""One error hierarchy: every exception class of the package derives from SudokuError."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import csp_sudoku
from csp_sudoku.core import errors
from csp_sudoku.core.errors import SudokuError

PACKAGE = Path(csp_sudoku.__file__).resolve().parent

#: Exception classes defined outside errors.py, with the reason they stay there.
DEFINED_ELSEWHERE = {
    "csp_sudoku.cli._resume.ResumeError": "a CLI-private error of the resume reader",
    "csp_sudoku.cli.generate.GenerateResumeError": "a CLI-private error of generate --resume",
}

#: ``raise`` of a builtin exception left in the library: (file, line text) -> reason.
BUILTIN_RAISES_ALLOWED = {
    ("cli/generate.py", "raise ValueError('no seed= field')"): "caught, reworded",
    ("cli/_resume.py", "raise TypeError"): "caught below and raised as ResumeError",
    ("cli/_resume.py", "raise ValueError('not an object')"): "caught, raised as ResumeError",
    ("cli/_resume.py", "raise ValueError('wrong number of fields')"): "caught, ResumeError",
    ("cli/variant_generate.py", "raise ValueError('not a JSON object')"): "caught, reworded",
    (
        "variants/generate.py",
        "raise TypeError(f'unexpected keyword argument {unknown[0]!r}')",
    ): "what Python raises for a keyword a function does not take (**run: TargetOptions)",
}

_BUILTIN_ERRORS = {
    "ValueError",
    "TypeError",
    "RuntimeError",
    "KeyError",
    "IndexError",
    "Exception",
    "AssertionError",
    "LookupError",
}


def _all_modules() -> list[str]:
    names = ["csp_sudoku"]
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="csp_sudoku."):
        if info.name == "csp_sudoku.__main__":
            continue
        names.append(info.name)
    return names


def _package_exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _all_modules():
        module = importlib.import_module(name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__.startswith("csp_sudoku"):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return list(found.values())


def test_every_package_exception_derives_from_the_base() -> None:
    classes = _package_exceptions()
    assert len(classes) >= 15  # every module was imported and searched
    bad = [c.__qualname__ for c in classes if not issubclass(c, SudokuError)]
    assert not bad, f"exception classes outside the SudokuError hierarchy: {bad}"


def test_exception_classes_are_defined_in_errors_py() -> None:
    elsewhere = {
        f"{c.__module__}.{c.__qualname__}"
        for c in _package_exceptions()
        if c.__module__ != errors.__name__
    }
    assert elsewhere == set(DEFINED_ELSEWHERE)


@pytest.mark.parametrize(
    ("name", "also"),
    [
        ("ParseError", ValueError),
        ("GeometryError", ValueError),
        ("SeedError", ValueError),
        ("ArgumentError", ValueError),
        ("MetricError", ValueError),
        ("SymmetryError", ValueError),
    ],
)
def test_validation_errors_are_value_errors_too(name: str, also: type[Exception]) -> None:
    cls = getattr(errors, name)
    assert issubclass(cls, SudokuError) and issubclass(cls, also)


def test_old_import_paths_still_name_the_same_classes() -> None:
    from csp_sudoku.generators import BudgetExhaustedError, GenerationError
    from csp_sudoku.generators.symmetry import SymmetryError
    from csp_sudoku.metrics import MetricError
    from csp_sudoku.tools.bank import BankError

    assert BankError is errors.BankError and MetricError is errors.MetricError
    assert GenerationError is errors.GenerationError
    assert BudgetExhaustedError is errors.BudgetExhaustedError
    assert SymmetryError is errors.SymmetryError


def test_the_library_raises_its_own_errors() -> None:
    """No ``raise ValueError(...)`` and the like in the package, bar the listed ones."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id in _BUILTIN_ERRORS:
                found.add((path.relative_to(PACKAGE).as_posix(), ast.unparse(node)))
    assert found == set(BUILTIN_RAISES_ALLOWED)


def test_bad_arguments_are_argument_errors() -> None:
    from csp_sudoku.api import count_solutions
    from csp_sudoku.core.errors import ArgumentError
    from csp_sudoku.core.io import parse
    from csp_sudoku.human.path import solve_path

    p = parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
    with pytest.raises(ArgumentError, match="limit must be at least 1"):
        count_solutions(p, limit=0)
    # every call that takes a limit checks it alike: a cap of 0 read "no solution"
    # (count_many, Checker.count), one of 2.5 came back as 3, solutions(limit=-1) as []
    from csp_sudoku.api import Checker, count_many, solutions

    with Checker() as checker:
        calls: list[Callable[[Any], object]] = [
            lambda lim: count_solutions(p, limit=lim),
            lambda lim: count_many([p], limit=lim),
            lambda lim: checker.count(p, limit=lim),
            lambda lim: solutions(p, limit=lim),
        ]
        for call in calls:
            for bad, why in ((0, "at least 1"), (-1, "at least 1"), (2.5, "whole number")):
                with pytest.raises(ArgumentError, match=why):
                    call(bad)
            with pytest.raises(ArgumentError, match="whole number"):
                call(True)
    for not_text in (None, 5, p.cells, b"4...3"):
        with pytest.raises(ArgumentError, match="parse reads puzzle text"):
            parse(not_text)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="unknown technique"):
        solve_path(p, ("singles", "magic"))
    with pytest.raises(ValueError, match="max_subset"):  # callers catching ValueError still do
        solve_path(p, max_subset=0)
