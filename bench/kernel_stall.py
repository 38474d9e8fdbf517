"""How long the UI thread stalls around the learner's kernel: restart, switch (idle and
busy kernel) and quit, measured with a 5 ms QTimer heartbeat (the longest gap between two
ticks while the operation runs, until the new kernel is ready).

    python bench/kernel_stall.py [--json]

The baseline is the longest gap of the same heartbeat over an idle second, so a loaded
machine shows up in both. Real kernels (torch imported by the environment probe), real Qt
widgets (offscreen); bench/run.py runs this as the ``kernel_stall`` group.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

READY_S = 120.0
BUSY_CODE = "while True:\n    pass\n"


class Heartbeat:
    """Ticks every 5 ms on the UI thread; ``max_gap()`` is the longest stall seen."""

    def __init__(self) -> None:
        self.ticks: list[float] = []
        self._timer = QTimer(interval=5)
        self._timer.timeout.connect(lambda: self.ticks.append(time.perf_counter()))

    def __enter__(self) -> "Heartbeat":
        self.ticks = [time.perf_counter()]
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self.ticks.append(time.perf_counter())
        self._timer.stop()

    def max_gap(self) -> float:
        return max((b - a for a, b in zip(self.ticks, self.ticks[1:])), default=0.0)

    def worst_at(self) -> float:
        """When the longest gap began, in seconds after the first tick."""
        gaps = [(b - a, a) for a, b in zip(self.ticks, self.ticks[1:])]
        return max(gaps)[1] - self.ticks[0] if gaps else 0.0


def spin(seconds: float, until=lambda: False) -> bool:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        QApplication.processEvents()
        if until():
            return True
        time.sleep(0.001)
    return until()


def main() -> int:
    app = QApplication.instance() or QApplication([])
    from desktop.console.console_dock import ConsoleDock
    from question_db import kernels

    settings = QSettings(str(Path(tempfile.mkdtemp(prefix="examdesk-stall-")) / "s.ini"),
                         QSettings.IniFormat)
    dock = ConsoleDock(settings=settings)
    dock.show()
    session = dock.session
    dock.start()
    if not spin(READY_S, lambda: session.is_ready):
        print("kernel not ready", file=sys.stderr)
        return 1
    app_choice = session.choice
    other = next((c for c in kernels.available_kernels() if c.key != app_choice.key), app_choice)
    results: dict[str, float] = {}

    with Heartbeat() as beat:
        spin(1.0)
    results["idle"] = beat.max_gap()

    def measure(name: str, action) -> None:
        old_ready = session.is_ready
        with Heartbeat() as beat:
            t = time.perf_counter()
            action()
            results[name + "_call"] = time.perf_counter() - t
            spin(READY_S, lambda: session.is_ready and session.state == "idle")
            spin(0.3)  # anything the operation left for later on the UI thread
        results[name] = beat.max_gap()
        results[name + "_at"] = beat.worst_at()
        assert old_ready is not None

    def busy() -> None:
        dock.run_code(BUSY_CODE)
        spin(30, lambda: session.state == "busy")
        spin(0.3)

    measure("restart", session.restart)
    measure("switch_idle", lambda: dock.chooser.choose(other))
    busy()
    measure("switch_busy", lambda: dock.chooser.choose(app_choice))
    busy()
    with Heartbeat() as beat:
        t = time.perf_counter()
        dock.shutdown()  # what aboutToQuit runs
        results["quit_busy_call"] = time.perf_counter() - t
        spin(0.3)
    results["quit_busy"] = beat.max_gap()
    # the same with an idle kernel (torch imported): the common quit
    dock2 = ConsoleDock(settings=settings)
    dock2.show()
    dock2.start()
    spin(READY_S, lambda: dock2.session.is_ready)
    with Heartbeat() as beat:
        t = time.perf_counter()
        dock2.shutdown()
        results["quit_idle_call"] = time.perf_counter() - t
        spin(0.3)
    results["quit_idle"] = beat.max_gap()
    if "--json" in sys.argv:
        print("STALLS " + json.dumps({k: round(v, 4) for k, v in results.items()}), flush=True)
    else:
        for key, value in results.items():
            print(f"{key:<18} {value * 1000:8.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
