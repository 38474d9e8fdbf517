"""Issue 30, item 1: scores that are right, on real widgets over a real progress file
(offscreen, no kernel: check results are delivered as ``MainWindow.on_check_finished``
delivers them, as in test_gui_workspace).

- results belong to the code's bytes, not to its edit history (Reset, then Ctrl+Z);
- code submitted without results for exactly that code is checked at submit;
- the answer sheet (navigator) and the library card read the same mark, self-marks included;
- an imported code question without checks waits for self-marks ("to self-mark", never
  "wrong 0/20"), asks for no trust, and offers its reference to compare with.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.views.practice import PracticeView
from question_db import trust
from question_db.bank import load_bank
from question_db.enums import Mark
from question_db.paths import user_papers_dir
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui
CHECKS = [{"name": "shape", "passed": True, "required": True, "message": "ok"},
          {"name": "causal", "passed": True, "required": True, "message": "ok"}]

IMPORTED_PAPER = """id = "imp"
title = "My imported notes"
language = "en"
duration_minutes = 20

[[sections]]
title = "Code"
type = "programming"
first = 1
last = 1
points = 20
"""
IMPORTED_QUESTION = """number = 1
type = "programming"
points = 20
status = "draft"
stem = "Write `add(a, b)` returning the sum."
seed_answer = ""
explanation = ""

[code]
seed = "q01_seed.py"

