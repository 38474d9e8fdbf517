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
from . import store_attempts as attempt_rows
from . import store_reviews as review_rows
from . import store_transfer as rows
from .atomic_file import atomic_write
from .model import Bank
from .store import ProgressStore
from .store_transfer import ANSWER_COLS, SESSION_COLS

__all__ = ["FORMAT", "VERSION", "ProgressFileError", "ImportResult", "export_json",
           "export_csv", "export_progress", "import_progress"]

FORMAT = "examdesk-progress"
VERSION = 1
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
    return {
        "format": FORMAT, "version": VERSION, "exported_at": time.time(),
        "sessions": [{**{c: r[c] for c in SESSION_COLS}, "open_book": bool(r["open_book"])}
                     for r in tables["sessions"]],
        "answers": tables["answers"], "drafts": tables["drafts"], "flags": tables["flags"],
        "reviews": tables["reviews"], "mastery": tables["mastery"],
        "settings": {r["key"]: r["value"] for r in tables["settings"]},
        "check_attempts": tables["check_attempts"],
    }


def export_csv(store: ProgressStore, path: Path) -> int:
    """One row per answer, with its session; returns the number of rows."""
    n = 0
    with atomic_write(path, newline="") as fh:
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
        with atomic_write(path) as fh:
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
    values["open_book"] = int(bool(s.get("open_book")))  # absent before schema 3: closed
    result.count("sessions", True)
    return rows.insert_session(store, values)


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
                rows.merge_draft(store, sid, d["question_id"], d.get("response"),
                                 d.get("seconds", 0), d.get("updated_at", 0))
        for f in data.get("flags", []):
            sid = ids.get(f.get("session_uid"))
            if sid is not None:
                store.set_flag(sid, f["question_id"], True)
        for i, r in enumerate(data.get("reviews", [])):
            where = f"{path}:reviews[{i}]"
            added = review_rows.add_review(
                store, _need(r, "question_id", where), answer_uid=r.get("answer_uid"),
                rating=_need(r, "rating", where), missed=bool(r.get("missed")),
                reviewed_at=_need(r, "reviewed_at", where), source=r.get("source") or "auto",
                uid=_need(r, "uid", where))
            result.count("reviews", added)
            if added:
                touched.add(r["question_id"])
        for m in data.get("mastery", []):
            review_rows.add_mastery(store, m["question_id"], m["mastered_at"])
            touched.add(m["question_id"])
        for key, value in (data.get("settings") or {}).items():
            rows.insert_setting_if_absent(store, key, value)
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
