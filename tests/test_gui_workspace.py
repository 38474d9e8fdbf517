"""Issue 14 on real widgets over a real progress file (offscreen, no kernel: check results
are the dicts ``CheckController`` reports, delivered as ``MainWindow.on_check_finished``
delivers them; a real kernel run is the console's own tests): the code workspace, attempt
history, focus and keys, verdict detail, exam fidelity (time, resume, closed book)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from desktop.views.exam import ExamView, StartExamDialog
from desktop.views.practice import PracticeView
from desktop.views.report import ReportView
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui
CHECKS = [{"name": "shape", "passed": True, "required": True, "message": "ok", "seconds": 0.1},
          {"name": "causal", "passed": False, "required": True, "seconds": 0.2,
           "message": "output at t=3 changed when token 7 changed",
           "details": {"max_abs_err": 0.5}},
          {"name": "compile", "passed": True, "required": False, "message": "ok"}]
ALL_PASS = [dict(c, passed=True) for c in CHECKS]


def settle(n: int = 3) -> None:
    for _ in range(n):
        QApplication.processEvents()


def index_of(view, question_id: str) -> int:
    return next(i for i, q in enumerate(view.questions) if q.id == question_id)


def practice(app, paper_id: str = "001") -> PracticeView:
    app.window.open_practice(paper_id)
    return app.wait_screen(PracticeView)


def exam(app, paper_id: str = "000", *, open_book: bool = False) -> ExamView:
    app.window.start_exam(paper_id, 3600, open_book=open_book)
    return app.wait_screen(ExamView)


# --- 1. the code workspace -----------------------------------------------------------------
def test_programming_question_splits_into_problem_and_an_editor_of_most_of_the_width(launch):
    app = launch()
    app.window.resize(1024, 700)
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    settle()
    page = view.current_page()
    answer = page.answer
    assert page.workspace_splitter is not None
    problem, code = page.workspace_splitter.widget(0), page.workspace_splitter.widget(1)
    assert problem is page.scroll and code is answer  # problem left, code right
    assert answer.editor.width() >= 0.6 * page.width(), (answer.editor.width(), page.width())
    # The problem scrolls on its own (the code is not in its scroll area); the editor takes
    # the pane's height above its results.
    assert not page.scroll.widget().isAncestorOf(answer)
    editor_bottom = answer.editor.mapTo(answer, QPoint(0, answer.editor.height())).y()
    results_top = answer.results.mapTo(answer, QPoint(0, 0)).y()
    assert results_top >= editor_bottom  # the results are directly under the editor
    assert answer.editor.height() >= 0.5 * page.height()



def test_the_problem_pane_wraps_at_1024_and_never_scrolls_sideways(launch):
    """Every bundled programming question at 1024×700: the problem's page is no wider than
    its pane (long tokens such as ``RoPEMultiHeadAttention(nn.Module)`` wrap), so no line
    of the stem is cut at the right edge; its text is all there, selectable and copyable
    as written."""
    app = launch()
    app.window.resize(1024, 700)
    app.window.show()
    for paper_id in ("000", "001", "drills"):
        view = practice(app, paper_id)
        for q in (q for q in view.questions if q.type == "programming"):
            view.go_to(index_of(view, q.id))
            settle(5)
            page = view.current_page()
            scroll = page.scroll
            assert scroll.widget().width() <= scroll.viewport().width(), q.id
            assert scroll.horizontalScrollBar().maximum() == 0, q.id
            assert page.stem.height() >= page.stem.heightForWidth(page.stem.width()) - 1, q.id
        view.sig_leave.emit()
    view = practice(app, "001")
    view.go_to(index_of(view, "001/29"))
    settle(5)
    stem = view.current_page().stem
    assert "RoPEMultiHeadAttention" in stem.toPlainText()
    stem.selectAll()
    assert "\u200b" not in stem.textCursor().selectedText()  # copies as written



def test_the_problem_text_grows_with_zoom_and_is_never_clipped(launch):
    """Ctrl+= on a programming page: the problem text takes the height its bigger font
    needs (a height cached for the old font would cut the stem's end off)."""
    app = launch()
    app.window.resize(1024, 700)
    app.window.show()
    view = practice(app, "001")
    view.go_to(index_of(view, "001/29"))
    settle(5)
    stem = view.current_page().stem
    before = stem.height()
    app.window.set_zoom(4)
    settle(5)
    needed = stem.document().clone()
    needed.setTextWidth(stem.width())
    assert stem.height() > before
    assert stem.height() >= needed.size().height()
    app.window.set_zoom(0)


def test_splitters_are_remembered_across_questions_and_launches(launch, tmp_path):
    app = launch()
    app.window.resize(1400, 900)
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    settle()
    splitter = view.current_page().workspace_splitter
    splitter.setSizes([700, 600])
    splitter.splitterMoved.emit(700, 1)  # what dragging the handle emits
    chosen = splitter.sizes()
    view.go_to(index_of(view, "001/30"))  # the other code question follows
    settle()
    assert view.current_page().workspace_splitter.sizes() == chosen
    app.quit()
    again = launch()
    again.window.resize(1400, 900)
    view = practice(again)
    view.go_to(index_of(view, "001/30"))
    settle()
    assert abs(view.current_page().workspace_splitter.sizes()[0] - chosen[0]) <= 8


def test_results_belong_to_the_question_they_were_run_for(launch):
    app = launch()
    app.window.set_console_available(True)
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    first = view.current_page().answer
    assert not first.results.table.isVisibleTo(first)  # no rows yet: no empty grid
    first.check_button.click()
    app.window.on_check_finished("001/29", {"checks": CHECKS, "error": None})
    # failures first, then the rest in run order
    assert [r["name"] for r in first.results.rows()] == ["causal", "shape", "compile"]
    assert first.results.table.isVisibleTo(first)
    view.go_to(index_of(view, "001/30"))
    other = view.current_page().answer
    assert other.results.rows() == [] and "No check run yet" in other.results.summary.text()
    assert not other.results.table.isVisibleTo(other)
    app.window.go_library()
    view = practice(app, "000")  # another paper: nothing of 001's results
    view.go_to(index_of(view, "000/34"))
    assert view.current_page().answer.results.rows() == []


def test_a_starter_that_raises_gives_one_message_not_a_traceback_per_check(launch):
    app = launch()
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    answer = view.current_page().answer
    raised = [{"name": f"check_{i}", "passed": False, "required": True, "seconds": 0.01,
               "message": "NotImplementedError: ",
               "details": {"traceback": 'File "<cell>", line 41, in __init__\n'
                                        "    raise NotImplementedError\nNotImplementedError"}}
              for i in range(11)]
    app.window.on_check_finished("001/29", {"checks": raised, "error": None})
    text = answer.results.text_shown()
    assert "All 11 failed checks stopped at the same error" in text
    assert "raise NotImplementedError" in answer.results.summary.text()
    assert text.count("line 41") == 1  # one traceback, not eleven


def test_re_check_after_submit_in_practice_regrades_the_submitted_code(launch, tmp_path):
    app = launch()
    app.window.set_console_available(True)
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    answer = view.current_page().answer
    answer.editor.setPlainText(answer.code() + "\n# mine\n")
    view.submit_current()
    app.wait_idle()
    assert answer.check_button.isEnabled() and answer.run_button.isEnabled()
    assert answer.editor.isReadOnly() and not answer.reset_button.isEnabled()
    with app.qtbot.waitSignal(app.window.sig_check_requested) as blocker:
        answer.check_button.click()
    assert blocker.args == ["001/29", answer.code()]
    app.window.on_check_finished("001/29", {"checks": CHECKS, "error": None})
    app.wait_idle()
    with app.qtbot.waitSignal(app.window.sig_check_requested):
        answer.check_button.click()  # and again
    app.window.on_check_finished("001/29", {"checks": ALL_PASS, "error": None})
    app.wait_idle()
    question = bundled_bank().question("001/29")
    [row] = db_rows(tmp_path / "progress.sqlite3",
                    "SELECT * FROM answers WHERE question_id = '001/29'")
    auto = sum(r.points for r in question.rubric if r.auto)
    assert row["grade"]["points"] == pytest.approx(auto)  # the last run graded it
    assert row["response"]["code"].endswith("# mine\n")


def test_attempt_history_keeps_code_and_results_and_puts_code_back(launch, tmp_path,
                                                                   monkeypatch):
    app = launch()
    app.window.set_console_available(True)
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    answer = view.current_page().answer
    starter = answer.code()
    answer.replace_code(starter + "\n# version 1\n")
    answer.check_button.click()
    app.window.on_check_finished("001/29", {"checks": CHECKS, "error": None})
    answer.replace_code(starter + "\n# version 2\n")
    answer.check_button.click()
    app.window.on_check_finished("001/29", {"checks": ALL_PASS, "error": None})
    app.wait_idle()
    assert answer.history_button.text().endswith("(2)")
    rows = db_rows(tmp_path / "progress.sqlite3",
                   "SELECT code, passed, required FROM check_attempts ORDER BY id")
    assert [(r["code"][-12:], r["passed"], r["required"]) for r in rows] == [
        ("# version 1\n", 1, 2), ("# version 2\n", 2, 2)]

    answer.history_button.click()
    app.qtbot.waitUntil(lambda: view.attempt_dialog is not None)
    dialog = view.attempt_dialog
    assert dialog.list.count() == 2 and "2/2" in dialog.list.item(0).text()
    dialog.list.setCurrentRow(1)  # the older one
    assert "1 of 2 required checks passed" in dialog.result.text()
    assert "# version 1" in dialog.view.toPlainText()
    dialog.show_diff.setChecked(True)
    diff = dialog.view.toPlainText()
    assert "-# version 1" in diff and "+# version 2" in diff
    dialog.restore_button.click()
    assert answer.code().endswith("# version 1\n")
    answer.editor.undo()  # putting it back is one undo step
    assert answer.code().endswith("# version 2\n")

    # Reset to starter asks, then replaces (undoably).
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    answer.reset_button.click()
    assert answer.code() == starter


def test_results_of_code_edited_while_checking_do_not_grade_the_new_code(launch):
    app = launch()
    app.window.set_console_available(True)
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    answer = view.current_page().answer
    answer.check_button.click()
    answer.editor.insertPlainText("# typed while the checks ran\n")
    app.window.on_check_finished("001/29", {"checks": ALL_PASS, "error": None})
    assert answer.response().checks is None and "has changed since" in answer.results.summary.text()


# --- 3. focus and keys ---------------------------------------------------------------------
def test_focus_stays_in_the_question_after_a_fill_in_submit(launch):
    app = launch()
    app.window.activateWindow()
    view = practice(app)
    view.go_to(index_of(view, "001/16"))
    edit = view.current_page().answer.edits[0]
    app.qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    app.qtbot.keyClicks(edit, "x = x.float()")
    app.qtbot.keyClick(edit, Qt.Key.Key_Return)  # Enter submits a fill-in
    app.wait_idle()
    assert "001/16" in view.answers
    focused = QApplication.focusWidget()
    assert focused is view, focused
    here = view.current
    app.qtbot.keyClick(focused, Qt.Key.Key_Right)  # navigation works at once
    assert view.current == here + 1


def test_one_submit_key_per_answer_type_named_on_the_button(launch):
    app = launch()
    view = practice(app, "000")
    assert view.submit_button.text() == "Submit (Enter)"  # 000/1: single choice
    view.go_to(index_of(view, "000/31"))  # a short answer: Enter is a new line
    assert view.submit_button.text() == "Submit (Ctrl+Enter)"
    page = view.current_page()
    page.answer.text.setPlainText("LoRA")
    view.setFocus()
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    assert "000/31" not in view.saving and "000/31" not in view.answers
    app.qtbot.keyClick(page.answer.text, Qt.Key.Key_Return,
                       Qt.KeyboardModifier.ControlModifier)
    app.wait_idle()
    assert "000/31" in view.answers


def test_ctrl_q_during_an_exam_asks_and_no_keeps_it_running(launch, monkeypatch):
    app = launch()
    view = exam(app)
    answers = [QMessageBox.StandardButton.No]
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or answers[0])
    quit_action = app.window.findChild(QAction, "quit")
    assert quit_action.shortcut().matches(QKeySequence("Ctrl+Q")) == \
        QKeySequence.SequenceMatch.ExactMatch
    quit_action.trigger()  # Ctrl+Q
    assert asked and "clock keeps going" in asked[0]
    assert app.window.isVisible() and app.window.screen_view is view and not view.closed
    answers[0] = QMessageBox.StandardButton.Yes
    quit_action.trigger()
    assert len(asked) == 2 and not app.window.isVisible()  # quit: the exam stays active
    app.wait_idle()
    [session] = app.db.run(lambda store: store.sessions()).result(5)
    assert session.state == "active"


