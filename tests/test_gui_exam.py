"""Exam mode: countdown, answer sheet, auto-submit, resume after a relaunch, the report."""
from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop.views.countdown import Countdown
from desktop.views.exam import ExamView, StartExamDialog
from desktop.views.library import LibraryView
from desktop.views.report import ReportView
from question_db.responses import BlanksResponse, ChoiceResponse
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401
from question_db.grading import grade_answer

pytestmark = pytest.mark.gui


def index_of(view, number: int) -> int:
    return next(i for i, q in enumerate(view.questions) if q.number == number)


def answer(app, view: ExamView, number: int, keys=(), text: str | None = None) -> None:
    view.go_to(index_of(view, number))
    for key in keys:
        app.qtbot.keyClick(view, key)
    if text is not None:
        edit = view.current_page().answer.edits[0]
        app.qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
        app.qtbot.keyClicks(edit, text)


def test_short_exam_auto_submits_and_report_matches_grading(launch, tmp_path):
    app = launch()
    app.window.start_exam("000", 2)  # a 2-second exam: the test hook for the start dialog
    view = app.wait_screen(ExamView)
    assert view.countdown.isVisible() and view.sheet.isVisible()
    answer(app, view, 1, [Qt.Key.Key_A])                    # correct
    answer(app, view, 2, [Qt.Key.Key_A])                    # 000/2 key is not A
    answer(app, view, 16, [Qt.Key.Key_A, Qt.Key.Key_B])     # partial-credit section
    answer(app, view, 21, text="LoRA")
    view.go_to(index_of(view, 34))  # programming: saved, pending until checks run
    code = view.current_page().answer.editor
    code.setPlainText(code.toPlainText() + "\n# my attempt\n")
    report_view = app.wait_screen(ReportView)  # nobody pressed Submit: the clock did

    report = report_view.report
    assert report.state == "auto_submitted"
    paper = bundled_bank().paper("000")
    programming = next(r for r in report.questions if r.number == 34)
    assert programming.verdict == "pending" and "# my attempt" in programming.response.code
    responses = {"000/1": ChoiceResponse(("A",)), "000/2": ChoiceResponse(("A",)),
                 "000/16": ChoiceResponse(("A", "B")), "000/21": BlanksResponse(("LoRA",)),
                 "000/34": programming.response}
    for section, line in zip(paper.sections, report.sections):
        expected = sum(
            grade_answer(q, responses[q.id], multiple_choice_rule=section.multiple_choice_rule)
            .points for q in paper.questions if section.contains(q.number) and q.id in responses)
        assert line.points == pytest.approx(expected), section.title
        row = [report_view.sections.item(i, 0).text()
               for i in range(report_view.sections.rowCount())].index(section.title)
        assert float(report_view.sections.item(row, 1).text()) == pytest.approx(expected)
    assert report.score == pytest.approx(sum(line.points for line in report.sections))
    sessions = db_rows(tmp_path / "progress.sqlite3", "SELECT * FROM sessions")
    assert sessions[0]["state"] == "auto_submitted"
    assert sessions[0]["score"] == pytest.approx(report.score)
    answered = db_rows(tmp_path / "progress.sqlite3", "SELECT question_id FROM answers")
    assert {r["question_id"] for r in answered} == set(responses)


def test_close_relaunch_and_resume_keeps_answers_flags_drafts_and_deadline(
        launch, tmp_path, monkeypatch):
    app = launch()
    app.window.start_exam("000", 3600)
    view = app.wait_screen(ExamView)
    deadline = view.deadline
    answer(app, view, 1, [Qt.Key.Key_C])
    answer(app, view, 3)
    app.qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    answer(app, view, 22, text="QLoRA")  # still a draft in the debounce when we close
    view.go_to(index_of(view, 31))
    view.current_page().answer.text.setPlainText("分三步：数据、训练、部署")
    assert view.sheet.state(index_of(view, 3)) == "unanswered+flagged"
    app.quit()  # closing the window is not submitting

    sessions = db_rows(tmp_path / "progress.sqlite3", "SELECT * FROM sessions")
    assert [s["state"] for s in sessions] == ["active"]

    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes)
    again = launch()
    again.window.check_unfinished()
    resumed = again.wait_screen(ExamView)
    assert asked and "minutes left" in asked[0]
    assert resumed.deadline == deadline  # the wall-clock deadline, not a fresh hour
    assert 0 < resumed.remaining() <= 3600
    assert resumed.response(index_of(resumed, 1)) == ChoiceResponse(("C",))
    assert resumed.response(index_of(resumed, 22)).blanks[0] == "QLoRA"
    essay = resumed.response(index_of(resumed, 31))
    assert essay.text == "分三步：数据、训练、部署"
    assert "000/3" in resumed.flags
    sheet = resumed.sheet
    assert sheet.state(index_of(resumed, 1)) == "answered"
    assert sheet.state(index_of(resumed, 3)) == "unanswered+flagged"
    assert sheet.state(index_of(resumed, 2)) == "unanswered"
    assert resumed.seconds.get("000/1", 0) > 0  # time per question survives too
    resumed.go_to(index_of(resumed, 3))
    assert resumed.flag_button.isChecked() and resumed.current_page().flag_label.isVisible()


