"""Search: FTS5 trigram over the bank, the substring scan for 1-2 character terms, notes,
filters, snippets, and the index following edited packs (no Qt)."""
from __future__ import annotations

import html
import shutil
import sqlite3

import pytest

from question_db import search as search_mod
from question_db import study
from question_db.bank import load_bank
from question_db.model import Bank
from question_db.store import ProgressStore
from question_db.store_search import SearchIndex

from study_helpers import synthetic_bank

BUNDLED = load_bank()


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Bank:
    return synthetic_bank(tmp_path_factory.mktemp("packs"))  # 200 questions


@pytest.fixture(scope="module")
def bank(generated) -> Bank:
    return Bank(papers=[*BUNDLED.papers, *generated.papers])


@pytest.fixture(scope="module")
def index(tmp_path_factory, bank):
    idx = SearchIndex(tmp_path_factory.mktemp("cache") / "search.sqlite3")
    search_mod.refresh_index(idx, bank)
    yield idx
    idx.close()


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


def run(store, index, bank, query, **kw):
    return study.search(store, index=index, bank=bank, query=query, limit=1000, **kw)


def brute_force(bank: Bank, *terms: str) -> set[str]:
    """Every question whose indexed text holds every term: what search must find."""
    found = set()
    for paper in bank.papers:
        for q in paper.questions:
            text = search_mod.document(q)["haystack"]
            if all(t.lower() in text for t in terms):
                found.add(q.id)
    return found


@pytest.mark.parametrize("terms", [
    ("梯度检查点",), ("显存",), ("flash_attn_func",), ("register_buffer",),
    ("KV", "Cache"), ("torch.compile",), ("损失缩放", "数值稳定性"), ("分",), ("ZeRO",),
])
def test_search_finds_exactly_what_a_substring_scan_finds(store, index, bank, terms):
    expected = brute_force(bank, *terms)
    assert expected, f"{terms}: the test bank should hold these"
    results = run(store, index, bank, " ".join(terms))
    assert {h.question_id for h in results.hits} == expected
    assert results.total == len(expected)
    assert results.substring_scan == all(len(t) < 3 for t in terms)


def test_chinese_substrings_and_code_identifiers_in_the_bundled_papers(store, index, bank):
    hits = {h.question_id: h for h in run(store, index, bank, "register_buffer").hits}
    assert "001/29" in hits  # in its errata and its reference code
    code_only = run(store, index, bank, "flash_attn_func", paper_ids=["000"]).hits
    assert "000/34" in {h.question_id for h in code_only}
    short = run(store, index, bank, "显存", paper_ids=["001"])
    assert short.substring_scan and "001/22" in {h.question_id for h in short.hits}
    hit = next(h for h in short.hits if h.question_id == "001/22")
    assert hit.field == "stem"  # a stem match ranks first and is shown
    start, end = hit.snippet.spans[0]
    assert hit.snippet.text[start:end] == "显存"
    assert hit.snippet.marked("<b>", "</b>").count("<b>显存</b>") >= 1


def test_snippet_highlights_every_term_in_its_field(store, index, bank):
    [hit] = [h for h in run(store, index, bank, '"loss scaling"').hits]
    assert hit.question_id == "001/3" and hit.field == "stem"
    marked = hit.snippet.marked("[", "]")
    assert "[Loss Scaling]" in marked  # case-insensitive match, original case shown
    code = next(h for h in run(store, index, bank, "register_buffer persistent").hits
                if h.question_id == "001/29")
    assert "[register_buffer]" in code.snippet.marked("[", "]")
    assert "[persistent]" in code.snippet.marked("[", "]")
    assert search_mod.Snippet("a<b> x", ((5, 6),)).marked("<i>", "</i>", html.escape) == \
        "a&lt;b&gt; <i>x</i>"


def test_filters_by_paper_type_status_and_topic(store, index, bank):
    base = {h.question_id for h in run(store, index, bank, "显存占用").hits}
    assert len({qid.split("/")[0] for qid in base}) > 2
    only = run(store, index, bank, "显存占用", paper_ids=["syn002"]).hits
    assert {h.question_id for h in only} == {q for q in base if q.startswith("syn002/")}
    typed = run(store, index, bank, "显存占用", types=["short_answer"]).hits
    assert typed and all(bank.question(h.question_id).type == "short_answer" for h in typed)
    drafts = run(store, index, bank, "显存占用", statuses=["draft"]).hits
    assert drafts and all(bank.question(h.question_id).draft for h in drafts)
    assert {h.paper_id for h in drafts} <= {"syn001", "syn003"}
    topic = run(store, index, bank, "显存占用", topics=["推理优化"]).hits
    assert topic and all("推理优化" in bank.question(h.question_id).topics for h in topic)
    two_chars = run(store, index, bank, "显存", types=["fill_blank"], paper_ids=["001"]).hits
    assert {h.question_id for h in two_chars} == {
        q for q in brute_force(bank, "显存") if q.startswith("001/")
        and bank.question(q).type == "fill_blank"}


