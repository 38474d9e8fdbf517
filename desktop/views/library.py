"""The library: one card per paper with its size, best and last exam score, an unfinished-
exam badge, its practice progress with Continue, Practice / Recite / Exam buttons and the
past reports; above them search, practice sets, mock exams and the way into review: the
wrong-answer book, today's review session and the dashboard.

Cards are built lazily: before the first paint as many as the window can show (its height
over the smallest a card can be), the rest a few per idle event-loop turn, so a bank of
100 papers paints as fast as one of three (bench: launch_to_library_5000); scores and
progress reach a card whenever it is built.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPalette, QPen
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
from question_db.enums import SUBMITTED_STATES, SessionMode, SessionState
from question_db.model import Bank, Paper, errata_count

from ..db import DbOps, deferred_action
from .countdown import format_remaining
from ..theme import Role, css, theme
from .points import format_points
from .problem_text import message_text
from .screen import Screen
from .wrapped_label import WrappedLabel

if TYPE_CHECKING:  # the store and the actions are imported by the store thread
    from question_db.actions import LibrarySummary
    from question_db.navigation import PracticeProgress
    from question_db.store import PaperSummary, SessionRecord


def escape(text: str) -> str:
    """``html.escape(text)``, without importing ``html`` (and its table of entities, ~2 ms)
    before the first paint."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


MAX_EAGER_CARDS = 12  # at most this many before the first paint, however tall the window
CARDS_PER_TURN = 6  # then this many per idle event-loop turn
FIRST_CARDS_SHOWN_MS = 20  # ... from this long after the first cards were painted


def card_title_font(label: QLabel) -> None:
    """A card's title: bold, 14 pt."""
    font = label.font()
    font.setPointSizeF(14)
    font.setBold(True)
    label.setFont(font)


class ReportsButton(QToolButton):
    """"Past reports": a menu of finished exams, each opening its report."""

    def __init__(self, library: "LibraryView", name: str) -> None:
        super().__init__()
        self.library = library
        self.setObjectName(name)
        self.setText(self.tr("Past reports"))
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_ = QMenu(self)
        self.setMenu(self.menu_)
        self.setEnabled(False)

    def fill(self, entries: list[tuple[SessionRecord, str]]) -> None:
        """``entries``: (session, what to name it by besides its date and score)."""
        import datetime as dt  # after the first paint: the card's progress

        self.menu_.clear()
        for session, name in entries:
            when = dt.datetime.fromtimestamp(session.started_at).strftime("%Y-%m-%d %H:%M")
            score = f"{format_points(session.score)} / {format_points(session.max_score)}"
            action = self.menu_.addAction(" — ".join(p for p in (when, name, score) if p))
            action.triggered.connect(
                lambda _=False, sid=session.id: self.library.sig_report.emit(sid))
        self.setEnabled(bool(entries))


