"""Regenerate every screenshot in this folder (needs a display; CI uses Xvfb):

    xvfb-run -s "-screen 0 1400x900x24" python docs/screenshots/take.py

One run per UI language (a child process each: translations load at start-up):

- Chinese (``zh_CN``), 1280×820: library, practice, exam, report, dashboard, wrong-answer
  book (the README's tour);
- Chinese and English, at 1024×700 and at 1400×900: the code workspace (a real kernel runs
  one of the bank's one-bug solutions, 001/29 scaled by d_k, so the results under the
  editor name the property that failed and by how much), a fill-in verdict (001/20, one
  blank right, one wrong) and a closed-book exam (000, its 答题卡 with void questions).

- the study modes (issue 15), at 1024×700 and 1400×900: search (Ctrl+K, Chinese and
  English), the practice-set dialog and a set's run with its navigator, recite mode (背题)
  and the review session with its answer shown (Chinese).

- the dark theme, Chinese and English at both sizes: the workspace, the fill-in verdict
  and the exam (``*_dark_*``); every other screenshot is in the light theme.
- interchange (issue 16), 1400×900: File ▸ Export questions (Anki deck) and a Moodle XML
  file (``data/moodle_quiz.xml``, written the way Moodle 4 exports) under import review.
- a Triton drill (drills/10, padded lanes read as 0) checked by the kernel on CPU, in
  Triton's interpreter, 1400×900.

``--lang zh_CN`` (or ``en``) takes only that language's; ``--only study`` (or
``interchange``: no kernel needed; ``dark``) only those. Throw-away data dirs, the bundled papers, real widgets and a
real kernel; nothing is mocked.
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
from desktop.views.review_session import ReviewView  # noqa: E402
from desktop.views.question_view import QuestionView  # noqa: E402
from desktop.views.practice import PracticeView  # noqa: E402
from desktop.views.report import ReportView  # noqa: E402
from desktop.views.wrong_book import WrongBookView  # noqa: E402
from question_db import actions, review, study  # noqa: E402
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
            offset = int(paper.id) if paper.id.isdigit() else 2
            started = now - (26 - 7 * attempt - offset) * DAY
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


def checked_code(app: QApplication, window: MainWindow, running, question_id: str,
                 wrong_suffix: str) -> None:
    """``question_id`` with one of its one-bug solutions, checked by the real kernel."""
    spin(app, lambda: window.console_available, timeout=180)
    window.open_practice(question_id.split("/")[0])
    spin(app, lambda: isinstance(window.screen_view, PracticeView))
    view = window.screen_view
    question = window.bank.question(question_id)
    view.go_to(view.questions.index(question))
    answer = view.programming_answer(question_id)
    wrong = next(p for p in question.code.wrong if p.stem.endswith(wrong_suffix))
    answer.replace_code(wrong.read_text(encoding="utf-8"))
    answer.check_button.click()
    spin(app, lambda: answer.results.rows() and not running.console.checks.running,
         timeout=300)
    answer.editor.moveCursor(answer.editor.textCursor().MoveOperation.Start)


def workspace(app: QApplication, window: MainWindow, running, lang: str,
              name: str = "workspace") -> None:
    """001/29 with a one-bug solution (scaled by d_k): the failed property under the editor."""
    checked_code(app, window, running, "001/29", "scale_dk")
    at_sizes(app, window, name, lang)
    if lang == "zh_CN" and name == "workspace":
        window.resize(1400, 900)
        spin(app, lambda: True)
        grab(window, "console.png")  # the README's code question
    window.go_library()


def triton_drill(app: QApplication, window: MainWindow, running, lang: str) -> None:
    """Drill 10 (fused softmax in Triton) with padded lanes read as 0, checked on CPU in
    Triton's interpreter: the panel says correctness only and which property failed."""
    checked_code(app, window, running, "drills/10", "masked_lanes_zero")
    window.resize(1400, 900)
    spin(app, lambda: True)
    grab(window, f"triton_drill_{lang}_1400x900.png")
    window.go_library()


def interchange(app: QApplication, window: MainWindow, db, lang: str) -> None:
    """File ▸ Export questions (Anki deck chosen) and a Moodle XML file under review."""
    from desktop.views.bank_files import ExportDialog

    window.resize(1400, 900)
    window.move(0, 0)
    window.go_library()
    spin(app, lambda: db.pending == 0)
    dialog = ExportDialog(window.bank, window)
    dialog.show()
    centre(dialog, window, 560, 460)
    grab_with_dialog(app, window, f"anki_export_{lang}_1400x900.png")
    dialog.reject()
    window.import_paper(HERE / "data" / "moodle_quiz.xml")
    spin(app, lambda: window.screen_view is not None
         and window.screen_view.objectName() == "import_screen", timeout=30)
    grab(window, f"moodle_import_{lang}_1400x900.png")
    window.go_library()


