"""Packaging: one version source and an SPDX license string (no setuptools deprecation)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

import csp_sudoku

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_version_has_one_source() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "csp_sudoku.core._version.__version__"
    assert importlib.metadata.version("csp_sudoku") == csp_sudoku.__version__


def test_license_is_an_spdx_string() -> None:
    tomllib = pytest.importorskip("tomllib")
    data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert data["project"]["license"] == "MIT"
    requires = data["build-system"]["requires"]
    assert any(r.replace(" ", "").startswith("setuptools>=77") for r in requires)


def test_license_and_notice_ship_with_the_package() -> None:
    """LICENSE (MIT) and NOTICE (the references credited) are named as license files, so
    the sdist and the wheel carry them, and the installed metadata lists them."""
    tomllib = pytest.importorskip("tomllib")
    root = PYPROJECT.parent
    data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert data["project"]["license-files"] == ["LICENSE", "NOTICE"]
    assert "MIT License" in (root / "LICENSE").read_text(encoding="utf-8")
    notice = (root / "NOTICE").read_text(encoding="utf-8")
    for name in ("Sudoku Explainer", "SukakuExplainer", "LGPL-2.1", "tdoku", "HoDoKu"):
        assert name in notice
    listed = importlib.metadata.metadata("csp_sudoku").get_all("License-File") or []
    assert {"LICENSE", "NOTICE"} <= set(listed), listed
