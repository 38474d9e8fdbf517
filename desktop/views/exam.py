"""Timed exam: a start dialog, an always-visible countdown, the 答题卡 and submission.

No pause: the deadline is wall-clock and lives in the store, so closing the app does not
stop the clock; a resumed exam shows what is really left. At zero the exam submits itself.
Answers are saved as drafts while typing and recorded, graded and scheduled for review at
submission (``question_db.actions.submit_exam``); programming answers are saved and stay
"pending" until their checks run.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from question_db import actions
from question_db.enums import SessionState
from question_db.exam import exam_duration_s
from question_db.model import Paper

from ..config import Keys
from ..db import DbOps
from .answer_sheet import AnswerSheet
from .countdown import Countdown, format_remaining
from .paper_session import PaperSessionView
from ..theme import Role, css
from .points import format_points

__all__ = ["ExamView", "StartExamDialog"]
SHEET_WIDTH = 270  # five 40-px buttons a row, the legend wrapped beside them


def points_text(paper: Paper) -> str:
    """The points an exam is scored on, and why they differ from the printed total when
    void questions (no correct answer) are left out."""
    scored = format_points(paper.scorable_points)
    printed = paper.total_points
    if abs(printed - paper.scorable_points) < 1e-9:
        return scored
    void = [q for q in paper.questions if not q.scored]
    return QCoreApplication.translate(
        "StartExamDialog", "%1 (the paper prints %2: %3 points are on %4 void question(s), "
                           "which have no correct answer and are not scored)") \
        .replace("%1", scored).replace("%2", format_points(printed)) \
        .replace("%3", format_points(printed - paper.scorable_points)) \
        .replace("%4", str(len(void)))


class StartExamDialog(QDialog):
    """Before the clock starts: the paper's duration (adjustable) and the exam mode."""

    def __init__(self, paper: Paper, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Start exam"))
        layout = QVBoxLayout(self)
        title = QLabel(f"<h3>{paper.title}</h3>")
        title.setWordWrap(True)
        layout.addWidget(title)
        form = QFormLayout()
        self.minutes = QSpinBox()
        self.minutes.setObjectName("exam_minutes")
        self.minutes.setRange(1, 600)
        self.minutes.setValue(paper.duration_minutes)
        self.minutes.setSuffix(" " + self.tr("min"))
        form.addRow(self.tr("Duration"), self.minutes)
        # "Questions" / "Points" alone were translated as the report's tab ("逐题") and a
        # score ("得分"): say what they count.
        form.addRow(self.tr("Number of questions"), QLabel(str(len(paper.questions))))
        points = QLabel(points_text(paper))
        points.setObjectName("exam_points")
        points.setWordWrap(True)
        form.addRow(self.tr("Total points"), points)
        layout.addLayout(form)
        if paper.duration_note:
            note = QLabel(paper.duration_note)
            note.setWordWrap(True)
            note.setStyleSheet(f"color: {css(Role.MUTED)}")
            layout.addWidget(note)
        mode_box = QGroupBox(self.tr("Exam mode"))
        mode_layout = QVBoxLayout(mode_box)
        self.closed_book = QRadioButton(self.tr(
            "Closed book, as in the real exam: no Check and no console until you submit; "
            "your code is checked after submission and the results are in the report"))
        self.closed_book.setObjectName("closed_book")
        self.open_book_button = QRadioButton(self.tr(
            "Open book: Check and the Python console work during the exam"))
        self.open_book_button.setObjectName("open_book")
        self.closed_book.setChecked(True)
        for button in (self.closed_book, self.open_book_button):
            mode_layout.addWidget(button)
        layout.addWidget(mode_box)
        drafts = [q for q in paper.questions if q.draft and q.scored]
        self.include_drafts_box: QCheckBox | None = None
        if drafts:
            # Imported and unverified: the printed key may be wrong, so such questions are
            # asked but not scored unless the learner says otherwise (an imported paper that
            # is all drafts would have no score at all: there the box starts ticked).
            box = QCheckBox(self.tr("Score the %1 unverified (imported) question(s) too: "
                                    "their keys are as the source printed them, nobody has "
                                    "checked them").replace("%1", str(len(drafts))))
            box.setObjectName("include_drafts")
            box.setChecked(len(drafts) == len([q for q in paper.questions if q.scored]))
            self.include_drafts_box = box
            layout.addWidget(box)
        rules = QLabel(self.tr("The clock cannot be paused. Closing the app does not stop it; "
                               "you can resume with the time that is left. At zero the exam "
                               "is submitted automatically."))
        rules.setWordWrap(True)
        layout.addWidget(rules)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Start"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def duration_s(self, paper: Paper) -> int:
        return exam_duration_s(paper, self.minutes.value())

    def open_book(self) -> bool:
        return self.open_book_button.isChecked()

    def include_drafts(self) -> bool:
        """Whether unverified (draft) questions count in this exam's score."""
        return self.include_drafts_box is not None and self.include_drafts_box.isChecked()


class ExamView(PaperSessionView):
    """A running exam. ``sig_finished(report)`` once it is submitted."""

    sig_finished = Signal(object)
    """The exam was submitted (by the learner or the clock): (ExamReport)."""

    def __init__(self, paper: Paper, db: DbOps, session_id: int, deadline: float, *,
                 open_book: bool = False,
                 parent: QWidget | None = None) -> None:
        # Before the pages are built: a closed-book exam hides Run / Check on every one.
        self.open_book = open_book
        super().__init__(paper, db, session_id, parent=parent)
        self.setObjectName("exam_view")
        self.deadline = deadline
        self.submitting = False

        self.countdown = Countdown()
        self.countdown.sig_warning.connect(self._warn)
        self.countdown.sig_expired.connect(lambda: self.submit(SessionState.AUTO_SUBMITTED))
        self.warning = QLabel()
        self.warning.setObjectName("time_warning")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(f"background: {css(Role.WARNING_BG)}; color: palette(text); "
                                   f"padding: 6px; border: 1px solid {css(Role.WARNING_BORDER)}; "
                                   "border-radius: 4px;")
        self.warning.hide()
        self.sheet = AnswerSheet(paper)
        self.sheet.sig_jump.connect(self.go_to)
        sheet_scroll = QScrollArea()
        sheet_scroll.setWidgetResizable(True)
        sheet_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        sheet_scroll.setWidget(self.sheet)
        self.submit_button = QPushButton(self.tr("Submit exam…"))
        self.submit_button.setObjectName("submit_exam")
        self.submit_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.submit_button.clicked.connect(self.confirm_submit)

        side = QWidget()
        side.setMinimumWidth(240)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 0, 0, 0)
        side_layout.addWidget(QLabel(self.tr("Time left")))
        side_layout.addWidget(self.countdown)
        side_layout.addWidget(self.warning)
        side_layout.addWidget(sheet_scroll, 1)
        side_layout.addWidget(self.submit_button)

        mode = self.tr("open book") if open_book else self.tr(
            "closed book: your code is checked after you submit")
        title = QLabel(f"<b>{paper.title}</b> — " + self.tr("Exam") + f" · {mode}")
        title.setTextFormat(Qt.TextFormat.RichText)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("exam_splitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.question_area)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(title)
        layout.addWidget(self.splitter, 1)
        self.sig_current_changed.connect(self.sheet.set_current)

    def enter(self, settings: QSettings) -> None:
        state = settings.value(Keys.EXAM_SPLITTER)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.splitter.restoreState(state)
        else:  # the 答题卡 at its width, the question (a code workspace too) gets the rest
            self.splitter.setSizes([max(1, self.width() - SHEET_WIDTH), SHEET_WIDTH])
        super().enter(settings)
        self.start_clock()

    def leave(self, settings: QSettings) -> None:
        settings.setValue(Keys.EXAM_SPLITTER, self.splitter.saveState())
        super().leave(settings)

    def start_clock(self) -> None:
        """Start the countdown (after the state is restored, so the sheet is right)."""
        for index in range(len(self.questions)):
            self.sheet.set_answered(index, self.is_answered(index))
            self.sheet.set_flagged(index, self.question_id(index) in self.flags)
        self.countdown.start(self.deadline)

    def remaining(self) -> float:
        return self.countdown.remaining()

    # --- hooks ---------------------------------------------------------------------------
    def checks_allowed(self) -> bool:
        """Open book: Check and Run work during the exam; closed book: after submission."""
        return self.open_book and not self.submitting

    def wants_console(self) -> bool:
        return self.open_book

    def allows_search(self) -> bool:
        return self.submitting or self.closed  # the bank holds every key: not during it

    def quit_warning(self) -> str | None:
        if self.submitting or self.closed:
            return None
        return self.tr("Your exam is still running: the clock keeps going while examdesk is "
                       "closed (%1 left now). Your answers are saved and you can resume. "
                       "Quit anyway?").replace("%1", format_remaining(self.remaining()))

    def enter_submits(self, question) -> bool:
        return True  # Enter moves on in an exam, whatever the type (submit_shortcut)

    def answer_changed(self, index: int) -> None:
        self.sheet.set_answered(index, self.is_answered(index))

    def flag_changed(self, index: int, flagged: bool) -> None:
        self.sheet.set_flagged(index, flagged)

    def _warn(self, minutes: int) -> None:
        self.warning.setText(self.tr("%1 minutes left.").replace("%1", str(minutes)))
        self.warning.show()

    # --- submission ----------------------------------------------------------------------
    def unanswered_and_flagged(self) -> tuple[list[int], list[int]]:
        unanswered = [q.number for i, q in enumerate(self.questions) if not self.is_answered(i)
                      and q.scored]
        flagged = [q.number for q in self.questions if q.id in self.flags]
        return unanswered, flagged

    def confirm_submit(self) -> None:
        """Ask, listing unanswered and flagged questions, then submit."""
        unanswered, flagged = self.unanswered_and_flagged()
        lines = [self.tr("Submit the exam now? You cannot change answers afterwards.")]
        if unanswered:
            lines.append(self.tr("Unanswered: %1").replace("%1", ", ".join(map(str, unanswered))))
        if flagged:
            lines.append(self.tr("Flagged: %1").replace("%1", ", ".join(map(str, flagged))))
        lines.append(self.tr("Time left: %1").replace("%1", format_remaining(self.remaining())))
        # Parented to the window, not this view: if the clock submits while the question
        # is open, this view is replaced and deleted under the dialog.
        answer = QMessageBox.question(self.window(), self.tr("Submit exam"), "\n\n".join(lines),
                                      QMessageBox.StandardButton.Yes
                                      | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        if answer == QMessageBox.StandardButton.Yes and not self.submitting:
            self.submit(SessionState.SUBMITTED)

    def submit(self, final_state: SessionState = SessionState.SUBMITTED) -> None:
        """Save everything, grade, finish the session; ``sig_finished`` follows."""
        if self.submitting:
            return
        self.submitting = True
        self.countdown.stop()
        self._time_timer.stop()
        self.submit_button.setEnabled(False)
        for page in self.pages.values():
            page.answer.set_locked(True)
        self.save_drafts()
        responses = {self.question_id(i): self.response(i) for i in range(len(self.questions))
                     if self.is_answered(i)}
        self.db.run(actions.submit_exam, paper=self.paper, session_id=self.session_id,
                    responses=responses, seconds=dict(self.seconds), final_state=final_state,
                    now=time.time(), on_done=self._submitted, on_error=self._submit_failed)

    def _submit_failed(self, error: BaseException) -> None:
        """Not submitted (a full disk, say): the answers stay on screen and editable, and
        Submit can be pressed again once the problem is fixed."""
        self.submitting = False
        for page in self.pages.values():
            page.answer.set_locked(False)
        self.submit_button.setEnabled(True)
        if self.countdown.remaining() > 0:
            self.countdown.start(self.deadline)
            self._time_timer.start()
        self.db.report(error)

    def _submitted(self, result: actions.ExamSubmitted) -> None:
        self.closed = True
        self.stop_timers()
        self.sig_finished.emit(result.report)

    def stop_timers(self) -> None:
        super().stop_timers()
        self.countdown.stop()

    def submit_shortcut(self) -> None:
        """Enter moves on: handing in a whole exam by one stray key would be too easy."""
        self.go_to(self.current + 1)
