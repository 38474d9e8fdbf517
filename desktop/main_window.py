"""The main window: a stack of screens, library → practice / exam → report, and the study
screens: practice sets and runs, recite mode, search (Ctrl+K), mock exams (组卷), the review
session (Anki's flow), the wrong-answer book, the dashboard.

It owns no learner state itself: each screen gets the paper, the ``DbOps`` and a session
id, and the window only moves between screens, remembers window settings, and forwards the
console's signals to the screen on top.
"""
from __future__ import annotations

import functools
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QFont, QKeySequence
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QMainWindow,
                               QMessageBox, QStackedWidget, QWidget)

from question_db.changes import Changes
from question_db.model import Bank, Paper

from .config import Keys
from .db import DbOps, deferred_action
from .theme import theme
from .views.library import LibraryView
from .views.screen import Screen
from .views.storage_notice import StorageWarning

if TYPE_CHECKING:  # the actions are imported by the store thread, after the first paint
    from question_db.actions import OpenRun, OpenSession
    from question_db.exam import ExamReport
    from question_db.store import SessionRecord

ZOOM_RANGE = (-4, 12)
SEARCH_REFRESH_DELAY_MS = 1500  # after the bank is on screen: start-up has finished by then
OTHER_KIND = "other"  # console_placement.OTHER (that module is imported with the console)
GEOMETRY_SAVE_MS = 1000  # after the last move or resize


@functools.cache
def screens() -> SimpleNamespace:
    """Practice / exam / report classes, imported on first use: the library (what start-up
    shows) needs none of them, and their imports (pygments lexers, the code editor, …) cost
    ~0.15 s (bench: launch_to_library)."""
    from .views import exam, practice, report

    return SimpleNamespace(ExamView=exam.ExamView, StartExamDialog=exam.StartExamDialog,
                           PracticeView=practice.PracticeView, ReportView=report.ReportView)


@functools.cache
def actions():
    """``question_db.actions``, imported on first use (by then the store thread has)."""
    from question_db import actions as module

    return module


