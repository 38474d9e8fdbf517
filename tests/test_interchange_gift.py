"""GIFT: the bundled papers go out and come back with what GIFT carries; the reader follows
the spec (and Moodle's reader) construct by construct; bad questions are named and the
rest of the file loads."""
from __future__ import annotations

import pytest

from question_db.bank import load_bank
from question_db.interchange.gift import GiftError, escape, gift_text, read_gift, write_gift
from question_db.interchange.markup import canonical_markdown
from question_db.interchange.writing import has_key
import roundtrip
from roundtrip import assert_same, load_result, review_kinds, rubric

COMMON = ("points", "stem", "explanation", "errata", "topics")


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.fixture(scope="module", params=["000", "001"])
def trip(request, bank, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"gift{request.param}")
    return roundtrip.trip(bank.paper(request.param), tmp, write_gift, read_gift, ".gift")


def test_bundled_papers_come_back_with_what_gift_carries(trip):
    paper, _, _, result, back = trip
    kept = [q for q in paper.questions if has_key(q)]
    assert len(back.questions) == len(kept)
    for orig, new in zip(kept, back.questions):
        if orig.type in ("single_choice", "multiple_choice"):
            assert_same(orig, new, "type", *COMMON, "options", "answer")
        elif orig.type == "fill_blank" and len(orig.answer) == 1:
            assert_same(orig, new, "type", *COMMON, "answer", "blank_points")
        elif orig.type == "fill_blank":  # several blanks: an essay, the key in the feedback
            assert new.type == "short_answer"
            assert_same(orig, new, *COMMON)
            assert rubric(new.rubric) == [(f"({i + 1}) " + " / ".join(v), round(p, 9), False)
                                          for i, (v, p) in enumerate(zip(orig.answer,
                                                                         orig.blank_points))]
            assert all(f"`{v}`" in new.answer for vs in orig.answer for v in vs)
        elif orig.type == "calculation":  # several parts: an essay, parts as rubric lines
            assert new.type == "short_answer"
            assert_same(orig, new, *COMMON)
            assert new.answer == canonical_markdown(orig.reference_answer)
            lines = rubric(new.rubric)
            assert [points for _, points, _ in lines] == [p.points for p in orig.parts] + [
                r.points for r in orig.rubric]
            for (line, _, _), part in zip(lines, orig.parts):
                assert line == f"{part.label}: {part.value:.15g} ± {part.tolerance:.15g} " \
                               f"{part.unit}".rstrip()
        elif orig.type == "programming":
            assert_same(orig, new, "type", *COMMON, "rubric", "code.reference",
                        "code.starter")
        else:
            assert_same(orig, new, "type", *COMMON, "answer", "rubric")
    assert len(result.warnings) == len(paper.questions) - len(kept)
    assert all("'description'" in w.message for w in result.warnings)
    assert back.title == paper.title


def test_export_warns_for_what_gift_drops(trip):
    paper, _, exported, _, _ = trip
    dropped = {(w.question, w.field) for w in exported}
    for q in paper.questions:
        if not has_key(q):
            assert (q.id, "answer") in dropped
        elif q.type == "fill_blank" and len(q.answer) > 1 or q.type == "calculation":
            assert (q.id, "answer") in dropped
        elif q.type == "programming":
            assert (q.id, "code.check") in dropped
    assert all(w.message.startswith("gift: ") for w in exported)


def test_export_keeps_code_indentation_on_one_line_per_field(bank):
    text, _ = gift_text([bank.paper("001")])
    programming = next(chunk for chunk in text.split("\n\n") if '"001/29"' in chunk)
    assert "\\n        " in programming  # indented code lines survive as \n escapes
    for chunk in text.split("\n\n"):  # a blank line would end the question in Moodle
        assert chunk.strip()


def test_escape_is_what_moodle_reads_back(tmp_path):
    tricky = "a {b} = c ~ d # e : f \\ g\nsecond line"
    assert escape(tricky) == "a \\{b\\} \\= c \\~ d \\# e \\: f \\\\ g\\nsecond line"
    path = tmp_path / "e.gift"
    path.write_text(f"::t::[plain]{escape(tricky)}{{=ok}}\n", "utf-8")
    q = read_gift(path).paper.questions[0]
    assert q.stem == tricky + " ____"


