"""Check or Verify on a pack examdesk did not ship: the learner is asked once, by name and
folder; "Don't run" runs nothing, "Allow" is remembered for these exact files.

The pack is the tiny one of tests/test_trust.py plus a verify snippet, installed where a
learner puts packs (``data_dir/papers``); its check suite and its snippet each write a marker
file when they run, so "nothing ran" is a file that does not exist. Real windows and, for
the runs that are allowed, a real kernel.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QPushButton

from desktop.console.wiring import attach_console
from desktop.db import DbOps
from desktop.main_window import MainWindow
from desktop.views.practice import PracticeView
from question_db import trust
from question_db.bank import load_bank
from question_db.paths import user_papers_dir
from question_db.store_worker import StoreWorker
from test_trust import TINY_CHECK, TINY_PAPER, TINY_QUESTION

pytestmark = pytest.mark.gui
START_MS = 60_000


class Desk:
    """A main window over a data dir with the tiny pack installed, console attached."""

    def __init__(self, qtbot, tmp_path: Path) -> None:
        self.qtbot = qtbot
        self.data = tmp_path / "data"
        self.pack = user_papers_dir(self.data) / "tiny"
        self.pack.mkdir(parents=True)
        self.marker = tmp_path / "marker"
        (self.pack / "paper.toml").write_text(TINY_PAPER, "utf-8")
        self.verified = tmp_path / "verified"
        question = TINY_QUESTION.replace('\n[code]', 'verify = "q01_verify.py"\n\n[code]', 1)
        (self.pack / "q01.toml").write_text(question, "utf-8")
        (self.pack / "q01_verify.py").write_text(
            f"from pathlib import Path\nPath({str(self.verified)!r}).write_text('ran')\n"
            "print('verified')\n", "utf-8")
        (self.pack / "q01_reference.py").write_text("def one():\n    return 1\n", "utf-8")
        (self.pack / "q01_check.py").write_text(TINY_CHECK.format(marker=str(self.marker)),
                                                "utf-8")
        bank = load_bank([user_papers_dir(self.data)])
        assert not bank.problems, [str(p) for p in bank.problems]
        self.worker = StoreWorker(self.data / "progress.sqlite3")
        self.db = DbOps(self.worker)
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        self.window = MainWindow(self.db, settings, bank)
        self.console = attach_console(self.window, settings, data_dir=self.data)
        self.window.show()
        self.started: list[str] = []
        self.finished: list[dict] = []
        self.console.checks.sig_check_started.connect(lambda qid, _env: self.started.append(qid))
        self.console.checks.sig_check_finished.connect(lambda _qid, r: self.finished.append(r))

    def open_question(self, paper_id: str, number: int):
        self.window.open_practice(paper_id)
        self.qtbot.waitUntil(lambda: isinstance(self.window.screen_view, PracticeView))
        view = self.window.screen_view
        view.go_to(next(i for i, q in enumerate(view.questions) if q.number == number))
        return view.current_page().answer

    def press_check(self, answer, reply: str | None, button=None) -> list[str]:
        """Click Check (or ``button``); answer the consent question with ``reply``
        (trust_allow / trust_deny) if it comes. Returns the questions' texts that were asked."""
        asked: list[str] = []
        attempts = [0]

        def respond() -> None:
            box = QApplication.activeModalWidget()
            if box is None or box.objectName() != "trust_pack_box":
                attempts[0] += 1
                if attempts[0] < 200:
                    QTimer.singleShot(10, respond)
                return
            asked.append(box.text())
            box.findChild(QPushButton, reply).click()

        if reply is not None:
            QTimer.singleShot(0, respond)
        (button or answer.check_button).click()
        self.qtbot.wait(50)
        return asked

    def close(self) -> None:
        self.console.shutdown()
        self.window.close()
        assert self.worker.close()
        self.window.deleteLater()
        self.db.deleteLater()
        QApplication.processEvents()


@pytest.fixture
def desk(qtbot, tmp_path):
    made = Desk(qtbot, tmp_path)
    yield made
    made.close()


def test_declined_runs_nothing_allowed_is_remembered_and_a_change_asks_again(desk):
    desk.window.set_console_available(True)  # Check enabled; no kernel needed to decide
    answer = desk.open_question("tiny", 1)
    asked = desk.press_check(answer, "trust_deny")
    assert len(asked) == 1
    assert "Tiny pack" in asked[0] and "tiny" in asked[0] and str(desk.pack) in asked[0]
    assert desk.started == [] and not desk.marker.exists()  # nothing ran, not even the code
    assert "nothing was run" in answer.check_status.text()
    assert "nothing was run" in desk.console.panel.summary.text()
    assert not (desk.data / trust.TRUST_FILE).exists()

    assert len(desk.press_check(answer, "trust_allow")) == 1  # asked again after a "no"
    assert desk.started == ["tiny/1"]  # past the gate (the kernel is not running here)
    desk.qtbot.waitUntil(lambda: bool(desk.finished))
    assert "not running" in desk.finished[0]["error"]
    stored = json.loads((desk.data / trust.TRUST_FILE).read_text("utf-8"))
    assert stored["packs"]["tiny"]["folder"] == str(desk.pack)

    assert desk.press_check(answer, None) == []  # remembered: not asked again
    assert desk.started == ["tiny/1", "tiny/1"]

    with (desk.pack / "q01_check.py").open("a", encoding="utf-8") as fh:
        fh.write("# changed by an update\n")
    assert len(desk.press_check(answer, "trust_deny")) == 1  # other files: asked again
    assert desk.started == ["tiny/1", "tiny/1"]
    assert desk.console.trust.asked == ["tiny", "tiny", "tiny"]


def test_a_verify_snippet_of_an_untrusted_pack_waits_for_consent(desk):
    desk.window.set_console_available(True)
    desk.open_question("tiny", 1)
    page = desk.window.screen_view.current_page()
    queued = desk.console.dock._queue  # what would run once the kernel is ready
    assert desk.press_check(None, "trust_deny", page.verify_button)
    assert not queued and "nothing was run" in desk.window.statusBar().currentMessage()
    assert desk.press_check(None, "trust_allow", page.verify_button)
    assert len(queued) == 1 and "verified" in queued[0][0]
    assert desk.press_check(None, None, page.verify_button) == []  # remembered
    assert len(queued) == 2


def test_a_bundled_pack_is_never_asked_about(desk):
    desk.window.set_console_available(True)
    answer = desk.open_question("000", 34)
    assert desk.press_check(answer, None) == []
    assert desk.started == ["000/34"] and desk.console.trust.asked == []


@pytest.mark.kernel
def test_allowed_pack_runs_its_checks_in_the_kernel(desk):
    with desk.qtbot.waitSignal(desk.console.dock.session.sig_ready, timeout=START_MS):
        desk.console.dock.start()
    answer = desk.open_question("tiny", 1)
    answer.editor.setPlainText("def one():\n    return 1\n")
    assert len(desk.press_check(answer, "trust_allow")) == 1
    desk.qtbot.waitUntil(lambda: bool(desk.finished), timeout=START_MS * 3)
    report = desk.finished[0]
    assert report["error"] is None and report["passed"] is True
    assert desk.marker.exists()  # the pack's own code ran, once allowed
    page = desk.window.screen_view.current_page()
    assert desk.press_check(None, None, page.verify_button) == []  # the same files: trusted
    desk.qtbot.waitUntil(desk.verified.exists, timeout=START_MS)
