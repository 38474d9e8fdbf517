"""The importers' and exporters' sentences in Chinese (issue 30, item 5: everything a
learner reads is in their language): ``question_db/interchange/message_catalogue.py`` and
its ``i18n/messages_zh.toml``.

Coverage is measured twice. Every review flag's why and every warning the test corpora
produce (the papers written elsewhere, the seeds, the generalisation suite, Moodle XML,
GIFT and Anki trips of the bundled papers, the bad-input fixtures of the importer tests,
the screenshots' Moodle quiz) must come out in Chinese; and every sentence the core can
write (each ``ReviewFlag``, ``Note``, ``Finding``, ``warn``, ``dropped``, ``_Skip``, the
pack loader's ``report`` and verify.py's ``problems`` creation site, read from the source)
must have a template, so a message the corpora happen not to produce is covered too.
"""
from __future__ import annotations

import ast
import base64
import re
import sys
import tomllib

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO))
from bench import import_score as sc  # noqa: E402
from bench import paper_render as pr  # noqa: E402
from question_db.interchange import message_catalogue as mc  # noqa: E402
from question_db.interchange.message_catalogue import translate  # noqa: E402

CJK = re.compile(r"[\u4e00-\u9fff]")
CORE = [*sorted((REPO / "question_db" / "interchange").rglob("*.py")),
        REPO / "question_db" / "bank.py"]
# call -> the position of its message argument (a keyword where the call may name it)
MESSAGE_ARGUMENT = {"ReviewFlag": (2, "why"), "Note": (2, "why"), "Finding": (2, "why"),
                    "find": (2, "why"), "warn": (2, "message"), "dropped": (3, "message"),
                    "drop": (1, "message"), "Problem": (3, "message"),
                    "_Skip": (1, "message"), "report": (1, "message"),
                    "problems.append": (0, "")}
# Sites whose sentence is put together from others, each covered by its own template:
# the format prefix of an export warning (writing.dropped), a skipped question's reason
# (the _Skip sentences), Moodle's unsupported type ("pseudo-question"/"question type"), a
# media file renamed ("file"/"image" and each reason of drafts.media_file_name) or refused
# (each reason of pack.py's media check): one template per combination.
COMPOSED = {"{fmt}: {message}", "{skip}; skipped", "{what} {kind} is not supported; skipped",
            "{what} {name} {why}; saved as {path}", "media file {name}: {why}"}


def chinese(text: str) -> bool:
    """Translated: different from the English and written in Chinese."""
    zh = translate(text, "zh_CN")
    return zh != text and bool(CJK.search(zh))


# --- the catalogue ---------------------------------------------------------------------------
def test_numbers_and_quoted_text_survive_translation():
    why = ("“1beta1state” reads as 1 · beta1 · state glued together: an operator (*, -, +, "
           "** …) between them was probably lost; left as printed")
    assert translate(why, "zh_CN") == ("“1beta1state”像是 1 · beta1 · state 粘在一起：中间多半"
                                       "丢了运算符（*、-、+、** …）；按原样保留")
    assert translate("no points printed; 2.5 assumed", "zh_CN") == "未印分值；按 2.5 分计"
    huge = "eps = 1e6 is huge for a eps: probably 1e-6 with the “-” lost"
    assert translate(huge, "zh_CN") == "eps = 1e6 作为 eps 太大了：多半是 1e-6，丢了“-”"
    context = ("“?” stands for a character or math symbol (−, ², √, ∂, ½ …) the extraction "
               "lost; restore it from the context (in “σ2)，则D_{KL}=?∑(μ2+σ2?logσ”)")
    assert "（见“σ2)，则D_{KL}=?∑(μ2+σ2?logσ”）" in translate(context, "zh_CN")


def test_an_export_warning_keeps_its_format_and_translates_the_rest():
    assert (translate("moodle-xml: alternative key ABD not carried (Moodle has one set of "
                      "correct options)", "zh_CN")
            == "moodle-xml: 备选答案 ABD 没有导出（Moodle 只有一组正确选项）")


def test_a_repeated_placeholder_must_repeat_the_same_text():
    odd = "lr = 1e3 is huge for a eps: probably 1e-3 with the “-” lost"
    assert translate(odd, "zh_CN") == odd


