"""Moodle XML: the bundled papers go out and come back field by field; what Moodle writes
(CDATA HTML, @@PLUGINFILE@@ files, Moodle 1.9 image tags, CRLF, other encodings, cloze,
true/false, numerical units, plug-in types) reads into a draft pack; bad input is named."""
from __future__ import annotations

import base64
import xml.etree.ElementTree as ET

import pytest

from question_db.bank import load_bank
from question_db.interchange.moodle import (MOODLE_FRACTIONS, MoodleXmlError, moodle_fraction,
                                            read_moodle_xml, write_moodle_xml)
from question_db.interchange.writing import has_key
import roundtrip
from roundtrip import assert_same, load_result, review_kinds

PER_TYPE = {
    "single_choice": ("options", "answer"),
    "multiple_choice": ("options", "answer"),
    "fill_blank": ("answer", "blank_points"),
    "calculation": ("parts", "rubric", "reference_answer"),
    "short_answer": ("answer", "rubric"),
    "system_design": ("answer", "rubric"),
    "programming": ("rubric", "code.reference", "code.starter"),
}
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.fixture(scope="module", params=["000", "001"])
def trip(request, bank, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"moodle{request.param}")
    return roundtrip.trip(bank.paper(request.param), tmp, write_moodle_xml, read_moodle_xml,
                          ".xml")


def test_bundled_papers_come_back_field_by_field(trip):
    paper, _, _, result, back = trip
    kept = [q for q in paper.questions if has_key(q)]
    assert len(back.questions) == len(kept)
    for orig, new in zip(kept, back.questions):
        assert_same(orig, new, "type", "points", "stem", "explanation", "errata", "topics",
                    *PER_TYPE[orig.type])
        if orig.type == "single_choice" and orig.also_accept:
            flag = next(f for f in new.review if f.kind == "also_accept")
            assert flag.text == ", ".join(orig.also_accept)
    assert back.title == paper.title
    assert [s.title for s in back.sections] == [s.title for s in paper.sections]
    assert {s.type: s.scoring for s in back.sections} == {s.type: s.scoring
                                                         for s in paper.sections}
    void = [q for q in paper.questions if not has_key(q)]
    assert len(result.warnings) == len(void)  # exported as descriptions, skipped on import
    assert all("'description'" in w.message and w.field == "type" for w in result.warnings)


def test_export_warns_for_every_field_moodle_cannot_carry(trip):
    paper, _, exported, _, _ = trip
    by_field: dict[str, set[str]] = {}
    for w in exported:
        assert w.message.startswith("moodle-xml: ") and w.file.endswith(".toml")
        by_field.setdefault(w.field, set()).add(w.question)
    assert by_field.get("answer", set()) >= {q.id for q in paper.questions if not has_key(q)}
    rule = {s.title for s in paper.sections if s.multiple_choice_rule == "all_or_nothing"}
    aon = {q.id for q in paper.questions if q.type == "multiple_choice"
           and paper.section_of(q).title in rule}
    assert by_field.get("multiple_choice_rule", set()) == aon
    assert by_field.get("code.check") == {q.id for q in paper.questions
                                          if q.type == "programming"}


def test_every_exported_grade_is_on_moodles_list(trip):
    paper, out, *_ = trip
    root = ET.parse(out).getroot()
    by_id = {q.id: q for q in paper.questions}
    for el in root.iter("question"):
        fractions = [float(a.get("fraction")) / 100 for a in el.findall("answer")]
        assert all(moodle_fraction(f) is not None for f in fractions), fractions
        if el.get("type") != "multichoice":
            continue
        q = by_id[el.findtext("idnumber")]
        positive = [f for f in fractions if f > 0]
        if q.type == "single_choice":
            assert sorted(positive) == [1.0] * (1 + len(q.also_accept))
        else:
            assert len(positive) == len(q.answer) and abs(sum(positive) - 1) < 1e-5
            assert fractions.count(-1.0) == len(q.options) - len(q.answer)


