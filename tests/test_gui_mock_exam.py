"""Mock exam (组卷) on real widgets (issue 15, item 6): compose with a shortage message, save
as a template, run it in the exam screen, close examdesk mid-exam, resume it after a
relaunch and get its report."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop.views.exam import ExamView
from desktop.views.mock_exam_dialog import MockExamDialog
from desktop.views.report import ReportView
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui


def previewed(app, dialog: MockExamDialog) -> None:
    app.qtbot.waitUntil(lambda: not dialog._timer.isActive() and app.db.pending == 0,
                        timeout=10_000)
    app.wait_idle()


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
    dialog.start_button.click()
    exam = app.wait_screen(ExamView)
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
