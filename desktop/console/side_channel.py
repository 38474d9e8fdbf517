"""Work on the learner's kernel that must stay out of the learner's console.

A job runs on a worker thread over its own ``BlockingKernelClient`` with a fresh
``Session`` (same key): qtconsole only shows output whose parent session is its
own, so the environment probe and the check suite never print into the console.
Results come back to the UI thread through queued signals.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from question_db import kernels
from question_db.checks.runner import KernelCheckRunner

# work(runner, progress) -> result; progress(obj) streams partial results.
Work = Callable[[KernelCheckRunner, Callable[[Any], None]], Any]


class SideChannelJob(QObject):
    """One piece of work on the kernel, on a worker thread, over a private client."""

    sig_progress = Signal(object)
    """A partial result (e.g. one check's result dict), delivered on the UI thread."""

    sig_finished = Signal(object)
    """The work returned this value."""

    sig_failed = Signal(str)
    """The work raised; carries ``"ExceptionType: message"``."""

    sig_interrupt_requested = Signal()
    """The runner hit a timeout: the owner of the kernel should interrupt it."""

    def __init__(self, connection_info: dict, work: Work, parent: QObject | None = None):
        super().__init__(parent)
        self._info = dict(connection_info)
        self._work = work
        self._thread: threading.Thread | None = None
        self._cancelled = threading.Event()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="examdesk-side-channel",
                                        daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def cancel(self) -> None:
        """Make the work stop at its next poll (within about 0.5 s), as if the kernel died;
        its result is then a failure nobody needs to read."""
        self._cancelled.set()

    def wait(self, timeout: float) -> bool:
        """Join the worker; True if it has ended."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def _run(self) -> None:
        from jupyter_client import BlockingKernelClient

        client = BlockingKernelClient()
        client.load_connection_info(self._info)  # key + scheme; session id stays new
        try:
            client.start_channels(iopub=False, stdin=False)
            runner = KernelCheckRunner(_Cancellable(client, self._cancelled),
                                       self.sig_interrupt_requested.emit)
            result = self._work(runner, self.sig_progress.emit)
        except Exception as exc:  # delivered to the UI, never lost in a thread
            self.sig_failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.sig_finished.emit(result)
        finally:
            client.stop_channels()
            kernels.close_thread_event_loop()


class _Cancellable:
    """The runner polls ``is_alive()`` while it waits for a reply: answering False there
    is how a cancelled job stops (KernelCheckRunner has no cancel hook of its own)."""

    def __init__(self, client, cancelled: threading.Event):
        self._client = client
        self._cancelled = cancelled

    def __getattr__(self, name: str):
        return getattr(self._client, name)

    def is_alive(self) -> bool:
        return not self._cancelled.is_set() and self._client.is_alive()
