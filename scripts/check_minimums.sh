#!/usr/bin/env bash
# Install csp_sudoku with the oldest release series its pyproject.toml allows and run a quick
# subset of the tests there: proof that the declared minimum versions really work.
#
# Each dependency `name>=X.Y` is pinned to `name==X.Y.*` (the oldest minor series allowed; pip
# takes its newest patch). The venv lives in $MIN_VENV (default /tmp/csp_sudoku_min_venv).
# Usage: bash scripts/check_minimums.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${MIN_VENV:-/tmp/csp_sudoku_min_venv}
PINS=$("$PY" - <<'PYEOF'
import re
import tomllib

deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
for dep in deps:
    m = re.fullmatch(r"([A-Za-z0-9_.\-\[\]]+)>=(\d+)\.(\d+)\S*", dep.strip())
    if not m:
        raise SystemExit(f"cannot read a minimum from {dep!r}")
    print(f"{m.group(1)}=={m.group(2)}.{m.group(3)}.*")
PYEOF
)
echo "== minimum pins:" $PINS
rm -rf "$VENV"
"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --pre $PINS
"$VENV/bin/python" -m pip install --quiet --no-deps -e .
"$VENV/bin/python" -m pip install --quiet "pytest>=8" "pytest-xdist>=3.5" "hypothesis>=6.100"
"$VENV/bin/python" -m pip list 2>/dev/null | grep -iE "^(numpy|numba|llvmlite|scipy|ortools|python-sat|tqdm) "
if [ "$#" -eq 0 ]; then
  set -- tests/test_bits.py tests/test_seeds.py tests/test_same_outputs.py tests/test_samples.py \
    tests/test_api.py tests/test_metrics.py tests/test_errors.py
fi
# a cache of its own: the kernels compiled by another numba stay where they are
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-$VENV/numba_cache}
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$@"