def test_help_lists_the_keyboard_shortcuts(launch):
    app = launch()
    dialog = app.window.show_shortcuts()
    cells = [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]
    assert "F5" in cells and "Ctrl+Enter" in cells and "Ctrl+Shift+Enter" in cells
    assert any("Ctrl+`" in c for c in cells)
    dialog.close()


# --- 4. verdict detail ---------------------------------------------------------------------
def test_fill_in_verdict_marks_each_blank_and_lists_every_accepted_variant(launch):
    app = launch()
    view = practice(app)
    view.go_to(index_of(view, "001/20"))  # two blanks
    page = view.current_page()
    question = page.question
    page.answer.edits[0].setText("world_size")
    page.answer.edits[1].setText("8")  # wrong
    view.submit_current()
    app.wait_idle()
    key = page.key.text()
    assert "(1) <b>✓</b>" in key and "(2) <b>✗</b>" in key
    for variant in question.answer[0]:  # none is cut (it was three at most)
        assert f"<code>{variant}</code>" in key, variant
    view.go_to(index_of(view, "001/16"))
    page = view.current_page()
    page.answer.edits[0].setText("y")
    view.submit_current()
    app.wait_idle()
    assert "x = x.float()" in page.key.text()  # 001/16's fifth accepted form, shown


def test_calculation_parts_show_marks_and_the_tolerance(launch):
    app = launch()
    view = practice(app)
    view.go_to(index_of(view, "001/26"))
    page = view.current_page()
    part = page.question.parts[0]
    page.answer.values[0].setText(f"{part.value:g}")
    view.submit_current()
    app.wait_idle()
    key = page.key.text()
    assert "<b>✓</b>" in key and f"± {part.tolerance:g}" in key


