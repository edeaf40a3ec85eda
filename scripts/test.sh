#!/usr/bin/env bash
# Quick start, step 2: set up, then run the whole test suite with the linters and the type checker.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -m "not slow"`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff"
.venv/bin/ruff check csp_sudoku tests benchmarks examples
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -n 2 "$@"