def test_moodle_grade_list_is_moodles():
    # question_bank::fraction_options_full(): 0, ±(1, 0.9, 0.8333333, ..., 0.05)
    assert len(MOODLE_FRACTIONS) == 41 and {1.0, -1.0, 0.0, 0.05, -0.1428571} <= set(
        MOODLE_FRACTIONS)
    assert moodle_fraction(0.33333) == 0.3333333  # Moodle matches within 1e-5
    assert moodle_fraction(0.3333) is None and moodle_fraction(0.33) is None


def test_several_blanks_become_one_weighted_cloze(bank, tmp_path):
    q = bank.question("000/23")  # three blanks, 2 points: 2/3 each
    out = tmp_path / "q.xml"
    warnings = write_moodle_xml([bank.paper("000")], out)
    el = next(e for e in ET.parse(out).getroot().iter("question")
              if e.findtext("idnumber") == q.id)
    text = el.findtext("questiontext/text")
    assert el.get("type") == "cloze" and text.count("{1:SHORTANSWER:") == 3
    assert "&#123;context&#125;" in text  # braces inside an answer cannot end the part
    assert el.findtext("defaultgrade") == "2"
    assert any(w.question == q.id and w.field == "blank_points" for w in warnings)


REAL_LIKE = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<!-- question: 0  -->
  <question type="category">
    <category>
      <text>$course$/top/Default for Physics 101/Week 1</text>
    </category>
    <info format="moodle_auto_format">
      <text>Each question 1 point</text>
    </info>
  </question>
  <question type="multichoice">
    <name><text><![CDATA[Flag <b>question</b>]]></text></name>
    <questiontext format="html">
      <text><![CDATA[<p dir="ltr" style="text-align: left;">Which flag?<br></p><p><img src="@@PLUGINFILE@@/flag%20a.png" alt="a flag" width="50" height="50"></p>]]></text>
      <file name="flag a.png" path="/" encoding="base64">{png}</file>
    </questiontext>
    <generalfeedback format="html"><text><![CDATA[<p>Because &lt;b&gt; is bold.</p>]]></text></generalfeedback>
    <defaultgrade>2.0000000</defaultgrade>
    <penalty>0.3333333</penalty>
    <hidden>0</hidden>
    <single>true</single>
    <shuffleanswers>true</shuffleanswers>
    <answernumbering>abc</answernumbering>
    <correctfeedback format="html"><text>Your answer is correct.</text></correctfeedback>
    <answer fraction="0" format="html"><text><![CDATA[<p>Red</p>]]></text>
      <feedback format="html"><text>No.</text></feedback></answer>
    <answer fraction="100" format="html"><text><![CDATA[<p>Blue &amp; white</p>]]></text>
      <feedback format="html"><text></text></feedback></answer>
    <tags><tag><text>flags</text></tag></tags>
  </question>
  <question type="multichoice">
    <name><text>Primes</text></name>
    <questiontext format="html"><text>Select all prime numbers</text></questiontext>
    <single>false</single>
    <answer fraction="-50"><text>1</text></answer>
    <answer fraction="33"><text>2</text></answer>
    <answer fraction="33.33333"><text>3</text></answer>
    <answer fraction="33.33333"><text>5</text></answer>
  </question>
  <question type="truefalse">
    <name><text>TF</text></name>
    <questiontext format="html"><text><![CDATA[<p>地球是圆的。</p>]]></text></questiontext>
    <answer fraction="100" format="moodle_auto_format"><text>true</text></answer>
    <answer fraction="0" format="moodle_auto_format"><text>false</text></answer>
  </question>
  <question type="shortanswer">
    <name><text>Amphibian</text></name>
    <questiontext format="html"><text>Name an amphibian: __________</text></questiontext>
    <defaultgrade>1</defaultgrade>
    <usecase>0</usecase>
    <answer fraction="100"><text>frog</text></answer>
    <answer fraction="50"><text>newt</text></answer>
    <answer fraction="0"><text>*</text></answer>
    <answer fraction="100"><text>2\\*3</text></answer>
  </question>
  <question type="numerical">
    <name><text>Length</text></name>
    <questiontext format="moodle_auto_format"><text>How long?
