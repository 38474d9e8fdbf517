"""Verifying an imported draft (core rules, no Qt), re-opening a draft pack, save progress."""
from __future__ import annotations

import pytest

from conftest import BUNDLED
from question_db.bank import load_paper
from question_db.interchange.pack import DraftQuestion, draft_from_paper, write_pack
from question_db.interchange.text_import import import_text
from question_db.interchange.verify import printed_key_changed, unverify, verify

PAPER = ("一、单选题（每题2分）1.哪个对？A.甲B.乙答案：A解析：甲对。2.哪个错？A.甲B.乙答案：B"
         "二、填空题（每空2分）3.填________与________。答案：x，y解析：就是这样。"
         "三、编程题（共10分）4.写加法。答案：```pythondefadd(a,b):returna+b```")


def draft():
    return import_text(PAPER, paper_id="v").paper


def test_kept_key_is_ok_changed_key_needs_errata_and_is_corrected():
    p = draft()
    q1 = p.questions[0]
    verify(q1)
    assert q1.status == "ok" and q1.review == []
    q1b = draft().questions[0]
    q1b.answer = "B"
    assert printed_key_changed(q1b)
    with pytest.raises(ValueError, match="errata"):
        verify(q1b)
    q1b.errata = "原卷答案 A 错：乙才对。"
    verify(q1b)
    assert q1b.status == "corrected"


def test_errata_alone_makes_it_corrected_never_ok():
    q1 = draft().questions[0]
    q1.errata = "解析有误。"
    verify(q1)
    assert q1.status == "corrected"


def test_explanation_required_and_key_must_fit():
    q2 = draft().questions[1]  # no 解析 printed
    with pytest.raises(ValueError, match="explanation"):
        verify(q2)
    q2.explanation = "乙错。"
    q2.answer = "C"
    with pytest.raises(ValueError, match="not an option"):
        verify(q2)


def test_fill_key_spacing_is_not_a_change():
    q3 = draft().questions[2]
    q3.answer = [["x "], ["Y"]]
    assert not printed_key_changed(q3)
    q3.answer = [["x"]]
    with pytest.raises(ValueError, match="2 blank"):
        verify(q3)


def test_programming_reference_must_compile():
    q4 = draft().questions[3]
    q4.explanation = "返回两数之和。"
    assert q4.code["seed"] == "def add(a, b):\n    return a + b\n"
    verify(q4)
    assert q4.code["reference"] == q4.code["seed"] and q4.status == "ok"
    broken = DraftQuestion(number=9, type="programming", points=1, stem="s",
                           explanation="e", code={"seed": "def f(:\n"})
    with pytest.raises(ValueError, match="does not compile"):
        verify(broken)


def test_unverify_restores_flags():
    q = draft().questions[3]
    flags = list(q.review)
    q.explanation = "e"
    verify(q)
    unverify(q, flags)
    assert q.status == "draft" and q.review == flags


def test_verified_draft_saves_loads_and_reopens(tmp_path):
    p = draft()
    verify(p.questions[0])
    stages = []
    loaded = write_pack(p, tmp_path / "v", progress=lambda s, d, t: stages.append((s, d, t)))
    assert stages[0] == ("write", 0, 4) and stages[-1] == ("move", 4, 4)
    assert [q.status for q in loaded.questions] == ["ok", "draft", "draft", "draft"]
    again = draft_from_paper(loaded)
    assert again.questions[3].code == {"seed": "def add(a, b):\n    return a + b\n"}
    assert again.questions[2].answer == [["x"], ["y"]]
    write_pack(again, tmp_path / "v", replace=True)
    assert [q.status for q in load_paper(tmp_path / "v", []).questions] == \
        ["ok", "draft", "draft", "draft"]


def test_bundled_pack_round_trips_except_verify_snippets(tmp_path):
    paper = load_paper(BUNDLED / "001", [])
    with pytest.raises(ValueError, match="verify snippets"):
        draft_from_paper(paper)
