"""The "Check" flow: run the editor code visibly in the console, then run the
question's check suite against those definitions in the same kernel — through a
separate client on a worker thread, so check output stays out of the console.

Reports are ``CheckReport.to_json()`` dicts plus ``"error"``: None for a normal
run, else why no verdict could be reached (kernel died, code raised, …); the
learner's code is never the thing that gets lost.
"""
from __future__ import annotations

import time
from typing import Callable

from PySide6.QtCore import QObject, Signal

from question_db.model import Question

from . import kernel_session as ks
from .kernel_session import KernelSession
from .side_channel import SideChannelJob

# run_visible(code, on_finished): ConsoleDock.run_code
RunVisible = Callable[[str, Callable[[dict], None]], None]


class CheckController(QObject):
    """Runs one check at a time for the learner's current kernel."""

    JOIN_S = 2.0  # a cancelled worker ends at its next poll (0.5 s)

    sig_check_started = Signal(str, dict)
    """A check began: question id, the kernel's environment as known so far."""

    sig_check_result = Signal(dict)
    """One check finished (name, passed, message, details, device, seconds …)."""

    sig_check_finished = Signal(str, dict)
    """The whole run ended: question id, report dict (see module docstring)."""

    def __init__(self, session: KernelSession, run_visible: RunVisible,
                 parent: QObject | None = None):
        super().__init__(parent)
        self._session = session
        self._run_visible = run_visible
        self._include_slow = False
        self._job: SideChannelJob | None = None  # the current run's
        self._jobs: list[SideChannelJob] = []  # every worker not yet joined
        self._question: Question | None = None
        self._results: list[dict] = []
        self._started = 0.0
        self._generation = 0
        session.sig_state_changed.connect(self._on_session_state)

    @property
    def running(self) -> bool:
        return self._question is not None

    @property
    def include_slow(self) -> bool:
        return self._include_slow

    def set_include_slow(self, include: bool) -> None:
        """Also run checks marked slow (torch.compile) from the next check on."""
        self._include_slow = bool(include)

    def check(self, question: Question, code: str) -> bool:
        """Start checking ``code`` for ``question``; False if a check is already running."""
        if self.running:
            return False
        self._generation += 1
        self._question, self._results, self._started = question, [], time.perf_counter()
        self.sig_check_started.emit(question.id, self._session.environment)
        if question.code is None or question.code.check is None:
            self._finish(self.tr("{0} has no check suite").format(question.id))
        elif self._session.state in (ks.DEAD, ks.DISCONNECTED):
            self._finish(self.tr("the kernel is not running: restart it, then check again"))
        else:
            generation = self._generation
            self._run_visible(code, lambda reply: self._after_visible_run(generation, code, reply))
        return True

    def cancel(self) -> None:
        """Make every worker stop at its next poll (within about 0.5 s); returns at once."""
        for job in self._jobs:
            job.cancel()

    def shutdown(self, timeout: float = JOIN_S) -> None:
        """Stop the workers and join them, all within ``timeout``; call when the window
        closes."""
        self.cancel()
        deadline = time.monotonic() + timeout
        for job in self._jobs:
            job.wait(max(0.0, deadline - time.monotonic()))
        self._jobs = [job for job in self._jobs if job.running]

    # --- flow ------------------------------------------------------------------------
    def _after_visible_run(self, generation: int, code: str, reply: dict) -> None:
        if generation != self._generation or self._question is None:
            return
        if reply.get("status") == "aborted":  # the kernel dropped it after an earlier error
            self._finish(self.tr("your code was not run (the kernel aborted it); run it again"))
            return
        if reply.get("status") != "ok":
            ename, evalue = reply.get("ename", "error"), reply.get("evalue", "")
            if ename in ("KernelDied", "KernelRestarted", "KernelShutdown", "KernelSwitched"):
                self._finish(self.tr("no verdict: {0}").format(evalue))
                return
            if ename == "KeyboardInterrupt":  # the learner stopped it: not a wrong answer
                self._finish(self.tr("your code was interrupted before the checks ran"))
                return
            result = {"name": "defines", "passed": False, "required": True, "seconds": 0.0,
                      "device": "", "description": "",
                      "message": self.tr("your code raised {0}: {1}").format(ename, evalue),
                      "details": {"traceback": "\n".join(reply.get("traceback", [])[-3:])}}
            self._on_result(generation, result)
            self._finish(None)
            return
        question, include_slow = self._question, self._include_slow

        def work(runner, progress):
            return runner.run_suite(question, code, device="auto", include_slow=include_slow,
                                    define=False, on_result=progress).to_json()

        job = SideChannelJob(self._session.connection_info(), work, self)
        # A stale worker (its run already ended) must not interrupt the learner's code.
        job.sig_interrupt_requested.connect(
            lambda: generation == self._generation and self._session.interrupt())
        job.sig_progress.connect(lambda result: self._on_result(generation, result))
        job.sig_finished.connect(lambda report: self._on_report(generation, report))
        job.sig_failed.connect(lambda error: self._on_failed(generation, error))
        self._job = job
        self._jobs = [j for j in self._jobs if j.running] + [job]
        job.start()

    def _on_result(self, generation: int, result: dict) -> None:
        if generation == self._generation and self._question is not None:
            self._results.append(result)
            self.sig_check_result.emit(result)

    def _on_report(self, generation: int, report: dict) -> None:
        if generation != self._generation or self._question is None:
            return
        question_id = self._question.id
        self._question = self._job = None
        self.sig_check_finished.emit(question_id, {**report, "error": None})

    def _on_failed(self, generation: int, error: str) -> None:
        if generation != self._generation:
            return
        if self._session.state == ks.DEAD:
            error = self.tr("the kernel died during the check. {0}").format(
                self._session.explanation)
        self._finish(error)

    def _on_session_state(self, state: str) -> None:
        # The kernel under a running suite went away: the verdict is that, at once.
        if not self.running or self._job is None:
            return
        if state == ks.DEAD:
            self._finish(self.tr("the kernel died during the check. {0}").format(
                self._session.explanation))
        elif state in (ks.RESTARTING, ks.DISCONNECTED):
            self._finish(self.tr("the kernel was restarted or closed during the check"))

    def _finish(self, error: str | None) -> None:
        question = self._question
        if self._job is not None:
            self._job.cancel()
        self._question = None
        self._job = None
        self._generation += 1
        env = self._session.environment
        report = {"question": question.id if question else "",
                  "device": next((r.get("device") for r in self._results if r.get("device")), ""),
                  "passed": False, "checks": list(self._results), "environment": env,
                  "seconds": round(time.perf_counter() - self._started, 3), "error": error}
        self.sig_check_finished.emit(report["question"], report)
