"""Unhandled exceptions in the GUI: logged to ``<data>/logs/examdesk.log`` and shown in one
non-blocking dialog with the traceback and a "Copy details" button.

``install_crash_reporting(data_dir)`` replaces ``sys.excepthook`` (PySide6 calls it for an
exception escaping a slot, a timer callback or a virtual method) and ``threading.excepthook``
(worker threads). The log file opens once the app calls ``open_log()`` after its first
paint (its imports cost ~35 ms; ``question_db.logs``); records from before are kept and
written first, and a crash before then opens it at once. A burst of exceptions shows one
dialog: later ones are counted in it and appended to its details, never a second box.
"""
from __future__ import annotations

import logging
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QApplication, QMessageBox

from question_db import logs

log = logging.getLogger(__name__)
STDERR_FORMAT = "%(levelname)s %(name)s: %(message)s"


class CrashReporter(QObject):
    """Owns the exception hooks, the log file and the one error dialog."""

    sig_reported = Signal(str)
    """An unhandled exception was logged (its traceback text); the dialog follows."""

    _sig_queued = Signal(str)  # traceback text, from any thread to the UI thread

    MAX_TRACEBACKS = 10  # kept in one dialog's details; the log file has every one

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data_dir = Path(data_dir)
        self.log_file = logs.log_file(self.data_dir)
        self.box: QMessageBox | None = None
        self.more = 0  # exceptions since the dialog opened
        self._tracebacks: list[str] = []
        self._early: logs.EarlyRecords | None = None
        self._handler: logging.Handler | None = None
        self._opening = threading.Lock()
        self._hooks: tuple | None = None
        self._sig_queued.connect(self._show, Qt.ConnectionType.QueuedConnection)

    # --- hooks and log --------------------------------------------------------------------
    def install(self) -> None:
        """Take over ``sys.excepthook`` and ``threading.excepthook``; keep early records."""
        if self._hooks is not None:
            return
        self._early = logs.collect_early_records()
        self._hooks = (sys.excepthook, threading.excepthook)
        sys.excepthook = self.excepthook
        threading.excepthook = self.thread_excepthook

    def uninstall(self) -> None:
        """Give the hooks back and close the log file (tests; the app keeps them to exit)."""
        if self._hooks is not None:
            sys.excepthook, threading.excepthook = self._hooks
            self._hooks = None
        root = logging.getLogger()
        for handler in (self._early, self._handler):  # the first forwards to the second
            if handler is not None:
                root.removeHandler(handler)
                handler.close()
        self._early = self._handler = None

    def open_log(self) -> Path | None:
        """Write the log file from now on (versions first, then what was logged before);
        its path, or None where the data folder cannot take it."""
        with self._opening:
            if self._handler is None:
                from PySide6 import __version__ as pyside_version
                from PySide6.QtCore import qVersion

                self._handler = logs.start_file_log(
                    self.data_dir, early=self._early,
                    extra_versions={"PySide6": pyside_version, "Qt": qVersion()})
        return self.log_file if self._handler is not None else None

    def open_log_soon(self) -> None:
        """``open_log()`` on the next event-loop turn: after the first paint has been
        reported and the callbacks queued with it (call it from an after-paint hook)."""
        QTimer.singleShot(0, self, self.open_log)

    def excepthook(self, exc_type: type[BaseException], exc: BaseException,
                   tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):  # Ctrl+C in a terminal: Python's own
            sys.__excepthook__(exc_type, exc, tb)
            return
        self.report(exc_type, exc, tb, threading.current_thread().name)

    def thread_excepthook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:  # what threading's own hook ignores too
            return
        name = args.thread.name if args.thread is not None else "?"
        self.report(args.exc_type, args.exc_value, args.exc_traceback, name)

    def report(self, exc_type: type[BaseException], exc: BaseException | None,
               tb: TracebackType | None, thread: str) -> None:
        """Log one unhandled exception and show it (from any thread)."""
        if self._handler is None:
            self.open_log()  # a crash before the first paint still reaches the file
        log.error("unhandled exception in thread %s", thread, exc_info=(exc_type, exc, tb))
        text = f"Thread {thread}:\n" + "".join(traceback.format_exception(exc_type, exc, tb))
        if QCoreApplication.instance() is not None:
            self._sig_queued.emit(text)

    # --- the dialog -----------------------------------------------------------------------
    @Slot(str)
    def _show(self, text: str) -> None:
        try:
            self._show_or_count(text)
        except Exception:  # noqa: BLE001 - through the hook again would loop
            log.exception("the error dialog could not be shown")

    def _show_or_count(self, text: str) -> None:
        self.sig_reported.emit(text)
        if self.box is not None:
            self.more += 1
            if len(self._tracebacks) < self.MAX_TRACEBACKS:
                self._tracebacks.append(text)
            self._update_box()
            return
        self.more = 0
        self._tracebacks = [text]
        box = QMessageBox(QMessageBox.Icon.Critical, "examdesk",
                          self.tr("Something went wrong inside examdesk."),
                          QMessageBox.StandardButton.Close, QApplication.activeWindow())
        box.setObjectName("crash_report")
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        copy = box.addButton(self.tr("Copy details"), QMessageBox.ButtonRole.ActionRole)
        copy.setObjectName("copy_details")
        # The button box closes the dialog on every click: this button only copies.
        copy.clicked.disconnect()
        copy.clicked.connect(self._copy_details)
        box.finished.connect(self._closed)
        box.destroyed.connect(self._closed)  # also when its window goes first
        self.box = box
        self._update_box()
        box.show()

    def _update_box(self) -> None:
        box = self.box
        lines = [self.tr("What you were doing may not have finished. You can keep working; "
                         "if this happens again, please send the details.")]
        if self._handler is not None:
            lines.append(self.tr("They are also in the log file %1.").replace(
                "%1", str(self.log_file)))
        if self.more:
            lines.append(self.tr("%n more error(s) happened since this one.", "", self.more))
        box.setInformativeText("\n\n".join(lines))
        details = "\n".join(self._tracebacks)
        left_out = self.more + 1 - len(self._tracebacks)
        if left_out > 0:
            details += "\n" + self.tr("… and %n more: see the log file.", "", left_out)
        box.setDetailedText(details)

    def _copy_details(self) -> None:
        if self.box is not None:
            QApplication.clipboard().setText(self.box.detailedText())

    def _closed(self, *_: object) -> None:
        self.box = None
        self._tracebacks = []
        self.more = 0


def install_crash_reporting(data_dir: Path, *, stderr: bool = True) -> CrashReporter:
    """At start-up, before anything else: log to stderr (a terminal, if any) and keep every
    record for the log file; route unhandled exceptions to the log and one error dialog.

    Call ``open_log_soon()`` (or ``open_log()``) on the result once the window is painted.
    """
    if stderr:  # nothing when the root logger has handlers already
        logging.basicConfig(level=logging.INFO, format=STDERR_FORMAT)
    reporter = CrashReporter(data_dir)
    reporter.install()
    return reporter
