"""The JSON export other tools rely on (``question-db export --format json``)."""
from __future__ import annotations

from typing import Any

from .model import Bank, Paper, Question

__all__ = ["question_json", "paper_json", "bank_json"]


def _answer_json(q: Question, key: Any) -> Any:
    if q.type == "calculation":
        if not q.parts:
            return q.reference_answer
        parts = [{"value": p.value, "tolerance": p.tolerance, "unit": p.unit, "label": p.label,
                  "points": p.points} for p in q.parts]
        return parts[0] if len(parts) == 1 else parts
    if q.type == "multiple_choice" and isinstance(key, list):
        return sorted(key)
    return key


def question_json(q: Question) -> dict:
    return {
        "id": q.id,
        "number": q.number,
        "type": q.type,
        "points": q.points,
        "stem": q.stem,
        "options": dict(q.options) if q.options else None,
        "answer": _answer_json(q, q.answer),
        "seed_answer": q.seed_answer if q.type != "multiple_choice" or not q.seed_answer
        else sorted(q.seed_answer),
        "status": q.status,
        "errata": q.errata,
        "explanation": q.explanation,
        "topics": list(q.topics),
        "truncated": q.truncated,
        **({"truncated_at": q.truncated_at} if q.truncated else {}),
        **({"review": [flag.to_json() for flag in q.review]} if q.review else {}),
    }


def paper_json(p: Paper) -> dict:
    return {
        "id": p.id,
        "title": p.title,
        "source": p.source,
        "duration_minutes": p.duration_minutes,
        "total_points": p.total_points,
        "sections": [{"title": s.title, "type": s.type, "points": s.points} for s in p.sections],
        "questions": [question_json(q) for q in p.questions],
    }


def bank_json(bank: Bank) -> dict:
    return {"papers": [paper_json(p) for p in bank.papers]}
