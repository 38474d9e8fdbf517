"""Practice: answer, submit, see the verdict, key, explanation and errata at once.

Submitting is one action (``actions.submit_practice_answer``): graded in the core, stored
with its draft and its review in one transaction; the verdict appears once it is stored, and
a refused write (a full disk) leaves the answer editable and says so. Subjective questions
reveal the reference answer and a rubric checklist; self-marks and check runs regrade the
stored answer (``actions.regrade_practice_answer``). Every graded answer is scheduled for
review; the rating chosen and the next review date show under the verdict, where the
learner can override them.

Beside the question, the navigator (答题卡) shows every question's mark and jumps anywhere
(``study.marks_of``, refreshed when an action touches these questions, and locally after
each submit). **Show answer** reveals the key without answering (``study.reveal_answer``:
scheduled as a miss, and the core refuses an answer after it, so the input is locked).
**Recite mode** (背题) shows key, explanation and errata at once with no input; "knew it" /
"didn't" (keys 1 / 2) rate it (``study.recite``). A star and a Markdown note belong to the
question on screen (``views/notes.py``).

A ``run`` practises chosen questions (wrong-answer book, today's reviews, a practice set)
in sessions of its own; a practice set's run stays open when the learner leaves (Continue
from the practice-set dialog) until Finish; the other runs are finished on leaving.
"""
from __future__ import annotations

import html
from typing import Iterable

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPushButton, QScrollArea, QSplitter,
                               QVBoxLayout, QWidget)

from question_db import actions, study
from question_db.changes import Changes
from question_db.enums import Mark, Verdict
from question_db.model import Paper, Question
from question_db.navigation import QuestionMark, mark_of_verdict
from question_db.store import AnswerRef

from ..config import Keys
from ..db import DbOps
from ..theme import Role, theme
from .answer_widgets import ProgrammingAnswer
from .navigator import Legend, Navigator, cell_labels, navigator_groups
from .notes import NotePanel, StarButton
from .paper_session import (SUBMIT_KEYS, PaperSessionView, console_kind,
                            submit_key_label)
from .points import format_points
from .question_view import QuestionView
from .rating_bar import RatingBar, due_text
from .steady_size import hold_widest

SEEN_MARKS = (Mark.REVEALED, Mark.RECITED)
SIDE_WIDTH = 250
RECITE_KEYS = {Qt.Key.Key_1: True, Qt.Key.Key_2: False}


