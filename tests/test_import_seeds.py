"""The importer's draft of each seed paper against the bank we built from it by hand.

The bank's text was repaired by a person (operators and lost characters restored, code put
in backticks), so options are compared after removing whitespace and Markdown backticks;
the known differences are listed below. The thresholds are the numbers measured when this
test was written (all at or above the issue's goals: every question found, >= 95% types,
>= 95% options, every printed key, every code block compiling or flagged, the truncated
question marked).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import BUNDLED, REPO
from question_db.bank import load_paper
from question_db.interchange.pack import write_pack
from question_db.interchange.text_import import read_text_paper

# copies of the two damaged extractions the bundled papers were repaired from
SEEDS = REPO / "tests" / "data" / "seeds"
CHOICE = ("single_choice", "multiple_choice")
# measured: (options equal of all, fill-in keys equal blank by blank, python blocks compiling)
MEASURED = {"000": (77, 80, 9, 2), "001": (59, 60, 8, 1)}
# where the bank's person restored what the extraction lost (the draft keeps the print)
KNOWN_OPTION_DIFFERENCES = {
    "000": {(11, "B"), (11, "C"),  # "llamagptq" -> "llama-gptq" (a made-up repo name)
            (16, "C")},  # a lone "pile" (not a call): flagged, not replaced
    "001": {(11, "C")},  # the bank wrote “左” as "左"
}


def _seed(pid: str) -> Path:
    (found,) = SEEDS.glob(f"{pid}_*.txt")
    return found


@lru_cache(maxsize=None)
def _draft(pid: str):
    """One import per seed for the whole module (drafts are not modified by the tests)."""
    return read_text_paper(_seed(pid)).paper


def norm(text: str) -> str:
    return re.sub(r"[\s`]", "", text)


@pytest.fixture(scope="module", params=["000", "001"])
def pair(request):
    pid = request.param
    return pid, load_paper(BUNDLED / pid, []), _draft(pid)


def test_every_question_found_in_order(pair):
    _, bank, draft = pair
    assert [q.number for q in draft.questions] == [q.number for q in bank.questions]


def test_every_type_matches(pair):
    _, bank, draft = pair
    got = {q.number: q.type for q in draft.questions}
    wrong = [(q.number, q.type, got[q.number]) for q in bank.questions
             if got[q.number] != q.type]
    assert not wrong  # measured 34/34 and 31/31


def test_options_match_after_normalising_whitespace(pair):
    pid, bank, draft = pair
    got = {q.number: q.options or {} for q in draft.questions}
    total = equal = 0
    differ = set()
    for q in bank.questions:
        for letter, text in (q.options or {}).items():
            total += 1
            if norm(got[q.number].get(letter, "")) == norm(text):
                equal += 1
            else:
                differ.add((q.number, letter))
    measured_equal, measured_total = MEASURED[pid][:2]
    assert total == measured_total
    assert equal >= measured_equal and equal / total >= 0.95
    assert differ <= KNOWN_OPTION_DIFFERENCES[pid]


def test_every_printed_key_is_kept(pair):
    pid, bank, draft = pair
    got = {q.number: q for q in draft.questions}
    fill_exact = 0
    for q in bank.questions:
        d = got[q.number]
        assert d.status == "draft"
        if q.type in CHOICE:
            assert d.seed_answer == q.seed_answer, q.number
            assert d.answer == q.seed_answer  # the printed key until a person verifies it
        elif q.type == "fill_blank":
            assert len(d.seed_answer) == len(q.seed_answer), q.number  # split per blank
            assert [v[0] for v in d.answer] == d.seed_answer
            fill_exact += all(norm(a) == norm(b) for a, b in zip(d.seed_answer, q.seed_answer))
        else:
            assert d.seed_answer.strip(), q.number  # the printed answer text is kept
    assert fill_exact >= MEASURED[pid][2]  # the rest lost ², − or ᾱ (flagged as lost math)


def test_every_code_block_compiles_or_is_flagged(pair):
    pid, _, draft = pair
    compiling = 0
    for q in draft.questions:
        blocks = re.findall(r"```python\n(.*?)```", q.seed_answer if isinstance(
            q.seed_answer, str) else "", re.S)
        for code in blocks:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", SyntaxWarning)  # "10000(": flagged
                    compile(code, "<block>", "exec")
                compiling += 1
            except SyntaxError:
                assert any(f.kind == "does_not_compile" for f in q.review), q.number
    assert compiling >= MEASURED[pid][3]


def test_only_the_last_question_is_truncated(pair):
    _, _, draft = pair
    *rest, last = draft.questions
    assert last.truncated and last.truncated_at
    assert any(f.kind == "truncated" for f in last.review)
    assert not any(q.truncated for q in rest)


def test_truncated_at_names_the_cut():
    draft = _draft("000")
    assert draft.questions[-1].truncated_at == "self.mlp = nn.Sequential("
    seed_py = draft.questions[-1].code["seed"]
    compile(seed_py.replace("3dim", "3 * dim"), "<seed>", "exec")  # only the flagged spot
    assert seed_py.rstrip().endswith("self.mlp = nn.Sequential(")


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(indent level, the line without whitespace, comments, '-' and '*'): the bank's
    person restored operators; the structure is what the importer must recover."""
    out = []
    for line in text.splitlines():
        code = "" if line.lstrip().startswith("#") else line.split("  #")[0]
        if code.strip() and not code.strip().startswith(('"""', "'''")):
            out.append(((len(code) - len(code.lstrip())) // 4, re.sub(r"[\s*-]", "", code)))
    return out


@pytest.mark.parametrize("pid,number,measured", [("000", 34, 31), ("001", 29, 47),
                                                 ("001", 30, 59)])
def test_code_is_reindented_like_the_hand_repair(pid, number, measured):
    draft = {q.number: q for q in _draft(pid).questions}
    ours = _code_lines(draft[number].code["seed"])
    bank = [line for line in _code_lines((BUNDLED / pid / f"q{number:02d}_seed.py")
                                         .read_text("utf-8"))
            if not line[1].startswith(("Paper", "Only", "bugs", "of``"))]
    remaining = list(ours)
    same = 0
    for line in bank:
        if line in remaining:
            remaining.remove(line)
            same += 1
    assert same >= measured and same / len(bank) >= 0.9


def test_the_issues_deleted_operators_are_flagged():
    q34 = _draft("000").questions[-1]
    flagged = " ".join(f.text for f in q34.review if f.kind == "deleted_operator")
    for spot in ("eps=1e6", "xtorch", "xself", "theta(", "reshape(xq.shape[:1]", "3dim",
                 "xq_freqs_cis"):
        assert spot in flagged, spot


def test_lost_math_is_flagged_where_it_was_lost():
    draft = {q.number: q for q in _draft("001").questions}
    assert any(f.kind == "lost_math" and f.field == "answer" for f in draft[27].review)
    assert any(f.kind == "lost_math" for f in draft[24].review)  # 1α?_t


def test_scoring_rules_from_the_headers():
    draft = _draft("001")
    sections = {s.title: s for s in draft.sections}
    assert sections["二、多选题"].multiple_choice_rule == "all_or_nothing"  # 多选少选均不得分
    assert sections["二、多选题"].scoring == "每题3分，共15分，多选少选均不得分"
    assert [q.points for q in draft.questions if q.number in (26, 27, 28)] == [8, 10, 12]
    assert sum(q.points for q in draft.questions) == 150
    assert "13" in sections["三、填空题"].note  # 每空2分 vs 13 blanks, as the bank found


def test_draft_packs_load_and_export(tmp_path):
    assert _draft("000").questions[0].source_text.startswith("1.在PyTorch2.0中")
    assert all("source_text" not in q.to_toml() for q in _draft("000").questions)
    for pid in ("000", "001"):
        write_pack(_draft(pid), tmp_path / pid)
        assert load_paper(tmp_path / pid, []) is not None
    proc = subprocess.run([sys.executable, "-m", "question_db", "--papers", str(tmp_path),
                           "export", "--format", "json"], capture_output=True, text=True,
                          check=True, cwd=REPO)
    papers = {p["id"]: p for p in json.loads(proc.stdout)["papers"]}
    for pid in ("000", "001"):
        paper = papers[_seed(pid).stem]
        assert paper["questions"][-1]["truncated"] is True
        assert all(q["status"] == "draft" for q in paper["questions"])
        assert any(q.get("review") for q in paper["questions"])
