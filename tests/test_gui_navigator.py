"""Practice navigator, Show answer, recite mode and resuming, on real widgets over a real
SQLite file (issue 15, items 1 and 3)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.views.practice import PracticeView
from gui_fixtures import db_rows, launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui


def open_practice(app, paper_id: str = "000", **kwargs) -> PracticeView:
    app.window.open_practice(paper_id, **kwargs)
    view = app.wait_screen(PracticeView)
    app.wait_idle()
    return view


def index_of(view: PracticeView, number: int) -> int:
    return next(i for i, q in enumerate(view.questions) if q.number == number)


def click_cell(app, view: PracticeView, index: int) -> None:
    app.qtbot.mouseClick(view.navigator, Qt.MouseButton.LeftButton,
                         pos=view.navigator.cell_rect(index).center())


def test_navigator_marks_answers_flags_and_jumps_then_practice_resumes_there(launch, tmp_path):
    app = launch()
    view = open_practice(app)
    nav = view.navigator
    void = index_of(view, 10)  # 000/10 is void: no correct answer
    assert nav.state(void) == "void" and nav.state(0) == "unanswered"
    app.qtbot.keyClick(view, Qt.Key.Key_1)  # 000/1: A is right
    assert nav.state(0) == "answered"  # on screen, not submitted yet
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.wait_idle()
    fourth = index_of(view, 4)
    click_cell(app, view, fourth)  # jump by the navigator
    assert view.current == fourth and nav.current == fourth
    app.qtbot.keyClick(view, Qt.Key.Key_2)  # 000/4's key is A
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    app.wait_idle()
    assert (nav.state(0), nav.state(fourth)) == ("right", "wrong+flagged")
    assert "1 right" in view.counts.text() and "1 wrong" in view.counts.text()
    far = index_of(view, 16)
    click_cell(app, view, far)
    app.wait_idle()
    app.qtbot.waitUntil(lambda: db_rows(tmp_path / "progress.sqlite3",
                                        "SELECT position FROM sessions")[0]["position"]
                        == "000/16")
    app.window.go_library()
    app.wait_idle()
    card = app.window.library.cards["000"]
    assert card.continue_button.isVisible() and "16" in card.continue_button.text()
    assert "2 of 34 answered" in card.practice_progress.text()
    assert "1 right" in card.practice_progress.text()
    app.quit()

    again = launch()  # a new launch: the store's marks, the stored position
    again.window.library.cards["000"].continue_button.click()
    resumed = again.wait_screen(PracticeView)
    again.wait_idle()
    assert resumed.current == far
    assert (resumed.navigator.state(0), resumed.navigator.state(fourth)) == (
        "right", "wrong+flagged")


def test_show_answer_locks_the_input_and_is_scheduled_as_a_miss(launch, tmp_path):
    app = launch()
    view = open_practice(app)
    view.go_to(index_of(view, 3))
    page = view.current_page()
    assert view.show_answer_button.isEnabled() and not page.feedback.isVisible()
    app.qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier
                       | Qt.KeyboardModifier.ShiftModifier)
    app.wait_idle()
    assert page.feedback.isVisible() and page.answer.locked
    assert not view.submit_button.isEnabled() and not view.show_answer_button.isEnabled()
    assert view.navigator.state(view.current) == "revealed"
    app.qtbot.keyClick(view, Qt.Key.Key_2)  # picking an option is refused: locked
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.wait_idle()
    db = tmp_path / "progress.sqlite3"
    assert db_rows(db, "SELECT question_id FROM answers") == []
    assert db_rows(db, "SELECT question_id, kind, rating FROM reviews") == [
        {"question_id": "000/3", "kind": "reveal", "rating": 1}]


def test_recite_mode_rates_with_keys_and_unrated_pages_become_answerable_again(
        launch, tmp_path):
    app = launch()
    view = open_practice(app)
    app.qtbot.keyClick(view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert view.recite and view.recite_button.isChecked()
    page = view.current_page()
    assert page.feedback.isVisible() and page.answer.locked  # key at once, no input
    assert view.knew_button.isVisible() and not view.submit_button.isVisible()
    app.qtbot.keyClick(view, Qt.Key.Key_1)  # knew it
    app.wait_idle()
    assert view.current == 1  # on to the next card
    app.qtbot.keyClick(view, Qt.Key.Key_2)  # didn't
    app.wait_idle()
    assert (view.navigator.state(0), view.navigator.state(1)) == ("recited", "recited")
    rows = db_rows(tmp_path / "progress.sqlite3",
                   "SELECT question_id, kind, rating FROM reviews ORDER BY id")
    assert rows == [{"question_id": "000/1", "kind": "recite", "rating": 3},
                    {"question_id": "000/2", "kind": "recite", "rating": 1}]
    view.go_to(index_of(view, 4))  # shown in recite mode, never rated
    view.set_recite(False)
    unrated = view.current_page()
    assert not unrated.answer.locked and not unrated.feedback.isVisible()
    view.go_to(0)
    assert view.current_page().answer.locked  # recited: stays recited, no answer here
    assert not view.submit_button.isEnabled()


def test_a_long_run_keeps_only_the_pages_near_the_learner_and_loses_no_draft(launch):
    """A run over every question (77 > MAX_PAGES): far pages are taken apart in idle time
    (a stack switch costs more the more pages the window holds) and built again on return,
    with the learner's unsubmitted pick."""
    from desktop.views.paper_session import MAX_PAGES
    from gui_fixtures import bundled_bank

    app = launch()
    ids = [q.id for q in bundled_bank().all_questions()]
    assert len(ids) > MAX_PAGES
    app.window.open_run(ids, "all")
    view = app.wait_screen(PracticeView)
    app.wait_idle()
    app.qtbot.keyClick(view, Qt.Key.Key_2)  # B on 000/1, not submitted
    for at in (25, 50, len(ids) - 3):  # reading on through the run
        view.go_to(at)
        app.qtbot.waitUntil(lambda: not view._prebuild_timer.isActive(), timeout=20_000)
    assert 0 not in view.pages and len(view.pages) <= MAX_PAGES
    view.go_to(0)
    assert view.response(0).picked == ("B",) and view.navigator.state(0) == "answered"


def test_the_sheet_turns_by_pages_and_keeps_the_current_cell_in_view(launch):
    """Going through a paper one question at a time, the answer sheet scrolls only when
    the current cell would leave the view, then by most of a page: the cell's row to the
    top going forward, to the bottom going back (each scroll repaints the whole side panel:
    row by row it was one switch in ten in a 200-question set)."""
    app = launch()
    view = open_practice(app)
    view.window().resize(1024, 420)  # the sheet shows a few rows of the paper's 50 cells
    app.wait_idle()
    bar = view.navigator_scroll.verticalScrollBar()
    height = view.navigator_scroll.viewport().height()
    assert bar.maximum() > 0
    moves = {"forward": 0, "back": 0}
    for way, indices in (("forward", range(1, len(view.questions))),
                         ("back", range(len(view.questions) - 2, -1, -1))):
        for index in indices:
            before = bar.value()
            view.go_to(index)
            cell = view.navigator.cell_rect(index)
            assert bar.value() <= cell.top() and cell.bottom() <= bar.value() + height, index
            if bar.value() == before:
                continue
            moves[way] += 1
            if way == "forward" and bar.value() < bar.maximum():  # turned: its row on top
                assert cell.top() - bar.value() <= cell.height(), index
            if way == "back" and bar.value() > 0:  # its row at the bottom
                assert bar.value() + height - cell.bottom() <= cell.height(), index
    assert moves["forward"] > 0 and moves["back"] > 0
