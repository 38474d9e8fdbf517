"""A word-wrapping ``QLabel`` that lays its text out once per width.

Qt asks a wrapping label for its height at a width many times while a window first lays
out (each pass of each layout it sits in, after polish, after the font, after show), and
``QLabel`` shapes the whole text with HarfBuzz every time: 51 M of the 123 M instructions
from handing the library 100 papers to its first paint went to ``QLabel::heightForWidth``
(callgrind; bench launch_to_library_5000). The answer only changes with the width, the
text, the font or the style, so it is kept per width until one of those changes.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel

_STALE = (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.ContentsRectChange)


class WrappedLabel(QLabel):
    """``QLabel`` with word wrap on, its height for each width computed once. Set its
    indent and margin before the first layout: only the text, the font, the style and the
    contents margins are watched."""

    def __init__(self, text: str = "", parent=None) -> None:
        self._heights: dict[int, int] = {}
        super().__init__(text, parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's
        self._heights.clear()
        super().setText(text)

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's
        if event.type() in _STALE:
            self._heights.clear()
        super().changeEvent(event)