def test_notes_are_searched_and_come_first(store, index, bank):
    study.save_note(store, question_id="001/3", text="我的笔记：这题和梯度下溢有关，别忘了 GradScaler")
    study.save_note(store, question_id="000/1", text="显存：看 ZeRO-3 的分片")
    hits = run(store, index, bank, "GradScaler").hits
    assert hits[0].question_id == "001/3" and hits[0].field == "note" and hits[0].in_note
    assert "[GradScaler]" in hits[0].snippet.marked("[", "]")
    assert "001/3" not in {h.question_id for h in hits[1:]}  # once
    short = run(store, index, bank, "显存", paper_ids=["000"]).hits
    assert short[0].question_id == "000/1" and short[0].field == "note"
    without = run(store, index, bank, "梯度下溢", include_notes=False).hits
    assert [(h.question_id, h.field, h.in_note) for h in without] == [
        ("001/3", "options", False)]  # found in the bank text, not the note
    assert "001/3" not in {h.question_id for h in run(store, index, bank, "GradScaler",
                                                      paper_ids=["000"]).hits}
    study.save_note(store, question_id="001/3", text="")  # deleted: no longer found
    assert "001/3" not in {h.question_id for h in run(store, index, bank, "我的笔记").hits}


def test_empty_and_odd_queries(store, index, bank):
    assert run(store, index, bank, "   ").hits == ()
    assert run(store, index, bank, 'say "hi').terms == ("say", '"hi')
    assert run(store, index, bank, 'a"b"c') is not None  # quotes inside a term are escaped
    assert run(store, index, bank, "OR AND NOT").hits is not None  # FTS5 operators are text
    assert run(store, index, bank, "不存在的术语组合xyz").hits == ()


def test_an_edited_pack_is_found_on_the_next_search(store, tmp_path):
    packs = tmp_path / "packs"
    shutil.copytree(BUNDLED.papers[1].folder, packs / "001")
    index = SearchIndex(tmp_path / "cache" / "search.sqlite3")
    first = load_bank([packs], include_bundled=False)
    assert run(store, index, first, "梯度检查点").hits == ()
    done = search_mod.refresh_index(index, first)
    assert not done.checked and done.questions == len(first.papers[0].questions)
    path = packs / "001" / "q03.toml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "Loss Scaling 的主要目的是", "Loss Scaling（与梯度检查点无关）的主要目的是"),
        encoding="utf-8")
    edited = load_bank([packs], include_bundled=False)  # the app reloads changed packs
    hits = run(store, index, edited, "梯度检查点").hits
    assert [h.question_id for h in hits] == ["001/3"]
    refreshed = search_mod.refresh_index(index, edited, force=True)
    assert refreshed.papers_written == ()  # already current: nothing rewritten
    shutil.rmtree(packs / "001")
    gone = load_bank([packs], include_bundled=False)
    assert search_mod.refresh_index(index, gone).papers_removed == ("001",)
    assert run(store, index, gone, "Loss").hits == ()
    index.close()


def test_a_damaged_index_file_is_rebuilt(store, tmp_path):
    path = tmp_path / "cache" / "search.sqlite3"
    path.parent.mkdir()
    path.write_bytes(b"not a database at all" * 100)
    index = SearchIndex(path)
    assert [h.question_id for h in run(store, index, BUNDLED, "register_buffer").hits] == \
        ["001/29"]
    index.close()
    conn = sqlite3.connect(path)  # a real index file now, built with sqlite-utils' FTS DDL
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'questions_fts'").fetchone()
    conn.close()
    assert "fts5" in sql[0].lower() and "trigram" in sql[0]


def test_a_topic_name_finds_every_question_tagged_with_it(store, index, bank):
    """Issue 30.6: 显存估算 tags ten questions whose stem, options and explanation never
    say it."""
    tagged = {q.id for q in bank.all_questions() if "显存估算" in q.topics}
    in_text = {q.id for q in bank.all_questions()
               if "显存估算" in q.stem + q.explanation + str(q.options)}
    assert len(tagged) >= 5 and not in_text & tagged  # only the tag can find them
    results = run(store, index, bank, "显存估算")
    assert {h.question_id for h in results.hits} == brute_force(bank, "显存估算") >= tagged
    only_tag = {h.question_id for h in results.hits if h.field == "topic"}
    assert len(only_tag) >= 5 and only_tag <= tagged  # found by their tag alone


def test_snippets_read_as_plain_text_not_markdown(store, index, bank):
    """Issue 30.6: no ``**``, backticks or list marks in what the learner reads."""
    import re

    cases = []
    for q in bank.all_questions():
        others = search_mod.document(q)["haystack"].replace(q.explanation.lower(), "")
        for bold in re.findall(r"\*\*([^*`]+?)\*\*", q.explanation):
            word = max(bold.split(), key=len)
            if len(word) >= 3 and word.lower() not in others:
                cases.append((q.id, word))
                break
    assert len(cases) >= 3
    for qid, word in cases[:10]:
        [hit] = [h for h in run(store, index, bank, f'"{word}"').hits if h.question_id == qid]
        assert hit.field == "explanation"
        assert "**" not in hit.snippet.text and "`" not in hit.snippet.text, hit.snippet.text
        start, end = hit.snippet.spans[0]
        assert hit.snippet.text[start:end].lower() == word.lower()
