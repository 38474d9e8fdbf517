"""What a question switch paints (bench question_switch): each widget of the page that comes
on screen once, and a page built ahead of time shown from the layers it took while the
learner read. The real practice screen on the bundled papers, offscreen."""
from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject

from desktop.views import paint_layer
from desktop.views.code_editor import CodeEditor
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
    app.qtbot.wait(20)  # the layers taken again after the first page's real paint
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
    watched = [w for w in page.findChildren(paint_layer.LayeredLabel) if w.isVisibleTo(page)]
    assert len(watched) >= 3  # title, stem, options
    for widget in watched:
        widget.installEventFilter(counter)
    view.go_to(target)
    frame(view)
    # An opaque page was painted on its own, with its children, and then its children
    # again with the rest of the window: every label twice.
    assert sorted(counter.painted[w] for w in watched) == [1] * len(watched)


def test_a_code_page_built_ahead_comes_on_screen_from_its_layer(launch, monkeypatch):
    monkeypatch.setattr(paint_layer, "MIN_PAINT_SECONDS", 0.0)  # a quick box may skip it
    app = launch()
    view = practice_read_ahead(app, "drills")
    target = 2  # built ahead, never shown yet
    editor = view.pages[target].findChild(CodeEditor)
    layer = editor.layer
    # Its layer holds the editor at the size it has on screen (the horizontal bar the
    # starter's long lines need is there already) and its text stays laid out.
    assert layer.filled and layer._pixmap_key == layer._full_key()  # noqa: SLF001
    block = editor.document().lastBlock()
    assert block.layout().lineCount() > 0
    hits = layer.hits
    view.go_to(target)
    frame(view)
    assert layer.hits == hits + 1  # copied, not drawn again
