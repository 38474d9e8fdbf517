"""The leak detector of conftest's ``no_leaks`` (tests/leaks.py) sees each kind of leak:
a detector that cannot fail would let every Qt and kernel test pass for nothing."""
from __future__ import annotations

import subprocess
import sys
import threading

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from leaks import LeakWatch


def test_a_child_process_a_thread_and_an_open_file_are_reported(tmp_path):
    watch = LeakWatch(qt=False)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, name="leaky-thread")
    thread.start()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    handle = (tmp_path / "left-open.txt").open("w")
    try:
        problems = " ".join(watch.problems(settle_s=0.2))
    finally:
        handle.close()
        child.kill()
        child.wait()
        stop.set()
        thread.join()
    assert "child processes left behind" in problems and str(child.pid) in problems
    assert "leaky-thread" in problems
    assert "left-open.txt" in problems
    assert watch.problems(settle_s=5) == []  # and nothing once they are gone


def test_a_window_and_a_running_timer_are_reported(qapp):
    watch = LeakWatch(qt=True)
    window = QWidget()
    window.show()
    timer = QTimer()
    timer.start(1000)
    try:
        problems = " ".join(watch.problems(settle_s=0.2))
    finally:
        timer.stop()
        window.close()
        window.deleteLater()
    assert "widgets left behind: ['QWidget']" in problems
    assert "timers still running" in problems


def test_a_kernel_file_left_in_the_runtime_dir_is_reported(tmp_path):
    runtime = tmp_path / "examdesk"
    runtime.mkdir()
    (runtime / "kernel-1-0123456789ab.json").write_text("{}")  # there before: not ours
    watch = LeakWatch(qt=False, runtime_dir=runtime)
    log = runtime / "kernel-2-0123456789ab.log"
    log.write_text("")
    problems = " ".join(watch.problems(settle_s=0.2))
    assert "kernel files left" in problems and log.name in problems
    assert "kernel-1-" not in problems
    log.unlink()
    assert watch.problems(settle_s=0.2) == []
