"""The core never imports Qt: proven in a fresh interpreter."""
import pkgutil
import subprocess
import sys

import question_db

FORBIDDEN = ("PySide6", "qtpy", "qtconsole", "PyQt5", "PyQt6")


def test_question_db_imports_no_qt():
    modules = [m.name for m in pkgutil.walk_packages(question_db.__path__, "question_db.")
               if not m.name.endswith("__main__")]
    assert "question_db.checks.runner" in modules  # the walk really found the subpackages
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "", f"question_db pulled in Qt modules: {out}"
