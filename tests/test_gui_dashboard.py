"""The dashboard over a scripted history (numbers read from its tables and chart data), and
File ▸ Export / Import progress into a fresh data dir, through the menu actions."""
from __future__ import annotations

import datetime as dt
import json
import time

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox

from desktop.views.dashboard import DashboardView
from desktop.views.practice import PracticeView
from desktop.views.wrong_book import WrongBookView
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401
from question_db import actions, review
from question_db.responses import ChoiceResponse

pytestmark = pytest.mark.gui
NOW = time.time()
DAY = 86400


def wrong(q):
    return next(k for k in q.options if k != q.answer)


def two_exams(store) -> None:
    """001: 1 right, 2 wrong, 11 right three days ago; 1 and 2 right yesterday."""
    paper = bundled_bank().paper("001")
    q1, q2, q11 = paper.question(1), paper.question(2), paper.question(11)
    first = store.start_session(paper_id="001", mode="exam", duration_s=9000, now=NOW - 3 * DAY)
    pick = lambda *letters: ChoiceResponse(tuple(letters))  # noqa: E731
    actions.submit_exam(store, paper=paper, session_id=first,
                        responses={q1.id: pick(q1.answer), q2.id: pick(wrong(q2)),
                                   q11.id: pick(*q11.answer)},
                        seconds={q1.id: 60, q2.id: 30, q11.id: 90}, now=NOW - 3 * DAY + 600)
    second = store.start_session(paper_id="001", mode="exam", duration_s=9000, now=NOW - DAY)
    actions.submit_exam(store, paper=paper, session_id=second,
                        responses={q1.id: pick(q1.answer), q2.id: pick(q2.answer)},
                        seconds={q1.id: 120, q2.id: 30}, now=NOW - DAY + 600)


def table(panel) -> list[list[str]]:
    t = panel.table
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_dashboard_shows_the_numbers_of_a_scripted_history(launch, tmp_path):
    app = launch()
    app.db.run(two_exams).result(timeout=10)
    app.window.go_library()
    app.wait_idle()
    app.qtbot.mouseClick(app.window.library.dashboard_button, Qt.MouseButton.LeftButton)
    view = app.wait_screen(DashboardView)
    app.qtbot.waitUntil(lambda: view.data is not None)
    assert "5 graded answers · 80% fully right" in view.summary.text()

    by_type = {row[0]: row[1:] for row in table(view.panels["type"])}
    assert by_type == {"Single choice": ["4", "3", "75%"], "Multiple choice": ["1", "1", "100%"]}
    assert sorted(view.panels["type"].bars["percent"]) == [75, 100]

    answers = {"001/1": (2, 2), "001/2": (2, 1), "001/11": (1, 1)}  # (answers, right)
    expected: dict[str, list[int]] = {}
    for qid, (n, right) in answers.items():
        for topic in bundled_bank().question(qid).topics:
            counts = expected.setdefault(topic, [0, 0])
            counts[0] += n
            counts[1] += right
    topics = {row[0]: [int(row[1]), int(row[2])] for row in table(view.panels["topic"])}
    assert topics == expected

    trend = table(view.panels["trend"])
    assert [row[1:] for row in trend] == [
        ["1", dt.datetime.fromtimestamp(NOW - 3 * DAY + 600).strftime("%m-%d"), "5 / 150"],
        ["2", dt.datetime.fromtimestamp(NOW - DAY + 600).strftime("%m-%d"), "4 / 150"]]
    assert view.panels["trend"].bars["series"] == pytest.approx([100 * 5 / 150, 100 * 4 / 150])

    view.paper_choice.setCurrentIndex(view.paper_choice.findData("001"))
    times = {row[0]: row[1:] for row in table(view.panels["time"])}
    assert times == {"1": ["2", "1:30", "2:00"], "2": ["2", "0:30", "2:00"],
                     "11": ["1", "1:30", "3:00"]}
    assert view.panels["time"].bars["values"][:2] == pytest.approx([1.5, 0.5])

    forecast = [int(row[1]) for row in table(view.panels["forecast"])]
    assert len(forecast) == 14 and sum(forecast) <= 3
    worker_forecast = app.db.run(review.due_forecast, days=14).result(timeout=5)
    assert forecast == [n for _, n in worker_forecast]
    assert view.panels["forecast"].bars["values"] == forecast

    view.exam_date_check.setChecked(True)
    view.exam_date_edit.setDate(QDate.currentDate().addDays(5))
    app.wait_idle()
    assert db_rows(tmp_path / "progress.sqlite3", "SELECT value FROM settings") == [
        {"value": (dt.date.today() + dt.timedelta(days=5)).isoformat()}]
    assert f"Exam in 5 days; {sum(forecast[:5])} reviews due before it" in view.exam_note
    view.exam_date_check.setChecked(False)
    app.wait_idle()
    assert db_rows(tmp_path / "progress.sqlite3", "SELECT value FROM settings") == []


