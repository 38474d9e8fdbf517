"""Fixtures shared by the Qt tests: examdesk built by its one composition root
(``desktop.app.build_app``, as a launch builds it) over a real data folder, without a kernel
(the leak detectors are conftest's ``no_leaks``).

Used as a pytest plugin by the test_gui_* modules (``pytest_plugins``), so conftest.py stays
free of Qt for the core tests.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.app import build_app
from desktop.config import Options
from question_db.bank import load_bank
from question_db.model import Bank

_BANK: Bank | None = None


def bundled_bank() -> Bank:
    """The bundled papers, loaded once per test run (they are immutable records)."""
    global _BANK
    if _BANK is None:
        _BANK = load_bank()
    return _BANK


def _drain_deletes() -> None:
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        QCoreApplication.processEvents()


@pytest.fixture
def no_leaked_qt_objects():
    """Kept so the test modules' imports still work: the detector is now conftest's
    ``no_leaks`` (tests/leaks.py), applied to every test marked ``gui`` or ``kernel``."""
    yield


class App:
    """One 'launch' of examdesk on a data folder (``build_app``, no kernel): the bundled bank
    is parsed once per test run and handed in, everything else is the production wiring."""

    def __init__(self, qtbot, data_dir: Path, settings_path: Path,
                 bank: Bank | None = None) -> None:
        self.qtbot = qtbot
        self.settings = QSettings(str(settings_path), QSettings.Format.IniFormat)
        self.running = build_app(Options(data_dir=data_dir, no_kernel=True),
                                 settings=self.settings, bank=bank or bundled_bank())
        self.db = self.running.db
        self.window = self.running.window
        qtbot.waitExposed(self.window)
        self.closed = False
        self.wait_idle()  # the store opened after the first paint; the library is filled

    @property
    def worker(self):
        return self.db.worker

    def wait_idle(self) -> None:
        """Every queued store job ran and its callback was delivered."""
        self.qtbot.waitUntil(lambda: self.db.pending == 0 and self.db.worker.ready.done(),
                             timeout=10_000)

    def wait_screen(self, kind: type):
        self.qtbot.waitUntil(lambda: isinstance(self.window.screen_view, kind))
        return self.window.screen_view

    def quit(self) -> None:
        """Close like the learner would (window close), then stop the store thread."""
        if self.closed:
            return
        self.closed = True
        for box in self.window.findChildren(QMessageBox):
            box.close()
        self.window.close()
        self.running.shutdown()
        assert not self.db.worker._thread.is_alive(), "store worker did not stop"
        self.window.deleteLater()
        self.db.deleteLater()
        QApplication.processEvents()
        _drain_deletes()


@pytest.fixture
def launch(qtbot, tmp_path):
    """Factory: ``launch()`` starts examdesk on this test's DB (``launch(folder)``: on a
    data dir of its own; ``bank=``: on other papers than the bundled ones); every launch is
    cleaned up."""
    apps: list[App] = []

    def make(data_dir: Path | None = None, bank: Bank | None = None) -> App:
        folder = data_dir or tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        app = App(qtbot, folder, folder / "settings.ini", bank)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.quit()


def db_rows(db_path: Path, sql: str, params=()) -> list[dict]:
    """Read the progress DB from outside the app (a second connection, as a check)."""
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    try:
        rows = [dict(r) for r in conn.execute(sql, params)]
    finally:
        conn.close()
    for row in rows:
        for key in ("response", "grade"):
            if isinstance(row.get(key), str):
                row[key] = json.loads(row[key])
    return rows
