"""Python's cycle collector runs while the learner reads, not in the middle of a switch.

CPython collects when allocations cross a threshold, wherever that happens: in the bench's
question switches a young-generation pass (3–4 ms with pages being built ahead, 27 ms at
worst with 5,000 questions installed) fell inside ~4 % of the switches, right at their
95th percentile, and a full pass (40–80 ms) inside one. ``IdleCollector`` runs those passes
itself on a timer, which fires between events (a switch is one key press and its paint),
so the counts rarely reach the thresholds on their own; the automatic collector stays on
as the safety net for long work. Once the library is on screen, what start-up built (the
modules, the bank) is moved out of the collector's sight with ``gc.freeze()``: it lives as
long as the app, and a full pass no longer walks it.
"""
from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

__all__ = ["IdleCollector", "collect_soon", "pause_for_startup", "resume_after_startup"]

IDLE_MS = 200
_running: IdleCollector | None = None  # the app's (one per QApplication in practice)
_paused_for_startup = False


def pause_for_startup() -> None:
    """The launcher, first thing: no automatic passes until the library is on screen
    (``resume_after_startup``). Start-up makes almost no cyclic garbage, but its
    allocations (modules, widgets, the bank) set off ~25 passes, 7–15 ms before the first
    paint (gc.callbacks); what it built is frozen once it has settled (``freeze_startup``)."""
    global _paused_for_startup
    if gc.isenabled():
        gc.disable()
        _paused_for_startup = True


def resume_after_startup() -> None:
    """The collector back on, if ``pause_for_startup`` turned it off (else nothing). What
    start-up built so far is frozen first: turned on over it, the first young pass would
    walk all of it at once, in the learner's first click."""
    global _paused_for_startup
    if _paused_for_startup:
        _paused_for_startup = False
        gc.freeze()
        gc.enable()


def collect_soon() -> None:
    """A question switch happened: the next idle turn is the moment to collect (when a
    generation is due), before the learner's next key press."""
    if _running is not None:
        _running.soon()


class IdleCollector(QObject):
    """Collects the young generations every ``IDLE_MS`` when they have filled up."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        global _running
        self.passes = [0, 0, 0]  # per generation (tests)
        self._timer = QTimer(self)
        self._timer.setInterval(IDLE_MS)
        self._timer.timeout.connect(self.collect)
        self._timer.start()
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self.collect)
        _running = self

    def soon(self) -> None:
        self._soon.start()

    def collect(self) -> int | None:
        """One pass of the generation that is due soonest, if any is (else None)."""
        count0, count1, count2 = gc.get_count()
        threshold0, threshold1, threshold2 = gc.get_threshold()
        if threshold0 == 0:  # the collector is off (a debugger, a profiler): leave it off
            return None
        if count2 >= threshold2 - 1 and count1 >= threshold1 - 1:
            generation = 2
        elif count1 >= threshold1 - 1:
            generation = 1
        elif count0 >= threshold0 // 4:
            generation = 0
        else:
            return None
        gc.collect(generation)
        self.passes[generation] += 1
        return generation

    @staticmethod
    def freeze_startup() -> None:
        """What exists now lives as long as the app: out of every later pass."""
        gc.collect()
        gc.freeze()

    def stop(self) -> None:
        global _running
        self._timer.stop()
        self._soon.stop()
        if _running is self:
            _running = None