In metres.</text></questiontext>
    <defaultgrade>3</defaultgrade>
    <answer fraction="100"><text>42</text><tolerance>0.001</tolerance></answer>
    <answer fraction="0"><text>13</text><tolerance>1</tolerance></answer>
    <answer fraction="0"><text>*</text><tolerance></tolerance></answer>
    <units>
      <unit><multiplier>100</multiplier><unit_name>cm</unit_name></unit>
      <unit><multiplier>1</multiplier><unit_name>m</unit_name></unit>
    </units>
  </question>
  <question type="cloze">
    <name><text>Cities</text></name>
    <questiontext format="html"><text><![CDATA[<p>San Francisco: {{1:MULTICHOICE:=California#OK~Arizona#Wrong}}<br>Capital of France: {{2:SHORTANSWER:=Paris~%50%paris city}}<br>Pi: {{1:NUMERICAL:=3.14:0.01}}</p>]]></text></questiontext>
  </question>
  <question type="cloze">
    <name><text>Two numbers</text></name>
    <questiontext format="html"><text><![CDATA[<p>Compute:</p><ul><li>Area: {{2:NUMERICAL:=12.5:0.1}} m²</li><li>Perimeter: {{1:NUMERICAL:=15:0}} m</li></ul>]]></text></questiontext>
  </question>
  <question type="essay">
    <name><text>Essay</text></name>
    <questiontext format="html"><text>Explain backprop.</text></questiontext>
    <defaultgrade>5</defaultgrade>
    <responseformat>editor</responseformat>
    <graderinfo format="html"><text><![CDATA[<p>Chain rule; <code>loss.backward()</code>.</p>]]></text></graderinfo>
    <responsetemplate format="html"><text></text></responsetemplate>
  </question>
  <question type="essay">
    <name><text>Code essay</text></name>
    <questiontext format="html"><text>Write f.</text></questiontext>
    <responseformat>monospaced</responseformat>
    <graderinfo format="html"><text><![CDATA[<pre>def f(x):
    return x + 1</pre>]]></text></graderinfo>
    <responsetemplate format="plain_text"><text>def f(x):
    ...</text></responsetemplate>
  </question>
  <question type="coderunner">
    <name><text>sqr</text></name>
    <questiontext format="html"><text>Write sqr(n).</text></questiontext>
    <coderunnertype>python3</coderunnertype>
    <prototypetype>0</prototypetype>
    <answer><![CDATA[def sqr(n):
    return n * n]]></answer>
    <answerpreload></answerpreload>
    <testcases><testcase><testcode><text>print(sqr(2))</text></testcode></testcase></testcases>
  </question>
  <question type="coderunner">
    <name><text>C sqr</text></name>
    <questiontext format="html"><text>Write sqr in C.</text></questiontext>
    <coderunnertype>c_function</coderunnertype>
    <answer>int sqr(int n) {{ return n * n; }}</answer>
  </question>
  <question type="matching"><name><text>Match it</text></name>
    <questiontext format="html"><text>m</text></questiontext></question>
  <question type="ddwtos"><name><text>Drag it</text></name>
    <questiontext format="html"><text>d</text></questiontext></question>
  <question type="description"><name><text>Intro</text></name>
    <questiontext format="html"><text>Read this first.</text></questiontext></question>
  <question type="calculated"><name><text>Calc</text></name>
    <questiontext format="html"><text>{{a}} + {{b}}</text></questiontext></question>
  <question type="category">
    <category><text>$course$/top/Default for Physics 101/Week 2</text></category>
  </question>
  <question type="multichoice">
    <name><text>Old 1.9</text></name>
    <questiontext format="html"><text><![CDATA[Image in the old field]]></text></questiontext>
    <image>moodle.png</image>
    <image_base64>
{png}
    </image_base64>
    <answer fraction="0"><text>
wrong answer
        </text></answer>
    <answer fraction="100"><text>
right answer
        </text></answer>
  </question>
</quiz>
"""


@pytest.fixture
def real_like(tmp_path):
    """A Moodle export as Moodle writes one (CRLF, CDATA, base64 files, plug-in types)."""
    path = tmp_path / "questions-physics.xml"
    text = REAL_LIKE.format(png=base64.b64encode(PNG).decode())
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    return path


def test_reads_what_moodle_writes(real_like, tmp_path):
    result = read_moodle_xml(real_like)
    pack = load_result(result, tmp_path / "pack")
    qs = pack.questions
    assert pack.title == "Default for Physics 101"
    assert [s.title for s in pack.sections][:2] == ["Week 1 (Single choice)",
                                                    "Week 1 (Multiple choice)"]
    assert pack.sections[0].scoring == "Each question 1 point"
    flag = qs[0]
    assert flag.type == "single_choice" and flag.answer == "B" and flag.points == 2
    assert flag.options == {"A": "Red", "B": "Blue & white"}
    assert flag.stem == "Which flag?\n\n![a flag](media/flag_a.png)"
    assert (pack.folder / "media" / "flag_a.png").read_bytes() == PNG
    assert flag.explanation == "Because <b> is bold.\n\n- A: No."
    assert flag.topics == ("flags",)
    primes = qs[1]
    assert primes.type == "multiple_choice" and primes.answer == ["B", "C", "D"]
    assert "weight" in review_kinds(primes)
    tf = qs[2]
    assert tf.options == {"A": "正确", "B": "错误"} and tf.answer == "A"
    short = qs[3]
    assert short.type == "fill_blank" and short.answer == [["frog", "2*3"]]
    assert "partial_credit" in review_kinds(short)  # newt 50 %, the * wildcard
    numeric = qs[4]
    assert numeric.stem == "How long?\nIn metres."
    assert [(p.value, p.tolerance, p.unit, p.points) for p in numeric.parts] == [
        (42.0, 0.001, "m", 3)]
    assert "alternatives" in review_kinds(numeric)
    cities = qs[5]
    assert cities.type == "fill_blank"
    assert cities.answer == [["California"], ["Paris"], ["3.14"]]
    assert cities.blank_points == (1, 2, 1)
    assert {"choices", "tolerance", "partial_credit"} <= review_kinds(cities)
    area = qs[6]
    assert area.type == "calculation" and area.stem == "Compute:"
    assert [(p.label, p.value, p.tolerance, p.unit, p.points) for p in area.parts] == [
        ("Area", 12.5, 0.1, "m²", 2), ("Perimeter", 15.0, 0.0, "m", 1)]
    essay = qs[7]
    assert essay.type == "short_answer" and essay.answer == "Chain rule; `loss.backward()`."
    assert [(r.points) for r in essay.rubric] == [5] and "rubric" in review_kinds(essay)
    code = qs[8]
    assert code.type == "programming"
    assert code.code.read("reference") == "def f(x):\n    return x + 1\n"
    assert code.code.read("starter") == "def f(x):\n    ...\n"
    runner = qs[9]
    assert runner.type == "programming" and "checks" in review_kinds(runner)
    assert runner.code.read("reference") == "def sqr(n):\n    return n * n\n"
    old = qs[10]
    assert old.stem == "Image in the old field\n\n![](media/moodle.png)"
    assert old.options == {"A": "wrong answer", "B": "right answer"} and old.answer == "B"
    assert pack.sections[-1].title == "Week 2"
    assert all(q.status == "draft" for q in qs)
    skipped = {w.question.split(" ", 1)[1]: w for w in result.warnings if w.field == "type"}
    assert set(skipped) == {"C sqr", "Match it", "Drag it", "Intro", "Calc"}
    assert "'matching'" in skipped["Match it"].message
    assert "'drag and drop into text'" in skipped["Drag it"].message
    assert "'description'" in skipped["Intro"].message
    assert "'c_function'" in skipped["C sqr"].message
    grade = next(w for w in result.warnings if w.field == "answer B.fraction")
    assert str(grade).startswith(f"{real_like}:#3 Primes:answer B.fraction: 33% is not one")


def test_imported_media_go_out_again_as_moodle_files(real_like, tmp_path):
    pack = load_result(read_moodle_xml(real_like), tmp_path / "pack")
    out = tmp_path / "again.xml"
    write_moodle_xml([pack], out)
    root = ET.parse(out).getroot()
    qtext = next(el for el in root.iter("questiontext") if "flag" in (el.findtext("text") or ""))
    assert '@@PLUGINFILE@@/flag_a.png' in qtext.findtext("text")
    assert base64.b64decode(qtext.find("file").text) == PNG
    again = load_result(read_moodle_xml(out), tmp_path / "pack2")
    assert (again.folder / "media" / "flag_a.png").read_bytes() == PNG


@pytest.mark.parametrize("content, message", [
    (b"<quiz><question type='multichoice'><name><text>x</name>", ":1:"),
    (b"<?xml version='1.0'?>\n<questions/>", "the root element is <questions>"),
    (b"<?xml version='1.0'?><!DOCTYPE quiz [<!ENTITY x 'boom'>]><quiz>&x;</quiz>", "refused"),
    (b"<quiz><question type='description'><questiontext><text>hi</text></questiontext>"
     b"</question></quiz>", "no question examdesk can import"),
])
def test_a_file_that_is_not_usable_moodle_xml_raises_naming_it(tmp_path, content, message):
    path = tmp_path / "bad.xml"
    path.write_bytes(content)
    with pytest.raises(MoodleXmlError) as info:
        read_moodle_xml(path)
    assert str(path) in str(info.value) and message in str(info.value)


@pytest.mark.parametrize("encoding, declared", [("gb18030", "GBK"), ("gb18030", None),
                                                ("utf-16", "UTF-16"), ("utf-8-sig", "UTF-8")])
def test_any_encoding(tmp_path, encoding, declared):
    decl = f'<?xml version="1.0" encoding="{declared}"?>\n' if declared else ""
    text = (decl + "<quiz><question type='truefalse'><name><text>问</text></name>"
            "<questiontext format='html'><text>梯度下溢会导致更新丢失。</text></questiontext>"
            "<answer fraction='0'><text>true</text></answer>"
            "<answer fraction='100'><text>false</text></answer></question></quiz>")
    path = tmp_path / "zh.xml"
    path.write_bytes(text.encode(encoding))
    result = read_moodle_xml(path)
    q = result.paper.questions[0]
    assert q.stem == "梯度下溢会导致更新丢失。" and q.answer == "B"
    assert result.paper.language == "zh-Hans"


def test_one_part_calculation_is_a_numerical_question_with_its_unit(tmp_path):
    paper = roundtrip.one_part_calculation_pack(tmp_path / "calc")
    _, out, exported, _, back = roundtrip.trip(paper, tmp_path, write_moodle_xml,
                                               read_moodle_xml, ".xml")
    el = next(e for e in ET.parse(out).getroot().iter("question") if e.get("type") != "category")
    assert el.get("type") == "numerical" and el.findtext("units/unit/unit_name") == "GB"
    assert_same(paper.questions[0], back.questions[0], "type", "points", "stem", "parts",
                "rubric", "reference_answer", "explanation")
    assert [w.field for w in exported] == ["rubric"]


@pytest.mark.parametrize("language, headings, other", [
    ("zh-Hans", ("<h4>勘误</h4>", "<h4>评分要点</h4>"), "<h4>Errata</h4>"),
    ("en", ("<h4>Errata</h4>", "<h4>Rubric</h4>"), "<h4>勘误</h4>"),
])
def test_feedback_headings_are_in_the_papers_language_and_read_back(bank, tmp_path, language,
                                                                     headings, other):
    """Issue 30 item 5: the headings a Moodle teacher and learner read follow the paper's
    language; the reader splits either language back into the fields."""
    import dataclasses
    import html

    paper = dataclasses.replace(bank.paper("000"), language=language)
    paper, out, _, _, back = roundtrip.trip(paper, tmp_path, write_moodle_xml, read_moodle_xml,
                                            ".xml")
    xml = html.unescape(out.read_text("utf-8"))  # the HTML is escaped inside <text>
    assert all(h in xml for h in headings) and other not in xml
    kept = [q for q in paper.questions if has_key(q)]
    for orig, new in zip(kept, back.questions):
        assert_same(orig, new, "errata", "explanation", *PER_TYPE[orig.type])