def _unless_cancelled(importer, *args, **kwargs):
    """``importer(*args, **kwargs)`` for a worker thread: None when the learner cancelled
    (their choice: neither an error to log nor one to show)."""
    from question_db.interchange.import_process import ImportCancelled

    def run():
        try:
            return importer(*args, **kwargs)
        except ImportCancelled:
            return None

    return run


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
                 parent: QWidget | None = None, *, data_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.setWindowTitle("examdesk")
        self.db = db
        self.settings = settings
        self.data_dir = data_dir  # where imported papers go (papers/) and the bank cache
        self.bank = Bank()
        self.bank_shown = False  # set_bank() ran: the library lists the papers
        self.console_available = False
        self.db.sig_error.connect(self.show_error)
        self.db.sig_callback_error.connect(self.show_bug)
        self.db.sig_changed.connect(self.apply_changes)
        theme().sig_changed.connect(self.apply_theme)
        self.storage_warning = StorageWarning(self)  # a full disk: say so, keep the answers
        self.db.sig_storage_error.connect(self.storage_warning.show_problem)
        self.errors: list[str] = []  # shown ones, for tests and the log
        self.import_memory_limit: int | None = None  # bytes; None: import_process's default
        self.import_job = None  # the running import's ImportProgress (its Cancel)
        self._focus_before_menu: QWidget | None = None  # where a closed menu gives it back
        self._geometry_timer = QTimer(self)  # the size saved a second after the last resize
        self._geometry_timer.setSingleShot(True)
        self._geometry_timer.setInterval(GEOMETRY_SAVE_MS)
        self._geometry_timer.timeout.connect(self._save_geometry)

        self.stack = QStackedWidget()
        self.setCentralWidget(self.stack)
        self.library = LibraryView(db)
        self.library.sig_practice.connect(self.open_practice)
        self.library.sig_exam.connect(self.ask_exam)
        self.library.sig_resume.connect(self.resume_exam)
        self.library.sig_report.connect(self.show_report)
        self.library.sig_wrong_book.connect(self.open_wrong_book)
        self.library.sig_due_today.connect(self.open_review)
        self.library.sig_dashboard.connect(self.open_dashboard)
        self.library.sig_continue.connect(lambda pid, qid: self.open_practice(pid, at=qid))
        self.library.sig_recite.connect(lambda pid: self.open_practice(pid, recite=True))
        self.library.sig_practice_sets.connect(lambda: self.open_practice_sets())
        self.library.sig_mock_exam.connect(lambda: self.open_mock_exam())
        self.library.sig_search.connect(lambda: self.open_search())
        self._search = None  # views/search_dialog.SearchIndex, made with the first bank
        self.search_dialog = None
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_REFRESH_DELAY_MS)
        self._search_timer.timeout.connect(self._refresh_search_index)
        self._progress_files = None
        self._bank_files = None
        self.console_placement = None  # set by place_console() once the console is attached
        self.stack.addWidget(self.library)
        self.screen_view: Screen | None = None  # the practice / exam / report on top
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

            self._progress_files = ProgressFiles(self, self.db, lambda: self.bank)
        return self._progress_files

    def bank_files(self) -> Any:
        """File ▸ Export questions (views/bank_files), built on first use."""
        if self._bank_files is None:
            from .views.bank_files import BankFiles

            self._bank_files = BankFiles(self, self.db, lambda: self.bank)
        return self._bank_files

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
                 lambda: self.progress_files().import_progress()),
                (self.tr("Import &paper (text, Word, Moodle XML, GIFT)…"), "import_paper",
                 lambda: self.import_paper()),
                (self.tr("Import pasted &text…"), "import_pasted", lambda: self.import_pasted()),
                (self.tr("Export &questions (Anki, Moodle, GIFT)…"), "export_questions",
                 lambda: self.bank_files().export())):
            action = QAction(text, self)
            action.setObjectName(name)
            action.triggered.connect(slot)
            file_menu.addAction(action)
        file_menu.addSeparator()
        settings_action = QAction(self.tr("&Settings…"), self)
        settings_action.setObjectName("open_settings")
        settings_action.setShortcut(QKeySequence("Ctrl+,"))
        settings_action.triggered.connect(self.open_settings)
        file_menu.addAction(settings_action)
        file_menu.addSeparator()
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setObjectName("quit")
        # The platform's Quit keys; Ctrl+Q where it names none (offscreen, some desktops).
        quit_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Quit)
                                 or [QKeySequence("Ctrl+Q")])
        quit_action.triggered.connect(self.request_quit)
        file_menu.addAction(quit_action)
        practice_menu = self.menuBar().addMenu(self.tr("&Practice"))
        review_menu = self.menuBar().addMenu(self.tr("&Review"))
        for menu, text, name, keys, slot in (
                (practice_menu, self.tr("Practice &sets…"), "open_practice_sets", "Ctrl+P",
                 lambda: self.open_practice_sets()),
                (practice_menu, self.tr("&Continue the last practice set"),
                 "continue_last_set", "", lambda: self.continue_last_run()),
                (practice_menu, self.tr("&Mock exam (组卷)…"), "open_mock_exam", "Ctrl+M",
                 lambda: self.open_mock_exam()),
                (practice_menu, self.tr("Searc&h questions…"), "open_search", "Ctrl+K",
                 lambda: self.open_search()),
                (review_menu, self.tr("&Wrong-answer book"), "open_wrong_book",
                 "Ctrl+Shift+W", self.open_wrong_book),
                (review_menu, self.tr("&Due today: review session"), "open_review",
                 "Ctrl+Shift+R", self.open_review),
                (review_menu, self.tr("&Practise today's questions (as a practice run)"),
                 "practise_due", "", self.practise_due),
                (review_menu, self.tr("D&ashboard"), "open_dashboard", "Ctrl+Shift+D",
                 self.open_dashboard)):
            action = QAction(text, self)
            action.setObjectName(name)
            if keys:
                action.setShortcut(QKeySequence(keys))
            action.triggered.connect(slot)
            menu.addAction(action)
            if name == "open_search":
                self.search_action = action
        view_menu = self.menuBar().addMenu(self.tr("&View"))
        self.view_menu = view_menu
        for text, keys, step in ((self.tr("Zoom &in"), ["Ctrl+=", "Ctrl++"], 1),
                                 (self.tr("Zoom &out"), ["Ctrl+-"], -1),
                                 (self.tr("&Reset zoom"), ["Ctrl+0"], None)):
            action = QAction(text, self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.triggered.connect(
                lambda _=False, s=step: self.set_zoom(0 if s is None else self.zoom + s))
            view_menu.addAction(action)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        shortcuts = QAction(self.tr("&Keyboard shortcuts"), self)
        shortcuts.setObjectName("keyboard_shortcuts")
        shortcuts.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.HelpContents)
                               or [QKeySequence("F1")])
        shortcuts.triggered.connect(self.show_shortcuts)
        help_menu.addAction(shortcuts)
        for menu in (file_menu, practice_menu, review_menu, view_menu, help_menu):
            menu.aboutToShow.connect(self._menu_opening)
            menu.aboutToHide.connect(lambda: QTimer.singleShot(0, self, self._menu_closed))

    def _menu_opening(self) -> None:
        focused = QApplication.focusWidget()
        if focused is not None and focused is not self.menuBar():
            self._focus_before_menu = focused

    def _menu_closed(self) -> None:
        """A menu closed with Esc leaves Qt's menu bar focused, its title highlighted: the
        next Space or Enter opened it again instead of reaching the question. Unless
        another menu opened meanwhile (←/→ along the bar), the focus goes back."""
        if QApplication.activePopupWidget() is not None:
            return
        bar = self.menuBar()
        if QApplication.focusWidget() is bar or bar.activeAction() is not None:
            bar.setActiveAction(None)
            back = self._focus_before_menu
            if back is not None and shiboken6.isValid(back) and back.isVisible():
                back.setFocus(Qt.FocusReason.PopupFocusReason)
            elif self.screen_view is not None:
                self.screen_view.setFocus(Qt.FocusReason.PopupFocusReason)

    def show_shortcuts(self):
        """Help → Keyboard shortcuts: every key, in one table."""
        from .views.shortcuts_help import ShortcutsDialog

        dialog = ShortcutsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def open_settings(self):
        """File → Settings…: UI language, question script."""
        from .views.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self, db=self.db)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def place_console(self, dock: QDockWidget, results_dock: QDockWidget | None = None) -> None:
        """The console's docks are attached (``console.wiring``): the console opens on code
        and "verify" questions and is a thin bar elsewhere (``ConsolePlacement``); the
        console's own results panel is hidden (results show under each editor) and both
        are in the View menu."""
        from .views.console_placement import ConsolePlacement

        self.console_placement = ConsolePlacement(self, dock, self.settings)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.console_placement.action)
        if results_dock is not None:
            results_dock.hide()
            action = results_dock.toggleViewAction()
            action.setText(self.tr("Check results log (console)"))
            self.view_menu.addAction(action)
        self.sig_run_requested.connect(lambda _code: self.console_placement.reveal())
        self.sig_verify_requested.connect(lambda *_: self.console_placement.reveal())
        screen = self.screen_view
        self.console_placement.set_allowed(screen.wants_console() if screen else True)
        self.console_placement.set_kind(OTHER_KIND)

    def _restore_settings(self) -> None:
        geometry = self.settings.value(Keys.WINDOW_GEOMETRY)
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1200, 800)
        self.set_zoom(int(self.settings.value(Keys.ZOOM, 0) or 0))

    def set_bank(self, bank: Bank) -> None:
        self.bank = bank
        self.bank_shown = True
        self.library.set_bank(bank, last_paper=self.settings.value(Keys.LAST_PAPER))
        self.sig_bank_shown.emit(bank)
        # The search index is brought up to date in a moment, off this thread (its module
        # is not imported before the first paint: bench launch_to_library).
        self._search_timer.start()
        if self._search is not None:
            self._search.bank = bank  # a search before the refresh brings it up to date
        if self.search_dialog is not None:
            self.search_dialog.fill_filters()

    def _refresh_search_index(self) -> None:
        self.search_index().set_bank(self.bank, soon=False)

    def search_index(self):
        """The search index of the data folder (``views/search_dialog.SearchIndex``)."""
        if self._search is None:
            from .views.search_dialog import SearchIndex

            self._search = SearchIndex(self.db, self.data_dir, self)
            self._search.bank = self.bank
        return self._search

    def close_search_index(self) -> None:
        """At quit: the index file is closed (a cache: nothing to save)."""
        self._search_timer.stop()
        if self._search is not None:
            self._search.close()

    def set_zoom(self, zoom: int) -> None:
        """Text size steps (Ctrl+= / Ctrl+-); children inherit the stack's font size."""
        self.zoom = max(ZOOM_RANGE[0], min(ZOOM_RANGE[1], zoom))
        font = QFont(self.stack.font())
        font.setPointSizeF(max(6.0, self._base_point_size + self.zoom))
        self.stack.setFont(font)
        self.settings.setValue(Keys.ZOOM, self.zoom)

    def show_error(self, message: str, details: str = "") -> None:
        """A store operation failed: tell the learner (never swallowed, never blocking)."""
        self._error_box(self.tr("Saving or loading progress failed:") + "\n\n" + message,
                        details)

    def show_bug(self, message: str, details: str = "") -> None:
        """A screen crashed on an operation's result: the data is safe, the screen is not."""
        self._error_box(self.tr("examdesk hit a bug while showing a result; your progress "
                                "was saved. Details for a bug report:") + "\n\n" + message,
                        details)

    def _error_box(self, text: str, details: str) -> None:
        self.errors.append(text)
        box = QMessageBox(QMessageBox.Icon.Critical, self.tr("examdesk"), text,
                          QMessageBox.StandardButton.Ok, self)
        box.setDetailedText(details)
        box.setObjectName("error_box")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def apply_theme(self) -> None:
        """The palette changed: the library and the screen on top re-render in it."""
        if self.bank_shown:
            self.library.set_bank(self.bank, last_paper=self.settings.value(Keys.LAST_PAPER))
        if self.screen_view is not None:
            self.screen_view.apply_theme()

    def apply_changes(self, changes: Changes, initiator: object | None = None) -> None:
        """What an action changed (``DbOps.sig_changed``): every screen hears it, with who
        ran it and whether it is the one on top (a hidden one refreshes once shown)."""
        current = self.stack.currentWidget()
        for screen in (self.library, self.screen_view):
            if screen is not None:
                screen.apply_changes(changes, initiator=initiator, focused=screen is current)

    # --- screens -------------------------------------------------------------------------
    def _show_screen(self, view: Screen) -> None:
        self._close_screen()
        self.screen_view = view
        self.stack.addWidget(view)
        self.stack.setCurrentWidget(view)
        view.sig_leave.connect(self.go_library)
        view.sig_run_requested.connect(self.sig_run_requested)
        view.sig_check_requested.connect(self.sig_check_requested)
        view.sig_verify_requested.connect(self.sig_verify_requested)
        view.set_console_available(self.console_available)
        if self.console_placement is not None:
            view.sig_console_kind.connect(self.console_placement.set_kind)
            self.console_placement.set_allowed(view.wants_console())
            self.console_placement.new_screen()
            self.console_placement.set_kind(OTHER_KIND)  # until a question says otherwise
        view.enter(self.settings)

    def _close_screen(self) -> None:
        view = self.screen_view
        if view is None:
            return
        view.leave(self.settings)
        self.screen_view = None
        self.stack.removeWidget(view)
        view.deleteLater()

    def go_library(self) -> None:
        self._close_screen()
        self.stack.setCurrentWidget(self.library)
        if self.console_placement is not None:
            self.console_placement.set_allowed(True)
            self.console_placement.new_screen()
            self.console_placement.set_kind(OTHER_KIND)
        self.library.show_again()

    def paper(self, paper_id: str) -> Paper | None:
        try:
            return self.bank.paper(paper_id)
        except KeyError:
            self.show_error(self.tr("Paper %1 is not in the question bank.")
                            .replace("%1", paper_id))
            return None

    def open_practice(self, paper_id: str, *, at: str | None = None,
                      recite: bool = False) -> None:
        """Practise a paper (its one practice session, continued where it was left, or at
        question ``at``)."""
        paper = self.paper(paper_id)
        if paper is None:
            return
        view = self.screen_view
        if at is not None and getattr(view, "run", True) is None \
                and getattr(view, "paper", None) is paper and hasattr(view, "go_to_question"):
            view.go_to_question(at)  # already on screen
            return
        self.settings.setValue(Keys.LAST_PAPER, paper_id)
        self.db.run(actions().open_practice, paper=paper,
                    on_done=lambda state: self._practice_ready(paper, state, at=at,
                                                               recite=recite))

    def _practice_ready(self, paper: Paper, state: OpenSession, *, at: str | None = None,
                        recite: bool = False):
        view = screens().PracticeView(paper, self.db, state.session.id, recite=recite)
        view.restore(state)
        if state.unsaved is not None:  # a read-only data folder: the paper is there to read
            view.set_unsaved(self._unsaved_text(state.unsaved))
        if at is not None:
            view.open_at(at)
        self._show_screen(view)
        return view

    def _unsaved_text(self, kind: str) -> str:
        """Why a screen cannot save (``question_db.messages`` kind), naming the data folder."""
        from question_db import messages
        from question_db.paths import data_dir

        from .views.storage_notice import qt_translate

        return messages.render(kind, {"folder": data_dir(self.data_dir)}, qt_translate)

    def open_question(self, question_id: str) -> None:
        """A search hit: the question in practice of its paper, at that question."""
        try:
            question = self.bank.question(question_id)
        except KeyError:
            self.show_error(self.tr("Question %1 is not in the question bank.")
                            .replace("%1", question_id))
            return
        view = self.screen_view
        if view is not None and view.quit_warning():  # a running exam stays on screen
            return
        self.open_practice(question.paper_id, at=question_id)

    def ask_exam(self, paper_id: str) -> None:
        """The start dialog (duration adjustable), then the exam."""
        paper = self.paper(paper_id)
        if paper is None:
            return
        dialog = screens().StartExamDialog(paper, self)
        if dialog.exec() == screens().StartExamDialog.DialogCode.Accepted:
            self.start_exam(paper_id, dialog.duration_s(paper), open_book=dialog.open_book(),
                            include_drafts=dialog.include_drafts())

    def start_exam(self, paper_id: str, duration_s: int, *, open_book: bool = False,
                   include_drafts: bool = False) -> None:
        paper = self.paper(paper_id)
        if paper is None:
            return
        self.settings.setValue(Keys.LAST_PAPER, paper_id)
        self.db.run(actions().start_exam, paper=paper, duration_s=duration_s,
                    open_book=open_book, include_drafts=include_drafts,
                    on_done=lambda state: self._exam_ready(paper, state))

    def resume_exam(self, session_id: int) -> None:
        """Continue an unfinished exam with the wall-clock time left (or submit it). Its
        paper comes from the store (``session_paper``): a mock exam's is not in the bank."""
        def opened(found) -> None:
            self.db.run(actions().open_session, bank=self.bank, session_id=session_id,
                        on_done=lambda state: self._exam_ready(found.paper, state))
        self.db.run(actions().session_paper, bank=self.bank, session_id=session_id,
                    on_done=opened)

    def _exam_ready(self, paper: Paper, state: OpenSession) -> None:
        session = state.session
        if session.state != "active":
            self.show_report(session.id)
            return
        if (session.remaining() or 0) <= 0:
            # Time ran out while the app was closed: submit what was saved, as the clock would.
            from question_db.enums import SessionState

            self.db.run(actions().submit_exam, paper=paper, session_id=session.id,
                        responses=state.responses, seconds=state.seconds,
                        final_state=SessionState.AUTO_SUBMITTED, now=session.deadline,
                        on_done=lambda result: self._report_ready(paper, result.report,
                                                                  check_pending=True))
            return
        view = screens().ExamView(paper, self.db, session.id, session.deadline,
                                  open_book=session.open_book)
        view.restore(state)
        view.sig_finished.connect(lambda report: self._report_ready(paper, report,
                                                                    check_pending=True))
        self._show_screen(view)

    # --- review: wrong-answer book, runs over chosen questions, dashboard ------------------
    def open_wrong_book(self):
        from .views.wrong_book import WrongBookView  # deferred: not needed at start-up

        view = WrongBookView(self.bank, self.db)
        view.sig_practise.connect(
            lambda ids: self.open_run(ids, self.tr("Wrong-answer book")))
        self._show_screen(view)
        return view

    def practise_due(self) -> None:
        """Practise every question due by the end of today, across papers, as a run."""
        self.db.run(actions().due_reviews, bank=self.bank,
                    on_done=lambda ids: self.open_run(ids, self.tr("Due today")))

    def open_review(self):
        """Due today: the review session (front, Show answer, Again / Hard / Good / Easy)."""
        from .views.review_session import ReviewView

        view = ReviewView(self.bank, self.db)
        self._show_screen(view)
        return view

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
        self.db.run(actions().start_run, bank=self.bank, question_ids=question_ids,
                    on_done=lambda run: self._run_ready(run, title))

    def _run_ready(self, run: OpenRun, title: str, *, states: list | None = None,
                   finish_on_leave: bool = True, recite: bool = False):
        if not run.questions:
            return None
        first = run.questions[0].paper_id
        view = screens().PracticeView(run.papers[first], self.db, run.sessions[first], run=run,
                                      title=title, recite=recite,
                                      finish_on_leave=finish_on_leave)
        if states:
            view.restore_sessions(states)
        self._show_screen(view)
        return view

    # --- practice sets, mock exams, search -------------------------------------------------
    def open_practice_sets(self, paper_id: str | None = None):
        """The practice-set dialog: a new set, a saved one, or an unfinished one."""
        from .views.practice_set_dialog import PracticeSetDialog

        dialog = PracticeSetDialog(self.bank, self.db, self, paper_id=paper_id)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.sig_start.connect(self.start_practice_set)
        dialog.sig_continue.connect(self.continue_run)
        dialog.open()
        return dialog

    def start_practice_set(self, spec, title: str, recite: bool = False) -> None:
        """Practise a set as a run (it stays open when left: Continue later)."""
        from question_db import study

        self.db.run(study.start_practice_set, bank=self.bank, spec=spec, title=title,
                    on_done=lambda started: self._run_ready(
                        started.run, title, finish_on_leave=False, recite=recite))

    def continue_run(self, run_id: int) -> None:
        """An unfinished run: its questions, answers and position, as it was left."""
        from question_db import study

        def resumed(run: OpenRun) -> None:
            self.db.run(study.run_states, run=run, on_done=lambda states: self._run_ready(
                run, run.title or self.tr("Practice set"), states=list(states.values()),
                finish_on_leave=False))
        self.db.run(study.resume_run, bank=self.bank, run_id=run_id, on_done=resumed)

    def continue_last_run(self) -> None:
        """Practice ▸ Continue the last practice set (the newest unfinished run)."""
        from question_db import study

        def found(runs: list) -> None:
            if runs:
                self.continue_run(runs[0].run_id)
            else:
                self.open_run([], self.tr("Practice set"))  # "nothing to practise"
        self.db.run(study.unfinished_runs, bank=self.bank, on_done=found)

    def open_mock_exam(self):
        """The mock-exam (组卷) dialog: compose, save as a template, start."""
        from .views.mock_exam_dialog import MockExamDialog

        dialog = MockExamDialog(self.bank, self.db, self.settings, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.sig_start.connect(self.start_mock_exam)
        dialog.open()
        return dialog

    def start_mock_exam(self, template_id: int | None, spec=None) -> None:
        """A composed exam, run as a paper exam (countdown, 答题卡, auto-submit, resume)."""
        from question_db import study

        spec = None if template_id is not None else spec

        def composed(preview) -> None:  # the same start dialog as a paper's exam
            dialog = screens().StartExamDialog(preview.paper, self)
            dialog.setObjectName("mock_start_dialog")
            if dialog.exec() != screens().StartExamDialog.DialogCode.Accepted:
                return
            self.db.run(study.start_mock_exam, bank=self.bank, template_id=template_id,
                        spec=spec, duration_s=dialog.duration_s(preview.paper),
                        open_book=dialog.open_book(),
                        on_done=lambda started: self._exam_ready(started.paper,
                                                                 started.session))

        self.db.run(study.preview_mock_exam, bank=self.bank, template_id=template_id,
                    spec=spec, on_done=composed)

    def open_search(self):
        """Ctrl+K: search every paper (and the learner's notes); a hit opens practice."""
        view = self.screen_view
        if view is not None and not view.allows_search():
            return None
        if self.search_dialog is None:
            from .views.search_dialog import SearchDialog

            self.search_dialog = SearchDialog(self.db, self.search_index(), lambda: self.bank,
                                              self)
            self.search_dialog.sig_open.connect(self.open_question)
        self.search_dialog.show()
        self.search_dialog.raise_()
        self.search_dialog.activateWindow()
        return self.search_dialog

    def open_dashboard(self):
        from .views.dashboard import DashboardView  # deferred: numpy, pyqtgraph on first use

        view = DashboardView(self.bank, self.db)
        self._show_screen(view)
        return view

    def show_report(self, session_id: int) -> None:
        self.db.run(actions().session_report, bank=self.bank, session_id=session_id,
                    on_done=lambda result: self._report_ready(result.paper, result.report))

    def _report_ready(self, paper: Paper, report: ExamReport, *,
                      check_pending: bool = False) -> None:
        """``check_pending``: an exam just submitted: its code answers are checked now (in
        a closed-book exam, the first time they are), the results go into the report."""
        view = screens().ReportView(paper, report, self.db, check_pending=check_pending)
        self._show_screen(view)
        view.sig_practise.connect(self._practise_from_report)

    def _practise_from_report(self, question_ids: list[str], title: str) -> None:
        """错题重练 from a report: the missed questions still in the bank, as a run."""
        known = []
        for qid in question_ids:
            try:
                known.append(self.bank.question(qid).id)
            except KeyError:  # a pack removed since the exam
                continue
        if known:
            self.open_run(known, title)

    # --- importing papers ---------------------------------------------------------------
    def import_paper(self, path: str | Path | None = None) -> None:
        """Ask for a file (unless given), import it off the UI thread, review it."""
        from .views.import_screen import file_filter

        if path is None:
            chosen, _ = QFileDialog.getOpenFileName(self, self.tr("Import paper"), "",
                                                    file_filter())
            if not chosen:
                return
            path = chosen
        from question_db.interchange.import_process import import_file_isolated

        # In a child process with a memory limit: a file that blows up (a zip bomb, a PDF
        # whose stream inflates to gigabytes) takes the child down, not this window.
        path = Path(path)
        try:
            size = path.stat().st_size
        except OSError:
            size = None
        progress = self._import_progress(path.name, size)
        self.db.run_beside(_unless_cancelled(import_file_isolated, path, cancel=progress.cancel,
                                             **self._import_limits()),
                           on_done=lambda result: self._imported(progress, result),
                           on_error=lambda error: self._import_stopped(progress, error))

    def import_pasted(self, text: str | None = None) -> None:
        """Ask for pasted text (unless given), import it off the UI thread, review it."""
        if text is None:
            from .views.import_screen import PasteDialog

            dialog = PasteDialog(self)
            if dialog.exec() != PasteDialog.DialogCode.Accepted:
                return
            text = dialog.text.toPlainText()
        from question_db.interchange.import_process import import_pasted_isolated

        progress = self._import_progress(self.tr("the pasted text"), len(text.encode()))
        self.db.run_beside(_unless_cancelled(import_pasted_isolated, text,
                                             cancel=progress.cancel, **self._import_limits()),
                           on_done=lambda result: self._imported(progress, result),
                           on_error=lambda error: self._import_stopped(progress, error))

    def _import_progress(self, what: str, size: int | None):
        from .views.import_screen import ImportProgress

        self.import_job = ImportProgress(what, size, self)
        return self.import_job

    def _imported(self, progress, result) -> None:
        progress.finish()
        if result is not None and not progress.cancel.is_set():  # None: the learner cancelled
            self._review_import(result)

    def _import_stopped(self, progress, error: BaseException) -> None:
        progress.finish()
        self._import_failed(error)

    def _import_limits(self) -> dict:
        """The importer child's memory limit: ``import_memory_limit`` when set (tests),
        else import_process's default."""
        limit = self.import_memory_limit
        return {} if limit is None else {"memory_limit": limit}

    def _review_import(self, result):
        from question_db.paths import data_dir, user_papers_dir

        from .views.import_screen import ImportScreen

        view = ImportScreen(result, user_papers_dir(data_dir(self.data_dir)))
        view.sig_saved.connect(lambda _paper: self.reload_bank())
        self._show_screen(view)
        return view

    def _import_failed(self, error: BaseException) -> None:
        """Unreadable input names the file and the reason; an importer that ran out of
        memory or died says so; nothing was written either way. In the UI's language."""
        from question_db.interchange.import_process import ImporterFailed

        from .views.problem_text import refusal_message

        if isinstance(error, ImporterFailed):
            lead = self.tr("The importer stopped before it finished; nothing was written. "
                           "examdesk itself is fine.")
        else:
            lead = self.tr("This file cannot be imported; nothing was written.")
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Import paper"),
                          lead + "\n\n" + refusal_message(error),
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("import_failed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def reload_bank(self) -> None:
        """Parse the installed papers again (a pack was added), off the UI thread."""
        from question_db.bank_cache import load_and_cache_bank
        from question_db.paths import bank_cache_dir, data_dir, installed_paper_roots

        base = data_dir(self.data_dir)
        self.db.run_beside(load_and_cache_bank, installed_paper_roots(base),
                           bank_cache_dir(base), on_done=self._bank_reloaded)

    def _bank_reloaded(self, bank: Bank) -> None:
        self.set_bank(bank)
        self.apply_changes(Changes(everything=True))

    # --- start-up: unfinished exams ------------------------------------------------------
    def check_unfinished(self) -> None:
        """Offer to resume the newest unfinished exam (after the window is shown)."""
        self.db.run(deferred_action("unfinished_exams"), bank=self.bank,
                    on_done=self._offer_resume)

    def _offer_resume(self, sessions: list[SessionRecord]) -> None:
        if not sessions or self.screen_view is not None:
            return
        session = sessions[0]
        self.db.run(actions().session_paper, bank=self.bank, session_id=session.id,
                    on_done=lambda found: self._ask_resume(session, found.paper))

    def _ask_resume(self, session: SessionRecord, paper: Paper) -> None:
        if self.screen_view is not None:  # the learner opened something meanwhile
            return
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
        if self.screen_view is not None:
            self.screen_view.set_console_available(available)

    def on_check_finished(self, question_id: str, report: dict) -> None:
        """``CheckController.sig_check_finished``: deliver results, or say why there are
        none."""
        if self.screen_view is None:
            return
        if report.get("error"):
            self.screen_view.show_check_error(question_id, str(report["error"]))
            return
        self.screen_view.apply_check_result(question_id, list(report.get("checks") or []))

    # --- shutdown ------------------------------------------------------------------------
    def request_quit(self) -> bool:
        """File → Quit (Ctrl+Q): asks first when the screen on top says why (a running
        exam); returns whether examdesk is closing."""
        if not self.confirm_quit():
            return False
        self._quit_confirmed = True
        return self.close()

    def confirm_quit(self) -> bool:
        warning = self.screen_view.quit_warning() if self.screen_view is not None else None
        if not warning:
            return True
        answer = QMessageBox.question(self, self.tr("Quit examdesk?"), warning,
                                      QMessageBox.StandardButton.Yes
                                      | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._geometry_changed()

    def moveEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().moveEvent(event)
        self._geometry_changed()

    def _geometry_changed(self) -> None:
        """The window's size and place reach the settings file a second after the learner
        stops moving it, not only at a clean close: after a kill (or a crash, a power cut)
        the next launch opens as it was (issue 30.7)."""
        if self.isVisible():
            self._geometry_timer.start()

    def _save_geometry(self) -> None:
        self.settings.setValue(Keys.WINDOW_GEOMETRY, self.saveGeometry())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        """Save drafts (an exam keeps its wall-clock deadline) and the window settings.
        The window's own close button asks like Ctrl+Q does (a close from code does not:
        the app is quitting, e.g. the session ends)."""
        if event.spontaneous() and not getattr(self, "_quit_confirmed", False) \
                and not self.confirm_quit():
            event.ignore()
            return
        if self.console_placement is not None:
            self.console_placement.remember_height()
        if self.screen_view is not None:
            self.screen_view.leave(self.settings)
        self.settings.setValue(Keys.WINDOW_GEOMETRY, self.saveGeometry())
        self.settings.setValue(Keys.WINDOW_STATE, self.saveState())  # dock sizes and places
        self.settings.sync()
        self.db.flush()
        super().closeEvent(event)
