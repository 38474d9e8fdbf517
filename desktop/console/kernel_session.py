"""The one owner of the learner's kernel: manager, client, state and signals (GUIDE §3).

Lifecycle: DISCONNECTED → STARTING → IDLE ⇄ BUSY; death → DEAD (no automatic
restart: the learner sees why and restarts with one click) → RESTARTING → IDLE.
Ready means: ``kernel_info_reply`` received, the console's first prompt shown (when a
console is attached) and the environment probed; nothing visible runs before that.
"""
from __future__ import annotations

import os
import signal
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from question_db import kernels
from question_db.checks.runner import KernelCheckRunner
from question_db.kernels import KernelChoice

from .prelaunch import Prelaunched, adopt_connection, adopting_manager
from .side_channel import SideChannelJob

translate = QCoreApplication.translate  # module functions: an explicit context, lupdate reads it

STARTING = "starting"
IDLE = "idle"
BUSY = "busy"
DEAD = "dead"
RESTARTING = "restarting"
DISCONNECTED = "disconnected"
STATES = (STARTING, IDLE, BUSY, DEAD, RESTARTING, DISCONNECTED)

# Status messages caused by control-channel requests run concurrently with the
# shell; they must not make a busy kernel look idle.
_CONTROL_REQUESTS = {"interrupt_request", "shutdown_request", "debug_request", "usage_request"}


def default_choice() -> KernelChoice:
    return kernels.available_kernels()[0]


def death_explanation(returncode: int | None, log_tail: str) -> str:
    """Say how the kernel process ended, in the learner's words, plus its last output."""
    if returncode is None:
        text = translate("KernelSession", "The kernel stopped answering.")
    elif returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        text = translate("KernelSession", "The kernel was killed by {0} ({1}).").format(
            name, -returncode)
        hint = {"SIGKILL": translate("KernelSession", "Often the out-of-memory killer: the code "
                                                      "used more memory than the machine has."),
                "SIGSEGV": translate("KernelSession",
                                     "A crash in native code (segmentation fault)."),
                "SIGABRT": translate("KernelSession", "The process aborted (os.abort or a failed "
                                                      "assertion in native code)."),
                "SIGBUS": translate("KernelSession",
                                    "A crash in native code (bus error).")}.get(name)
        if hint:
            text += " " + hint
    else:
        text = translate("KernelSession", "The kernel exited with status {0}.").format(returncode)
    if log_tail.strip():
        text += "\n" + translate("KernelSession", "Last lines it wrote:") + "\n" + log_tail
    return text


# ipykernel points fd 2 at a pipe it forwards to the console; that pipe dies with the
# process, so a crash report written there is lost. Send faulthandler's report (the
# Python stack at a segfault/abort) to the kernel's real stderr: our log file.
_CRASH_REPORTS_TO_LOG = (
    "import faulthandler as _fh, sys as _sys\n"
    "_fd = getattr(_sys.stderr, '_original_stdstream_copy', None)\n"
    "_fh.enable(file=_fd if _fd is not None else _sys.__stderr__, all_threads=False)\n"
    "del _fh, _sys, _fd\n"
)


def log_excerpt(path: Path | None) -> str:
    """What to show of a dead kernel's stderr: faulthandler's report (the innermost
    frames come first, so its head is what matters), else the last lines."""
    text = kernels.tail(path, 200)
    start = text.rfind("Fatal Python error")
    if start >= 0:
        return "\n".join(text[start:].splitlines()[:8])
    return "\n".join(text.splitlines()[-20:])


def _probe_environment(runner: KernelCheckRunner, _progress) -> dict:
    runner.execute(_CRASH_REPORTS_TO_LOG, timeout=30)  # best effort: not every kernel has it
    return runner.prepare()


