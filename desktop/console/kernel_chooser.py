"""Which kernel the console uses: the app's Python, an installed kernelspec, a GPU box over
SSH (remembered hosts with their last-seen GPU; remote_dialog.py), or an existing kernel
(connection file). Remembered in QSettings.

A change of kernel discards the running one, so the chooser changes only when the learner
opens it and picks: a QComboBox would otherwise switch on a mouse wheel passing over it or
on arrow / PgUp / PgDn keys while it has focus (issue 14: PgDn on the focused combo wiped
the kernel's state), and it asks first when the kernel holds the learner's work
(``confirm_switch``)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication, QSettings, Qt, Signal
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QComboBox, QFileDialog, QWidget

from question_db import kernels, remote_kernels
from question_db.kernels import CONNECT_PREFIX, KernelChoice

from ..config import Keys  # read at launch too, before Qt widgets
from .remote_dialog import RemoteKernelDialog, remembered_hosts

SETTINGS_KEY = Keys.KERNEL
LABEL_KEY = "console/kernel_label"
_CONNECT_ITEM = "__connect__"
_REMOTE_ITEM = "__remote__"
# Keys that open the list (QComboBox's own, plus Enter); every other key is left to the
# parent: navigation keys reach the page instead of changing the kernel.
_OPEN_KEYS = {Qt.Key.Key_Space, Qt.Key.Key_F4, Qt.Key.Key_Return, Qt.Key.Key_Enter}


class KernelChooser(QComboBox):
    """A combo box of kernel choices; the last entry asks for a connection file."""

    sig_kernel_chosen = Signal(object)
    """The learner picked another kernel (a ``KernelChoice``); it is already remembered."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self._settings = settings
        self.setToolTip(self.tr("Python kernel the console and the checks run in"))
        # Scanning kernelspecs imports jupyter_client (~0.5 s): done in load(), after
        # the window is shown; until then only the remembered choice is listed.
        self._choices: list[KernelChoice] = []
        key = str(settings.value(SETTINGS_KEY, kernels.APP_KERNEL) or kernels.APP_KERNEL)
        label = str(settings.value(LABEL_KEY, "") or self.tr("examdesk (this Python)"))
        self._current = KernelChoice(key, label)
        self._fill()
        self.activated.connect(self._on_activated)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a wheel neither focuses nor changes it
        # asked before another kernel is used; False keeps the current one
        self.confirm_switch: Callable[[KernelChoice], bool] | None = None

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        """The wheel scrolls what is under the chooser; it never picks a kernel (the open
        list scrolls as usual: its events go to the list, not here)."""
        event.ignore()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        """Space, F4, Enter or Alt+↓/↑ open the list; arrows, PgUp/PgDn, Home/End and
        letters pass to the parent instead of changing the selection."""
        alt_arrow = (event.modifiers() & Qt.KeyboardModifier.AltModifier
                     and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up))
        if event.key() in _OPEN_KEYS or alt_arrow:
            self.showPopup()
            event.accept()
            return
        event.ignore()

    def load(self) -> KernelChoice:
        """List the installed kernels; return the remembered choice, checked."""
        if not self._choices:
            self._choices = kernels.available_kernels()
            self._current = self.remembered()
            self._fill()
        return self._current

    def remembered(self) -> KernelChoice:
        """The saved choice if it still exists, else the app's own kernel."""
        if not self._choices:
            self._choices = kernels.available_kernels()
        key = str(self._settings.value(SETTINGS_KEY, kernels.APP_KERNEL) or "")
        for choice in self._choices:
            if choice.key == key:
                return choice
        if key.startswith(CONNECT_PREFIX) and Path(key[len(CONNECT_PREFIX):]).is_file():
            return _connect_choice(key[len(CONNECT_PREFIX):])
        for choice in self.remote_choices():
            if choice.key == key:
                return choice
        return self._choices[0]

    def remote_choices(self) -> list[KernelChoice]:
        """The remembered GPU boxes (Kernel ▸ Remote GPU over SSH…), with their last-seen
        GPU."""
        choices = []
        for record in remembered_hosts(self._settings):
            gpu = record.last_gpu or self.tr("no GPU seen")
            label = self.tr("{0} over SSH — {1}").format(record.target.label, gpu)
            choices.append(KernelChoice(record.target.to_key(), label))
        return choices

    def shown_label(self, choice: KernelChoice) -> str:
        """The choice as the learner reads it: the app's own kernel in the UI's language
        (the core names it in English); a kernelspec by its own display name."""
        if choice.key == kernels.APP_KERNEL:
            version = sys.version.split()[0]
            return self.tr("examdesk (this Python, %1)").replace("%1", version)
        return choice.label

    def current_choice(self) -> KernelChoice:
        return self._current

    def _fill(self) -> None:
        self.blockSignals(True)
        self.clear()
        choices = list(self._choices)
        remote = [c for c in self.remote_choices() if c.key not in {x.key for x in choices}]
        if self._current.key not in {c.key for c in choices + remote}:  # a connection file,
            choices.append(self._current)                                # or not loaded yet
        for choice in choices + remote:
            self.addItem(self.shown_label(choice), choice.key)
        self.addItem(self.tr("Remote GPU over SSH…"), _REMOTE_ITEM)
        self.addItem(self.tr("Connect to existing kernel…"), _CONNECT_ITEM)
        self.setCurrentIndex(max(0, self.findData(self._current.key)))
        self.blockSignals(False)

    def _on_activated(self, index: int) -> None:
        key = self.itemData(index)
        if key == _CONNECT_ITEM:
            path = self.ask_connection_file()
            if not path:
                self._fill()  # back to what was selected
                return
            choice = _connect_choice(path)
        elif key == _REMOTE_ITEM:
            choice = self.ask_remote()
            if choice is None:
                self._fill()
                return
        else:
            choice = next(c for c in self._choices + self.remote_choices() + [self._current]
                          if c.key == key)
        if choice != self._current and self.confirm_switch is not None \
                and not self.confirm_switch(choice):
            self._fill()  # the learner kept the current kernel
            return
        self.choose(choice)

    def choose(self, choice: KernelChoice) -> None:
        """Select, remember and announce ``choice``."""
        if choice == self._current:
            return
        self._current = choice
        self._settings.setValue(SETTINGS_KEY, choice.key)
        self._settings.setValue(LABEL_KEY, choice.label)
        self._fill()
        self.sig_kernel_chosen.emit(choice)

    def ask_remote(self) -> KernelChoice | None:
        """Kernel ▸ Remote GPU over SSH…: the dialog (it tests the connection and remembers
        the host); None if cancelled."""
        initial = None
        if self._current.key.startswith(remote_kernels.SSH_PREFIX):
            initial = remote_kernels.SshTarget.from_key(self._current.key)
        dialog = RemoteKernelDialog(self._settings, self, initial)
        try:
            if dialog.exec() != RemoteKernelDialog.DialogCode.Accepted:
                return None
            key = dialog.target().to_key()
        finally:
            dialog.wait_for_probe(5)
            dialog.deleteLater()
        return next((c for c in self.remote_choices() if c.key == key),
                    KernelChoice(key, dialog.target().label))

    def ask_connection_file(self) -> str:
        """File dialog for a kernel connection file (``kernel-*.json``); '' if cancelled."""
        try:
            from jupyter_core.paths import jupyter_runtime_dir
            start = jupyter_runtime_dir()
        except Exception:
            start = str(Path.home())
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Connect to an existing kernel"), start,
            self.tr("Kernel connection files (kernel-*.json *.json)"))
        return path


def _connect_choice(path: str) -> KernelChoice:
    label = QCoreApplication.translate("KernelChooser", "{0} (connected)").format(Path(path).name)
    return KernelChoice(CONNECT_PREFIX + path, label)
