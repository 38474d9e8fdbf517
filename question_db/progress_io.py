"""Export progress to JSON or CSV and merge such an export back (no duplicates).

Rows are matched on their ``uid`` (sessions, answers, reviews, runs, templates, review
sessions), so importing the same file twice, or a file from another machine that shares
history, adds nothing twice. Notes and favourites are one per question: the newer one wins
(a cleared note or an unstarred question too, so an old file cannot bring them back).
JSON carries everything; CSV is one row per answer with its session (for
spreadsheets) and, on import, its reviews are derived again from the grades.

Version 2 (schema v3) adds: session positions, reviews' kind / review session / was-new /
seconds, notes, favourites, templates, practice runs, composed mock exams, questions seen
without an answer, review sessions and wrong-answer book put-backs. Version 1 files still
import.
"""
from __future__ import annotations

import csv
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import review
from . import store_attempts as attempt_rows
from . import store_reviews as review_rows
from . import store_study as study_rows
from . import store_transfer as rows
from .atomic_file import atomic_write
from .model import Bank
from .store import ProgressStore
from .store_transfer import ANSWER_COLS, SESSION_COLS

__all__ = ["FORMAT", "VERSION", "ProgressFileError", "ImportResult", "export_json",
           "export_csv", "export_progress", "import_progress"]

FORMAT = "examdesk-progress"
VERSION = 2
CSV_COLS = tuple(f"session_{c}" for c in SESSION_COLS) + tuple(
    f"answer_{c}" for c in ANSWER_COLS) + ("verdict", "points", "max_points")


class ProgressFileError(ValueError):
    """An import file that cannot be read; the message names the file and the field."""


@dataclass
class ImportResult:
    added: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)

    def count(self, table: str, added: bool) -> None:
        bucket = self.added if added else self.skipped
        bucket[table] = bucket.get(table, 0) + 1


def export_json(store: ProgressStore) -> dict:
    tables = rows.export_tables(store)
    uid_of = {r["id"]: r["uid"] for r in tables["sessions"]}
    for a in tables["answers"]:
        a["response"] = json.loads(a["response"])
        a["grade"] = json.loads(a["grade"]) if a["grade"] else None
    for r in tables["answers"] + tables["drafts"] + tables["flags"]:
        r["session_uid"] = uid_of[r.pop("session_id")]
    for d in tables["drafts"]:
        d["response"] = json.loads(d["response"])
    for c in tables["check_attempts"]:
        c["session_uid"] = uid_of[c.pop("session_id")]
        c["checks"] = json.loads(c["checks"])
    positions = {r["id"]: r for r in tables["positions"]}
    sessions = []
    for r in tables["sessions"]:
        row = {c: r[c] for c in SESSION_COLS}
        row.update(open_book=bool(r["open_book"]), include_drafts=bool(r["include_drafts"]))
        where = positions.get(r["id"])
        row.update(position=where["position"] if where else None,
                   position_at=where["position_at"] if where else None)
        sessions.append(row)
    for r in tables["reviews"]:
        r["was_new"] = bool(r["was_new"])
    run_questions: dict[int, list[str]] = {}
    for r in tables["run_questions"]:
        run_questions.setdefault(r["run_id"], []).append(r["question_id"])
    run_sessions: dict[int, list[str]] = {}
    for r in tables["run_sessions"]:
        run_sessions.setdefault(r["run_id"], []).append(uid_of[r["id"]])
    composed_questions: dict[int, list[dict]] = {}
    for r in tables["composed_questions"]:
        composed_questions.setdefault(r.pop("session_id"), []).append(r)
    return {
        "format": FORMAT, "version": VERSION, "exported_at": time.time(),
        "sessions": sessions,
        "answers": tables["answers"], "drafts": tables["drafts"], "flags": tables["flags"],
        "reviews": tables["reviews"], "mastery": tables["mastery"],
        "settings": {r["key"]: r["value"] for r in tables["settings"]},
        "notes": tables["notes"],
        "favourites": [{**r, "starred": bool(r["starred"])} for r in tables["favourites"]],
        "templates": [{**r, "spec": json.loads(r["spec"])} for r in tables["templates"]],
        "runs": [{"uid": r["uid"], "title": r["title"],
                  "spec": json.loads(r["spec"]) if r["spec"] else None,
                  "created_at": r["created_at"], "question_ids": run_questions.get(r["id"], []),
                  "session_uids": run_sessions.get(r["id"], [])} for r in tables["runs"]],
        "composed": [{"session_uid": uid_of[r["session_id"]],
                      "template_uid": r["template_uid"], "title": r["title"],
                      "spec": json.loads(r["spec"]),
                      "questions": composed_questions.get(r["session_id"], [])}
                     for r in tables["composed"]],
        "seen": [{"session_uid": uid_of[r.pop("session_id")], **r} for r in tables["seen"]],
        "review_sessions": tables["review_sessions"],
        "book_returns": tables["book_returns"],
        "check_attempts": tables["check_attempts"],
    }


