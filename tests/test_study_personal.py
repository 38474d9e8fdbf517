"""Favourites and notes (autosave, delete, persistence), the progress export/import of
everything the study modes store (round trip, merges, the JSON Schema), notes in the Anki
export (core helper and ``question-db export --format apkg``), and a v2 file migrating to
v3 (no Qt)."""
from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from question_db import actions, progress_io, review, study
from question_db import store as store_module
from question_db.bank import load_bank
from question_db.enums import Mark, ReviewKind
from question_db.interchange.anki import note_guid, read_apkg
from question_db.mock_exam import MockExamSpec, MockPart
from question_db.practice_sets import PracticeSetSpec
from question_db.schemas import PROGRESS_EXPORT, schema
from question_db.store import ProgressStore

from study_helpers import T0, db_rows, right, wrong

BANK = load_bank()


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


def test_favourites_star_unstar_and_list(store, tmp_path):
    first = study.set_favourite(store, question_id="001/3", starred=True, now=T0)
    assert first.changes.favourites == {"001/3"} and not first.changes.questions
    assert study.set_favourite(store, question_id="001/3", starred=True).changes.favourites \
        == frozenset()  # already starred: nothing changed
    study.set_favourite(store, question_id="000/2", starred=True, now=T0)
    study.set_favourite(store, question_id="000/2", starred=False, now=T0 + 1)
    study.set_favourite(store, question_id="000/9", starred=True, now=T0)
    store.close()
    reopened = ProgressStore(tmp_path / "progress.sqlite3")
    assert [q.id for q in study.favourites(reopened, bank=BANK)] == ["000/9", "001/3"]
    mine = study.personal(reopened, question_ids=["001/3", "000/2", "001/4"])
    assert mine.starred == {"001/3"} and mine.notes == {}
    reopened.close()


def test_note_autosave_is_one_cheap_write_and_empty_deletes(store):
    saved = study.save_note(store, question_id="001/3", text="# 要点\n- 梯度下溢", now=T0)
    assert saved.changed and saved.note.text == "# 要点\n- 梯度下溢"
    assert saved.changes.notes == {"001/3"} and not saved.changes.questions
    same = study.save_note(store, question_id="001/3", text="# 要点\n- 梯度下溢", now=T0 + 1)
    assert not same.changed and same.note.updated_at == T0  # unchanged: not written again
    edited = study.save_note(store, question_id="001/3", text="# 要点\n- 梯度下溢\n- S",
                             now=T0 + 2)
    assert edited.changed and edited.note.created_at == T0 and edited.note.updated_at == T0 + 2
    uid = edited.note.uid
    gone = study.save_note(store, question_id="001/3", text="  \n", now=T0 + 3)
    assert gone.changed and gone.note is None
    assert study.personal(store, question_ids=["001/3"]).notes == {}
    assert study.notes(store, bank=BANK) == []
    # kept as an empty row with its time, so an older export cannot bring it back
    assert db_rows(store.path, "SELECT uid, text, updated_at FROM notes") == \
        [(uid, "", T0 + 3)]
    assert not study.save_note(store, question_id="000/1", text="").changed  # nothing to clear
    assert db_rows(store.path, "SELECT COUNT(*) FROM notes") == [(1,)]


