"""Attach the console, the check controller and the results panel to the main window.

Nothing here imports qtconsole: the dock builds its console widget in ``start()``,
which the app calls after the window is shown.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from .check_controller import CheckController
from .check_panel import CheckPanel
from .console_dock import ConsoleDock
from .pack_trust import PackTrustGate, declined_text
from .prelaunch import Prelaunched


@dataclass
class ConsoleParts:
    dock: ConsoleDock
    checks: CheckController
    panel: CheckPanel
    panel_dock: QDockWidget
    trust: PackTrustGate

    def shutdown(self) -> None:
        """Idempotent and bounded (a few seconds at most): stop a running check, then the
        kernel; no process, thread or file left behind."""
        self.checks.cancel()  # its worker stops while the kernel goes
        self.dock.shutdown()
        self.checks.shutdown()


# First launch: the console takes this share of the window's height, so the library and a
# question keep most of the screen (the dock's own size hint would take over half).
DEFAULT_DOCK_SHARE = 0.3


def restore_dock_layout(window: QMainWindow, settings: QSettings) -> None:
    """Where the learner left the docks (MainWindow saves ``window/state`` on close), else
    a console ~30% of the window high."""
    state = settings.value("window/state")
    if isinstance(state, QByteArray) and not state.isEmpty() and window.restoreState(state):
        return
    height = max(160, int(window.height() * DEFAULT_DOCK_SHARE))
    window.resizeDocks([window.findChild(QDockWidget, "ConsoleDock")], [height],
                       Qt.Orientation.Vertical)


def attach_console(window: QMainWindow, settings: QSettings | None = None,
                   data_dir: Path | None = None, *,
                   prelaunched: Prelaunched | None = None) -> ConsoleParts:
    """Docks for the console and check results, connected to the window's signals.
    ``data_dir`` holds the learner's consent to run code from packs not shipped with
    examdesk (default: examdesk's data dir); ``prelaunched``: the app kernel's process,
    spawned at launch, for the console to adopt."""
    dock = ConsoleDock(window, settings=settings, prelaunched=prelaunched)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    checks = CheckController(dock.session, dock.run_code, window)
    panel = CheckPanel()
    panel.bind(checks)
    panel_dock = QDockWidget(QCoreApplication.translate("ConsoleWiring", "Check results"),
                             window)
    panel_dock.setObjectName("check_results_dock")
    panel_dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, panel_dock)
    window.tabifyDockWidget(dock, panel_dock)
    dock.raise_()
    restore_dock_layout(window, settings if settings is not None else QSettings())
    # The window places the console per kind of question (a bar on choice questions, open
    # on code) and shows check results under each editor: the panel is a log in View.
    window.place_console(dock, panel_dock)

    gate = PackTrustGate(window, data_dir)

    def pack_allowed(question_id: str) -> tuple[bool, str]:
        paper = window.bank.paper(window.bank.question(question_id).paper_id)
        if gate.allow(paper):
            return True, ""
        window.statusBar().showMessage(declined_text(paper), 15_000)
        return False, declined_text(paper)

    def check(question_id: str, code: str) -> None:
        allowed, why = pack_allowed(question_id)
        if not allowed:  # declined: neither the learner's code nor the suite runs
            panel.summary.setText(why)
            window.on_check_finished(question_id, {"error": why})
            return
        checks.check(window.bank.question(question_id), code)

    def verify(question_id: str, source: str) -> None:
        if pack_allowed(question_id)[0]:
            dock.raise_()
            dock.run_code(source)

    window.sig_run_requested.connect(lambda code: dock.run_code(code))
    window.sig_check_requested.connect(check)
    window.sig_verify_requested.connect(verify)
    checks.sig_check_finished.connect(window.on_check_finished)
    dock.session.sig_ready.connect(lambda _env: window.set_console_available(True))
    dock.session.sig_died.connect(lambda _why: window.set_console_available(False))
    return ConsoleParts(dock, checks, panel, panel_dock, gate)
