"""Run core actions off the UI thread and deliver results back on it.

Anki's ``CollectionOp`` pattern: every action (``question_db.actions``) runs, in order, on
the one thread that owns the SQLite connection (``question_db.store_worker.StoreWorker``);
the result comes back to the UI thread through a queued signal, where the ``on_done``
callback runs, and then ``sig_changed`` tells every screen what the action touched
(``actions.Changes``) and who ran it (the ``initiator``: Anki's ``handler``), so screens
refresh themselves, and the one that asked does not reload what it has just set. Errors are never swallowed: an
action that failed is ``sig_error`` (or ``on_error``), a screen's callback that crashed is
``sig_callback_error`` (a bug in examdesk, reported apart), and a disk that refuses a write
(full, read-only) is ``sig_storage_error``: the caller keeps what the learner entered on
screen and saves it again later (tests/test_faults_app.py).

``DbOps`` owns the worker's lifecycle: it is built from a factory, released after the first
paint, closed at quit, and reopened around a backup restore; nothing else swaps it.
"""
from __future__ import annotations

import logging
import threading
import traceback
from concurrent.futures import Future
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

from question_db.changes import changes_of
from question_db.store_worker import StoreWorker

log = logging.getLogger(__name__)


def _storage_error() -> type:
    # Imported on use: sqlite3 is not needed before the first paint (bench launch), and a
    # StorageError can only exist once the store has imported it.
    from question_db.sqlite_file import StorageError

    return StorageError


def deferred_action(name: str) -> Callable[..., Any]:
    """``question_db.actions.<name>``, imported on the store thread when the job runs.

    For the jobs the start-up path queues (the library's summary, unfinished exams): the
    actions pull in FSRS, the store and the exam reports (~0.18 s of imports), which must
    not run on the UI thread before the library is interactive (bench: launch_to_library).
    Later jobs name ``actions.<name>`` directly: by then the store thread has imported it.
    """
    def run(store: Any, **kwargs: Any) -> Any:
        from question_db import actions

        return getattr(actions, name)(store, **kwargs)

    run.__name__ = run.__qualname__ = name
    return run


def _receiver_alive(callback: Callable | None) -> bool:
    """False when the callback is a bound method of a Qt object that was already deleted."""
    owner = getattr(callback, "__self__", None)
    return not isinstance(owner, QObject) or shiboken6.isValid(owner)


