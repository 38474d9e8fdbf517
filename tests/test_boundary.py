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


# --- the layers, enforced by import-linter (contracts in pyproject.toml) --------------------
REPO = __import__("pathlib").Path(__file__).resolve().parents[1]
LINT_IMPORTS = [sys.executable, "-c", "import sys; from importlinter.cli import "
                "lint_imports_command; sys.exit(lint_imports_command())", "--no-cache"]


def test_import_contracts_hold():
    """question_db imports no Qt and no desktop; desktop is layered launch -> app ->
    main_window -> views | console -> db -> config; no package has an import cycle."""
    proc = subprocess.run(LINT_IMPORTS, cwd=REPO, capture_output=True, text=True)
    if proc.returncode != 0 and "No module named" in proc.stderr:
        raise AssertionError(f"import-linter is not installed: {proc.stderr}")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def test_import_contracts_would_catch_a_violation(tmp_path):
    """The contracts are not vacuous: a core module importing Qt breaks the first, a leaf
    importing the window breaks the layers and makes a cycle."""
    import shutil

    copy = tmp_path / "repo"
    shutil.copytree(REPO, copy, ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "*.png", "papers", "tests", "bench", "docs"))
    (copy / "question_db" / "leaky.py").write_text("from PySide6 import QtCore\n")
    (copy / "desktop" / "config.py").write_text(
        (copy / "desktop" / "config.py").read_text() + "\nfrom .main_window import MainWindow\n")
    proc = subprocess.run(LINT_IMPORTS, cwd=copy, capture_output=True, text=True,
                          env={**__import__("os").environ, "PYTHONPATH": str(copy)})
    assert proc.returncode != 0
    assert "question_db.leaky -> PySide6" in proc.stdout
    assert "desktop.config -> desktop.main_window" in proc.stdout  # the layers
    assert ".config -> .main_window" in proc.stdout  # and the cycle it makes
    assert "0 kept, 3 broken" in proc.stdout
