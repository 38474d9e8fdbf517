"""Learner code that attacks its own kernel: memory blow-ups and output floods. Real
ipykernel processes, real console widgets (offscreen); nothing is mocked.

Already pinned in tests/test_console.py, not repeated here: ``os.abort()``
(test_abort_is_detected_explained_and_one_click_restart_works), a segfault through ctypes
(test_a_segfault_is_explained_with_the_line_that_crashed), an endless loop and Ctrl+C
(test_ctrl_c_interrupts_an_endless_loop_and_the_kernel_still_answers), a check that hangs
(test_a_hanging_check_is_interrupted_and_the_next_check_runs) and a kernel dying under a
check (test_kernel_death_during_a_check_is_the_verdict).
"""
from __future__ import annotations

import os
import signal
import time

import pytest
from PySide6.QtCore import Qt, QTimer

from desktop.console import kernel_session as ks
from desktop.console.console_dock import CONSOLE_MAX_LINES
from test_console import (START_MS, make_dock, ready, run, settings,  # noqa: F401
                          user_expression)

pytestmark = [pytest.mark.kernel, pytest.mark.gui]

FLOOD_LINES = 10**6
FLOOD_MS = 600_000  # a wait, not an assertion: the flood takes tens of seconds here
UI_GAP_BOUND_S = 5.0  # generous: the test proves the UI is not frozen, not that it is fast

# The kernel's address space, capped 512 MiB above what it uses now, then an 8 GiB ask.
BLOW_UP = (
    "import resource\n"
    "with open('/proc/self/statm') as f:\n"
    "    in_use = int(f.read().split()[0]) * resource.getpagesize()\n"
    "resource.setrlimit(resource.RLIMIT_AS, (in_use + 512 * 2**20, resource.RLIM_INFINITY))\n"
    "blob = bytearray(8 * 2**30)\n"
)


def restart_and_wait(qtbot, dock) -> None:
    with qtbot.waitSignal(dock.session.sig_ready, timeout=START_MS):
        dock.session.restart()
    assert dock.session.state == ks.IDLE


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads /proc (Linux)")
def test_memory_blow_up_under_a_limit_is_survived_explained_and_restart_clears_it(qtbot, ready):
    dock, _, _ = ready
    replies: list[dict] = []
    died: list[str] = []
    dock.session.sig_died.connect(died.append)
    dock.run_code(BLOW_UP, replies.append)
    qtbot.waitUntil(lambda: bool(replies), timeout=START_MS)
    if died:  # the limit killed the process instead: it must be said, and restart works
        assert dock.session.state == ks.DEAD and dock.session.explanation
        assert not dock.message.isHidden()
    else:  # MemoryError: the kernel lives on, under its limit
        assert replies[0]["status"] == "error" and replies[0]["ename"] == "MemoryError"
        qtbot.waitUntil(lambda: "MemoryError" in dock.console._control.toPlainText(),
                        timeout=START_MS)
        assert run(qtbot, dock, "still_here = 6 * 7")["status"] == "ok"
        assert user_expression(dock.session, "still_here") == "42"
    restart_and_wait(qtbot, dock)
    assert user_expression(
        dock.session, "__import__('resource').getrlimit(__import__('resource').RLIMIT_AS)[0]"
    ) == str(-1)  # RLIM_INFINITY: the fresh kernel has no limit left over


def test_kernel_killed_like_the_oom_killer_is_explained_and_restarts(qtbot, ready):
    """The kernel allocates without end; SIGKILL from outside is what the Linux OOM killer
    sends (the real one would take the CI machine's memory first, so the test sends it)."""
    dock, _, _ = ready
    pid = dock.session.manager.provisioner.pid
    replies: list[dict] = []
    dock.run_code("hoard = []\nprint('allocat' + 'ing')\nwhile True:\n"
                  "    hoard.append(bytearray(2**20))\n    if len(hoard) > 200:\n"
                  "        hoard.clear()\n", replies.append)
    qtbot.waitUntil(lambda: "allocating" in dock.console._control.toPlainText(),
                    timeout=START_MS)
    with qtbot.waitSignal(dock.session.sig_died, timeout=START_MS) as died:
        os.kill(pid, signal.SIGKILL)
    assert "SIGKILL" in died.args[0] and "out-of-memory" in died.args[0]
    assert replies and replies[0]["ename"] == "KernelDied"  # the Run is answered, not lost
    assert "out-of-memory" in dock.message_label.text() and not dock.message.isHidden()
    qtbot.mouseClick(dock.message_restart, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.session.is_ready, timeout=START_MS)
    assert run(qtbot, dock, "after_kill = 1")["status"] == "ok"


def test_output_flood_keeps_the_ui_responsive_and_caps_the_console(qtbot, ready, capsys):
    dock, _, _ = ready
    ticks: list[float] = []
    heartbeat = QTimer()
    heartbeat.setInterval(50)
    heartbeat.timeout.connect(lambda: ticks.append(time.monotonic()))
    replies: list[dict] = []
    started = time.monotonic()
    heartbeat.start()
    try:
        dock.run_code(f"for i in range({FLOOD_LINES}):\n    print(i)\n", replies.append)
        qtbot.waitUntil(lambda: bool(replies), timeout=FLOOD_MS)
        last = str(FLOOD_LINES - 1)
        control = dock.console._control
        # qtconsole flushes buffered output on a timer: wait until the last line is shown
        qtbot.waitUntil(lambda: last in control.toPlainText().split()[-40:], timeout=FLOOD_MS)
    finally:
        heartbeat.stop()
    took = time.monotonic() - started
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    max_gap = max(gaps, default=took)
    lines = control.document().blockCount()
    with capsys.disabled():
        print(f"\n[output flood] {FLOOD_LINES} lines in {took:.1f}s, UI heartbeat max gap "
              f"{max_gap:.2f}s over {len(ticks)} ticks, console kept {lines} lines "
              f"(cap {CONSOLE_MAX_LINES})")
    assert replies[0]["status"] == "ok"
    assert len(ticks) > 10 and max_gap < UI_GAP_BOUND_S
    assert lines <= CONSOLE_MAX_LINES + 50  # capped (+ banner and prompt lines)
    assert "0\n1\n2\n" not in control.toPlainText()  # the oldest lines were dropped
    assert dock.session.state == ks.IDLE
    assert run(qtbot, dock, "after_flood = 'ok'")["status"] == "ok"
