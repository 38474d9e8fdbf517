"""The library: one card per paper with its size, best and last exam score, an unfinished-
exam badge, Practice / Exam buttons and the past reports; above them the way into review:
the wrong-answer book, today's due reviews and the dashboard."""
from __future__ import annotations

from typing import TYPE_CHECKING

import datetime as dt
import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from question_db.changes import Changes
from question_db.enums import SUBMITTED_STATES, SessionMode
from question_db.model import Bank, Paper

from ..db import DbOps, deferred_action
from .countdown import format_remaining
from ..theme import Role, css
from .points import format_points

if TYPE_CHECKING:  # the store and the actions are imported by the store thread
    from question_db.actions import LibrarySummary
    from question_db.store import PaperSummary, SessionRecord


class PaperCard(QFrame):
    """One paper in the library."""

    def __init__(self, paper: Paper, library: "LibraryView") -> None:
        super().__init__()
        self.paper = paper
        self.setObjectName(f"paper_{paper.id}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(f"#paper_{paper.id} {{ border: 1px solid palette(mid); "
                           "border-radius: 8px; }")
        layout = QVBoxLayout(self)
        title = QLabel(f"<span style='font-size:14pt; font-weight:bold'>"
                       f"{html.escape(paper.title)}</span>")
        title.setWordWrap(True)
        layout.addWidget(title)
        errata = sum(1 for q in paper.questions if q.errata)
        points = format_points(paper.total_points)
        if abs(paper.total_points - paper.scorable_points) > 1e-9:
            # 125 on the card and 108 in the exam: void questions (no correct answer) are
            # printed with points the exam cannot score.
            points = self.tr("%1 (%2 scored: void questions are not)").replace(
                "%1", points).replace("%2", format_points(paper.scorable_points))
        meta = QLabel(self.tr("%1 questions · %2 points · %3 min · %4 corrected or void")
                      .replace("%1", str(len(paper.questions)))
                      .replace("%2", points)
                      .replace("%3", str(paper.duration_minutes))
                      .replace("%4", str(errata)))
        meta.setObjectName("paper_meta")
        meta.setWordWrap(True)
        meta.setStyleSheet(f"color: {css(Role.MUTED)}")
        layout.addWidget(meta)
        self.scores = QLabel(self.tr("No exam taken yet"))
        self.scores.setObjectName("scores")
        layout.addWidget(self.scores)
        self.badge = QLabel()
        self.badge.setObjectName("unfinished_badge")
        self.badge.setStyleSheet(f"background: {css(Role.WARNING_BG)}; color: palette(text); "
                                 f"padding: 3px 8px; border: 1px solid "
                                 f"{css(Role.WARNING_BORDER)}; border-radius: 4px;")
        self.badge.hide()
        layout.addWidget(self.badge)
        buttons = QHBoxLayout()
        self.practice_button = QPushButton(self.tr("Practice"))
        self.practice_button.setObjectName("practice")
        self.practice_button.clicked.connect(lambda: library.sig_practice.emit(paper.id))
        self.exam_button = QPushButton(self.tr("Exam"))
        self.exam_button.setObjectName("exam")
        self.exam_button.clicked.connect(self._exam_clicked)
        self.reports_button = QToolButton()
        self.reports_button.setObjectName("reports")
        self.reports_button.setText(self.tr("Past reports"))
        self.reports_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.reports_menu = QMenu(self.reports_button)
        self.reports_button.setMenu(self.reports_menu)
        self.reports_button.setEnabled(False)
        buttons.addWidget(self.practice_button)
        buttons.addWidget(self.exam_button)
        buttons.addWidget(self.reports_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.library = library
        self.unfinished: int | None = None
        self.finished: list[SessionRecord] = []

    def _exam_clicked(self) -> None:
        if self.unfinished is not None:
            self.library.sig_resume.emit(self.unfinished)
        else:
            self.library.sig_exam.emit(self.paper.id)

    def update_progress(self, summary: PaperSummary, sessions: list[SessionRecord]) -> None:
        if summary.attempts:
            self.scores.setText(self.tr("Best %1 · last %2 of %3 points · %4 exam(s)")
                                .replace("%1", format_points(summary.best_score))
                                .replace("%2", format_points(summary.last_score))
                                .replace("%3", format_points(summary.max_score))
                                .replace("%4", str(summary.attempts)))
        else:
            self.scores.setText(self.tr("No exam taken yet"))
        self.unfinished = summary.unfinished_session_id
        active = next((s for s in sessions if s.id == self.unfinished), None)
        if active is not None:
            left = active.remaining() or 0
            self.badge.setText("⏱ " + self.tr("Unfinished exam: %1 left").replace(
                "%1", format_remaining(left)) if left > 0 else
                "⏱ " + self.tr("Unfinished exam: time is up, it will be submitted"))
            self.badge.show()
            self.exam_button.setText(self.tr("Resume exam"))
        else:
            self.badge.hide()
            self.exam_button.setText(self.tr("Exam"))
        self.finished = [s for s in sessions if s.mode == SessionMode.EXAM
                         and s.state in SUBMITTED_STATES]
        self.reports_menu.clear()
        for session in self.finished:
            when = dt.datetime.fromtimestamp(session.started_at).strftime("%Y-%m-%d %H:%M")
            action = self.reports_menu.addAction(
                f"{when} — {format_points(session.score)} / "
                f"{format_points(session.max_score)}")
            action.triggered.connect(
                lambda _=False, sid=session.id: self.library.sig_report.emit(sid))
        self.reports_button.setEnabled(bool(self.finished))


class LibraryView(QWidget):
    """All papers. Emits what the learner chose; the main window acts on it."""

    sig_practice = Signal(str)
    """Practise this paper: (paper id)."""

    sig_exam = Signal(str)
    """Start an exam on this paper: (paper id)."""

    sig_resume = Signal(int)
    """Resume this unfinished exam: (session id)."""

    sig_report = Signal(int)
    """Show the report of this finished exam: (session id)."""

    sig_wrong_book = Signal()
    """Open the wrong-answer book."""

    sig_due_today = Signal()
    """Practise the reviews due today."""

    sig_dashboard = Signal()
    """Open the progress dashboard."""

    def __init__(self, db: DbOps, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("library_view")
        self.db = db
        self.bank = Bank()
        self.cards: dict[str, PaperCard] = {}
        self.due_count = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        heading = QLabel("<h1 style='margin:0'>" + self.tr("Papers") + "</h1>")
        study = QHBoxLayout()
        study.addWidget(heading, 1)
        self.wrong_button = QPushButton(self.tr("Wrong-answer book"))
        self.wrong_button.setObjectName("wrong_book")
        self.wrong_button.clicked.connect(self.sig_wrong_book)
        self.due_button = QPushButton(self.tr("Due today"))
        self.due_button.setObjectName("due_today")
        self.due_button.setEnabled(False)
        self.due_button.clicked.connect(self.sig_due_today)
        self.dashboard_button = QPushButton(self.tr("Dashboard"))
        self.dashboard_button.setObjectName("dashboard")
        self.dashboard_button.clicked.connect(self.sig_dashboard)
        for button in (self.wrong_button, self.due_button, self.dashboard_button):
            study.addWidget(button)
        layout.addLayout(study)
        self.status = QLabel(self.tr("Loading the question bank…"))
        self.status.setObjectName("library_status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.list_widget = QWidget()
        self.list_layout = QVBoxLayout(self.list_widget)
        self.list_layout.addStretch(1)
        scroll.setWidget(self.list_widget)
        layout.addWidget(scroll, 1)

    def set_bank(self, bank: Bank, last_paper: str | None = None) -> None:
        self.bank = bank
        for card in self.cards.values():
            card.deleteLater()
        self.cards.clear()
        for paper in bank.papers:
            card = PaperCard(paper, self)
            if paper.id == last_paper:
                card.setStyleSheet(card.styleSheet().replace("palette(mid)", css(Role.INFO)))
            self.list_layout.insertWidget(self.list_layout.count() - 1, card)
            self.cards[paper.id] = card
        if bank.problems:
            details = "<br/>".join(html.escape(str(p)) for p in bank.problems[:10])
            more = len(bank.problems) - 10
            self.status.setText(
                f"<span style='color:{css(Role.WARNING)}'>" + self.tr(
                    "%1 problem(s) while loading the question bank; the papers below loaded.")
                .replace("%1", str(len(bank.problems))) + "</span><br/><small>" + details
                + (f"<br/>… +{more}" if more > 0 else "") + "</small>")
        elif not bank.papers:
            self.status.setText(self.tr("No papers found."))
        else:
            self.status.hide()
        self.refresh()

    def refresh(self) -> None:
        """Reload scores, badges and reports from the store."""
        if self.cards:
            self.db.run(deferred_action("library_summary"), bank=self.bank,
                        on_done=self._show_summary)

    def apply_changes(self, changes: Changes) -> None:
        """Scores, unfinished exams or the review counts changed: reload the summary."""
        if changes.everything or changes.reviews or any(
                changes.touches_paper(pid) for pid in self.cards):
            self.refresh()

    def _show_summary(self, summary: LibrarySummary) -> None:
        for paper_id, card in self.cards.items():
            if paper_id in summary.exams:
                card.update_progress(summary.exams[paper_id], summary.sessions[paper_id])
        self._show_counts(summary.wrong_count, summary.due_count)

    def _show_counts(self, wrong: int, due: int) -> None:
        self.wrong_button.setText(self.tr("Wrong-answer book (%1)").replace("%1", str(wrong)))
        self.due_button.setText(self.tr("Due today (%1)").replace("%1", str(due)))
        self.due_button.setEnabled(due > 0)
        self.due_count = due
