"""The kernel operations that block — shutdown (0.5–4 s) and restart (~0.1 s) — on worker
threads, so the window never freezes on a kernel switch, a restart or a close (Spyder shuts
kernels down on a thread too). At quit, ``KernelSession.wait_for_shutdown`` joins them with
a deadline, then kills what is left.

Thread rules: a worker gets the manager and client only after the UI thread has let go of
them (signals disconnected, console unbound), and the Python objects (Qt objects among
them) are dropped on the UI thread, after the worker has ended.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from question_db import kernels

from .kernel_handle import KernelHandle
from .side_channel import SideChannelJob

log = logging.getLogger(__name__)
JOB_JOIN_S = 5.0  # a cancelled side-channel job ends at its next poll (0.5 s)


class KernelShutdown:
    """Shut one kernel down on a worker thread: interrupt, ask, stop the channels, wait,
    kill the process group, remove its files and log; join the jobs that used it."""

    def __init__(self, handle: KernelHandle, jobs: list[SideChannelJob], *,
                 after: threading.Thread | None = None,
                 wait_s: float = kernels.SHUTDOWN_WAIT_S):
        self.handle = handle
        self._jobs = list(jobs)
        self._after = after  # a restart still running on the same manager
        self._wait_s = wait_s
        self._thread = threading.Thread(target=self._run, name="examdesk-kernel-shutdown",
                                        daemon=True)

    def start(self) -> "KernelShutdown":
        for job in self._jobs:
            job.cancel()
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float) -> bool:
        """True once it has finished."""
        self._thread.join(max(0.0, timeout))
        return not self.running

    def kill(self) -> None:
        """Kill the kernel and what it started now (quit's deadline passed); the worker
        then finds it gone and finishes at once."""
        self.handle.kill()

    def _run(self) -> None:
        try:
            if self._after is not None:
                self._after.join()
            kernels.shutdown_kernel(self.handle.manager, self.handle.client,
                                    wait_s=self._wait_s)
            for job in self._jobs:
                job.wait(JOB_JOIN_S)
        except Exception:  # never lost in a thread; the process group is killed anyway
            log.exception("kernel shutdown failed")
            self.kill()
        finally:
            kernels.remove_log(self.handle.log_path)
            kernels.close_thread_event_loop()


class KernelRestart:
    """``restart_kernel(now=True)`` on a worker thread: SIGKILL the process group (frees GPU
    memory held by the kernel and anything it spawned), launch the same kernelspec on the
    same connection file with a new log; the old log goes once the new kernel runs.
    ``done(error)`` is called on the worker thread: connect it queued."""

    def __init__(self, handle: KernelHandle, done: Callable[[BaseException | None], None]):
        self.handle = handle
        self._done = done
        self.thread = threading.Thread(target=self._run, name="examdesk-kernel-restart",
                                       daemon=True)

    def start(self) -> "KernelRestart":
        self.thread.start()
        return self

    def _run(self) -> None:
        error: BaseException | None = None
        new_log: Path | None = None
        try:
            new_log = kernels.new_log_file()
            with open(new_log, "ab") as out:  # the child keeps its own descriptor
                self.handle.manager.restart_kernel(now=True, stdout=out, stderr=out)
        except BaseException as exc:  # the died kernel's log stays: its tail explains
            error = exc
            kernels.remove_log(new_log)
        else:
            old, self.handle.log_path = self.handle.log_path, new_log
            kernels.remove_log(old)
        finally:
            kernels.close_thread_event_loop()
        try:
            self._done(error)
        except RuntimeError:  # the session is gone (its shutdown took over this kernel)
            pass