class PaperCard(QFrame):
    """One paper in the library."""

    def __init__(self, paper: Paper, library: "LibraryView") -> None:
        super().__init__()
        self.paper = paper
        self.setObjectName(f"paper_{paper.id}")
        # The rounded border is painted here, not by a style sheet: a sheet on the card
        # puts every button and label on it under Qt's style-sheet style, slower to
        # polish and to paint (callgrind: 60 M of 1,330 M instructions to the library
        # with 100 papers).
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setContentsMargins(1, 1, 1, 1)
        self.highlighted = False  # the paper opened last: its border in the info colour
        layout = QVBoxLayout(self)
        # Plain text in a bold 14 pt font: a rich-text label lays out a QTextDocument,
        # and for its size hint several times over (callgrind: 19 M instructions a library)
        title = WrappedLabel(paper.title)
        title.setTextFormat(Qt.TextFormat.PlainText)
        card_title_font(title)
        layout.addWidget(title)
        # The count, the points and the errata come with a cached bank's papers: building a
        # card decodes none of its questions (model.LazyQuestions).
        errata = errata_count(paper.questions)
        points = format_points(paper.total_points)
        if abs(paper.total_points - paper.scorable_points) > 1e-9:
            # 125 on the card and 108 in the exam: void questions (no correct answer) are
            # printed with points the exam cannot score.
            points = self.tr("%1 (%2 scored: void questions are not)").replace(
                "%1", points).replace("%2", format_points(paper.scorable_points))
        # "28 corrected or void" read as jargon (issue 30.7): say errata, explain on hover
        meta = WrappedLabel(self.tr("%1 questions · %2 points · %3 min · %4 with errata")
                            .replace("%1", str(len(paper.questions)))
                            .replace("%2", points)
                            .replace("%3", str(paper.duration_minutes))
                            .replace("%4", str(errata)))
        meta.setObjectName("paper_meta")
        meta.setToolTip(self.tr("Errata: questions whose printed key, wording or explanation "
                                "was wrong and is corrected here (you see both keys), or "
                                "that have no correct answer at all (void: not scored)"))
        muted = meta.palette()  # a palette, not a style sheet: cheaper to polish and paint
        muted.setColor(QPalette.ColorRole.WindowText, theme().color(Role.MUTED))
        meta.setPalette(muted)
        layout.addWidget(meta)
        self.scores = QLabel(self.tr("No exam taken yet"))
        self.scores.setObjectName("scores")
        layout.addWidget(self.scores)
        self.practice_progress = QLabel()
        self.practice_progress.setObjectName("practice_progress")
        self.practice_progress.hide()
        layout.addWidget(self.practice_progress)
        self.badge = QLabel()  # styled when first shown (a style sheet costs at every build)
        self.badge.setObjectName("unfinished_badge")
        self.badge.hide()
        layout.addWidget(self.badge)
        buttons = QHBoxLayout()
        self.practice_button = QPushButton(self.tr("Practice"))
        self.practice_button.setObjectName("practice")
        self.practice_button.clicked.connect(lambda: library.sig_practice.emit(paper.id))
        self.continue_button = QPushButton()
        self.continue_button.setObjectName("continue_practice")
        self.continue_button.clicked.connect(self._continue_clicked)
        self.continue_button.hide()
        self.continue_at: str | None = None
        self.recite_button = QPushButton(self.tr("Recite (背题)"))
        self.recite_button.setObjectName("recite")
        self.recite_button.setToolTip(self.tr("Key, explanation and errata at once; say "
                                              "whether you knew each one"))
        self.recite_button.clicked.connect(lambda: library.sig_recite.emit(paper.id))
        self.exam_button = QPushButton(self.tr("Exam"))
        self.exam_button.setObjectName("exam")
        self.exam_button.clicked.connect(self._exam_clicked)
        self.reports_button = ReportsButton(library, "reports")
        self.reports_menu = self.reports_button.menu_
        buttons.addWidget(self.continue_button)
        buttons.addWidget(self.practice_button)
        buttons.addWidget(self.recite_button)
        buttons.addWidget(self.exam_button)
        buttons.addWidget(self.reports_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.library = library
        self.unfinished: int | None = None
        self.finished: list[SessionRecord] = []

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = theme().color(Role.INFO) if self.highlighted else self.palette().mid().color()
        painter.setPen(QPen(color, 1))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8)
        painter.end()

    def _continue_clicked(self) -> None:
        if self.continue_at is not None:
            self.library.sig_continue.emit(self.paper.id, self.continue_at)

    def update_practice(self, progress: PracticeProgress | None) -> None:
        """Practice so far: answered of total, right / partly / wrong, and Continue."""
        if progress is None or progress.session_id is None:
            self.practice_progress.hide()
            self.continue_button.hide()
            self.continue_at = None
            return
        parts = [self.tr("Practice: %1 of %2 answered").replace("%1", str(progress.answered))
                 .replace("%2", str(progress.total)),
                 self.tr("%1 right").replace("%1", str(progress.right))]
        if progress.partly:
            parts.append(self.tr("%1 partly").replace("%1", str(progress.partly)))
        if progress.wrong:
            parts.append(self.tr("%1 wrong").replace("%1", str(progress.wrong)))
        if progress.seen:
            parts.append(self.tr("%1 shown or recited").replace("%1", str(progress.seen)))
        self.practice_progress.setText(" · ".join(parts))
        self.practice_progress.show()
        self.continue_at = progress.continue_at
        if progress.continue_at is not None:
            number = progress.continue_at.rsplit("/", 1)[-1]
            self.continue_button.setText(self.tr("Continue at question %1").replace(
                "%1", number))
            self.continue_button.show()
        else:
            self.continue_button.hide()

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
            self.badge.setText("◷ " + self.tr("Unfinished exam: %1 left").replace(
                "%1", format_remaining(left)) if left > 0 else
                "◷ " + self.tr("Unfinished exam: time is up, it will be submitted"))
            if not self.badge.styleSheet():
                self.badge.setStyleSheet(
                    f"background: {css(Role.WARNING_BG)}; color: palette(text); padding: 3px "
                    f"8px; border: 1px solid {css(Role.WARNING_BORDER)}; border-radius: 4px;")
            self.badge.show()
            self.exam_button.setText(self.tr("Resume exam"))
        else:
            self.badge.hide()
            self.exam_button.setText(self.tr("Exam"))
        self.finished = [s for s in sessions if s.mode == SessionMode.EXAM
                         and s.state in SUBMITTED_STATES]
        self.reports_button.fill([(session, "") for session in self.finished])


