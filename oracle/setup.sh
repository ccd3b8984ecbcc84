#!/usr/bin/env bash
# oracle/setup.sh: makes the oracle's virtual environment once (Triton and
# IREE's compiler, pinned in requirements.txt) and reuses it after; prints
# the path of its Python on standard output, the one line the caller needs:
#
#   export PLANNER_ORACLE_PYTHON=$(oracle/setup.sh)
#
# The environment lives in $PLANNER_ORACLE_VENV, by default
# ${XDG_CACHE_HOME:-$HOME/.cache}/planner-oracle/venv. A stamp beside it
# holds the hash of requirements.txt: when the pins change, it is made anew.
# Progress goes to standard error.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${PLANNER_ORACLE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/planner-oracle/venv}"
python="${PLANNER_ORACLE_BASE_PYTHON:-python3}"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
stamp="$venv/.planner-oracle-stamp"

if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	echo "$venv/bin/python"
	exit 0
fi

echo "oracle: making $venv (triton, iree-base-compiler; about 1.5 GB)" >&2
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >&2
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt" >&2
"$venv/bin/python" - >&2 <<'PY'
import triton, iree.compiler
print("oracle: triton", triton.__version__, "and iree.compiler ready")
PY
echo "$want" >"$stamp"
echo "$venv/bin/python"
