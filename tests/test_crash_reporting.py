"""Unhandled exceptions in the GUI (desktop/crash_reporting.py): into the log file and one
non-blocking dialog with the traceback, never a dialog per exception."""
from __future__ import annotations

import logging
import threading

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.crash_reporting import CrashReporter, install_crash_reporting

# pytest-qt would take sys.excepthook back for each test and fail it on the exceptions these
# tests raise on purpose: the reporter under test must own the hook.
pytestmark = [pytest.mark.gui, pytest.mark.qt_no_exception_capture]


class Emitter(QObject):
    sig_go = Signal(int)


@pytest.fixture
def installed(qapp, tmp_path):
    """The reporter as the app installs it at start-up (log file not open yet); its dialog
    closed and its hooks and log file given back afterwards."""
    reporter = install_crash_reporting(tmp_path / "data", stderr=False)
    yield reporter
    if reporter.box is not None:
        reporter.box.close()
    reporter.uninstall()
    reporter.deleteLater()
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        QCoreApplication.processEvents()


@pytest.fixture
def reporter(installed):
    installed.open_log()  # what the app does after its first paint
    return installed


def crash_boxes() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, QMessageBox) and w.objectName() == "crash_report" and w.isVisible()]


def raise_from_slot(emitter: Emitter, message: str) -> None:
    def slot(n: int) -> None:
        raise RuntimeError(f"{message} {n}")
    emitter.sig_go.connect(slot)


def log_text(reporter: CrashReporter) -> str:
    return reporter.log_file.read_text("utf-8")  # the handler flushes every record


def test_an_exception_in_a_slot_is_logged_and_shown_once_with_its_traceback(reporter, qtbot):
    emitter = Emitter()
    raise_from_slot(emitter, "slot failed")
    QTimer.singleShot(0, lambda: emitter.sig_go.emit(1))
    qtbot.waitUntil(lambda: len(crash_boxes()) == 1)
    (box,) = crash_boxes()
    assert "Traceback" in box.detailedText() and "RuntimeError: slot failed 1" in box.detailedText()
    assert "in slot" in box.detailedText()  # the frame that raised
    assert "slot failed" not in box.text() + box.informativeText()  # details only
    assert str(reporter.log_file) in box.informativeText()
    assert box.windowModality() == Qt.WindowModality.NonModal
    text = log_text(reporter)
    assert "examdesk started" in text.splitlines()[0] and "PySide6" in text.splitlines()[0]
    assert "unhandled exception in thread MainThread" in text
    assert "RuntimeError: slot failed 1" in text

    copy = next(b for b in box.buttons() if b.objectName() == "copy_details")
    QApplication.clipboard().clear()
    qtbot.mouseClick(copy, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == box.detailedText()
    assert box.isVisible()  # copying does not close it


def test_a_burst_of_exceptions_shows_one_dialog_that_counts_the_rest(reporter, qtbot):
    emitter = Emitter()
    raise_from_slot(emitter, "burst")
    burst = 30
    for n in range(burst):
        QTimer.singleShot(0, lambda n=n: emitter.sig_go.emit(n))
    qtbot.waitUntil(lambda: reporter.more == burst - 1)
    (box,) = crash_boxes()
    assert "29 more error(s)" in box.informativeText()
    details = box.detailedText()
    kept = CrashReporter.MAX_TRACEBACKS
    assert all(f"RuntimeError: burst {n}\n" in details for n in range(kept))
    assert f"burst {kept}\n" not in details and f"and {burst - kept} more" in details
    assert log_text(reporter).count("RuntimeError: burst") == burst  # the log has them all

    box.close()  # one at a time, not one ever: the next error opens a new dialog
    qtbot.waitUntil(lambda: reporter.box is None and not crash_boxes())
    QTimer.singleShot(0, lambda: emitter.sig_go.emit(99))
    qtbot.waitUntil(lambda: len(crash_boxes()) == 1)
    assert "burst 99" in crash_boxes()[0].detailedText() and reporter.more == 0


def test_an_exception_in_a_worker_thread_is_shown_on_the_ui_thread(reporter, qtbot):
    def work() -> None:
        raise ValueError("worker failed")
    worker = threading.Thread(target=work, name="examdesk-test-worker")
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(crash_boxes()) == 1)
    assert "Thread examdesk-test-worker" in crash_boxes()[0].detailedText()
    assert "ValueError: worker failed" in log_text(reporter)
    assert "unhandled exception in thread examdesk-test-worker" in log_text(reporter)


def test_a_crash_before_the_log_opened_still_reaches_the_file(installed, qtbot):
    logging.getLogger("examdesk.test").info("starting up")
    assert not installed.log_file.exists()  # waits for open_log(), as after a paint
    try:
        raise KeyError("early")
    except KeyError as exc:
        installed.excepthook(type(exc), exc, exc.__traceback__)
    lines = log_text(installed).splitlines()
    assert "examdesk started" in lines[0] and lines[1].endswith("starting up")
    assert "KeyError: 'early'" in "\n".join(lines)
    qtbot.waitUntil(lambda: len(crash_boxes()) == 1)
