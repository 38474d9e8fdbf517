"""Loader validation: every problem names file, question and field; nothing else is lost."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from question_db.bank import load_bank

FIELD_LINE = re.compile(r"^(?P<file>[^:]+\.toml):(?P<question>[^:]+):(?P<field>[^:]+): .+")


def load(root: Path):
    return load_bank([root], include_bundled=False)


def problems_for(bank, fragment: str) -> list[str]:
    return [str(p) for p in bank.problems if fragment in str(p)]


def rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_bundled_bank_is_valid():
    bank = load_bank()
    assert [str(p) for p in bank.problems] == []
    assert {p.id: len(p.questions) for p in bank.papers} == {"000": 34, "001": 31, "drills": 12}


def test_every_problem_line_names_file_question_field(pack_copy):
    rewrite(pack_copy / "000" / "q03.toml", 'answer = "A"', 'answer = "Z"')
    bank = load(pack_copy)
    assert bank.problems
    for p in bank.problems:
        assert FIELD_LINE.match(str(p)), str(p)


def test_bad_syntax_is_reported_and_others_still_load(pack_copy):
    (pack_copy / "000" / "q05.toml").write_text("number = 5\ntype = [unclosed\n", "utf-8")
    bank = load(pack_copy)
    msgs = problems_for(bank, "q05.toml")
    assert any(":syntax: invalid TOML" in m for m in msgs), msgs
    paper = bank.paper("000")
    assert len(paper.questions) == 33 and 5 not in [q.number for q in paper.questions]
    assert len(bank.paper("001").questions) == 31  # the other paper is untouched


def test_missing_field(pack_copy):
    path = pack_copy / "001" / "q03.toml"
    text = path.read_text("utf-8")
    path.write_text(re.sub(r"(?ms)^explanation = '''.*?'''\n", "", text), "utf-8")
    msgs = problems_for(load(pack_copy), "q03.toml")
    assert any(m.endswith(":001/3:explanation: missing") for m in msgs), msgs


def test_unknown_type(pack_copy):
    rewrite(pack_copy / "001" / "q04.toml", 'type = "single_choice"', 'type = "essay"')
    msgs = problems_for(load(pack_copy), "q04.toml")
    assert any(":001/4:type: unknown question type 'essay'" in m for m in msgs), msgs


def test_answer_letter_not_among_options(pack_copy):
    rewrite(pack_copy / "001" / "q06.toml", 'answer = "A"', 'answer = "E"')
    msgs = problems_for(load(pack_copy), "q06.toml")
    assert any(":001/6:answer: 'E' is not among the options A, B, C, D" in m for m in msgs), msgs


def test_duplicate_id(pack_copy):
    src = pack_copy / "001" / "q07.toml"
    (pack_copy / "001" / "q07_copy.toml").write_text(src.read_text("utf-8"), "utf-8")
    msgs = problems_for(load(pack_copy), "q07_copy.toml")
    assert any(":001/7:number: duplicate id 001/7" in m for m in msgs), msgs


def test_missing_code_file(pack_copy):
    (pack_copy / "001" / "q29_reference.py").unlink()
    msgs = problems_for(load(pack_copy), "q29.toml")
    assert any(":001/29:code.reference: file not found" in m for m in msgs), msgs


def test_duplicate_paper_id_across_packs(pack_copy):
    bank = load_bank([pack_copy])  # bundled + a copy with the same ids
    assert [p.id for p in bank.papers] == ["000", "001", "drills"]
    assert sum("duplicate paper id" in str(p) for p in bank.problems) == 3


def test_broken_paper_file_does_not_stop_other_paper(pack_copy):
    (pack_copy / "000" / "paper.toml").write_text("id = \n", "utf-8")
    bank = load(pack_copy)
    assert [p.id for p in bank.papers] == ["001", "drills"]
    assert problems_for(bank, "000/paper.toml")


def test_fill_blank_count_must_match_stem(pack_copy):
    rewrite(pack_copy / "001" / "q21.toml", "________", "")
    msgs = problems_for(load(pack_copy), "q21.toml")
    assert any(":001/21:answer: 1 blank(s) in the key but 0 in the stem" in m for m in msgs), msgs


def test_section_points_must_add_up(pack_copy):
    rewrite(pack_copy / "001" / "q02.toml", "points = 2", "points = 3")
    msgs = problems_for(load(pack_copy), "001/paper.toml")
    assert any("questions add up to 21, section states 20" in m for m in msgs), msgs


def test_errata_required_when_key_changed(pack_copy):
    path = pack_copy / "001" / "q11.toml"
    text = path.read_text("utf-8")
    path.write_text(re.sub(r"(?ms)^errata = '''.*?'''\n", "", text), "utf-8")
    msgs = problems_for(load(pack_copy), "q11.toml")
    assert any(m.endswith(":001/11:errata: missing") for m in msgs), msgs


@pytest.mark.parametrize("paper_id,expected", [("000", 125), ("001", 150)])
def test_paper_totals_match_the_papers(paper_id, expected):
    paper = load_bank().paper(paper_id)
    assert paper.total_points == expected
    assert sum(s.points for s in paper.sections) == expected