def paper_import(app: QApplication, window: MainWindow, lang: str) -> None:
    """Papers written elsewhere under import review (issue 26), at both sizes: an English
    answer-key paper (plain text) and a Chinese web copy as Word with its keys in an
    appendix; a multiple-choice question shows its key and where it was printed."""
    sys.path.insert(0, str(HERE.parents[1]))
    from bench import paper_render as pr

    out = Path(tempfile.mkdtemp(prefix="examdesk-papers-"))
    for pid, layout, fmt, number, name in (
            ("001", "en_appendix", "txt", 12, "paper_import_en"),
            ("000", "cn_web_appendix", "docx", 16, "paper_import_zh")):
        window.import_paper(pr.render(pid, layout, fmt, out))
        spin(app, lambda: window.screen_view is not None
             and window.screen_view.objectName() == "import_screen", timeout=30)
        window.screen_view.review.select(number)
        for width, height in SIZES:
            window.resize(width, height)
            spin(app, lambda: True)
            grab(window, f"{name}_{lang}_{width}x{height}.png")
        window.go_library()


def import_flags_and_progress(app: QApplication, window: MainWindow, lang: str,
                              suffix: str = "") -> None:
    """Issue 30 item 5 / issue 28 item 8: a damaged seed under review, a question whose
    flags explain themselves in the UI language; and a long paper being read, with its
    progress window and Cancel."""
    seed = HERE.parents[1] / "tests" / "data" / "seeds" / "000_88fc5b147273d5d1.txt"
    window.import_paper(seed)
    spin(app, lambda: window.screen_view is not None
         and window.screen_view.objectName() == "import_screen", timeout=30)
    review = window.screen_view.review
    flagged = max(review.paper.questions, key=lambda q: len(q.review))
    review.select(flagged.number)
    review.flags.setCurrentRow(0)  # its why in the message line too

    def show_flags() -> None:
        from PySide6.QtWidgets import QScrollArea

        area = review.flags.parent()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parent()
        if area is not None:
            area.ensureWidgetVisible(review.flags, 0, 0)

    at_sizes(app, window, "import_flags" + suffix, lang, prepare=show_flags)
    window.go_library()
    out = Path(tempfile.mkdtemp(prefix="examdesk-long-")) / "mock_papers_2024.txt"
    out.write_text("".join(f"{i}. 第 {i} 题？\nA. 是\nB. 否\n答案：A\n\n"
                           for i in range(1, 150_000)), encoding="utf-8")
    window.resize(*SIZES[0])
    window.import_paper(out)
    spin(app, lambda: window.import_job is not None and window.import_job.isVisible(),
         timeout=10)
    job = window.import_job
    spin(app, lambda: time.monotonic() - job._started > 2.6, timeout=10)  # "2 s" on screen
    grab_with_dialog(app, window, f"import_progress{suffix}_{lang}.png")
    window.import_job.reject()
    spin(app, lambda: True)


def wrong_book_list(app: QApplication, window: MainWindow, db, lang: str,
                    suffix: str = "") -> None:
    """Issue 30 item 7: the 错题本's list shows enough of each stem to know the question.
    Last of its group: the scripted history changes the library's cards."""
    db.run(lambda store: scripted_history(store, window.bank))
    spin(app, lambda: db.pending == 0, timeout=60)
    window.open_wrong_book()
    spin(app, lambda: isinstance(window.screen_view, WrongBookView) and db.pending == 0)
    at_sizes(app, window, "wrong_book_list" + suffix, lang)
    window.go_library()


def fill_in_verdict(app: QApplication, window: MainWindow, db, lang: str,
                    name: str = "fill_in_verdict") -> None:
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
    at_sizes(app, window, name, lang,
             prepare=lambda: page.ensureWidgetVisible(page.key, 0, 0))
    window.go_library()


def closed_book_exam(app: QApplication, window: MainWindow, lang: str,
                     name: str = "exam") -> None:
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
    at_sizes(app, window, name, lang)


def grab_with_dialog(app: QApplication, window: MainWindow, name: str) -> None:
    """The window and the dialogs open over it, as the screen shows them (Xvfb)."""
    spin(app, lambda: True)
    geometry = window.frameGeometry()
    app.primaryScreen().grabWindow(0, geometry.x(), geometry.y(), geometry.width(),
                                   geometry.height()).save(str(HERE / name))
    print("saved", HERE / name)


