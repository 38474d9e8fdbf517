"""Give a label or button whose text changes at every question switch one fixed size.

``QLabel.setText`` and ``QAbstractButton.setText`` call ``updateGeometry()``: unless the
widget's size is fixed, that asks every enclosing layout to lay out again, up to the window
(``QWidgetPrivate::updateGeometry_helper``). The position "12 / 200" changes at every
switch, the Submit button's key with the answer type: each switch laid the whole screen
out again, and the buttons beside them moved by a few pixels. Fixed to the widest text it
can show, the widget keeps its place (the buttons beside it no longer jump) and the request
stops at it. Nothing is drawn from a copy: a layout choice, not a paint cache.
"""
from __future__ import annotations

from typing import Callable, Iterable

from PySide6.QtCore import QEvent, QObject, QSize
from PySide6.QtWidgets import QAbstractButton, QLabel

__all__ = ["hold_widest"]

_RESIZED_BY = (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.PolishRequest)


class _Holder(QObject):
    def __init__(self, widget: QLabel | QAbstractButton,
                 texts: Callable[[], Iterable[str]]) -> None:
        super().__init__(widget)
        self.widget = widget
        self.texts = texts
        self.apply()
        widget.installEventFilter(self)

    def apply(self) -> None:
        widget = self.widget
        shown = widget.text()
        widget.setMinimumSize(0, 0)
        widget.setMaximumSize(16777215, 16777215)  # QWIDGETSIZE_MAX: measure freely
        width = height = 0
        blocked = widget.blockSignals(True)
        try:
            for text in (shown, *self.texts()):
                widget.setText(text)
                hint = widget.sizeHint()
                width, height = max(width, hint.width()), max(height, hint.height())
        finally:
            widget.setText(shown)
            widget.blockSignals(blocked)
        widget.setFixedSize(QSize(width, height))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() in _RESIZED_BY:
            self.apply()
        return False


def hold_widest(widget: QLabel | QAbstractButton,
                texts: Callable[[], Iterable[str]]) -> None:
    """Fix ``widget``'s size to the largest of ``texts()`` (and what it shows now); again
    when its font or style changes. ``texts`` is called each time (a translation)."""
    _Holder(widget, texts)
