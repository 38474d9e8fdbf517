"""kill -9 while practising, again and again: no settled draft, submit or note is lost.

``fault_driver.py --practice`` practises paper 000 through the real widgets: it edits one
question, moves to another and edits that, submits what is answered (a submit must not
stop the draft saves of the other questions: issue 28 item 5) and types notes in bursts
with no pause (a note is saved at most ``NOTE_DELAY_MS`` after its first unsaved
keystroke: item 4). The test SIGKILLs it at a random moment, many times, on the same data
dir, and after each kill reads the progress file from outside:

- every draft or answer the driver saw committed is there, or a newer value of it;
- every response entered and every note typed more than a second before the kill is
  there, or a newer one;
- ``PRAGMA integrity_check`` is ok, and every run continues the same practice session;
- every third run first imports a pasted paper and saves it over one of two pack ids
  (killed at a random moment of that): every pack in ``papers/`` loads whole (all 34
  questions, a title some run saved), a pack the driver saw saved is there with its
  title, and no hidden ``.partial`` / ``.replaced`` folder is loaded as a paper.

With ``test_faults_kill.py`` (exam) this makes the suite's ≥ 50 random kills.
"""
from __future__ import annotations

import hashlib
import random
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from fault_driver import IMPORT_QUESTIONS
from question_db.bank import load_bank
from test_faults_kill import SETTLED_S, Run, digest

pytestmark = [pytest.mark.slow, pytest.mark.gui]  # gui: conftest's leak check (no driver left)

KILLS = 26
EARLY_EVERY = 7  # every 7th kill lands during start-up
KILL_AFTER_S = (0.5, 4.0)
IMPORT_EVERY = 3  # the driver imports first when its seed (the kill's number) divides by 3
IMPORT_KILL_AFTER_S = (0.3, 2.5)  # from launch: in the importer's child or the review
WRITE_KILL_AFTER_S = (0.0, 0.5)  # from the save's start: in the pack write or its swap
READY_TIMEOUT_S = 60.0


@dataclass
class Ledger:
    kills: int = 0
    practice_kills: int = 0
    entered: int = 0
    committed: int = 0
    notes_typed: int = 0
    notes_committed: int = 0
    submits: int = 0
    lost: list[str] = field(default_factory=list)
    session_id: int | None = None
    import_kills: int = 0
    packs_saved: int = 0
    titles: dict[str, set[str]] = field(default_factory=dict)  # pack id -> titles begun
    saved: dict[str, str] = field(default_factory=dict)  # qid -> response digest
    notes: dict[str, str] = field(default_factory=dict)  # qid -> note text digest


def read_progress(db_path: Path, session_id: int | None
                  ) -> tuple[str, dict[str, str], dict[str, str], int]:
    """integrity_check, each question's draft digest in the session, each note's digest,
    and how many answers were stored."""
    conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        drafts, answers = {}, 0
        if session_id is not None:
            drafts = {q: digest(r) for q, r in conn.execute(
                "SELECT question_id, response FROM drafts WHERE session_id = ?", [session_id])}
            answers = conn.execute("SELECT count(*) FROM answers WHERE session_id = ?",
                                   [session_id]).fetchone()[0]
        notes = {q: hashlib.sha1(t.encode("utf-8")).hexdigest()[:12]
                 for q, t in conn.execute("SELECT question_id, text FROM notes")}
    finally:
        conn.close()
    return integrity, drafts, notes, answers


def required(lines: list[list[str]], kind: str, done: str, qid: str, killed_at: float,
             before: str | None) -> set[str | None]:
    """The values ``qid`` may hold after the kill: the newest of (the last committed value,
    the last value entered more than SETTLED_S before the kill), or anything typed after it;
    what it held before the run if nothing of it settled."""
    entries = [(i, line[2], float(line[3])) for i, line in enumerate(lines)
               if line[0] == kind and line[1] == qid]
    commits = [(i, line[2]) for i, line in enumerate(lines) if line[0] == done and line[1] == qid]
    floor: list[tuple[int, str]] = []
    if commits:
        c_index, c_digest = commits[-1]
        typed = [i for i, d, _ in entries if i < c_index and d == c_digest]
        floor.append((max(typed, default=c_index), c_digest))
    settled = [(i, d) for i, d, t in entries if t < killed_at - SETTLED_S]
    if settled:
        floor.append(settled[-1])
    if not floor:
        return {before} | {d for _, d, _ in entries}
    index, value = max(floor)
    return {value} | {d for i, d, _ in entries if i > index}


