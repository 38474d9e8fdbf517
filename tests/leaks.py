"""Leak detectors for the Qt and kernel tests (napari / Spyder style), used by conftest.py.

After a test marked ``gui`` or ``kernel``: no child process (a leaked kernel keeps GPU memory
on the learner's machine), no Python thread, no open file and no kernel file in the runtime
dir (connection file, ipc socket, log: issue 14 found 65 logs piling up) it started may be
left; for ``gui`` tests also no top-level widget and no running QTimer. Qt is imported only for
``gui`` tests, so the core tests stay Qt-free and pay nothing.
"""
from __future__ import annotations

import re
import threading
import time
import weakref
from pathlib import Path
from typing import Callable

import psutil

SETTLE_S = 10.0  # kernels and channel threads end within a second or two; waits, not asserts


def settle(condition: Callable[[], bool], timeout: float = SETTLE_S) -> bool:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.05)
    return condition()


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _describe(process: psutil.Process) -> str:
    try:
        return f"{process.pid} {' '.join(process.cmdline()[:4])}"
    except psutil.Error:
        return str(process.pid)


class QtWatch:
    """Top-level widgets and started QTimers (``QTimer.start`` is wrapped while watching)."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        self._app = QApplication.instance()
        self._windows = {id(w) for w in self._app.topLevelWidgets()}
        self._started: list[weakref.ref] = []
        self._original_start = QTimer.start
        started, original = self._started, self._original_start

        def tracking_start(timer, *args):
            started.append(weakref.ref(timer))
            return original(timer, *args)

        QTimer.start = tracking_start

    def problems(self) -> list[str]:
        import shiboken6
        from PySide6.QtCore import QCoreApplication, QEvent, QTimer

        QTimer.start = self._original_start
        for _ in range(3):  # deleteLater() of windows and docks closed by the test
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
            QCoreApplication.processEvents()
        found = []
        widgets = [type(w).__name__ for w in self._app.topLevelWidgets()
                   if id(w) not in self._windows]
        if widgets:
            found.append(f"widgets left behind: {widgets}")
        timers = [t for t in (r() for r in self._started)
                  if t is not None and shiboken6.isValid(t) and t.isActive()]
        if timers:
            found.append(f"timers still running: {timers}")
        return found


_KERNEL_FILE = re.compile(r"(?:kernel|ipc)-.*")


def _is_zmq_garbage_collector(thread: threading.Thread) -> bool:
    """pyzmq starts one garbage-collector thread per process the first time a message over
    its copy threshold (64 KiB) is sent without copying (the check harness install code is
    larger), and keeps it for the process's life: a singleton, not something a test leaked."""
    return type(thread).__module__.startswith("zmq.")


class LeakWatch:
    """What a test started and did not stop: ``problems()`` after the test."""

    def __init__(self, *, qt: bool, runtime_dir: Path | None = None) -> None:
        self._me = psutil.Process()
        self._threads = set(threading.enumerate())
        self._files = self._open_files()
        self._runtime_dir = runtime_dir
        self._kernel_files = self._runtime_files()
        self._qt = QtWatch() if qt else None

    def _runtime_files(self) -> set[str]:
        if self._runtime_dir is None or not self._runtime_dir.is_dir():
            return set()
        return {p.name for p in self._runtime_dir.iterdir() if _KERNEL_FILE.fullmatch(p.name)}

    def new_kernel_files(self) -> list[str]:
        return sorted(self._runtime_files() - self._kernel_files)

    def _open_files(self) -> set[str]:
        return {f.path for f in self._me.open_files()}

    def new_threads(self) -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t not in self._threads and t.is_alive()
                and not _is_zmq_garbage_collector(t)]

    def children(self) -> list[psutil.Process]:
        return [p for p in self._me.children(recursive=True) if _alive(p)]

    def new_files(self) -> list[str]:
        return sorted(self._open_files() - self._files)

    def problems(self, settle_s: float = SETTLE_S) -> list[str]:
        found = self._qt.problems() if self._qt is not None else []
        settle(lambda: not (self.new_threads() or self.children() or self.new_files()
                            or self.new_kernel_files()), settle_s)
        if children := self.children():
            found.append(f"child processes left behind: {[_describe(p) for p in children]}")
        if threads := self.new_threads():
            found.append(f"threads left behind: {[t.name for t in threads]}")
        if files := self.new_files():
            found.append(f"files left open: {files}")
        if files := self.new_kernel_files():
            found.append(f"kernel files left in {self._runtime_dir}: {files}")
        return found