def test_multiple_choice_marks_need_no_colour_and_points_have_two_decimals(launch):
    app = launch()
    view = practice(app, "000")
    view.go_to(index_of(view, "000/17"))  # key A, B, C; partial credit in this section
    page = view.current_page()
    answer = page.answer
    widths = {letter: label.width() for letter, label in answer.labels.items()}
    app.qtbot.keyClick(view, Qt.Key.Key_A)
    app.qtbot.keyClick(view, Qt.Key.Key_D)
    view.submit_current()
    app.wait_idle()
    settle()
    assert [answer.mark_of(k) for k in "ABCD"] == ["✓", "○", "○", "✗"]
    assert "your pick, wrong" in page.key.text()  # the legend
    assert {letter: label.width() for letter, label in answer.labels.items()} == widths
    assert f"0 / {page.question.points:g} points" in page.verdict.text()  # a wrong pick: 0



def test_points_are_shown_with_at_most_two_decimals(launch):
    """2 of 7 required checks: 2/7 of the auto points (a float that printed as 3.4286)."""
    from desktop.views.points import format_points

    assert format_points(2 / 3) == "0.67" and format_points(8.3333) == "8.33"
    assert format_points(125.0) == "125" and format_points(1.5) == "1.5"
    app = launch()
    view = practice(app)
    view.go_to(index_of(view, "001/29"))
    page = view.current_page()
    page.answer.editor.insertPlainText("# mine\n")
    view.submit_current()
    app.wait_idle()
    checks = [dict(CHECKS[0], name=f"pass_{i}") for i in range(2)] + [
        dict(CHECKS[1], name=f"fail_{i}") for i in range(5)]
    app.window.on_check_finished("001/29", {"checks": checks, "error": None})
    app.wait_idle()
    auto = sum(r.points for r in page.question.rubric if r.auto)
    earned = 2 / 7 * auto
    assert round(earned, 2) != earned  # the case that printed four decimals
    assert f"{format_points(earned)} / {format_points(page.question.points)}" in \
        page.verdict.text()
    assert f"{earned:.4f}" not in page.verdict.text()


