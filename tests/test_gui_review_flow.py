"""The review session (Anki's flow), its daily limit from Settings, the wrong-answer book's
graduated entries and put back, stars, notes and the Anki export of notes, on real widgets
(issue 15, items 5 and 7)."""
from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt

from desktop.views.notes import NOTE_DELAY_MS
from desktop.views.practice import PracticeView
from desktop.views.review_session import ReviewView
from desktop.views.settings_dialog import SettingsDialog
from desktop.views.wrong_book import WrongBookView
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401
from question_db import actions
from question_db.interchange.anki import read_apkg
from question_db.responses import ChoiceResponse

pytestmark = pytest.mark.gui


def set_new_per_day(app, count: int) -> None:
    dialog = app.window.open_settings()
    app.qtbot.waitUntil(lambda: dialog.study_loaded is not None)
    assert dialog.graduate_after.value() == 2  # the default
    dialog.new_per_day.setValue(count)
    dialog.accept()
    app.wait_idle()
    assert isinstance(dialog, SettingsDialog)


def test_show_answer_then_rate_with_keys_until_the_summary(launch, tmp_path):
    app = launch()
    set_new_per_day(app, 2)  # two new cards today, nothing due yet
    app.qtbot.mouseClick(app.window.library.due_button, Qt.MouseButton.LeftButton)
    view = app.wait_screen(ReviewView)
    app.wait_idle()
    first = view.card.question
    assert view.card.is_new and first.id == "000/1"  # bank order
    assert not view.page.feedback.isVisible() and view.show_button.isVisible()
    assert not any(b.isVisible() for b in view.rate_buttons.values())
    app.qtbot.keyClick(view, Qt.Key.Key_Space)  # Show answer
    assert view.page.feedback.isVisible() and "<b>A</b>" in view.page.key.text()
    assert all(b.isVisible() for b in view.rate_buttons.values())
    assert "in 1 min" in view.rate_buttons[1].text()  # Again comes back in a minute
    app.qtbot.keyClick(view, Qt.Key.Key_3)  # Good
    app.wait_idle()
    assert view.card.question.id == "000/2" and not view.revealed
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.qtbot.keyClick(view, Qt.Key.Key_1)  # Again: back in a minute, learn-ahead now
    app.wait_idle()
    assert view.card is not None and view.card.question.id == "000/2"  # learning, ahead
    # the header counts cards shown and left, with no denominator that grows when an
    # Again brings a card back (issue 30.7); it names the card's paper
    title = view.page.title.text()
    assert "card 3 · " in title and " left today" in title and "/" not in title.split(
        "card 3")[1].split(")")[0]
    assert bundled_bank().paper("000").title in title
    app.qtbot.keyClick(view, Qt.Key.Key_Space)
    app.qtbot.keyClick(view, Qt.Key.Key_4)  # Easy
    app.wait_idle()
    assert view.card is not None  # 000/1 rated Good is in learning: shown early too
    app.qtbot.keyClick(view, Qt.Key.Key_Space)
    app.qtbot.keyClick(view, Qt.Key.Key_3)
    app.wait_idle()
    app.qtbot.waitUntil(lambda: view.summary is not None)
    assert view.card is None and view.summary.cards == 2 and view.summary.new_cards == 2
    assert view.summary.ratings == {1: 1, 2: 0, 3: 2, 4: 1}
    assert "2 card(s) reviewed" in view.summary_label.text()
    rows = db_rows(tmp_path / "progress.sqlite3",
                   "SELECT question_id, kind, rating FROM reviews ORDER BY id")
    assert [(r["question_id"], r["kind"], r["rating"]) for r in rows] == [
        ("000/1", "review", 3), ("000/2", "review", 1), ("000/2", "review", 4),
        ("000/1", "review", 3)]
    assert db_rows(tmp_path / "progress.sqlite3", "SELECT * FROM answers") == []


def miss_then_right(store, qid: str, right_times: int) -> None:
    """A wrong practice answer, then ``right_times`` right ones (each in a run of its own)."""
    q = bundled_bank().question(qid)
    wrong = next(k for k in q.options if k != q.answer)
    for i, letter in enumerate([wrong] + [q.answer] * right_times):
        run = actions.start_run(store, bank=bundled_bank(), question_ids=[qid],
                                now=time.time() - 100 + i)
        actions.submit_practice_answer(store, paper=run.papers[q.paper_id],
                                       session_id=run.sessions[q.paper_id], question=q,
                                       response=ChoiceResponse((letter,)), seconds=20,
                                       now=time.time() - 100 + i)
        actions.finish_run(store, session_ids=run.sessions.values())


def test_a_graduated_entry_is_shown_on_request_and_put_back(launch):
    app = launch()
    app.db.run(miss_then_right, "001/3", 2).result(timeout=10)
    app.window.go_library()
    app.wait_idle()
    app.qtbot.mouseClick(app.window.library.wrong_button, Qt.MouseButton.LeftButton)
    book = app.wait_screen(WrongBookView)
    app.wait_idle()
    assert book.entries == []  # right twice in a row: graduated (Settings: 2)
    book.show_graduated.setChecked(True)
    app.wait_idle()
    assert [e.question.id for e in book.entries] == ["001/3"] and book.entries[0].graduated
    assert book.put_back_button.isVisible() and "graduated" in book.detail.toPlainText()
    book.put_back_button.click()
    app.wait_idle()
    assert not book.entries[0].graduated and not book.put_back_button.isVisible()
    book.show_graduated.setChecked(False)
    app.wait_idle()
    assert [e.question.id for e in book.entries] == ["001/3"]  # back in the book


def test_star_and_note_are_saved_shown_and_exported_to_anki(launch, tmp_path):
    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    app.wait_idle()
    app.qtbot.keyClick(view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert view.star.isChecked() and "★" in view.star.text()
    view.notes.edit_button.click()
    editor = view.notes.editor
    assert editor.isVisible()
    app.qtbot.keyClicks(editor, "remember **LoRA** rank")
    db = tmp_path / "progress.sqlite3"
    assert db_rows(db, "SELECT text FROM notes") == []  # not while typing
    app.qtbot.waitUntil(lambda: db_rows(db, "SELECT text FROM notes") == [
        {"text": "remember **LoRA** rank"}], timeout=NOTE_DELAY_MS * 8)
    view.notes.edit_button.click()  # Done: rendered
    assert "<strong>LoRA</strong>" in view.notes.view.text() and view.notes.view.isVisible()
    assert db_rows(db, "SELECT question_id FROM favourites WHERE starred = 1") == [{"question_id": "000/1"}]
    view.go_to(1)
    assert not view.star.isChecked() and not view.notes.view.isVisible()
    view.go_to(0)
    assert view.star.isChecked() and "LoRA" in view.notes.view.text()

    out = tmp_path / "deck.apkg"
    app.window.bank_files().export("apkg", ["000"], out)
    app.wait_idle()
    noted = [n for n in read_apkg(out).notes if "LoRA" in n.fields.get("Note", "")]
    assert len(noted) == 1 and "rank" in noted[0].fields["Note"]
    app.window.bank_files().export("apkg", ["000"], out, include_notes=False)
    app.wait_idle()
    assert not any(n.fields.get("Note") for n in read_apkg(out).notes)
