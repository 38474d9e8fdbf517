"""Review on real widgets over a real SQLite file: the wrong-answer book, the rating shown
after an answer and its override, practice runs over the book and over today's reviews,
scores that follow marking after an exam."""
from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt

from desktop.views.exam import ExamView
from desktop.views.practice import PracticeView
from desktop.views.report import ReportView
from desktop.views.wrong_book import WrongBookView
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401
from question_db import actions, review
from question_db.responses import ChoiceResponse

pytestmark = pytest.mark.gui


def key_for(letter: str) -> Qt.Key:
    return getattr(Qt.Key, f"Key_{letter}")


def open_wrong_book(app) -> WrongBookView:
    app.window.go_library()
    app.wait_idle()
    app.qtbot.mouseClick(app.window.library.wrong_button, Qt.MouseButton.LeftButton)
    view = app.wait_screen(WrongBookView)
    app.wait_idle()
    return view


def book_ids(view: WrongBookView) -> list[str]:
    """The questions listed (paper headings have no id)."""
    ids = [view.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(view.list.count())]
    return [qid for qid in ids if qid]


def miss(store, qid: str, *, now: float | None = None) -> None:
    """A wrong practice answer, as the practice screen stores it (in a run of its own)."""
    q = bundled_bank().question(qid)
    run = actions.start_run(store, bank=bundled_bank(), question_ids=[qid], now=now)
    wrong = next(k for k in q.options if k != q.answer)
    actions.submit_practice_answer(store, paper=run.papers[q.paper_id],
                                   session_id=run.sessions[q.paper_id], question=q,
                                   response=ChoiceResponse((wrong,)), seconds=30, now=now)
    actions.finish_run(store, session_ids=run.sessions.values(), now=now)


def test_wrong_practice_answer_is_in_the_book_and_mastering_removes_it(launch, tmp_path):
    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    app.qtbot.keyClick(view, Qt.Key.Key_2)  # B: 000/1's key is A
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.wait_idle()
    app.window.go_library()
    app.wait_idle()
    assert "(1)" in app.window.library.wrong_button.text()

    book = open_wrong_book(app)
    assert book_ids(book) == ["000/1"]
    text = book.detail.toPlainText()
    assert "Your answer: B" in text and "Key: A" in text and "Explanation" in text
    assert "1 question(s) to review" in book.count.text()

    book.type_filter.setCurrentIndex(book.type_filter.findData("multiple_choice"))
    app.wait_idle()
    assert book_ids(book) == []
    book.type_filter.setCurrentIndex(0)
    book.topic_filter.setCurrentIndex(
        book.topic_filter.findData(bundled_bank().question("000/1").topics[0]))
    book.paper_filter.setCurrentIndex(book.paper_filter.findData("000"))
    app.wait_idle()
    assert book_ids(book) == ["000/1"]

    app.qtbot.mouseClick(book.master_button, Qt.MouseButton.LeftButton)
    app.wait_idle()
    assert book_ids(book) == [] and not book.practise_button.isEnabled()
    assert db_rows(tmp_path / "progress.sqlite3", "SELECT question_id FROM mastery") == [
        {"question_id": "000/1"}]
    assert book.undo_button.isVisible()
    app.qtbot.mouseClick(book.undo_button, Qt.MouseButton.LeftButton)
    app.wait_idle()
    assert book_ids(book) == ["000/1"] and not book.undo_button.isVisible()
    book.show_mastered.setChecked(True)
    app.qtbot.mouseClick(book.master_button, Qt.MouseButton.LeftButton)
    app.wait_idle()
    assert book_ids(book) == ["000/1"]  # still listed with "show mastered", as mastered
    assert book.entries[0].mastered_at is not None
    assert book.master_button.text() == "Not mastered yet"


def test_rating_shown_after_an_answer_and_its_override(launch, tmp_path):
    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    app.qtbot.keyClick(view, Qt.Key.Key_1)  # A: right
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: "000/1" in view.rating_bars)
    bar = view.rating_bars["000/1"]
    assert bar.isVisible()

    q = bundled_bank().question("000/1")
    stored = db_rows(tmp_path / "progress.sqlite3", "SELECT * FROM answers")[0]
    expected = review.rating_for(q, stored["grade"], stored["seconds"],
                                 review.time_budget_s(bundled_bank().paper("000"), q))
    assert bar.rating == expected and bar.buttons[expected].isChecked()
    names = {review.AGAIN: "Again", review.HARD: "Hard", review.GOOD: "Good",
             review.EASY: "Easy"}
    assert f"<b>{names[expected]}</b>" in bar.summary.text()
    before = bar.due

    app.qtbot.mouseClick(bar.buttons[review.AGAIN], Qt.MouseButton.LeftButton)
    app.wait_idle()
    assert bar.rating == review.AGAIN and bar.due < before
    assert "you rated it" in bar.summary.text()
    card = db_rows(tmp_path / "progress.sqlite3", "SELECT due FROM cards")[0]
    assert card["due"] == pytest.approx(bar.due)
    rows = db_rows(tmp_path / "progress.sqlite3", "SELECT rating, source FROM reviews")
    assert rows == [{"rating": review.AGAIN, "source": "override"}]


