"""Drives the real examdesk objects through an exam until it is killed (tests/test_faults_kill.py).

    python tests/fault_driver.py DATA_DIR SEED

Builds examdesk through its composition root (``desktop.app.build_app``, no kernel) after
taking DATA_DIR's ``SingleInstance`` lock, resumes the unfinished exam through the real
"resume?" question (answered Yes), or starts paper 000 for an hour, then answers through the
real widgets: option keys on the exam screen, typing into blanks, essays and the code editor.
Nothing is mocked; the store worker is only *observed* (``ObservedWorker``) to learn when a
draft's transaction has committed. Lines on stdout, flushed:

    OPENED <notice kinds>             the progress file is open (recovery notices, or -)
    OFFERED <session id>              the resume question was asked for this session
    READY <session id> <deadline> <now> <remaining>   the exam is on screen and running
    ENTERED <qid> <digest> <t>        the widget shows this response since time.time() t
    COMMITTED <qid> <digest>          the draft with this response is committed
    AT <qid>                          (--dwell) the question the exam opened at
    DWELL <qid> <t> <seconds>         (--dwell) on this question since time.time() t, with
                                      <seconds> already spent on it; nothing else is done

``digest``: sha1 of the response's canonical JSON (``response_digest``), so the parent can
compare it with the drafts table. It runs until killed (or for ``--seconds``).

``--practice``: paper 000's practice session instead of an exam, moving between questions
(a draft left on one question while another is submitted), typing notes in bursts, and
submitting answered questions:

    PRACTICE <session id>             practice is on screen
    ENTERED / COMMITTED               as above (COMMITTED also for a submitted answer)
    NOTE <qid> <digest> <t>           the note editor shows this text since time.time() t
    NOTED <qid> <digest>              the note with this text is committed

Every third run (seed divisible by 3) first imports a pasted 34-question GIFT paper and
saves it as one of two pack ids (the second save of an id replaces the pack), so kills land
in the importer's child, the review and the pack write too:

    IMPORTING <pack id> <title>       the save of this pack began
    IMPORTED <pack id> <title>        the pack is written and loads
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

from desktop.app import build_app  # noqa: E402
from desktop.config import Options  # noqa: E402
from desktop.single_instance import SingleInstance  # noqa: E402
from desktop.views.answer_widgets import (ChoiceAnswer, FillBlankAnswer,  # noqa: E402
                                          ProgrammingAnswer, SubjectiveAnswer)
from desktop.views.exam import ExamView  # noqa: E402
from desktop.views.practice import PracticeView  # noqa: E402
from question_db import actions, study  # noqa: E402
from question_db.bank import load_bank  # noqa: E402
from question_db.responses import response_to_json  # noqa: E402

PAPER = "000"
EXAM_S = 3600
ACTION_MS = (60, 220)  # pause between two learner actions


def response_digest(response: Any) -> str:
    """sha1 of a typed response's stored JSON (what the drafts table holds)."""
    text = json.dumps(response_to_json(response), ensure_ascii=False, sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def text_digest(text: str) -> str:
    """sha1 of a note's text (what the notes table holds)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def say(*parts: object) -> None:
    # One write per line: the store thread and the UI thread both print.
    sys.stdout.write(" ".join(map(str, parts)) + "\n")
    sys.stdout.flush()


class ObservedWorker:
    """The real ``StoreWorker``, with a note printed once a draft write has committed.

    ``actions.save_draft`` commits before it returns, and the future is resolved after it
    returned: a COMMITTED line is never printed for a write that is not in the file.
    """

    def __init__(self, worker) -> None:
        self._worker = worker

    def __getattr__(self, name: str):
        return getattr(self._worker, name)

    def submit(self, fn, *args, **kwargs):
        future = self._worker.submit(fn, *args, **kwargs)
        if fn in (actions.save_draft, actions.submit_practice_answer):
            question_id, digest = kwargs["question"].id, response_digest(kwargs["response"])
            future.add_done_callback(
                lambda f: f.exception() is None and say("COMMITTED", question_id, digest))
        elif fn is study.save_note:
            question_id, digest = kwargs["question_id"], text_digest(kwargs["text"])
            future.add_done_callback(
                lambda f: f.exception() is None and say("NOTED", question_id, digest))
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


IMPORT_QUESTIONS = 34


def import_then(window, seed: int, then) -> None:
    """Import a pasted GIFT paper through the real screens, save it over one of two ids
    (pressing Save again when the id holds a pack), then call ``then``."""
    from desktop.views.import_screen import ImportScreen

    title = f"kill import {seed}"
    text = f"$CATEGORY: $course$/top/{title}\n\n" + "\n\n".join(
        f"::Q{n}:: Question {n} of run {seed}? {{=yes ~no}}"
        for n in range(1, IMPORT_QUESTIONS + 1))
    pack_id = f"kill_import_{seed % 2}"

    def on_screen() -> None:
        view = window.screen_view
        if not isinstance(view, ImportScreen):
            QTimer.singleShot(20, on_screen)
            return
        review = view.review
        review.id_edit.setText(pack_id)
        saved: list[bool] = []

        def done(_paper) -> None:
            saved.append(True)
            say("IMPORTED", pack_id, title.replace(" ", "_"))
            QTimer.singleShot(0, then)

        review.sig_saved.connect(done)
        say("IMPORTING", pack_id, title.replace(" ", "_"))
        review.save()

        def again() -> None:  # "already holds a pack; press again to replace it"
            if saved:
                return
            if "already" in review.message.text() and review.save_button.isEnabled():
                review.save()
            QTimer.singleShot(50, again)
        QTimer.singleShot(50, again)

    window.import_pasted(text)
    on_screen()


class PracticeLearner(Learner):
    """Practice the way a learner does: answer one question, move on and come back, write
    a note in a burst of keystrokes, submit what is answered."""

    def open(self) -> list[int]:
        view = self.view
        return [i for i in self.targets if view.question_id(i) not in view.answers
                and view.question_id(i) not in view.saving]

    def act(self) -> None:
        view = self.view
        roll = self.rng.random()
        page = view.current_page()
        if roll < 0.3 and page is not None:
            self.note_burst(page.question.id)
        elif roll < 0.45 and page is not None and page.question.id not in view.answers \
                and page.question.id not in view.saving and page.answer.is_answered():
            say("ENTERED", page.question.id, response_digest(page.answer.response()),
                f"{time.time():.3f}")
            view.submit_current()
        elif self.open():
            self.targets, everything = self.open(), self.targets
            try:
                super().act()  # moves to a random open question and edits it
            finally:
                self.targets = everything

    def note_burst(self, qid: str) -> None:
        notes = self.view.notes
        if not notes.editing:
            notes.set_editing(True)
        editor = notes.editor
        editor.setFocus()
        editor.moveCursor(editor.textCursor().MoveOperation.End)
        self.count += 1
        for word in (f"n{self.tag}-{self.count}", "remember", "this"):
            QTest.keyClicks(editor, f" {word}")
            say("NOTE", qid, text_digest(editor.toPlainText()), f"{time.time():.3f}")
            QTest.qWait(self.rng.randint(30, 120))  # typing on, no pause long enough to save


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("seed", type=int)
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long")
    parser.add_argument("--dwell", action="store_true",
                        help="go to one question and stay there (time accounting)")
    parser.add_argument("--practice", action="store_true",
                        help="practise paper 000 (drafts across questions, notes, submits)")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    app = QApplication([sys.argv[0]])
    instance = SingleInstance(args.data_dir)  # the lock and the socket a killed run left
    if not instance.acquire():  # the killed run's lock must have died with it
        say("LOCKED", instance.holder_pid())
        return 3
    settings = QSettings(str(args.data_dir / "settings.ini"), QSettings.Format.IniFormat)
    running = build_app(Options(data_dir=args.data_dir, no_kernel=True), settings=settings,
                        bank=load_bank(), wrap_worker=ObservedWorker)
    window, db = running.window, running.db
    db.run(lambda store: db.worker.ready.result(),
           on_done=lambda notices: say("OPENED", ",".join(n.kind for n in notices) or "-"))

    offered: list[int] = []

    def answer_resume(parent, title, text, *rest, **kwargs):
        offered.append(1)
        return QMessageBox.StandardButton.Yes

    QMessageBox.question = answer_resume  # the learner answers "Resume it now?" with Yes

    def after_check(sessions) -> None:
        if args.practice and args.seed % 3 == 0:
            import_then(window, args.seed, lambda: window.open_practice(PAPER))
        elif args.practice:
            window.open_practice(PAPER)
        elif sessions:
            # build_app asks the real "resume?" question after the first paint (answered
            # Yes by answer_resume above); nothing to do here but say so
            say("OFFERED", sessions[0].id)
        else:
            window.start_exam(PAPER, EXAM_S)

    db.run(actions.unfinished_exams, bank=window.bank, on_done=after_check)

    learner: list[Learner] = []
    timer = QTimer()
    timer.setSingleShot(True)

    def step() -> None:
        view = window.screen_view
        if args.practice:
            if not learner:
                if not isinstance(view, PracticeView):
                    timer.start(20)
                    return
                say("PRACTICE", view.session_id)
                learner.append(PracticeLearner(view, rng, f"p{args.seed}"))
            else:
                learner[0].act()
            timer.start(rng.randint(*ACTION_MS))
            return
        if not learner:
            if not isinstance(view, ExamView):
                timer.start(20)
                return
            now = time.time()
            say("READY", view.session_id, f"{view.deadline:.3f}", f"{now:.3f}",
                f"{view.remaining():.3f}")
            learner.append(Learner(view, rng, f"s{args.seed}"))
            if args.dwell:  # one question, read without a pause or a keystroke until killed
                say("AT", view.question_id(view.current))
                index = rng.choice([i for i in range(len(view.questions)) if i != view.current])
                view.go_to(index)
                qid = view.question_id(index)
                say("DWELL", qid, f"{time.time():.3f}", f"{view.seconds.get(qid, 0.0):.3f}")
                return
        else:
            learner[0].act()
        timer.start(rng.randint(*ACTION_MS))

    timer.timeout.connect(step)
    timer.start(0)
    if args.seconds:
        QTimer.singleShot(int(args.seconds * 1000), app.quit)
    code = app.exec()
    window.close()
    running.shutdown()
    instance.release()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
