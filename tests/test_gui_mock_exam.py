"""Mock exam (组卷) on real widgets (issue 15, item 6): compose with a shortage message, save
as a template, run it in the exam screen, close examdesk mid-exam, resume it after a
relaunch and get its report."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from desktop.views.exam import ExamView, StartExamDialog
from desktop.views.mock_exam_dialog import MockExamDialog
from desktop.views.report import ReportView
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui


def previewed(app, dialog: MockExamDialog) -> None:
    app.qtbot.waitUntil(lambda: not dialog._timer.isActive() and app.db.pending == 0,
                        timeout=10_000)
    app.wait_idle()


def accept_start_dialog(app, *, minutes: int, open_book: bool = False) -> list:
    """Answer the start dialog (the same as a paper's exam) once it is up: its title and
    minutes as it came up, then the mode and Start."""
    seen: list = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, StartExamDialog):
            QTimer.singleShot(20, answer)
            return
        seen.append((dialog.windowTitle() and dialog.findChild(QLabel).text()
                     .replace("<h3>", "").replace("</h3>", ""), dialog.minutes.value()))
        dialog.minutes.setValue(minutes)
        (dialog.open_book_button if open_book else dialog.closed_book).setChecked(True)
        dialog.accept()

    QTimer.singleShot(0, answer)
    return seen


def test_compose_save_run_close_resume_and_report(launch, tmp_path, monkeypatch):
    app = launch()
    app.qtbot.mouseClick(app.window.library.mock_button, Qt.MouseButton.LeftButton)
    [dialog] = [d for d in app.window.findChildren(MockExamDialog) if d.isVisible()]
    previewed(app, dialog)
    single, multiple = "single_choice", "multiple_choice"
    pool = sum(q.type == multiple and q.scored and not q.draft
               for q in bundled_bank().all_questions())
    dialog.counts[multiple].setValue(pool + 1)
    previewed(app, dialog)
    assert not dialog.start_button.isEnabled()
    assert f"{pool + 1} needed, {pool} available" in dialog.preview_label.text()
    assert dialog.available[multiple].text() == str(pool)

    dialog.include["fill_blank"].setChecked(False)
    dialog.include[multiple].setChecked(False)
    dialog.counts[single].setValue(3)
    dialog.points[single].setValue(4)
    dialog.duration.setValue(30)
    dialog.seed.setValue(7)
    dialog.title.setText("周测")
    previewed(app, dialog)
    assert dialog.start_button.isEnabled()
    assert "3 questions · 12 points · 30 min" in dialog.preview_label.text()
    dialog.save_button.click()
    app.qtbot.waitUntil(lambda: dialog.template_combo.count() == 2)
    assert dialog.template is not None and dialog.template.name == "周测"
    started = accept_start_dialog(app, minutes=30)
    dialog.start_button.click()
    exam = app.wait_screen(ExamView)
    assert started == [("周测", 30)]
    app.wait_idle()
    assert exam.paper.id.startswith("mock-") and len(exam.questions) == 3
    assert exam.countdown.remaining() <= 30 * 60
    first = exam.questions[0]
    app.qtbot.keyClick(exam, getattr(Qt.Key, f"Key_{first.answer}"))
    exam.go_to(1)
    exam.toggle_flag()
    app.wait_idle()
    session_id = exam.session_id
    app.quit()  # killed or closed: the clock keeps running, the exam waits

    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes)
    again = launch()
    again.window.check_unfinished()
    resumed = again.wait_screen(ExamView)
    again.wait_idle()
    assert asked and "周测" in asked[0]
    assert resumed.session_id == session_id and resumed.current == 1  # where it was left
    assert resumed.response(0).picked == (first.answer,)
    assert resumed.sheet.state(1) == "unanswered+flagged"
    resumed.submit()
    report = again.wait_screen(ReportView)
    again.wait_idle()
    assert report.report.max_score == 12 and report.report.score == 4
    rows = db_rows(tmp_path / "progress.sqlite3", "SELECT state, score FROM sessions "
                   "WHERE id = ?", [session_id])
    assert rows == [{"state": "submitted", "score": 4}]


def test_a_mock_exam_is_found_again_on_the_library_and_the_dashboard(launch, tmp_path):
    """Issue 30.2: a composed exam's report is not gone once it is left. The library's mock
    exam card counts it and lists its report, the dashboard's score trend has it, it was
    started from the paper's start dialog (here open book, 20 min), and each type's points
    started from what the bank's questions of that type are worth."""
    from desktop.views.dashboard import DashboardView

    app = launch()
    library = app.window.library
    app.wait_idle()
    assert library.mock_card is None  # none taken yet: no card
    dialog = app.window.open_mock_exam()
    previewed(app, dialog)
    assert dialog.points["single_choice"].value() == 2  # every 单选题 in the bank: 2 points
    assert dialog.points["short_answer"].value() == 10  # every 简答题: 10, not 5 for all
    assert dialog.points["programming"].value() == 10  # the commonest of 10/12/15/20/30
    for qtype, box in dialog.include.items():
        box.setChecked(qtype == "single_choice")
    dialog.counts["single_choice"].setValue(2)
    dialog.title.setText("模考 A")
    previewed(app, dialog)
    minutes = dialog.duration.value()
    started = accept_start_dialog(app, minutes=20, open_book=True)
    dialog.start_button.click()
    exam = app.wait_screen(ExamView)
    app.wait_idle()
    assert started == [("模考 A", minutes)]
    rows = db_rows(tmp_path / "progress.sqlite3", "SELECT open_book, deadline - started_at "
                   "AS seconds FROM sessions WHERE id = ?", [exam.session_id])
    assert rows == [{"open_book": 1, "seconds": 20 * 60}]
    app.qtbot.keyClick(exam, getattr(Qt.Key, f"Key_{exam.questions[0].answer}"))
    app.wait_idle()
    exam.submit()
    report = app.wait_screen(ReportView)
    app.wait_idle()
    session_id = report.report.session_id

    app.window.go_library()
    app.qtbot.waitUntil(lambda: library.mock_card is not None
                        and library.mock_card.isVisibleTo(library), timeout=5000)
    card = library.mock_card
    assert "1 taken" in card.summary.text() and "模考 A" in card.summary.text()
    assert "2 of 4 points" in card.summary.text()
    [action] = card.reports_menu.actions()
    assert "模考 A" in action.text() and "2 / 4" in action.text()
    action.trigger()
    again = app.wait_screen(ReportView)
    app.wait_idle()
    assert again.report.session_id == session_id and again.report.score == 2

    app.window.go_library()
    dashboard = app.window.open_dashboard()
    app.qtbot.waitUntil(lambda: "trend" in getattr(dashboard, "panels", {}), timeout=10_000)
    table = dashboard.panels["trend"].table
    assert any("模考 A" in table.item(r, 0).text() for r in range(table.rowCount()))