def test_self_marks_sit_beside_the_answer_and_saving_them_keeps_the_view(launch):
    app = launch()
    app.window.resize(1200, 800)
    view = practice(app, "000")
    view.go_to(index_of(view, "000/31"))
    page = view.current_page()
    page.answer.text.setPlainText("LoRA")
    view.submit_current()
    app.wait_idle()
    settle()
    assert page.compare is not None and page.compare.widget(0) is page.answer
    side = page.compare.widget(1)
    assert side.isAncestorOf(page.reference) and side.isAncestorOf(page.answer.rubric)
    assert page.reference.toPlainText().strip()
    rubric = page.answer.rubric
    page.ensureWidgetVisible(rubric, 0, 0)
    settle()
    before = rubric.mapTo(page, QPoint(0, 0)).y()
    app.qtbot.mouseClick(rubric.boxes[0], Qt.MouseButton.LeftButton)
    app.qtbot.mouseClick(view.marks_button, Qt.MouseButton.LeftButton)
    app.wait_idle()  # the rating bar appears and the verdict changes: nothing moves
    settle()
    assert abs(rubric.mapTo(page, QPoint(0, 0)).y() - before) <= 2


# --- 5. exam fidelity ----------------------------------------------------------------------
def test_time_on_the_question_on_screen_reaches_the_file_every_second(launch, tmp_path):
    app = launch()
    view = exam(app)
    view.go_to(index_of(view, "000/23"))
    app.qtbot.wait(2300)  # reading, not typing, not moving
    app.wait_idle()
    [row] = db_rows(tmp_path / "progress.sqlite3",
                    "SELECT seconds FROM drafts WHERE question_id = '000/23'")
    assert row["seconds"] >= 1.5


