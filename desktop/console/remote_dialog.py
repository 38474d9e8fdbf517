"""Kernel ▸ Remote GPU over SSH…: where the remote kernel runs (question_db/remote_kernels.py).

Host (an ``~/.ssh/config`` alias works), optional user, port and identity file, the remote
Python. "Test connection" logs in (on a worker thread) and shows the remote's torch, CUDA
devices and free memory; an unknown host's fingerprint is shown and asked before it is
trusted. Connect tests first, so a kernel never starts against an unverified host. Nothing
secret is stored: keys stay in the SSH agent / config, the record holds only the target.
"""
from __future__ import annotations

import threading
import time

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QMessageBox, QPushButton, QSpinBox,
                               QVBoxLayout, QWidget)

from question_db import remote_kernels as rk

HOSTS_KEY = "console/remote_hosts"  # JSON list of HostRecord (no secrets)


def remembered_hosts(settings: QSettings) -> list[rk.HostRecord]:
    return rk.hosts_from_json(str(settings.value(HOSTS_KEY, "") or ""))


def remember(settings: QSettings, record: rk.HostRecord) -> None:
    settings.setValue(HOSTS_KEY, rk.hosts_to_json(rk.remember_host(remembered_hosts(settings),
                                                                   record)))


class RemoteKernelDialog(QDialog):
    """Asks for an ``SshTarget``; ``target()`` after ``exec()`` returned Accepted."""

    _sig_probed = Signal(object)
    """From the probe's worker thread: a RemoteProbe or an exception (queued to the UI)."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None,
                 initial: rk.SshTarget | None = None):
        super().__init__(parent)
        self._settings = settings
        self._connect_after = False
        self._thread: threading.Thread | None = None
        self.probe: rk.RemoteProbe | None = None
        self.setWindowTitle(self.tr("Remote GPU over SSH"))
        self.host = QLineEdit(self)
        self.host.setPlaceholderText(self.tr("gpu-box (an ~/.ssh/config alias) or lab.example.org"))
        self.user = QLineEdit(self)
        self.user.setPlaceholderText(self.tr("from your SSH config"))
        self.port = QSpinBox(self)
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText(self.tr("default"))
        self.identity = QLineEdit(self)
        self.identity.setPlaceholderText(self.tr("SSH agent / config"))
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse)
        identity_row = QHBoxLayout()
        identity_row.addWidget(self.identity, 1)
        identity_row.addWidget(browse)
        self.python = QLineEdit(self)
        self.python.setPlaceholderText("python3")
        self.python.setToolTip(self.tr("The remote Python with ipykernel (a venv or conda env: "
                                       "e.g. ~/miniconda3/envs/torch/bin/python)"))
        form = QFormLayout()
        form.addRow(self.tr("Host:"), self.host)
        form.addRow(self.tr("User:"), self.user)
        form.addRow(self.tr("Port:"), self.port)
        form.addRow(self.tr("Identity file:"), identity_row)
        form.addRow(self.tr("Remote Python:"), self.python)
        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.clicked.connect(self.test_connection)
        self.result = QLabel(self.tr("Keys come from your SSH agent or config; examdesk stores "
                                     "no password or key. Only the code you run is sent."), self)
        self.result.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.connect_button = buttons.addButton(self.tr("Connect"),
                                                QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self._connect)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        row = QHBoxLayout()
        row.addWidget(self.test_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.result)
        layout.addWidget(buttons)
        self._sig_probed.connect(self._on_probed)
        self.host.textChanged.connect(self._update_buttons)
        if initial is not None:
            self.set_target(initial)
        self._update_buttons()
        self.resize(560, self.sizeHint().height())

    def set_target(self, target: rk.SshTarget) -> None:
        self.host.setText(target.host)
        self.user.setText(target.user)
        self.port.setValue(target.port)
        self.identity.setText(target.identity_file)
        self.python.setText(target.python if target.python != "python3" else "")

    def target(self) -> rk.SshTarget:
        return rk.SshTarget(host=self.host.text().strip(),
                            python=self.python.text().strip() or "python3",
                            user=self.user.text().strip(), port=self.port.value(),
                            identity_file=self.identity.text().strip())

    def _update_buttons(self) -> None:
        busy = self._thread is not None and self._thread.is_alive()
        ok = bool(self.host.text().strip()) and not busy
        self.test_button.setEnabled(ok)
        self.connect_button.setEnabled(ok)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("SSH identity file"), "~/.ssh")
        if path:
            self.identity.setText(path)

    def _connect(self) -> None:
        if self.probe is not None and self._probed_target == self.target():
            self._accept_probed()
            return
        self._connect_after = True
        self.test_connection()

    def test_connection(self) -> None:
        """Probe on a worker thread; the result (or the host-key question) comes back here."""
        if self._thread is not None and self._thread.is_alive():
            return
        target = self.target()
        self._probed_target = target
        self.probe = None
        self.result.setText(self.tr("Connecting to {0}…").format(target.label))
        self._thread = threading.Thread(target=self._probe, args=(target,), daemon=True,
                                        name="examdesk-ssh-probe")
        self._thread.start()
        self._update_buttons()

    def wait_for_probe(self, timeout: float) -> bool:
        if self._thread is not None:
            self._thread.join(timeout)
        return self._thread is None or not self._thread.is_alive()

    def _probe(self, target: rk.SshTarget) -> None:
        try:
            outcome: object = rk.probe_remote(target)
        except Exception as exc:  # shown in the dialog
            outcome = exc
        try:
            self._sig_probed.emit(outcome)
        except RuntimeError:  # the dialog is gone
            pass

    def _on_probed(self, outcome) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._update_buttons()
        if isinstance(outcome, rk.HostKeyUnknown):
            self._connect_after_key = self._connect_after
            self._connect_after = False
            if self.ask_trust(outcome):
                rk.trust_host_keys(outcome.key_lines)
                self._connect_after = self._connect_after_key
                self.test_connection()
            else:
                self.result.setText(self.tr("Not connected: the host key was not trusted."))
            return
        if isinstance(outcome, rk.HostKeyChanged):
            self._connect_after = False
            self.result.setText(self.tr("Refused: the host's key has CHANGED since you last "
                                        "connected. This may be an attack; if the server was "
                                        "reinstalled, fix ~/.ssh/known_hosts yourself.\n{0}")
                                .format(str(outcome)[-300:]))
            return
        if isinstance(outcome, Exception):
            self._connect_after = False
            self.result.setText(self.tr("Could not connect: {0}").format(str(outcome)[-500:]))
            return
        self.probe = outcome
        self.result.setText(self.describe(outcome))
        if outcome.ipykernel is None:
            self._connect_after = False
            self.result.setText(self.result.text() + "\n" + self.tr(
                "ipykernel is missing there: pip install ipykernel in that environment."))
            return
        remember(self._settings, rk.HostRecord(self.target(), outcome.gpu_summary, time.time()))
        if self._connect_after:
            self._accept_probed()

    def _accept_probed(self) -> None:
        self._connect_after = False
        self.accept()

    def describe(self, probe: rk.RemoteProbe) -> str:
        lines = [self.tr("Python {0} ({1}), answered in {2:.1f} s").format(
            probe.python, probe.executable, probe.seconds)]
        if probe.torch is None:
            lines.append(self.tr("torch: not installed"))
        else:
            lines.append(self.tr("torch {0}").format(probe.torch))
        if probe.cuda:
            for i, device in enumerate(probe.cuda):
                lines.append(self.tr("cuda:{0} {1}: {2:.1f} of {3:.1f} GiB free").format(
                    i, device["name"], device["free"] / 2 ** 30, device["total"] / 2 ** 30))
        else:
            lines.append(self.tr("No CUDA device"))
        return "\n".join(lines)

    def ask_trust(self, unknown: rk.HostKeyUnknown) -> bool:
        """The fingerprints, and a question; True: trust them (examdesk's known-hosts)."""
        prints = "\n".join(unknown.fingerprints) or self.tr("(the host sent no key)")
        if not unknown.key_lines:
            return False
        answer = QMessageBox.question(
            self, self.tr("Unknown host"),
            self.tr("examdesk has never connected to {0}. Its key fingerprints are:\n\n{1}\n\n"
                    "Compare them with what the server's owner gives you (ssh-keygen -l -f "
                    "/etc/ssh/ssh_host_ed25519_key.pub on the server). Trust this host?")
            .format(self.target().label, prints),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes
