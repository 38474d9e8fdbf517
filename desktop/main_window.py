"""The main window: a stack of screens, library → practice / exam → report, and the review
screens: wrong-answer book, practice runs over chosen questions, the dashboard.

It owns no learner state itself: each screen gets the paper, the ``DbOps`` and a session
id, and the window only moves between screens, remembers window settings, and forwards the
console's signals to the screen on top.
"""
from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QFont, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox, QStackedWidget, QWidget

from question_db.model import Bank, Paper

from .db import DbOps
from .views.library import LibraryView
from .views.storage_notice import StorageWarning

if TYPE_CHECKING:  # the store is imported by the store thread, after the first paint
    from question_db.exam import ExamReport
    from question_db.store import ProgressStore, SessionState
    from question_db.practice import QuestionRun

ZOOM_RANGE = (-4, 12)



@functools.cache
def screens() -> SimpleNamespace:
    """Practice / exam / report classes, imported on first use: the library (what start-up
    shows) needs none of them, and their imports (pygments lexers, the code editor, …) cost
    ~0.15 s (bench: launch_to_library)."""
    from .views import exam, paper_session, practice, report

    return SimpleNamespace(ExamView=exam.ExamView, StartExamDialog=exam.StartExamDialog,
                           PaperSessionView=paper_session.PaperSessionView,
                           PracticeView=practice.PracticeView, ReportView=report.ReportView)

def session_state(store: ProgressStore, session_id: int) -> SessionState:
    return store.session_state(session_id)


def unfinished_exams(store: ProgressStore) -> list:
    return store.unfinished_exams()


def open_practice_session(store: ProgressStore, paper_id: str) -> SessionState:
    """Continue the paper's active practice session, or start one."""
    active = [s for s in store.sessions(paper_id) if s.mode == "practice" and s.state == "active"]
    session_id = active[0].id if active else store.start_session(paper_id=paper_id,
                                                                 mode="practice")
    return store.session_state(session_id)


def start_exam_session(store: ProgressStore, paper_id: str, duration_s: int) -> SessionState:
    session_id = store.start_session(paper_id=paper_id, mode="exam", duration_s=duration_s)
    return store.session_state(session_id)


def load_report(store: ProgressStore, paper: Paper, session_id: int) -> ExamReport:
    """The report, regraded; the stored score follows it (a corrected key, late marks)."""
    from question_db.exam import rescore

    return rescore(store, paper, session_id)


def due_today_ids(store: ProgressStore, bank: Bank) -> list[str]:
    """Questions due by the end of today, most overdue first."""
    from question_db import review

    known = {q.id for q in bank.all_questions()}
    return [card.question_id for card in review.due_today(store, known=known)]


def saved_responses(paper: Paper, state: SessionState) -> dict[str, Any]:
    """What the learner last had on screen for each question (for a late auto-submit)."""
    from question_db.exam import response_for

    responses = {}
    for question in paper.questions:
        response, source = response_for(state, question.id)
        if source is not None:
            responses[question.id] = response
    return responses


