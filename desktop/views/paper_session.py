"""What practice and exam screens share: one page per question, navigation, flags, time per
question, keyboard shortcuts and debounced draft autosave.

Nothing the learner types is kept only in a widget for long: every change marks the
question dirty and a single-shot timer saves drafts within a second (``DRAFT_DELAY_MS``).
The timer is not restarted by later keystrokes: someone typing without a pause still has a
draft saved every ``DRAFT_DELAY_MS`` (a kill -9 loses less than a second of typing;
tests/test_faults_kill.py). A save the disk refuses leaves the question dirty, so the next
save tries it again; the text stays on screen meanwhile.

Time is accounted continuously: every ``TIME_SAVE_MS`` the question on screen is saved with
its running total, so a kill loses at most the last second of it.

Where the learner is goes to the session's own ``position`` (``study.set_position``) with the
save that follows a move (within ``DRAFT_DELAY_MS``) and on leaving; a session (a run, the
library's Continue) reopens there (tests/test_faults_kill_time.py). It is not derived from
which draft was saved last: the save after a move writes the question *left* (its time),
and leaving saves the edited questions in id order, so "newest draft" is often not the
question on screen.
"""
from __future__ import annotations

import logging
import time
from typing import Iterable

from PySide6.QtCore import (QByteArray, QCoreApplication, QEvent, QSettings, QSize, Qt, QTimer,
                            Signal)
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from question_db import actions, study
from question_db.enums import CHOICE_TYPES, QuestionType
from question_db.grading import response_answered
from question_db.model import Paper, Question
from question_db.responses import Response

from ..config import Keys
from ..db import DbOps
from .answer_widgets import ProgrammingAnswer
from .attempt_history import AttemptHistoryDialog
from ..idle_gc import collect_soon
from .question_view import QuestionView
from .screen import Screen
from .steady_size import hold_widest

log = logging.getLogger(__name__)
DRAFT_DELAY_MS = 500  # with the store write, well inside the second we promise
TIME_SAVE_MS = 1000  # the time on the question on screen reaches the file this often
# Screens up to PREBUILD_ALL questions build every page while the learner reads; longer
# ones (a practice set over many papers) only the pages around the current one, and keep
# at most MAX_PAGES: a page switch in Qt's stack cost more the more widgets the window
# held (measured: 0.2 ms with 20 simple pages, 7.5 ms with 400; bench question_switch).
PREBUILD_ALL = MAX_PAGES = 40
PREBUILD_AHEAD, PREBUILD_BEHIND = 24, 8
NAV_KEYS_NEXT = (Qt.Key.Key_Right, Qt.Key.Key_PageDown)
NAV_KEYS_PREV = (Qt.Key.Key_Left, Qt.Key.Key_PageUp)


RESULTS_SPLITTER_KEYS = tuple(f"{Keys.WORKSPACE_RESULTS_SPLITTER}/{kind}"
                              for kind in ("checked", "self_marked"))


def workspace_splitters(page: QuestionView) -> list[tuple[QSplitter, str]]:
    """A code page's splitters with the settings key each is remembered under: problem |
    code for all, editor / results per kind (with a check suite or self-marked)."""
    answer = page.answer
    kind = RESULTS_SPLITTER_KEYS[0 if answer.has_check_suite else 1]
    return [(page.workspace_splitter, Keys.WORKSPACE_SPLITTER), (answer.results_splitter, kind)]


def typing_in_editor(widget: QWidget | None) -> bool:
    """True while the focus is in a text field: arrows and letters belong to it then."""
    return isinstance(widget, (QLineEdit, QPlainTextEdit, QTextEdit))


def submits_on_enter(question: Question) -> bool:
    """One submit key per answer type: Enter where an answer is a pick or a line (choice,
    fill-in); Ctrl+Enter where Enter is a new line (working, essays, code). Ctrl+Enter
    submits every type."""
    return question.type in CHOICE_TYPES or question.type == QuestionType.FILL_BLANK


def console_kind(question: Question) -> str:
    """'code', 'verify' or 'other': how the console is placed for ``question``."""
    if question.type == QuestionType.PROGRAMMING:
        return "code"
    return "verify" if question.verify is not None else "other"


