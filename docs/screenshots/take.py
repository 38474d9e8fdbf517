"""Regenerate every screenshot in this folder (needs a display; CI uses Xvfb):

    xvfb-run -s "-screen 0 1400x900x24" python docs/screenshots/take.py

One run per UI language (a child process each: translations load at start-up):

- Chinese (``zh_CN``), 1280×820: library, practice, exam, report, dashboard, wrong-answer
  book (the README's tour);
- Chinese and English, at 1024×700 and at 1400×900: the code workspace (a real kernel runs
  one of the bank's one-bug solutions, 001/29 scaled by d_k, so the results under the
  editor name the property that failed and by how much), a fill-in verdict (001/20, one
  blank right, one wrong) and a closed-book exam (000, its 答题卡 with void questions).

``--lang zh_CN`` (or ``en``) takes only that language's. Throw-away data dirs, the bundled
papers, real widgets and a real kernel; nothing is mocked.
"""
from __future__ import annotations

import argparse
import random
import subprocess
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
from desktop.views.question_view import QuestionView  # noqa: E402
from desktop.views.practice import PracticeView  # noqa: E402
from desktop.views.report import ReportView  # noqa: E402
from desktop.views.wrong_book import WrongBookView  # noqa: E402
from question_db import actions, review  # noqa: E402
from question_db.grading import as_response  # noqa: E402
from question_db.bank import load_bank  # noqa: E402
from question_db.model import Bank, Question  # noqa: E402
from question_db.store import ProgressStore  # noqa: E402

DAY = 86400.0
LANGUAGES = ("zh_CN", "en")
SIZES = ((1024, 700), (1400, 900))


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


def tour(app: QApplication, window: MainWindow, db) -> None:
    """The README's screens, in Chinese at 1280×820."""
    window.resize(1280, 820)
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
    window.go_library()


def at_sizes(app: QApplication, window: MainWindow, name: str, lang: str,
             prepare=None) -> None:
    """``<name>_<lang>_<w>x<h>.png`` at each size (``prepare()`` after each resize)."""
    for width, height in SIZES:
        window.resize(width, height)
        spin(app, lambda: True)
        if prepare is not None:
            prepare()
            spin(app, lambda: True)
        grab(window, f"{name}_{lang}_{width}x{height}.png")


def workspace(app: QApplication, window: MainWindow, running, lang: str) -> None:
    """001/29 with a one-bug solution, checked by a real kernel: results under the editor."""
    spin(app, lambda: window.console_available, timeout=180)
    window.open_practice("001")
    spin(app, lambda: isinstance(window.screen_view, PracticeView))
    view = window.screen_view
    question = window.bank.question("001/29")
    view.go_to(view.questions.index(question))
    answer = view.programming_answer("001/29")
    wrong = next(p for p in question.code.wrong if p.stem.endswith("scale_dk"))
    answer.replace_code(wrong.read_text(encoding="utf-8"))
    answer.check_button.click()
    spin(app, lambda: answer.results.rows() and not running.console.checks.running,
         timeout=300)
    answer.editor.moveCursor(answer.editor.textCursor().MoveOperation.Start)
    at_sizes(app, window, "workspace", lang)
    if lang == "zh_CN":
        window.resize(1400, 900)
        spin(app, lambda: True)
        grab(window, "console.png")  # the README's code question
    window.go_library()


def fill_in_verdict(app: QApplication, window: MainWindow, db, lang: str) -> None:
    """001/20: blank 1 right (one of its accepted forms), blank 2 wrong."""
    window.open_practice("001")
    spin(app, lambda: isinstance(window.screen_view, PracticeView))
    view = window.screen_view
    view.go_to(next(i for i, q in enumerate(view.questions) if q.id == "001/20"))
    page: QuestionView = view.current_page()
    page.answer.edits[0].setText("数据并行度")
    page.answer.edits[1].setText("8")
    page.answer.sig_changed.emit()
    view.submit_current()
    spin(app, lambda: db.pending == 0 and page.feedback.isVisible())
    at_sizes(app, window, "fill_in_verdict", lang,
             prepare=lambda: page.ensureWidgetVisible(page.key, 0, 0))
    window.go_library()


def closed_book_exam(app: QApplication, window: MainWindow, lang: str) -> None:
    """000 closed book: countdown, 答题卡 with answered, flagged and void questions."""
    window.start_exam("000", 7200)
    spin(app, lambda: isinstance(window.screen_view, ExamView))
    exam = window.screen_view
    for index, letter in {0: "A", 1: "C", 2: "B", 5: "B", 15: "A"}.items():
        exam.go_to(index)
        QTest.keyClick(exam, getattr(Qt.Key, f"Key_{letter}"))
    exam.go_to(3)
    exam.toggle_flag()
    exam.go_to(33)  # the programming question: no Check and no console until submitted
    at_sizes(app, window, "exam", lang)


def take(lang: str) -> int:
    options = Options(data_dir=Path(tempfile.mkdtemp(prefix="examdesk-shots-")), lang=lang)
    app = prepare_application(sys.argv[1:1], options)
    running = build_app(options, settings=QSettings(
        str(options.data_dir / "settings.ini"), QSettings.Format.IniFormat), bank=load_bank())
    window, db = running.window, running.db
    spin(app, lambda: db.worker.ready.done())
    if lang == "zh_CN":
        tour(app, window, db)
    workspace(app, window, running, lang)
    fill_in_verdict(app, window, db, lang)
    closed_book_exam(app, window, lang)
    window.close()
    running.shutdown()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=LANGUAGES, help="only this UI language")
    args = parser.parse_args()
    if args.lang:
        return take(args.lang)
    for lang in LANGUAGES:  # a process each: the UI language is set at start-up
        code = subprocess.run([sys.executable, __file__, "--lang", lang]).returncode
        if code:
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