class MockExamsCard(QFrame):
    """The mock exams (组卷) taken: how many, the last one's score, Resume for one under way
    and their reports (a composed paper has no card of its own). Shown once there is one."""

    def __init__(self, library: "LibraryView") -> None:
        super().__init__()
        self.setObjectName("mock_exams_card")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setContentsMargins(1, 1, 1, 1)
        self.library = library
        layout = QVBoxLayout(self)
        title = QLabel(self.tr("Mock exams (组卷)"))
        card_title_font(title)
        layout.addWidget(title)
        self.summary = WrappedLabel()
        self.summary.setObjectName("mock_summary")
        layout.addWidget(self.summary)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New mock exam…"))
        self.new_button.setObjectName("mock_new")
        self.new_button.clicked.connect(library.sig_mock_exam)
        self.resume_button = QPushButton(self.tr("Resume exam"))
        self.resume_button.setObjectName("mock_resume")
        self.resume_button.clicked.connect(self._resume)
        self.resume_button.hide()
        self.reports_button = ReportsButton(library, "mock_reports")
        self.reports_menu = self.reports_button.menu_
        for button in (self.resume_button, self.new_button, self.reports_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.unfinished: int | None = None
        self.hide()

    paintEvent = PaperCard.paintEvent
    highlighted = False

    def _resume(self) -> None:
        if self.unfinished is not None:
            self.library.sig_resume.emit(self.unfinished)

    def update_records(self, records: list) -> None:
        """``records``: ``mock_exam.MockExamRecord``s, newest first."""
        finished = [r for r in records if r.session.state in SUBMITTED_STATES]
        active = next((r for r in records if r.session.state == SessionState.ACTIVE), None)
        self.setVisible(bool(records))
        parts = [self.tr("%1 taken").replace("%1", str(len(finished)))]
        if finished:
            last = finished[0]
            parts.append(self.tr("last: %1, %2 of %3 points").replace("%1", last.title)
                         .replace("%2", format_points(last.session.score))
                         .replace("%3", format_points(last.session.max_score)))
        if active is not None:
            parts.append(self.tr("%1 under way").replace("%1", active.title))
        self.summary.setText(" · ".join(parts))
        self.unfinished = active.session.id if active is not None else None
        self.resume_button.setVisible(active is not None)
        self.reports_button.fill([(record.session, record.title) for record in finished])


class LibraryView(Screen):
    """All papers. Emits what the learner chose; the main window acts on it.

    Under another screen it is hidden: the changes of actions taken there are only noted
    (``Screen.apply_changes``), and its summary is loaded once when it is back on top.
    """

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

    sig_continue = Signal(str, str)
    """Continue practising a paper at a question: (paper id, question id)."""

    sig_recite = Signal(str)
    """Recite (背题) this paper: (paper id)."""

    sig_practice_sets = Signal()
    """Open the practice-set dialog."""

    sig_mock_exam = Signal()
    """Open the mock-exam (组卷) dialog."""

    sig_search = Signal()
    """Open search (Ctrl+K)."""

    def __init__(self, db: DbOps, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("library_view")
        self.db = db
        self.bank = Bank()
        self.cards: dict[str, PaperCard] = {}  # built so far, in bank order
        self._unbuilt: list[Paper] = []  # still to build (idle turns)
        self._last_paper: str | None = None
        self._summary: LibrarySummary | None = None
        self._summaries_queued = 0  # library_summary jobs whose result has not come back
        self._queued_for: Bank | None = None  # the bank the newest of them summarises
        self.due_count = 0
        self._build_timer = QTimer(self)
        self._build_timer.setInterval(0)
        self._build_timer.timeout.connect(self._build_some)
        self._painted = False  # the first cards have been on screen
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
        self.due_button.clicked.connect(self.sig_due_today)
        self.dashboard_button = QPushButton(self.tr("Dashboard"))
        self.dashboard_button.setObjectName("dashboard")
        self.dashboard_button.clicked.connect(self.sig_dashboard)
        self.search_button = QPushButton(self.tr("Search (Ctrl+K)"))
        self.search_button.setObjectName("search")
        self.search_button.clicked.connect(self.sig_search)
        self.sets_button = QPushButton(self.tr("Practice sets"))
        self.sets_button.setObjectName("practice_sets")
        self.sets_button.clicked.connect(self.sig_practice_sets)
        self.mock_button = QPushButton(self.tr("Mock exam (组卷)"))
        self.mock_button.setObjectName("mock_exam")
        self.mock_button.clicked.connect(self.sig_mock_exam)
        for button in (self.search_button, self.sets_button, self.mock_button,
                       self.wrong_button, self.due_button, self.dashboard_button):
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
        # Built when the first mock exam shows up in a summary: none before the first paint
        # (bench launch_to_library), above the papers' cards.
        self.mock_card: MockExamsCard | None = None
        self.list_layout.addStretch(1)
        scroll.setWidget(self.list_widget)
        layout.addWidget(scroll, 1)

    def set_bank(self, bank: Bank, last_paper: str | None = None) -> None:
        self.bank = bank
        for card in self.cards.values():
            card.deleteLater()
        self.cards.clear()
        self._summary = None
        self._last_paper = last_paper
        self._unbuilt = list(bank.papers)
        self._build_cards(1)
        if self._unbuilt:
            self._build_cards(self.cards_that_fill_the_window() - 1)
        if self._unbuilt:
            self._build_rest()
        if bank.problems:
            details = "<br/>".join(  # the file (a path to find it), the message translated
                escape(f"{p.file}:{p.question}:{p.field}: {message_text(p.message)}")
                for p in bank.problems[:10])
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

    def cards_that_fill_the_window(self) -> int:
        """How many cards the window shows at most: its height (the screen's, maximised)
        over the first card's smallest height, every line on one line (a card is never
        shorter, so the count is never short). Each card built before the first paint
        costs ~2 ms of it (callgrind: 6.6 M instructions)."""
        window = self.window()
        height = window.height()
        if window.windowState() & (Qt.WindowState.WindowMaximized
                                   | Qt.WindowState.WindowFullScreen):
            screen = window.screen()
            height = max(height, screen.availableGeometry().height() if screen else 0)
        first = next(iter(self.cards.values()))
        step = max(first.minimumSizeHint().height() + max(self.list_layout.spacing(), 0), 1)
        return max(1, min(MAX_EAGER_CARDS, math.ceil(height / step)))

    def _build_cards(self, count: int) -> None:
        for paper in self._unbuilt[:count]:
            card = PaperCard(paper, self)
            card.highlighted = paper.id == self._last_paper
            self.list_layout.insertWidget(self.list_layout.count() - 1, card)
            if self.list_widget.isVisible():
                # Now, not in the queued call Qt makes a turn later: in between, the list
                # had its old height and every card on screen was squeezed into it
                # (titles and buttons cut by up to 40 px while cards were being added).
                card.show()
            self.cards[paper.id] = card
            if self._summary is not None:
                self._fill_card(card, self._summary)
        del self._unbuilt[:count]

    def _build_rest(self) -> None:
        """The other cards in idle turns, once the first ones have been painted: a zero
        timer started before the first paint runs before it (with 100 papers, 16 turns of
        cards delayed the first paint by ~0.1 s: bench launch_to_library_5000)."""
        if self._painted or not self.cards:
            self._build_timer.start()
        else:
            next(iter(self.cards.values())).installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's
        if event.type() == QEvent.Type.Paint and not self._painted:
            self._painted = True
            watched.removeEventFilter(self)
            if self._unbuilt:  # after the turn that shows the first cards
                QTimer.singleShot(FIRST_CARDS_SHOWN_MS, self, self._build_timer.start)
        return False

    def _build_some(self) -> None:
        """One idle turn: a few more cards (the window stays responsive meanwhile)."""
        self._build_cards(CARDS_PER_TURN)
        if not self._unbuilt:
            self._build_timer.stop()

    def build_all_cards(self) -> None:
        """Every card now (tests, screenshots)."""
        self._build_cards(len(self._unbuilt))
        self._build_timer.stop()

    def refresh(self) -> None:
        """Reload scores, badges and reports from the store, unless a reload of this bank
        is queued already: the store runs jobs in order, so that one will read whatever
        was written before it (a change delivered meanwhile came from an earlier job)."""
        if not self.bank.papers or (self._summaries_queued and self._queued_for is self.bank):
            return
        self._summaries_queued += 1
        self._queued_for = self.bank
        self.db.run(deferred_action("library_summary"), bank=self.bank,
                    on_done=self._show_summary, on_error=self._summary_failed)

    def refresh_from(self, changes: Changes, *, initiator: object | None) -> None:
        """Scores, unfinished exams, practice or the review counts changed: reload."""
        # a mock exam's paper is not in the bank (its ids: mock_exam.mock_paper_id)
        if changes.everything or changes.reviews or changes.templates or any(
                p.startswith("mock-") for p in changes.papers) or any(
                changes.touches_paper(p.id) for p in self.bank.papers):
            self.refresh()

    def show_again(self) -> None:
        """Back on top: one reload, whatever changed meanwhile. Also when nothing did: an
        unfinished exam's time left and today's due count move with the clock."""
        super().show_again()
        self.refresh()  # a no-op if show_again() just queued one

    def _summary_failed(self, error: BaseException) -> None:
        self._summaries_queued -= 1
        self.db.report(error)

    def _show_summary(self, summary: LibrarySummary) -> None:
        self._summaries_queued -= 1
        self._summary = summary
        for card in self.cards.values():
            self._fill_card(card, summary)
        if summary.mock_exams and self.mock_card is None:
            self.mock_card = MockExamsCard(self)
            self.list_layout.insertWidget(0, self.mock_card)
        if self.mock_card is not None:
            self.mock_card.update_records(summary.mock_exams)
        self._show_counts(summary.wrong_count, summary.due_count)

    @staticmethod
    def _fill_card(card: PaperCard, summary: LibrarySummary) -> None:
        paper_id = card.paper.id
        if paper_id in summary.exams:
            card.update_progress(summary.exams[paper_id], summary.sessions[paper_id])
        card.update_practice(summary.practice.get(paper_id))

    def _show_counts(self, wrong: int, due: int) -> None:
        self.wrong_button.setText(self.tr("Wrong-answer book (%1)").replace("%1", str(wrong)))
        self.due_button.setText(self.tr("Due today (%1)").replace("%1", str(due)))
        self.due_button.setToolTip(self.tr("The review session: each due card's question, "
                                           "Show answer, then Again / Hard / Good / Easy "
                                           "(new cards too, up to the daily limit)"))
        self.due_count = due
