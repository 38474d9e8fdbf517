"""Read-only rich text for narrow panes (the problem side of a code workspace).

A word-wrapping ``QLabel`` cannot be narrower than its longest unbreakable word: a stem
that names ``RoPEMultiHeadAttention(nn.Module)`` made the problem pane wider than the
splitter gave it at 1024×700, so the whole page scrolled sideways and every line was cut
at the right edge. ``FlowText`` wraps like a browser's ``overflow-wrap: anywhere`` (at
word boundaries, inside a long token only when it must) and gives a ``<pre>`` block wider
than the pane its own horizontal scroll bar. It sizes itself to its text (height for
width), never scrolls vertically, and passes wheel and navigation keys on to the page,
so it behaves like the label it replaces. Copying gives the text as written (no
zero-width spaces inserted to make it break).
"""
from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QKeySequence, QPalette, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QStyle, QTextBrowser, QWidget



class FlowText(QTextBrowser):
    """``QLabel``-like (``setText``/``text``) rich text that wraps at any width."""

    def __init__(self, html: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._html = ""
        self._heights: dict[int, int] = {}
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setOpenLinks(False)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # as a selectable QLabel
        self.viewport().setBackgroundRole(QPalette.ColorRole.Window)  # the page shows through
        self.viewport().setAutoFillBackground(False)
        self.document().setDocumentMargin(0)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.document().contentsChanged.connect(self._text_changed)
        self.setText(html)

    # --- QLabel's text API -------------------------------------------------------------
    def setText(self, html: str) -> None:  # noqa: N802 - as QLabel's
        self._html = html
        self.setHtml(html)

    def text(self) -> str:
        return self._html

    # --- sizing --------------------------------------------------------------------------
    def _text_changed(self) -> None:
        self._heights.clear()
        self.updateGeometry()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's
        if width not in self._heights:
            doc = self.document().clone()
            doc.setTextWidth(max(1, width))
            height = math.ceil(doc.size().height())
            if doc.size().width() > width + 0.5:  # a <pre> line wider than the pane
                height += self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
            self._heights[width] = height + 1 if self._html else 0
        return self._heights[width]

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's
        width = max(self.width(), 200)
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's: the point of this widget
        return QSize(40, self.heightForWidth(max(self.width(), 40)))

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._text_changed()  # zoom (Ctrl+=) or a theme: the cached heights are stale

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()

    # --- input goes to the page, as it does past a QLabel ----------------------------------
    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt's
        if event.angleDelta().x() and self.horizontalScrollBar().maximum():
            super().wheelEvent(event)  # a wide code block scrolls sideways
        else:
            event.ignore()

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's
        if event.matches(QKeySequence.StandardKey.Copy) \
                or event.matches(QKeySequence.StandardKey.SelectAll):
            super().keyPressEvent(event)
        else:
            event.ignore()