def centre(dialog, window: MainWindow, width: int, height: int) -> None:
    dialog.resize(min(width, window.width() - 40), min(height, window.height() - 40))
    dialog.move(window.geometry().center() - dialog.rect().center())


def study_modes(app: QApplication, window: MainWindow, db, lang: str) -> None:
    """Search, a practice set (dialog and run), recite mode and the review session."""
    window.move(0, 0)
    db.run(study.save_note, question_id="000/8",
           text="ZeRO-Offload：梯度与优化器状态都卸到 CPU，**显存**里只剩参数分片").result(timeout=10)
    db.run(study.set_favourite, question_id="001/3", starred=True).result(timeout=10)
    for width, height in SIZES:
        window.resize(width, height)
        window.go_library()
        spin(app, lambda: db.pending == 0)
        dialog = window.open_search()
        centre(dialog, window, 820, 560)
        dialog.query.setText("显存" if lang == "zh_CN" else "checkpoint")
        spin(app, lambda: dialog.results is not None and db.pending == 0, timeout=30)
        grab_with_dialog(app, window, f"search_{lang}_{width}x{height}.png")
        dialog.hide()
    if lang != "zh_CN":
        return

    window.open_practice("000")
    spin(app, lambda: isinstance(window.screen_view, PracticeView) and db.pending == 0)
    practice = window.screen_view
    practice.set_recite(True)
    for index, knew in ((0, True), (1, False), (2, True)):
        practice.go_to(index)
        practice.recite_current(knew)
        spin(app, lambda: db.pending == 0)
    practice.go_to(4)  # 000/5: corrected, the errata with both keys
    at_sizes(app, window, "recite", lang)
    practice.set_recite(False)
    window.go_library()

    for width, height in SIZES:
        window.resize(width, height)
        spin(app, lambda: db.pending == 0)
        dialog = window.open_practice_sets()
        centre(dialog, window, 960, 660)
        dialog.types.set_checked(["single_choice", "multiple_choice"])
        dialog.random.setChecked(True)
        dialog.count.setValue(20)
        dialog.seed.setText("2025")
        dialog.schedule_preview()
        spin(app, lambda: dialog.preview is not None and not dialog._timer.isActive()
             and db.pending == 0)
        grab_with_dialog(app, window, f"practice_set_dialog_{lang}_{width}x{height}.png")
        if (width, height) == SIZES[-1]:
            dialog.start_button.click()
        else:
            dialog.reject()
    spin(app, lambda: isinstance(window.screen_view, PracticeView)
         and window.screen_view.run is not None and db.pending == 0)
    run = window.screen_view
    for index in range(6):  # right, wrong, right, shown, flagged, …
        run.go_to(index)
        q = run.questions[index]
        if not q.scored:
            continue
        if index == 3:
            run.show_answer()
        elif q.type == "single_choice":
            letter = q.answer if index != 1 else next(k for k in q.options if k != q.answer)
            QTest.keyClick(run, getattr(Qt.Key, f"Key_{letter}"))
            QTest.keyClick(run, Qt.Key.Key_Return)
        elif q.type == "multiple_choice":
            for letter in sorted(q.answer)[:1]:  # one of the keys only: partly right
                QTest.keyClick(run, getattr(Qt.Key, f"Key_{letter}"))
            run.submit_current()
        spin(app, lambda: db.pending == 0)
    run.go_to(4)
    run.toggle_flag()
    run.go_to(6)
    at_sizes(app, window, "practice_set_run", lang)
    window.go_library()

    db.run(study.set_study_settings, new_per_day=5).result(timeout=10)
    review_view = window.open_review()
    spin(app, lambda: isinstance(window.screen_view, ReviewView)
         and review_view.card is not None and db.pending == 0)
    review_view.show_answer()
    at_sizes(app, window, "review", lang)
    window.go_library()