def test_an_unknown_sentence_stays_english_and_english_stays_english():
    for text in ("something no importer ever says", "", "no points printed",
                 "no points printed; 2 assumed; and more"):
        assert translate(text, "zh_CN") == text
    known = "no points printed; 2 assumed"
    assert translate(known, "en") == known and translate(known, "C") == known
    assert translate(known, "fr_FR") == known  # no catalogue


def test_every_template_keeps_its_placeholders_and_is_chinese():
    with mc.catalogue_path("zh_CN").open("rb") as file:
        tables = tomllib.load(file)
    merged: dict[str, str] = {}
    for name, table in tables.items():
        assert isinstance(table, dict), name
        for english, zh in table.items():
            assert english not in merged, f"{english!r} twice"
            merged[english] = zh
    assert merged == mc.templates("zh_CN")
    for english, zh in merged.items():
        assert sorted(set(mc.placeholders(zh))) == sorted(set(mc.placeholders(english))), english
        assert CJK.search(zh), english
        assert not CJK.search(english), english


# --- every creation site in the core ---------------------------------------------------------
def _templates(node: ast.AST) -> list[str]:
    """A string expression as templates (one per branch of a conditional): f-string values
    become placeholders; [] where it is not a string written here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):  # the same expression twice is one placeholder
        out, names = [], {}
        for value in node.values:
            if isinstance(value, ast.Constant):
                out.append(value.value)
            else:
                key = ast.unparse(value.value)
                out.append("{v%d}" % names.setdefault(key, len(names)))
        return ["".join(out)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [a + b for a in _templates(node.left) for b in _templates(node.right)]
    if isinstance(node, ast.IfExp):
        return _templates(node.body) + _templates(node.orelse)
    return []


def creation_sites() -> list[tuple[str, int, str]]:
    """(file, line, template) for each message the interchange core and the pack loader
    write as a literal or an f-string (a message passed on from elsewhere is its origin's),
    and each operator rule's why (text_import/code.py)."""
    sites = []
    for path in CORE:
        rel = path.relative_to(REPO).as_posix()
        tree = ast.parse(path.read_text("utf-8"))
        assigned = {n.targets[0].id: n.value for n in ast.walk(tree)
                    if isinstance(n, ast.Assign) and len(n.targets) == 1
                    and isinstance(n.targets[0], ast.Name) and _templates(n.value)}
        for node in ast.walk(tree):
            found: list[ast.AST] = []
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name == "append" and isinstance(func, ast.Attribute) and isinstance(
                        func.value, ast.Name) and func.value.id == "problems":
                    name = "problems.append"  # verify.py: what stops a verification
                if name not in MESSAGE_ARGUMENT:
                    continue
                if name == "find" and not (isinstance(func, ast.Attribute)
                                           and isinstance(func.value, ast.Name)
                                           and func.value.id == "self"):
                    continue  # str.find
                index, keyword = MESSAGE_ARGUMENT[name]
                arg = node.args[index] if len(node.args) > index else next(
                    (k.value for k in node.keywords if k.arg == keyword), None)
                if isinstance(arg, ast.Name) and arg.id in assigned:
                    arg = assigned[arg.id]
                if arg is not None:
                    found.append(arg)
                suffix = "; skipped" if name == "_Skip" else ""
            elif rel.endswith("text_import/code.py") and isinstance(node, ast.Lambda):
                body = node.body
                found.append(body.orelse if isinstance(body, ast.IfExp) else body)
                suffix = ""
            elif (rel.endswith("text_import/code.py") and isinstance(node, ast.FunctionDef)
                  and any(isinstance(t, ast.Name) and t.id == node.name
                          for n in ast.walk(tree) if isinstance(n, ast.Tuple) for t in n.elts)):
                found += [r.value for r in ast.walk(node) if isinstance(r, ast.Return)]
                suffix = ""
            for arg in found:
                sites += [(rel, arg.lineno, text + suffix) for text in _templates(arg)]
    return sites


def _sample(template: str) -> str:
    """The template's sentence with a value for each placeholder (``{v0}`` -> ``x0``)."""
    return re.sub(r"\{v(\d+)\}", r"x\1", template)


def test_every_message_the_core_writes_has_a_chinese_template():
    sites = creation_sites()
    assert len(sites) > 180, len(sites)  # the scan still sees the core's sentences
    missing = []
    composed = {re.sub(r"\{\w+\}", "{x}", c) for c in COMPOSED}
    for rel, line, template in sites:
        shape = re.sub(r"\{v\d+\}", "{x}", template)
        if shape in composed or shape.strip() in ("", "{x}"):
            continue
        sentence = _sample(template)
        if not chinese(sentence):
            missing.append(f"{rel}:{line}: {template}")
    assert not missing, f"{len(missing)} sentence(s) without a template:\n" + "\n".join(missing)


# --- what the corpora produce ----------------------------------------------------------------
def _take(result, source: str, into: dict[str, str]) -> None:
    for q in result.paper.questions:
        for flag in q.review:
            into.setdefault(flag.why, source)
    for warning in result.warnings:
        into.setdefault(warning.message, source)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> dict[str, str]:
    """Every flag's why and every warning message the corpora produce -> where from."""
    from question_db.bank import load_bank
    from question_db.interchange.encoding import UnreadableInput
    from question_db.interchange.exporters import export_papers
    from question_db.interchange.gift import read_gift
    from question_db.interchange.importers import import_file
    from question_db.interchange.moodle import read_moodle_xml
    from question_db.interchange.text_import import import_text
    from test_import_files import GIFT, PAPER
    from test_import_formats import MARKDOWN, PAGE
    from test_import_rules import RUN_ON
    from test_interchange_gift import SPEC
    from test_interchange_moodle import PNG, REAL_LIKE

    tmp = tmp_path_factory.mktemp("corpus")
    found: dict[str, str] = {}
    data = REPO / "tests" / "data"
    files = [p for p in sorted((data / "papers_elsewhere").iterdir())
             if p.suffix not in (".json", ".md")] + sorted((data / "seeds").iterdir())
    files += [data / "libreoffice_paper.docx", data / "libreoffice_paper.html",
              REPO / "docs" / "screenshots" / "data" / "moodle_quiz.xml"]
    for path in files:
        try:
            _take(import_file(path), path.name, found)
        except UnreadableInput:
            pass  # refused whole (two papers in one file): an error, not a warning
    for pid, layout, fmt in pr.cases():
        row = sc.run_case(pid, layout, fmt, tmp)
        if row["result"] is not None:
            _take(row["result"], f"{pid}-{layout}.{fmt}", found)
    bank = load_bank()
    for pid in ("000", "001", "drills"):
        for fmt, suffix, read in (("moodle-xml", ".xml", read_moodle_xml),
                                  ("gift", ".gift", read_gift), ("apkg", ".apkg", None)):
            out = tmp / f"{pid}{suffix}"
            for warning in export_papers(fmt, [bank.paper(pid)], out):
                found.setdefault(warning.message, f"{fmt} export of {pid}")
            if read is not None:
                _take(read(out), f"{fmt} trip of {pid}", found)
    moodle = tmp / "real_like.xml"
    moodle.write_text(REAL_LIKE.format(png=base64.b64encode(PNG).decode()), "utf-8")
    _take(read_moodle_xml(moodle), "test_interchange_moodle.REAL_LIKE", found)
    for name, text, suffix in (("SPEC", SPEC, ".gift"), ("GIFT", GIFT, ".gift"),
                               ("PAPER", PAPER, ".txt"), ("MARKDOWN", MARKDOWN, ".md"),
                               ("PAGE", PAGE, ".html")):
        path = tmp / f"{name}{suffix}"
        path.write_text(text, "utf-8")
        _take(import_file(path), name, found)
    _take(import_text(RUN_ON, paper_id="t"), "RUN_ON", found)
    return found


def test_every_flag_and_warning_the_corpora_produce_reads_in_chinese(corpus):
    assert len(corpus) > 100, len(corpus)  # the corpora still produce their messages
    english = [f"{source}: {text}" for text, source in corpus.items() if not chinese(text)]
    translated = 1 - len(english) / len(corpus)
    print(f"\n{len(corpus)} distinct messages, {translated:.1%} in Chinese")
    assert not english, (f"{len(english)} of {len(corpus)} message(s) stay English:\n"
                         + "\n".join(english))


def test_what_stops_a_verification_reads_in_chinese():
    from question_db.interchange.pack import DraftQuestion
    from question_db.interchange.verify import verification_problems

    q = DraftQuestion(number=1, type="programming", points=5, stem="", code={"seed": "def f(:"})
    problems = verification_problems(q)
    assert len(problems) == 3, problems  # stem, explanation, code
    assert [translate(p, "zh_CN") for p in problems][:2] == ["题干为空", "请写解析：说明答案为什么正确"]
    assert translate(problems[2], "zh_CN").startswith("代码无法编译（第 1 行：")
