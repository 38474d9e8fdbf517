"""Regenerate the screenshots in this folder (needs a display; CI uses Xvfb):

    xvfb-run -s "-screen 0 1400x900x24" python docs/screenshots/take.py [--lang zh_CN]

Uses a throw-away data dir, the bundled papers and real widgets; nothing is mocked.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import zlib
from datetime import date, timedelta
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from desktop.app import build_app, prepare_application  # noqa: E402
from desktop.config import Options  # noqa: E402
from desktop.main_window import MainWindow  # noqa: E402
from desktop.views.exam import ExamView  # noqa: E402
from desktop.views.practice import PracticeView  # noqa: E402
from desktop.views.report import ReportView  # noqa: E402
from desktop.views.wrong_book import WrongBookView  # noqa: E402
from question_db import actions, review  # noqa: E402
from question_db.grading import as_response  # noqa: E402
from question_db.bank import load_bank  # noqa: E402
from question_db.model import Bank, Question  # noqa: E402
from question_db.store import ProgressStore  # noqa: E402

DAY = 86400.0


def spin(app: QApplication, condition, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the screen did not appear")
        app.processEvents()
        time.sleep(0.01)
    for _ in range(20):  # let layouts settle before grabbing
        app.processEvents()
        time.sleep(0.01)


def grab(window: MainWindow, name: str) -> None:
    window.grab().save(str(HERE / name))
    print("saved", HERE / name)


def scripted_response(q: Question, rng: random.Random, skill: float):
    """A right or a wrong response to ``q`` (subjective ones self-marked), or None."""
    right = rng.random() < skill
    if q.type == "single_choice":
        return q.answer if right else rng.choice([k for k in q.options if k != q.answer])
    if q.type == "multiple_choice":
        return list(q.answer) if right else list(q.answer)[:1]
    if q.type == "fill_blank":
        return [v[0] for v in q.answer] if right else ["?"] * len(q.answer)
    marks = [rng.random() < skill for _ in q.rubric]
    if q.type == "calculation":
        return {"values": [p.value if right else 1 for p in q.parts], "marks": marks}
    if q.type in ("short_answer", "system_design"):
        return {"text": "……", "marks": marks}
    return None  # programming: pending until checks run, left out


def scripted_history(store: ProgressStore, bank: Bank) -> None:
    """Four exams per paper over the last four weeks, getting better; topics differ."""
    rng = random.Random(7)
    now = time.time()
    for paper in bank.papers:
        for attempt in range(4):
            started = now - (26 - 7 * attempt - int(paper.id)) * DAY
            sid = store.start_session(paper_id=paper.id, mode="exam", duration_s=7200,
                                      now=started)
            responses, seconds = {}, {}
            for q in (q for q in paper.questions if q.scored):
                topic_bias = (zlib.crc32(q.topics[0].encode()) % 40 - 20) / 100 if q.topics \
                    else 0
                response = scripted_response(q, rng, 0.45 + 0.1 * attempt + topic_bias)
                if response is None:
                    continue
                responses[q.id] = as_response(q, response)
                seconds[q.id] = review.time_budget_s(paper, q) * rng.uniform(0.4, 1.5)
            actions.submit_exam(store, paper=paper, session_id=sid, responses=responses,
                                seconds=seconds, now=started + 6000)
    review.set_exam_date(store, date.today() + timedelta(days=10))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="zh_CN")
    args = parser.parse_args()
    options = Options(data_dir=Path(tempfile.mkdtemp(prefix="examdesk-shots-")),
                      lang=args.lang, no_kernel=True)
    app = prepare_application(sys.argv[1:1], options)
    running = build_app(options, settings=QSettings(
        str(options.data_dir / "settings.ini"), QSettings.Format.IniFormat), bank=load_bank())
    window, db = running.window, running.db
    window.resize(1280, 820)
    spin(app, lambda: db.worker.ready.done())
    db.run(scripted_history, window.bank).result(timeout=60)

    # A finished exam first, so the library shows scores and the report has content.
    window.start_exam("000", 3600)
    spin(app, lambda: isinstance(window.screen_view, ExamView))
    exam = window.screen_view
    picks = {0: "A", 1: "C", 2: "B", 3: "A", 4: "B", 6: "D", 15: "A", 16: "B"}
    for index, letter in picks.items():
        exam.go_to(index)
        QTest.keyClick(exam, getattr(Qt.Key, f"Key_{letter}"))
    exam.go_to(20)
    exam.current_page().answer.edits[0].setText("torch.compile")
    exam.current_page().answer.sig_changed.emit()
    exam.go_to(2)
    exam.toggle_flag()
    exam.go_to(7)
    exam.toggle_flag()
    exam.go_to(4)
    spin(app, lambda: True)
    grab(window, "exam.png")
    exam.submit()
    spin(app, lambda: isinstance(window.screen_view, ReportView))
    window.screen_view.tabs.setCurrentIndex(0)
    spin(app, lambda: True)
    grab(window, "report.png")

    window.go_library()
    spin(app, lambda: db.pending == 0)
    grab(window, "library.png")

    window.open_practice("000")
    spin(app, lambda: isinstance(window.screen_view, PracticeView))
    practice = window.screen_view
    practice.go_to(4)  # 000/5: the seed's key was wrong (corrected)
    QTest.keyClick(practice, Qt.Key.Key_A)
    QTest.keyClick(practice, Qt.Key.Key_Return)
    page = practice.current_page()
    spin(app, lambda: True)
    page.ensureWidgetVisible(page.errata, 0, 0)
    spin(app, lambda: True)
    grab(window, "practice.png")

    dashboard = window.open_dashboard()
    spin(app, lambda: dashboard.data is not None and db.pending == 0)
    dashboard.paper_choice.setCurrentIndex(1)
    spin(app, lambda: True)
    grab(window, "dashboard.png")

    book = window.open_wrong_book()
    spin(app, lambda: isinstance(window.screen_view, WrongBookView) and db.pending == 0)
    with_errata = [e.question.id for e in book.entries if e.question.errata]
    book.select(with_errata[0] if with_errata else book.entries[0].question.id)
    spin(app, lambda: True)
    grab(window, "wrong_book.png")

    window.close()
    running.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
