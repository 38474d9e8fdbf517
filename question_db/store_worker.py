"""The one thread that owns the progress store (``StoreWorker``), and the app's worker that
opens it with recovery (``progress_worker``).

Kept apart from ``store.py`` and ``recovery.py``: the desktop creates its worker before the
first paint, and importing those (dataclasses, SQL, backups: ~30 ms) is left to the worker
thread, which runs once the window is painted.
"""
from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .paths import progress_path

__all__ = ["StoreWorker", "progress_worker"]

if TYPE_CHECKING:
    from .store import ProgressStore

_STOP = object()


class StoreWorker:
    """A daemon thread owning the only ``ProgressStore``; jobs run in submission order.

    The store is opened on the thread, so construction never blocks the caller: ``ready``
    resolves once it is open, or holds ``TooNewDatabase``/``CorruptDatabase``, which every
    job submitted afterwards also fails with.

    ``open_store`` (optional) opens the store instead of ``ProgressStore(path)`` and returns
    ``(store, info)``; ``ready`` then resolves to ``info`` (``progress_worker`` below
    passes the recovery notices this way).

    ``held`` (optional): the thread waits to open the store, and so to run any job, until
    ``release()`` (the app releases it once the window is painted: opening and the first
    reads would otherwise compete with the first paint for the GIL). ``close()`` releases.
    """

    def __init__(self, path: Path, *,
                 open_store: Callable[[], tuple[ProgressStore, Any]] | None = None,
                 held: bool = False):
        self.path = Path(path)
        self._go = threading.Event()
        if not held:
            self._go.set()
        self.ready: Future[Any] = Future()
        self._open_store = open_store or self._open_plain
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False
        self._lock = threading.Lock()  # makes "closed?" + enqueue atomic against close()
        self._thread = threading.Thread(target=self._run, name="examdesk-store", daemon=True)
        self._thread.start()

    def _open_plain(self) -> tuple[ProgressStore, None]:
        from .store import ProgressStore

        return ProgressStore(self.path), None

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        """Run ``fn(store, *args, **kwargs)`` on the store thread; its result or error."""
        future: Future = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{self.path}: the store worker is closed")
            self._jobs.put((future, fn, args, kwargs))
        return future

    def release(self) -> None:
        """Let a ``held`` worker open the store and run its jobs. Idempotent."""
        self._go.set()

    def close(self, timeout: float = 5.0) -> bool:
        """Run the queued jobs, close the store, join the thread within ``timeout`` seconds.

        Returns False when a job is still running after ``timeout`` (the daemon thread is
        then left to finish it; the queued writes after it still run). Idempotent.
        """
        with self._lock:
            if not self._closed:
                self._closed = True
                self._jobs.put(_STOP)
        self.release()  # the queued writes still run
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        self._go.wait()
        store: ProgressStore | None = None
        try:
            store, info = self._open_store()
            self.ready.set_result(info)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through futures
            self.ready.set_exception(exc)
        while True:
            job = self._jobs.get()
            if job is _STOP:
                break
            future, fn, args, kwargs = job
            if not future.set_running_or_notify_cancel():
                continue
            if store is None:
                future.set_exception(self.ready.exception())
                continue
            try:
                future.set_result(fn(store, *args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - the caller shows it
                future.set_exception(exc)
        if store is not None:
            store.close()


def progress_worker(data_dir: Path, *, held: bool = False, **kwargs: Any) -> StoreWorker:
    """A ``StoreWorker`` that opens with ``recovery.open_progress`` on its thread; its
    ``ready`` future resolves to the list of notices. ``held``: see ``StoreWorker``."""
    def open_store() -> tuple[ProgressStore, Any]:
        from .recovery import open_progress

        return open_progress(data_dir, **kwargs)

    return StoreWorker(progress_path(data_dir), held=held, open_store=open_store)