def choices_and_mocks(app: QApplication, window: MainWindow, db, lang: str,
                      suffix: str = "") -> None:
    """Issue 30: a choice question's verdict (letter and text on one line, nothing moved),
    and the library's mock-exam card after a mock exam was taken."""
    window.open_practice("000")
    spin(app, lambda: isinstance(window.screen_view, PracticeView) and db.pending == 0)
    practice = window.screen_view
    QTest.keyClick(practice, Qt.Key.Key_B)  # 000/1's key is A: a wrong pick
    QTest.keyClick(practice, Qt.Key.Key_Return)
    spin(app, lambda: db.pending == 0)
    at_sizes(app, window, f"choice_verdict{suffix}", lang)
    window.go_library()
    spec = {"title": "模考 A" if lang == "zh_CN" else "Mock A", "duration_minutes": 20,
            "seed": 3, "parts": [{"type": "single_choice", "count": 3, "points": 2}]}
    started = db.run(study.start_mock_exam, bank=window.bank, spec=spec).result(timeout=30)
    window._exam_ready(started.paper, started.session)
    spin(app, lambda: isinstance(window.screen_view, ExamView))
    exam = window.screen_view
    QTest.keyClick(exam, getattr(Qt.Key, f"Key_{exam.questions[0].answer}"))
    exam.submit()
    spin(app, lambda: isinstance(window.screen_view, ReportView))
    window.go_library()
    spin(app, lambda: window.library.mock_card is not None
         and window.library.mock_card.isVisible() and db.pending == 0)
    at_sizes(app, window, f"library_mock{suffix}", lang)


def workspace_folded(app: QApplication, window: MainWindow, running, lang: str,
                     suffix: str = "") -> None:
    """Issue 30.3: 001/29 at 1024×700 with its problem put away (an 80-column editor) and
    the failed check's whole message in the detail pane."""
    checked_code(app, window, running, "001/29", "scale_dk")
    page = window.screen_view.current_page()
    page.set_problem_shown(False)
    at_sizes(app, window, f"workspace_folded{suffix}", lang)
    page.set_problem_shown(True)
    window.go_library()


def exam_report(app: QApplication, window: MainWindow, lang: str) -> None:
    """A submitted exam's report (its time column names its units: issue 30)."""
    window.start_exam("000", 3600)
    spin(app, lambda: isinstance(window.screen_view, ExamView))
    exam = window.screen_view
    for index, letter in {0: "A", 1: "C", 2: "B", 3: "A"}.items():
        exam.go_to(index)
        QTest.keyClick(exam, getattr(Qt.Key, f"Key_{letter}"))
    exam.submit()
    spin(app, lambda: isinstance(window.screen_view, ReportView))
    window.screen_view.tabs.setCurrentIndex(1)
    at_sizes(app, window, "report", lang)
    window.go_library()


def take(lang: str, only: str = "all") -> int:
    dark = only == "dark"
    options = Options(data_dir=Path(tempfile.mkdtemp(prefix="examdesk-shots-")), lang=lang,
                      no_kernel=only in ("study", "interchange", "report"),
                      theme="dark" if dark else "light")
    app = prepare_application(sys.argv[1:1], options)
    running = build_app(options, settings=QSettings(
        str(options.data_dir / "settings.ini"), QSettings.Format.IniFormat), bank=load_bank())
    window, db = running.window, running.db
    spin(app, lambda: db.worker.ready.done())
    if dark:  # issue 14: the code workspace, a fill-in verdict and an exam in the dark theme
        workspace(app, window, running, lang, "workspace_dark")
        fill_in_verdict(app, window, db, lang, "fill_in_verdict_dark")
        closed_book_exam(app, window, lang, "exam_dark")
    if only in ("all", "interchange"):
        interchange(app, window, db, lang)
        paper_import(app, window, lang)
    if only == "all":
        if lang == "zh_CN":
            tour(app, window, db)
        workspace(app, window, running, lang)
        triton_drill(app, window, running, lang)
        fill_in_verdict(app, window, db, lang)
        closed_book_exam(app, window, lang)
    if only in ("all", "study"):
        study_modes(app, window, db, lang)
    if only in ("all", "report"):
        exam_report(app, window, lang)
    if only in ("all", "issue30", "dark"):
        import_flags_and_progress(app, window, lang, "_dark" if dark else "")
        choices_and_mocks(app, window, db, lang, "_dark" if dark else "")
        workspace_folded(app, window, running, lang, "_dark" if dark else "")
        wrong_book_list(app, window, db, lang, "_dark" if dark else "")
    window.close()
    running.shutdown()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=LANGUAGES, help="only this UI language")
    parser.add_argument("--only", choices=("all", "study", "interchange", "dark", "report",
                                           "issue30"),
                        default=None, help="study / interchange: only those screenshots (no "
                        "kernel); dark: the dark-theme ones; default: all, then dark")
    args = parser.parse_args()
    runs = (args.only,) if args.only else ("all", "dark")
    if args.lang and len(runs) == 1:
        return take(args.lang, runs[0])
    for only in runs:  # a process each: the UI language and theme are set at start-up
        for lang in (args.lang,) if args.lang else LANGUAGES:
            code = subprocess.run([sys.executable, __file__, "--lang", lang,
                                   "--only", only]).returncode
            if code:
                return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
