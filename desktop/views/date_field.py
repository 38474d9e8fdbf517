"""A date a learner can type whole (2026-12-20, 2026/12/20, 20261220, 2026年12月20日) or
pick from a calendar.

``QDateEdit`` takes digits only section by section: select everything and type a date, and
it keeps the old one (issue 30.7: the dashboard's exam date ignored typed digits). Here the
text is read when editing ends (Enter, focus out) or as soon as it is a whole date; a text
that is not a date is refused in words and the last date comes back.
"""
from __future__ import annotations

import re

from PySide6.QtCore import QDate, Signal
from PySide6.QtWidgets import (QCalendarWidget, QHBoxLayout, QLineEdit, QMenu, QToolButton,
                               QWidget, QWidgetAction)

from .translation import tr

__all__ = ["DateField", "parse_date"]

_DATE = re.compile(r"\s*(\d{4})\s*[-/.年]?\s*(\d{1,2})\s*[-/.月]?\s*(\d{1,2})\s*日?\s*")


def parse_date(text: str) -> QDate | None:
    """The date ``text`` names (year, month, day in that order), or None."""
    match = _DATE.fullmatch(text or "")
    if match is None:
        return None
    year, month, day = (int(g) for g in match.groups())
    date = QDate(year, month, day)
    return date if date.isValid() else None


class DateField(QWidget):
    """``date()`` / ``setDate()`` / ``dateChanged`` as a ``QDateEdit``'s."""

    dateChanged = Signal(QDate)  # noqa: N815 - as QDateEdit's

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("YYYY-MM-DD")
        self.edit.setMaxLength(16)
        self.edit.setFixedWidth(self.edit.fontMetrics().horizontalAdvance("0000-00-00 ") + 16)
        self.edit.editingFinished.connect(self._finished)
        self.edit.textEdited.connect(self._edited)
        self.calendar = QCalendarWidget()
        self.calendar.clicked.connect(self._picked)
        menu = QMenu(self)
        holder = QWidgetAction(menu)
        holder.setDefaultWidget(self.calendar)
        menu.addAction(holder)
        menu.aboutToShow.connect(lambda: self.calendar.setSelectedDate(self._date))
        self.menu = menu
        self.button = QToolButton()
        self.button.setText("▾")
        self.button.setToolTip(tr("Pick the date on a calendar"))
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setMenu(menu)
        layout.addWidget(self.edit)
        layout.addWidget(self.button)
        self._date = QDate.currentDate()
        self._show(self._date)

    def date(self) -> QDate:
        return QDate(self._date)

    def setDate(self, date: QDate) -> None:  # noqa: N802 - as QDateEdit's
        self._set(date)

    def _show(self, date: QDate) -> None:
        self.edit.setText(date.toString("yyyy-MM-dd"))
        self.edit.setToolTip("")

    def _set(self, date: QDate) -> None:
        self._show(date)
        if date != self._date:
            self._date = QDate(date)
            self.dateChanged.emit(QDate(date))

    def _edited(self, text: str) -> None:
        date = parse_date(text)
        if date is not None and len(re.sub(r"\D", "", text)) == 8:  # a whole date typed
            self._date, previous = QDate(date), self._date
            if date != previous:
                self.dateChanged.emit(QDate(date))

    def _finished(self) -> None:
        date = parse_date(self.edit.text())
        if date is None:
            self._show(self._date)
            self.edit.setToolTip(tr("Not a date: type it as 2026-12-20"))
            return
        self._set(date)

    def _picked(self, date: QDate) -> None:
        self.menu.hide()
        self._set(date)
