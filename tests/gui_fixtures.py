"""Fixtures shared by the Qt tests: real windows over a real SQLite file (the leak detectors
are conftest's ``no_leaks``).

Used as a pytest plugin by the test_gui_* modules (``pytest_plugins``), so conftest.py stays
free of Qt for the core tests.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from PySide6.QtWidgets import QApplication

from desktop.db import DbOps
from desktop.main_window import MainWindow
from question_db.bank import load_bank
from question_db.model import Bank
from question_db.store import StoreWorker

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
    """One 'launch' of examdesk: a store worker, DbOps and a MainWindow on a DB file."""

    def __init__(self, qtbot, db_path: Path, settings_path: Path) -> None:
        self.qtbot = qtbot
        self.worker = StoreWorker(db_path)
        self.db = DbOps(self.worker)
        self.settings = QSettings(str(settings_path), QSettings.Format.IniFormat)
        self.window = MainWindow(self.db, self.settings, bundled_bank())
        self.window.show()
        qtbot.waitExposed(self.window)
        self.closed = False

    def wait_idle(self) -> None:
        """Every queued store job ran and its callback was delivered."""
        self.qtbot.waitUntil(lambda: self.db.pending == 0)

    def wait_screen(self, kind: type):
        self.qtbot.waitUntil(lambda: isinstance(self.window.screen_view, kind))
        return self.window.screen_view

    def quit(self) -> None:
        """Close like the learner would (window close), then stop the store thread."""
        if self.closed:
            return
        self.closed = True
        self.window.close()
        assert self.worker.close(), "store worker did not stop"
        self.window.deleteLater()
        self.db.deleteLater()
        QApplication.processEvents()
        _drain_deletes()


@pytest.fixture
def launch(qtbot, tmp_path):
    """Factory: ``launch()`` starts examdesk on this test's DB (``launch(folder)``: on a
    data dir of its own); every launch is cleaned up."""
    apps: list[App] = []

    def make(data_dir: Path | None = None) -> App:
        folder = data_dir or tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        app = App(qtbot, folder / "progress.sqlite3", folder / "settings.ini")
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