def test_anki_notes_helper_and_the_cli_export_carry_the_learners_notes(tmp_path):
    data = tmp_path / "data"
    store = ProgressStore(data / "progress.sqlite3")
    study.save_note(store, question_id="001/3", text="记住 <GradScaler>", now=T0)
    study.save_note(store, question_id="001/4", text="删掉", now=T0)
    study.save_note(store, question_id="001/4", text="", now=T0 + 1)
    helper = study.anki_notes(store)
    assert helper.notes == {"001/3": "记住 <GradScaler>"}
    assert helper.note_times == {"001/3": T0}
    store.close()

    out = tmp_path / "deck.apkg"
    proc = subprocess.run([sys.executable, "-m", "question_db", "--data-dir", str(data),
                           "export", "--format", "apkg", "--out", str(out), "001"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "1 note(s) of yours" in proc.stderr
    notes = {n.guid: n for n in read_apkg(out).notes}
    assert notes[note_guid("001/3")].fields["Note"] == "记住 &lt;GradScaler&gt;"
    assert notes[note_guid("001/4")].fields["Note"] == ""
    bare = tmp_path / "bare.apkg"
    proc = subprocess.run([sys.executable, "-m", "question_db", "--data-dir", str(data),
                           "export", "--format", "apkg", "--no-notes", "--out", str(bare),
                           "001"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert all(n.fields["Note"] == "" for n in read_apkg(bare).notes)


@pytest.fixture
def history(tmp_path):
    """A progress file with every kind of study-mode row, written through the actions."""
    store = ProgressStore(tmp_path / "history.sqlite3")
    paper = BANK.paper("001")
    sid = actions.open_practice(store, paper=paper, now=T0).session.id
    q3, q4, q5 = (paper.question(n) for n in (3, 4, 5))
    actions.submit_practice_answer(store, paper=paper, session_id=sid, question=q3,
                                   response=wrong(q3), seconds=10, now=T0 + 1)
    study.reveal_answer(store, session_id=sid, question=q4, now=T0 + 2)
    study.recite(store, question=q5, knew=True, session_id=sid, now=T0 + 3)
    study.set_position(store, session_id=sid, question_id=q5.id, now=T0 + 4)
    study.save_note(store, question_id=q3.id, text="下溢 → 放大 loss", now=T0 + 5)
    study.save_note(store, question_id=q4.id, text="已删", now=T0 + 5)
    study.save_note(store, question_id=q4.id, text="", now=T0 + 6)
    study.set_favourite(store, question_id=q3.id, starred=True, now=T0 + 7)
    study.set_favourite(store, question_id=q4.id, starred=True, now=T0 + 7)
    study.set_favourite(store, question_id=q4.id, starred=False, now=T0 + 8)
    study.save_template(store, kind="practice_set", name="随机 10",
                        spec=PracticeSetSpec(order="random", count=10, seed=4), now=T0 + 9)
    mock = MockExamSpec(title="小测", duration_minutes=20, seed=2,
                        parts=(MockPart("single_choice", 3, 5),))
    template = study.save_template(store, kind="mock_exam", name="小测", spec=mock,
                                   now=T0 + 9).template
    exam = study.start_mock_exam(store, bank=BANK, template_id=template.id, now=T0 + 10)
    first = exam.paper.questions[0]
    actions.submit_exam(store, paper=exam.paper, session_id=exam.session.session.id,
                        responses={first.id: right(first)}, seconds={}, now=T0 + 11)
    run = study.start_practice_set(store, bank=BANK, spec=PracticeSetSpec(
        paper_ids=("000",), count=3), title="顺序 3", now=T0 + 12).run
    study.set_position(store, session_id=run.sessions["000"], question_id=run.questions[1].id,
                       now=T0 + 13)
    review_session = study.start_review(store, bank=BANK, now=T0 + 14)
    study.rate_card(store, bank=BANK, review_session_id=review_session.review_session_id,
                    question_id=review_session.card.question.id, rating=3, seconds=4,
                    now=T0 + 15)
    study.finish_review(store, review_session_id=review_session.review_session_id,
                        now=T0 + 16)
    study.put_back(store, question_id="000/7", now=T0 + 17)
    study.set_study_settings(store, new_per_day=7)
    yield store
    store.close()


def test_export_v2_matches_its_schema_and_round_trips_everything(history, tmp_path):
    data = json.loads(json.dumps(progress_io.export_json(history)))
    jsonschema.Draft202012Validator(schema(PROGRESS_EXPORT)).validate(data)
    assert data["version"] == 2
    assert {r["kind"] for r in data["reviews"]} == {"answer", "reveal", "recite", "review"}
    assert [n["text"] for n in data["notes"]] == ["下溢 → 放大 loss", ""]
    assert len(data["composed"]) == 1 and len(data["composed"][0]["questions"]) == 3
    assert [r["title"] for r in data["runs"]] == ["顺序 3"]

    path = tmp_path / "export.json"
    actions.export_progress(history, path=path)
    fresh = ProgressStore(tmp_path / "fresh.sqlite3")
    actions.import_progress(fresh, path=path, bank=BANK)
    again = json.loads(json.dumps(progress_io.export_json(fresh)))
    for key in ("notes", "favourites", "templates", "composed", "seen", "review_sessions",
                "book_returns", "settings"):
        assert again[key] == data[key], key
    strip = lambda rows: sorted(json.dumps(r, sort_keys=True) for r in rows)  # noqa: E731
    assert strip(again["reviews"]) == strip(data["reviews"])
    assert strip(again["sessions"]) == strip(data["sessions"])
    assert strip(again["runs"]) == strip(data["runs"])
    # what the screens read is back: marks, position, the mock exam, the run, the book
    sid = actions.open_practice(fresh, paper=BANK.paper("001")).session.id
    marks = study.session_marks(fresh, paper=BANK.paper("001"), session_id=sid)
    assert (marks.of("001/4").mark, marks.of("001/5").mark, marks.position) == \
        (Mark.REVEALED, Mark.RECITED, "001/5")
    [mock_session] = [s for s in fresh.sessions() if s.mode == "exam"]
    assert actions.session_report(fresh, bank=BANK, session_id=mock_session.id).report.score == 5
    [run] = study.unfinished_runs(fresh, bank=BANK)
    assert run.title == "顺序 3" and run.position == "000/2"
    assert {e.question.id for e in review.wrong_book(fresh, BANK)} == {"001/3", "000/7"}
    assert study.study_settings(fresh).new_per_day == 7
    # importing the same file again adds nothing
    second = actions.import_progress(fresh, path=path, bank=BANK).result
    assert not second.added.get("notes") and not second.added.get("reviews")
    assert not second.added.get("templates") and not second.added.get("runs")
    fresh.close()


def test_notes_and_stars_merge_newest_wins(history, tmp_path):
    path = tmp_path / "export.json"
    actions.export_progress(history, path=path)
    other = ProgressStore(tmp_path / "other.sqlite3")
    study.save_note(other, question_id="001/3", text="older note", now=T0)  # older
    study.save_note(other, question_id="001/4", text="newer here", now=T0 + 100)  # newer
    study.set_favourite(other, question_id="001/4", starred=True, now=T0 + 100)
    actions.import_progress(other, path=path, bank=BANK)
    notes = study.personal(other, question_ids=["001/3", "001/4"]).notes
    assert notes["001/3"].text == "下溢 → 放大 loss"  # the file's is newer
    assert notes["001/4"].text == "newer here"  # the file's deletion is older
    assert study.personal(other, question_ids=["001/3", "001/4"]).starred == {"001/3", "001/4"}
    other.close()


def test_a_version_1_export_still_imports(tmp_path):
    old = {"format": "examdesk-progress", "version": 1, "exported_at": T0,
           "sessions": [{"uid": "s1", "paper_id": "001", "mode": "practice",
                         "state": "active", "started_at": T0, "deadline": None,
                         "finished_at": None, "score": None, "max_score": None}],
           "answers": [], "drafts": [], "flags": [], "mastery": [], "settings": {},
           "reviews": [{"uid": "r1", "question_id": "001/3", "answer_uid": None,
                        "rating": 1, "missed": 1, "source": "auto", "reviewed_at": T0}]}
    jsonschema.Draft202012Validator(schema(PROGRESS_EXPORT)).validate(old)
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    store = ProgressStore(tmp_path / "p.sqlite3")
    actions.import_progress(store, path=path, bank=BANK)
    assert db_rows(store.path, "SELECT kind, missed FROM reviews") == [(ReviewKind.ANSWER, 1)]
    assert [e.question.id for e in review.wrong_book(store, BANK)] == ["001/3"]
    store.close()


def test_schema_refuses_a_version_2_export_without_notes(history):
    data = json.loads(json.dumps(progress_io.export_json(history)))
    del data["notes"]
    with pytest.raises(jsonschema.ValidationError, match="notes"):
        jsonschema.Draft202012Validator(schema(PROGRESS_EXPORT)).validate(data)


def test_v2_file_migrates_to_the_current_schema_and_keeps_its_history(tmp_path, monkeypatch):
    """A file written by schema 2 (before the study modes): its reviews become answer
    reviews, its sessions have no position or run, and every study feature works on it."""
    path = tmp_path / "old.sqlite3"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:2])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 2)
    old = ProgressStore(path)
    sid = old.execute("INSERT INTO sessions (paper_id, mode, state, started_at, uid) "
                      "VALUES ('001', 'practice', 'active', ?, 's1')", [T0]).lastrowid
    old.execute("INSERT INTO reviews (uid, question_id, answer_uid, rating, missed, source, "
                "reviewed_at) VALUES ('r1', '001/3', NULL, 1, 1, 'auto', ?)", [T0])
    old.close()
    monkeypatch.undo()
    new = ProgressStore(path)
    assert db_rows(path, "PRAGMA user_version") == [(store_module.SCHEMA_VERSION,)]
    assert db_rows(path, "SELECT kind, was_new, review_session_id FROM reviews") == \
        [("answer", 0, None)]
    session = new.session(sid)
    assert session.position is None and session.run_id is None
    assert actions.open_practice(new, paper=BANK.paper("001")).session.id == sid
    assert [e.question.id for e in review.wrong_book(new, BANK)] == ["001/3"]
    study.save_note(new, question_id="001/3", text="ok")
    study.set_position(new, session_id=sid, question_id="001/2")
    assert new.session(sid).position == "001/2"
    new.close()
