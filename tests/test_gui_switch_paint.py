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
from desktop.views.subtree_cache import SubtreeCache
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


def test_a_switch_lays_out_only_the_page_and_draws_the_chrome_from_its_pixmaps(launch):
    """The bar over the question, the note's header and the answer sheet's foot do not
    change at a switch: no layout pass over the screen (the position and Submit keep
    their size: views/steady_size), and each is one blit (views/subtree_cache); what
    the window shows is what the widgets paint themselves."""
    app = launch()
    view = practice_read_ahead(app, "000")
    events = Counter()

    class Watch(QObject):
        on = False  # during the switches, not while the learner reads (the fills)

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
            if self.on:
                events[(watched, event.type())] += 1
            return False

    watch = Watch()
    chrome = [view.back_button, view.recite_button, view.star, view.notes.edit_button]
    for widget in (view, *chrome):
        widget.installEventFilter(watch)
    effects = view.findChildren(SubtreeCache)
    assert {e._widget for e in effects} >= {view.top_bar, view.notes}  # noqa: SLF001
    top = next(e for e in effects if e._widget is view.top_bar)  # noqa: SLF001
    view.go_to(5)  # what the screen loaded in the background (marks, stars) has arrived
    view.repaint()
    app.wait_idle()
    hits = top.hits
    for target in (1, 2, 3, 4):
        app.qtbot.wait(20)  # the learner reads: the pixmaps are taken again if needed
        watch.on = True
        view.go_to(target)
        frame(view)
        view.repaint()  # what bench question_switch times
        watch.on = False
    assert events[(view, QEvent.Type.LayoutRequest)] == 0
    assert all(events[(w, QEvent.Type.Paint)] == 0 for w in chrome)
    assert top.hits >= hits + 4
    app.qtbot.wait(20)
    cached = view.window().grab().toImage()
    for effect in effects:
        effect.setEnabled(False)
    live = view.window().grab().toImage()
    for effect in effects:
        effect.setEnabled(True)
    # The same picture; an antialiased edge pixel (a button's corner, six of each radio
    # button's circle) may round one level apart: a semi-transparent edge blended over the
    # pixmap's ground, then over the window's. Anything stale or misplaced differs by far
    # more than two levels.
    differences = [abs(a - b) for a, b in zip(bytes(cached.constBits()),
                                               bytes(live.constBits())) if a != b]
    assert cached.size() == live.size() and len(differences) <= 24 + 4 * 6 * 3
    assert max(differences, default=0) <= 2
