"""Garbage collection at idle moments (desktop/idle_gc): a generation that is due is
collected between events, not left to fire inside the next question switch; the frozen
start-up objects are given back when the app is shut down."""
from __future__ import annotations

import gc

import pytest

from desktop.idle_gc import IdleCollector
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_a_due_generation_is_collected_at_idle_and_cycles_go(qtbot):
    from PySide6.QtCore import QObject

    owner = QObject()
    collector = IdleCollector(owner)
    try:
        gc.collect()
        assert collector.collect() is None  # nothing due right after a full pass
        threshold0 = gc.get_threshold()[0]
        cycles = [Cycle() for _ in range(threshold0 // 2)]
        del cycles  # unreachable now, but only the cycle collector can free them
        before = len(gc.get_objects())
        assert collector.collect() == 0  # the young generation was due: collected
        assert len(gc.get_objects()) < before - threshold0 // 4
        assert collector.passes[0] >= 1
        gc.set_threshold(0)  # the collector switched off (a debugger): left alone
        try:
            assert collector.collect() is None
        finally:
            gc.set_threshold(threshold0)
    finally:
        collector.stop()
        owner.deleteLater()


def test_shutdown_gives_the_frozen_objects_back(launch):
    app = launch()
    app.running.collector.freeze_startup()
    assert gc.get_freeze_count() > 0
    app.quit()  # window closed, then shutdown()
    assert gc.get_freeze_count() == 0


def test_a_question_switch_asks_for_a_collection_after_it(launch):
    from desktop.views.practice import PracticeView

    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    app.wait_idle()
    collector = app.running.collector
    soon = collector._soon  # noqa: SLF001 - the single-shot the switch starts
    assert not soon.isActive()
    view.go_to(1)
    assert soon.isActive()  # runs in the next idle turn, after the switch's paint


def test_a_collector_paused_for_start_up_comes_back_over_a_frozen_start_up():
    """The launcher pauses the automatic passes until the library is painted; resuming
    freezes what start-up built (a first young pass over all of it would land in the
    learner's first click) and turns the collector back on. Resuming a collector nobody
    paused changes nothing, and one paused by someone else (a debugger) stays off."""
    from desktop.idle_gc import pause_for_startup, resume_after_startup

    assert gc.isenabled()
    resume_after_startup()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    pause_for_startup()
    try:
        assert not gc.isenabled()
        built = [Cycle() for _ in range(100)]
    finally:
        resume_after_startup()
    try:
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(built)  # out of the collector's sight
        assert all(not gc.is_finalized(c) for c in built)
        gc.disable()  # turned off by someone else: the launcher's pause does not own it
        pause_for_startup()
        resume_after_startup()
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
