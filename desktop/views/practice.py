"""Practice: answer, submit, see the verdict, key, explanation and errata at once.

Submitting is one action (``actions.submit_practice_answer``): graded in the core, stored
with its draft and its review in one transaction; the verdict appears once it is stored, and
a refused write (a full disk) leaves the answer editable and says so. Subjective questions
reveal the reference answer and a rubric checklist; self-marks and check runs regrade the
stored answer (``actions.regrade_practice_answer``). Every graded answer is scheduled for
review; the rating chosen and the next review date show under the verdict, where the
learner can override them.
A ``run`` practises chosen questions (wrong-answer book, today's reviews) in new sessions,
finished when the learner leaves.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from question_db import actions
from question_db.changes import Changes
from question_db.model import Paper, Question
from question_db.store import AnswerRef

from ..db import DbOps
from .answer_widgets import ProgrammingAnswer
from .paper_session import PaperSessionView, submit_key_label
from .points import format_points
from .question_view import QuestionView
from .rating_bar import RatingBar
from ..theme import Role, css


class PracticeView(PaperSessionView):
    """Practice on one paper: instant feedback, free navigation."""

    def __init__(self, paper: Paper, db: DbOps, session_id: int, *,
                 run: actions.OpenRun | None = None, title: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(paper, db, session_id, run=run, parent=parent)
        self.setObjectName("practice_view")
        self.answers: dict[str, AnswerRef] = {}  # stored answer per question id
        self.grades: dict[str, dict] = {}
        self.saving: set[str] = set()  # submitted, not yet stored
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

        self.submit_button = QPushButton(self.tr("Submit"))
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
    def restore(self, state: actions.OpenSession) -> None:
        for qid, submitted in state.submitted.items():
            self.answers[qid] = submitted.ref
            if submitted.grade is not None:
                self.grades[qid] = submitted.grade.to_json()
        super().restore(state)
        self._update_progress()

    def page_built(self, index: int, page: QuestionView) -> None:
        qid = page.question.id
        if isinstance(page.answer, ProgrammingAnswer):
            page.answer.check_when_locked = True  # re-checking is always allowed in practice
        if qid in self.answers:
            page.answer.set_locked(True)
            page.reveal(self.grades.get(qid))

    def _update_buttons(self, index: int = -1) -> None:
        page = self.current_page()
        if page is None:
            return
        qid = page.question.id
        submitted = qid in self.answers
        self.submit_button.setEnabled(not submitted and qid not in self.saving)
        # One submit key per answer type, named on the button (Ctrl+Enter submits any).
        self.submit_button.setText(self.tr("Submit (%1)").replace(
            "%1", submit_key_label(page.question)))
        self.marks_button.setVisible(submitted and page.answer.self_marked)

    def _update_progress(self) -> None:
        done = len(self.answers)
        points = sum(g.get("points", 0) for g in self.grades.values())
        self.progress.setText(self.tr("%1 of %2 answered · %3 points")
                              .replace("%1", str(done)).replace("%2", str(len(self.questions)))
                              .replace("%3", format_points(points)))

    def _page_of(self, question_id: str) -> QuestionView | None:
        return next((p for p in self.pages.values() if p.question.id == question_id), None)

    # --- submitting ----------------------------------------------------------------------
    def submit_shortcut(self) -> None:
        if self.submit_button.isEnabled():
            self.submit_current()

    def submit_current(self) -> None:
        """Grade and store the question on screen (one action, one transaction); the verdict,
        key and explanation appear once it is stored."""
        page = self.current_page()
        if page is None or page.question.id in self.answers or page.question.id in self.saving:
            return
        question = page.question
        if not page.answer.is_answered() and question.scored:
            page.verdict.setText("<i>" + self.tr("Answer first, then submit.") + "</i>")
            return
        self._draft_timer.stop()
        self._dirty.discard(question.id)  # the submit stores the draft too
        self._account_time()
        response = page.answer.response()
        self.responses[question.id] = response
        self.saving.add(question.id)
        page.answer.set_locked(True)
        self.keep_focus()  # not the console: the locked field gave it up
        page.verdict.setText("<i>" + self.tr("Saving…") + "</i>")
        self._update_buttons()
        self.db.run(actions.submit_practice_answer, paper=self.paper_of(question),
                    session_id=self.session_of(question), question=question,
                    response=response, seconds=self.seconds.get(question.id, 0.0),
                    on_done=lambda outcome, q=question: self._submitted(q, outcome),
                    on_error=lambda error, q=question: self._submit_failed(q, error))

    def _submitted(self, question: Question, outcome: actions.PracticeOutcome) -> None:
        self.saving.discard(question.id)
        self.answers[question.id] = outcome.answer
        self.grades[question.id] = outcome.grade.to_json()
        page = self._page_of(question.id)
        if page is not None:
            page.reveal(outcome.grade.to_json())
        self._rated(outcome)
        self._update_buttons()
        self._update_progress()
        self.keep_focus()

    def _submit_failed(self, question: Question, error: BaseException) -> None:
        """Nothing was stored (a full disk, say): the answer stays on screen, editable, and
        the learner is told; Submit works again once the problem is fixed."""
        self.saving.discard(question.id)
        page = self._page_of(question.id)
        if page is not None:
            page.answer.set_locked(False)
            page.verdict.setText(f"<span style='color:{css(Role.ERROR)}'><b>" + self.tr(
                "Not saved: your answer was not stored, so it was not graded. Fix the "
                "problem and submit again.") + "</b></span>")
        self._dirty.add(question.id)  # the draft is retried with the next save
        self._update_buttons()
        self.db.report(error)

    def _regrade(self, question: Question) -> None:
        """Self-marks or a check run changed a submitted answer: store its new grade and
        review (one action); the draft follows."""
        page = self._page_of(question.id)
        ref = self.answers.get(question.id)
        if page is None or ref is None:
            return
        self._dirty.discard(question.id)
        self.db.run(actions.regrade_practice_answer, paper=self.paper_of(question),
                    session_id=self.session_of(question), question=question, answer=ref,
                    response=page.answer.response(),
                    seconds=self.seconds.get(question.id, 0.0),
                    on_done=lambda outcome, q=question: self._regraded(q, outcome))

    def _regraded(self, question: Question, outcome: actions.PracticeOutcome) -> None:
        self.grades[question.id] = outcome.grade.to_json()
        page = self._page_of(question.id)
        if page is None:
            self._update_progress()
            return
        # Saving marks must not move what the learner is reading (the rubric).
        with page.keeping_in_view(page.answer):
            page.set_grade(outcome.grade.to_json())
            self._rated(outcome)
        self._update_progress()

    def save_marks(self) -> None:
        """Store the learner's rubric self-marks on the submitted answer."""
        page = self.current_page()
        if page is not None and page.question.id in self.answers:
            self._regrade(page.question)

    def checks_changed(self, answer: ProgrammingAnswer) -> None:
        """A check run on the code on screen: a submitted answer is regraded with it."""
        if answer.question.id in self.answers:
            self._regrade(answer.question)
        else:
            super().checks_changed(answer)

    def apply_changes(self, changes: Changes) -> None:
        """Another screen re-rated one of these questions: nothing shown here depends on
        it except the rating bar, which the next outcome refreshes."""

    # --- review schedule -----------------------------------------------------------------
    def _rated(self, outcome: actions.PracticeOutcome) -> None:
        """Show the rating examdesk chose and the next review date under the verdict."""
        card = outcome.card
        if card is None:  # pending self-marks or checks, or void: nothing scheduled yet
            return
        page = self._page_of(card.question_id)
        if page is None:
            return
        bar = self.rating_bars.get(card.question_id)
        if bar is None:
            bar = RatingBar(self.db, card.question_id)
            self.rating_bars[card.question_id] = bar
            page.feedback.layout().insertWidget(0, bar)
        bar.overridden = False  # a regrade (self-marks, checks) rates afresh
        bar.show_card(card)

    def leave(self, settings: QSettings) -> None:
        """Leaving: drafts are saved, and a run's sessions are finished."""
        if self.closed:
            return
        super().leave(settings)
        if self.run is not None:
            self.db.run(actions.finish_run, session_ids=list(self.run.sessions.values()))