SPEC = r"""// A GIFT file as teachers write them (constructs of the Moodle "GIFT format" docs)
$CATEGORY: $course$/top/Networks/Basics

::Ports::Which port does HTTPS use by default?{
    ~80#That is HTTP.
    =443#Yes.
    ~8080
    ####TLS over TCP.
}

The default gateway is {~a switch =a router ~a hub} on most home networks.

TCP is connectionless.{F#Wrong: it is connection-oriented.#Right.}

UDP has no handshake.{TRUE}

::Acronym::[markdown]What does **DNS** stand for?{=Domain Name System =domain name system#ok}

Two plus two equals {=four =4}.

::Pi::What is pi to two decimals?{#3.14:0.005}

Give a number from 1 to 2.{#1..2}

When was the first RFC published? {#
    =1969:0 # exact
    =%50%1969:2 # close
}

Which are transport protocols?{
    ~%50%TCP
    ~%50%UDP
    ~%-100%IP
    ~%-100%HTTP
}

::Weighted badly::Pick two {~%33%A ~%33%B ~%-50%C}

::Essay::[html]<p>Explain <b>NAT</b>.</p>{####<p>Address translation at the edge.</p>}

::Escapes::Which is \{not\} an operator\: \~, \=, \# or \\?{=\\ ~\~ ~\= ~\#}

Match the layers {=L3 -> network =L4 -> transport}

This line has no answer braces: a description.

::Broken::This question never closes its brace {=yes

::After broken::The file goes on: 1 + 1 = {=2}

::Blank line inside::Routers forward by {
    =IP address

    =IP}

$CATEGORY: $course$/top/Networks/Advanced

::Plain::[plain]Is <b> a tag here?{T}
"""


def test_reader_follows_the_spec(tmp_path):
    path = tmp_path / "networks.txt"
    path.write_text(SPEC, "utf-8")
    result = read_gift(path)
    pack = load_result(result, tmp_path / "pack")
    by_stem = {q.stem.split("\n")[0][:24]: q for q in pack.questions}
    q = next(q for q in pack.questions if q.stem.startswith("Which port"))
    assert q.type == "single_choice" and q.options == {"A": "80", "B": "443", "C": "8080"}
    assert q.answer == "B"
    assert q.explanation == "TLS over TCP.\n\n- A: That is HTTP.\n- B: Yes."
    gateway = by_stem["The default gateway is _"]
    assert gateway.stem == "The default gateway is _____ on most home networks."
    assert gateway.answer == "B"
    tcp = next(q for q in pack.questions if q.stem.startswith("TCP is"))
    assert tcp.options == {"A": "True", "B": "False"} and tcp.answer == "B"
    assert "Wrong: it is connection-oriented." in tcp.explanation
    udp = next(q for q in pack.questions if q.stem.startswith("UDP"))
    assert udp.answer == "A"
    dns = next(q for q in pack.questions if "DNS" in q.stem)
    assert dns.stem == "What does **DNS** stand for? ____"
    assert dns.answer == [["Domain Name System", "domain name system"]]
    four = next(q for q in pack.questions if q.stem.startswith("Two plus"))
    assert four.stem == "Two plus two equals _____." and four.answer == [["four", "4"]]
    numbers = [q for q in pack.questions if q.type == "calculation"]
    assert [(q.parts[0].value, q.parts[0].tolerance) for q in numbers] == [
        (3.14, 0.005), (1.5, 0.5), (1969.0, 0.0)]
    assert "alternatives" in review_kinds(numbers[2])
    transport = next(q for q in pack.questions if q.stem.startswith("Which are transport"))
    assert transport.type == "multiple_choice" and transport.answer == ["A", "B"]
    weighted = next(q for q in pack.questions if q.stem.startswith("Pick two"))
    assert weighted.answer == ["A", "B"] and "weight" in review_kinds(weighted)
    essay = next(q for q in pack.questions if "NAT" in q.stem)
    assert essay.type == "short_answer" and essay.stem == "Explain **NAT**."
    assert essay.explanation == "Address translation at the edge."
    escapes = next(q for q in pack.questions if q.stem.startswith("Which is {not}"))
    assert escapes.stem == "Which is {not} an operator: ~, =, # or \\?"
    assert escapes.options == {"A": "\\", "B": "~", "C": "=", "D": "#"}
    assert escapes.answer == "A"
    after = next(q for q in pack.questions if q.stem.startswith("The file goes on"))
    assert after.answer == [["2"]]
    blank = next(q for q in pack.questions if q.stem.startswith("Routers forward"))
    assert blank.answer == [["IP address", "IP"]]
    plain = pack.questions[-1]
    assert plain.stem == "Is <b> a tag here?" and plain.answer == "A"
    assert [s.title for s in pack.sections][-1] == "Advanced"
    assert pack.title == "Networks"
    warnings = {w.question.split(" ")[-1].rstrip(")"): w for w in result.warnings}
    fields = sorted((w.field, w.message.split(";")[0]) for w in result.warnings)
    assert ("braces", "unterminated '{': the answers never close") in fields
    assert ("type", "question type 'matching' is not supported") in fields
    assert ("type", "pseudo-question 'description' (no answer braces) is not supported") \
        in fields
    broken = next(w for w in result.warnings if w.field == "braces")
    assert broken.question.startswith("#") and "Broken (line " in broken.question
    assert str(broken).startswith(f"{path}:#")
    assert any(w.field == "answer A.weight" and "33% is not one of Moodle's grades" in
               w.message for w in result.warnings)
    assert len(warnings) >= 3


