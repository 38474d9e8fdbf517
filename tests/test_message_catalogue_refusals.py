"""A refusal in the learner's language (issue 30, item 5): why a file was not imported, a
pack not saved, an export not written (``question_db/interchange/refusals.py`` and the
``[refusals_…]`` tables of ``i18n/messages_zh.toml``).

Measured twice, as tests/test_message_catalogue.py measures the flags: every refusal
sentence the core can raise (each call of a refusal's class, the importer child's and the
disk's reasons, read from the source) must come out in Chinese with no English phrase left;
and the refusals the importer tests trigger (binary, empty, damaged, oversized files, zip
bombs, two papers in one file, GIFT and Moodle files with nothing to import, scanned and
encrypted PDFs, an importer out of memory, packs that cannot be written) must read in
Chinese, the file named as it was.
"""
from __future__ import annotations

import ast
import errno
import io
import re
import struct
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, mounted_tmpfs
from question_db.interchange.refusals import export_failure, refusal_text
from test_message_catalogue import CJK, _sample

CORE = [*sorted((REPO / "question_db" / "interchange").rglob("*.py")),
        REPO / "question_db" / "pack_folders.py", REPO / "question_db" / "messages.py"]
# a refusal's class -> (the position of its sentence, what str() puts before it)
REFUSALS = {"UnreadableInput": (1, "{v9}: "),
            "PackNotWritten": (1, "{v9}: cannot write the pack: "),
            "GiftError": (0, ""), "MoodleXmlError": (0, ""), "NoQuestions": (0, ""),
            "ImporterFailed": (0, ""), "ImportCancelled": (0, ""), "NotAPack": (0, ""),
            "PackExists": (0, ""), "FormatUnavailable": (0, "")}
# functions that build a refusal's sentence (or part of one) from pieces
BUILDERS = {"_out_of_memory", "_how_it_ended", "_not_written", "os_error_reason",
            "export_failure", "__init__"}
ENGLISH = re.compile(r"\b[a-z]{2,} [a-z]{2,}\b")  # two English words in a row


def zh(text: str) -> str:
    return refusal_text(text, "zh_CN")


