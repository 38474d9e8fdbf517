"""The main window's console hooks, as the lead wires them to desktop/console/.

No kernel here: the check results are the dicts CheckController reports, typed in by the
test (a real kernel run is covered by the console's own tests).
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.views.exam import ExamView
from desktop.views.practice import PracticeView
from desktop.views.report import ReportView
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui
CHECKS_ALL_PASS = [{"name": "shape", "passed": True, "required": True},
                   {"name": "causal", "passed": True, "required": True},
                   {"name": "compile", "passed": False, "required": False}]


def programming_index(view) -> int:
    return next(i for i, q in enumerate(view.questions) if q.type == "programming")


def test_practice_check_button_round_trip_grades_the_submitted_code(launch, tmp_path):
    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    view.go_to(programming_index(view))
    widget = view.current_page().answer
    widget.editor.setPlainText(widget.code() + "\n# my solution\n")
    assert not widget.check_button.isEnabled()
    app.window.set_console_available(True)
    assert widget.check_button.isEnabled() and widget.run_button.isEnabled()
    with app.qtbot.waitSignal(app.window.sig_check_requested) as blocker:
        app.qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    question_id, code = blocker.args
    assert question_id == widget.question.id and code == widget.code()
    with app.qtbot.waitSignal(app.window.sig_run_requested) as blocker:
        app.qtbot.mouseClick(widget.run_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [widget.code()]

    app.window.on_check_finished(question_id, {"checks": CHECKS_ALL_PASS, "error": None})
    assert "2 of 2 required checks passed" in widget.check_status.text()
    assert "1 optional check(s) failed" in widget.check_status.text()
    view.submit_current()
    app.wait_idle()
    row = db_rows(tmp_path / "progress.sqlite3", "SELECT * FROM answers WHERE question_id = ?",
                  [question_id])[0]
    auto = sum(r.points for r in widget.question.rubric if r.auto)
    assert row["grade"]["points"] == pytest.approx(auto)  # every required check passed
    assert row["response"]["checks"] == CHECKS_ALL_PASS


def test_check_error_is_shown_not_graded(launch):
    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    view.go_to(programming_index(view))
    app.window.on_check_finished(view.questions[view.current].id,
                                 {"checks": [], "error": "the kernel died"})
    widget = view.current_page().answer
    assert "the kernel died" in widget.check_status.text() and widget.checks is None


def test_pending_programming_answer_is_checked_later_from_the_report(launch):
    app = launch()
    app.window.start_exam("000", 3600)
    view = app.wait_screen(ExamView)
    view.go_to(programming_index(view))
    editor = view.current_page().answer.editor
    editor.setPlainText(editor.toPlainText() + "\n# done\n")
    view.submit()
    report_view = app.wait_screen(ReportView)
    qid = view.questions[programming_index(view)].id
    row = next(r for r in report_view.report.questions if r.question_id == qid)
    assert row.verdict == "pending" and "check:" not in report_view.details.toHtml()
    app.window.set_console_available(True)
    assert f"check:{row.number}" in report_view.details.toHtml()
    app.window.on_check_finished(qid, {"checks": CHECKS_ALL_PASS, "error": None})
    app.qtbot.waitUntil(lambda: next(r for r in report_view.report.questions
                                     if r.question_id == qid).verdict != "pending")
    question = bundled_bank().question(qid)
    row = next(r for r in report_view.report.questions if r.question_id == qid)
    assert row.points == pytest.approx(sum(r.points for r in question.rubric if r.auto))


def test_console_is_a_bar_on_choice_questions_opens_on_code_and_keeps_a_size_per_kind(
        launch, tmp_path):
    """No kernel starts here: only where the dock is (issue 14, item 2). A thin bar on the
    library and choice questions, open at ~30% on code, the learner's height per kind of
    question kept across launches, and View → Python console (Ctrl+`) always brings it
    back, even after its × hid it."""
    from PySide6.QtWidgets import QApplication

    from desktop.console.wiring import attach_console

    def settle():
        for _ in range(3):
            QApplication.processEvents()

    app = launch()
    app.window.hide()  # as at start-up: the docks are attached before the window is shown
    console = attach_console(app.window, app.settings, data_dir=tmp_path)
    app.window.show()
    settle()
    dock, placement = console.dock, app.window.console_placement
    bar = dock.titleBarWidget().sizeHint().height()
    height = app.window.height()
    assert dock.isVisible() and dock.height() <= bar + 6  # the library: a thin bar
    assert not console.panel_dock.isVisible()  # results live under each editor now

    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    settle()
    assert dock.height() <= bar + 6 and not dock.widget().isVisible()  # Q1: single choice
    code = programming_index(view)
    view.go_to(code)
    settle()
    assert dock.widget().isVisible() and 0.2 * height <= dock.height() <= 0.4 * height
    app.window.resizeDocks([dock], [int(height * 0.5)], Qt.Orientation.Vertical)
    settle()
    chosen = dock.height()
    assert chosen > 0.42 * height
    view.go_to(0)
    settle()
    assert dock.height() <= bar + 6
    view.go_to(code)
    settle()
    assert abs(dock.height() - chosen) <= 8  # the size chosen for code questions

    view.go_to(0)
    bar_widget = dock.titleBarWidget()
    bar_widget.findChild(type(bar_widget.arrow), "console_close").click()  # the × hides it
    settle()
    assert not dock.isVisible()
    placement.action.trigger()  # View → Python console / Ctrl+`: back, open
    settle()
    assert dock.isVisible() and dock.widget().isVisible() and dock.height() > bar + 40
    console.shutdown()
    app.quit()  # the learner closes examdesk: the sizes are saved

    again = launch()  # same folder, same settings file
    console = attach_console(again.window, again.settings, data_dir=tmp_path)
    again.window.open_practice("000")
    view = again.wait_screen(PracticeView)
    settle()
    # opened by hand on a choice question last time: that was for that screen (issue
    # 30.7: it then stayed open on every non-code page, launch after launch)
    assert not console.dock.widget().isVisible()
    placement = again.window.console_placement
    placement.action.trigger()  # opened here, on question 1 …
    settle()
    view.go_to(1)  # … it stays open on this screen's next choice question
    settle()
    assert console.dock.widget().isVisible()
    again.window.go_library()  # but the next screen starts with the bar
    settle()
    assert not console.dock.widget().isVisible()
    again.window.open_practice("000")
    view = again.wait_screen(PracticeView)
    settle()
    assert not console.dock.widget().isVisible()
    view.go_to(programming_index(view))
    settle()
    assert abs(console.dock.height() - chosen) <= 8
    console.shutdown()
