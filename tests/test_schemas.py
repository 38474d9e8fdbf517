"""The exports other tools read are checked against their published JSON Schemas
(question_db/schemas/), on real exports of the bundled bank and of a real progress file."""
from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from question_db import actions, progress_io
from question_db.bank import load_bank
from question_db.export import bank_json
from question_db.responses import (BlanksResponse, ChoiceResponse, CodeResponse,
                                   TextResponse)
from question_db.schemas import BANK_EXPORT, PROGRESS_EXPORT, schema
from question_db.store import ProgressStore

BANK = load_bank()


def validate(name: str, data: dict) -> None:
    jsonschema.Draft202012Validator(schema(name)).validate(data)


def test_schemas_are_valid_json_schemas():
    for name in (BANK_EXPORT, PROGRESS_EXPORT):
        jsonschema.Draft202012Validator.check_schema(schema(name))


def test_bank_export_of_the_bundled_papers_matches_its_schema():
    data = json.loads(json.dumps(bank_json(BANK), ensure_ascii=False))
    assert len(data["papers"]) >= 2
    validate(BANK_EXPORT, data)


@pytest.mark.parametrize("damage, path", [
    (lambda q: q.update(status="okay"), "status"),
    (lambda q: q.update(answer=["A"]) if q["type"] == "single_choice" else None, "answer"),
    (lambda q: q.pop("truncated"), "truncated"),
])
def test_bank_schema_rejects_a_damaged_export(damage, path):
    data = copy.deepcopy(bank_json(BANK))
    first = next(q for q in data["papers"][0]["questions"] if q["type"] == "single_choice")
    damage(first)
    with pytest.raises(jsonschema.ValidationError):
        validate(BANK_EXPORT, data)


@pytest.fixture
def history(tmp_path):
    """A progress file with practice answers of every kind, an exam, drafts, flags, a
    review override and mastery, written through the actions."""
    store = ProgressStore(tmp_path / "p.db")
    paper = BANK.paper("000")
    q1, fill, essay, code = (paper.question(n) for n in (1, 21, 31, 34))
    practice = actions.open_practice(store, paper=paper).session.id
    actions.submit_practice_answer(store, paper=paper, session_id=practice, question=q1,
                                   response=ChoiceResponse(("B",)), seconds=9)
    actions.save_draft(store, session_id=practice, question=fill,
                       response=BlanksResponse(("LoRA",)), seconds=3)
    actions.set_flag(store, session_id=practice, question_id=essay.id, flagged=True)
    exam = actions.start_exam(store, paper=paper, duration_s=3600).session.id
    actions.submit_exam(store, paper=paper, session_id=exam, seconds={},
                        responses={essay.id: TextResponse("低秩", (True, False, True)),
                                   code.id: CodeResponse("x = 1", ({"name": "shape",
                                                                    "passed": True,
                                                                    "required": True},))})
    actions.override_rating(store, question_id=q1.id, rating=3)
    actions.set_mastered(store, question_id=q1.id, mastered=True)
    yield store
    store.close()


def test_progress_export_matches_its_schema_and_imports_back(history, tmp_path):
    data = progress_io.export_json(history)
    validate(PROGRESS_EXPORT, json.loads(json.dumps(data)))
    kinds = {a["response"]["kind"] for a in data["answers"]}
    assert kinds == {"choice", "text", "code"}
    path = tmp_path / "export.json"
    actions.export_progress(history, path=path)
    fresh = ProgressStore(tmp_path / "fresh.db")
    imported = actions.import_progress(fresh, path=path, bank=BANK)
    assert imported.result.added["answers"] == len(data["answers"])
    assert imported.changes.everything
    fresh.close()


def test_progress_schema_rejects_a_response_that_lies_about_its_kind(history):
    data = json.loads(json.dumps(progress_io.export_json(history)))
    answer = next(a for a in data["answers"] if a["response"]["kind"] == "choice")
    answer["response"] = {"v": 1, "kind": "choice", "blanks": ["B"]}  # no "picked"
    with pytest.raises(jsonschema.ValidationError):
        validate(PROGRESS_EXPORT, data)


def test_a_failed_export_never_replaces_a_good_one(history, tmp_path, monkeypatch):
    """The CSV writer fails after its first row: the earlier export stays whole, and no
    partial file is left beside it."""
    import csv

    path = tmp_path / "progress.csv"
    actions.export_progress(history, path=path)
    good = path.read_bytes()
    real = csv.DictWriter.writerow
    rows = []

    def failing(self, row):
        rows.append(row)
        if len(rows) > 1:
            raise OSError(28, "No space left on device")
        return real(self, row)
    monkeypatch.setattr(csv.DictWriter, "writerow", failing)
    with pytest.raises(OSError):
        actions.export_progress(history, path=path)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".progress")) == []