def test_empty_dashboard_builds(launch):
    app = launch()
    view = app.window.open_dashboard()
    app.qtbot.waitUntil(lambda: view.data is not None)
    assert view.panels["topic"].table.rowCount() == 0
    assert "0 graded answers" in view.summary.text()


def menu_action(app, name: str) -> QAction:
    action = app.window.findChild(QAction, name)
    assert action is not None, name
    return action


def message(app, name: str) -> str:
    app.qtbot.waitUntil(lambda: app.window.findChild(QMessageBox, name) is not None)
    box = app.window.findChild(QMessageBox, name)
    text = box.text()
    box.setObjectName("")  # closed boxes are deleted later: the next one is a new one
    box.close()
    return text


def test_export_then_import_into_a_fresh_data_dir(launch, tmp_path, monkeypatch):
    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    app.qtbot.keyClick(view, Qt.Key.Key_2)  # wrong
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.wait_idle()
    out = tmp_path / "export" / "progress"  # no extension: the chosen filter adds it
    out.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(out), "Progress (JSON) (*.json)"))
    menu_action(app, "export_progress").trigger()
    assert "progress.json" in message(app, "progress_exported")
    exported = json.loads(out.with_suffix(".json").read_text("utf-8"))
    assert [a["question_id"] for a in exported["answers"]] == ["000/1"]
    app.quit()

    fresh = launch(tmp_path / "fresh")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(out.with_suffix(".json")), ""))
    menu_action(fresh, "import_progress").trigger()
    text = message(fresh, "progress_imported")
    assert "Added: 1 sessions, 1 answers, 1 reviews." in text
    menu_action(fresh, "import_progress").trigger()
    text = message(fresh, "progress_imported")
    assert "Added: 0 sessions, 0 answers, 0 reviews." in text
    assert "Skipped, already here: 1 sessions, 1 answers, 1 reviews." in text
    fresh.wait_idle()
    assert "(1)" in fresh.window.library.wrong_button.text()
    book = fresh.window.open_wrong_book()
    fresh.wait_idle()
    assert [e.question.id for e in book.entries] == ["000/1"]
    assert isinstance(fresh.window.screen_view, WrongBookView)

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "examdesk-progress", "version": 1,
                               "sessions": [{"uid": "s", "paper_id": "000"}]}), "utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    menu_action(fresh, "import_progress").trigger()
    text = message(fresh, "progress_error")
    assert "bad.json:sessions[0]" in text and "'mode'" in text


def test_the_exam_date_can_be_typed_whole_or_picked(launch, tmp_path):
    """Issue 30.7: the exam date took no typed digits (QDateEdit edits one section at a
    time: select all and type a date, the old one stays). Typed whole in the usual ways it
    is stored; a text that is not a date is refused in words and the date stays."""
    from PySide6.QtWidgets import QApplication

    app = launch()
    app.window.show()
    app.window.activateWindow()
    app.qtbot.waitActive(app.window)
    view = app.window.open_dashboard()
    app.qtbot.waitUntil(lambda: "trend" in getattr(view, "panels", {}), timeout=10_000)
    view.exam_date_check.setChecked(True)
    field = view.exam_date_edit.edit

    def typed(text: str) -> str | None:
        field.setFocus()
        field.selectAll()
        if text.isascii():
            app.qtbot.keyClicks(QApplication.focusWidget(), text)
        else:  # what an input method commits (QTest types Latin-1 only)
            field.insert(text)
        app.qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
        app.wait_idle()
        rows = db_rows(tmp_path / "progress.sqlite3", "SELECT value FROM settings")
        return rows[0]["value"] if rows else None

    assert typed("2027-06-18") == "2027-06-18"
    assert typed("20270619") == "2027-06-19"
    assert typed("2027/6/20") == "2027-06-20"
    assert typed("2027年6月21日") == "2027-06-21"
    assert typed("2027-13-40") == "2027-06-21"  # not a date: the last one stays
    assert field.text() == "2027-06-21" and "2026-12-20" in field.toolTip()
    from PySide6.QtCore import QTimer

    calendar = view.exam_date_edit.calendar  # the calendar: opened, one click on a day

    def pick() -> None:
        assert calendar.isVisible() and calendar.selectedDate() == QDate(2027, 6, 21)
        calendar.clicked.emit(QDate(2027, 7, 1))

    QTimer.singleShot(100, pick)
    view.exam_date_edit.button.click()  # its menu runs until the day is picked
    app.wait_idle()
    assert db_rows(tmp_path / "progress.sqlite3", "SELECT value FROM settings") == [
        {"value": "2027-07-01"}]
