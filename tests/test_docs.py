"""The examples of the README and of docs/ run, and say what they print.

* Every ```python block runs, on its own, in a fresh namespace (in a scratch folder).
  A line ``EXPR  # -> VALUE`` is checked: EXPR must equal the Python literal VALUE
  (numbers to the digits shown). A ```text block right after a python block is its
  output, compared line by line.
* Every ```sh block of the README runs, command by command, with ``csp-sudoku`` of this
  environment, in a scratch folder that has the project's ``examples/``; each command
  must exit 0 or 1 (1: "some puzzles are not unique", the example files hold such
  puzzles on purpose), never 2 or a traceback.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```\n", re.S | re.M)
_CHECKED = re.compile(r"^(?P<indent>\s*)(?P<expr>[^#\n]+?)\s+# -> (?P<want>.+?)(?:\s{2,}\(.*)?$")


def _blocks(path: Path) -> list[tuple[str, str, str | None]]:
    """(language, code, the text block right after it) of every fenced block."""
    text = path.read_text(encoding="utf-8")
    found = list(_BLOCK.finditer(text))
    out = []
    for i, m in enumerate(found):
        after = None
        if i + 1 < len(found):
            nxt = found[i + 1]
            if nxt.group(1) == "text" and text[m.end() : nxt.start()].strip() == "":
                after = nxt.group(2)
        out.append((m.group(1), m.group(2), after))
    return out


PYTHON = [
    pytest.param(code, after, id=f"{path.name}-{k}")
    for path in DOCS
    for k, (lang, code, after) in enumerate(_blocks(path))
    if lang == "python"
]
#: The set-up commands of the quick start are what the test run itself runs.
_SETUP = ("bash scripts/",)
SHELL = [
    pytest.param(lines, id=f"README-sh-{k}")
    for k, (lang, code, _) in enumerate(_blocks(ROOT / "README.md"))
    if lang == "sh"
    if (
        lines := [
            x for x in code.splitlines() if x.strip() and not x.lstrip().startswith(("#", *_SETUP))
        ]
    )
]


def _same(got: Any, want: Any) -> bool:
    """Equal, with floats compared to the digits ``want`` shows."""
    if isinstance(want, float) and isinstance(got, (int, float)):
        digits = len(repr(want).split(".")[1]) if "." in repr(want) else 0
        return round(float(got), digits) == want
    if isinstance(want, (tuple, list)) and isinstance(got, (tuple, list)):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want, strict=True))
    return bool(got == want)


def _instrumented(code: str) -> str:
    """The code with every ``EXPR  # -> VALUE`` line turned into a check."""
    lines = []
    for line in code.splitlines():
        m = _CHECKED.match(line)
        if m:
            want = m.group("want").strip()
            ast.literal_eval(want)  # a documented value must be a literal
            line = f"{m.group('indent')}__check__(({m.group('expr')}), {want!r})"
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize(("code", "after"), PYTHON)
def test_python_examples_run_and_say_what_they_print(
    code: str, after: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    checked: list[str] = []

    def check(got: Any, want_text: str) -> None:
        want = ast.literal_eval(want_text)
        assert _same(got, want), f"documented {want_text}, got {got!r}"
        checked.append(want_text)

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_instrumented(code), "<doc>", "exec"), {"__check__": check})
    if "# -> " in code:
        assert checked, "no documented value was checked"
    if after is not None:
        assert out.getvalue().splitlines() == after.splitlines()


@pytest.mark.parametrize("lines", SHELL)
def test_readme_shell_examples_run(lines: list[str], tmp_path: Path) -> None:
    """The lines of one block in turn, in one folder (a later line may read an earlier file)."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for line in lines:
        command = line.split("  #")[0]
        proc = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert proc.returncode in (0, 1), (
            f"{command}: exit {proc.returncode}\n{proc.stderr[-2000:]}"
        )
        assert "Traceback" not in proc.stderr