def _strings(node: ast.AST, scope: dict[str, list[ast.AST]], depth: int = 0) -> list[str]:
    """A string expression as templates, one per branch; an f-string's value is a
    placeholder, or each string the function assigns to that name (``where``, ``holder``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out = [""]
        names: dict[str, int] = {}
        for value in node.values:
            if isinstance(value, ast.Constant):
                out = [o + value.value for o in out]
                continue
            key = ast.unparse(value.value)
            pieces = ["{v%d}" % names.setdefault(key, len(names))]
            assigned = scope.get(getattr(value.value, "id", ""), []) if depth < 2 else []
            branches = [_strings(a, scope, depth + 1) for a in assigned]
            if assigned and all(branches):  # only strings: each is a sentence of its own
                pieces = [p for b in branches for p in b]
            else:
                pieces += [p for b in branches for p in b if p]
            out = [o + p for o in out for p in dict.fromkeys(pieces)]
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [a + b for a in _strings(node.left, scope, depth)
                for b in _strings(node.right, scope, depth)]
    if isinstance(node, ast.IfExp):
        return _strings(node.body, scope, depth) + _strings(node.orelse, scope, depth)
    return []


def _scope(function: ast.AST) -> dict[str, list[ast.AST]]:
    names: dict[str, list[ast.AST]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name):
            names.setdefault(node.targets[0].id, []).append(node.value)
    return names


def refusal_sites() -> tuple[list[tuple[str, int, str]], int]:
    """(file, line, template) of every refusal sentence the core writes, and how many
    sites pass on a sentence written elsewhere (``exc.reason``, the child's text)."""
    sites, passed_on = [], 0
    for path in CORE:
        rel = path.relative_to(REPO).as_posix()
        tree = ast.parse(path.read_text("utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        for function in functions:
            scope = _scope(function)
            for node in ast.walk(function):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                    if name == "__init__" and rel.endswith("pack_folders.py"):
                        name, index, before = "PackLocked", 0, ""  # super().__init__(…)
                    elif name in REFUSALS:
                        index, before = REFUSALS[name]
                    else:
                        continue
                    if len(node.args) <= index:
                        continue
                    found = _strings(node.args[index], scope)
                    passed_on += not found
                    sites += [(rel, node.lineno, before + t) for t in found]
                elif function.name in BUILDERS and (
                        rel.endswith(("import_process.py", "messages.py", "refusals.py"))
                        or function.name == "_not_written"):
                    if isinstance(node, ast.Return) and node.value is not None:
                        found = _strings(node.value, scope)
                    elif isinstance(node, ast.AugAssign):  # reason += "; the old pack …"
                        found = ["{v9}" + t for t in _strings(node.value, scope)]
                    elif isinstance(node, ast.Assign) and function.name == "_not_written":
                        found = _strings(node.value, scope)  # "writing media/a.png"
                    else:
                        continue
                    sites += [(rel, node.lineno, t) for t in found]
        for node in ast.walk(tree):  # messages.py: _REASONS, each shown with its errno
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and "_REASONS" in ast.unparse(
                    node.targets[0] if isinstance(node, ast.Assign) else node.target):
                values = node.value.values if isinstance(node.value, ast.Dict) else [node.value]
                sites += [(rel, v.lineno, v.value + " ({v9})") for v in values
                          if isinstance(v, ast.Constant)]
    return sites, passed_on


def test_every_refusal_the_core_raises_has_a_chinese_template():
    sites, passed_on = refusal_sites()
    assert len(sites) > 70, len(sites)  # the scan still sees the raise sites
    missing = []
    for rel, line, template in sites:
        if not re.sub(r"\{v\d+\}|[\s:;()]", "", template):
            continue  # "{path}: {error}": nothing of its own to translate
        sentence = _sample(template)
        shown = zh(sentence)
        left = ENGLISH.findall(re.sub(r"x\d+", "", shown))
        if shown == sentence or not CJK.search(shown) or left:
            missing.append(f"{rel}:{line}: {template} -> {shown}")
    print(f"\n{len(sites)} refusal sentences at their sites ({passed_on} pass one on), "
          f"{len(sites) - len(missing)} in Chinese")
    assert not missing, f"{len(missing)} refusal(s) without a template:\n" + "\n".join(missing)


# --- the refusals the importer tests trigger --------------------------------------------------
def _zip(entries: dict[str, bytes], declared: int | None = None) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in entries.items():
            zf.writestr(name, body)
    raw = bytearray(data.getvalue())
    if declared is not None:  # every entry's central directory claims ``declared`` bytes
        at = raw.find(b"PK\x01\x02")
        while at >= 0:
            raw[at + 24:at + 28] = struct.pack("<I", declared)
            at = raw.find(b"PK\x01\x02", at + 4)
    return bytes(raw)


def _refused(found: dict[str, str], source: str, call, *args, **kwargs) -> None:
    try:
        call(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - every refusal is a message to read
        found[str(exc)] = source
    else:
        raise AssertionError(f"{source}: not refused")


@pytest.fixture(scope="module")
def refusals(tmp_path_factory) -> dict[str, str]:
    """Every refusal message the importer tests' bad inputs produce -> which input."""
    from bombs import GIB, write_zip_bomb

    from question_db.interchange import importers
    from question_db.interchange import text_import as ti
    from question_db.interchange.anki import read_apkg
    from question_db.interchange.gift import read_gift
    from question_db.interchange.import_process import import_file_isolated
    from question_db.interchange.importers import import_file, import_pasted
    from question_db.interchange.moodle import read_moodle_xml
    from question_db.interchange.text_import import build, paper_text
    from test_import_formats import _mutants, _small_docx

    canvas = pytest.importorskip("reportlab.pdfgen.canvas")  # the scanned, encrypted PDFs
    tmp = tmp_path_factory.mktemp("refusals")
    found: dict[str, str] = {}

    def file(name: str, content: bytes | str) -> Path:
        path = tmp / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return path

    for name, content in [("photo.txt", bytes(range(256)) * 8), ("empty.txt", b""),
                          ("blank.txt", b"   \n\n"), ("notes.txt", "这是一段没有题号的文字。"),
                          ("gbk.txt", b"\x81\x30\x81\xff\x80 bad bytes"),
                          ("bom.txt", b"\xef\xbb\xbf\xff\xfe broken"),
                          ("fake.docx", _zip({"hello.txt": b"hi"})),
                          ("cut.docx", _small_docx()[:-200]),
                          ("bomb.docx", _zip({"word/document.xml": b"<" + bytes(4 << 20)})),
                          ("many.docx", _zip({"word/document.xml": b"<w/>",
                                              **{f"f/{k}": b"" for k in range(10_001)}})),
                          ("huge.docx", _zip({"word/document.xml": b"<w/>"}, 300 << 20)),
                          ("page.html", "<html><body><p> </p></body></html>"),
                          ("scan.pdf", b""), ("locked.pdf", b""),
                          ("damaged.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\n%%EOF"),
                          ("two.txt", "2024 模拟试卷\n一、单选题\n1.甲？\nA.a\nB.b\n答案：A\n"
                                      "2.乙？\nA.a\nB.b\n答案：B\n\n2025 真题试卷\n一、单选题\n"
                                      "1.丙？\nA.a\nB.b\n答案：A\n2.丁？\nA.a\nB.b\n答案：B\n")]:
        path = file(name, content)
        if name.endswith(".pdf") and not content:
            locked = name == "locked.pdf"
            pdf = canvas.Canvas(str(path), **({"encrypt": "secret"} if locked else {}))
            if locked:
                pdf.drawString(72, 720, "1. What is a tensor?")
            else:  # a page that is only a picture
                pdf.rect(50, 50, 400, 600, fill=1)
            pdf.showPage()
            pdf.save()
        _refused(found, name, import_file, path)
    _refused(found, "fake.docx as docx", import_file, tmp / "fake.docx", fmt="docx")
    for mutant, data in list(_mutants(_small_docx()).items())[:6]:
        _refused(found, f"docx {mutant}", import_file, file("damaged.docx", data), fmt="docx")
    _refused(found, "missing", import_file, tmp / "nope.txt")
    big = tmp / "big.txt"
    with big.open("wb") as fh:  # sparse: 51 MB on paper
        fh.truncate(paper_text.MAX_FILE_BYTES + (1 << 20))
    _refused(found, "51 MB", import_file, big, fmt="text")
    _refused(found, "million characters", build.import_text,
             "1.甲？答案：A\n" + "x" * build.MAX_CHARS, paper_id="t", name="t.md")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(paper_text, "MAX_TEXT_CHARS", 200)
        patch.setattr(ti.markdown_in, "MAX_TEXT_CHARS", 200)
        _refused(found, "long text", import_file,
                 file("long.md", "1. 这是一道相当长的题目。\nA. 甲\nB. 乙\n答案：A\n" * 20))
        patch.setitem(importers._READERS, "gift", ("question_db.interchange.nope", "x"))
        _refused(found, "no gift importer", import_file, tmp / "long.md", fmt="gift")
    _refused(found, "pasted blank", import_pasted, "  \n")
    _refused(found, "pasted notes", import_pasted, "Just notes about transformers.")
    _refused(found, "gift notes", read_gift, file("notes.gift", "// only comments\n\n"
                                                               "Just a description.\n"))
    _refused(found, "gift skipped", read_gift, file("skipped.gift", (
        "::Q1:: Match {=a -> b =c -> d =e -> f}\n\n::Q2:: Only a note.\n\n::Q3:: Open {=x\n")))
    for i, content in enumerate([
            b"<quiz><question type='multichoice'><name><text>x</name>",
            b"<?xml version='1.0'?>\n<questions/>",
            b"<?xml version='1.0'?><!DOCTYPE quiz [<!ENTITY x 'boom'>]><quiz>&x;</quiz>",
            b"<quiz><question type='description'><questiontext><text>hi</text></questiontext>"
            b"</question></quiz>"]):
        _refused(found, f"moodle {i}", read_moodle_xml, file(f"bad{i}.xml", content))
    bomb = write_zip_bomb(tmp / "bomb.apkg", "collection.anki2", 2 * GIB, others={"media": b"{}"})
    _refused(found, "apkg bomb", read_apkg, bomb)
    _refused(found, "apkg total", read_apkg, file("total.apkg", _zip(
        {"collection.anki2": b"x", "media": b"{}", "0": b"y"}, 400 << 20)))
    _refused(found, "apkg not a zip", read_apkg, file("junk.apkg", b"PK\x03\x04 junk"))
    _refused(found, "out of memory", import_file_isolated,
             REPO / "tests" / "data" / "seeds" / "001_5b9d8d0b41fe1c3c.txt",
             memory_limit=40 * 2**20)
    _refused(found, "too slow", import_file_isolated, tmp / "two.txt", timeout=0.01)
    _refused(found, "refused in the child", import_file_isolated, tmp / "photo.txt")
    return found


def test_every_refusal_the_bad_inputs_produce_reads_in_chinese(refusals):
    assert len(refusals) >= 30, len(refusals)  # the bad inputs are still refused
    english = []
    for text, source in refusals.items():
        shown = zh(text)
        head, *listed = shown.split("\n")
        if shown == text or not CJK.search(head) or any(
                not CJK.search(line) for line in listed):
            english.append(f"{source}: {text} -> {shown}")
    translated = 1 - len(english) / len(refusals)
    print(f"\n{len(refusals)} distinct refusals, {translated:.1%} in Chinese")
    assert not english, f"{len(english)} refusal(s) stay English:\n" + "\n".join(english)


def test_the_file_numbers_and_quoted_text_are_kept(refusals):
    two = next(text for text in refusals if "holds more than one paper" in text)
    path = two.split(": holds")[0]
    assert zh(two) == (f"{path}：包含不止一份试卷：第二份从第 12 行开始（“2025 真题试卷”）；"
                       "请把每份试卷单独存成一个文件，逐个导入")
    memory = next(text for text in refusals if "ran out of memory" in text)
    assert "导入程序内存不足（上限 40 MiB）" in zh(memory) and "001_5b9d8d0b41fe1c3c.txt" in zh(memory)
    assert zh("<pasted text>: is empty") == "粘贴的文本是空的"
    assert refusal_text(two, "en") == two and refusal_text(two, "fr_FR") == two


def test_a_pack_not_saved_reads_in_chinese_reason_by_reason(tmp_path):
    """The pack's frame, the disk's reason inside it, what was being written inside that."""
    from pack_write_driver import draft

    from question_db.interchange.pack import PackNotWritten, write_pack
    from question_db.messages import _REASONS, os_error_reason
    from question_db.pack_folders import pack_lock

    folder = tmp_path / "mine"
    for code in _REASONS:
        for context in ("", "writing media/a.png"):
            reason = os_error_reason(OSError(code, "x"), folder, context=context)
            shown = zh(str(PackNotWritten(folder, reason)))
            assert shown.startswith(f"{folder}：无法写入题包：") and errno.errorcode[code] in shown
            assert not ENGLISH.search(shown), shown
    (tmp_path / "notes.txt").write_text("x")
    messages = []
    for target, kwargs in ((tmp_path / "notes.txt" / "pack", {}), (tmp_path / "notes.txt", {}),
                           (tmp_path / ("n" * 250), {})):
        try:
            write_pack(draft("new", 2), target, **kwargs)
        except (OSError, ValueError) as exc:
            messages.append(str(exc))
    write_pack(draft("old", 2), folder)
    try:
        write_pack(draft("new", 2), folder)
    except OSError as exc:  # PackExists
        messages.append(str(exc))
    with pack_lock(folder):
        try:
            write_pack(draft("new", 2), folder, replace=True)
        except Exception as exc:  # noqa: BLE001 - PackLocked
            messages.append(str(exc))
    assert len(messages) == 5, messages  # a file in the way, a file, a long name, exists, locked
    for message in messages:
        shown = zh(message)
        assert shown != message and CJK.search(shown) and not ENGLISH.search(
            shown.replace(str(tmp_path), "")), shown


def test_a_full_disk_and_a_read_only_one_read_in_chinese(tmp_path):
    """Real refusals (a 64 KiB tmpfs filled, then remounted read-only): the pack, the export."""
    import subprocess

    from pack_write_driver import draft

    from question_db.bank import load_bank
    from question_db.interchange.exporters import export_papers
    from question_db.interchange.pack import PackNotWritten, write_pack

    with mounted_tmpfs(tmp_path / "small", "64k") as mnt:
        with pytest.raises(PackNotWritten) as full:
            write_pack(draft("big " * 2000, 60), mnt / "mine")
        assert zh(str(full.value)).startswith(f"{mnt / 'mine'}：无法写入题包：磁盘已满（ENOSPC")
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        out = mnt / "000.gift.txt"
        with pytest.raises(OSError) as refused:
            export_papers("gift", [load_bank().paper("000")], out)
        assert zh(export_failure(refused.value, out)) == \
            f"{out}：无法写入文件：文件系统是只读的（EROFS）"
