"""The console dock: qtconsole's RichJupyterWidget bound to the KernelSession, with
a state indicator, Interrupt / Restart, the kernel chooser and an environment banner.

qtconsole is imported only in ``start()`` (the lead calls it from a 0-ms timer after
the main window is shown), so the window appears before any kernel work.
"""
from __future__ import annotations

import functools
from collections import deque
from typing import Callable

from PySide6.QtCore import QCoreApplication, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QMessageBox, QPushButton,
                               QVBoxLayout, QWidget)

from question_db.kernels import APP_KERNEL

from ..theme import Role, css, theme
from . import kernel_session as ks
from .kernel_chooser import KernelChooser
from .kernel_session import KernelSession
from .prelaunch import Prelaunched

translate = QCoreApplication.translate  # module functions: an explicit context, lupdate reads it

# on_finished(content) gets the execute_reply content (status, ename, evalue …).
RunCallback = Callable[[dict], None]

# Lines the console keeps while code runs (qtconsole's ``buffer_size``, default 500): older
# output is dropped so that a flood (print in a 10**6 loop) neither freezes the UI nor fills
# memory; the newest lines stay visible (tests/test_faults_kernel.py).
CONSOLE_MAX_LINES = 10_000
MESSAGE_LINES = 3  # of a dead kernel's explanation, shown in the dock (the rest: tooltip, console)

_STATE_ROLES = {ks.STARTING: Role.WARNING, ks.IDLE: Role.OK, ks.BUSY: Role.INFO,
                ks.DEAD: Role.ERROR, ks.RESTARTING: Role.WARNING, ks.DISCONNECTED: Role.MUTED}


def state_label(state: str) -> str:
    return {ks.STARTING: translate("ConsoleDock", "starting"),
            ks.IDLE: translate("ConsoleDock", "idle"),
            ks.BUSY: translate("ConsoleDock", "busy"),
            ks.DEAD: translate("ConsoleDock", "dead"),
            ks.RESTARTING: translate("ConsoleDock", "restarting"),
            ks.DISCONNECTED: translate("ConsoleDock", "no kernel")}[state]


def environment_banner(env: dict) -> str:
    """Python/torch versions, device, flash_attn real or stand-in — for the console."""
    if env.get("error") and "python" not in env:
        return translate("ConsoleDock", "Could not read the kernel's environment: {0}").format(
            env["error"])
    lines = [f"Python {env.get('python', '?')} · torch {env.get('torch') or '—'}"]
    if env.get("cuda"):
        lines.append(translate("ConsoleDock", "Device: CUDA {0}, {1} GiB, compute capability {2}")
                     .format(env.get("device_name"), env.get("memory_gib"),
                             env.get("capability")))
    elif env.get("torch"):
        lines.append(translate("ConsoleDock", "Device: CPU, {0} threads").format(
            env.get("threads")))
    else:
        lines.append(translate("ConsoleDock", "torch is not importable here: {0}").format(
            env.get("torch_error", "")))
    flash = str(env.get("flash_attn", "missing"))
    if flash == "stand-in":
        flash = translate("ConsoleDock", "stand-in (examdesk's CPU-capable copy of the "
                                         "flash_attn_func API)")
    lines.append(translate("ConsoleDock", "flash_attn: {0}").format(flash))
    return "\n".join(lines)