def export_csv(store: ProgressStore, path: Path) -> int:
    """One row per answer, with its session; returns the number of rows."""
    n = 0
    with atomic_write(path, newline="", private=True) as fh:  # personal data: 0600
        writer = csv.DictWriter(fh, CSV_COLS)
        writer.writeheader()
        for row in rows.answers_with_sessions(store):
            writer.writerow(row)
            n += 1
    return n


def export_progress(store: ProgressStore, path: Path) -> None:
    """By extension: ``.csv`` or JSON; written atomically (a failed export never replaces a
    good one)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        export_csv(store, path)
    else:
        text = json.dumps(export_json(store), ensure_ascii=False, indent=1)
        with atomic_write(path, private=True) as fh:  # personal data: 0600
            fh.write(text)


# --- import -----------------------------------------------------------------------------

def _need(row: dict, key: str, where: str) -> Any:
    if key not in row or row[key] in (None, ""):
        raise ProgressFileError(f"{where}: missing field {key!r}")
    return row[key]


def _merge_session(store: ProgressStore, s: dict, where: str, result: ImportResult) -> int:
    uid = _need(s, "uid", where)
    known = rows.session_id_by_uid(store, uid)
    if known is not None:
        result.count("sessions", False)
        return known
    values = {c: s.get(c) for c in SESSION_COLS}
    for c in ("paper_id", "mode", "state", "started_at"):
        _need(values, c, where)
    values["open_book"] = int(bool(s.get("open_book")))  # absent in older files: closed book
    values["include_drafts"] = int(bool(s.get("include_drafts")))  # absent: not scored
    result.count("sessions", True)
    session_id = rows.insert_session(store, values)
    if s.get("position"):
        rows.set_session_position(store, session_id, s["position"], s.get("position_at"))
    return session_id


def _session_of(sessions: dict[str, int], row: dict, where: str) -> int:
    """The id here of the session a row of the file belongs to (by ``session_uid``)."""
    session_id = sessions.get(_need(row, "session_uid", where))
    if session_id is None:
        raise ProgressFileError(f"{where}: session_uid {row['session_uid']!r} is not in the "
                                "file's sessions")
    return session_id


def _merge_answer(store: ProgressStore, a: dict, session_id: int, where: str,
                  result: ImportResult) -> bool:
    for key in ("uid", "question_id", "created_at"):
        _need(a, key, where)
    added = rows.insert_answer(store, session_id, a)
    result.count("answers", added)
    return added


def _load(path: Path) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProgressFileError(f"{path}: cannot read: {exc}") from exc
    if Path(path).suffix.lower() == ".csv":
        return _from_csv(path, text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProgressFileError(f"{path}: not JSON: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProgressFileError(f"{path}: not an examdesk progress export (field 'format')")
    if data.get("version", 0) > VERSION:
        raise ProgressFileError(f"{path}: written by a newer examdesk (field 'version' = "
                                f"{data['version']}); update examdesk to import it")
    return data


def _from_csv(path: Path, text: str) -> dict:
    reader = csv.DictReader(text.splitlines())
    missing = set(CSV_COLS[:len(SESSION_COLS) + len(ANSWER_COLS)]) - set(reader.fieldnames or ())
    if missing:
        raise ProgressFileError(f"{path}: not an examdesk CSV export: missing column(s) "
                                f"{', '.join(sorted(missing))}")
    sessions: dict[str, dict] = {}
    answers = []
    for line, row in enumerate(reader, start=2):
        where = f"{path}:{line}"
        s = {c: row[f"session_{c}"] or None for c in SESSION_COLS}
        sessions.setdefault(_need(s, "uid", where), s)
        a = {c: row[f"answer_{c}"] or None for c in ANSWER_COLS}
        try:
            a["response"] = json.loads(a["response"]) if a["response"] else None
            a["grade"] = json.loads(a["grade"]) if a["grade"] else None
        except json.JSONDecodeError as exc:
            raise ProgressFileError(f"{where}: field 'answer_response'/'answer_grade' is not "
                                    f"JSON: {exc}") from exc
        a["session_uid"] = s["uid"]
        answers.append(a)
    for s in sessions.values():
        for c in ("started_at", "deadline", "finished_at", "score", "max_score"):
            s[c] = float(s[c]) if s[c] is not None else None
    return {"format": FORMAT, "version": VERSION, "sessions": list(sessions.values()),
            "answers": answers, "derive_reviews": True}


def import_progress(store: ProgressStore, path: Path, bank: Bank) -> ImportResult:
    """Merge an export into ``store`` in one transaction; a bad file changes nothing."""
    data = _load(Path(path))
    result = ImportResult()
    touched: set[str] = set()
    with store.write():
        ids = {}
        for i, s in enumerate(data.get("sessions", [])):
            ids[s.get("uid")] = _merge_session(store, s, f"{path}:sessions[{i}]", result)
        for i, a in enumerate(data.get("answers", [])):
            where = f"{path}:answers[{i}]"
            sid = _session_of(ids, a, where)
            added = _merge_answer(store, a, sid, where, result)
            if added and data.get("derive_reviews") and a.get("grade"):
                touched |= _derive_review(store, bank, a)
        for d in data.get("drafts", []):
            sid = ids.get(d.get("session_uid"))
            if sid is not None:
                rows.merge_draft(store, sid, d["question_id"], d.get("response"),
                                 d.get("seconds", 0), d.get("updated_at", 0))
        for f in data.get("flags", []):
            sid = ids.get(f.get("session_uid"))
            if sid is not None:
                store.set_flag(sid, f["question_id"], True)
        review_sessions = _merge_review_sessions(store, path, data, result)
        for i, r in enumerate(data.get("reviews", [])):
            where = f"{path}:reviews[{i}]"
            kind = r.get("kind") or "answer"
            added = review_rows.add_review(
                store, _need(r, "question_id", where), answer_uid=r.get("answer_uid"),
                rating=_need(r, "rating", where),
                missed=bool(r.get("missed")) and kind == "answer",
                reviewed_at=_need(r, "reviewed_at", where), source=r.get("source") or "auto",
                uid=_need(r, "uid", where), kind=kind,
                review_session_id=review_sessions.get(r.get("review_session_uid")),
                was_new=bool(r.get("was_new")), seconds=r.get("seconds"))
            result.count("reviews", added)
            if added:
                touched.add(r["question_id"])
        for m in data.get("mastery", []):
            review_rows.add_mastery(store, m["question_id"], m["mastered_at"])
            touched.add(m["question_id"])
        for key, value in (data.get("settings") or {}).items():
            rows.insert_setting_if_absent(store, key, value)
        _merge_study(store, path, data, ids, result)
        for i, c in enumerate(data.get("check_attempts") or []):
            where = f"{path}:check_attempts[{i}]"
            sid = ids.get(_need(c, "session_uid", where))
            if sid is None:
                raise ProgressFileError(f"{where}: session_uid {c['session_uid']!r} is not "
                                        "in the file's sessions")
            values = {k: _need(c, k, where) for k in ("uid", "question_id", "created_at")}
            values.update(code=str(c.get("code") or ""), error=c.get("error"),
                          checks=json.dumps(list(c.get("checks") or []), ensure_ascii=False),
                          passed=int(c.get("passed") or 0), required=int(c.get("required") or 0))
            result.count("check_attempts",
                         attempt_rows.insert_attempt(store, sid, values) is not None)
        for qid in sorted(touched):
            review.replay(store, qid)
    return result


def _merge_review_sessions(store: ProgressStore, path: Path, data: dict,
                           result: ImportResult) -> dict[str, int]:
    ids = {}
    for i, r in enumerate(data.get("review_sessions", [])):
        uid = _need(r, "uid", f"{path}:review_sessions[{i}]")
        known = study_rows.review_session_by_uid(store, uid)
        result.count("review_sessions", known is None)
        if known is None:
            known = study_rows.start_review_session(
                store, _need(r, "started_at", f"{path}:review_sessions[{i}]"), uid=uid)
            if r.get("finished_at") is not None:
                study_rows.finish_review_session(store, known, r["finished_at"])
        ids[uid] = known
    return ids


def _merge_study(store: ProgressStore, path: Path, data: dict, sessions: dict[str, int],
                 result: ImportResult) -> None:
    """Notes, favourites, templates, runs, composed exams, seen questions, put-backs."""
    for i, n in enumerate(data.get("notes", [])):
        where = f"{path}:notes[{i}]"
        for key in ("uid", "question_id", "created_at", "updated_at"):
            _need(n, key, where)
        if not isinstance(n.get("text"), str):
            raise ProgressFileError(f"{where}: field 'text' must be a string")
        result.count("notes", study_rows.merge_note(store, n))
    for i, f in enumerate(data.get("favourites", [])):
        where = f"{path}:favourites[{i}]"
        result.count("favourites", study_rows.set_favourite(
            store, _need(f, "question_id", where), bool(f.get("starred")),
            _need(f, "updated_at", where), merge=True))
    for i, t in enumerate(data.get("templates", [])):
        where = f"{path}:templates[{i}]"
        for key in ("uid", "kind", "name", "spec", "created_at", "updated_at"):
            _need(t, key, where)
        result.count("templates", study_rows.merge_template(store, t))
    for i, r in enumerate(data.get("runs", [])):
        where = f"{path}:runs[{i}]"
        run_id = study_rows.run_by_uid(store, _need(r, "uid", where))
        result.count("runs", run_id is None)
        if run_id is None:
            run_id = study_rows.create_run(
                store, title=r.get("title") or "", spec=r.get("spec"),
                created_at=_need(r, "created_at", where),
                question_ids=list(r.get("question_ids") or []), uid=r["uid"])
        for session_uid in r.get("session_uids") or []:
            if session_uid in sessions:
                rows.attach_session_to_run(store, sessions[session_uid], run_id)
    for i, c in enumerate(data.get("composed", [])):
        where = f"{path}:composed[{i}]"
        session_id = _session_of(sessions, c, where)
        if study_rows.composed_row(store, session_id) is not None:
            result.count("composed", False)
            continue
        questions = [study_rows.ComposedQuestionRow(
            int(_need(q, "position", f"{where}.questions[{j}]")),
            _need(q, "question_id", f"{where}.questions[{j}]"),
            _need(q, "type", f"{where}.questions[{j}]"),
            float(q.get("points") or 0), q.get("section") or "")
            for j, q in enumerate(c.get("questions") or [])]
        study_rows.save_composed(store, session_id, template_uid=c.get("template_uid"),
                                 title=_need(c, "title", where), spec=_need(c, "spec", where),
                                 questions=questions)
        result.count("composed", True)
    for s in data.get("seen", []):
        session_id = sessions.get(s.get("session_uid"))
        if session_id is not None:
            result.count("seen", study_rows.add_seen(
                store, session_id, s["question_id"], how=s["how"],
                review_uid=s["review_uid"], at=s["seen_at"]))
    for b in data.get("book_returns", []):
        study_rows.put_back(store, b["question_id"], b["returned_at"])


def _derive_review(store: ProgressStore, bank: Bank, a: dict) -> set[str]:
    """CSV imports carry grades but no reviews: rate them as the app would have."""
    try:
        q = bank.question(a["question_id"])
        paper = bank.paper(q.paper_id)
    except KeyError:
        return set()
    rating = review.rating_for(q, a["grade"], float(a.get("seconds") or 0),
                               review.time_budget_s(paper, q))
    if rating is None:
        return set()
    review_rows.add_review(store, q.id, answer_uid=a["uid"], rating=rating,
                           missed=review.is_miss(q, a["grade"]),
                           reviewed_at=float(a["created_at"]), uid=f"csv-{a['uid']}")
    return {q.id}
