"""Chrome drawn from one pixmap (desktop/views/subtree_cache) and kept in place
(desktop/views/steady_size): what reaches the screen must be exactly what the widgets
paint themselves, and never an old picture after a child changed. Real widgets,
offscreen, compared pixel by pixel."""
from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QFont, QImage
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from desktop.views.steady_size import hold_widest
from desktop.views.subtree_cache import SubtreeCache, cache_subtree

pytestmark = pytest.mark.gui


class Events(QObject):
    """Counts the paint and layout events of the widgets it watches."""

    def __init__(self, *widgets: QWidget) -> None:
        super().__init__()
        self.seen: Counter = Counter()
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        self.seen[(watched, event.type())] += 1
        return False

    def paints(self, widget: QWidget) -> int:
        return self.seen[(widget, QEvent.Type.Paint)]


def picture(widget: QWidget) -> QImage:
    return widget.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)


def bar(qtbot, *texts: str) -> tuple[QWidget, QWidget, list[QPushButton], QLabel]:
    """A window holding a bar of buttons and a label, the bar cached, and a plain copy."""
    window = QWidget()
    outer = QVBoxLayout(window)
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    buttons = [QPushButton(t) for t in texts]
    for button in buttons:  # as on the screens: the keys go to the screen, not a button
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    label = QLabel("<b>200</b> — Practice")
    for widget in (*buttons, label):
        row.addWidget(widget)
    outer.addWidget(holder)
    outer.addStretch(1)
    window.resize(420, 120)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window, holder, buttons, label


def settle(qtbot, effect: SubtreeCache) -> None:
    """The idle turn that takes the pixmap after a real paint (once the window is laid
    out: a layout pass places the bar again, and that drops its pixmap)."""
    qtbot.wait(20)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    fills = effect.fills
    effect._widget.repaint()  # noqa: SLF001 - the real paint that asks for the pixmap
    qtbot.waitUntil(lambda: effect.fills > fills, timeout=3000)


def test_a_cached_bar_shows_exactly_what_its_widgets_paint(qtbot):
    window, holder, buttons, _ = bar(qtbot, "← Library", "背题 Recite mode")
    live = picture(window)
    effect = cache_subtree(holder)
    settle(qtbot, effect)
    events = Events(*buttons)
    hits = effect.hits
    window.repaint()
    cached = picture(window)
    assert effect.hits > hits  # served from the pixmap ...
    assert events.paints(buttons[0]) == 0  # ... without painting a child
    assert cached == live  # and pixel for pixel what the widgets paint themselves


def test_a_child_that_changes_is_painted_the_real_way_then_cached_again(qtbot):
    window, holder, buttons, label = bar(qtbot, "◀ Previous", "Next ▶")
    effect = cache_subtree(holder)
    settle(qtbot, effect)
    before = picture(window)
    events = Events(buttons[1])
    buttons[1].setEnabled(False)  # a state change of one child
    window.repaint()
    assert events.paints(buttons[1]) == 1  # the real paint, not the old pixmap
    disabled = picture(window)
    assert disabled != before
    label.setText("<b>201</b> — Practice")
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    window.repaint()
    relabelled = picture(window)
    assert relabelled != disabled
    settle(qtbot, effect)
    hits = effect.hits
    window.repaint()
    assert effect.hits > hits and picture(window) == relabelled  # the new pixmap


def test_no_pixmap_is_taken_while_the_focus_is_inside(qtbot):
    window = QWidget()
    layout = QVBoxLayout(window)
    holder = QWidget()
    QVBoxLayout(holder).addWidget(edit := QLineEdit("typing here"))
    layout.addWidget(holder)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    effect = cache_subtree(holder)
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus, timeout=3000)
    window.repaint()
    qtbot.wait(30)  # the idle turns in which a fill would run
    assert effect.fills == 0  # a caret blinks: the real paint each time
    edit.clearFocus()
    settle(qtbot, effect)
    hits = effect.hits
    window.repaint()
    assert effect.hits == hits + 1  # focus elsewhere: drawn from the pixmap again


def test_a_held_label_keeps_its_size_and_lays_nothing_out_again(qtbot):
    window = QWidget()
    row = QHBoxLayout(window)
    held, plain = QLabel("1 / 200"), QLabel("1 / 200")
    hold_widest(held, lambda: [f"{d * 3} / 200" for d in "0123456789"])
    row.addWidget(held)
    row.addWidget(plain)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    size = held.size()
    widest = max(QLabel(f"{d * 3} / 200").sizeHint().width() for d in "0123456789")
    assert held.width() >= widest
    events = Events(window)
    held.setText("188 / 200")
    assert held.size() == size and held.text() == "188 / 200"
    assert events.seen[(window, QEvent.Type.LayoutRequest)] == 0  # not posted at all
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    assert events.seen[(window, QEvent.Type.LayoutRequest)] == 0
    plain.setText("188 / 200")  # the control: a plain label lays the window out again
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    assert events.seen[(window, QEvent.Type.LayoutRequest)] == 1
    bigger = QFont(held.font())
    bigger.setPointSizeF(held.font().pointSizeF() * 2)
    held.setFont(bigger)  # a larger font: measured again
    assert held.width() > size.width() and held.height() > size.height()


def test_a_held_button_fits_its_widest_label(qtbot):
    button = QPushButton("Submit (Enter)")
    hold_widest(button, lambda: ["Submit (Enter)", "Submit (Ctrl+Enter)"])
    qtbot.addWidget(button)
    button.show()
    wide = QPushButton("Submit (Ctrl+Enter)")
    assert button.width() >= wide.sizeHint().width()
    assert button.text() == "Submit (Enter)"  # measuring put back what it shows
