"""The one owner of the learner's kernel: manager, client, state and signals (GUIDE §3).

Lifecycle: DISCONNECTED → STARTING → IDLE ⇄ BUSY; death → DEAD (no automatic
restart: the learner sees why and restarts with one click) → RESTARTING → IDLE.
Ready means: ``kernel_info_reply`` received, the console's first prompt shown (when a
console is attached) and the environment probed; nothing visible runs before that.

Shutdown and restart block for up to seconds (the kernel's exit, the channel threads'), so
they run on worker threads (kernel_workers.py): ``shutdown()`` returns at once, a switch
starts the next kernel while the old one goes, and quit joins them with a deadline
(``wait_for_shutdown``).
"""
from __future__ import annotations

import signal
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal

from question_db import kernels
from question_db.checks.runner import KernelCheckRunner
from question_db.kernels import KernelChoice

from .kernel_handle import KernelHandle, make_kernel
from .kernel_workers import KernelRestart, KernelShutdown
from .prelaunch import Prelaunched
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
    """Owns one kernel at a time (a ``KernelHandle``: a qtconsole ``QtKernelManager`` for
    an own kernel, or only a ``QtKernelClient`` for a kernel we connected to) and says what
    state it is in."""

    sig_state_changed = Signal(str)
    """The kernel moved to another named state (one of ``STATES``)."""

    sig_ready = Signal(dict)
    """The kernel answered and the first prompt is shown; carries the environment dict."""

    sig_prompt_shown = Signal()
    """The console shows its first prompt after a (re)start (the environment may still be
    being probed: ``sig_ready`` follows)."""

    sig_died = Signal(str)
    """The kernel died on its own; carries an explanation (how it ended, last stderr lines)."""

    sig_connection_lost = Signal(str, bool)
    """A remote kernel's SSH link broke (not a crash); carries the explanation and whether
    the kernel still runs there (then ``reconnect`` keeps its state). State: DEAD."""

    sig_interrupt_unanswered = Signal()
    """An interrupt was sent but the kernel is still busy a few seconds later: offer restart."""

    _sig_restarted = Signal(int, object)
    """(generation, error or None), from the restart's worker thread; connected queued."""

    ALIVE_POLL_MS = 500
    INTERRUPT_ESCALATE_MS = 4000
    KERNEL_INFO_RETRY_MS = 1000
    START_TIMEOUT_MS = 60_000
    PROBE_AFTER_PROMPT_MAX_MS = 3000
    SHUTDOWN_WAIT_S = kernels.SHUTDOWN_WAIT_S  # per kernel, on its worker thread
    QUIT_WAIT_S = 3.0  # what quit waits for every kernel going away, before SIGKILL

    def __init__(self, choice: KernelChoice | None = None, parent: QObject | None = None, *,
                 prelaunched: Prelaunched | None = None):
        super().__init__(parent)
        self._choice = choice or default_choice()
        # the app kernel's process, spawned at launch (prelaunch.py): the first start
        # adopts it if the app kernel is still the choice, anything else discards it
        self._prelaunched = prelaunched
        self.adopted_early = False  # the running kernel is that early process
        self._state = DISCONNECTED
        self._kernel: KernelHandle | None = None
        self._frontend = None
        self._environment: dict = {}
        self._explanation = ""
        self._jobs: list[SideChannelJob] = []
        self._restart: KernelRestart | None = None
        self._shutdowns: list[KernelShutdown] = []  # kernels going away on worker threads
        self._learner_ran = False  # the learner executed something since the (re)start
        self._generation = 0  # bumps on every (re)start: late replies of old ones are dropped
        self._reset_readiness()
        self._sig_restarted.connect(self._on_restarted, Qt.ConnectionType.QueuedConnection)

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
        return self._kernel is not None and self._kernel.owns_kernel

    @property
    def manager(self):
        return self._kernel.manager if self._kernel is not None else None

    @property
    def client(self):
        return self._kernel.client if self._kernel is not None else None

    @property
    def log_path(self) -> Path | None:
        return self._kernel.log_path if self._kernel is not None else None

    @property
    def has_learner_state(self) -> bool:
        """Discarding this kernel would lose something: it is ours, alive, and the learner
        executed code in it since it (re)started."""
        return self._learner_ran and self.owns_kernel and self._state in (IDLE, BUSY)

    @property
    def shutting_down(self) -> int:
        """How many earlier kernels are still being shut down on worker threads."""
        self._shutdowns = [s for s in self._shutdowns if s.running]
        return len(self._shutdowns)

    def note_learner_execution(self) -> None:
        """The console executed code for the learner (typed, or run from the editor)."""
        if self._state in (IDLE, BUSY):
            self._learner_ran = True

    def connection_info(self) -> dict:
        """Ports/paths and key, for a separate client (``SideChannelJob``)."""
        if self._kernel is None:
            raise RuntimeError("no kernel")
        return self._kernel.client.get_connection_info()

    def attach_frontend(self, widget) -> None:
        """Bind a ``ConsoleWidget`` (see console_dock): it follows every (re)start."""
        self._frontend = widget
        widget.custom_interrupt = True  # Ctrl+C in the console → self.interrupt
        widget.custom_restart = True  # Ctrl+. in the console → self.restart
        widget.custom_interrupt_requested.connect(self.interrupt)
        widget.custom_restart_requested.connect(self.restart)
        widget.sig_prompt_shown.connect(self._on_prompt_shown)
        if self._kernel is not None:
            widget.kernel_client = self._kernel.client

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
        early, self._prelaunched = self._prelaunched, None
        try:
            kernel = make_kernel(self._choice, early)
        except Exception as exc:  # bad kernelspec, unreadable connection file, …
            self._die(self.tr("The kernel could not start: {0}").format(_describe(exc)))
            return
        self.adopted_early = kernel.adopted_early
        self._bind(kernel)
        self._after_launch()

    def switch(self, choice: KernelChoice, *, start: bool = True) -> None:
        """Let the current kernel go (shut down on a worker thread) and use ``choice``,
        started now unless told not."""
        self.shutdown()
        self._choice = choice
        if start:
            self.start()

    def restart(self) -> None:
        """Kill the kernel's whole process group and start it again on a worker thread (own
        kernel), or ask a connected kernel's owner to restart it."""
        if self._state == DISCONNECTED:
            self.start()
            return
        if self._state == RESTARTING:
            return
        if self._kernel is None:  # the start failed (DEAD without a kernel): try again
            self._set_state(DISCONNECTED)
            self.start()
            return
        self._begin(RESTARTING)
        kernel = self._kernel
        if kernel.owns_kernel:
            kernel.client.hb_channel.pause()
            generation = self._generation
            self._restart = KernelRestart(
                kernel, lambda error: self._sig_restarted.emit(generation, error)).start()
        else:
            kernel.client.shutdown(restart=True)
            self._after_launch()

    def _on_restarted(self, generation: int, error) -> None:
        if generation != self._generation or self._state != RESTARTING:
            return  # shut down or switched meanwhile: that shutdown took the kernel
        self._restart = None
        if error is not None:
            self._die(self.tr("The kernel could not restart: {0}").format(_describe(error))
                      + self._tail_suffix())
            return
        self._after_launch()

    def interrupt(self) -> bool:
        """Send SIGINT (own kernel) or an interrupt_request (connected kernel).

        Returns False when there is no kernel to interrupt. If the kernel is still busy
        a few seconds later, ``sig_interrupt_unanswered`` offers a restart.
        """
        if self._state in (DEAD, DISCONNECTED, RESTARTING) or self._kernel is None:
            return False
        km, kc = self._kernel.manager, self._kernel.client
        if km is not None:
            if not km.has_kernel:
                return False
            km.interrupt_kernel()
        else:
            kc.control_channel.send(kc.session.msg("interrupt_request", content={}))
        self._escalate_timer.start()
        return True

    def shutdown(self, *, wait_s: float | None = None) -> None:
        """Let the kernel go: it is shut down on a worker thread (interrupt, ask, stop
        channels, wait, kill; its files and log removed; its jobs joined), so this returns
        at once. Idempotent. ``wait_s``: also wait for every kernel this session let go
        (``wait_for_shutdown``), as at quit."""
        self.discard_prelaunched()
        if self._kernel is not None:
            self._release()
        if wait_s is not None:
            self.wait_for_shutdown(wait_s)

    def wait_for_shutdown(self, timeout: float = QUIT_WAIT_S) -> bool:
        """Bounded join: wait up to ``timeout`` for the kernels being shut down, then SIGKILL
        the process groups of those still going and give them a moment to finish. True when
        all have finished (no process, thread or file of theirs left)."""
        deadline = time.monotonic() + timeout
        for shutdown in self._shutdowns:
            shutdown.join(deadline - time.monotonic())
        late = [s for s in self._shutdowns if s.running]
        for shutdown in late:
            shutdown.kill()
        for shutdown in late:
            shutdown.join(1.0)
        self._shutdowns = [s for s in self._shutdowns if s.running]
        return not self._shutdowns

    def _release(self) -> None:
        """Hand the kernel to a worker thread for shutdown; the session is DISCONNECTED."""
        self._generation += 1
        for timer in (self._alive_timer, self._info_timer, self._start_timer,
                      self._escalate_timer):
            timer.stop()
        kernel, self._kernel = self._kernel, None
        restart, self._restart = self._restart, None
        if self._frontend is not None:
            self._frontend.kernel_client = None  # before the shutdown_reply can reach it
        channels = kernel.client
        for signal_, slot in ((channels.shell_channel.message_received, self._on_shell),
                              (channels.iopub_channel.message_received, self._on_iopub),
                              (channels.hb_channel.kernel_died, self._on_heartbeat_failed)):
            try:
                signal_.disconnect(slot)
            except (RuntimeError, TypeError):  # never bound (the start failed)
                pass
        jobs, self._jobs = self._jobs, []
        self._shutdowns = [s for s in self._shutdowns if s.running]
        self._shutdowns.append(KernelShutdown(
            kernel, jobs, after=restart.thread if restart is not None else None,
            wait_s=self.SHUTDOWN_WAIT_S).start())
        self._learner_ran = False
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
        self._learner_ran = False
        self._explanation = ""
        self._environment = {}
        self._escalate_timer.stop()
        self._set_state(state)

    def discard_prelaunched(self) -> None:
        """Kill the early kernel process if no start adopted it (shutdown, switch)."""
        early, self._prelaunched = self._prelaunched, None
        if early is not None:
            early.discard()

    def _bind(self, kernel: KernelHandle) -> None:
        self._kernel = kernel
        kc = kernel.client
        kc.start_channels()  # threaded client: channels exist only once started
        kc.shell_channel.message_received.connect(self._on_shell)
        kc.iopub_channel.message_received.connect(self._on_iopub)
        kc.hb_channel.kernel_died.connect(self._on_heartbeat_failed)
        if self._frontend is not None:
            self._frontend.kernel_client = kc  # running channels: it asks for its prompt

    def _after_launch(self) -> None:
        self._kernel.client.hb_channel.unpause()
        self._request_kernel_info()
        self._info_timer.start()
        self._start_timer.start()
        if self.owns_kernel:
            self._alive_timer.start()

    def _request_kernel_info(self) -> None:
        if self._kernel is not None and not self._info_ok:
            self._kernel.client.kernel_info()

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
        km = self.manager
        if km is None or self._state in (DEAD, DISCONNECTED, RESTARTING):
            return
        provisioner = km.provisioner
        if getattr(provisioner, "connection_lost", False):  # remote: the link, not a crash
            self._lose_connection(provisioner)
            return
        if km.is_alive():
            return
        if hasattr(provisioner, "target"):  # remote: the supervisor said how it ended
            returncode = provisioner.returncode
        else:
            process = getattr(provisioner, "process", None)
            returncode = process.returncode if process is not None else None
        self._die(death_explanation(returncode, log_excerpt(self.log_path)))

    def _lose_connection(self, provisioner) -> None:
        survived = provisioner.kernel_survived
        if survived:
            text = self.tr("The connection to {0} was lost; the kernel still runs there. "
                           "Reconnect?").format(provisioner.target.label)
        else:
            text = self.tr("The connection to {0} was lost and the remote kernel stopped "
                           "with it. Reconnect to start a new one?").format(
                provisioner.target.label)
        self._die(text)
        self.sig_connection_lost.emit(text, survived)

    def reconnect(self) -> None:
        """After ``sig_connection_lost``: forward the channels again to the kernel that
        still runs (its variables kept), else restart it."""
        provisioner = getattr(self.manager, "provisioner", None)
        if self._state != DEAD or not hasattr(provisioner, "reopen_tunnel"):
            self.restart()
            return
        try:
            reopened = provisioner.reopen_tunnel()  # ~0.2 s over a LAN: ssh's own login
        except Exception as exc:
            self._die(self.tr("Could not reconnect: {0}").format(_describe(exc)))
            return
        if not reopened:
            self.restart()
            return
        self._begin(RESTARTING)  # the console gets a fresh prompt once it answers
        self._after_launch()

    def _on_heartbeat_failed(self, since_last_heartbeat: float) -> None:
        # An own kernel is judged by its process (a busy kernel can miss beats on a
        # loaded machine); a connected one only has the heartbeat.
        if self.owns_kernel or self._state in (DEAD, DISCONNECTED, RESTARTING):
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
        if self._kernel is not None:
            self._kernel.client.hb_channel.pause()  # no stream of "kernel died" warnings
        self._ready = False
        self._explanation = explanation
        self._set_state(DEAD)
        self.sig_died.emit(explanation)

    def _tail_suffix(self) -> str:
        text = log_excerpt(self.log_path)
        return ("\n" + self.tr("Last lines it wrote:") + "\n" + text) if text.strip() else ""

    def _set_state(self, state: str) -> None:
        if state != self._state:
            self._state = state
            self.sig_state_changed.emit(state)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
