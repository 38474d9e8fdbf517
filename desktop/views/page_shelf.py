"""The pages of a paper session, kept shown: the current one fills the shelf, the others
are parked beside it, outside its rectangle.

A ``QStackedWidget`` hides the page it leaves and shows the one it goes to: two walks over
every widget of both pages (Show/Hide events, each layout activated again), the largest
part of a question switch that is not painting (callgrind, bench question_switch: ~0.3 M
instructions of ~4.2 M a switch, ~0.75 M on a code page). Here a switch moves two pages.
A parked page is clipped away by the shelf: Qt never paints it and the mouse never reaches
it. What hiding also did is done here: the keyboard focus never stays in a parked page (a
Tab, or any other way, into one goes on along the focus chain, in the same direction, to
the next widget that is not parked). Pages do not fill their background (as before: an
opaque page that is dirty is painted on its own, then its children again with the window).
"""
from __future__ import annotations

import shiboken6
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

__all__ = ["PageShelf"]

_PARK_GAP = 1000  # px to the left of the shelf: clipped whatever the page's width
_TAB_FOCUS = Qt.FocusPolicy.TabFocus
_MAX_CHAIN = 100_000  # a focus chain is a ring; this only bounds a broken one


class PageShelf(QWidget):
    """``addWidget`` / ``removeWidget`` / ``setCurrentWidget`` / ``currentWidget`` /
    ``indexOf`` / ``count``, as a ``QStackedWidget``'s, over pages that stay shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pages: list[QWidget] = []
        self._current: QWidget | None = None
        QApplication.instance().focusChanged.connect(self._keep_focus_out_of_parked)

    # --- the stack's interface ---------------------------------------------------------
    def addWidget(self, page: QWidget) -> int:  # noqa: N802 - QStackedWidget's name
        """Add ``page`` (the current one if it is the first), shown; returns its index."""
        page.setParent(self)
        self._pages.append(page)
        if self._current is None:
            self._current = page
        page.setGeometry(self._place(page))
        page.show()
        return len(self._pages) - 1

    def removeWidget(self, page: QWidget) -> None:  # noqa: N802 - QStackedWidget's name
        """Take ``page`` off the shelf (hidden, still its child, as QStackedWidget does)."""
        if page not in self._pages:
            return
        self._pages.remove(page)
        if page is self._current:
            self._current = self._pages[0] if self._pages else None
            if self._current is not None:
                self._current.setGeometry(self.rect())
        page.hide()

    def setCurrentWidget(self, page: QWidget) -> None:  # noqa: N802 - QStackedWidget's name
        if page is self._current or page not in self._pages:
            return
        previous, self._current = self._current, page
        page.setGeometry(self.rect())
        if page.isHidden():  # taken off and put back
            page.show()
        if previous is not None:
            previous.setGeometry(self._place(previous))
            focus = QApplication.focusWidget()
            if focus is not None and previous.isAncestorOf(focus):  # as hiding it would
                self.setFocus(Qt.FocusReason.OtherFocusReason)

    def currentWidget(self) -> QWidget | None:  # noqa: N802 - QStackedWidget's name
        return self._current

    def indexOf(self, page: QWidget) -> int:  # noqa: N802 - QStackedWidget's name
        return self._pages.index(page) if page in self._pages else -1

    def count(self) -> int:
        return len(self._pages)

    # --- placing -----------------------------------------------------------------------
    def _place(self, page: QWidget) -> QRect:
        rect = self.rect()
        if page is self._current:
            return rect
        return QRect(QPoint(-rect.width() - _PARK_GAP, 0), rect.size())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        for page in self._pages:
            page.setGeometry(self._place(page))
        super().resizeEvent(event)

    def is_parked(self, widget: QWidget | None) -> bool:
        """Whether ``widget`` is inside a page of this shelf that is not the current one."""
        page = widget
        while page is not None and page.parentWidget() is not self:
            page = page.parentWidget()
        return page is not None and page is not self._current

    # --- focus -------------------------------------------------------------------------
    def _keep_focus_out_of_parked(self, _old: QWidget | None, now: QWidget | None) -> None:
        if now is None or not shiboken6.isValid(self) or not self.is_parked(now):
            return
        backwards = bool(QGuiApplication.keyboardModifiers()
                         & Qt.KeyboardModifier.ShiftModifier)  # Shift+Tab
        window = now.window()
        candidate = now
        for _ in range(_MAX_CHAIN):
            candidate = (candidate.previousInFocusChain() if backwards
                         else candidate.nextInFocusChain())
            if candidate is None or candidate is now:  # round the whole chain
                break
            if (candidate.focusPolicy() & _TAB_FOCUS) == _TAB_FOCUS \
                    and candidate.isEnabled() and candidate.isVisibleTo(window) \
                    and candidate.focusProxy() is None and not self.is_parked(candidate):
                reason = (Qt.FocusReason.BacktabFocusReason if backwards
                          else Qt.FocusReason.TabFocusReason)
                candidate.setFocus(reason)
                return
        self.setFocus(Qt.FocusReason.OtherFocusReason)  # nothing else takes it