def check_packs(ledger: Ledger, run: Run, papers: Path, number: int) -> None:
    """Every pack loads whole with a title some run began to save; one this run saw saved
    has this run's title; nothing hidden is a paper."""
    for line in run.lines:
        if line[0] == "IMPORTING":
            ledger.titles.setdefault(line[1], set()).add(line[2].replace("_", " "))
    if not papers.exists():
        return
    bank = load_bank([papers], include_bundled=False)
    assert not bank.problems, f"kill {number}: {bank.problems[:3]}"
    ids = {p.id for p in bank.papers}
    on_disk = {f.name for f in papers.iterdir() if f.is_dir() and not f.name.startswith(".")}
    assert ids == on_disk, f"kill {number}: loaded {ids}, folders {on_disk}"
    for paper in bank.papers:
        assert len(paper.questions) == IMPORT_QUESTIONS, (
            f"kill {number}: {paper.id} has {len(paper.questions)} questions")
        assert paper.title in ledger.titles.get(paper.id, set()), (
            f"kill {number}: {paper.id} is titled {paper.title!r}")
    saved = run.first("IMPORTED")
    if saved is not None:
        ledger.packs_saved += 1
        paper = next((p for p in bank.papers if p.id == saved[1]), None)
        assert paper is not None and paper.title == saved[2].replace("_", " "), (
            f"kill {number}: {saved[1]} was saved but is {paper and paper.title!r}")


def check_run(ledger: Ledger, run: Run, killed_at: float, db_path: Path, number: int) -> None:
    check_packs(ledger, run, db_path.parent / "papers", number)
    started = run.first("PRACTICE")
    if started is not None:
        session_id = int(started[1])
        assert ledger.session_id in (None, session_id), (
            f"kill {number}: practice session {session_id}, expected {ledger.session_id}")
        ledger.session_id = session_id
    if not db_path.exists():
        return
    integrity, drafts, notes, answers = read_progress(db_path, ledger.session_id)
    assert integrity == "ok", f"kill {number}: integrity_check says {integrity}"
    lines = run.lines
    ledger.entered += sum(1 for line in lines if line[0] == "ENTERED")
    ledger.committed += sum(1 for line in lines if line[0] == "COMMITTED")
    ledger.notes_typed += sum(1 for line in lines if line[0] == "NOTE")
    ledger.notes_committed += sum(1 for line in lines if line[0] == "NOTED")
    ledger.submits = answers
    touched = {line[1] for line in lines if line[0] in ("ENTERED", "COMMITTED")}
    for qid in touched | set(ledger.saved):
        allowed = required(lines, "ENTERED", "COMMITTED", qid, killed_at, ledger.saved.get(qid))
        if drafts.get(qid) not in allowed:
            ledger.lost.append(f"kill {number}: {qid} draft {drafts.get(qid)}, expected one "
                               f"of {allowed}")
    for qid in {line[1] for line in lines if line[0] in ("NOTE", "NOTED")} | set(ledger.notes):
        allowed = required(lines, "NOTE", "NOTED", qid, killed_at, ledger.notes.get(qid))
        if notes.get(qid) not in allowed:
            ledger.lost.append(f"kill {number}: {qid} note {notes.get(qid)}, expected one "
                               f"of {allowed}")
    ledger.saved, ledger.notes = dict(drafts), dict(notes)


def test_kill_9_while_practising_loses_no_settled_draft_answer_or_note(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    db_path = data / "progress.sqlite3"
    rng = random.Random(20_26_12)  # fixed: a failure can be replayed
    ledger = Ledger()
    started = time.monotonic()
    for number in range(KILLS):
        run = Run(data, number, tmp_path / f"driver-{number}.log", ["--practice"])
        try:
            if number % IMPORT_EVERY == 0:
                ledger.import_kills += 1
                if number % (2 * IMPORT_EVERY) == 0:
                    time.sleep(rng.uniform(*IMPORT_KILL_AFTER_S))
                else:
                    deadline = time.monotonic() + READY_TIMEOUT_S
                    while run.first("IMPORTING") is None and time.monotonic() < deadline \
                            and run.proc.poll() is None:
                        time.sleep(0.005)
                    time.sleep(rng.uniform(*WRITE_KILL_AFTER_S))
            elif number % EARLY_EVERY == EARLY_EVERY - 1:
                time.sleep(rng.uniform(0.05, 1.0))  # opening, migrating, the backup
            else:
                deadline = time.monotonic() + READY_TIMEOUT_S
                while run.first("PRACTICE") is None and time.monotonic() < deadline:
                    assert run.proc.poll() is None, (
                        f"run {number} died: "
                        f"{(tmp_path / f'driver-{number}.log').read_text()[-2000:]}")
                    time.sleep(0.02)
                assert run.first("PRACTICE"), f"run {number} never showed practice"
                ledger.practice_kills += 1
                time.sleep(rng.uniform(*KILL_AFTER_S))
        finally:
            killed_at = run.kill()
        ledger.kills += 1
        check_run(ledger, run, killed_at, db_path, number)

    with capsys.disabled():
        print(f"\n[kill -9, practice] kills={ledger.kills} (while practising "
              f"{ledger.practice_kills}) entered={ledger.entered} committed={ledger.committed} "
              f"notes_typed={ledger.notes_typed} notes_committed={ledger.notes_committed} "
              f"answers={ledger.submits} import_kills={ledger.import_kills} "
              f"packs_saved={ledger.packs_saved} lost={len(ledger.lost)} "
              f"took={time.monotonic() - started:.0f}s")
    assert not ledger.lost, "\n".join(ledger.lost)
    assert ledger.committed > 0 and ledger.notes_committed > 0 and ledger.submits > 0
    assert ledger.packs_saved > 0  # some imports finished, the others were killed on the way
