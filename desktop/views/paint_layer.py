"""Keep a text widget's last paint in a pixmap while what it shows does not change.

A question switch paints the whole page that comes on screen; on a programming page most
of that is text (the problem, the code, the title: ~4 of the ~10 ms measured by bench
question_switch), drawn glyph by glyph although nothing in it changed since the learner
last saw it. A ``PaintLayer`` keeps what a widget painted and, while the widget's key (size,
text, palette, font, focus, scroll position, …) is unchanged, copies it instead of drawing
the text again; any change of the key paints the real way, and the layer is taken again in
the next idle turn. Pages built ahead of time take their layers while the learner reads
(``fill_layers``).

The layer is taken with ``QWidget.render`` (the widget's own ``paintEvent``, redirected),
so it holds exactly what the widget paints, on a transparent background: its parent's
background is drawn under it as before. Layers live in one budget (``BUDGET_BYTES``); the
least recently shown are dropped first.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from functools import partial
from typing import Callable, Hashable

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QPainter, QPaintEvent, QPixmap, QRegion
from PySide6.QtWidgets import (QAbstractScrollArea, QFrame, QLabel, QLineEdit, QScrollBar,
                               QWidget)

__all__ = ["IdleCall", "PaintLayer", "LayeredLabel", "fill_layers", "layer_bytes",
           "layer_line_edit", "layer_scroll_area", "BUDGET_BYTES"]

BUDGET_BYTES = 64 * 1024 * 1024  # every layer together (a page's text is ~0.5–2 MB)
MAX_LAYER_PIXELS = 4_000_000  # device pixels: a taller widget paints the real way
# A paint quicker than this is not worth its pixmap (a short label: ~0.03 ms, the copy
# ~0.01 ms); a stem, a problem or an editor take 0.2–2 ms.
MIN_PAINT_SECONDS = 0.15e-3

_RESTYLED = (QEvent.Type.StyleChange, QEvent.Type.FontChange, QEvent.Type.PaletteChange)
_SHOWN: OrderedDict[int, PaintLayer] = OrderedDict()  # filled layers, least recent first
_bytes = 0


def layer_bytes() -> int:
    """What the layers hold now, in bytes (bench, tests)."""
    return _bytes


class IdleCall:
    """``fn()`` once in the next idle turn, however often it is asked for before then
    (while ``owner`` lives)."""

    def __init__(self, owner: QObject, fn: Callable[[], object]) -> None:
        self._owner = owner
        self._fn = fn
        self.pending = False

    def __call__(self) -> None:
        if not self.pending:
            self.pending = True
            QTimer.singleShot(0, self._owner, self._run)

    def _run(self) -> None:
        self.pending = False
        self._fn()


class PaintLayer(QObject):
    """The last paint of ``target``: ``owner`` itself, or its scroll area's viewport.

    ``key()`` names what the paint depends on besides what every widget's does (the
    target's size and pixel ratio, the owner's palette, font, enabled and active state);
    ``cacheable()`` says when the real paint must be used (a selection, a focused
    editor's cursor). The owner's ``paintEvent`` calls ``paint(event, real_paint)``, its
    ``changeEvent`` calls ``changed(event)``.
    """

    def __init__(self, owner: QWidget, key: Callable[[], Hashable],
                 cacheable: Callable[[], bool] = lambda: True, *,
                 target: QWidget | None = None) -> None:
        target = target if target is not None else owner
        super().__init__(target)
        self.owner = owner
        self.target = target
        self._key = key
        self._cacheable = cacheable
        self._pixmap: QPixmap | None = None
        self._pixmap_key: Hashable = None
        self._cheap_key: Hashable = None  # painted quickly with this key: not worth a layer
        self._rendering = False
        self._schedule_fill = IdleCall(self, self.fill)  # the layer taken at the next idle turn
        self._size = 0  # bytes, while filled
        self.hits = 0  # paints served from the layer (tests)
        self.destroyed.connect(partial(_forget, id(self)))

    # --- painting --------------------------------------------------------------------------
    def _full_key(self) -> Hashable:
        # Palette and font are not in the key: every change of them reaches the owner as
        # a PaletteChange / FontChange / StyleChange (their own, a parent's, the app's,
        # a theme's), and ``changed`` drops the layer then. Asking for them at each copy
        # was ~5 µs of its ~25 µs of Python (a copy per text on screen at every switch).
        target, owner = self.target, self.owner
        return (target.width(), target.height(), target.devicePixelRatioF(),
                owner.isEnabled(), owner.isActiveWindow(), self._key())

    def changed(self, event: QEvent) -> None:
        """The owner's ``changeEvent``: a style sheet, font or palette change drops the
        layer (the key does not hold them)."""
        if event.type() in _RESTYLED:
            self.drop()

    def paint(self, event: QPaintEvent, real: Callable[[QPaintEvent], None]) -> None:
        if not self.copy(event):
            real(event)

    def copy(self, event: QPaintEvent) -> bool:
        """Paint ``event``'s area from the layer if it is current (True); otherwise the
        caller paints the real way, and the layer is taken again at idle (False)."""
        if self._rendering:  # taking the layer: the widget's own paint, into the pixmap
            return False
        if self._pixmap is not None and self._cacheable() \
                and self._pixmap_key == self._full_key():
            self.hits += 1
            ratio = self._pixmap.devicePixelRatio()
            area = event.rect()
            painter = QPainter(self.target)
            painter.drawPixmap(area, self._pixmap, area if ratio == 1.0 else QRect(
                round(area.x() * ratio), round(area.y() * ratio),
                round(area.width() * ratio), round(area.height() * ratio)))
            painter.end()
            _touch(self)
            return True
        self.drop()
        if self._cheap_key != self._full_key():
            self._schedule_fill()
        return False

    def fill(self) -> bool:
        """Take the layer now, unless it is current or the widget cannot be cached."""
        target = self.target
        if self._rendering or not self._cacheable():
            return False
        key = self._full_key()
        if self._pixmap is not None and self._pixmap_key == key:
            return True
        if key == self._cheap_key:
            return False
        ratio = target.devicePixelRatioF()
        size = target.size()
        device = QSize(round(size.width() * ratio), round(size.height() * ratio))
        if device.isEmpty() or device.width() * device.height() > MAX_LAYER_PIXELS:
            return False
        pixmap = QPixmap(device)
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        self._rendering = True
        start = time.perf_counter()
        try:  # no background: what the parent paints under the widget stays the parent's;
            # no children: they paint themselves after it, over the copy too (a frame's)
            target.render(pixmap, QPoint(), QRegion(), QWidget.RenderFlag(0))
        finally:
            self._rendering = False
        self.drop()
        if time.perf_counter() - start < MIN_PAINT_SECONDS:
            self._cheap_key = key
            return False
        self._pixmap, self._pixmap_key = pixmap, key
        _add(self, device.width() * device.height() * 4)
        return True

    def drop(self) -> None:
        """Forget the layer (the next paint is the real one)."""
        if self._pixmap is not None:
            _forget(id(self))
            self._pixmap = self._pixmap_key = None

    @property
    def filled(self) -> bool:
        return self._pixmap is not None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        """A layer installed as the target's event filter (``layer_widget``): a widget
        whose class is Qt's own, so no ``paintEvent`` of ours to ask."""
        if event.type() == QEvent.Type.Paint:
            return self.copy(event)  # True: served, the widget's own paint is skipped
        self.changed(event)
        return False


def _add(layer: PaintLayer, size: int) -> None:
    global _bytes
    layer._size = size  # noqa: SLF001 - the budget's bookkeeping
    _SHOWN[id(layer)] = layer
    _bytes += size
    while _bytes > BUDGET_BYTES and len(_SHOWN) > 1:
        oldest = next(iter(_SHOWN.values()))
        oldest.drop()


def _touch(layer: PaintLayer) -> None:
    if id(layer) in _SHOWN:
        _SHOWN.move_to_end(id(layer))


def _forget(key: int, *_destroyed) -> None:
    global _bytes
    layer = _SHOWN.pop(key, None)
    if layer is not None:
        _bytes -= layer._size  # noqa: SLF001


def fill_layers(root: QWidget) -> int:
    """Take the layers of every widget under ``root`` now (a page built ahead of time, while
    the learner reads); returns how many were taken."""
    return sum(1 for layer in root.findChildren(PaintLayer)
               if layer.target.isVisibleTo(root) and layer.fill())


def layer_widget(widget: QWidget, key: Callable[[], Hashable],
                 cacheable: Callable[[], bool] = lambda: True) -> PaintLayer:
    """A layer for a widget of Qt's own class (no ``paintEvent`` of ours to ask): the
    layer filters its events, copies its paints and drops on a restyle."""
    layer = PaintLayer(widget, key, cacheable)
    widget.installEventFilter(layer)
    return layer


def layer_scroll_area(area: QAbstractScrollArea) -> None:
    """Copy ``area``'s scroll bars' and frame's last paint while they do not change.
    Fusion fills a bar's groove and handle with gradients, ~0.3 ms a bar (bench
    question_switch: a code page shows four, all painted at every switch to it), and
    strokes a frame's rounded outline anew (~0.05 ms). The bars stay Qt's own (a scroll
    area connects to the ones it made); while the pointer is over one or drags it, it
    paints the real way (hover highlights). Call it once the frame's shape is set."""
    for bar in (area.verticalScrollBar(), area.horizontalScrollBar()):
        layer_widget(bar, partial(_bar_key, bar), partial(_bar_cacheable, bar))
    if area.frameShape() != QFrame.Shape.NoFrame:  # the frame is what the area paints
        layer_widget(area, partial(_frame_key, area))


def layer_line_edit(edit: QLineEdit) -> None:
    """Copy a line edit's last paint while its text, cursor and selection stay (a blank:
    Fusion fills and outlines its panel anew, ~0.15 ms); a focused one paints the real way
    (its cursor blinks)."""
    layer_widget(edit, partial(_line_edit_key, edit), partial(_unfocused, edit))


def _frame_key(frame: QFrame) -> tuple:
    return (frame.frameShape(), frame.frameShadow(), frame.lineWidth(),
            frame.midLineWidth(), frame.hasFocus())


def _line_edit_key(edit: QLineEdit) -> tuple:
    return (edit.text(), edit.placeholderText(), edit.cursorPosition(),
            edit.selectionStart(), edit.selectionLength(), edit.isReadOnly(), edit.alignment(),
            edit.echoMode(), edit.hasFrame(), edit.textMargins())


def _unfocused(widget: QWidget) -> bool:
    return not widget.hasFocus()


def _bar_key(bar: QScrollBar) -> tuple:
    return (bar.value(), bar.minimum(), bar.maximum(), bar.pageStep(), bar.singleStep(),
            bar.orientation(), bar.invertedAppearance(), bar.hasFocus())


def _bar_cacheable(bar: QScrollBar) -> bool:
    return not bar.underMouse() and not bar.isSliderDown()


class LayeredLabel(QLabel):
    """A rich-text ``QLabel`` that copies its last paint while its text and look stay the
    same (a stem, an option, a title: painted at every switch to their page)."""

    def __init__(self, *args, **kwargs) -> None:
        self.layer: PaintLayer | None = None
        super().__init__(*args, **kwargs)
        self.layer = PaintLayer(self, self._layer_key, self._layer_cacheable)

    def _layer_key(self) -> tuple:
        return (self.text(), self.alignment(), self.wordWrap(), self.indent(), self.margin())

    def _layer_cacheable(self) -> bool:
        return bool(self.text()) and not self.hasFocus() and not self.hasSelectedText()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        if self.layer is None:
            super().paintEvent(event)
        else:
            self.layer.paint(event, super().paintEvent)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if self.layer is not None:
            self.layer.changed(event)