def test_an_exam_resumes_at_the_question_the_learner_was_on(launch, monkeypatch):
    app = launch()
    view = exam(app)
    view.go_to(index_of(view, "000/27"))
    app.qtbot.wait(1200)
    app.quit()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    again = launch()
    again.window.check_unfinished()
    resumed = again.wait_screen(ExamView)
    assert resumed.questions[resumed.current].id == "000/27"
    assert resumed.sheet.current == resumed.current


def test_void_questions_are_marked_on_the_answer_sheet(launch):
    app = launch()
    view = exam(app)
    void = [i for i, q in enumerate(view.questions) if not q.scored]
    assert void  # 000 has void questions
    assert view.sheet.state(void[0]).endswith("+void")
    assert "void" in view.sheet.buttons[void[0]].toolTip()
    assert "line-through" in view.sheet.buttons[void[0]].styleSheet()
    scored = next(i for i, q in enumerate(view.questions) if q.scored)
    assert "void" not in view.sheet.state(scored)


def test_start_dialog_explains_scored_against_printed_points_and_offers_the_mode(qtbot):
    paper = bundled_bank().paper("000")
    dialog = StartExamDialog(paper)
    qtbot.addWidget(dialog)
    points = dialog.findChild(QLabel, "exam_points").text()
    assert points.startswith("108") and "125" in points and "17" in points and "void" in points
    assert dialog.closed_book.isChecked() and not dialog.open_book()
    dialog.open_book_button.setChecked(True)
    assert dialog.open_book()
    full = StartExamDialog(bundled_bank().paper("001"))
    qtbot.addWidget(full)
    assert full.findChild(QLabel, "exam_points").text() == "150"  # nothing void: no note


def test_library_card_says_why_scored_points_are_fewer_than_printed(launch):
    app = launch()
    card = app.window.library.cards["000"]
    meta = card.findChild(QLabel, "paper_meta").text()
    assert "125 (108 scored: void questions are not) points" in meta
    assert "(" not in app.window.library.cards["001"].findChild(QLabel, "paper_meta").text()


