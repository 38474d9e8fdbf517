"""Export progress to JSON or CSV and merge such an export back (no duplicates).

Rows are matched on their ``uid`` (sessions, answers, reviews), so importing the same
file twice, or a file from another machine that shares history, adds nothing twice.
JSON carries everything; CSV is one row per answer with its session (for
spreadsheets) and, on import, its reviews are derived again from the grades.
"""
from __future__ import annotations

import csv
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import review
from .model import Bank
from .store import ProgressStore

FORMAT = "examdesk-progress"
VERSION = 1
SESSION_COLS = ("uid", "paper_id", "mode", "state", "started_at", "deadline", "finished_at",
                "score", "max_score")
ANSWER_COLS = ("uid", "question_id", "response", "grade", "seconds", "created_at")
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
    db = store.db
    sessions = {r["id"]: r for r in db.query(f"SELECT id, {', '.join(SESSION_COLS)} "
                                              "FROM sessions ORDER BY id")}
    uid_of = {sid: r["uid"] for sid, r in sessions.items()}

    def rows(sql: str) -> list[dict]:
        return [dict(r) for r in db.query(sql)]

    answers = rows(f"SELECT session_id, {', '.join(ANSWER_COLS)} FROM answers ORDER BY id")
    for a in answers:
        a["session_uid"] = uid_of[a.pop("session_id")]
        a["response"] = json.loads(a["response"])
        a["grade"] = json.loads(a["grade"]) if a["grade"] else None
    drafts = rows("SELECT session_id, question_id, response, seconds, updated_at FROM drafts")
    flags = rows("SELECT session_id, question_id FROM flags")
    for r in drafts + flags:
        r["session_uid"] = uid_of[r.pop("session_id")]
    for d in drafts:
        d["response"] = json.loads(d["response"])
    return {
        "format": FORMAT, "version": VERSION, "exported_at": time.time(),
        "sessions": [{c: r[c] for c in SESSION_COLS} for r in sessions.values()],
        "answers": answers, "drafts": drafts, "flags": flags,
        "reviews": rows("SELECT uid, question_id, answer_uid, rating, missed, source, "
                        "reviewed_at FROM reviews ORDER BY id"),
        "mastery": rows("SELECT question_id, mastered_at FROM mastery"),
        "settings": {r["key"]: r["value"] for r in db.query("SELECT key, value FROM settings")},
    }


def export_csv(store: ProgressStore, path: Path) -> int:
    """One row per answer, with its session; returns the number of rows."""
    sql = (f"SELECT {', '.join('s.' + c + ' AS session_' + c for c in SESSION_COLS)}, "
           f"{', '.join('a.' + c + ' AS answer_' + c for c in ANSWER_COLS)}, "
           "a.verdict, a.points, a.max_points FROM answers a JOIN sessions s "
           "ON s.id = a.session_id ORDER BY a.id")
    n = 0
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, CSV_COLS)
        writer.writeheader()
        for row in store.query(sql):
            writer.writerow(row)
            n += 1
    return n


def export_progress(store: ProgressStore, path: Path) -> None:
    """By extension: ``.csv`` or JSON."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        export_csv(store, path)
    else:
        path.write_text(json.dumps(export_json(store), ensure_ascii=False, indent=1), "utf-8")


# --- import -----------------------------------------------------------------------------

def _need(row: dict, key: str, where: str) -> Any:
    if key not in row or row[key] in (None, ""):
        raise ProgressFileError(f"{where}: missing field {key!r}")
    return row[key]


def _merge_session(store: ProgressStore, s: dict, where: str, result: ImportResult) -> int:
    uid = _need(s, "uid", where)
    row = store.execute("SELECT id FROM sessions WHERE uid = ?", [uid]).fetchone()
    if row:
        result.count("sessions", False)
        return row[0]
    values = {c: s.get(c) for c in SESSION_COLS}
    for c in ("paper_id", "mode", "state", "started_at"):
        _need(values, c, where)
    result.count("sessions", True)
    return store.db["sessions"].insert(values).last_pk


def _merge_answer(store: ProgressStore, a: dict, session_id: int, where: str,
                  result: ImportResult) -> bool:
    uid = _need(a, "uid", where)
    if store.execute("SELECT 1 FROM answers WHERE uid = ?", [uid]).fetchone():
        result.count("answers", False)
        return False
    grade = a.get("grade")
    store.db["answers"].insert({
        "uid": uid, "session_id": session_id, "question_id": _need(a, "question_id", where),
        "response": json.dumps(a.get("response"), ensure_ascii=False),
        "grade": json.dumps(grade, ensure_ascii=False) if grade else None,
        "verdict": grade.get("verdict") if grade else None,
        "points": grade.get("points") if grade else None,
        "max_points": grade.get("max_points") if grade else None,
        "seconds": float(a.get("seconds") or 0), "created_at": float(_need(a, "created_at",
                                                                           where))})
    result.count("answers", True)
    return True


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
            sid = ids.get(_need(a, "session_uid", where))
            if sid is None:
                raise ProgressFileError(f"{where}: session_uid {a['session_uid']!r} is not in "
                                        "the file's sessions")
            added = _merge_answer(store, a, sid, where, result)
            if added and data.get("derive_reviews") and a.get("grade"):
                touched |= _derive_review(store, bank, a)
        for d in data.get("drafts", []):
            sid = ids.get(d.get("session_uid"))
            if sid is not None:
                store.execute(
                    "INSERT INTO drafts (session_id, question_id, response, seconds, updated_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, question_id) DO UPDATE SET "
                    "response = excluded.response, seconds = excluded.seconds, "
                    "updated_at = excluded.updated_at WHERE excluded.updated_at > updated_at",
                    [sid, d["question_id"], json.dumps(d.get("response"), ensure_ascii=False),
                     d.get("seconds", 0), d.get("updated_at", 0)])
        for f in data.get("flags", []):
            sid = ids.get(f.get("session_uid"))
            if sid is not None:
                store.execute("INSERT OR IGNORE INTO flags (session_id, question_id) "
                                 "VALUES (?, ?)", [sid, f["question_id"]])
        for i, r in enumerate(data.get("reviews", [])):
            where = f"{path}:reviews[{i}]"
            if store.execute("SELECT 1 FROM reviews WHERE uid = ?",
                                [_need(r, "uid", where)]).fetchone():
                result.count("reviews", False)
                continue
            store.db["reviews"].insert({k: r.get(k) for k in (
                "uid", "question_id", "answer_uid", "rating", "missed", "source",
                "reviewed_at")})
            result.count("reviews", True)
            touched.add(r["question_id"])
        for m in data.get("mastery", []):
            store.execute("INSERT OR IGNORE INTO mastery (question_id, mastered_at) "
                             "VALUES (?, ?)", [m["question_id"], m["mastered_at"]])
            touched.add(m["question_id"])
        for key, value in (data.get("settings") or {}).items():
            store.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)",
                             [key, value])
        for qid in sorted(touched):
            review._replay(store, qid)
    return result


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
    store.db["reviews"].insert({
        "uid": f"csv-{a['uid']}", "question_id": q.id, "answer_uid": a["uid"],
        "rating": rating, "missed": int(review.is_miss(q, a["grade"])), "source": "auto",
        "reviewed_at": float(a["created_at"])}, ignore=True)
    return {q.id}
