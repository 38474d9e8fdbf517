"""The kernel spawned at launch (desktop/console/prelaunch.py): adopted by the console's
manager, discarded when not used, and never outliving examdesk. Real kernels, real Qt."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from PySide6.QtCore import QSettings

from test_console import user_expression

from desktop.console import kernel_session as ks
from desktop.console.console_dock import ConsoleDock
from desktop.console.prelaunch import prelaunch_app_kernel
from question_db import kernels
from question_db.kernels import KernelChoice

pytestmark = [pytest.mark.kernel, pytest.mark.gui,
              pytest.mark.skipif(os.name != "posix", reason="prelaunch is POSIX-only")]

REPO = Path(__file__).resolve().parents[1]
START_MS = 90_000  # waits, not assertions: a loaded 2-core box can be slow


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _settle(condition, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.05)
    return condition()


def _dock(qtbot, tmp_path, prelaunched) -> ConsoleDock:
    settings = QSettings(str(tmp_path / "examdesk.ini"), QSettings.IniFormat)
    dock = ConsoleDock(settings=settings, prelaunched=prelaunched)
    qtbot.addWidget(dock)
    dock.show()
    return dock


def test_the_console_adopts_the_kernel_spawned_at_launch(qtbot, tmp_path):
    early = prelaunch_app_kernel()
    assert early is not None and early.alive()
    dock = _dock(qtbot, tmp_path, early)
    try:
        with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
            dock.start()
        assert dock.session.manager.provisioner.pid == early.process.pid  # no second kernel
        assert early.adopted
        # through jupyter_client's public extension point: qtconsole's own manager class,
        # a provisioner set on the instance
        from qtconsole.manager import QtKernelManager

        from desktop.console.prelaunch import early_provisioner_class
        assert type(dock.session.manager) is QtKernelManager
        assert isinstance(dock.session.manager.provisioner, early_provisioner_class())
        assert dock.session.manager.connection_file == str(early.connection_file)
        env = dock.session.environment
        assert env.get("torch"), env  # the probe saw torch (preloaded on a kernel thread)
        # the preload left no name in the learner's namespace
        assert user_expression(dock.session,
                               "sorted(n for n in globals() if 'preload' in n)") == "[]"
        # it is an ordinary managed kernel: interrupt and restart work as for any other
        replies: list[dict] = []
        dock.run_code("import time\nwhile True: time.sleep(0.01)", replies.append)
        qtbot.waitUntil(lambda: dock.session.state == ks.BUSY, timeout=START_MS)
        assert dock.session.interrupt()
        qtbot.waitUntil(lambda: bool(replies), timeout=START_MS)
        assert replies[0].get("ename") == "KeyboardInterrupt"
        with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
            dock.session.restart()
        assert dock.session.manager.provisioner.pid != early.process.pid
        assert _settle(lambda: not _running(early.process.pid))
    finally:
        dock.shutdown()
    assert not early.connection_file.exists()


def test_an_unused_early_kernel_is_killed_and_its_files_removed(qtbot, tmp_path):
    early = prelaunch_app_kernel()
    dock = _dock(qtbot, tmp_path, early)
    dock.shutdown()  # examdesk closed before the console started
    assert not _running(early.process.pid)
    assert not early.connection_file.exists() and not early.log_path.exists()


def test_an_early_kernel_is_not_adopted_for_another_choice(qtbot, tmp_path):
    early = prelaunch_app_kernel()
    session = ks.KernelSession(KernelChoice("connect:/nonexistent/kernel.json", "elsewhere"),
                               prelaunched=early)
    try:
        session.start()  # the connection file does not exist: the start fails and says so
        assert session.state == ks.DEAD
        assert not _running(early.process.pid)
    finally:
        session.shutdown()
        session.deleteLater()


def test_a_kernelspec_that_changed_meanwhile_gets_a_fresh_kernel(qtbot, tmp_path):
    early = prelaunch_app_kernel()
    early.cmd = [*early.cmd, "--different"]  # as if kernel.json had changed after the spawn
    dock = _dock(qtbot, tmp_path, early)
    try:
        with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
            dock.start()
        assert dock.session.manager.provisioner.pid != early.process.pid
        assert not _running(early.process.pid) and not early.adopted
        # the new kernel runs on the same connection file, and its log is kept for the
        # death explanation
        assert early.connection_file.exists() and dock.session.log_path.exists()
    finally:
        dock.shutdown()


def test_the_entry_point_adopts_and_the_kernel_dies_with_a_killed_examdesk(tmp_path,
                                                                          runtime_root):
    """``python -m desktop`` end to end: the console is ready on the early kernel; after
    examdesk is killed (no clean-up runs), the kernel notices its parent is gone and exits
    (ipykernel's parent poller, JPY_PARENT_PID): no orphan keeps memory or a GPU."""
    app = subprocess.Popen([sys.executable, "-m", "desktop", "--bench-ready", "--data-dir",
                            str(tmp_path / "data")], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, cwd=REPO,
                           env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    kernel_pid = None
    try:
        lines = []
        for line in app.stdout:
            lines.append(line.strip())
            if line.startswith("CONSOLE_READY"):
                break
        assert any(x.startswith("LIBRARY_READY") for x in lines), lines
        assert any(x.startswith("CONSOLE_PROMPT") for x in lines), lines
        assert "adopted=True" in lines[-1], lines
        children = [p for p in psutil.Process(app.pid).children()
                    if kernels.KERNEL_BOOT.name in " ".join(p.cmdline())]  # (its reaper)
        assert len(children) == 1, children
        kernel_pid = children[0].pid
        app.send_signal(signal.SIGKILL)
        app.wait(30)
        assert _settle(lambda: not _running(kernel_pid), timeout=30)
        # its connection file, sockets and log stayed (no clean-up ran): the next
        # examdesk's first look at the runtime dir removes them
        runtime = runtime_root / kernels.RUNTIME_FOLDER
        left = [p for p in runtime.iterdir() if f"-{app.pid}-" in p.name]
        assert {p.suffix for p in left} >= {".json", ".log"}, left
        assert kernels.runtime_dir() == runtime  # this process's first use: it sweeps
        assert not any(p.exists() for p in left)
    finally:
        app.kill()
        app.wait()
        app.stdout.close()
        if kernel_pid is not None and _running(kernel_pid):
            os.killpg(kernel_pid, signal.SIGKILL)