class DbOps(QObject):
    """Queue store operations on the store worker; call back on the UI thread."""

    sig_error = Signal(str, str)
    """An operation failed: (short message, traceback text)."""

    sig_callback_error = Signal(str, str)
    """A screen's callback crashed on an operation's result (a bug): (message, traceback)."""

    sig_changed = Signal(object, object)
    """An operation changed stored data: (``question_db.actions.Changes``, initiator: the
    object that ran it, or None). Emitted after its ``on_done`` ran."""

    sig_storage_error = Signal(object)
    """A write was refused by the disk (``StorageFull``, ``StorageReadOnly``, …): (error).
    Reported this way instead of ``sig_error``: nothing is wrong with the program."""

    sig_idle = Signal()
    """Every queued operation has finished and its callback has run."""

    # (on_done, on_error, initiator, future): queued to the UI thread
    _sig_done = Signal(object, object, object, object)

    def __init__(self, open_worker: Callable[[], StoreWorker] | StoreWorker,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        # A factory, so ``reopen`` can open the file again the same way (recovery, held…).
        self._open_worker = open_worker if callable(open_worker) else (
            lambda w=open_worker: w)
        self._worker = self._open_worker()
        self._pending = 0
        # Always queued: a job that finished before add_done_callback() would otherwise call
        # back synchronously inside run(), before the caller has stored what run() returned.
        self._sig_done.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @property
    def worker(self) -> StoreWorker:
        """The worker jobs go to now (another one after ``reopen``)."""
        return self._worker

    def release(self) -> None:
        """Let a held worker open the store (after the first paint)."""
        self._worker.release()

    def close(self, timeout: float = 5.0) -> bool:
        """Run what is queued and stop the worker (at quit); False if a job overran."""
        return self._worker.close(timeout)

    def reopen(self, between: Callable[[], Any]) -> Future:
        """Close the store, run ``between()`` here (e.g. put a backup in place), open it again
        with the same factory. Returns the new worker's ``ready`` future; ``between``'s
        exception propagates after the store is open again (the app must keep a store)."""
        self.flush()
        closed = self._worker.close()
        try:
            if not closed:
                raise RuntimeError("the progress file is still busy; try again in a moment")
            between()
        finally:
            self._worker = self._open_worker()
            self._worker.release()
        return self._worker.ready

    @property
    def pending(self) -> int:
        """Operations queued or running whose callbacks have not run yet."""
        return self._pending

    def run(self, fn: Callable[..., Any], *args: Any, on_done: Callable[[Any], None] | None = None,
            on_error: Callable[[BaseException], None] | None = None,
            initiator: object | None = None, **kwargs: Any) -> Future:
        """Run ``fn(store, *args, **kwargs)`` on the store thread; ``on_done(result)`` here.

        A failure goes to ``on_error(exception)`` when given (the caller shows it, or passes
        it on to ``report``), else to ``report``. ``initiator`` (the screen that runs it)
        goes with the result's changes in ``sig_changed``: that screen shows the outcome
        from ``on_done`` and need not reload it.
        """
        self._pending += 1
        try:
            future = self.worker.submit(fn, *args, **kwargs)
        except Exception:
            self._pending -= 1
            raise
        # The done-callback fires on the worker thread; the signal hops to the UI thread.
        future.add_done_callback(
            lambda f: self._sig_done.emit(on_done, on_error, initiator, f))
        return future

    def run_beside(self, fn: Callable[..., Any], *args: Any,
                   on_done: Callable[[Any], None] | None = None,
                   on_error: Callable[[BaseException], None] | None = None) -> Future:
        """Run ``fn(*args)`` (no store) on a short-lived thread beside the store worker.

        For start-up work that does not touch the database (loading the question bank), so
        it does not queue behind opening the store (bench: launch_to_library).
        """
        future: Future = Future()

        def work() -> None:
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # noqa: BLE001 - delivered to on_error / report
                future.set_exception(exc)

        self._pending += 1
        future.add_done_callback(lambda f: self._sig_done.emit(on_done, on_error, None, f))
        threading.Thread(target=work, name="examdesk-beside", daemon=True).start()
        return future

    def _deliver(self, callback: Callable[[Any], None] | None,
                 on_error: Callable[[BaseException], None] | None, initiator: object | None,
                 future: Future) -> None:
        self._pending -= 1
        try:
            error = future.exception()
            if error is not None:
                if not isinstance(error, _storage_error()):  # a full disk is not a bug
                    log.error("store operation failed", exc_info=error)
                if on_error is not None and _receiver_alive(on_error):
                    on_error(error)
                else:
                    self.report(error)
            else:
                result = future.result()
                if callback is not None and _receiver_alive(callback):
                    try:
                        callback(result)
                    except Exception as exc:  # a bug in a view's callback: show it, go on
                        log.error("callback failed", exc_info=exc)
                        self.sig_callback_error.emit(f"{type(exc).__name__}: {exc}",
                                                     traceback.format_exc())
                changes = changes_of(result)
                if changes:
                    self.sig_changed.emit(changes, initiator)
        finally:
            if self._pending == 0:
                self.sig_idle.emit()

    def report(self, error: BaseException) -> None:
        """Tell the learner about a failed operation: ``sig_storage_error`` when the disk
        refused it, else ``sig_error``."""
        if isinstance(error, _storage_error()):
            log.warning("the disk refused a write: %s", error)
            self.sig_storage_error.emit(error)
        else:
            self._report(error, "".join(traceback.format_exception(error)))

    def _report(self, error: BaseException, details: str) -> None:
        log.error("store operation failed: %s", details)
        self.sig_error.emit(f"{type(error).__name__}: {error}", details)

    def flush(self, timeout_s: float = 10.0) -> bool:
        """Block until everything queued so far has run and its callback was delivered.

        Used at shutdown and before leaving a screen, so no draft is left in the queue.
        """
        release = getattr(self.worker, "release", None)
        if release is not None:  # a held worker (start-up) must not make this wait
            release()
        marker = self.worker.submit(lambda store: None)
        try:
            marker.result(timeout=timeout_s)
        except Exception:  # a timeout or a dead worker: report, never hang the UI for ever
            log.exception("store worker did not drain within %.1f s", timeout_s)
            return False
        # Deliver only the callbacks queued to this object, not arbitrary UI events.
        QCoreApplication.sendPostedEvents(self, 0)
        return True
