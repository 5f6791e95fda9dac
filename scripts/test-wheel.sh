#!/usr/bin/env bash
# The Python package as a user gets it: build the wheel (libmoa.so inside), install it into a fresh virtual
# environment, and from a directory outside the repository, with an empty PYTHONPATH and no MOA_LIBRARY, check
# that `import moa` loads the venv's copy of the library (and uses the wheel's moa._speedups, the compiled module
# the backend puts in when this Python has its headers and a C compiler: the wheel is then tagged cp3XX-cp3XX),
# run `python -m moa`, and run the package's test suite (a copy of bindings/python/tests) against the installed
# package.
#
#   scripts/test-wheel.sh            # PYTHON=python3 by default
#   PYTHON=/usr/bin/python3 scripts/test-wheel.sh
#
# Needs build/lib/libmoa.so (or MOA_LIBRARY for the build step; otherwise the build backend runs `make lib`,
# which needs Swift), a Python with venv and pip (Debian: python3-venv, python3-pip), and PyPI for pytest and
# mypy (installed into the venv only). Leaves build/wheel/moa-*.whl and build/venv-wheel.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}
WHEEL_DIR=$ROOT/build/wheel
VENV=$ROOT/build/venv-wheel
export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1

say() { printf 'test-wheel: %s\n' "$*"; }

# 1. The wheel, built by the in-tree backend (bindings/python/_moa_build.py; no build dependency).
rm -rf "$WHEEL_DIR"
mkdir -p "$WHEEL_DIR"
say "building the wheel with $("$PYTHON" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
(cd "$ROOT" && "$PYTHON" -m pip wheel --no-deps -q -w "$WHEEL_DIR" ./bindings/python)
wheels=("$WHEEL_DIR"/moa-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
    say "expected one wheel in $WHEEL_DIR, found: ${wheels[*]}" >&2
    exit 1
fi
WHEEL=${wheels[0]}
case "$WHEEL" in
    *-none-any.whl) say "$WHEEL is tagged for any platform: it ships a native library" >&2; exit 1 ;;
esac
say "built $(basename "$WHEEL"):"
"$PYTHON" -m zipfile -l "$WHEEL" | sed 's/^/    /'

# 2. A fresh venv (no system site packages) with the wheel, pytest and mypy in it.
say "installing it into a fresh venv, $VENV"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
PY=$VENV/bin/python
"$PY" -m pip install -q --no-deps --no-index "$WHEEL"
"$PY" -m pip install -q pytest mypy

# 3. From outside the checkout, with nothing pointing into it.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/moa-test-wheel.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
run() {
    env -u MOA_LIBRARY -u MOA_FONT_LIBRARY -u MOA_HEADER -u MOA_PYTHON_SPEEDUPS PYTHONPATH= PYTHONNOUSERSITE=1 "$@"
}

say "import check"
run "$PY" - "$ROOT" <<'EOF'
import importlib
import os
import sys

import moa

root, venv = os.path.realpath(sys.argv[1]), os.path.realpath(sys.prefix)
inside = lambda p: os.path.realpath(p).startswith(venv + os.sep)  # noqa: E731
assert inside(moa.__file__), "moa imported from %s, not from the venv %s" % (moa.__file__, venv)
assert inside(moa.library_path), "library loaded from %s, not from the venv %s" % (moa.library_path, venv)
assert os.path.basename(moa.library_path) == "libmoa.so" and os.path.dirname(moa.library_path) == \
    os.path.dirname(moa.__file__), moa.library_path
assert os.path.isfile(os.path.join(os.path.dirname(moa.__file__), "py.typed"))
# Nothing of the checkout on sys.path (the venv lies in build/, so its own directories are the exception).
assert not [p for p in sys.path if p and os.path.realpath(p).startswith(root + os.sep) and not inside(p)], sys.path
# The compiled module: in use when the wheel has it (MOA_PYTHON_SPEEDUPS is unset here), from the venv.
speedups = importlib.import_module("moa._lib").speedups
shipped = [n for n in os.listdir(os.path.dirname(moa.__file__)) if n.startswith("_speedups") and n.endswith(".so")]
assert (speedups is not None) == bool(shipped), (speedups, shipped)
assert speedups is None or inside(speedups.__file__), speedups.__file__
with moa.Layout(320, 480) as L:
    L.view("a")
    L.eqs("a.left == 10\na.top == 0\na.width == 100\na.height == 50")
    L.solve()
    assert L["a"].frame == moa.Rect(10, 0, 100, 50)
print("    moa %s from %s; library %s; has_font() = %s; moa._speedups: %s" % (
    moa.version, os.path.dirname(moa.__file__), moa.library_path, moa.has_font(),
    os.path.basename(speedups.__file__) if speedups else "none (ctypes only)"))
EOF

say "python -m moa"
run "$PY" -m moa | sed 's/^/    /'
test -s moa-demo.svg && head -c 4 moa-demo.svg | grep -q '<svg'
if run "$PY" -m moa --out "$WORK/missing/demo.svg" >/dev/null 2>&1; then
    say "python -m moa --out into a missing directory did not fail" >&2
    exit 1
fi
run "$PY" -m moa --strip --out "$WORK/strip.svg" >/dev/null
head -c 4 "$WORK/strip.svg" | grep -q '<svg'

say "the test suite against the installed package"
cp -r "$ROOT/bindings/python/tests" "$WORK/tests"
rm -rf "$WORK/tests/__pycache__"
# MOA_SOURCE_ROOT: the checkout's Include/moa.h and examples/ (data the tests read; no code is imported from it).
if ! run env MOA_SOURCE_ROOT="$ROOT" MOA_TEST_INSTALLED=1 "$PY" -m pytest -q -p no:cacheprovider tests 2>&1 |
        tee "$WORK/pytest.log" | sed 's/^/    /'; then
    say "the tests failed against the installed package" >&2
    exit 1
fi
summary=$(grep -E '^[0-9]+ passed' "$WORK/pytest.log" | tail -1)

say "ok: $(basename "$WHEEL") installed in build/venv-wheel; import, python -m moa and the tests ($summary) pass"
