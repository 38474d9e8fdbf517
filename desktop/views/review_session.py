"""The review session, as in Anki (``question_db.review_flow``): each card's front (the
question, nothing to type), **Show answer** (Space or Enter) reveals the key, the reference
answer, the rubric, the explanation and the errata, then **Again / Hard / Good / Easy**
(keys 1–4, each button naming when the card would come back) rates it
(``study.rate_card``), which returns the next card. The queue holds learning cards, due
cards and new cards within the daily limits (Settings); when it is empty the session's
summary is shown (``study.finish_review``).
"""
from __future__ import annotations

import time

import shiboken6
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout,
                               QWidget)

from question_db import review, study
from question_db.enums import CHOICE_TYPES
from question_db.model import Bank
from question_db.review_flow import ReviewCard, ReviewSummary

from ..db import DbOps
from ..theme import Role, theme
from .notes import NotePanel, StarButton
from .question_view import QuestionView
from .rating_bar import due_text, rating_label
from .screen import Screen
from .translation import tr

__all__ = ["ReviewView", "RATING_KEYS"]

RATING_KEYS = {Qt.Key.Key_1: review.AGAIN, Qt.Key.Key_2: review.HARD,
               Qt.Key.Key_3: review.GOOD, Qt.Key.Key_4: review.EASY}
SHOW_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)


