"""Draw a widget *and its children* from one pixmap while nothing in them changes.

A question switch repaints the screen's chrome with the page: the bar over the question
(Library, the title, Recite, the star, Finish), the buttons under it, the note panel, the
answer sheet (its current cell is a marker over it: navigator.CurrentMarker); and on the
page that comes back on screen (pages stay shown, parked: page_shelf) its choice options
and a code question's Run / Check bar. Each is a handful of Qt widgets; each widget costs
a painter, a style pass and its text laid out again (bench question_switch: ~50 paint
events a switch, ~25 of them chrome that did not change). ``SubtreeCache`` is a
``QGraphicsEffect`` that draws its widget's whole subtree from the pixmap Qt keeps for the
effect, one blit.

Correctness rests on Qt, not on a key of ours: ``QGraphicsEffectSource::draw`` uses the
pixmap only while it is in ``QPixmapCache``, and every ``update()``/``repaint()`` of the
widget or of any child (a text, an enabled state, a hover, a style change) removes it there
(``QWidgetRepaintManager::markDirty`` -> ``invalidateGraphicsEffectsRecursively``); the
next paint is the real one. We only notice that a paint was the real one (the widget
itself got a paint event: the pixmap was not used) and take it again in the next idle turn.
While the focus is inside (typing, a caret), it paints the real way and takes nothing.
"""
from __future__ import annotations

from typing import Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QPainter, QPixmapCache
from PySide6.QtWidgets import QApplication, QGraphicsEffect, QWidget

from .paint_layer import IdleCall

__all__ = ["SubtreeCache", "cache_subtree"]

# Qt keeps the pixmaps in QPixmapCache (10 MB by default, least recently used out first).
# Beside the practice screen's chrome (~2 MB), each built page keeps its answer area there
# (a choice question's options: ~0.5 MB at 900 px): 40 built pages (paper_session
# MAX_PAGES) need ~25 MB, or the one taken for the next question is gone when the learner
# gets there. A cap, not an allocation.
CACHE_LIMIT_KB = 48 * 1024
_PAD = QGraphicsEffect.PixmapPadMode.NoPad
_LOGICAL = Qt.CoordinateSystem.LogicalCoordinates  # placed by the painter: right in a grab()


class SubtreeCache(QGraphicsEffect):
    """The effect on ``widget``; ``cacheable()`` says when not to take the pixmap."""

    def __init__(self, widget: QWidget,
                 cacheable: Callable[[], bool] | None = None) -> None:
        super().__init__(widget)
        self._widget = widget
        self._cacheable = cacheable or self._focus_outside
        self._ratio = 0.0  # the pixel ratio of the pixmap Qt holds; 0: none taken
        self._live = False  # the widget got a paint event: the pixmap was not used
        self._filling = False
        self._schedule_fill = IdleCall(self, self._fill)
        self.hits = 0  # paints served from the pixmap (tests)
        self.fills = 0  # pixmaps taken (tests)
        widget.setGraphicsEffect(self)
        widget.installEventFilter(self)
        if QPixmapCache.cacheLimit() < CACHE_LIMIT_KB:
            QPixmapCache.setCacheLimit(CACHE_LIMIT_KB)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Paint:
            self._live = True
        return False

    def draw(self, painter: QPainter) -> None:  # Qt's virtual
        if self._filling:  # idle fill: render the subtree into Qt's cache, then blit it
            pixmap = self.sourcePixmap(_LOGICAL, QPoint(), _PAD)
            self._ratio = pixmap.devicePixelRatio()
            self.fills += 1
            self.drawSource(painter)
            return
        device = painter.device()
        if self._ratio and device is not None and device.devicePixelRatio() != self._ratio:
            self._ratio = 0.0  # another screen: drop Qt's pixmap, this paint is the real one
            self._widget.update()
        self._live = False
        self.drawSource(painter)  # Qt's pixmap if it still holds it, else the real paint
        if self._live or not self._ratio:
            self._schedule_fill()
        else:
            self.hits += 1

    def _fill(self) -> None:
        widget = self._widget
        # Not on screen (hidden, or on a parked page, whose paint Qt clips away): a
        # repaint would paint nothing, so nothing could be taken.
        if not shiboken6.isValid(widget) or widget.visibleRegion().isEmpty() \
                or not self.isEnabled() or not self._cacheable():
            return
        self._filling = True
        try:  # a paint on screen: Qt renders the subtree for ``sourcePixmap`` only there
            # (inside ``QWidget.render`` into another device the pixmap comes out blank)
            widget.repaint()
        finally:
            self._filling = False

    def _focus_outside(self) -> bool:
        focus = QApplication.focusWidget()
        return focus is None or not (focus is self._widget
                                     or self._widget.isAncestorOf(focus))


def cache_subtree(widget: QWidget,
                  cacheable: Callable[[], bool] | None = None) -> SubtreeCache:
    """Draw ``widget`` and its children from one pixmap while none of them changes."""
    return SubtreeCache(widget, cacheable)
