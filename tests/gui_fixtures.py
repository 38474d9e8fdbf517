"""Fixtures shared by the Qt tests: real windows over a real SQLite file, and leak detectors.

Used as a pytest plugin by the test_gui_* modules (``pytest_plugins``), so conftest.py stays
free of Qt for the core tests.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import weakref
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QTimer
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


@pytest.fixture(autouse=True)
def no_leaked_qt_objects(qapp, monkeypatch):
    """napari/Spyder style: after each test no window, running timer or thread is left."""
    windows_before = {id(w) for w in qapp.topLevelWidgets()}
    threads_before = set(threading.enumerate())
    started: list[weakref.ref] = []
    original_start = QTimer.start

    def tracking_start(self, *args):
        started.append(weakref.ref(self))
        return original_start(self, *args)

    monkeypatch.setattr(QTimer, "start", tracking_start)
    yield
    _drain_deletes()
    leaked = [w for w in qapp.topLevelWidgets() if id(w) not in windows_before]
    assert not leaked, f"widgets left behind: {[type(w).__name__ for w in leaked]}"
    running = [t for t in (r() for r in started)
               if t is not None and shiboken6.isValid(t) and t.isActive()]
    assert not running, f"timers still running: {running}"
    threads = [t.name for t in set(threading.enumerate()) - threads_before if t.is_alive()]
    assert not threads, f"threads left behind: {threads}"


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
