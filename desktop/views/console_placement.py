"""Where the console dock is, per kind of question: open on code and "verify" questions,
a thin bar elsewhere, at the height the learner chose for that kind.

The main window owns this (it knows which screen and question are on top); the dock is
any ``QDockWidget`` (the console's, found by the window), so nothing here imports the
console. The learner's choices persist in QSettings per kind: open or not, and the
height. The View menu action and its shortcut always bring the console back, even after
its close button hid it; a closed-book exam hides it until the exam is submitted.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QMainWindow, QToolButton,
                               QWidget)

from ..config import Keys
from .translation import tr

CODE, VERIFY, OTHER = "code", "verify", "other"
KINDS = (CODE, VERIFY, OTHER)
OPEN_BY_DEFAULT = {CODE: True, VERIFY: True, OTHER: False}
DEFAULT_SHARE = 0.25  # of the window's height, until the learner picks a height
SHORTCUTS = ("Ctrl+`", "Ctrl+J")


class DockTitleBar(QWidget):
    """The dock's title bar, also its collapsed form: ▸/▾, the title, the shortcut, ×."""

    sig_toggle = Signal()
    """Open or collapse the console."""

    sig_close = Signal()
    """Hide the console (the View menu brings it back)."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("console_bar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 1, 4, 1)
        self.arrow = QToolButton()
        self.arrow.setObjectName("console_toggle")
        self.arrow.setAutoRaise(True)
        self.arrow.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.arrow.clicked.connect(self.sig_toggle)
        self.title = QLabel(title)
        self.hint = QLabel()
        close = QToolButton()
        close.setObjectName("console_close")
        close.setText("×")
        close.setAutoRaise(True)
        close.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        close.setToolTip(tr("Hide the console (View → Python console brings it back)"))
        close.clicked.connect(self.sig_close)
        layout.addWidget(self.arrow)
        layout.addWidget(self.title)
        layout.addWidget(self.hint, 1)
        layout.addWidget(close)
        self.set_open(True)

    def set_open(self, is_open: bool) -> None:
        self.arrow.setText("▾" if is_open else "▸")
        self.arrow.setToolTip(tr("Collapse the console") if is_open else tr("Open the console"))
        self.hint.setText("" if is_open else tr("collapsed · %1 opens it").replace(
            "%1", SHORTCUTS[0]))

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 (Qt override)
        self.sig_toggle.emit()


class ConsolePlacement(QObject):
    """Opens, collapses and sizes the console dock for the kind of question on screen."""

    def __init__(self, window: QMainWindow, dock: QDockWidget, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.dock = dock
        self.settings = settings
        self.kind = OTHER
        self.allowed = True
        self.is_open = True
        # Opened by hand on the library or a choice question, it stays open on that
        # screen's other non-code pages, but not on every later screen and launch (it was
        # kept per kind like code's, and so opened on every non-code page from then on).
        self._other_open = OPEN_BY_DEFAULT[OTHER]
        self.bar = DockTitleBar(dock.windowTitle())
        self.bar.sig_toggle.connect(self.toggle)
        self.bar.sig_close.connect(self.hide)
        dock.setTitleBarWidget(self.bar)
        self.action = QAction(tr("&Python console"), window)
        self.action.setObjectName("toggle_console")
        self.action.setCheckable(True)
        self.action.setShortcuts([QKeySequence(k) for k in SHORTCUTS])
        self.action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.action.triggered.connect(self.toggle)

    # --- what the learner chose, per kind ------------------------------------------------
    def wants_open(self, kind: str) -> bool:
        if kind == OTHER:  # opened on a non-code page: for this screen only
            return self._other_open
        value = self.settings.value(f"{Keys.CONSOLE_OPEN}/{kind}")
        return OPEN_BY_DEFAULT[kind] if value is None else str(value).lower() in ("true", "1")

    def height_for(self, kind: str) -> int:
        value = self.settings.value(f"{Keys.CONSOLE_HEIGHT}/{kind}")
        try:
            return max(self.minimum_open_height(), int(value))
        except (TypeError, ValueError):
            return max(self.minimum_open_height(), int(self.window.height() * DEFAULT_SHARE))

    def minimum_open_height(self) -> int:
        return self.bar.sizeHint().height() + 80

    def remember_height(self) -> None:
        """The height the dock has now, as the learner's choice for the current kind."""
        if self.is_open and self.dock.isVisible() and self.allowed:
            height = self.dock.height()
            if height >= self.minimum_open_height():
                self.settings.setValue(f"{Keys.CONSOLE_HEIGHT}/{self.kind}", height)

    # --- moves ---------------------------------------------------------------------------
    def set_kind(self, kind: str) -> None:
        """The question on screen is of ``kind``: open or collapse as chosen for it."""
        if kind not in KINDS:
            kind = OTHER
        self.remember_height()
        self.kind = kind
        if self.allowed:
            self._place(self.wants_open(kind))

    def set_allowed(self, allowed: bool) -> None:
        """A closed-book exam: no console at all until it is submitted."""
        if allowed == self.allowed:
            return
        if not allowed:
            self.remember_height()
        self.allowed = allowed
        self.action.setEnabled(allowed)
        self.action.setToolTip("" if allowed else tr(
            "Closed-book exam: the console comes back when you submit"))
        if allowed:
            self._place(self.wants_open(self.kind))
        else:
            self.dock.hide()
            self.action.setChecked(False)

    def toggle(self) -> None:
        """View → Python console, its shortcut, the bar's arrow: open ↔ collapse."""
        if not self.allowed:
            self.action.setChecked(False)
            return
        opening = not (self.dock.isVisible() and self.is_open)
        if not opening:
            self.remember_height()
        if self.kind == OTHER:
            self._other_open = opening
        else:
            self.settings.setValue(f"{Keys.CONSOLE_OPEN}/{self.kind}", opening)
        self._place(opening)

    def new_screen(self) -> None:
        """Another screen is on top: non-code pages start collapsed again."""
        self._other_open = OPEN_BY_DEFAULT[OTHER]

    def hide(self) -> None:
        """The bar's ×: hidden; the View menu or the shortcut brings it back."""
        self.remember_height()
        self.dock.hide()
        self.action.setChecked(False)

    def reveal(self) -> None:
        """Code is about to run in the console (Run, Verify): show it, open."""
        if self.allowed and not (self.dock.isVisible() and self.is_open):
            self._place(True)

    def _place(self, is_open: bool) -> None:
        self.is_open = is_open
        self.dock.show()
        body = self.dock.widget()
        if body is not None:
            body.setVisible(is_open)
        self.bar.set_open(is_open)
        self.action.setChecked(is_open)
        height = self.height_for(self.kind) if is_open else self.bar.sizeHint().height()
        self.window.resizeDocks([self.dock], [height], Qt.Orientation.Vertical)
