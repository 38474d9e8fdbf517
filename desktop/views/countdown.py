"""The exam clock: counts down to a wall-clock deadline, warns, and says when time is up.

The deadline is wall-clock (from the store), so a crash or a restart cannot give the
learner extra time: the remaining time is always ``deadline - time.time()``.
"""
from __future__ import annotations

import time
from typing import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QWidget

from ..theme import Role, css

WARN_AT_MINUTES = (30, 15, 5)


def format_remaining(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))  # 0.4 s left still shows 00:00:01
    hours, rest = divmod(seconds, 3600)
    return f"{hours:02d}:{rest // 60:02d}:{rest % 60:02d}"


class Countdown(QLabel):
    """Shows hh:mm:ss left; ``sig_warning(minutes)`` at 30/15/5 min, ``sig_expired`` at 0."""

    sig_warning = Signal(int)
    """Crossed a warning threshold: (minutes left)."""

    sig_expired = Signal()
    """Time is up (emitted once)."""

    def __init__(self, parent: QWidget | None = None, *,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(parent)
        self.setObjectName("countdown")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setStyleSheet("font-size: 20pt; font-weight: bold; font-family: monospace;")
        self._clock = clock
        self.deadline: float | None = None
        self._pending_warnings: list[int] = []
        self._expired = False
        self._timer = QTimer(self)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.tick)

    def start(self, deadline: float) -> None:
        """Count down to ``deadline`` (epoch seconds)."""
        self.deadline = deadline
        left = self.remaining()
        # Thresholds already behind us (a resumed exam) are not announced late.
        self._pending_warnings = [m for m in WARN_AT_MINUTES if m * 60 < left]
        self._expired = False
        self._timer.start()
        self.tick()

    def stop(self) -> None:
        self._timer.stop()

    def remaining(self) -> float:
        return 0.0 if self.deadline is None else max(0.0, self.deadline - self._clock())

    def tick(self) -> None:
        left = self.remaining()
        self.setText(format_remaining(left))
        color = (css(Role.ERROR) if left <= 5 * 60 else
                 css(Role.WARNING) if left <= 15 * 60 else "")
        self.setStyleSheet("font-size: 20pt; font-weight: bold; font-family: monospace;"
                           + (f" color: {color};" if color else ""))
        while self._pending_warnings and left <= self._pending_warnings[0] * 60:
            self.sig_warning.emit(self._pending_warnings.pop(0))
        if left <= 0 and not self._expired:
            self._expired = True
            self._timer.stop()
            self.sig_expired.emit()