class KernelSession(QObject):
    """Owns a qtconsole ``QtKernelManager`` (own kernel) or only a ``QtKernelClient``
    (a kernel we connected to), and says what state it is in."""

    sig_state_changed = Signal(str)
    """The kernel moved to another named state (one of ``STATES``)."""

    sig_ready = Signal(dict)
    """The kernel answered and the first prompt is shown; carries the environment dict."""

    sig_prompt_shown = Signal()
    """The console shows its first prompt after a (re)start (the environment may still be
    being probed: ``sig_ready`` follows)."""

    sig_died = Signal(str)
    """The kernel died on its own; carries an explanation (how it ended, last stderr lines)."""

    sig_interrupt_unanswered = Signal()
    """An interrupt was sent but the kernel is still busy a few seconds later: offer restart."""

    ALIVE_POLL_MS = 500
    INTERRUPT_ESCALATE_MS = 4000
    KERNEL_INFO_RETRY_MS = 1000
    START_TIMEOUT_MS = 60_000
    PROBE_AFTER_PROMPT_MAX_MS = 3000
    SHUTDOWN_WAIT_S = 4.0
    JOB_JOIN_S = 5.0

    def __init__(self, choice: KernelChoice | None = None, parent: QObject | None = None, *,
                 prelaunched: Prelaunched | None = None):
        super().__init__(parent)
        self._choice = choice or default_choice()
        # the app kernel's process, spawned at launch (prelaunch.py): the first start
        # adopts it if the app kernel is still the choice, anything else discards it
        self._prelaunched = prelaunched
        self.adopted_early = False  # the running kernel is that early process
        self._state = DISCONNECTED
        self._km = None
        self._kc = None
        self._frontend = None
        self._log_path: Path | None = None
        self._environment: dict = {}
        self._explanation = ""
        self._jobs: list[SideChannelJob] = []
        self._generation = 0  # bumps on every (re)start: late replies of old ones are dropped
        self._reset_readiness()

        self._alive_timer = QTimer(self, interval=self.ALIVE_POLL_MS)
        self._alive_timer.timeout.connect(self._poll_alive)
        self._info_timer = QTimer(self, interval=self.KERNEL_INFO_RETRY_MS)
        self._info_timer.timeout.connect(self._request_kernel_info)
        self._start_timer = QTimer(self, singleShot=True, interval=self.START_TIMEOUT_MS)
        self._start_timer.timeout.connect(self._start_timed_out)
        self._escalate_timer = QTimer(self, singleShot=True, interval=self.INTERRUPT_ESCALATE_MS)
        self._escalate_timer.timeout.connect(self._check_interrupt_answered)

    # --- what the views read ---------------------------------------------------------
    @property
    def state(self) -> str:
        return self._state

    @property
    def choice(self) -> KernelChoice:
        return self._choice

    @property
    def is_ready(self) -> bool:
        return self._ready

    @property
    def environment(self) -> dict:
        """Facts from the kernel (python, torch, cuda, device_name, flash_attn …)."""
        return dict(self._environment)

    @property
    def explanation(self) -> str:
        """Why the kernel died (empty unless DEAD)."""
        return self._explanation

    @property
    def owns_kernel(self) -> bool:
        return self._km is not None

    @property
    def manager(self):
        return self._km

    @property
    def client(self):
        return self._kc

    @property
    def log_path(self) -> Path | None:
        return self._log_path

    def connection_info(self) -> dict:
        """Ports/paths and key, for a separate client (``SideChannelJob``)."""
        if self._kc is None:
            raise RuntimeError("no kernel")
        return self._kc.get_connection_info()

    def attach_frontend(self, widget) -> None:
        """Bind a ``ConsoleWidget`` (see console_dock): it follows every (re)start."""
        self._frontend = widget
        widget.custom_interrupt = True  # Ctrl+C in the console → self.interrupt
        widget.custom_restart = True  # Ctrl+. in the console → self.restart
        widget.custom_interrupt_requested.connect(self.interrupt)
        widget.custom_restart_requested.connect(self.restart)
        widget.sig_prompt_shown.connect(self._on_prompt_shown)
        if self._kc is not None:
            widget.kernel_client = self._kc

    # --- lifecycle -------------------------------------------------------------------
    def start(self, choice: KernelChoice | None = None) -> None:
        """Start (or connect to) the chosen kernel; no-op unless DISCONNECTED."""
        if choice is not None:
            self._choice = choice
        if self._state != DISCONNECTED:
            return
        if self._choice.key != kernels.APP_KERNEL:  # the early process is the app kernel
            self.discard_prelaunched()
        self._begin(STARTING)
        try:
            if self._choice.connection_file:
                self._connect(self._choice.connection_file)
            else:
                self._launch()
        except Exception as exc:  # bad kernelspec, unreadable connection file, …
            self._die(self.tr("The kernel could not start: {0}").format(_describe(exc))
                      + self._tail_suffix())
            return
        self._after_launch()

    def switch(self, choice: KernelChoice, *, start: bool = True) -> None:
        """Shut the current kernel down and use ``choice`` (started now unless told not)."""
        self.shutdown()
        self._choice = choice
        if start:
            self.start()

    def restart(self) -> None:
        """Kill the kernel's whole process group and start it again (own kernel), or ask a
        connected kernel's owner to restart it."""
        if self._state == DISCONNECTED:
            self.start()
            return
        if self._state == RESTARTING or self._kc is None:
            return
        self._begin(RESTARTING)
        if self._km is not None:
            self._kc.hb_channel.pause()
            old_log = self._log_path
            self._log_path = kernels.kernel_log_path()
            try:
                with open(self._log_path, "wb") as log:  # the child keeps its own fd
                    # now=True: SIGKILL to the process group, which frees GPU memory
                    # held by the kernel and by any worker it spawned.
                    self._km.restart_kernel(now=True, stdout=log, stderr=log)
            except Exception as exc:
                self._die(self.tr("The kernel could not restart: {0}").format(_describe(exc))
                          + self._tail_suffix())
                return
            _remove(old_log)
        else:
            self._kc.shutdown(restart=True)
        self._after_launch()

    def interrupt(self) -> bool:
        """Send SIGINT (own kernel) or an interrupt_request (connected kernel).

        Returns False when there is no kernel to interrupt. If the kernel is still busy
        a few seconds later, ``sig_interrupt_unanswered`` offers a restart.
        """
        if self._state in (DEAD, DISCONNECTED, RESTARTING) or self._kc is None:
            return False
        if self._km is not None:
            if not self._km.has_kernel:
                return False
            self._km.interrupt_kernel()
        else:
            self._kc.control_channel.send(self._kc.session.msg("interrupt_request", content={}))
        self._escalate_timer.start()
        return True

    def shutdown(self) -> None:
        """Idempotent and bounded: ask, stop channels, wait, then kill; join workers."""
        self.discard_prelaunched()
        if self._state == DISCONNECTED and self._kc is None:
            return
        self._generation += 1
        for timer in (self._alive_timer, self._info_timer, self._start_timer,
                      self._escalate_timer):
            timer.stop()
        km, kc = self._km, self._kc
        self._km = self._kc = None
        if kc is not None and self._frontend is not None:
            self._frontend.kernel_client = None  # before the shutdown_reply can reach it
        if km is not None and km.has_kernel:
            try:
                km.request_shutdown()
            except Exception:  # the process may be gone already
                pass
        if kc is not None:
            if kc.channels_running:
                kc.stop_channels()  # overlaps the kernel's own exit
        if km is not None:
            pgid = getattr(km.provisioner, "pgid", None)
            try:
                if km.has_kernel:
                    km.finish_shutdown(waittime=self.SHUTDOWN_WAIT_S)  # then SIGTERM, SIGKILL
            except Exception:
                km.shutdown_kernel(now=True)
            finally:
                km.cleanup_resources()
            _kill_process_group(pgid)  # what the kernel spawned (workers) outlives it
        for job in self._jobs:
            job.cancel()
            job.wait(self.JOB_JOIN_S)
        self._jobs = [job for job in self._jobs if job.running]
        _remove(self._log_path)
        self._log_path = None
        self._reset_readiness()
        self._set_state(DISCONNECTED)

    # --- internals -------------------------------------------------------------------
    def _reset_readiness(self) -> None:
        self._info_ok = False
        self._prompt_ok = False
        self._probed = False
        self._probe_pending = False
        self._ready = False

    def _cancel_jobs(self) -> None:
        for job in self._jobs:
            job.cancel()  # threads end on their own within about 0.5 s
        self._jobs = [job for job in self._jobs if job.running]

    def _begin(self, state: str) -> None:
        self._generation += 1
        self._cancel_jobs()
        self._reset_readiness()
        self._explanation = ""
        self._environment = {}
        self._escalate_timer.stop()
        self._set_state(state)

    def _launch(self) -> None:
        early, self._prelaunched = self._prelaunched, None
        if early is not None and not early.alive():  # died before adoption: launch afresh
            early.discard()
            early = None
        if early is not None:
            try:
                km = adopting_manager(early, autorestart=False)
                kernels.configure_manager(km, self._choice.key)
                adopt_connection(km, early)
            except BaseException:  # no manager took it: it must not outlive the failure
                early.discard()
                raise
            self._log_path = early.log_path
        else:
            from qtconsole.manager import QtKernelManager  # lazily: 0.3 s of imports

            # autorestart off: death is shown, never silently restarted
            km = QtKernelManager(autorestart=False)
            kernels.configure_manager(km, self._choice.key)
            self._log_path = kernels.kernel_log_path()
        try:
            with open(self._log_path, "ab") as log:  # used unless the early one is adopted
                km.start_kernel(stdout=log, stderr=log)
        finally:
            if early is not None:  # failed before adopting: the manager owns its files now
                early.discard(keep_files=True)
        self.adopted_early = early is not None and early.adopted
        self._km = km
        self._bind(km.client())

    def discard_prelaunched(self) -> None:
        """Kill the early kernel process if no start adopted it (shutdown, switch)."""
        early, self._prelaunched = self._prelaunched, None
        if early is not None:
            early.discard()

    def _connect(self, connection_file: str) -> None:
        from qtconsole.client import QtKernelClient

        kc = QtKernelClient(connection_file=connection_file)
        kc.load_connection_file()
        self._bind(kc)

    def _bind(self, kc) -> None:
        self._kc = kc
        kc.start_channels()  # threaded client: channels exist only once started
        kc.shell_channel.message_received.connect(self._on_shell)
        kc.iopub_channel.message_received.connect(self._on_iopub)
        kc.hb_channel.kernel_died.connect(self._on_heartbeat_failed)
        if self._frontend is not None:
            self._frontend.kernel_client = kc  # running channels: it asks for its prompt

    def _after_launch(self) -> None:
        self._kc.hb_channel.unpause()
        self._request_kernel_info()
        self._info_timer.start()
        self._start_timer.start()
        if self._km is not None:
            self._alive_timer.start()

    def _request_kernel_info(self) -> None:
        if self._kc is not None and not self._info_ok:
            self._kc.kernel_info()

    def _on_shell(self, msg: dict) -> None:
        if msg["header"]["msg_type"] != "kernel_info_reply" or self._info_ok:
            return
        if self._state not in (STARTING, RESTARTING):
            return
        self._info_ok = True
        self._info_timer.stop()
        if self._state == RESTARTING and self._frontend is not None:
            # The widget only builds its first prompt itself; after a restart it is
            # still waiting for a reply that will never come.
            self._frontend.reset(clear=False)
        if self._frontend is None or self._prompt_ok:
            self._start_probe()
        else:
            # The probe waits for the console's first prompt: its execute would otherwise
            # queue the prompt's request behind the probe's torch import (~1.5 s). A
            # prompt that never comes must not stop the start: the timer probes anyway.
            self._probe_pending = True
            generation = self._generation
            QTimer.singleShot(self.PROBE_AFTER_PROMPT_MAX_MS, self,
                              lambda: self._start_probe_if_pending(generation))

    def _start_probe_if_pending(self, generation: int) -> None:
        if self._probe_pending and generation == self._generation:
            self._start_probe()

    def _start_probe(self) -> None:
        self._probe_pending = False
        generation = self._generation
        job = SideChannelJob(self.connection_info(), _probe_environment, self)
        job.sig_interrupt_requested.connect(self.interrupt)
        job.sig_finished.connect(lambda env: self._on_probed(generation, env))
        job.sig_failed.connect(lambda error: self._on_probed(generation, {"error": error}))
        self._jobs = [j for j in self._jobs if j.running] + [job]
        job.start()

    def _on_probed(self, generation: int, env) -> None:
        if generation != self._generation:
            return
        self._environment = env if isinstance(env, dict) else {"error": repr(env)}
        self._probed = True
        self._maybe_ready()

    def _on_prompt_shown(self) -> None:
        if not self._prompt_ok and self._info_ok:
            self._prompt_ok = True
            self.sig_prompt_shown.emit()
            if self._probe_pending:
                self._start_probe()
            self._maybe_ready()

    def _maybe_ready(self) -> None:
        prompt_ok = self._prompt_ok or self._frontend is None
        if self._ready or not (self._info_ok and prompt_ok and self._probed):
            return
        self._ready = True
        self._start_timer.stop()
        self._set_state(IDLE)
        self.sig_ready.emit(self.environment)

    def _on_iopub(self, msg: dict) -> None:
        if msg["header"]["msg_type"] != "status" or not self._ready:
            return
        if self._state not in (IDLE, BUSY):
            return
        if msg.get("parent_header", {}).get("msg_type") in _CONTROL_REQUESTS:
            return
        execution_state = msg["content"].get("execution_state")
        if execution_state == "busy":
            self._set_state(BUSY)
        elif execution_state == "idle":
            self._set_state(IDLE)

    def _check_interrupt_answered(self) -> None:
        if self._state == BUSY:
            self.sig_interrupt_unanswered.emit()

    def _poll_alive(self) -> None:
        if self._km is None or self._state in (DEAD, DISCONNECTED, RESTARTING):
            return
        if self._km.is_alive():
            return
        process = getattr(self._km.provisioner, "process", None)
        returncode = process.returncode if process is not None else None
        self._die(death_explanation(returncode, log_excerpt(self._log_path)))

    def _on_heartbeat_failed(self, since_last_heartbeat: float) -> None:
        # An own kernel is judged by its process (a busy kernel can miss beats on a
        # loaded machine); a connected one only has the heartbeat.
        if self._km is not None or self._state in (DEAD, DISCONNECTED, RESTARTING):
            return
        self._die(self.tr("The connected kernel has not answered its heartbeat for {0:.0f} s: "
                          "it has died or the connection is lost.").format(since_last_heartbeat))

    def _start_timed_out(self) -> None:
        if not self._ready and self._state in (STARTING, RESTARTING):
            self._die(self.tr("The kernel did not become ready within {0} s.").format(
                self.START_TIMEOUT_MS // 1000) + self._tail_suffix())

    def _die(self, explanation: str) -> None:
        self._generation += 1
        self._cancel_jobs()
        for timer in (self._alive_timer, self._info_timer, self._start_timer,
                      self._escalate_timer):
            timer.stop()
        if self._kc is not None:
            self._kc.hb_channel.pause()  # no stream of "kernel died" warnings
        self._ready = False
        self._explanation = explanation
        self._set_state(DEAD)
        self.sig_died.emit(explanation)

    def _tail_suffix(self) -> str:
        text = log_excerpt(self._log_path)
        return ("\n" + self.tr("Last lines it wrote:") + "\n" + text) if text.strip() else ""

    def _set_state(self, state: str) -> None:
        if state != self._state:
            self._state = state
            self.sig_state_changed.emit(state)


def _kill_process_group(pgid: int | None) -> None:
    """SIGKILL what is left of an exited kernel's process group (jupyter_client starts
    kernels in a new session, so the group is the kernel's own)."""
    if pgid and hasattr(os, "killpg"):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:  # nothing left: the usual case
            pass


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _remove(path: Path | None) -> None:
    if path is not None:
        try:
            Path(path).unlink(missing_ok=True)
        except OSError:
            pass