def test_any_encoding_and_line_endings(tmp_path):
    text = "::问题::PyTorch 中 {=张量 =tensor} 是基本数据结构。\r\n\r\n::二::1+1\\={#2}\r\n"
    for encoding in ("gb18030", "utf-8-sig", "utf-16"):
        path = tmp_path / f"q-{encoding}.txt"
        path.write_bytes(text.encode(encoding))
        result = read_gift(path)
        q = result.paper.questions[0]
        assert q.stem == "PyTorch 中 _____ 是基本数据结构。" and q.answer == [["张量", "tensor"]]
        assert result.paper.questions[1].parts[0]["value"] == 2
        assert result.paper.language == "zh-Hans"


def test_a_file_without_questions_raises_naming_it(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("// only comments\n\nJust a description.\n", "utf-8")
    with pytest.raises(GiftError) as info:
        read_gift(path)
    assert str(path) in str(info.value) and "description" in str(info.value)


def test_disputed_key_and_points_survive_through_the_hint(bank, tmp_path):
    q = bank.question("000/7")  # disputed: D verified, C also accepted
    out = tmp_path / "p.gift"
    write_gift([bank.paper("000")], out)
    back = next(n for n in read_gift(out).paper.questions if n.stem == q.stem)
    assert back.answer == q.answer and back.points == q.points
    assert any(f.kind == "also_accept" and f.text == "C" for f in back.review)


def test_an_image_cannot_travel_in_gift_and_the_export_says_so(tmp_path):
    paper = roundtrip.image_pack(tmp_path / "img", b"png", alt="the flag")
    text, warnings = gift_text([paper])
    assert "[the flag]" in text and "<img" not in text
    assert sorted((w.question, w.field) for w in warnings) == [("img/1", "status"),
                                                               ("img/1", "stem")]


def test_one_part_calculation_keeps_value_and_tolerance_not_the_unit(tmp_path):
    paper = roundtrip.one_part_calculation_pack(tmp_path / "calc")
    _, out, exported, _, back = roundtrip.trip(paper, tmp_path, write_gift, read_gift, ".gift")
    assert "{#1040:5" in out.read_text("utf-8")
    orig, new = paper.questions[0], back.questions[0]
    assert_same(orig, new, "type", "points", "stem", "rubric", "reference_answer",
                "explanation")
    assert [(p.value, p.tolerance, p.unit, p.points) for p in new.parts] == [(1040, 5, "", 2)]
    assert sorted(w.field for w in exported) == ["answer[0].unit", "rubric"]


def test_feedback_headings_follow_the_papers_language(bank, tmp_path):
    """Issue 30 item 5: a Chinese paper's GIFT feedback says 勘误 / 评分要点 / 参考答案, an
    English one Errata / Rubric / Reference answer; both come back apart."""
    import dataclasses

    for language, words in (("zh-Hans", ("勘误", "评分要点", "参考答案", "初始代码")),
                            ("en", ("Errata", "Rubric", "Reference answer", "Starter code"))):
        paper = dataclasses.replace(bank.paper("000"), language=language)
        (tmp_path / language).mkdir()
        paper, out, _, _, back = roundtrip.trip(paper, tmp_path / language, write_gift,
                                                read_gift, ".gift")
        text = out.read_text("utf-8")
        assert all(f"<h4>{w}</h4>" in text for w in words), language
        kept = [q for q in paper.questions if has_key(q)]
        for orig, new in zip(kept, back.questions):
            assert_same(orig, new, "errata", "explanation")
            assert rubric(new.rubric) == rubric(orig.rubric) or orig.type in (
                "fill_blank", "calculation"), orig.id


@pytest.mark.parametrize("paper_id", ["000", "001"])
def test_our_own_export_is_read_back_as_gift_by_content(bank, tmp_path, paper_id):
    """File ▸ Import paper… decides the format from the bytes: an examdesk GIFT export,
    whose [html] questions are full of tags, is GIFT, not a web page (it came back with 5
    of 26 questions through the HTML reader)."""
    from question_db.interchange.importers import detect_format, import_file

    out = tmp_path / f"{paper_id}.txt"  # the extension says nothing
    write_gift([bank.paper(paper_id)], out)
    assert detect_format(out) == "gift"
    kept = [q for q in bank.paper(paper_id).questions if has_key(q)]
    assert len(import_file(out).paper.questions) == len(kept) == len(read_gift(out).paper.questions)
