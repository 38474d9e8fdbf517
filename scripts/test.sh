#!/usr/bin/env bash
# Set up .venv and run the whole test suite headless. This is exactly what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -c tests/constraints.txt -e '.[test]'
# Qt needs a few system libraries even offscreen; install them where we may (CI runs as root).
if ! .venv/bin/python -c "from PySide6 import QtWidgets" 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && apt-get install -y -qq libegl1 libgl1 libxkbcommon0 \
            libfontconfig1 libdbus-1-3 >/dev/null
    else
        echo "PySide6 cannot load: install libegl1 libgl1 libxkbcommon0 libfontconfig1" >&2
    fi
fi
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