class ReviewView(Screen):
    """One card at a time; the summary at the end."""

    def __init__(self, bank: Bank, db: DbOps, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("review_view")
        self.bank = bank
        self.db = db
        self.session_id: int | None = None
        self.card: ReviewCard | None = None
        self.page: QuestionView | None = None
        self.revealed = False
        self.rating_sent = False
        self.reviewed = 0
        self.summary: ReviewSummary | None = None
        self.finished = False
        self.closed = False
        self._shown_at = time.monotonic()
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

        back = QPushButton("← " + tr("Library"))
        back.setObjectName("review_back")
        back.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        back.clicked.connect(self.sig_leave)
        heading = QLabel("<b>" + tr("Review session") + "</b> — " + tr("due today"))
        heading.setTextFormat(Qt.TextFormat.RichText)
        self.counts = QLabel()
        self.counts.setObjectName("review_counts")
        self.counts.setTextFormat(Qt.TextFormat.RichText)
        self.star = StarButton(db)
        top = QHBoxLayout()
        top.addWidget(back)
        top.addWidget(heading, 1)
        top.addWidget(self.star)
        top.addWidget(self.counts)

        self.stack = QStackedWidget()
        self.stack.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.loading = QLabel(tr("Loading today's cards…"))
        self.loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.loading)
        self.summary_label = QLabel()
        self.summary_label.setObjectName("review_summary")
        self.summary_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.summary_label.setWordWrap(True)
        self.stack.addWidget(self.summary_label)
        self.notes = NotePanel(db)
        self.notes.hide()

        self.show_button = QPushButton(tr("Show answer") + " (" + tr("Space") + ")")
        self.show_button.setObjectName("review_show_answer")
        self.show_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.show_button.clicked.connect(self.show_answer)
        self.rate_buttons: dict[int, QPushButton] = {}
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.show_button)
        for number, rating in enumerate(review.RATING_NAMES, start=1):
            button = QPushButton()
            button.setObjectName(f"review_{review.RATING_NAMES[rating]}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setMinimumWidth(120)
            button.clicked.connect(lambda _=False, r=rating: self.rate(r))
            button.hide()
            self.rate_buttons[rating] = button
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.done_button = QPushButton(tr("Back to the library"))
        self.done_button.setObjectName("review_done")
        self.done_button.clicked.connect(self.sig_leave)
        self.done_button.hide()
        buttons.addWidget(self.done_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.notes)
        layout.addLayout(buttons)
        self.show_button.hide()
        star_key = QShortcut(QKeySequence("Ctrl+D"), self)
        star_key.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        star_key.activated.connect(self.star.toggle)

    # --- the session ---------------------------------------------------------------------
    def enter(self, settings: QSettings) -> None:
        self.db.run(study.start_review, bank=self.bank, on_done=self._started)
        self.setFocus()

    def _started(self, started: study.ReviewStarted) -> None:
        if self.closed:
            return
        self.session_id = started.review_session_id
        self.show_card(started.card)

    def show_card(self, card: ReviewCard | None) -> None:
        """The front of ``card``; None: the session is over, show its summary."""
        self.card = card
        self.revealed = False
        self.rating_sent = False
        if self.page is not None:
            self.stack.removeWidget(self.page)
            self.page.deleteLater()
            self.page = None
        if card is None:
            self._finish()
            return
        q = card.question
        paper = self.bank.paper(q.paper_id)
        left = card.remaining.new + card.remaining.learning + card.remaining.review
        # "card 3 · 12 left today", not 3/15: the cards still due change as they are rated (an
        # Again comes back, a new card joins), and a denominator that grew read as wrong.
        position = self.tr("card %1 · %2 left today").replace("%1", str(self.reviewed + 1)) \
            .replace("%2", str(left))
        self.page = QuestionView(q, paper.section_of(q), index=self.reviewed,
                                 total=self.reviewed + max(left, 1), paper_title=paper.title,
                                 position=position)
        self.page.setObjectName("review_card")
        self.page.answer.set_locked(True)
        # The front is the question: options are part of it; an empty editor is not.
        self.page.answer.setVisible(q.type in CHOICE_TYPES)
        self.stack.addWidget(self.page)
        self.stack.setCurrentWidget(self.page)
        self.show_button.show()
        self.show_button.setEnabled(True)
        for button in self.rate_buttons.values():
            button.hide()
        self._show_counts(card)
        self.star.show_question(q.id)
        self.notes.show_question(q.id)
        self.notes.hide()  # the note is part of the back: it may hold the answer
        self.db.run(study.personal, question_ids=[q.id], on_done=self._personal)
        self._shown_at = time.monotonic()
        self.setFocus()

    def _personal(self, personal: study.Personal) -> None:
        if self.closed or not shiboken6.isValid(self):
            return
        self.star.load(self.star.starred | set(personal.starred))
        self.notes.load({qid: n.text for qid, n in personal.notes.items()})

    def _show_counts(self, card: ReviewCard) -> None:
        t = theme()
        remaining = card.remaining
        self.counts.setText(
            f"<span style='color:{t.css(Role.INFO)}'>" + tr("new %1").replace(
                "%1", str(remaining.new)) + "</span> · "
            f"<span style='color:{t.css(Role.ERROR)}'>" + tr("learning %1").replace(
                "%1", str(remaining.learning)) + "</span> · "
            f"<span style='color:{t.css(Role.OK)}'>" + tr("review %1").replace(
                "%1", str(remaining.review)) + "</span>")

    def show_answer(self) -> None:
        """The back: key, reference answer, rubric, explanation, errata; then the rating."""
        if self.card is None or self.page is None or self.revealed:
            return
        self.revealed = True
        self.page.reveal(None)
        self.show_button.hide()
        self.notes.show()
        now = time.time()
        for number, (rating, button) in enumerate(self.rate_buttons.items(), start=1):
            due = self.card.next_due.get(rating)
            button.setText(f"{rating_label(rating)} ({number})"
                           + (f"\n{due_text(due, now)}" if due is not None else ""))
            button.setEnabled(True)
            button.show()
        self.setFocus()

    def rate(self, rating: int) -> None:
        """Again / Hard / Good / Easy on the card shown; the next card comes back."""
        if self.card is None or not self.revealed or self.rating_sent \
                or self.session_id is None:
            return
        self.rating_sent = True
        for button in self.rate_buttons.values():
            button.setEnabled(False)
        self.notes.flush()
        seconds = time.monotonic() - self._shown_at
        self.db.run(study.rate_card, bank=self.bank, review_session_id=self.session_id,
                    question_id=self.card.question.id, rating=rating,
                    seconds=round(seconds, 3), on_done=self._rated,
                    on_error=self._rate_failed)

    def _rated(self, result: study.CardRated) -> None:
        if self.closed:
            return
        self.reviewed += 1
        self.show_card(result.next)

    def _rate_failed(self, error: BaseException) -> None:
        """Not stored (a full disk): the card stays, rate it again once fixed."""
        if not self.closed:
            self.rating_sent = False
            for button in self.rate_buttons.values():
                button.setEnabled(True)
        self.db.report(error)

    def _finish(self) -> None:
        self.show_button.hide()
        for button in self.rate_buttons.values():
            button.hide()
        self.notes.hide()
        self.counts.setText("")
        self.done_button.show()
        self.summary_label.setText("<p>" + tr("Finishing…") + "</p>")
        self.stack.setCurrentWidget(self.summary_label)
        if self.session_id is not None and not self.finished:
            self.finished = True
            self.db.run(study.finish_review, review_session_id=self.session_id,
                        on_done=self._show_summary)

    def _show_summary(self, summary: ReviewSummary) -> None:
        self.summary = summary
        if self.closed:
            return
        t = theme()
        if summary.cards == 0:
            self.summary_label.setText(
                "<h2>" + tr("Nothing to review today") + "</h2><p>" + tr(
                    "No card is due and no new card is left within today's limit (File ▸ "
                    "Settings). Come back tomorrow, or practise a paper.") + "</p>")
            return
        ratings = " · ".join(
            f"{rating_label(r)} <b>{summary.ratings.get(r, 0)}</b>"
            for r in review.RATING_NAMES)
        minutes = summary.seconds / 60
        self.summary_label.setText(
            "<h2>" + tr("Done for today") + "</h2>"
            + "<p style='font-size:14pt'>" + tr("%1 card(s) reviewed, %2 of them new")
            .replace("%1", str(summary.cards)).replace("%2", str(summary.new_cards))
            + "</p><p>" + ratings + "</p><p style='color:" + t.css(Role.MUTED) + "'>"
            + tr("%1 rating(s) in %2 min").replace("%1", str(summary.reviews))
            .replace("%2", f"{minutes:.1f}") + "</p>")

    # --- keys, leaving -------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods == Qt.KeyboardModifier.NoModifier and not self.notes.editor.hasFocus():
            if event.key() in SHOW_KEYS and not self.revealed:
                self.show_answer()
                return
            if event.key() in RATING_KEYS and self.revealed:
                self.rate(RATING_KEYS[event.key()])
                return
        super().keyPressEvent(event)

    def leave(self, settings: QSettings) -> None:
        """The note is saved and the session closed (its summary keeps what was rated)."""
        if self.closed:
            return
        self.closed = True
        self.notes.flush()
        if self.session_id is not None and not self.finished:
            self.finished = True
            self.db.run(study.finish_review, review_session_id=self.session_id)
