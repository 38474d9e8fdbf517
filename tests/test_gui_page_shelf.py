"""views/page_shelf: built pages stay shown, parked beside the current one. A switch moves
two pages instead of hiding and showing every widget of both; the keyboard focus never
goes into a parked page. The real practice screen on bundled paper 000, offscreen."""
from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from desktop.views.page_shelf import PageShelf
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401
from test_gui_switch_paint import frame, practice_read_ahead

pytestmark = pytest.mark.gui

FILL_IN = 20  # paper 000's first fill-in question: line edits that take the focus


class EventCounter(QObject):
    def __init__(self, kinds: set[QEvent.Type]) -> None:
        super().__init__()
        self.kinds, self.seen = kinds, Counter()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() in self.kinds:
            self.seen[event.type()] += 1
        return False


def test_a_switch_shows_and_hides_no_widget_and_parks_the_page_it_leaves(launch):
    app = launch()
    view = practice_read_ahead(app, "000")
    shelf = view.stack
    assert isinstance(shelf, PageShelf)
    before, after = view.pages[0], view.pages[3]
    counter = EventCounter({QEvent.Type.Show, QEvent.Type.Hide})
    QApplication.instance().installEventFilter(counter)
    try:
        view.go_to(3)
        frame(view)
    finally:
        QApplication.instance().removeEventFilter(counter)
    assert counter.seen == Counter()  # a QStackedWidget: ~17 of each (bench question_switch)
    assert shelf.currentWidget() is after and after.geometry() == shelf.rect()
    assert before.isVisible() and not before.geometry().intersects(shelf.rect())
    assert shelf.is_parked(before.answer) and not shelf.is_parked(after.answer)
    # on screen: the current page only (a parked one is clipped away by the shelf)
    assert before.visibleRegion().isEmpty() and not after.visibleRegion().isEmpty()


def _tab(widget, backwards: bool = False) -> None:
    from PySide6.QtTest import QTest

    if backwards:
        QTest.keyClick(widget, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    else:
        QTest.keyClick(widget, Qt.Key.Key_Tab)


@pytest.mark.parametrize("backwards", [False, True])
def test_tab_never_takes_the_focus_into_a_parked_page(launch, backwards):
    app = launch()
    view = practice_read_ahead(app, "000")
    index = FILL_IN + 1 if backwards else FILL_IN  # a fill-in page built before/after it
    view.go_to(index)
    frame(view)
    shelf, page = view.stack, view.pages[index]
    edits = [e for e in page.findChildren(QLineEdit) if e.isVisibleTo(page)]
    assert edits
    start = edits[0] if backwards else edits[-1]
    start.setFocus(Qt.FocusReason.TabFocusReason)
    app.qtbot.waitUntil(lambda: QApplication.focusWidget() is start, timeout=5000)
    # The test means something: the widget Qt's focus chain offers next is in a parked
    # page (the neighbouring fill-in page's field: pages join the chain as they are built).
    natural = start.previousInFocusChain() if backwards else start.nextInFocusChain()
    while not (natural.focusPolicy() & Qt.FocusPolicy.TabFocus) or not natural.isEnabled() \
            or not natural.isVisibleTo(view.window()):
        natural = natural.previousInFocusChain() if backwards else natural.nextInFocusChain()
    assert shelf.is_parked(natural)
    seen = []
    for _ in range(6):
        _tab(QApplication.focusWidget() or view, backwards)
        focus = QApplication.focusWidget()
        seen.append(focus)
        assert focus is not None and not shelf.is_parked(focus), focus
    assert any(f is not start for f in seen)  # the focus did move


def test_a_focused_field_on_the_page_left_does_not_keep_the_focus(launch):
    app = launch()
    view = practice_read_ahead(app, "000")
    view.go_to(FILL_IN)
    frame(view)
    edit = view.pages[FILL_IN].findChildren(QLineEdit)[0]
    edit.setFocus()
    app.qtbot.waitUntil(lambda: QApplication.focusWidget() is edit, timeout=5000)
    view.stack.setCurrentWidget(view.pages[FILL_IN + 1])  # not through go_to, which refocuses
    assert not view.stack.is_parked(QApplication.focusWidget())


def test_a_page_back_on_screen_draws_its_options_from_one_pixmap(launch):
    """A parked page keeps what Qt cached for it (a QStackedWidget's show drops it): its
    choice options come back as one blit, and a pick paints them again for real."""
    from desktop.views.answer_widgets import ChoiceAnswer
    from desktop.views.subtree_cache import SubtreeCache
    from test_gui_switch_paint import PaintCounter

    app = launch()
    view = practice_read_ahead(app, "000")
    page = view.pages[3]
    assert isinstance(page.answer, ChoiceAnswer)
    cache = next(e for e in page.answer.findChildren(SubtreeCache))
    for target in (3, 4):  # on screen once: painted for real, then taken at idle
        view.go_to(target)
        frame(view)
        app.wait_idle()
        app.qtbot.wait(20)
    counter = PaintCounter()
    buttons = list(page.answer.buttons.values())
    for button in buttons:
        button.installEventFilter(counter)
    hits = cache.hits
    view.go_to(3)
    frame(view)
    assert cache.hits == hits + 1 and sum(counter.painted.values()) == 0
    buttons[1].click()  # a pick: the options are painted for real
    frame(view)
    assert counter.painted[buttons[1]] >= 1
    # A change while the page is parked (clipped, never painted) still drops its pixmap.
    view.go_to(4)
    frame(view)
    app.wait_idle()
    app.qtbot.wait(20)
    buttons[2].setChecked(True)
    counter.painted.clear()
    hits = cache.hits
    view.go_to(3)
    frame(view)
    assert cache.hits == hits and counter.painted[buttons[2]] >= 1