def test_practise_the_book_across_papers_then_leave(launch, tmp_path):
    app = launch()
    app.db.run(miss, "000/1", now=time.time() - 60).result(timeout=5)
    app.db.run(miss, "001/3").result(timeout=5)
    book = open_wrong_book(app)
    assert book_ids(book) == ["000/1", "001/3"]  # by paper
    assert book.list.item(0).text().startswith(bundled_bank().paper("000").title)
    app.qtbot.mouseClick(book.practise_button, Qt.MouseButton.LeftButton)
    run = app.wait_screen(PracticeView)
    assert [q.id for q in run.questions] == ["000/1", "001/3"]
    assert run.position.text() == "1 / 2"
    run.go_to(1)
    q = run.questions[1]
    app.qtbot.keyClick(run, key_for(q.answer))
    app.qtbot.keyClick(run, Qt.Key.Key_Return)
    app.qtbot.waitUntil(lambda: q.id in run.rating_bars)
    run_sessions = dict(run.run.sessions)
    app.qtbot.mouseClick(run.back_button, Qt.MouseButton.LeftButton)
    app.wait_idle()

    states = {r["paper_id"]: r["state"] for r in db_rows(
        tmp_path / "progress.sqlite3",
        f"SELECT paper_id, state FROM sessions WHERE id IN ({run_sessions['001']}, "
        f"{run_sessions['000']})")}
    assert states == {"001": "submitted", "000": "abandoned"}
    book = open_wrong_book(app)
    assert book.select("001/3")
    assert book.current_entry().correct_since == 1  # in the book until marked mastered
    assert "mark it mastered" in book.detail.toPlainText()


def test_due_today_reviews_what_is_due_and_can_still_be_practised_as_a_run(launch):
    """Due today opens the review session (issue 15: Anki's flow) on the due card; the
    Review menu still practises the due questions as a run."""
    from desktop.views.review_session import ReviewView

    app = launch()
    app.db.run(miss, "001/4", now=time.time() - 40 * 86400).result(timeout=5)
    app.window.go_library()
    app.wait_idle()
    button = app.window.library.due_button
    assert button.isEnabled() and "(1)" in button.text()
    app.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    review_view = app.wait_screen(ReviewView)
    app.wait_idle()
    assert review_view.card.question.id == "001/4" and not review_view.card.is_new
    app.window.practise_due()
    run = app.wait_screen(PracticeView)
    assert [q.id for q in run.questions] == ["001/4"] and run.run is not None


def test_marking_after_an_exam_updates_the_library_scores(launch, tmp_path):
    app = launch()
    app.window.start_exam("000", 3600)
    view = app.wait_screen(ExamView)
    app.qtbot.keyClick(view, Qt.Key.Key_1)  # 000/1 right: 2 points
    view.go_to(next(i for i, q in enumerate(view.questions) if q.number == 31))
    view.current_page().answer.text.setPlainText("LoRA 只训练低秩增量")
    view.submit()
    report_view = app.wait_screen(ReportView)
    app.wait_idle()
    reviews = db_rows(tmp_path / "progress.sqlite3", "SELECT question_id FROM reviews")
    assert [r["question_id"] for r in reviews] == ["000/1"]  # the essay awaits marks

    rubric = bundled_bank().question("000/31").rubric
    report_view.self_mark(31, [True] * len(rubric))
    app.qtbot.waitUntil(lambda: report_view.report.score == 2 + 10)
    app.wait_idle()
    app.window.go_library()
    app.wait_idle()
    assert "Best 12" in app.window.library.cards["000"].scores.text()
    reviews = db_rows(tmp_path / "progress.sqlite3", "SELECT question_id FROM reviews")
    assert sorted(r["question_id"] for r in reviews) == ["000/1", "000/31"]


def test_the_wrong_answer_book_shows_enough_of_each_stem_to_recognise_it(launch, tmp_path):
    """Issue 30 item 7: the list cut every stem at 24 characters. At 1024×700 the list now
    shows up to 120 characters, wrapped over its width (Qt elides nothing), and the whole
    stem on hover."""
    app = launch()
    app.window.db.run(lambda store: miss(store, "000/4"))
    app.wait_idle()
    app.window.resize(1024, 700)
    book = open_wrong_book(app)
    row = next(i for i in range(book.list.count())
               if book.list.item(i).data(Qt.ItemDataRole.UserRole) == "000/4")
    item = book.list.item(row)
    stem = " ".join(bundled_bank().question("000/4").stem.split())
    shown = item.text().split("\n", 1)[1]
    assert len(stem) > 60 and shown.startswith(stem[:min(len(stem), 120)].rstrip("…"))
    assert len(shown.rstrip("…")) >= min(len(stem), 120)
    assert book.list.wordWrap() and book.list.textElideMode() == Qt.TextElideMode.ElideNone
    line = book.list.fontMetrics().height()
    assert book.list.visualItemRect(item).height() >= 3 * line  # the stem wrapped, kept
    assert stem in item.toolTip()
