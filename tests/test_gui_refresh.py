"""Refreshes that know who asked (issue 27, item 2): an action's changes reach every screen
with who ran it (``DbOps.run(..., initiator=)``) and whether the screen is on top; a hidden
screen only remembers what it missed, the initiator does not reload what it just set.

Jobs are counted where they go on the store queue (``StoreWorker.submit``), on real widgets
over a real SQLite file.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from desktop.views.paper_session import TIME_SAVE_MS
from desktop.views.practice import PracticeView
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui


def record_jobs(app, monkeypatch) -> list[str]:
    """From now on, the name of every job put on the store queue, in order."""
    jobs: list[str] = []
    worker = app.db.worker
    submit = worker.submit

    def counting(fn, *args, **kwargs):
        jobs.append(getattr(fn, "__name__", repr(fn)))
        return submit(fn, *args, **kwargs)

    monkeypatch.setattr(worker, "submit", counting)
    return jobs


def open_practice(app, paper_id: str = "000") -> PracticeView:
    app.window.open_practice(paper_id)
    view = app.wait_screen(PracticeView)
    # Its marks and notes loaded, and every page built ahead (a code page asks for its
    # check attempts when it is built: not a job of the submit).
    app.qtbot.waitUntil(lambda: len(view.pages) == len(view.questions)
                        and not view._prebuild_timer.isActive())
    app.wait_idle()
    return view


def submit_first_question(app, view: PracticeView, key: Qt.Key = Qt.Key.Key_1) -> None:
    """Pick an option of question 1 (a single choice) and submit it; wait for the verdict."""
    assert view.current == 0 and view.questions[0].type == "single_choice"
    app.qtbot.keyClick(view, key)
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: view.questions[0].id in view.answers
                        and view.pages[0].feedback.isVisible())
    app.wait_idle()


def test_one_practice_submit_puts_exactly_one_job_on_the_store_queue(launch, monkeypatch):
    """Before: four jobs per submit: the submit, a whole-bank library_summary for the
    hidden library, marks_of reloading the mark the screen had just set, and the 1 Hz time
    save of the question just submitted."""
    app = launch()
    view = open_practice(app)
    view.go_to(1)
    view.go_to(0)
    # The move's save (time, position) is stored: not a job of the submit.
    app.qtbot.waitUntil(lambda: not view.position_due() and view.db.pending == 0)
    app.qtbot.keyClick(view, Qt.Key.Key_1)  # its draft save is dropped by the submit
    jobs = record_jobs(app, monkeypatch)
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: view.pages[0].feedback.isVisible())
    app.qtbot.wait(TIME_SAVE_MS + 300)  # the per-second time save would have run by now
    app.wait_idle()
    assert "Correct" in view.pages[0].verdict.text()
    assert jobs == ["submit_practice_answer"]


def test_a_hidden_library_loads_its_summary_once_when_shown_again(launch, monkeypatch):
    app = launch()
    view = open_practice(app)
    jobs = record_jobs(app, monkeypatch)
    submit_first_question(app, view)
    view.go_to(1)
    app.qtbot.keyClick(view, Qt.Key.Key_2)
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: view.questions[1].id in view.answers)
    app.wait_idle()
    assert "library_summary" not in jobs  # two actions, the library hidden meanwhile
    app.window.go_library()
    app.wait_idle()
    assert jobs.count("library_summary") == 1


def test_the_library_shows_the_new_progress_when_shown_again(launch):
    """The card is not refreshed while hidden (before: once per action), and shows the new
    practice progress once the library is back."""
    app = launch()
    progress = app.window.library.cards["000"].findChild(QLabel, "practice_progress")
    view = open_practice(app)
    before = progress.text()
    submit_first_question(app, view)  # A: right
    view.go_to(1)
    app.qtbot.keyClick(view, Qt.Key.Key_2)  # B: wrong
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: view.questions[1].id in view.answers)
    app.wait_idle()
    assert progress.text() == before  # hidden: nothing reloaded for it
    app.window.go_library()
    app.wait_idle()
    assert progress.isVisible()
    total = len(app.window.bank.paper("000").questions)
    assert progress.text().startswith(f"Practice: 2 of {total} answered · 1 right · 1 wrong")


def test_the_library_shows_a_new_exam_score_when_shown_again(launch, monkeypatch):
    """An exam submitted under the library: its card's score is loaded once it is back."""
    from desktop.views.exam import ExamView
    from desktop.views.report import ReportView

    app = launch()
    card = app.window.library.cards["000"]
    app.window.start_exam("000", 3600)
    view = app.wait_screen(ExamView)
    app.qtbot.keyClick(view, Qt.Key.Key_A)  # question 1: right, 2 points
    app.wait_idle()
    jobs = record_jobs(app, monkeypatch)
    view.submit()
    app.wait_screen(ReportView)
    app.wait_idle()
    assert "library_summary" not in jobs and card.scores.text() == "No exam taken yet"
    app.window.go_library()
    app.wait_idle()
    assert jobs.count("library_summary") == 1
    assert card.scores.text().startswith("Best 2 · last 2 of ")
    assert card.scores.text().endswith(" points · 1 exam(s)")


def test_a_submit_right_after_leaving_a_submitted_question_still_stores_the_position(
        launch, tmp_path):
    """No time save follows a submitted question any more, so the move away from one
    queues nothing of its own: the submit that follows must not cancel the position save
    the move made due (a relaunch reopens there)."""
    from gui_fixtures import db_rows

    app = launch()
    view = open_practice(app)
    submit_first_question(app, view)
    view.go_to(1)
    app.qtbot.keyClick(view, Qt.Key.Key_1)
    app.qtbot.keyClick(view, Qt.Key.Key_Return)  # within the draft delay of the move
    db = tmp_path / "progress.sqlite3"
    app.qtbot.waitUntil(lambda: db_rows(db, "SELECT position FROM sessions WHERE id = ?",
                                        [view.session_id]) == [{"position": "000/2"}])
