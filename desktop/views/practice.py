"""Practice: answer, submit, see the verdict, key, explanation and errata at once.

Subjective questions reveal the reference answer and a rubric checklist; the learner's
self-marks are stored on the submitted answer (``set_grade``) and in the draft, so a report
regraded later sees them too. Navigation is free; time per question is recorded.
Every graded answer is scheduled for review (``question_db.practice``); the rating chosen
and the next review date show under the verdict, where the learner can override them.
A ``run`` practises chosen questions (wrong-answer book, today's reviews) in new sessions,
finished when the learner leaves.
"""
from __future__ import annotations

import html
from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from question_db import practice
from question_db.exam import grade_in_paper
from question_db.grading import Grade
from question_db.model import Paper, Question
from question_db.practice import Outcome, QuestionRun
from question_db.store import ProgressStore, SessionState

from ..db import DbOps
from .paper_session import PaperSessionView
from .question_view import QuestionView
from .rating_bar import RatingBar


def _answer_id(ref: int | Future) -> int:
    """An answer id, or the future of the submit_answer call that returns it.

    Store jobs run in order, so when a later job resolves this future it is already done.
    """
    return ref.result().answer_id if isinstance(ref, Future) else ref


def _regrade_after(store: ProgressStore, paper: Paper, question: Question, ref: int | Future,
                   grade: Grade) -> Outcome:
    return practice.regrade_answer(store, paper, question, _answer_id(ref), grade)


class PracticeView(PaperSessionView):
    """Practice on one paper: instant feedback, free navigation."""

    def __init__(self, paper: Paper, db: DbOps, session_id: int, *, dark: bool = False,
                 run: QuestionRun | None = None, title: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(paper, db, session_id, dark=dark, run=run, parent=parent)
        self.setObjectName("practice_view")
        self.answer_refs: dict[str, int | Future] = {}  # submitted answer per question id
        self.grades: dict[str, dict] = {}
        self.rating_bars: dict[str, RatingBar] = {}

        top = QHBoxLayout()
        self.back_button = QPushButton("← " + self.tr("Library"))
        self.back_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.back_button.clicked.connect(self.sig_leave)
        title = QLabel(f"<b>{html.escape(title or paper.title)}</b> — " + self.tr("Practice"))
        title.setTextFormat(Qt.TextFormat.RichText)
        self.progress = QLabel()
        top.addWidget(self.back_button)
        top.addWidget(title, 1)
        top.addWidget(self.progress)

        self.submit_button = QPushButton(self.tr("Submit (Enter)"))
        self.submit_button.setObjectName("submit_answer")
        self.submit_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.submit_button.clicked.connect(self.submit_current)
        self.marks_button = QPushButton(self.tr("Save self-marks"))
        self.marks_button.setObjectName("save_marks")
        self.marks_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.marks_button.clicked.connect(self.save_marks)
        self.nav.insertWidget(3, self.submit_button)
        self.nav.insertWidget(4, self.marks_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.question_area, 1)
        self.sig_current_changed.connect(self._update_buttons)

    # --- state ---------------------------------------------------------------------------
    def restore(self, state: SessionState) -> None:
        for qid, answer in state.answers.items():
            self.answer_refs[qid] = answer.id
            if answer.grade:
                self.grades[qid] = answer.grade
        super().restore(state)
        self._update_progress()

    def page_built(self, index: int, page: QuestionView) -> None:
        qid = page.question.id
        if qid in self.answer_refs:
            page.answer.set_locked(True)
            page.reveal(self.grades.get(qid))

    def _update_buttons(self, index: int = -1) -> None:
        page = self.current_page()
        if page is None:
            return
        submitted = page.question.id in self.answer_refs
        self.submit_button.setEnabled(not submitted)
        self.marks_button.setVisible(submitted and page.answer.self_marked)

    def _update_progress(self) -> None:
        done = len(self.answer_refs)
        points = sum(g.get("points", 0) for g in self.grades.values())
        self.progress.setText(self.tr("%1 of %2 answered · %3 points")
                              .replace("%1", str(done)).replace("%2", str(len(self.questions)))
                              .replace("%3", f"{points:g}"))

    # --- submitting ----------------------------------------------------------------------
    def grade(self, question: Question, response: Any) -> Grade:
        return grade_in_paper(self.paper_of(question), question, response)

    def submit_shortcut(self) -> None:
        if self.submit_button.isEnabled():
            self.submit_current()

    def submit_current(self) -> None:
        """Grade the question on screen, store the answer, and show the feedback."""
        page = self.current_page()
        if page is None or page.question.id in self.answer_refs:
            return
        question = page.question
        response = page.answer.response()
        if not page.answer.is_answered() and question.scored:
            page.verdict.setText("<i>" + self.tr("Answer first, then submit.") + "</i>")
            return
        self.save_drafts()  # time is accounted and the draft matches what is submitted
        grade = self.grade(question, response)
        self.answer_refs[question.id] = self.db.run(
            practice.submit_answer, self.paper_of(question), self.session_of(question),
            question, response, grade=grade,
            seconds=round(self.seconds.get(question.id, 0.0), 3), on_done=self._rated)
        self.grades[question.id] = grade.to_json()
        page.answer.set_locked(True)
        page.reveal(grade.to_json())
        self._update_buttons()
        self._update_progress()

    def save_marks(self) -> None:
        """Store the learner's rubric self-marks on the submitted answer."""
        page = self.current_page()
        if page is None or page.question.id not in self.answer_refs:
            return
        question = page.question
        response = page.answer.response()
        grade = self.grade(question, response)
        self.grades[question.id] = grade.to_json()
        self.db.run(_regrade_after, self.paper_of(question), question,
                    self.answer_refs[question.id], grade, on_done=self._rated)
        # The draft carries the marks too: reports regrade responses, not stored grades.
        self._dirty.add(question.id)
        self.save_drafts()
        page.set_grade(grade.to_json())
        self._update_progress()

    def apply_check_result(self, question_id: str, checks: list[dict]) -> None:
        """The console ran a programming question's checks on the code on screen."""
        answer = self.programming_answer(question_id)
        if answer is None:
            return
        answer.set_checks(checks)
        self._dirty.add(question_id)
        self.save_drafts()
        if question_id in self.answer_refs:
            question = answer.question
            grade = self.grade(question, answer.response())
            self.grades[question_id] = grade.to_json()
            self.db.run(_regrade_after, self.paper_of(question), question,
                        self.answer_refs[question_id], grade, on_done=self._rated)
            for page in self.pages.values():
                if page.question.id == question_id:
                    page.set_grade(grade.to_json())
            self._update_progress()

    # --- review schedule -----------------------------------------------------------------
    def _rated(self, outcome: Outcome) -> None:
        """Show the rating examdesk chose and the next review date under the verdict."""
        card = outcome.card
        if card is None:  # pending self-marks or checks, or void: nothing scheduled yet
            return
        page = next((p for p in self.pages.values() if p.question.id == card.question_id),
                    None)
        if page is None:
            return
        bar = self.rating_bars.get(card.question_id)
        if bar is None:
            bar = RatingBar(self.db, card.question_id)
            self.rating_bars[card.question_id] = bar
            page.feedback.layout().insertWidget(0, bar)
        bar.overridden = False  # a regrade (self-marks, checks) rates afresh
        bar.show_card(card)

    def close_session(self) -> None:
        """Leaving: drafts are saved, and a run's sessions are finished."""
        if self.closed:
            return
        super().close_session()
        if self.run is not None:
            self.db.run(practice.finish_run, list(self.run.sessions.values()))
