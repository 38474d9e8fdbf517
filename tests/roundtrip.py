"""Field-by-field comparison of a bank question with the draft it came back as, after a
trip through an exchange format (tests/test_interchange_*.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

from question_db.bank import load_paper
from question_db.interchange.markup import canonical_markdown
from question_db.interchange.pack import ImportResult, write_pack
from question_db.model import BLANK_MARK, Paper, Question


def load_result(result: ImportResult, folder: Path) -> Paper:
    """Write the draft as a pack (validated by the loader) and load it back."""
    shutil.rmtree(folder, ignore_errors=True)
    return write_pack(result.paper, folder)


def text(markdown: str) -> str:
    """What survives HTML: the canonical Markdown, with every blank written ``____``."""
    return BLANK_MARK.sub("____", canonical_markdown(markdown))


def rubric(items) -> list[tuple[str, float, bool]]:
    return [(" ".join(r.text.split()), round(r.points, 9), r.auto) for r in items]


def assert_same(orig: Question, back: Question, *fields: str) -> None:
    """``back`` carries each of ``fields`` of ``orig`` (a clear message names the field)."""
    for name in fields:
        if name in ("stem", "explanation", "errata", "reference_answer"):
            want, got = text(getattr(orig, name)), text(getattr(back, name))
        elif name == "answer" and orig.type in ("short_answer", "system_design"):
            want, got = text(orig.answer), text(back.answer)
        elif name == "options":
            want = {k: text(v) for k, v in orig.options.items()}
            got = {k: text(v) for k, v in (back.options or {}).items()}
        elif name == "rubric":
            want, got = rubric(orig.rubric), rubric(back.rubric)
        elif name == "parts":
            want = [(p.label, p.value, p.tolerance, p.unit, p.points) for p in orig.parts]
            got = [(p.label, p.value, p.tolerance, p.unit, round(p.points, 9)) for p in back.parts]
        elif name in ("code.reference", "code.starter"):
            which = name.split(".")[1]
            want = orig.code.read(which).rstrip()
            got = back.code.read(which).rstrip() if back.code else None
        elif name in ("points", "blank_points"):
            want = [round(v, 9) for v in (getattr(orig, name) if name == "blank_points"
                                          else [orig.points])]
            got = [round(v, 9) for v in (getattr(back, name) if name == "blank_points"
                                         else [back.points])]
        else:
            want, got = getattr(orig, name), getattr(back, name)
        assert got == want, f"{orig.id} -> {back.id}: {name}: {got!r} != {want!r}"
    assert back.status == "draft", back.id


def review_kinds(q: Question) -> set[str]:
    return {flag.kind for flag in q.review}


def fresh_copy(paper: Paper, tmp_path: Path) -> Path:
    dest = tmp_path / "source" / paper.folder.name
    shutil.copytree(paper.folder, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def load(folder: Path) -> Paper:
    problems: list = []
    paper = load_paper(folder, problems)
    assert paper is not None and not problems, problems
    return paper


def trip(paper: Paper, tmp: Path, write, read, suffix: str):
    """Export ``paper`` with ``write``, read the file back with ``read``, load the pack:
    ``(paper, file, export warnings, ImportResult, loaded pack)``."""
    out = tmp / f"{paper.id}{suffix}"
    exported = write([paper], out)
    result = read(out)
    return paper, out, exported, result, load_result(result, tmp / "pack")


def image_pack(folder: Path, data: bytes, alt: str = "flag") -> Paper:
    """A one-question pack whose stem shows ``media/flag.png``."""
    from question_db.interchange.pack import DraftPaper, DraftQuestion, DraftSection

    draft = DraftPaper(
        id="img", title="Images", sections=[DraftSection("One", "single_choice", 1, 1, 1)],
        questions=[DraftQuestion(number=1, type="single_choice", points=1,
                                 stem=f"Which flag?\n\n![{alt}](media/flag.png)",
                                 options={"A": "Red", "B": "Blue"}, answer="B",
                                 seed_answer="B")],
        media={"media/flag.png": data})
    return write_pack(draft, folder)


def one_part_calculation_pack(folder: Path) -> Paper:
    """A pack with one calculation of a single numeric part plus a self-marked rubric."""
    from question_db.interchange.pack import DraftPaper, DraftQuestion, DraftSection

    question = DraftQuestion(
        number=1, type="calculation", points=3, status="ok", stem="显存：65B 参数 × 16 B = ?",
        parts=[{"label": "(1)", "value": 1040.0, "tolerance": 5.0, "unit": "GB", "points": 2}],
        rubric=[{"text": "写出 16 B/参数的构成", "points": 1}],
        reference_answer="65 × 16 = 1040 GB", explanation="逐字节相加。", seed_answer="")
    draft = DraftPaper(id="calc", title="Calc", questions=[question],
                       sections=[DraftSection("计算", "calculation", 1, 1, 3)])
    return write_pack(draft, folder)