class PracticeView(PaperSessionView):
    """Practice on one paper, or a run: instant feedback, free navigation."""

    sig_recite_changed = Signal(bool)
    """Recite mode (背题) was switched on or off: (on)."""

    def __init__(self, paper: Paper, db: DbOps, session_id: int, *,
                 run: actions.OpenRun | None = None, title: str | None = None,
                 recite: bool = False, finish_on_leave: bool = True,
                 parent: QWidget | None = None) -> None:
        super().__init__(paper, db, session_id, run=run, parent=parent)
        self.setObjectName("practice_view")
        self.answers: dict[str, AnswerRef] = {}  # stored answer per question id
        self.grades: dict[str, dict] = {}
        self.saving: set[str] = set()  # submitted, not yet stored
        self.revealing: set[str] = set()  # Show answer / recite sent, not yet stored
        self.seen: dict[str, Mark] = {}  # revealed or recited in this session
        self.rating_bars: dict[str, RatingBar] = {}
        self.recite = recite
        # A practice set's run stays open when left (Continue); the others end on leaving.
        self.finish_on_leave = finish_on_leave

        self.top_bar = QWidget()
        top = QHBoxLayout(self.top_bar)
        top.setContentsMargins(0, 0, 0, 0)
        self.back_button = QPushButton("← " + self.tr("Library"))
        self.back_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.back_button.clicked.connect(self.sig_leave)
        self.title_label = QLabel()
        self.title_label.setTextFormat(Qt.TextFormat.RichText)
        self._title = title or paper.title
        self.recite_button = QPushButton(self.tr("背题 Recite mode"))
        self.recite_button.setObjectName("recite_mode")
        self.recite_button.setCheckable(True)
        self.recite_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.recite_button.setToolTip(self.tr(
            "Recite mode: key, explanation and errata at once, no input; say whether you "
            "knew it (1) or not (2) and it is scheduled for review (Ctrl+R)"))
        self.recite_button.toggled.connect(self.set_recite)
        self.star = StarButton(db)
        self.progress = QLabel()
        self.finish_button = QPushButton(self.tr("Finish set"))
        self.finish_button.setObjectName("finish_set")
        self.finish_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.finish_button.setToolTip(self.tr(
            "End this practice set (scored over what you answered). Leave with “Library” "
            "instead to continue it later."))
        self.finish_button.clicked.connect(self.finish)
        self.finish_button.setVisible(run is not None and not finish_on_leave)
        for widget, stretch in ((self.back_button, 0), (self.title_label, 1),
                                (self.recite_button, 0), (self.star, 0), (self.progress, 0),
                                (self.finish_button, 0)):
            top.addWidget(widget, stretch)

        self.submit_button = QPushButton(self.tr("Submit"))
        self.submit_button.setObjectName("submit_answer")
        self.show_answer_button = QPushButton(self.tr("Show answer"))
        self.show_answer_button.setObjectName("show_answer")
        self.show_answer_button.setToolTip(self.tr(
            "See the key without answering (Ctrl+Shift+A): it comes back for review soon, "
            "as a miss, and this question can no longer be answered in this session"))
        self.marks_button = QPushButton(self.tr("Save self-marks"))
        self.marks_button.setObjectName("save_marks")
        self.knew_button = QPushButton(self.tr("Knew it (1)"))
        self.knew_button.setObjectName("recite_knew")
        self.didnt_button = QPushButton(self.tr("Didn't know (2)"))
        self.didnt_button.setObjectName("recite_didnt")
        for button in (self.submit_button, self.show_answer_button, self.marks_button,
                       self.knew_button, self.didnt_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.submit_button.clicked.connect(self.submit_current)
        self.show_answer_button.clicked.connect(self.show_answer)
        self.marks_button.clicked.connect(self.save_marks)
        self.knew_button.clicked.connect(lambda: self.recite_current(True))
        self.didnt_button.clicked.connect(lambda: self.recite_current(False))
        hold_widest(self.submit_button, lambda: [self._submit_text(key)
                                                 for key in SUBMIT_KEYS])
        self.actions_bar = QWidget()
        actions_layout = QHBoxLayout(self.actions_bar)
        actions_layout.setContentsMargins(0, 0, 0, 0)
        for button in (self.submit_button, self.show_answer_button, self.marks_button,
                       self.knew_button, self.didnt_button):
            actions_layout.addWidget(button)
        self.nav.insertWidget(3, self.actions_bar)

        self.notes = NotePanel(db)
        column = QWidget()
        column_layout = QVBoxLayout(column)
        column_layout.setContentsMargins(0, 0, 0, 0)
        column_layout.addWidget(self.question_area, 1)
        column_layout.addWidget(self.notes)

        self.navigator = Navigator(self.questions, navigator_groups(self.questions,
                                                                    self._papers),
                                   labels=cell_labels(self.questions, self._papers,
                                                      run=run is not None),
                                   papers=self._papers)
        self.navigator.sig_jump.connect(self.go_to)
        scroll = QScrollArea()
        scroll.setObjectName("navigator_scroll")
        scroll.setWidgetResizable(True)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        scroll.setWidget(self.navigator)
        self.navigator_scroll = scroll
        self.counts = QLabel()  # not wrapped: see navigator.legend_html
        self.counts.setObjectName("navigator_counts")
        side = QWidget()
        side.setMinimumWidth(self.navigator.minimumWidth() + 24)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 0, 0, 0)
        side_layout.addWidget(QLabel("<b>" + self.tr("Answer sheet") + "</b>"))
        side_layout.addWidget(scroll, 1)
        side_layout.addWidget(self.counts)
        side_layout.addWidget(Legend())
        self.side = side

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("practice_splitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(column)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.top_bar)
        layout.addWidget(self.splitter, 1)
        self.sig_current_changed.connect(self._current_changed)
        for sequence, slot in (("Ctrl+Shift+A", self.show_answer),
                               ("Ctrl+D", self.star.toggle),
                               ("Ctrl+R", self.recite_button.toggle)):
            shortcut = QShortcut(QKeySequence(sequence), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self.recite_button.blockSignals(True)
        self.recite_button.setChecked(recite)
        self.recite_button.blockSignals(False)
        self._show_title()
        self._update_counts()

    # --- state ---------------------------------------------------------------------------
    def set_unsaved(self, text: str) -> None:
        """A paper open for reading only (the data folder is read-only): ``text`` says so
        above the question; Submit, recite ratings, stars and notes are off, and Show answer
        shows the key without storing anything."""
        super().set_unsaved(text)
        banner = QLabel(text)
        banner.setObjectName("unsaved_banner")
        banner.setWordWrap(True)
        banner.setStyleSheet(f"QLabel {{ color: {theme().css(Role.TEXT)}; "
                             f"background: {theme().css(Role.WARNING_BG)}; "
                             f"border: 1px solid {theme().css(Role.WARNING_BORDER)}; "
                             "padding: 4px 6px; }")
        self.layout().insertWidget(1, banner)
        self.unsaved_banner = banner
        for widget in (self.star, self.notes):
            widget.setEnabled(False)
        self.submit_button.setToolTip(text)
        self._update_buttons()

    def restore_sessions(self, states: Iterable[actions.OpenSession]) -> None:
        states = list(states)
        for state in states:
            for qid, submitted in state.submitted.items():
                if qid in self._position:
                    self.answers[qid] = submitted.ref
                    if submitted.grade is not None:
                        self.grades[qid] = submitted.grade.to_json()
        super().restore_sessions(states)
        for index, q in enumerate(self.questions):
            self.navigator.set_flagged(index, q.id in self.flags)
            self._local_mark(index)
        self._update_progress()

    def enter(self, settings: QSettings) -> None:
        state = settings.value(Keys.PRACTICE_SPLITTER)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.splitter.restoreState(state)
        else:
            self.splitter.setSizes([max(1, self.width() - SIDE_WIDTH), SIDE_WIDTH])
        super().enter(settings)
        self.reload_marks()
        self.reload_personal()

    def open_at(self, question_id: str) -> None:
        """Open at this question (a search hit) instead of where the session was left."""
        if question_id in self._position:
            self._resume_index = self._position[question_id]

    def go_to_question(self, question_id: str) -> None:
        if question_id in self._position:
            self.go_to(self._position[question_id])

    def reload_marks(self) -> None:
        """The navigator's marks from the store (what is saved), then what is on screen."""
        if self.run is None and self.session_id == actions.UNSAVED_SESSION_ID:
            return  # a paper open only for reading: nothing of it is stored
        self.db.run(study.marks_of, papers=self._papers, sessions=self._sessions,
                    question_ids=[q.id for q in self.questions], on_done=self._marks_loaded)

    def reload_personal(self) -> None:
        self.db.run(study.personal, question_ids=[q.id for q in self.questions],
                    on_done=self._personal_loaded)

    def _personal_loaded(self, personal: study.Personal) -> None:
        if self.closed:
            return
        self.star.load(personal.starred)
        self.notes.load({qid: note.text for qid, note in personal.notes.items()})

    def _marks_loaded(self, marks: dict[str, QuestionMark]) -> None:
        if self.closed:
            return
        for index, q in enumerate(self.questions):
            found = marks.get(q.id)
            if found is None:
                continue
            if found.mark in SEEN_MARKS and q.id not in self.seen:
                self.seen[q.id] = found.mark
                page = self.pages.get(index)
                if page is not None:
                    self._show_seen(page)
            if q.id in self.answers or q.id in self.seen:
                self.navigator.set_mark(index, found.mark)
            else:
                self._local_mark(index)
        self._update_buttons()
        self._update_counts()

    def _local_mark(self, index: int) -> None:
        """A question with nothing stored but a draft: answered or not, as on screen."""
        q = self.questions[index]
        if not q.scored:
            mark = Mark.VOID if q.id not in self.grades else mark_of_verdict(
                self.grades[q.id].get("verdict"))
        elif q.id in self.grades:
            mark = mark_of_verdict(self.grades[q.id].get("verdict"))
        elif q.id in self.answers:
            return  # stored without a grade in hand: the store's mark stands
        elif q.id in self.seen:
            mark = self.seen[q.id]
        else:
            mark = Mark.ANSWERED if self.is_answered(index) else Mark.UNANSWERED
        self.navigator.set_mark(index, mark)

    def page_built(self, index: int, page: QuestionView) -> None:
        qid = page.question.id
        if isinstance(page.answer, ProgrammingAnswer):
            page.answer.check_when_locked = True  # re-checking is always allowed in practice
        if qid in self.answers:
            page.answer.set_locked(True)
            page.reveal(self.grades.get(qid))
        elif qid in self.seen:
            self._show_seen(page)
        elif self.recite:
            self._show_for_recite(page)

    def _show_seen(self, page: QuestionView) -> None:
        """A question whose key was shown (or recited) in this session: key, no input."""
        if page.question.id in self.answers:
            return
        page.answer.set_locked(True)
        if not page.revealed:
            page.reveal(None)
        page.verdict.setText(self._seen_text(self.seen.get(page.question.id)))

    def _show_for_recite(self, page: QuestionView) -> None:
        page.answer.set_locked(True)
        if not page.revealed:
            page.reveal(self.grades.get(page.question.id))
        if isinstance(page.answer, ProgrammingAnswer):
            page.answer.show_reference()  # what is recited is the solution, not the starter

    def _seen_text(self, mark: Mark | None) -> str:
        color = theme().css(Role.MUTED)
        if mark == Mark.RECITED:
            text = self.tr("Recited: scheduled by what you said.")
        elif self.unsaved:
            text = self.tr("Answer shown (read only: nothing is scheduled or saved).")
        else:
            text = self.tr("Answer shown without answering: not graded, and it comes back "
                           "for review soon (as a miss).")
        return f"<span style='color:{color}'><i>{text}</i></span>"

    def _current_changed(self, index: int) -> None:
        self.navigator.set_current(index)
        self._scroll_navigator_to(index)
        qid = self.question_id(index)
        self.star.show_question(qid)
        self.notes.show_question(qid)
        self._update_buttons()

    def _scroll_navigator_to(self, index: int) -> None:
        """Keep the current cell in view: while it is, nothing moves; when it is not, the
        sheet turns most of a page in the direction of travel (the cell's row to the top
        going forward, to the bottom going back), not a row at a time. A scroll repaints
        the whole side panel: row by row, one switch in ten of a 200-question set
        scrolled, a third of the slowest twentieth (bench question_switch)."""
        rect = self.navigator.cell_rect(index)
        bar = self.navigator_scroll.verticalScrollBar()
        height = self.navigator_scroll.viewport().height()
        top = bar.value()
        margin = rect.height() // 2  # a glimpse of the row before (or after)
        if rect.top() - margin < top:  # above the view: back, or a jump
            bar.setValue(rect.bottom() + margin - height)
        elif rect.bottom() + margin > top + height:  # below the view: forward, or a jump
            bar.setValue(rect.top() - margin)

    def _update_buttons(self, index: int = -1) -> None:
        page = self.current_page()
        if page is None:
            return
        q = page.question
        qid = q.id
        submitted = qid in self.answers
        busy = qid in self.saving or qid in self.revealing
        practice = not self.recite
        self.submit_button.setVisible(practice)
        self.show_answer_button.setVisible(practice)
        self.submit_button.setEnabled(not submitted and not busy and qid not in self.seen
                                      and not self.unsaved)
        # One submit key per answer type, named on the button (Ctrl+Enter submits any).
        self.submit_button.setText(self._submit_text(submit_key_label(q)))
        self.show_answer_button.setEnabled(q.scored and not submitted and not busy
                                           and qid not in self.seen)
        self.marks_button.setVisible(practice and submitted and page.answer.self_marked)
        can_recite = q.scored and not busy and self.seen.get(qid) != Mark.REVEALED \
            and not self.unsaved
        for button in (self.knew_button, self.didnt_button):
            button.setVisible(self.recite)
            button.setEnabled(can_recite)

    def _submit_text(self, key: str) -> str:
        return self.tr("Submit (%1)").replace("%1", key)

    def _update_progress(self) -> None:
        done = len(self.answers)
        points = sum(g.get("points", 0) for g in self.grades.values())
        self.progress.setText(self.tr("%1 of %2 answered · %3 points")
                              .replace("%1", str(done)).replace("%2", str(len(self.questions)))
                              .replace("%3", format_points(points)))
        self._update_counts()

    def _update_counts(self) -> None:
        counts = self.navigator.counts()
        left = counts[Mark.UNANSWERED] + counts[Mark.ANSWERED]
        self.counts.setText(self.tr("✓ %1 right · ◐ %2 · ✗ %3 wrong · %4 to do")
                            .replace("%1", str(counts[Mark.RIGHT]))
                            .replace("%2", str(counts[Mark.PARTLY]))
                            .replace("%3", str(counts[Mark.WRONG])).replace("%4", str(left)))

    def _show_title(self) -> None:
        mode = self.tr("Recite (背题)") if self.recite else self.tr("Practice")
        self.title_label.setText(f"<b>{html.escape(self._title)}</b> — {mode}")

    def _page_of(self, question_id: str) -> QuestionView | None:
        index = self._position.get(question_id)
        return self.pages.get(index) if index is not None else None

    # --- hooks of the base screen ---------------------------------------------------------
    def saves_time(self, question_id: str) -> bool:
        """Not for a question submitted (or being submitted) here: its time went with the
        answer, and reading the key afterwards is not time on the answer (drafts keep time
        only to restore it; statistics read the answers')."""
        return question_id not in self.answers and question_id not in self.saving

    def answer_changed(self, index: int) -> None:
        self._local_mark(index)

    def flag_changed(self, index: int, flagged: bool) -> None:
        self.navigator.set_flagged(index, flagged)

    # --- submitting ----------------------------------------------------------------------
    def submit_shortcut(self) -> None:
        if not self.recite and self.submit_button.isEnabled():
            self.submit_current()

    def submit_current(self) -> None:
        """Grade and store the question on screen (one action, one transaction); the verdict,
        key and explanation appear once it is stored."""
        page = self.current_page()
        if page is None or self.recite or self.unsaved or page.question.id in self.answers \
                or page.question.id in self.saving or page.question.id in self.seen:
            return
        question = page.question
        if not page.answer.is_answered() and question.scored:
            page.verdict.setText("<i>" + self.tr("Answer first, then submit.") + "</i>")
            return
        # The submit stores this question's draft and time too; the other questions'
        # pending saves, and the position after a move, stay due (issue 28: stopping the
        # shared timer here left another question's edit unsaved until the next move).
        # Once it is saving, no time save follows for it (saves_time; issue 27).
        self._dirty.discard(question.id)
        self._time_dirty.discard(question.id)
        if not self._dirty and not self._time_dirty and not self.position_due():
            self._draft_timer.stop()
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
                    on_error=lambda error, q=question: self._submit_failed(q, error),
                    initiator=self)

    def _submitted(self, question: Question, outcome: actions.PracticeOutcome) -> None:
        self.saving.discard(question.id)
        self.answers[question.id] = outcome.answer
        self.grades[question.id] = outcome.grade.to_json()
        if self.closed:
            return
        page = self._page_of(question.id)
        if page is not None:
            page.reveal(outcome.grade.to_json())
            self._check_submitted_code(page, outcome.grade.verdict)
        self.navigator.set_mark(self._position[question.id],
                                mark_of_verdict(outcome.grade.verdict))
        self._rated(outcome)
        self._update_buttons()
        self._update_progress()
        self.keep_focus()

    def _check_submitted_code(self, page: QuestionView, verdict: str) -> None:
        """Code submitted without results for exactly that code (never checked, or edited
        since): its checks run now and their result scores it (``checks_changed``)."""
        answer = page.answer
        if not isinstance(answer, ProgrammingAnswer) or verdict != Verdict.PENDING \
                or not answer.has_check_suite or answer.results_current():
            return
        if answer.can_check():
            answer.request_check()
            note = self.tr("Checking the code you submitted: its result scores it.")
        else:
            note = self.tr("Not scored yet: no check ran on this code. Press Check when "
                           "the console is ready; its result scores this answer.")
        page.verdict.setText(page.verdict.text() + "<br/><i>" + note + "</i>")

    def _submit_failed(self, question: Question, error: BaseException) -> None:
        """Nothing was stored (a full disk, say): the answer stays on screen, editable, and
        the learner is told; Submit works again once the problem is fixed. An answer the
        core refused because the key was shown here stays locked, with the key."""
        self.saving.discard(question.id)
        if isinstance(error, actions.AnswerShown):
            self.seen.setdefault(question.id, Mark.REVEALED)
            page = self._page_of(question.id)
            if page is not None and not self.closed:
                self._show_seen(page)
                self.navigator.set_mark(self._position[question.id], self.seen[question.id])
                self._update_buttons()
            return
        page = self._page_of(question.id)
        if page is not None and not self.closed:
            page.answer.set_locked(False)
            page.verdict.setText(f"<span style='color:{theme().css(Role.ERROR)}'><b>" + self.tr(
                "Not saved: your answer was not stored, so it was not graded. Fix the "
                "problem and submit again.") + "</b></span>")
            self._update_buttons()
        self._dirty.add(question.id)  # the draft is retried with the next save
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
                    on_done=lambda outcome, q=question: self._regraded(q, outcome),
                    initiator=self)

    def _regraded(self, question: Question, outcome: actions.PracticeOutcome) -> None:
        self.grades[question.id] = outcome.grade.to_json()
        if self.closed:
            return
        self.navigator.set_mark(self._position[question.id],
                                mark_of_verdict(outcome.grade.verdict))
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

    # --- Show answer, recite -------------------------------------------------------------
    def show_answer(self) -> None:
        """The key without answering: scheduled once as a miss; no answer here after it."""
        page = self.current_page()
        if page is None or self.recite or not self.show_answer_button.isEnabled():
            return
        question = page.question
        if self.unsaved:  # reading only: the key is shown, nothing is scheduled or stored
            self._revealed(question, study.Revealed(card=None, scheduled=False,
                                                    changes=Changes()))
            return
        self.revealing.add(question.id)
        page.answer.set_locked(True)
        self._update_buttons()
        self.db.run(study.reveal_answer, session_id=self.session_of(question),
                    question=question,
                    on_done=lambda result, q=question: self._revealed(q, result),
                    on_error=lambda error, q=question: self._reveal_failed(q, error),
                    initiator=self)

    def _revealed(self, question: Question, result: study.Revealed) -> None:
        self.revealing.discard(question.id)
        self.seen[question.id] = Mark.REVEALED
        if self.closed:
            return
        self.navigator.set_mark(self._position[question.id], Mark.REVEALED)
        page = self._page_of(question.id)
        if page is not None:
            self._show_seen(page)
            if result.card is not None:
                page.verdict.setText(page.verdict.text() + "<br/><small>" + self.tr(
                    "next review") + f" <b>{due_text(result.card.due)}</b></small>")
        self._update_buttons()
        self._update_counts()

    def _reveal_failed(self, question: Question, error: BaseException) -> None:
        self.revealing.discard(question.id)
        page = self._page_of(question.id)
        if page is not None and not self.closed:
            page.answer.set_locked(False)
            self._update_buttons()
        self.db.report(error)

    def set_recite(self, on: bool) -> None:
        """Recite mode on: every page shows its key, no input. Off: the pages shown only
        for reciting are built again, answerable (a question recited stays recited)."""
        if on == self.recite:
            return
        self.save_drafts()
        self.recite = on
        if self.recite_button.isChecked() != on:
            self.recite_button.blockSignals(True)
            self.recite_button.setChecked(on)
            self.recite_button.blockSignals(False)
        if on:
            for page in self.pages.values():
                if page.question.id not in self.answers and page.question.id not in self.seen:
                    self._show_for_recite(page)
        else:
            self._rebuild_pages([i for i, page in self.pages.items()
                                 if page.question.id not in self.answers
                                 and page.question.id not in self.seen])
        self._show_title()
        self._update_buttons()
        self.keep_focus()
        self.sig_recite_changed.emit(on)

    def keep_page(self, index: int) -> bool:
        qid = self.question_id(index)
        return qid in self.saving or qid in self.revealing or super().keep_page(index)

    def page_dropped(self, index: int, page: QuestionView) -> None:
        self.rating_bars.pop(page.question.id, None)  # it lived on that page

    def _rebuild_pages(self, indices: list[int]) -> None:
        current = self.current
        for index in indices:
            self.drop_page(index)
        if current in indices:
            self._account_time()
            page = self.page(current)
            self._follow_layout(page)
            self.stack.setCurrentWidget(page)
            self.sig_console_kind.emit(console_kind(page.question))
        if len(self.pages) < len(self.questions) and not self._prebuild_timer.isActive():
            self._prebuild_timer.start()

    def recite_current(self, knew: bool) -> None:
        """背题: the learner knew the question on screen (Good) or not (Again)."""
        page = self.current_page()
        if page is None or not self.recite or self.unsaved or not self.knew_button.isEnabled():
            return
        question = page.question
        self.revealing.add(question.id)
        self._update_buttons()
        self.db.run(study.recite, question=question, knew=knew,
                    session_id=self.session_of(question),
                    on_done=lambda result, q=question: self._recited(q, result),
                    on_error=lambda error, q=question: self._reveal_failed(q, error),
                    initiator=self)

    def _recited(self, question: Question, result: study.Recited) -> None:
        self.revealing.discard(question.id)
        if result.rating is not None:
            self.seen[question.id] = Mark.RECITED
        if self.closed:
            return
        index = self._position[question.id]
        if question.id not in self.answers and result.rating is not None:
            self.navigator.set_mark(index, Mark.RECITED)
        page = self._page_of(question.id)
        if page is not None and question.id not in self.answers:
            text = self._seen_text(self.seen.get(question.id))
            if result.card is not None:
                text += "<br/><small>" + self.tr("next review") + \
                    f" <b>{due_text(result.card.due)}</b></small>"
            page.verdict.setText(text)
        self._update_buttons()
        self._update_counts()
        if result.rating is not None and index == self.current:
            self.go_to(index + 1)  # on to the next one, as a flash-card deck does

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if self.recite and mods == Qt.KeyboardModifier.NoModifier \
                and event.key() in RECITE_KEYS:
            self.recite_current(RECITE_KEYS[event.key()])
            return
        super().keyPressEvent(event)

    # --- changes from elsewhere ----------------------------------------------------------
    def refresh_from(self, changes: Changes, *, initiator: object | None) -> None:
        """Marks follow what was stored about these questions elsewhere (a rating, the
        wrong-answer book, an import); stars and notes follow an import or a restore. What
        this screen stored itself (submit, regrade, Show answer, recite) its callbacks
        have already marked: no ``marks_of`` for it."""
        if self.closed:
            return
        if changes.everything:
            self.reload_marks()
            self.reload_personal()
        elif initiator is not self and changes.questions \
                and any(q in self._position for q in changes.questions):
            self.reload_marks()

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

    def finish(self) -> None:
        """Finish set: the run ends (scored over what was answered), back to the library."""
        self.finish_on_leave = True
        self.sig_leave.emit()

    def leave(self, settings: QSettings) -> None:
        """Leaving: drafts, the note and the position are saved; a run that is not a
        practice set's (or one the learner finished) is finished."""
        if self.closed:
            return
        settings.setValue(Keys.PRACTICE_SPLITTER, self.splitter.saveState())
        self.notes.flush()
        super().leave(settings)
        if self.run is not None and self.finish_on_leave:
            self.db.run(actions.finish_run, session_ids=list(self.run.sessions.values()))