def test_exam_whose_time_ran_out_while_closed_is_submitted_on_resume(launch, monkeypatch):
    first = launch()
    # An exam started two minutes ago with one minute on the clock, one answer drafted:
    # what a learner leaves behind by closing examdesk mid-exam and coming back later.
    def leave_expired_exam(store):
        session_id = store.start_session(paper_id="000", mode="exam", duration_s=60,
                                         now=time.time() - 120)
        store.save_draft(session_id, "000/1", "A", seconds=12.0)
        return session_id

    session_id = first.db.run(leave_expired_exam).result(timeout=5)
    first.quit()

    told = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: told.append(a[2]))
    again = launch()
    again.window.check_unfinished()
    report = again.wait_screen(ReportView).report
    assert told and "Time ran out" in told[0]
    assert report.session_id == session_id and report.state == "auto_submitted"
    assert report.questions[0].verdict == "correct"
    assert report.time_used_s == pytest.approx(60)  # capped at the deadline


def test_submit_confirmation_lists_unanswered_and_flagged(launch, monkeypatch):
    app = launch()
    app.window.start_exam("000", 3600)
    view = app.wait_screen(ExamView)
    answer(app, view, 1, [Qt.Key.Key_A])
    answer(app, view, 2)
    view.toggle_flag()
    shown = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.No)
    app.qtbot.mouseClick(view.submit_button, Qt.MouseButton.LeftButton)
    assert "Unanswered: 2, 3," in shown[0] and "Flagged: 2" in shown[0]
    assert app.window.screen_view is view  # "No" keeps the exam running
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    app.qtbot.mouseClick(view.submit_button, Qt.MouseButton.LeftButton)
    report = app.wait_screen(ReportView).report
    assert report.state == "submitted"
    app.window.go_library()
    library = app.window.library
    app.wait_idle()
    card = library.cards["000"]
    assert "Best 2" in card.scores.text() and card.reports_button.isEnabled()
    assert not card.badge.isVisible()


def test_library_shows_unfinished_badge_and_resumes(launch):
    app = launch()
    app.window.start_exam("001", 600)
    app.wait_screen(ExamView)
    app.window.go_library()
    app.wait_idle()
    card = app.window.library.cards["001"]
    assert card.badge.isVisible() and "Unfinished exam" in card.badge.text()
    app.qtbot.mouseClick(card.exam_button, Qt.MouseButton.LeftButton)
    assert app.wait_screen(ExamView).paper.id == "001"
    assert isinstance(app.window.library, LibraryView)


def test_start_dialog_duration_defaults_to_paper_and_is_adjustable(qtbot):
    paper = bundled_bank().paper("000")
    dialog = StartExamDialog(paper)
    qtbot.addWidget(dialog)
    assert dialog.minutes.value() == paper.duration_minutes
    dialog.minutes.setValue(45)
    assert dialog.duration_s(paper) == 45 * 60


def test_countdown_warns_at_30_15_5_minutes_then_expires(qtbot):
    now = [1000.0]
    clock = Countdown(clock=lambda: now[0])
    qtbot.addWidget(clock)
    warnings, expired = [], []
    clock.sig_warning.connect(warnings.append)
    clock.sig_expired.connect(lambda: expired.append(True))
    clock.start(now[0] + 40 * 60)
    assert clock.text() == "00:40:00" and warnings == []
    for minutes_left, expected in ((31, []), (30, [30]), (16, [30]), (14, [30, 15]),
                                   (4, [30, 15, 5])):
        now[0] = clock.deadline - minutes_left * 60
        clock.tick()
        assert warnings == expected
    assert not expired
    now[0] = clock.deadline + 1
    clock.tick()
    clock.tick()
    assert expired == [True] and clock.text() == "00:00:00"


def test_pending_subjective_answer_self_marked_in_report_and_past_report_opens(launch):
    app = launch()
    app.window.start_exam("000", 3600)
    view = app.wait_screen(ExamView)
    view.go_to(index_of(view, 31))
    view.current_page().answer.text.setPlainText("显存按 16 B/参数估算")
    view.submit()
    report_view = app.wait_screen(ReportView)
    row = next(r for r in report_view.report.questions if r.number == 31)
    assert row.verdict == "pending" and report_view.report.pending >= 1
    assert "selfmark:31" in report_view.details.toHtml()
    app.window.resize(1400, 900)
    report_view.tabs.setCurrentWidget(report_view.times)
    app.qtbot.waitUntil(report_view.times.isVisible)
    assert report_view.times.columnWidth(0) < 150  # a number, not 1100 px (issue 30)
    rubric = bundled_bank().question("000/31").rubric
    marks = [True] + [False] * (len(rubric) - 1)
    report_view.self_mark(31, marks)
    app.qtbot.waitUntil(lambda: next(r for r in report_view.report.questions
                                     if r.number == 31).verdict != "pending")
    row = next(r for r in report_view.report.questions if r.number == 31)
    assert row.points == rubric[0].points and row.response.text == "显存按 16 B/参数估算"

    app.window.go_library()
    app.wait_idle()
    card = app.window.library.cards["000"]
    actions = card.reports_menu.actions()
    assert len(actions) == 1
    actions[0].trigger()
    reopened = app.wait_screen(ReportView)
    assert next(r for r in reopened.report.questions if r.number == 31).points == rubric[0].points