[[rubric]]
text = "Self-marked against the printed answer"
points = 20
"""
PRINTED = "def add(a, b):\n    return a + b\n"


def practice(app, paper_id: str) -> PracticeView:
    app.window.open_practice(paper_id)
    return app.wait_screen(PracticeView)


def go(view: PracticeView, question_id: str):
    view.go_to(next(i for i, q in enumerate(view.questions) if q.id == question_id))
    return view.current_page()


def answer_rows(tmp_path: Path, question_id: str) -> list[dict]:
    return db_rows(tmp_path / "progress.sqlite3",
                   "SELECT * FROM answers WHERE question_id = ? ORDER BY id", [question_id])


def imported_bank(data_dir: Path):
    """A pack as examdesk's importer writes one from the learner's text: a draft code
    question with the printed code as its seed, no check suite, one self-marked item."""
    pack = user_papers_dir(data_dir) / "imp"
    pack.mkdir(parents=True)
    (pack / "paper.toml").write_text(IMPORTED_PAPER, "utf-8")
    (pack / "q01.toml").write_text(IMPORTED_QUESTION, "utf-8")
    (pack / "q01_seed.py").write_text(PRINTED, "utf-8")
    bank = load_bank([user_papers_dir(data_dir)], include_bundled=False)
    assert not bank.problems, [str(p) for p in bank.problems]
    return bank


# --- results follow the code's content -----------------------------------------------------
def test_reset_then_undo_gives_back_the_checked_code_and_its_results_score_it(
        launch, tmp_path, monkeypatch):
    app = launch()
    app.window.set_console_available(True)
    view = practice(app, "001")
    answer = go(view, "001/29").answer
    answer.replace_code(answer.code() + "\n# my solution\n")
    checked = answer.code()
    answer.check_button.click()
    app.window.on_check_finished("001/29", {"checks": CHECKS, "error": None})
    assert answer.response().checks is not None
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    answer.reset_button.click()
    assert answer.code() == answer.starter
    assert "changed since" in answer.results.summary.text()
    assert answer.response().checks is None  # the starter was never checked
    answer.editor.undo()  # Ctrl+Z: the same bytes as the code that passed
    assert answer.code() == checked
    assert answer.response().checks is not None  # the results are the code's again
    assert "changed since" not in answer.results.summary.text()
    requested = []
    app.window.sig_check_requested.connect(lambda qid, code: requested.append(qid))
    view.submit_current()
    app.wait_idle()
    [row] = answer_rows(tmp_path, "001/29")
    auto = sum(r.points for r in bundled_bank().question("001/29").rubric if r.auto)
    assert row["grade"]["verdict"] != "pending"
    assert row["grade"]["points"] == pytest.approx(auto)  # 2/2 checks: all the auto points
    assert requested == []  # current results: nothing to check again


def test_code_submitted_after_an_edit_is_checked_and_that_check_scores_it(launch, tmp_path):
    app = launch()
    app.window.set_console_available(True)
    view = practice(app, "001")
    page = go(view, "001/29")
    answer = page.answer
    answer.check_button.click()
    app.window.on_check_finished("001/29", {"checks": CHECKS, "error": None})
    answer.editor.insertPlainText("# edited after the check\n")
    with app.qtbot.waitSignal(app.window.sig_check_requested) as blocker:
        view.submit_current()
        app.wait_idle()
    assert blocker.args == ["001/29", answer.code()]  # the submitted code, checked now
    assert "its result scores it" in page.verdict.text()
    [row] = answer_rows(tmp_path, "001/29")
    assert row["grade"]["verdict"] == "pending"  # the old results never scored new code
    app.window.on_check_finished("001/29", {"checks": CHECKS, "error": None})
    app.wait_idle()
    [row] = answer_rows(tmp_path, "001/29")
    auto = sum(r.points for r in bundled_bank().question("001/29").rubric if r.auto)
    assert row["grade"]["points"] == pytest.approx(auto)
    assert "# edited after the check\n" in row["response"]["code"]


def test_code_submitted_without_a_console_says_a_check_will_score_it(launch):
    app = launch()
    view = practice(app, "001")
    page = go(view, "001/29")
    page.answer.editor.insertPlainText("# mine\n")
    view.submit_current()
    app.wait_idle()
    assert "Press Check when the console is ready" in page.verdict.text()


# --- one mark per question -------------------------------------------------------------------
def test_self_marks_give_the_answer_sheet_and_the_library_card_the_same_mark(launch):
    app = launch()
    view = practice(app, "000")
    page = go(view, "000/31")
    index = view.current
    page.answer.text.setPlainText("LoRA trains a low-rank update")
    view.submit_current()
    app.wait_idle()
    app.qtbot.waitUntil(lambda: page.answer.rubric is not None)
    page.answer.rubric.boxes[0].click()
    app.qtbot.mouseClick(view.marks_button, Qt.MouseButton.LeftButton)
    app.wait_idle()
    assert view.navigator.state(index) == "partly"
    view.reload_marks()  # what the store says, as after any change elsewhere
    app.wait_idle()
    assert view.navigator.state(index) == "partly"
    app.window.go_library()
    app.wait_idle()
    card = app.window.library.cards["000"].practice_progress.text()
    assert "1 of " in card and "1 partly" in card
    view = practice(app, "000")  # opened again: the answer sheet is read from the store
    app.wait_idle()
    assert view.navigator.state(index) == "partly"
    assert view.navigator.counts()[Mark.PENDING] == 0


# --- an imported code question without checks ------------------------------------------------
def test_an_imported_code_question_waits_for_self_marks_and_offers_the_reference(
        launch, tmp_path):
    bank = imported_bank(tmp_path)
    assert not trust.needs_consent(bank.paper("imp"), data_dir=tmp_path)
    app = launch(bank=bank)
    app.window.set_console_available(True)
    view = practice(app, "imp")
    page = go(view, "imp/1")
    answer = page.answer
    assert not answer.check_button.isVisibleTo(answer)  # no suite: nothing to check
    assert "no check suite" in answer.results.summary.text()
    answer.editor.setPlainText("def add(a, b):\n    return b + a\n")
    view.submit_current()
    app.wait_idle()
    [row] = answer_rows(tmp_path, "imp/1")
    assert row["grade"]["verdict"] == "pending"  # not "wrong 0/20"
    assert "To self-mark" in page.verdict.text() and "Wrong" not in page.verdict.text()
    assert view.navigator.state(view.current) == "pending"

    assert answer.compare_button.isVisibleTo(answer)
    answer.compare_button.click()
    app.qtbot.waitUntil(lambda: _compare_dialog(app) is not None)
    dialog = _compare_dialog(app)
    assert PRINTED.splitlines()[1].strip() in dialog.findChild(
        type(dialog.diff), "compare_reference_code").toPlainText()
    assert "+    return a + b" in dialog.diff.toPlainText()
    dialog.close()

    app.qtbot.waitUntil(lambda: answer.rubric is not None)
    answer.rubric.boxes[0].click()
    app.qtbot.mouseClick(view.marks_button, Qt.MouseButton.LeftButton)
    app.wait_idle()
    [row] = answer_rows(tmp_path, "imp/1")
    assert (row["grade"]["verdict"], row["grade"]["points"]) == ("correct", 20)
    view.reload_marks()
    app.wait_idle()
    assert view.navigator.state(view.current) == "right"  # not ✗, not pending


def _compare_dialog(app):
    from desktop.views.reference_compare import ReferenceCompareDialog

    found = [w for w in QApplication.topLevelWidgets()
             if isinstance(w, ReferenceCompareDialog) and w.isVisible()]
    return found[0] if found else None


def test_the_report_practises_the_missed_questions_as_a_run(launch):
    """Issue 30.7: 错题重练 from the report: the questions the exam scored wrong or partly,
    as a practice run, in one click."""
    from desktop.views.exam import ExamView
    from desktop.views.practice import PracticeView
    from desktop.views.report import ReportView

    app = launch()
    app.window.start_exam("000", 3600)
    exam = app.wait_screen(ExamView)
    wrong = []
    for index in range(4):
        q = exam.questions[index]
        right = index % 2 == 0
        letter = q.answer if right else next(k for k in q.options if k != q.answer)
        if not right:
            wrong.append(q.id)
        exam.go_to(index)
        app.qtbot.keyClick(exam, getattr(Qt.Key, f"Key_{letter}"))
    app.wait_idle()
    exam.submit()
    report = app.wait_screen(ReportView)
    app.wait_idle()
    missed = [r.question_id for r in report.report.questions if r.verdict in ("wrong",
                                                                             "partial")]
    assert set(wrong) <= set(missed)
    assert report.retry_button.isVisible() and str(len(missed)) in report.retry_button.text()
    report.retry_button.click()
    run = app.wait_screen(PracticeView)
    assert [q.id for q in run.questions] == missed and run.run is not None
