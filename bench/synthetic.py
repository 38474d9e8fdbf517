"""Synthetic progress history for benchmarks and scale tests (not product code)."""
from __future__ import annotations

import json
import random
import uuid

from question_db.model import Bank
from question_db.store import ProgressStore

VERDICTS = ("correct", "partial", "wrong")


def fill_answers(store: ProgressStore, bank: Bank, n_answers: int, *, per_session: int = 40,
                 seed: int = 0, start: float = 1.7e9) -> int:
    """Insert ``n_answers`` graded answers in sessions of ``per_session``; returns sessions."""
    rng = random.Random(seed)
    questions = [q for q in bank.all_questions() if q.scored]
    n_sessions = 0
    with store.db.atomic():
        t = start
        done = 0
        while done < n_answers:
            paper = rng.choice(bank.papers)
            sid = store.db["sessions"].insert({
                "uid": uuid.uuid4().hex, "paper_id": paper.id, "mode": "exam",
                "state": "submitted", "started_at": t, "deadline": t + 7200,
                "finished_at": t + 3600, "score": rng.uniform(0, paper.total_points),
                "max_score": paper.total_points}).last_pk
            n_sessions += 1
            rows = []
            for i in range(min(per_session, n_answers - done)):
                q = rng.choice(questions)
                verdict = rng.choice(VERDICTS)
                pts = {"correct": q.points, "partial": q.points / 2, "wrong": 0}[verdict]
                rows.append({
                    "uid": uuid.uuid4().hex, "session_id": sid, "question_id": q.id,
                    "response": '"A"', "grade": json.dumps({"points": pts, "max_points":
                                                           q.points, "verdict": verdict}),
                    "verdict": verdict, "points": pts, "max_points": q.points,
                    "seconds": rng.uniform(5, 300), "created_at": t + i})
            store.db["answers"].insert_all(rows, batch_size=500)
            store.db["reviews"].insert_all(({
                "uid": uuid.uuid4().hex, "question_id": r["question_id"],
                "answer_uid": r["uid"], "rating": 1 if r["verdict"] == "wrong" else 3,
                "missed": int(r["verdict"] != "correct"), "source": "auto",
                "reviewed_at": r["created_at"]} for r in rows), batch_size=500)
            done += len(rows)
            t += 86400 / 8
        for q in questions:  # one card per question, due spread over the next weeks
            store.db.execute("INSERT OR REPLACE INTO cards (question_id, card, due) "
                             "VALUES (?, '{}', ?)", [q.id, t + rng.uniform(-5, 20) * 86400])
    return n_sessions