@functools.cache
def console_widget_class():
    """RichJupyterWidget that announces each new prompt (readiness, queued runs)."""
    from qtconsole.rich_jupyter_widget import RichJupyterWidget

    class ConsoleWidget(RichJupyterWidget):
        sig_prompt_shown = Signal()
        """A new input prompt is on screen."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            # qtconsole 5.7.2 makes its completion helper (CompletionHtml, never shown) a
            # parentless top-level widget that outlives the console (tests/leaks.py found it
            # after every console test): adopt it, hidden, so it goes with the console.
            helper = getattr(self, "_completion_widget", None)
            if isinstance(helper, QWidget) and helper.parent() is None:
                helper.setParent(self)
                helper.hide()

        def _prompt_started_hook(self):
            super()._prompt_started_hook()
            self.sig_prompt_shown.emit()

        def _dispatch(self, msg):
            # A message queued from the channel thread can arrive after KernelSession
            # unbound this widget (shutdown, switch): qtconsole would then fail on
            # ``self._kernel_client.session`` (seen with qtconsole 5.7.2).
            if self.kernel_client is not None:
                super()._dispatch(msg)

        def _handle_shutdown_reply(self, msg):
            # KernelSession owns shutdown and restart; qtconsole would otherwise ask
            # "Close the Console?" in a modal box when a connected kernel goes away.
            pass

        def _handle_kernel_restarted(self, died=True):
            # KernelSession resets the widget once the restarted kernel answers; the
            # base class would also print "Kernel died, restarting" and a second prompt.
            pass

    return ConsoleWidget


class ConsoleDock(QDockWidget):
    """The learner's Python console; one per main window."""


    def __init__(self, parent: QWidget | None = None, *, settings: QSettings | None = None,
                 prelaunched: Prelaunched | None = None):
        super().__init__(self.tr("Python console"), parent)
        self.setObjectName("ConsoleDock")
        self._settings = settings if settings is not None else QSettings()
        self._chooser = KernelChooser(self._settings)
        self.session = KernelSession(self._chooser.current_choice(), self,
                                     prelaunched=prelaunched)
        self.console = None  # the RichJupyterWidget, created in start()
        self._queue: deque[tuple[str, RunCallback | None]] = deque()
        self._inflight: RunCallback | None = None
        self._inflight_started = False
        self._visible_busy = False  # a visible execution (ours or typed) awaits its reply
        self._build()
        self.session.sig_state_changed.connect(self._on_state)
        self.session.sig_ready.connect(self._on_ready)
        self.session.sig_died.connect(self._on_died)
        self.session.sig_connection_lost.connect(self._on_connection_lost)
        self.session.sig_interrupt_unanswered.connect(self._on_interrupt_unanswered)
        self._chooser.sig_kernel_chosen.connect(self._on_kernel_chosen)
        self._chooser.confirm_switch = self._confirm_switch
        self._after_start: Callable[[], None] | None = None
        self._shut_down = False
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)

    # --- layout ----------------------------------------------------------------------
    def _build(self) -> None:
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.state_indicator = QLabel(body)
        self.environment_label = QLabel(body)
        self.environment_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.interrupt_button = QPushButton(self.tr("Interrupt"), body)
        self.interrupt_button.setToolTip(self.tr("Stop the running code (Ctrl+C in the console)"))
        self.restart_button = QPushButton(self.tr("Restart"), body)
        self.restart_button.setToolTip(self.tr("Kill the kernel and start a fresh one "
                                               "(variables are lost)"))
        self.interrupt_button.clicked.connect(self.session.interrupt)
        self.restart_button.clicked.connect(self.session.restart)
        for widget in (self.state_indicator, self.environment_label):
            bar.addWidget(widget)
        bar.addStretch(1)
        for widget in (self._chooser, self.interrupt_button, self.restart_button):
            bar.addWidget(widget)
        layout.addLayout(bar)

        self.message = QWidget(body)  # death / stuck-interrupt notice with one-click restart
        row = QHBoxLayout(self.message)
        row.setContentsMargins(0, 0, 0, 0)
        self.message_label = QLabel(self.message)
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.message_label.setStyleSheet(f"color: {css(Role.ERROR)};")
        self.message_restart = QPushButton(self.tr("Restart kernel"), self.message)
        self.message_restart.clicked.connect(self.session.restart)
        # a remote kernel's lost SSH link (not a crash): forward again, state kept
        self.message_reconnect = QPushButton(self.tr("Reconnect"), self.message)
        self.message_reconnect.clicked.connect(self.session.reconnect)
        self.message_reconnect.hide()
        row.addWidget(self.message_label, 1)
        row.addWidget(self.message_reconnect, 0, Qt.AlignTop)
        row.addWidget(self.message_restart, 0, Qt.AlignTop)
        self.message.hide()
        layout.addWidget(self.message)

        self._placeholder = QLabel(self.tr("The Python console starts once the window is up…"),
                                   body)
        self._placeholder.setAlignment(Qt.AlignCenter)
        layout.addWidget(self._placeholder, 1)
        self._layout = layout
        self.setWidget(body)
        self._on_state(self.session.state)

    # --- public ----------------------------------------------------------------------
    @property
    def chooser(self) -> KernelChooser:
        return self._chooser

    def start(self) -> None:
        """Start the kernel and create the console widget (after the window is shown).

        The app's own kernel needs no kernelspec scan: it is spawned before the widget is
        built and the installed kernels are listed, so both overlap its ~2 s start-up with
        torch (bench: launch_to_console_with_torch)."""
        remembered = self._chooser.current_choice()
        if remembered.key == APP_KERNEL and self.session.choice.key == APP_KERNEL:
            self.session.start()
        if self.console is None:
            self.console = console_widget_class()(parent=self.widget(),
                                                  buffer_size=CONSOLE_MAX_LINES)
            self._style_console()
            theme().sig_changed.connect(self._style_console)
            self.console.executing.connect(self._on_executing)
            self.console.executed.connect(self._on_executed)
            self.console.sig_prompt_shown.connect(self._flush)
            self._layout.replaceWidget(self._placeholder, self.console)
            self._placeholder.deleteLater()
            self.session.attach_frontend(self.console)
        choice = self._chooser.load()
        if choice.key != self.session.choice.key:
            self.session.switch(choice, start=False)
        self.session.start()  # no-op when it is already starting

    def _style_console(self) -> None:
        """qtconsole's own dark or light style, as the theme is (its default is light)."""
        if self.console is not None:
            self.console.set_default_style("linux" if theme().dark else "lightbg")

    def start_after_imports(self, then: Callable[[], None] | None = None) -> None:
        """``start()`` after importing qtconsole in two event-loop turns (~0.3 s and ~0.2 s),
        so the window just painted answers in between. On the UI thread on purpose:
        PySide's lazy type set-up is not thread-safe, and importing qtconsole on a helper
        thread crashed examdesk (SIGSEGV in qtpy's enum set-up while the UI thread loaded
        QtNetwork, 2 of 10 starts under load). ``then()`` runs after ``start()``."""
        self._after_start = then

        def widgets() -> None:
            if not self._shut_down:
                import qtconsole.rich_jupyter_widget  # noqa: F401 - for start()

                QTimer.singleShot(0, self, self._imported)

        def manager() -> None:
            if not self._shut_down:
                import qtconsole.manager  # noqa: F401 - for start()

                QTimer.singleShot(0, self, widgets)

        QTimer.singleShot(0, self, manager)

    def _imported(self) -> None:
        if self._shut_down:  # closed while qtconsole was being imported
            return
        self.start()
        then, self._after_start = self._after_start, None
        if then is not None:
            then()

    def run_code(self, code: str, on_finished: RunCallback | None = None) -> None:
        """Execute ``code`` visibly in the console once the kernel is ready (queued while it
        starts, restarts or is dead); ``on_finished`` gets the execute_reply content, or
        ``status: error`` with ``ename`` KernelDied/KernelRestarted/KernelShutdown/
        KernelSwitched when the run cannot finish."""
        self._queue.append((code, on_finished))
        self._flush()

    def shutdown(self) -> None:
        """Quit: stop the kernel, waiting at most ``KernelSession.QUIT_WAIT_S`` for it (and
        for any kernel still going away after a switch) before killing it; pending runs are
        answered with an error. Idempotent."""
        self._shut_down = True  # a start still queued behind qtconsole's imports is dropped
        self.session.shutdown(wait_s=KernelSession.QUIT_WAIT_S)
        self._fail_pending("KernelShutdown", self.tr("the console was closed"))

    # --- running code ----------------------------------------------------------------
    def _flush(self) -> None:
        if (not self._queue or self._inflight_started or self._visible_busy
                or not self.session.is_ready or self.console is None):
            return
        code, callback = self._queue.popleft()
        typed = self.console.input_buffer  # what the learner was typing is not lost
        self._inflight, self._inflight_started = callback, True
        self.console.execute(code)
        if typed.strip():
            self.console.input_buffer = typed  # qtconsole restores it at the next prompt

    def _on_executing(self, _source: str) -> None:
        self._visible_busy = True
        self.session.note_learner_execution()

    def _on_executed(self, msg: dict) -> None:
        self._visible_busy = False
        if self._inflight_started:
            callback = self._inflight
            self._inflight, self._inflight_started = None, False
            if callback is not None:
                callback(dict(msg["content"]))
        QTimer.singleShot(0, self._flush)  # let the widget finish its new prompt first

    def _fail_pending(self, ename: str, evalue: str, *, queued: bool = True) -> None:
        """Answer the run in flight (its reply will never come) and, if ``queued``, the
        waiting ones; otherwise those run once the (restarted) kernel is ready."""
        callbacks = [self._inflight] if self._inflight_started else []
        if queued:
            callbacks += [cb for _, cb in self._queue]
            self._queue.clear()
        self._inflight, self._inflight_started, self._visible_busy = None, False, False
        for callback in callbacks:
            if callback is not None:
                callback({"status": "error", "ename": ename, "evalue": evalue, "traceback": []})

    # --- session events --------------------------------------------------------------
    def _on_state(self, state: str) -> None:
        colour = css(_STATE_ROLES[state])
        self.state_indicator.setText(f"<span style='color:{colour}'>●</span> "
                                     f"{state_label(state)}")
        self.state_indicator.setToolTip(self.tr("Kernel: {0}").format(state_label(state)))
        self.interrupt_button.setEnabled(state in (ks.BUSY, ks.STARTING))
        self.restart_button.setEnabled(state in (ks.IDLE, ks.BUSY, ks.DEAD, ks.STARTING))
        if state in (ks.STARTING, ks.RESTARTING):
            self.message.hide()
            self.restart_button.show()
        if state == ks.RESTARTING:
            self._fail_pending("KernelRestarted", self.tr("the kernel was restarted"),
                               queued=False)
            self._append_notice(self.tr("Restarting the kernel…"))

    def _on_ready(self, env: dict) -> None:
        banner = environment_banner(env)
        self.environment_label.setText(banner.splitlines()[0])
        self.environment_label.setToolTip(banner)
        self._append_notice(banner)
        self._flush()

    def _on_died(self, explanation: str) -> None:
        self._fail_pending("KernelDied", explanation, queued=False)
        text = self.tr("{0}\nRestart the kernel to go on; your editor code is kept.").format(
            explanation)
        # The dock shows the cause's first lines (a whole native traceback made it grow
        # past the console); the console and the tooltip have all of it.
        lines = explanation.splitlines()
        short = "\n".join(lines[:MESSAGE_LINES]) + ("\n…" if len(lines) > MESSAGE_LINES else "")
        self._show_message(self.tr("{0}\nRestart the kernel to go on; your editor code is "
                                   "kept.").format(short), details=text)
        self._append_notice(text)

    def _on_connection_lost(self, explanation: str, kernel_survived: bool) -> None:
        """After ``_on_died``: the notice says the link broke and offers Reconnect (the
        kernel kept) or a new remote kernel."""
        self._show_message(explanation)
        self.message_reconnect.show()
        self.message_restart.setVisible(kernel_survived)  # else Reconnect starts a new one

    def _on_interrupt_unanswered(self) -> None:
        self._show_message(self.tr("The kernel is still busy after the interrupt (code in "
                                   "native loops may not stop). Restart it? Variables will be "
                                   "lost; your editor code is kept."))

    def _confirm_switch(self, choice) -> bool:
        """Another kernel was picked: fine unless the current one holds the learner's work
        (variables, definitions, imports), which a switch discards; then ask."""
        if not self.session.has_learner_state:
            return True
        answer = QMessageBox.question(
            self, self.tr("Switch kernel?"),
            self.tr("Switching to {0} shuts down the current kernel: the variables, "
                    "functions and imports you ran in it are lost (your editor code is "
                    "kept).").format(choice.label),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def _on_kernel_chosen(self, choice) -> None:
        self._fail_pending("KernelSwitched", self.tr("another kernel was chosen"))
        self.message.hide()
        self.environment_label.clear()
        self.session.switch(choice, start=self.console is not None)

    def _show_message(self, text: str, details: str = "") -> None:
        """The notice with its own Restart button: the bar's is hidden meanwhile (two
        Restart buttons side by side asked which one to press)."""
        self.message_label.setText(text)
        self.message_label.setToolTip(details)
        self.message_reconnect.hide()
        self.message_restart.show()
        self.message.show()
        self.restart_button.hide()

    def _append_notice(self, text: str) -> None:
        if self.console is not None:  # qtconsole has no public "print above the prompt"
            self.console._append_plain_text("\n" + text + "\n", before_prompt=True)
