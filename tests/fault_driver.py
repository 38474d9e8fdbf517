"""Drives the real examdesk objects through an exam until it is killed (tests/test_faults_kill.py).

    python tests/fault_driver.py DATA_DIR SEED

Builds what ``desktop.app`` builds (``SingleInstance``, ``recovery.progress_worker``,
``DbOps``, ``MainWindow``) on DATA_DIR, resumes the unfinished exam through the real
"resume?" question (answered Yes), or starts paper 000 for an hour, then answers through the
real widgets: option keys on the exam screen, typing into blanks, essays and the code editor.
Nothing is mocked; the store worker is only *observed* (``ObservedWorker``) to learn when a
draft's transaction has committed. Lines on stdout, flushed:

    OPENED <notice kinds>             the progress file is open (recovery notices, or -)
    OFFERED <session id>              the resume question was asked for this session
    READY <session id> <deadline> <now> <remaining>   the exam is on screen and running
    ENTERED <qid> <digest> <t>        the widget shows this response since time.time() t
    COMMITTED <qid> <digest>          the draft with this response is committed

``digest``: sha1 of the response's canonical JSON (``response_digest``), so the parent can
compare it with the drafts table. It runs until killed (or for ``--seconds``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from desktop.db import DbOps  # noqa: E402
from desktop.main_window import MainWindow  # noqa: E402
from desktop.single_instance import SingleInstance  # noqa: E402
from desktop.views.answer_widgets import (ChoiceAnswer, FillBlankAnswer,  # noqa: E402
                                          ProgrammingAnswer, SubjectiveAnswer)
from desktop.views.exam import ExamView  # noqa: E402
from question_db import recovery  # noqa: E402
from question_db.bank import load_bank  # noqa: E402
from question_db.store import ProgressStore  # noqa: E402

PAPER = "000"
EXAM_S = 3600
ACTION_MS = (60, 220)  # pause between two learner actions


def response_digest(response: Any) -> str:
    text = json.dumps(response, ensure_ascii=False, sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def say(*parts: object) -> None:
    # One write per line: the store thread and the UI thread both print.
    sys.stdout.write(" ".join(map(str, parts)) + "\n")
    sys.stdout.flush()


class ObservedWorker:
    """The real ``StoreWorker``, with a note printed once a draft write has committed.

    ``ProgressStore.save_draft`` commits before it returns, and the future is resolved after
    it returned: a COMMITTED line is never printed for a write that is not in the file.
    """

    def __init__(self, worker) -> None:
        self._worker = worker

    def __getattr__(self, name: str):
        return getattr(self._worker, name)

    def submit(self, fn, *args, **kwargs):
        future = self._worker.submit(fn, *args, **kwargs)
        if fn is ProgressStore.save_draft:
            question_id, digest = args[1], response_digest(args[2])
            future.add_done_callback(
                lambda f: f.exception() is None and say("COMMITTED", question_id, digest))
        return future


class Learner:
    """Random but realistic edits through the widgets of the exam on screen."""

    def __init__(self, view: ExamView, rng: random.Random, tag: str) -> None:
        self.view = view
        self.rng = rng
        self.tag = tag
        self.count = 0
        self.targets = [i for i, q in enumerate(view.questions)
                        if q.type in ("single_choice", "multiple_choice", "fill_blank",
                                      "short_answer", "programming")]

    def act(self) -> None:
        view = self.view
        index = self.rng.choice(self.targets)
        view.go_to(index)
        answer = view.current_page().answer
        self.count += 1
        token = f"{self.tag}-{self.count}"
        if isinstance(answer, ChoiceAnswer):
            letters = list(answer.buttons)
            view.setFocus()
            QTest.keyClick(view, getattr(Qt.Key, f"Key_{self.rng.choice(letters)}"))
        elif isinstance(answer, FillBlankAnswer):
            edit = self.rng.choice(answer.edits)
            edit.setFocus()
            QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            QTest.keyClicks(edit, token)
        elif isinstance(answer, ProgrammingAnswer):
            editor = answer.editor
            editor.setFocus()
            editor.moveCursor(editor.textCursor().MoveOperation.End)
            QTest.keyClick(editor, Qt.Key.Key_Return)
            QTest.keyClicks(editor, f"# {token}")
        elif isinstance(answer, SubjectiveAnswer):
            editor = answer.text
            editor.setFocus()
            editor.moveCursor(editor.textCursor().MoveOperation.End)
            QTest.keyClicks(editor, f" step {token}")  # QTest types ASCII only
        say("ENTERED", view.question_id(index), response_digest(view.response(index)),
            f"{time.time():.3f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("seed", type=int)
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    app = QApplication([sys.argv[0]])
    instance = SingleInstance(args.data_dir)  # the lock and the socket a killed run left
    if not instance.acquire():  # the killed run's lock must have died with it
        say("LOCKED", instance.holder_pid())
        return 3
    worker = recovery.progress_worker(args.data_dir)
    db = DbOps(ObservedWorker(worker))
    settings = QSettings(str(args.data_dir / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db, settings, load_bank())
    window.show()
    db.run(lambda store: worker.ready.result(),
           on_done=lambda notices: say("OPENED", ",".join(n.kind for n in notices) or "-"))

    offered: list[int] = []

    def answer_resume(parent, title, text, *rest, **kwargs):
        offered.append(1)
        return QMessageBox.StandardButton.Yes

    QMessageBox.question = answer_resume  # the learner answers "Resume it now?" with Yes

    def after_check(sessions) -> None:
        if sessions:
            say("OFFERED", sessions[0].id)
            window._offer_resume(sessions)  # the real question, answered by answer_resume
        else:
            window.start_exam(PAPER, EXAM_S)

    db.run(ProgressStore.unfinished_exams, on_done=after_check)

    learner: list[Learner] = []
    timer = QTimer()
    timer.setSingleShot(True)

    def step() -> None:
        view = window.screen_view
        if not learner:
            if not isinstance(view, ExamView):
                timer.start(20)
                return
            now = time.time()
            say("READY", view.session_id, f"{view.deadline:.3f}", f"{now:.3f}",
                f"{view.remaining():.3f}")
            learner.append(Learner(view, rng, f"s{args.seed}"))
        else:
            learner[0].act()
        timer.start(rng.randint(*ACTION_MS))

    timer.timeout.connect(step)
    timer.start(0)
    if args.seconds:
        QTimer.singleShot(int(args.seconds * 1000), app.quit)
    code = app.exec()
    window.close()
    worker.close()
    instance.release()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
