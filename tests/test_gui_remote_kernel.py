"""The console and the checks on a "remote" GPU box over SSH (issue 32): the dialog, the
chooser's remembered hosts, and the dock's lost-connection / death paths through a real
loopback sshd (tests/test_kernel_remote.py's ``LoopbackSshd``; skipped without sshd)."""
from __future__ import annotations

import signal

import psutil
import pytest
from PySide6.QtCore import QSettings

from desktop.config import Keys
from desktop.console import kernel_session as ks
from desktop.console.kernel_chooser import KernelChooser
from desktop.console.remote_dialog import RemoteKernelDialog, remember, remembered_hosts
from question_db import remote_kernels as rk
from test_console import START_MS, TOY_SOLUTION, check_and_wait, toy_question, user_expression
from test_kernel_remote import LoopbackSshd, pytestmark as needs_sshd, _remote_kernels, wait_for

pytestmark = [needs_sshd, pytest.mark.gui]

SUITE = ("from _examdesk_harness import check\n"
         "@check('answers')\n"
         "def answers(ctx):\n"
         "    ctx.expect(ctx.get('answer')() == 42, 'answer() must return 42')\n")


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    try:
        server = LoopbackSshd(tmp_path_factory.mktemp("sshd"))
    except Exception as exc:
        print(f"SKIPPED remote kernel GUI tests: {exc}")
        pytest.skip(f"sshd cannot run here: {exc}")
    yield server
    server.stop()


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "examdesk.ini"), QSettings.IniFormat)


def test_the_dialog_shows_the_fingerprint_then_the_remote_torch_and_remembers_the_host(
        qtbot, sshd, settings):
    dialog = RemoteKernelDialog(settings)
    qtbot.addWidget(dialog)
    dialog.set_target(sshd.target)
    asked: list[list[str]] = []

    def ask(unknown):
        asked.append(unknown.fingerprints)
        return True

    dialog.ask_trust = ask
    dialog.test_connection()
    qtbot.waitUntil(lambda: dialog.probe is not None, timeout=START_MS)
    assert dialog.wait_for_probe(5)
    assert len(asked) == 1 and "SHA256:" in asked[0][0]  # shown before anything is trusted
    import torch

    assert f"torch {torch.__version__}" in dialog.result.text()
    assert "No CUDA device" in dialog.result.text()
    [record] = remembered_hosts(settings)
    assert record.target == sshd.target and record.last_seen > 0
    chooser = KernelChooser(settings)
    qtbot.addWidget(chooser)
    chooser.load()
    labels = [chooser.itemText(i) for i in range(chooser.count())]
    assert f"{sshd.target.label} over SSH — no GPU seen" in labels
    assert "Remote GPU over SSH…" in labels


def test_a_declined_host_key_is_not_trusted(qtbot, sshd, settings):
    dialog = RemoteKernelDialog(settings)
    qtbot.addWidget(dialog)
    dialog.set_target(sshd.target)
    dialog.ask_trust = lambda unknown: False
    dialog.test_connection()
    qtbot.waitUntil(lambda: "not trusted" in dialog.result.text(), timeout=START_MS)
    assert dialog.wait_for_probe(5)
    assert dialog.probe is None and not rk.known_hosts_file().exists()
    assert remembered_hosts(settings) == []


@pytest.mark.kernel
@pytest.mark.slow
def test_the_console_runs_checks_remotely_reconnects_and_reports_a_death(
        qtbot, sshd, settings, tmp_path):
    from desktop.console.check_controller import CheckController
    from desktop.console.console_dock import ConsoleDock

    _, lines = rk.scan_host_keys(sshd.target)
    rk.trust_host_keys(lines)  # what the dialog does once the learner said yes
    remember(settings, rk.HostRecord(sshd.target))
    settings.setValue(Keys.KERNEL, sshd.target.to_key())
    dock = ConsoleDock(settings=settings)
    qtbot.addWidget(dock)
    controller = CheckController(dock.session, dock.run_code, dock)
    dock.show()
    try:
        with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
            dock.start()
        assert dock.session.owns_kernel and _remote_kernels(sshd)
        replies: list[dict] = []
        dock.run_code("kept = 41", replies.append)
        qtbot.waitUntil(lambda: bool(replies), timeout=START_MS)
        assert replies[0]["status"] == "ok"
        report = check_and_wait(qtbot, controller, toy_question(tmp_path, SUITE), TOY_SOLUTION)
        assert report["passed"] is True and report["error"] is None
        # the tunnel goes: a lost connection, not a crash; Reconnect keeps the variables
        provisioner = dock.session.manager.provisioner
        with qtbot.waitSignal(dock.session.sig_connection_lost, timeout=START_MS) as lost:
            provisioner.tunnel.kill()
        text, survived = lost.args
        assert survived and "connection" in text and sshd.target.label in text
        assert dock.session.state == ks.DEAD
        assert dock.message_reconnect.isVisible()
        with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
            dock.message_reconnect.click()
        assert user_expression(dock.session, "kept") == "41"
        # the remote kernel is killed there: a death, with the signal named
        lost_again: list = []
        dock.session.sig_connection_lost.connect(lambda *a: lost_again.append(a))
        [kernel] = _remote_kernels(sshd)
        with qtbot.waitSignal(dock.session.sig_died, timeout=START_MS) as died:
            kernel.send_signal(signal.SIGKILL)
        assert "SIGKILL" in died.args[0] and not lost_again
        with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
            dock.message_restart.click()
        assert len(_remote_kernels(sshd)) == 1
    finally:
        dock.shutdown()
        controller.shutdown()
    assert wait_for(lambda: not sshd.sessions()), [p.cmdline() for p in sshd.sessions()]
    assert not [p for p in psutil.Process().children(recursive=True) if p.name() == "ssh"]
