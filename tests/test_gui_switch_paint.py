"""What a question switch paints and lays out (bench question_switch): each widget of the
page that comes on screen once, and no layout pass over the rest of the screen. The real
practice screen on the bundled papers, offscreen."""
from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject

from PySide6.QtWidgets import QLabel

from desktop.views.practice import PracticeView
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.painted: Counter = Counter()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Paint:
            self.painted[watched] += 1
        return False


def practice_read_ahead(app, paper_id: str) -> PracticeView:
    """The practice screen after the idle time in which it builds the other pages."""
    app.window.open_practice(paper_id)
    view = app.wait_screen(PracticeView)
    app.wait_idle()
    app.qtbot.waitUntil(lambda: not view._prebuild_timer.isActive(), timeout=20_000)
    return view


def frame(view: PracticeView) -> None:
    """What the event loop does after a switch before the learner sees it."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    QCoreApplication.sendPostedEvents(view.window(), QEvent.Type.UpdateRequest)


def test_a_switch_paints_each_widget_of_the_new_page_once(launch):
    app = launch()
    view = practice_read_ahead(app, "000")
    target = 3
    page = view.pages[target]
    counter = PaintCounter()
    watched = [w for w in page.findChildren(QLabel) if w.isVisibleTo(page) and w.text()]
    assert len(watched) >= 3  # title, stem, options
    for widget in watched:
        widget.installEventFilter(counter)
    view.go_to(target)
    frame(view)
    # An opaque page was painted on its own, with its children, and then its children
    # again with the rest of the window: every label twice.
    assert sorted(counter.painted[w] for w in watched) == [1] * len(watched)


def test_a_switch_lays_out_only_the_page_and_the_chrome_keeps_its_place(launch):
    """The bar over the question and the buttons under it do not change at a switch: no
    layout pass over the screen, and the position and Submit keep their size and place
    (views/steady_size), whatever the question's number or answer type."""
    app = launch()
    view = practice_read_ahead(app, "000")
    layouts = Counter()

    class Watch(QObject):
        on = False  # during the switches, not while the learner reads (the page builds)

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
            if self.on and event.type() == QEvent.Type.LayoutRequest:
                layouts[watched] += 1
            return False

    watch = Watch()
    view.installEventFilter(watch)
    chrome = [view.back_button, view.recite_button, view.star, view.submit_button,
              view.position, view.next_button]
    view.go_to(5)  # what the screen loaded in the background (marks, stars) has arrived
    view.repaint()
    app.wait_idle()
    places = [w.geometry() for w in chrome]
    for target in (1, 2, 9, 10, len(view.questions) - 1):  # one digit and two, every type
        watch.on = True
        view.go_to(target)
        frame(view)
        view.repaint()  # what bench question_switch times
        watch.on = False
        assert [w.geometry() for w in chrome] == places
    assert layouts[view] == 0
