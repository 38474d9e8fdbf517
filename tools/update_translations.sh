#!/usr/bin/env bash
# Refresh the zh_CN translation from the code, then compile it for the app.
#
#   tools/update_translations.sh          lupdate (merge, drop obsolete) + check + lrelease
#
# Sources: every Python file under desktop/ (any depth) and question_db/messages.py (the
# storage/recovery message catalogue, marked with QT_TRANSLATE_NOOP("Messages", …)).
# The PySide6 tools are taken from $PYSIDE6_BIN, else .venv/bin, else the PATH; the
# Python that runs the extraction check is the one beside them.
set -euo pipefail
cd "$(dirname "$0")/.."

TS=resources/translations/examdesk_zh_CN.ts
QM=resources/translations/examdesk_zh_CN.qm

tool() {
    if [[ -n "${PYSIDE6_BIN:-}" ]]; then echo "$PYSIDE6_BIN/$1"
    elif [[ -x ".venv/bin/$1" ]]; then echo ".venv/bin/$1"
    elif command -v "$1" >/dev/null; then command -v "$1"
    else echo "update_translations.sh: $1 not found; set PYSIDE6_BIN to its folder" >&2; exit 1
    fi
}
LUPDATE=$(tool pyside6-lupdate)
LRELEASE=$(tool pyside6-lrelease)
PYTHON=$(dirname "$LUPDATE")/python
[[ -x "$PYTHON" ]] || PYTHON=python3

mapfile -t SOURCES < <(find desktop -name '*.py' -not -path '*/__pycache__/*' | LC_ALL=C sort)
SOURCES+=(question_db/messages.py)

"$LUPDATE" -no-obsolete "${SOURCES[@]}" -ts "$TS"
"$PYTHON" tools/check_translation_sources.py "$TS" "${SOURCES[@]}"
"$LRELEASE" "$TS" -qm "$QM"

unfinished=$(grep -c 'type="unfinished"' "$TS" || true)
if [[ "$unfinished" != 0 ]]; then
    echo "$unfinished entr(y/ies) to translate in $TS (pyside6-linguist $TS), then run this again."
fi
