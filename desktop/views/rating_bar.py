"""After a graded practice answer: the review rating examdesk chose (again / hard / good /
easy, ``question_db.review.rating_for``), the next review date it gives, and buttons to
override the rating (``review.override_rating``), which reschedules at once."""
from __future__ import annotations

import datetime as dt
import math
import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (QBoxLayout, QButtonGroup, QFrame, QHBoxLayout, QLabel, QPushButton,
                               QWidget)

from question_db import actions, review

from ..db import DbOps
from .translation import tr


def rating_label(rating: int) -> str:
    return {review.AGAIN: tr("Again"), review.HARD: tr("Hard"), review.GOOD: tr("Good"),
            review.EASY: tr("Easy")}[rating]


def due_text(due: float, now: float | None = None) -> str:
    """'in 10 min', 'today at 18:40' or '2026-12-03 (in 4 days)', in local time."""
    now = time.time() if now is None else now
    if due - now < 3600:
        return tr("in %1 min").replace("%1", str(max(1, math.ceil((due - now) / 60))))
    when, today = dt.datetime.fromtimestamp(due), dt.datetime.fromtimestamp(now).date()
    days = (when.date() - today).days
    if days == 0:
        return tr("today at %1").replace("%1", when.strftime("%H:%M"))
    return tr("%1 (in %2 days)").replace("%1", when.date().isoformat()).replace("%2", str(days))


class RatingBar(QFrame):
    """The schedule of one question after an answer; the learner may re-rate it."""

    def __init__(self, db: DbOps, question_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rating_bar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.db = db
        self.question_id = question_id
        self.rating: int | None = None
        self.due: float | None = None
        self.overridden = False
        self._summary_width = 0.0  # the summary's text on one line, px
        # One row where it fits; in a narrow pane (a code question's problem side at
        # 1024×700) the buttons go under the summary, and the "Rate it yourself:" label
        # goes if even they do not fit beside it: never a button cut off (issue 30.3).
        self.rows = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.rows.setContentsMargins(8, 4, 8, 4)
        self.summary = QLabel()
        self.summary.setObjectName("rating_summary")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.rows.addWidget(self.summary, 1)
        self.controls = QWidget()
        layout = QHBoxLayout(self.controls)
        layout.setContentsMargins(0, 0, 0, 0)
        self.rate_label = QLabel(tr("Rate it yourself:"))
        layout.addWidget(self.rate_label)
        self.rows.addWidget(self.controls)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[int, QPushButton] = {}
        for rating in review.RATING_NAMES:
            button = QPushButton(rating_label(rating))
            button.setObjectName(f"rate_{review.RATING_NAMES[rating]}")
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _=False, r=rating: self.override(r))
            self.group.addButton(button)
            self.buttons[rating] = button
            layout.addWidget(button)
        layout.addStretch(1)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit(event.size().width())

    def _fit(self, width: int) -> None:
        inner = width - 16
        buttons = sum(b.sizeHint().width() for b in self.buttons.values()) + 6 * 4
        self.rate_label.setVisible(buttons + self.rate_label.sizeHint().width() <= inner)
        one_row = self._summary_width + self.controls.sizeHint().width() + 16 <= inner
        direction = (QBoxLayout.Direction.LeftToRight if one_row
                     else QBoxLayout.Direction.TopToBottom)
        if self.rows.direction() != direction:
            self.rows.setDirection(direction)

    def show_card(self, card: review.CardState) -> None:
        """Show the rating of the question's last review and when it is due next."""
        self.rating, self.due = card.last_rating, card.due
        if card.last_rating in self.buttons:
            self.buttons[card.last_rating].setChecked(True)
        chosen = tr("you rated it") if self.overridden else tr("examdesk rated it")
        self.summary.setText(f"{chosen} <b>{rating_label(card.last_rating)}</b> · "
                             + tr("next review") + f" <b>{due_text(card.due)}</b>")
        document = QTextDocument()  # its width on one line, for _fit at every resize
        document.setDefaultFont(self.summary.font())
        document.setHtml(self.summary.text())
        self._summary_width = document.idealWidth()
        self._fit(self.width())
        self.show()  # a layout only queues the show of a widget it adopts

    def override(self, rating: int) -> None:
        """Replace the last rating; the next review date follows."""
        if rating == self.rating:
            return
        self.db.run(actions.override_rating, question_id=self.question_id, rating=rating,
                    on_done=self._overridden)

    def _overridden(self, result: actions.Rated) -> None:
        self.overridden = True
        self.show_card(result.card)
