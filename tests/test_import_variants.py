"""The importer on papers it was not built from: the bundled banks printed in other
conventions (``1、`` numbering, ``【答案】``, numbering restarting per section, keys printed
after all questions), then damaged the way the seeds are (Traditional characters, every
space and newline gone, ``-`` ``*`` ``#`` dropped). Questions, types, printed keys and
options must survive."""
from __future__ import annotations

import re
from functools import lru_cache

import opencc
import pytest

from conftest import BUNDLED
from question_db.bank import load_paper
from question_db.interchange.text_import import import_text

CN = "一二三四五六七八九十"


@lru_cache(maxsize=None)
def bank(pid: str):
    return load_paper(BUNDLED / pid, [])


def _key(q) -> str:
    key = q.seed_answer
    if isinstance(key, list):
        return ("" if q.type == "multiple_choice" else "；").join(key)
    return str(key)


def render(paper, style: str) -> str:
    out, appendix = [paper.title + "及答案"], []
    for i, s in enumerate(paper.sections):
        name = s.title.split("、", 1)[-1]
        out.append(f"{CN[i]}、{name}（{s.scoring}）")
        appendix.append(f"{CN[i]}、{name}")
        for q in paper.questions:
            if not s.contains(q.number):
                continue
            number = q.number - s.first + 1 if style == "restart" else q.number
            sep = "、" if style in ("cn", "restart") else "."
            out.append(f"{number}{sep}{q.stem}" + ("（ ）" if q.options else ""))
            out += [f"{k}{'、' if style == 'cn' else '.'}{v}" for k, v in (q.options or {}).items()]
            if style == "appendix":
                appendix.append(f"{number}.{_key(q)}")
            else:
                out.append(("【答案】" if style == "cn" else "答案：") + _key(q))
                if q.explanation and q.type != "programming":
                    out.append(("【解析】" if style == "cn" else "解析：") +
                               q.explanation.split("\n")[0])
    if style == "appendix":
        out += ["参考答案："] + appendix
    return "\n".join(out)


def damage(text: str) -> str:
    text = opencc.OpenCC("s2t").convert(text)
    return re.sub(r"\s+", "", text).replace("-", "").replace("*", "").replace("#", "")


def norm(text: str) -> str:
    return re.sub(r"[\s`-]", "", text)


@pytest.mark.parametrize("damaged", [False, True], ids=["clean", "damaged"])
@pytest.mark.parametrize("style", ["dot", "cn", "restart", "appendix"])
@pytest.mark.parametrize("pid", ["000", "001"])
def test_bank_printed_another_way_imports_back(pid, style, damaged):
    paper = bank(pid)
    text = render(paper, style)
    draft = import_text(damage(text) if damaged else text, paper_id="v").paper
    got = {q.number: q for q in draft.questions}
    assert sorted(got) == [q.number for q in paper.questions]
    assert [got[q.number].type for q in paper.questions] == [q.type for q in paper.questions]
    for q in paper.questions:
        d = got[q.number]
        if q.type in ("single_choice", "multiple_choice"):
            assert d.seed_answer == q.seed_answer, q.number
            for letter, option in q.options.items():  # hyphens are what the damage drops
                assert norm(d.options[letter]) == norm(option), (q.number, letter)
        elif q.type == "fill_blank":
            assert len(d.seed_answer) == len(q.seed_answer), q.number
    assert sum(q.points for q in draft.questions) == paper.total_points
