#!/usr/bin/env bash
# Quick start, step 2: set up, then run the whole test suite with the linters and the type checker.
# By default it runs every test, the slow whole-data-set checks included; extra arguments go
# to pytest and replace that selection (e.g. `bash scripts/test.sh -m "not slow"` for a quick run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff"
.venv/bin/ruff check csp_sudoku tests benchmarks examples
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
if [ "$#" -eq 0 ]; then
  set -- -m "slow or not slow"
fi
.venv/bin/python -m pytest -n 2 --durations=15 "$@"
