"""Regenerate the screenshots in this folder (needs a display; CI uses Xvfb):

    xvfb-run -s "-screen 0 1400x900x24" python docs/screenshots/take.py [--lang zh_CN]

Uses a throw-away data dir, the bundled papers and real widgets; nothing is mocked.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from desktop.app import apply_ui_font, install_translations  # noqa: E402
from desktop.db import DbOps  # noqa: E402
from desktop.main_window import MainWindow  # noqa: E402
from desktop.views.exam import ExamView  # noqa: E402
from desktop.views.practice import PracticeView  # noqa: E402
from desktop.views.report import ReportView  # noqa: E402
from question_db.bank import load_bank  # noqa: E402
from question_db.store import StoreWorker  # noqa: E402


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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="zh_CN")
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    app.setOrganizationName("examdesk")
    app.setApplicationName("examdesk")
    install_translations(app, args.lang)
    apply_ui_font(app)
    data = Path(tempfile.mkdtemp(prefix="examdesk-shots-"))
    worker = StoreWorker(data / "progress.sqlite3")
    db = DbOps(worker)
    window = MainWindow(db, QSettings(str(data / "settings.ini"), QSettings.Format.IniFormat),
                        load_bank())
    window.resize(1280, 820)
    window.show()

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
    exam.submit("submitted")
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

    window.close()
    worker.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
