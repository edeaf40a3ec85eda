#!/usr/bin/env bash
# Create .venv (if missing) and install csp_sudoku with its development tools.
# Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
if ! .venv/bin/python -c "import csp_sudoku, pytest, hypothesis, mypy, ruff" >/dev/null 2>&1 \
   || [ pyproject.toml -nt .venv/.installed ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[dev,compile]"
  touch .venv/.installed
fi
# Byte-compile the package, as pip does for a regular install: an editable install is
# otherwise compiled from source at every start when PYTHONDONTWRITEBYTECODE is set
# (about 30 ms of a 0.25 s `csp-sudoku check PUZZLE`). Up-to-date files are skipped.
.venv/bin/python -m compileall -q csp_sudoku >/dev/null
# The 9x9 `check` kernels built ahead of time (a C compiler is needed; 5-10 s the first
# time, nothing once built): `check` then starts without numba. Without them it still
# works, with numba's kernels. --warm fills numba's cache with the kernels of the metrics,
# the 9x9 generators, the variant search and counting on other shapes (about 2 min of
# compiling on two cores the first time, a few seconds once cached), so that the first
# `rate --metric se` takes about a second instead of 5-45 s.
.venv/bin/csp-sudoku compile --warm >/dev/null || echo "note: the kernels were not built ahead of time; check uses numba's"
