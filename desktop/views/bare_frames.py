"""A stack and a splitter that skip their frame's paint when they have no frame.

``QStackedWidget`` and ``QSplitter`` are ``QFrame``s: each repaint of the screen opens a
painter on them and asks the style to draw a frame of shape ``NoFrame``, which draws
nothing (~45,000 instructions each; a question switch repaints the window's stack and the
practice splitter: bench question_switch). With no frame there is nothing of theirs to
paint: their children paint themselves, the parent's background shows through as before.
"""
from __future__ import annotations

from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QFrame, QSplitter, QStackedWidget

__all__ = ["BareSplitter", "BareStack"]


class BareStack(QStackedWidget):
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        if self.frameShape() != QFrame.Shape.NoFrame:
            super().paintEvent(event)


class BareSplitter(QSplitter):
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        if self.frameShape() != QFrame.Shape.NoFrame:
            super().paintEvent(event)
