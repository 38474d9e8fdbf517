"""The code workspace at 1024×700 (issue 30.3): the problem pane can be put away so the
editor gets at least 80 columns, the failing check's whole message is on screen without
hovering, recite mode shows the reference solution (read-only) and keeps the learner's
code, and the editor / results split is remembered per kind of code question."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication

from desktop.config import Keys
from desktop.views.paper_session import RESULTS_SPLITTER_KEYS, workspace_splitters
from desktop.views.practice import PracticeView
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui
LONG = ("output at position 3 changed when token 7 changed: the attention looks ahead "
        "(causal mask missing or applied after the softmax); max |Δ| = 0.4817 over 96 "
        "elements, first at [0, 3, 1, 5]")
CHECKS = [{"name": "causal", "passed": False, "required": True, "seconds": 0.2,
           "message": LONG, "details": {"max_abs_err": 0.4817, "first_mismatch": [0, 3, 1, 5]}},
          {"name": "shape", "passed": True, "required": True, "message": "ok", "seconds": 0.1}]


def code_page(app, question_id: str = "001/29"):
    app.window.resize(1024, 700)
    app.window.open_practice(question_id.split("/")[0])
    view = app.wait_screen(PracticeView)
    view.go_to(next(i for i, q in enumerate(view.questions) if q.id == question_id))
    app.wait_idle()
    return view, view.current_page()


def columns(editor) -> float:
    return editor.viewport().width() / editor.fontMetrics().horizontalAdvance("x")


def test_the_problem_pane_folds_away_for_an_80_column_editor_and_stays_so(launch, tmp_path):
    app = launch()
    view, page = code_page(app)
    editor = page.answer.editor
    assert page.problem_shown() and page.problem_button.isVisible()
    narrow = columns(editor)
    page.problem_button.click()
    app.wait_idle()
    assert not page.problem_shown() and not page.scroll.isVisible()
    assert columns(editor) >= 80 > narrow, (narrow, columns(editor))
    # every code page of the screen follows, and the next launch remembers it
    view.go_to(next(i for i, q in enumerate(view.questions) if q.id == "001/30"))
    app.wait_idle()
    assert not view.current_page().problem_shown()
    app.window.go_library()
    settings = app.settings
    assert str(settings.value(Keys.WORKSPACE_PROBLEM_HIDDEN)).lower() == "true"
    view, page = code_page(app, "001/30")
    assert not page.problem_shown()
    [shortcut] = [s for s in page.findChildren(QShortcut)
                  if s.key() == QKeySequence("Ctrl+Shift+P")]
    shortcut.activated.emit()  # offscreen no window is active to take the key itself
    assert page.problem_shown()


def test_the_failing_checks_whole_message_is_on_screen_without_hovering(launch):
    app = launch()
    app.window.set_console_available(True)
    view, page = code_page(app)
    answer = page.answer
    answer.check_button.click()
    app.window.on_check_finished("001/29", {"checks": CHECKS, "error": None})
    app.wait_idle()
    detail = answer.results.detail
    assert detail.isVisible()
    editor_h, results_h = answer.results_splitter.sizes()
    assert results_h >= 0.44 * (editor_h + results_h)  # room made for the diagnosis
    shown = detail.text()
    assert LONG.replace(">", "&gt;") in shown or LONG in shown  # all of it, not a first line
    assert "0.4817" in shown and "first_mismatch" in shown
    # wrapped to the pane's width, nothing cut at its edge
    assert detail.width() <= answer.results.detail_scroll.viewport().width()
    assert detail.height() >= detail.heightForWidth(detail.width())
    # another row shows that check
    answer.results.table.setCurrentItem(answer.results.table.topLevelItem(1))
    assert "shape" in detail.text() and LONG not in detail.text()


def test_recite_mode_shows_the_reference_read_only_and_keeps_the_learners_code(launch):
    app = launch()
    view, page = code_page(app)
    answer = page.answer
    answer.editor.setPlainText("def mine():\n    return 42\n")
    QApplication.processEvents()
    view.set_recite(True)
    app.wait_idle()
    page = view.current_page()
    answer = page.answer
    reference = answer.reference_code()
    assert reference and answer.editor.toPlainText() == reference
    assert answer.editor.isReadOnly() and not answer.check_button.isEnabled()
    assert answer.response().code == "def mine():\n    return 42\n"
    view.set_recite(False)
    app.wait_idle()
    assert view.current_page().answer.editor.toPlainText() == "def mine():\n    return 42\n"


def test_the_editor_results_split_is_kept_per_kind_of_code_question(launch):
    app = launch()
    view, page = code_page(app)
    [(_, problem_key), (splitter, results_key)] = workspace_splitters(page)
    assert problem_key == Keys.WORKSPACE_SPLITTER
    assert results_key == RESULTS_SPLITTER_KEYS[0]  # it has a check suite
    total = sum(splitter.sizes())
    splitter.moveSplitter(total - 80, 1)
    app.window.go_library()
    settings = app.settings
    assert settings.value(RESULTS_SPLITTER_KEYS[0]) is not None
    assert settings.value(RESULTS_SPLITTER_KEYS[1]) is None  # a self-marked one keeps its own


@pytest.mark.parametrize("width", [300, 360, 520, 900])
def test_the_rating_bar_never_cuts_a_button_off(qtbot, width):
    """Issue 30.3: after a submit the rating buttons sit in the problem pane, ~300 px wide
    at 1024×700 on a code question: they wrap under the summary instead of being cut."""
    import time
    from types import SimpleNamespace

    from desktop.views.rating_bar import RatingBar
    from question_db import review

    from PySide6.QtWidgets import QVBoxLayout, QWidget

    pane = QWidget()  # the problem pane: its width is the splitter's, not the bar's wish
    qtbot.addWidget(pane)
    pane.setGeometry(0, 0, width, 400)
    holder = QWidget(pane)
    holder.setGeometry(0, 0, width, 400)
    bar = RatingBar(db=None, question_id="001/29")
    QVBoxLayout(holder).addWidget(bar)
    pane.show()
    bar.show_card(SimpleNamespace(last_rating=review.GOOD, due=time.time() + 4 * 86400))
    for _ in range(3):
        qtbot.wait(10)
    for button in bar.buttons.values():
        place = button.rect().translated(button.mapTo(holder, button.rect().topLeft()))
        assert holder.rect().contains(place), (width, button.text(), place, holder.rect())
        assert button.width() >= button.fontMetrics().horizontalAdvance(button.text()) + 8
    summary = bar.summary
    assert summary.height() >= summary.heightForWidth(summary.width())  # wrapped, not cut


def test_check_descriptions_come_in_the_ui_language(launch):
    """Issue 30.5: in a Chinese UI the failing check's property reads in Chinese (the
    bundled suites' catalogue); its message keeps the numbers the check wrote."""
    from PySide6.QtCore import QLocale

    from question_db.checks.catalogue import descriptions

    before = QLocale()
    QLocale.setDefault(QLocale("zh_CN"))
    try:
        app = launch()
        app.window.set_console_available(True)
        view, page = code_page(app)
        answer = page.answer
        chinese = descriptions(page.question.code.check, "zh_CN")["scale_sqrt_dk"]
        answer.check_button.click()
        app.window.on_check_finished("001/29", {"checks": [
            {"name": "scale_sqrt_dk", "passed": False, "required": True, "seconds": 0.1,
             "description": "scores are scaled by 1/sqrt(d_k)",
             "message": "d_k=16: scores are multiplied by 0.0625, expected 0.25"}],
            "error": None})
        app.wait_idle()
        shown = answer.results.detail.text()
        assert chinese in shown and "scores are scaled" not in shown
        assert "0.0625" in shown and "0.25" in shown
        assert answer.results.table.topLevelItem(0).toolTip(1) == chinese
    finally:
        QLocale.setDefault(before)