SUBMIT_KEYS = ("Enter", "Ctrl+Enter")


def submit_key_label(question: Question) -> str:
    return SUBMIT_KEYS[0] if submits_on_enter(question) else SUBMIT_KEYS[1]


class PageHolder(QWidget):
    """Holds the page stack without a layout: a page built or taken off lays out the
    stack only.

    A page shown or hidden asks every enclosing layout to lay out again (a LayoutRequest up
    to the window). Beside a navigator, a note panel and a side panel that made a question
    switch cost ~6 ms more CPU (bench question_switch, big bank, with a ``QStackedWidget``);
    the stack here is sized by hand, so the request stops at it.
    """

    def __init__(self, stack: QStackedWidget) -> None:
        super().__init__()
        stack.setParent(self)
        self.stack = stack
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(640, 480)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(240, 160)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.stack.setGeometry(self.rect())
        super().resizeEvent(event)


class PaperSessionView(Screen):
    """Base screen for a practice or exam session on one paper, or for a practice ``run``
    over chosen questions (which may span papers: a session per paper)."""

    sig_current_changed = Signal(int)
    """The question on screen changed: (index in the paper)."""

    def __init__(self, paper: Paper, db: DbOps, session_id: int, *,
                 run: actions.OpenRun | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paper = paper
        self.db = db
        self.session_id = session_id
        self.run = run
        self.questions: tuple[Question, ...] = run.questions if run else paper.questions
        self._position = {q.id: i for i, q in enumerate(self.questions)}
        self._papers = run.papers if run else {paper.id: paper}
        self._sessions = run.sessions if run else {paper.id: session_id}
        self.pages: dict[int, QuestionView] = {}
        self._layout: dict[str, object] = {}  # splitter states of the code workspace
        self.attempt_dialog: AttemptHistoryDialog | None = None
        self.responses: dict[str, Response] = {}  # saved responses of pages not built yet
        self.flags: set[str] = set()
        self.seconds: dict[str, float] = {}
        self.console_available = False
        self.current = -1
        # where enter() opens: the question the session (or run) was left on
        self._resume_index = self._position.get((run.position if run else None) or "", 0)
        self._stored_position: dict[int, str] = {}  # per session: the position written
        self._entered_at = time.monotonic()
        self._dirty: set[str] = set()  # edited since their last save
        self._time_dirty: set[str] = set()  # left since their time was last saved
        # Nothing of this session can be stored (a read-only data folder): the screen is for
        # reading, and writes are never attempted, so no "not saved" warning follows each
        # keystroke (set_unsaved; issue 28, item 15).
        self.unsaved = False
        self.closed = False
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(DRAFT_DELAY_MS)
        self._draft_timer.timeout.connect(self.save_drafts)
        self._time_timer = QTimer(self)
        self._time_timer.setInterval(TIME_SAVE_MS)
        self._time_timer.timeout.connect(self.save_time)
        # Pages are built while the learner reads (one per idle event-loop turn), so moving
        # to another question only swaps the stack (bench: question_switch).
        self._prebuild_timer = QTimer(self)
        self._prebuild_timer.setInterval(0)
        self._prebuild_timer.timeout.connect(self._prebuild_one)

        self.stack = QStackedWidget()
        self.stack.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.position = QLabel()
        # Explicit context: self.tr() would look these up under the subclass's name.
        translate = QCoreApplication.translate
        self.prev_button = QPushButton("◀ " + translate("PaperSessionView", "Previous"))
        self.next_button = QPushButton(translate("PaperSessionView", "Next") + " ▶")
        self.flag_button = QPushButton("⚑ " + translate("PaperSessionView", "Flag"))
        self.flag_button.setCheckable(True)
        self.flag_button.setToolTip(translate(
            "PaperSessionView", "Flag this question to come back to it (Ctrl+F)"))
        for button in (self.prev_button, self.next_button, self.flag_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.prev_button.clicked.connect(lambda: self.go_to(self.current - 1))
        self.next_button.clicked.connect(lambda: self.go_to(self.current + 1))
        self.flag_button.clicked.connect(lambda: self.toggle_flag())

        count = len(self.questions)
        hold_widest(self.position, lambda: [f"{str(d) * len(str(count))} / {count}"
                                            for d in range(10)])

        self.nav = QHBoxLayout()
        self.nav.addWidget(self.prev_button)
        self.nav.addWidget(self.position)
        self.nav.addWidget(self.next_button)
        self.nav.addStretch(1)
        self.nav.addWidget(self.flag_button)

        self.question_area = QWidget()
        area = QVBoxLayout(self.question_area)
        area.setContentsMargins(0, 0, 0, 0)
        area.addWidget(PageHolder(self.stack), 1)
        area.addLayout(self.nav)

        # Ctrl+F flags wherever the focus is in the window (it once went to the console and
        # the flag was lost); Ctrl+Enter stays in the screen: the console runs code with it.
        for sequence, slot, context in (
                (QKeySequence("Ctrl+F"), self.toggle_flag, Qt.ShortcutContext.WindowShortcut),
                (QKeySequence("Ctrl+Return"), self.submit_shortcut,
                 Qt.ShortcutContext.WidgetWithChildrenShortcut),
                (QKeySequence("Ctrl+Enter"), self.submit_shortcut,
                 Qt.ShortcutContext.WidgetWithChildrenShortcut)):
            shortcut = QShortcut(sequence, self)
            shortcut.setContext(context)
            shortcut.activated.connect(slot)

    # --- state ---------------------------------------------------------------------------
    def set_unsaved(self, text: str) -> None:
        """Nothing here can be saved (``text`` says why): no write is attempted from now."""
        self.unsaved = True
        self._dirty.clear()
        self._time_dirty.clear()
        self._draft_timer.stop()
        self._time_timer.stop()

    def restore(self, state: actions.OpenSession) -> None:
        """Put back what a previous run of this session saved (the newer of draft and
        answer per question)."""
        self.restore_sessions([state])

    def restore_sessions(self, states: Iterable[actions.OpenSession]) -> None:
        """``restore`` for every session of the screen (a run has one per paper); a run
        reopens where the run was left, a paper where its session was."""
        flags: set[str] = set()
        for state in states:
            mine = self._position
            self.responses.update({k: v for k, v in state.responses.items() if k in mine})
            self.seconds.update({k: v for k, v in state.seconds.items() if k in mine})
            flags |= {qid for qid in state.flags if qid in mine}
            if state.position in mine:
                self._stored_position[state.session.id] = state.position
                if self.run is None:
                    self._resume_index = mine[state.position]
        self.flags = flags
        for page in self.pages.values():
            self._load_page(page)

    def question_id(self, index: int) -> str:
        return self.questions[index].id

    def paper_of(self, question: Question) -> Paper:
        """The paper ``question`` is shown and graded in: a run's spans papers; a composed
        mock exam's questions keep their bank paper id, but belong to its paper."""
        return self._papers[question.paper_id] if self.run is not None else self.paper

    def session_of(self, question: Question) -> int:
        """The session a question's answers, drafts and flags are stored in."""
        return self._sessions[question.paper_id] if self.run is not None else self.session_id

    def response(self, index: int) -> Response | None:
        """The learner's current response to question ``index`` (on screen or saved)."""
        page = self.pages.get(index)
        if page is not None:
            return page.answer.response()
        return self.responses.get(self.question_id(index))

    def is_answered(self, index: int) -> bool:
        page = self.pages.get(index)
        if page is not None:
            return page.answer.is_answered()
        return response_answered(self.questions[index], self.responses.get(
            self.question_id(index)))

    def page(self, index: int) -> QuestionView:
        """The page of question ``index``, built on first use."""
        if index not in self.pages:
            question = self.questions[index]
            paper = self.paper_of(question)
            page = QuestionView(question, paper.section_of(question), index=index,
                                total=len(self.questions),
                                paper_title=paper.title if len(self._papers) > 1 else "")
            self.pages[index] = page
            self.stack.addWidget(page)
            self._load_page(page)
            page.answer.sig_changed.connect(lambda i=index: self.mark_changed(i))
            if isinstance(page.answer, ProgrammingAnswer):
                self._build_workspace(page)
            # With the question id: a verify snippet is the pack's code (trust is per pack).
            page.sig_verify_requested.connect(
                lambda source, q=question.id: self.sig_verify_requested.emit(q, source))
            page.set_console_available(self.console_available)
            self.page_built(index, page)
        return self.pages[index]

    def _build_workspace(self, page: QuestionView) -> None:
        """A programming page: its Run / Check / History, the exam's rules, the splitters
        where the learner left them, and how many attempts it has."""
        answer = page.answer
        answer.sig_run_requested.connect(self.sig_run_requested)
        answer.sig_check_requested.connect(self.sig_check_requested)
        answer.sig_history_requested.connect(lambda q=page.question: self.show_attempts(q))
        answer.set_checks_allowed(self.checks_allowed())
        answer.set_console_available(self.console_available)
        for splitter, key in workspace_splitters(page):
            state = self._layout.get(key)
            if isinstance(state, QByteArray) and not state.isEmpty():
                splitter.restoreState(state)
            splitter.splitterMoved.connect(
                lambda _pos, _i, sp=splitter, k=key: self._layout.__setitem__(k, sp.saveState()))
        page.set_problem_shown(not self._problem_hidden())
        page.sig_problem_shown.connect(
            lambda shown: self._layout.__setitem__(Keys.WORKSPACE_PROBLEM_HIDDEN, not shown))
        self.db.run(actions.check_attempts, question_id=page.question.id,
                    on_done=answer.set_attempts)

    def _follow_layout(self, page: QuestionView) -> None:
        """Moving a splitter on one code page moves it on the others (one workspace)."""
        if page.workspace_splitter is None:
            return
        for splitter, key in workspace_splitters(page):
            state = self._layout.get(key)
            if isinstance(state, QByteArray) and state != splitter.saveState():
                splitter.restoreState(state)
        page.set_problem_shown(not self._problem_hidden())

    def _problem_hidden(self) -> bool:
        # QSettings gives back a bool written by this run, "true"/"false" read from a file
        return str(self._layout.get(Keys.WORKSPACE_PROBLEM_HIDDEN)).lower() == "true"

    def checks_allowed(self) -> bool:
        """Whether Run / Check work on this screen now (a closed-book exam: no)."""
        return True

    def show_attempts(self, question: Question) -> None:
        """The question's earlier check attempts, to open, diff or put back."""
        def show(attempts: list) -> None:
            answer = self.programming_answer(question.id)
            if self.closed or answer is None:
                return
            dialog = AttemptHistoryDialog(attempts, answer.code(),
                                          can_restore=not answer.locked, parent=self.window())
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dialog.sig_restore.connect(answer.replace_code)
            self.attempt_dialog = dialog
            dialog.open()
        self.db.run(actions.check_attempts, question_id=question.id, on_done=show)

    def _load_page(self, page: QuestionView) -> None:
        qid = page.question.id
        if qid in self.responses:
            page.answer.set_response(self.responses[qid])
        page.set_flagged(qid in self.flags)

    def page_built(self, index: int, page: QuestionView) -> None:
        """Hook for subclasses: a page was just built and loaded."""

    # --- navigation and time -------------------------------------------------------------
    def _account_time(self) -> None:
        now = time.monotonic()
        if 0 <= self.current < len(self.questions):
            qid = self.question_id(self.current)
            self.seconds[qid] = self.seconds.get(qid, 0.0) + (now - self._entered_at)
        self._entered_at = now

    def go_to(self, index: int) -> None:
        if not 0 <= index < len(self.questions) or index == self.current:
            return
        self._account_time()
        if 0 <= self.current < len(self.questions) and not self.closed:
            # The time spent on the question left goes with the next draft save (within
            # DRAFT_DELAY_MS), not now: a switch stays a stack swap (bench: question_switch).
            # That save also stores the new position, so it is due even when the time is not.
            left = self.question_id(self.current)
            if self.saves_time(left):
                self._time_dirty.add(left)
            if not self._draft_timer.isActive():
                self._draft_timer.start()
        if not self.closed:
            self._time_timer.start()  # the next time save is a full second on this one
        self.current = index
        page = self.page(index)
        self._follow_layout(page)
        self.stack.setCurrentWidget(page)
        page.verticalScrollBar().setValue(0)
        self.position.setText(f"{index + 1} / {len(self.questions)}")
        self.prev_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < len(self.questions) - 1)
        self.flag_button.setChecked(self.question_id(index) in self.flags)
        if (len(self.pages) < len(self.questions) or len(self.pages) > MAX_PAGES) \
                and not self._prebuild_timer.isActive():
            self._prebuild_timer.start()  # stops by itself when nothing near is missing
        # Focus the screen, not a field: ←/→ and A–D work at once; a click starts typing.
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.sig_current_changed.emit(index)
        self.sig_console_kind.emit(console_kind(page.question))
        collect_soon()  # a garbage collection due runs after this switch, not in the next

    def _prebuild_one(self) -> None:
        """Build the unbuilt page nearest after the current one; stop when all exist (a
        long run, say a practice set over the whole bank: when the pages near the current
        one exist; jumping further builds on arrival)."""
        n = len(self.questions)
        start = max(self.current, 0)
        if n <= PREBUILD_ALL:
            order = [(start + k) % n for k in range(n)]
        else:
            order = [*range(start, min(n, start + PREBUILD_AHEAD)),
                     *range(max(0, start - PREBUILD_BEHIND), start)]
        if len(self.pages) > MAX_PAGES and not self.closed:
            near = set(order)
            far = [i for i in self.pages if i not in near and not self.keep_page(i)]
            if far:
                self.drop_page(max(far, key=lambda i: abs(i - start)))
                return
        missing = next((i for i in order if i not in self.pages), None)
        if missing is None or self.closed:
            self._prebuild_timer.stop()
            return
        self._warm(self.page(missing))

    def _warm(self, page: QuestionView) -> None:
        """Do now, while the learner reads, what a page costs the first time it is on screen
        (its style polish and layout at the stack's size, its text drawn once), so the
        switch to it only shows it."""
        if page is self.stack.currentWidget():
            return
        page.ensurePolished()
        page.resize(self.stack.size())
        page.layout().activate()
        inner = page.scroll.widget()
        inner.resize(page.scroll.viewport().width(), inner.heightForWidth(
            page.scroll.viewport().width()) if inner.hasHeightForWidth()
            else inner.sizeHint().height())
        inner.layout().activate()
        # Scroll areas decide their bars on the layout requests the show posted (a bar
        # that appears posts another round) and in a queued call (a code editor whose
        # lines are wider than it: its horizontal bar, 14 px off the viewport): settled
        # now, so the text is laid out at the size it will have on screen.
        areas = page.findChildren(QAbstractScrollArea)
        for _ in range(3):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            for area in areas:
                QCoreApplication.sendPostedEvents(area, QEvent.Type.MetaCall)
        # And the whole page painted once, into a pixmap nobody keeps (~1 ms, up to 4 for a
        # long page): what a widget's first paint costs once is paid now, while the learner
        # reads (PySide looks up each virtual's Python override per object, Qt sets up its
        # painter per widget). The first switch to a page built ahead: 8 % fewer
        # instructions (callgrind, a 200-question set), ~12 % less time.
        page.grab()

    def keep_page(self, index: int) -> bool:
        """Whether page ``index`` must stay built (its checks are running); subclasses add
        their own reasons."""
        answer = self.pages[index].answer
        return isinstance(answer, ProgrammingAnswer) and answer.checked_code is not None

    def drop_page(self, index: int) -> None:
        """Take page ``index`` apart (it is built again when needed); what it shows is kept
        in ``responses``, so its draft is saved from there."""
        page = self.pages.pop(index)
        self.responses[page.question.id] = page.answer.response()
        self.stack.removeWidget(page)
        page.setParent(None)  # out of the window's widget tree now, not at the deletion
        page.deleteLater()
        self.page_dropped(index, page)

    def page_dropped(self, index: int, page: QuestionView) -> None:
        """Hook: page ``index`` was taken apart."""

    def current_page(self) -> QuestionView | None:
        return self.pages.get(self.current)

    def toggle_flag(self) -> None:
        if self.current < 0:
            return
        question = self.questions[self.current]
        qid = question.id
        flagged = qid not in self.flags
        (self.flags.add if flagged else self.flags.discard)(qid)
        self.flag_button.setChecked(flagged)
        self.pages[self.current].set_flagged(flagged)
        if not self.unsaved:
            self.db.run(actions.set_flag, session_id=self.session_of(question),
                        question_id=qid, flagged=flagged)
        self.flag_changed(self.current, flagged)

    def flag_changed(self, index: int, flagged: bool) -> None:
        """Hook for subclasses."""

    # --- drafts --------------------------------------------------------------------------
    def mark_changed(self, index: int) -> None:
        """Question ``index`` changed: save its draft soon."""
        self._dirty.add(self.question_id(index))
        if not self._draft_timer.isActive():  # a deadline, not a quiet period: see above
            self._draft_timer.start()
        self.answer_changed(index)

    def answer_changed(self, index: int) -> None:
        """Hook for subclasses: the learner edited question ``index``."""

    def save_drafts(self) -> None:
        """Queue a draft save for every question edited since the last save."""
        self._draft_timer.stop()
        self._account_time()
        if self.unsaved:
            self._dirty.clear()
            self._time_dirty.clear()
            return
        for qid in sorted(self._dirty):
            self._queue_draft(qid, on_error=lambda error, q=qid: self._draft_failed(q, error))
        for qid in sorted(self._time_dirty - self._dirty):  # only their time changed
            self._queue_draft(qid, on_error=self._time_not_saved)
        self._dirty.clear()
        self._time_dirty.clear()
        self.save_position()

    def position_due(self) -> bool:
        """Whether the question on screen is not yet stored as where its session was left."""
        if not 0 <= self.current < len(self.questions):
            return False
        question = self.questions[self.current]
        return self._stored_position.get(self.session_of(question)) != question.id

    def save_position(self) -> None:
        """Store the question on screen as where its session was left (once per move)."""
        if self.unsaved or not self.position_due():
            return
        question = self.questions[self.current]
        session_id = self.session_of(question)
        self._stored_position[session_id] = question.id
        self.db.run(study.set_position, session_id=session_id, question_id=question.id,
                    on_error=lambda error, sid=session_id: self._position_not_saved(sid, error))

    def _position_not_saved(self, session_id: int, error: BaseException) -> None:
        # Like a refused time save: retried with the next save (Python state only).
        self._stored_position.pop(session_id, None)
        log.info("position not saved: %s", error)

    def save_time(self) -> None:
        """Every ``TIME_SAVE_MS``: the question on screen is saved with its time so far (so a
        kill loses at most that much of it, and the session reopens here)."""
        if self.closed or self.unsaved or not 0 <= self.current < len(self.questions):
            return
        qid = self.question_id(self.current)
        if qid in self._dirty or not self.saves_time(qid):
            return  # its draft save is due (or waits for the disk) with the time; or done
        self._account_time()
        self._queue_draft(qid, on_error=self._time_not_saved)

    def saves_time(self, question_id: str) -> bool:
        """Whether time on ``question_id`` is still saved with its draft (practice: not
        once it is submitted: the submit stored its time with the answer)."""
        return True

    @staticmethod
    def _time_not_saved(error: BaseException) -> None:
        # A refused time save is not worth a message per second: the next one retries, and
        # an edit's save (which does report a full disk) carries the time too.
        log.info("time on the question not saved: %s", error)

    def _queue_draft(self, qid: str, *, on_error) -> None:
        index = self._position[qid]
        question = self.questions[index]
        response = self.response(index)
        self.responses[qid] = response
        self.db.run(actions.save_draft, session_id=self.session_of(question),
                    question=question, response=response,
                    seconds=self.seconds.get(qid, 0.0), on_error=on_error)

    def _draft_failed(self, question_id: str, error: BaseException) -> None:
        """The disk refused a draft (full, read-only): keep it dirty, so the next save
        writes it again, and tell the learner. (Python state only: the view may be gone.)"""
        self._dirty.add(question_id)
        self.db.report(error)

    def enter(self, settings: QSettings) -> None:
        """Open at the question the learner was on (the first one in a new session)."""
        self._layout = {key: settings.value(key) for key in (
            Keys.WORKSPACE_SPLITTER, *RESULTS_SPLITTER_KEYS, Keys.WORKSPACE_PROBLEM_HIDDEN)}
        self.go_to(self._resume_index)
        self.setFocus()

    def leave(self, settings: QSettings) -> None:
        """Leaving the screen (or the app): save what is pending and stop the timers."""
        if self.closed:
            return
        self.closed = True
        self.save_drafts()
        self.stop_timers()
        for key, state in self._layout.items():
            if isinstance(state, bool) or (isinstance(state, QByteArray)
                                           and not state.isEmpty()):
                settings.setValue(key, state)

    def stop_timers(self) -> None:
        self._draft_timer.stop()
        self._time_timer.stop()
        self._prebuild_timer.stop()

    def keep_focus(self) -> None:
        """After a submit locks the fields, the focus stays on this screen (not the next
        focusable widget Qt picks: the console), so ←/→, PgUp/PgDn and A–D keep working."""
        focused = QApplication.focusWidget()
        if focused is None or focused is self or not self.isAncestorOf(focused) \
                or not focused.isEnabled() or getattr(focused, "isReadOnly", bool)():
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    # --- console -------------------------------------------------------------------------
    def set_console_available(self, available: bool) -> None:
        self.console_available = available
        for page in self.pages.values():
            page.set_console_available(available)
            if isinstance(page.answer, ProgrammingAnswer):
                page.answer.set_console_available(available)

    def apply_check_result(self, question_id: str, checks: list[dict]) -> None:
        """The console ran a question's checks: show them under its editor, keep the run
        in the attempt history; they grade the answer only if the code is still the code
        that was checked."""
        answer = self.programming_answer(question_id)
        if answer is None:
            return
        code = answer.checked_code if answer.checked_code is not None else answer.code()
        answer.checked_code = None
        if not self.unsaved:  # read-only: the results are shown, not kept
            self.db.run(actions.record_check_attempt,
                        session_id=self.session_of(answer.question), question_id=question_id,
                        code=code, checks=list(checks), on_done=answer.attempt_recorded)
        if code != answer.code():  # edited while the checks ran: results for the old code
            answer.show_stale_results(checks, code)  # they count again if it comes back
            return
        answer.set_checks(checks, code=code)
        self.checks_changed(answer)

    def checks_changed(self, answer: ProgrammingAnswer) -> None:
        """Hook: a check run's results now belong to the answer on screen (save them)."""
        self._dirty.add(answer.question.id)
        self.save_drafts()

    def show_check_error(self, question_id: str, message: str) -> None:
        answer = self.programming_answer(question_id)
        if answer is not None:
            answer.show_check_error(message)
            answer.checked_code = None

    def apply_theme(self) -> None:
        """Rebuild the question pages in the new colours; what they held (responses, flags,
        time, the question on screen) is kept, and drafts are saved as usual."""
        self._account_time()
        for page in self.pages.values():
            self.responses[page.question.id] = page.answer.response()
        current, self.current = self.current, -1
        for page in self.pages.values():
            self.stack.removeWidget(page)
            page.deleteLater()
        self.pages.clear()
        self.go_to(max(current, 0))

    def programming_answer(self, question_id: str) -> ProgrammingAnswer | None:
        for page in self.pages.values():
            if page.question.id == question_id and isinstance(page.answer, ProgrammingAnswer):
                return page.answer
        return None

    # --- keyboard ------------------------------------------------------------------------
    def submit_shortcut(self) -> None:
        """Enter / Ctrl+Enter: subclasses decide what submitting means."""

    def enter_submits(self, question: Question) -> bool:
        """Whether plain Enter is this screen's submit key on ``question``."""
        return submits_on_enter(question)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        # Keys reach here only when no text field consumed them (typing is never hijacked).
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        page = self.current_page()
        if mods == Qt.KeyboardModifier.NoModifier:
            if key in NAV_KEYS_NEXT:
                self.go_to(self.current + 1)
                return
            if key in NAV_KEYS_PREV:
                self.go_to(self.current - 1)
                return
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if page is not None and self.enter_submits(page.question):
                    self.submit_shortcut()
                return
            if page is not None and not typing_in_editor(self.focusWidget()) and \
                    page.answer.handle_key(key, event.text()):
                return
        super().keyPressEvent(event)