def test_closed_book_exam_hides_checks_and_runs_them_after_submission(launch, tmp_path):
    app = launch()
    app.window.set_console_available(True)
    view = exam(app)  # closed book: the default
    view.go_to(index_of(view, "000/34"))
    answer = view.current_page().answer
    assert not answer.check_button.isVisible() and not answer.run_button.isVisible()
    assert not answer.results.isVisible() and not view.wants_console()
    answer.request_check()  # even the shortcut does nothing
    answer.editor.setPlainText(answer.code() + "\n# my layer\n")
    requested = []
    app.window.sig_check_requested.connect(lambda qid, code: requested.append((qid, code)))
    view.submit()
    report = app.wait_screen(ReportView)
    app.qtbot.waitUntil(lambda: bool(requested))  # checked at submission, in the report
    assert requested == [("000/34", answer.code())]
    app.window.on_check_finished("000/34", {"checks": ALL_PASS, "error": None})
    app.qtbot.waitUntil(lambda: next(r for r in report.report.questions
                                     if r.question_id == "000/34").verdict != "pending")
    assert "checked" in report.check_status.text()
    rows = db_rows(tmp_path / "progress.sqlite3", "SELECT * FROM check_attempts")
    assert [r["question_id"] for r in rows] == ["000/34"]


def test_open_book_exam_checks_during_the_exam(launch):
    app = launch()
    app.window.set_console_available(True)
    view = exam(app, open_book=True)
    assert view.open_book and view.wants_console()
    view.go_to(index_of(view, "000/34"))
    answer = view.current_page().answer
    assert answer.check_button.isVisible() and answer.check_button.isEnabled()
    with app.qtbot.waitSignal(app.window.sig_check_requested):
        answer.check_button.click()
    app.window.on_check_finished("000/34", {"checks": CHECKS, "error": None})
    assert answer.checks == CHECKS and answer.results.rows()
    session = app.db.run(lambda store: store.session(view.session_id)).result(5)
    assert session.open_book is True


# --- 7. language and question script -------------------------------------------------------
def test_traditional_question_script_is_display_only_and_keeps_every_word(launch):
    """s2tw, not s2twp: 参数 stays 參數 (s2twp would say 引數, "argument")."""
    from desktop.views.question_script import set_question_script

    app = launch()
    app.settings.setValue("ui/question_script", "hant")
    try:
        dialog = app.window.open_settings()
        assert dialog.script.currentData() == "hant"
        dialog.accept()
        view = practice(app)
        view.go_to(index_of(view, "001/20"))
        page = view.current_page()
        assert "參數分片數" in page.stem.text() and "訓練" in page.stem.text()
        assert page.question.answer[0][1] == "数据并行度"  # the bank is unchanged
        page.answer.edits[0].setText("數據並行度")  # what the Traditional display shows
        page.answer.edits[1].setText("1")
        view.submit_current()
        app.wait_idle()
        assert "Correct" in page.verdict.text()
        assert "<code>數據並行度</code>" in page.key.text()
        # the answer sheet's headings read in the same script (issue 30.7)
        headings = [g.title for g in view.navigator.groups]
        assert "一、單選題" in headings and "一、单选题" not in headings
    finally:
        set_question_script("hans")


def test_every_fill_in_key_shown_in_traditional_is_a_key_grading_accepts():
    from desktop.views.question_script import set_question_script, shown
    from question_db.grading import normalize_blank

    set_question_script("hant")
    try:
        for question in bundled_bank().all_questions():
            if question.type != "fill_blank" or not question.answer:
                continue
            for variants in question.answer:
                accepted = {normalize_blank(v) for v in variants}
                for variant in variants:
                    assert normalize_blank(shown(variant)) in accepted, (question.id, variant)
    finally:
        set_question_script("hans")


def test_weekday_names_follow_the_ui_language(qapp):
    import datetime as dt

    from PySide6.QtCore import QLocale

    from desktop.views.dashboard import weekday

    before = QLocale()
    try:
        QLocale.setDefault(QLocale("zh_CN"))
        assert weekday(dt.date(2026, 12, 7)) == "周一"  # a Monday
        QLocale.setDefault(QLocale("en"))
        assert weekday(dt.date(2026, 12, 7)) == "Mon"
    finally:
        QLocale.setDefault(before)