class MainWindow(QMainWindow):
    """Library → practice / exam → report."""

    sig_run_requested = Signal(str)
    """A programming question asks to run code in the console: (code)."""

    sig_check_requested = Signal(str, str)
    """A programming question asks for its check suite: (question id, code)."""

    sig_verify_requested = Signal(str, str)
    """A question's verify snippet should run in the console: (question id, source)."""

    sig_bank_shown = Signal(object)
    """The bank is in the library (start-up is complete): (bank)."""

    def __init__(self, db: DbOps, settings: QSettings, bank: Bank | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.setWindowTitle("examdesk")
        self.db = db
        self.settings = settings
        self.bank = Bank()
        self.bank_shown = False  # set_bank() ran: the library lists the papers
        self.console_available = False
        self.dark = QApplication.palette().window().color().lightness() < 128
        self.db.sig_error.connect(self.show_error)
        self.storage_warning = StorageWarning(self)  # a full disk: say so, keep the answers
        self.db.sig_storage_error.connect(self.storage_warning.show_problem)
        self.errors: list[str] = []  # shown ones, for tests and the log

        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.library = LibraryView(db)
        self.library.sig_practice.connect(self.open_practice)
        self.library.sig_exam.connect(self.ask_exam)
        self.library.sig_resume.connect(self.resume_exam)
        self.library.sig_report.connect(self.show_report)
        self.library.sig_wrong_book.connect(self.open_wrong_book)
        self.library.sig_due_today.connect(self.practise_due)
        self.library.sig_dashboard.connect(self.open_dashboard)
        self._progress_files = None
        self.stack.addWidget(self.library)
        self.screen_view: QWidget | None = None  # the practice / exam / report on top
        self._base_point_size = QApplication.font().pointSizeF()
        self.zoom = 0
        self._build_menus()
        self._restore_settings()
        if bank is not None:
            self.set_bank(bank)

    # --- set-up --------------------------------------------------------------------------
    def progress_files(self) -> Any:
        """Export/import of progress (views/progress_files), built on first use."""
        if self._progress_files is None:
            from .views.progress_files import ProgressFiles

            self._progress_files = ProgressFiles(self, self.db, lambda: self.bank,
                                                 self.library.refresh)
        return self._progress_files

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        library = QAction(self.tr("&Library"), self)
        library.setShortcut(QKeySequence("Ctrl+L"))
        library.triggered.connect(self.go_library)
        file_menu.addAction(library)
        file_menu.addSeparator()
        for text, name, slot in (
                (self.tr("&Export progress…"), "export_progress",
                 lambda: self.progress_files().export_progress()),
                (self.tr("&Import progress…"), "import_progress",
                 lambda: self.progress_files().import_progress())):
            action = QAction(text, self)
            action.setObjectName(name)
            action.triggered.connect(slot)
            file_menu.addAction(action)
        file_menu.addSeparator()
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        review_menu = self.menuBar().addMenu(self.tr("&Review"))
        for text, name, keys, slot in (
                (self.tr("&Wrong-answer book"), "open_wrong_book", "Ctrl+Shift+W",
                 self.open_wrong_book),
                (self.tr("&Due today"), "practise_due", "Ctrl+Shift+R", self.practise_due),
                (self.tr("D&ashboard"), "open_dashboard", "Ctrl+Shift+D", self.open_dashboard)):
            action = QAction(text, self)
            action.setObjectName(name)
            action.setShortcut(QKeySequence(keys))
            action.triggered.connect(slot)
            review_menu.addAction(action)
        view_menu = self.menuBar().addMenu(self.tr("&View"))
        for text, keys, step in ((self.tr("Zoom &in"), ["Ctrl+=", "Ctrl++"], 1),
                                 (self.tr("Zoom &out"), ["Ctrl+-"], -1),
                                 (self.tr("&Reset zoom"), ["Ctrl+0"], None)):
            action = QAction(text, self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.triggered.connect(
                lambda _=False, s=step: self.set_zoom(0 if s is None else self.zoom + s))
            view_menu.addAction(action)

    def _restore_settings(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1200, 800)
        self.set_zoom(int(self.settings.value("view/zoom", 0) or 0))

    def set_bank(self, bank: Bank) -> None:
        self.bank = bank
        self.bank_shown = True
        self.library.set_bank(bank, last_paper=self.settings.value("library/last_paper"))
        self.sig_bank_shown.emit(bank)

    def set_zoom(self, zoom: int) -> None:
        """Text size steps (Ctrl+= / Ctrl+-); children inherit the stack's font size."""
        self.zoom = max(ZOOM_RANGE[0], min(ZOOM_RANGE[1], zoom))
        font = QFont(self.stack.font())
        font.setPointSizeF(max(6.0, self._base_point_size + self.zoom))
        self.stack.setFont(font)
        self.settings.setValue("view/zoom", self.zoom)

    def show_error(self, message: str, details: str = "") -> None:
        """A store operation failed: tell the learner (never swallowed, never blocking)."""
        self.errors.append(message)
        box = QMessageBox(QMessageBox.Icon.Critical, self.tr("examdesk"),
                          self.tr("Saving or loading progress failed:") + "\n\n" + message,
                          QMessageBox.StandardButton.Ok, self)
        box.setDetailedText(details)
        box.setObjectName("error_box")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # --- screens -------------------------------------------------------------------------
    def _show_screen(self, view: QWidget) -> None:
        self._close_screen()
        self.screen_view = view
        self.stack.addWidget(view)
        self.stack.setCurrentWidget(view)
        if hasattr(view, "sig_leave"):
            view.sig_leave.connect(self.go_library)
        if isinstance(view, screens().ReportView):
            view.sig_check_requested.connect(self.sig_check_requested)
            view.set_console_available(self.console_available)
        if isinstance(view, screens().PaperSessionView):
            view.sig_run_requested.connect(self.sig_run_requested)
            view.sig_check_requested.connect(self.sig_check_requested)
            view.sig_verify_requested.connect(self.sig_verify_requested)
            view.set_console_available(self.console_available)
            view.go_to(0)
            view.setFocus()

    def _close_screen(self) -> None:
        view = self.screen_view
        if view is None:
            return
        if isinstance(view, screens().PaperSessionView):
            view.close_session()
        if isinstance(view, screens().ExamView):
            self.settings.setValue("exam/splitter", view.splitter.saveState())
        self.screen_view = None
        self.stack.removeWidget(view)
        view.deleteLater()

    def go_library(self) -> None:
        self._close_screen()
        self.stack.setCurrentWidget(self.library)
        self.library.refresh()

    def paper(self, paper_id: str) -> Paper | None:
        try:
            return self.bank.paper(paper_id)
        except KeyError:
            self.show_error(self.tr("Paper %1 is not in the question bank.")
                            .replace("%1", paper_id))
            return None

    def open_practice(self, paper_id: str) -> None:
        paper = self.paper(paper_id)
        if paper is None:
            return
        self.settings.setValue("library/last_paper", paper_id)
        self.db.run(open_practice_session, paper_id,
                    on_done=lambda state: self._practice_ready(paper, state))

    def _practice_ready(self, paper: Paper, state: SessionState) -> "PracticeView":
        view = screens().PracticeView(paper, self.db, state.session.id, dark=self.dark)
        view.restore(state)
        self._show_screen(view)
        return view

    def ask_exam(self, paper_id: str) -> None:
        """The start dialog (duration adjustable), then the exam."""
        paper = self.paper(paper_id)
        if paper is None:
            return
        dialog = screens().StartExamDialog(paper, self)
        if dialog.exec() == screens().StartExamDialog.DialogCode.Accepted:
            self.start_exam(paper_id, dialog.duration_s(paper))

    def start_exam(self, paper_id: str, duration_s: int) -> None:
        paper = self.paper(paper_id)
        if paper is None:
            return
        self.settings.setValue("library/last_paper", paper_id)
        self.db.run(start_exam_session, paper_id, duration_s,
                    on_done=lambda state: self._exam_ready(paper, state))

    def resume_exam(self, session_id: int) -> None:
        """Continue an unfinished exam with the wall-clock time left (or submit it)."""
        def ready(state: SessionState) -> None:
            paper = self.paper(state.session.paper_id)
            if paper is not None:
                self._exam_ready(paper, state)
        self.db.run(session_state, session_id, on_done=ready)

    def _exam_ready(self, paper: Paper, state: SessionState) -> None:
        session = state.session
        if session.state != "active":
            self.show_report(session.id)
            return
        if (session.remaining() or 0) <= 0:
            # Time ran out while the app was closed: submit what was saved, as the clock would.
            from question_db.exam import AUTO_SUBMITTED, submit_exam

            self.db.run(submit_exam, paper, session.id, saved_responses(paper, state),
                        dict(state.seconds), AUTO_SUBMITTED, session.deadline,
                        on_done=lambda report: self._report_ready(paper, report))
            return
        view = screens().ExamView(paper, self.db, session.id, session.deadline, dark=self.dark)
        splitter = self.settings.value("exam/splitter")
        if isinstance(splitter, QByteArray) and not splitter.isEmpty():
            view.splitter.restoreState(splitter)
        view.restore(state)
        view.sig_finished.connect(lambda report: self._report_ready(paper, report))
        self._show_screen(view)
        view.start_clock()

    # --- review: wrong-answer book, runs over chosen questions, dashboard ------------------
    def open_wrong_book(self) -> "WrongBookView":
        from .views.wrong_book import WrongBookView  # deferred: not needed at start-up

        view = WrongBookView(self.bank, self.db, dark=self.dark)
        view.sig_practise.connect(
            lambda ids: self.open_run(ids, self.tr("Wrong-answer book")))
        self._show_screen(view)
        return view

    def practise_due(self) -> None:
        """Practise every question due by the end of today, across papers."""
        self.db.run(due_today_ids, self.bank,
                    on_done=lambda ids: self.open_run(ids, self.tr("Due today")))

    def open_run(self, question_ids: list[str], title: str) -> None:
        """A practice run over ``question_ids`` (new sessions, one per paper)."""
        if not question_ids:
            box = QMessageBox(QMessageBox.Icon.Information, title,
                              self.tr("Nothing to practise here."),
                              QMessageBox.StandardButton.Ok, self)
            box.setObjectName("nothing_to_practise")
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()
            return
        from question_db import practice

        self.db.run(practice.start_run, self.bank, question_ids,
                    on_done=lambda run: self._run_ready(run, title))

    def _run_ready(self, run: QuestionRun, title: str) -> "PracticeView | None":
        if not run.questions:
            return None
        first = run.questions[0].paper_id
        view = screens().PracticeView(run.papers[first], self.db, run.sessions[first], run=run,
                            title=title, dark=self.dark)
        self._show_screen(view)
        return view

    def open_dashboard(self) -> "DashboardView":
        from .views.dashboard import DashboardView  # deferred: numpy, pyqtgraph on first use

        view = DashboardView(self.bank, self.db, dark=self.dark)
        self._show_screen(view)
        return view

    def show_report(self, session_id: int) -> None:
        def ready(state: SessionState) -> None:
            paper = self.paper(state.session.paper_id)
            if paper is not None:
                self.db.run(load_report, paper, session_id,
                            on_done=lambda report: self._report_ready(paper, report))
        self.db.run(session_state, session_id, on_done=ready)

    def _report_ready(self, paper: Paper, report: ExamReport) -> None:
        self._show_screen(screens().ReportView(paper, report, self.db, dark=self.dark))

    # --- start-up: unfinished exams ------------------------------------------------------
    def check_unfinished(self) -> None:
        """Offer to resume the newest unfinished exam (after the window is shown)."""
        self.db.run(unfinished_exams, on_done=self._offer_resume)

    def _offer_resume(self, sessions: list) -> None:
        known = [s for s in sessions if any(p.id == s.paper_id for p in self.bank.papers)]
        if not known or self.screen_view is not None:
            return
        session = known[0]
        paper = self.bank.paper(session.paper_id)
        left = session.remaining() or 0
        if left <= 0:
            text = self.tr("Time ran out on your exam “%1” while examdesk was closed. It will "
                           "be submitted with the answers you saved.").replace("%1", paper.title)
            QMessageBox.information(self, self.tr("Exam time is up"), text)
            self.resume_exam(session.id)
            return
        minutes = f"{left / 60:.0f}"
        text = self.tr("You have an unfinished exam: “%1”, %2 minutes left. The clock kept "
                       "running while examdesk was closed. Resume it now?") \
            .replace("%1", paper.title).replace("%2", minutes)
        answer = QMessageBox.question(self, self.tr("Resume exam"), text,
                                      QMessageBox.StandardButton.Yes
                                      | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.Yes)
        if answer == QMessageBox.StandardButton.Yes:
            self.resume_exam(session.id)

    # --- console (connected by the app once a kernel is up) ------------------------------
    def set_console_available(self, available: bool) -> None:
        """Enable the Run / Check buttons of programming questions."""
        self.console_available = available
        if self.screen_view is not None and isinstance(
                self.screen_view, (screens().PaperSessionView, screens().ReportView)):
            self.screen_view.set_console_available(available)

    def on_check_finished(self, question_id: str, report: dict) -> None:
        """``CheckController.sig_check_finished``: store results, or say why there are none."""
        if report.get("error"):
            view = self.screen_view
            answer = (view.programming_answer(question_id)
                      if isinstance(view, screens().PaperSessionView) else None)
            if answer is not None:
                answer.check_status.setText(self.tr("Not checked: %1")
                                            .replace("%1", str(report["error"])))
            return
        self.apply_check_result(question_id, list(report.get("checks") or []))

    def apply_check_result(self, question_id: str, checks: list[dict]) -> None:
        """Deliver a check run's results ([{name, passed, required, …}]) to the screen."""
        view = self.screen_view
        if isinstance(view, screens().ReportView):
            view.apply_check_result(question_id, checks)
        elif isinstance(view, screens().PracticeView):
            view.apply_check_result(question_id, checks)
        elif isinstance(view, screens().PaperSessionView):
            answer = view.programming_answer(question_id)
            if answer is not None:
                answer.set_checks(checks)
                view.mark_changed(view.questions.index(answer.question))

    # --- shutdown ------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        """Save drafts (an exam keeps its wall-clock deadline) and the window settings."""
        if self.screen_view is not None:
            if isinstance(self.screen_view, screens().ExamView):
                self.settings.setValue("exam/splitter", self.screen_view.splitter.saveState())
            if isinstance(self.screen_view, screens().PaperSessionView):
                self.screen_view.close_session()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())  # dock sizes and places
        self.settings.sync()
        self.db.flush()
        super().closeEvent(event)
