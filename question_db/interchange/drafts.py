"""What the Moodle XML and GIFT readers share: they collect questions under the source's
categories, and this module numbers them, cuts sections (one per run of category and
type, as the bank needs), names the paper and fills what a draft must have but the source
never says (a rubric for a subjective answer, the labels of a true/false question).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..model import BLANK_MARK, Problem, ReviewFlag
from .feedback import parse_rubric
from .pack import DraftPaper, DraftQuestion, DraftSection

__all__ = ["TYPE_TITLES", "is_chinese", "true_false_labels", "reference_rubric",
           "question_label", "paper_id_for", "DraftCollector", "FULL", "set_choice_key",
           "set_fill_key", "set_numeric_key", "set_rubric", "set_essay", "single_code_block",
           "media_file_name", "MEDIA_NAME_BYTES"]

TYPE_TITLES = {
    "single_choice": "Single choice",
    "multiple_choice": "Multiple choice",
    "fill_blank": "Fill in the blanks",
    "calculation": "Calculation",
    "short_answer": "Short answer",
    "system_design": "System design",
    "programming": "Programming",
}
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LETTER = re.compile(r"[^\W\d_]")


def is_chinese(text: str) -> bool:
    letters = len(_LETTER.findall(text))
    return bool(letters) and len(_CJK.findall(text)) * 5 >= letters


def true_false_labels(text: str) -> tuple[str, str]:
    """Option texts for a true/false question, in the language of its stem."""
    return ("正确", "错误") if is_chinese(text) else ("True", "False")


def reference_rubric(points: float, text: str) -> tuple[list[dict], ReviewFlag]:
    """The one-item rubric a subjective draft gets when its source has none."""
    label = ("与参考答案要点一致" if is_chinese(text)
             else "Matches the points of the reference answer")
    return ([{"text": label, "points": points}],
            ReviewFlag("rubric", label, "the source has no rubric: one item worth the whole "
                       "question was added; split it into the points a grader checks",
                       "rubric"))


def question_label(index: int, name: str = "") -> str:
    """How a warning names a question of the source: its position and its own name."""
    name = " ".join(re.sub(r"<[^>]*>", "", name).replace(":", " ").split())[:60]
    return f"#{index} {name}".strip() if name else f"#{index}"


def paper_id_for(path: Path) -> str:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", path.stem).strip("-")
    return slug[:60] or "imported"


# A media file's name at most (UTF-8 bytes, the extension included): file systems take 255,
# and the pack's path in front of it must still fit in a path.
MEDIA_NAME_BYTES = 100
_WINDOWS_RESERVED = re.compile(r"CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9]", re.I)
_IMAGE_TYPES = ((b"\x89PNG\r\n\x1a\n", ".png"), (b"\xff\xd8\xff", ".jpg"), (b"GIF8", ".gif"),
                (b"BM", ".bmp"), (b"<svg", ".svg"))


def _sniffed_extension(data: bytes) -> str:
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    return next((ext for magic, ext in _IMAGE_TYPES if data.startswith(magic)), "")


def media_file_name(name: str, data: bytes) -> tuple[str, str, str]:
    """(stem, extension, why) of the file an embedded file called ``name`` is stored as:
    characters other than letters, digits, ``.`` and ``-`` become ``_``; ``why`` says what
    else had to change, "" when nothing did: a path (only its last part is kept), no name
    left (``.``, ``..``, ``.png``: ``image`` plus the extension its bytes show), more than
    ``MEDIA_NAME_BYTES`` bytes (cut, the extension kept), a name Windows reserves."""
    why = ""
    base = re.split(r"[/\\]", name)[-1]
    if base != name:
        why = "is a path, not a file name"
    safe = re.sub(r"[^\w.-]+", "_", base)
    stem, ext = re.fullmatch(r"(.*?)((?:\.[A-Za-z0-9]{1,8})?)", safe).groups()
    stem = stem.strip(".")
    if not stem:
        why = why or "has no usable file name"
        ext = ext or _sniffed_extension(data)
        stem = "image" if _sniffed_extension(data) else "file"
    room = MEDIA_NAME_BYTES - len(ext)
    if len(stem.encode("utf-8")) > room:
        why = why or f"is {len(name.encode('utf-8', 'replace'))} bytes long, too long for a " \
                     f"file name"
        stem = stem.encode("utf-8")[:room].decode("utf-8", "ignore")
    first, dot, rest = stem.partition(".")  # Windows reserves CON.tar as it does CON
    if _WINDOWS_RESERVED.fullmatch(first):
        why = why or "is reserved on Windows"
        stem = f"{first}_{dot}{rest}"
    return stem, ext, why


@dataclass
class _Entry:
    category: tuple[str, ...]
    question: DraftQuestion


@dataclass
class DraftCollector:
    """Questions as a reader finds them, plus what it skipped (``warnings``)."""

    path: Path
    warnings: list[Problem] = field(default_factory=list)
    media: dict[str, bytes] = field(default_factory=dict)
    category_info: dict[tuple[str, ...], str] = field(default_factory=dict)
    _entries: list[_Entry] = field(default_factory=list)

    def warn(self, question: str, field_name: str, message: str) -> None:
        self.warnings.append(Problem(str(self.path), question, field_name, message))

    def add(self, category: tuple[str, ...], question: DraftQuestion) -> None:
        self._entries.append(_Entry(category, question))

    def add_media(self, name: str, data: bytes, *, question: str = "", field_name: str = "",
                  what: str = "file") -> str:
        """Store a file under ``media/`` (a new name if taken by other bytes); its path.

        The name is the source's with characters other than letters, digits, ``.``, ``-``
        replaced by ``_``; one no file system takes (``.``, ``..``, 300 characters, a path,
        ``CON``) is changed further (``media_file_name``), with a warning naming
        ``question`` and ``field_name`` when they are given."""
        stem, ext, why = media_file_name(name, data)
        candidate = f"media/{stem}{ext}"
        n = 1
        while candidate in self.media and self.media[candidate] != data:
            n += 1
            candidate = f"media/{stem}_{n}{ext}"
        self.media[candidate] = data
        if why and question:
            shown = name if len(name) <= 40 else name[:40] + "…"
            self.warn(question, field_name, f"{what} {shown!r} {why}; saved as {candidate}")
        return candidate

    @property
    def count(self) -> int:
        return len(self._entries)

    def paper(self, *, paper_id: str | None, title: str | None, source: str) -> DraftPaper:
        """Number the questions in file order and cut the sections."""
        categories = [e.category for e in self._entries]
        firsts = {c[0] for c in categories if c}
        shared = len(firsts) == 1 and all(categories)
        paper_title = title or (next(iter(firsts)) if shared else self.path.stem)

        def section_title(category: tuple[str, ...], qtype: str) -> str:
            rest = category[1:] if shared else category
            return " / ".join(rest) or TYPE_TITLES[qtype]

        runs: list[list[_Entry]] = []
        for entry in self._entries:
            if (runs and runs[-1][0].category == entry.category
                    and runs[-1][0].question.type == entry.question.type):
                runs[-1].append(entry)
            else:
                runs.append([entry])
        titles = [section_title(run[0].category, run[0].question.type) for run in runs]
        sections = []
        questions = []
        number = 0
        for run, sec_title in zip(runs, titles):
            qtype = run[0].question.type
            if titles.count(sec_title) > 1 and sec_title != TYPE_TITLES[qtype]:
                sec_title = f"{sec_title} ({TYPE_TITLES[qtype]})"
            first = number + 1
            for entry in run:
                number += 1
                entry.question.number = number
                questions.append(entry.question)
            info = self.category_info.get(run[0].category, "")
            scoring, _, note = info.partition("\n\n")
            sections.append(DraftSection(
                title=sec_title, type=qtype, first=first, last=number,
                points=sum(e.question.points for e in run), scoring=scoring.strip(),
                multiple_choice_rule="partial", note=note.strip()))
        text = " ".join(q.stem for q in questions[:50])
        return DraftPaper(
            id=paper_id or paper_id_for(self.path), title=paper_title, sections=sections,
            questions=questions, language="zh-Hans" if is_chinese(text) else "en",
            duration_note="The source states no duration; adjust it before an exam.",
            source=source, media=dict(self.media))


# --- from a source's answers to a draft's key ---------------------------------------------
# Both Moodle XML and GIFT give each answer a share of the marks (1.0 = 100 %).

FULL = 1 - 1e-5  # a share at least this is full credit (Moodle's own tolerance)


def set_choice_key(q: DraftQuestion, options: list[tuple[str, float]], *, single: bool,
                   key: str | None = None) -> None:
    """Options A, B, … and the key from each option's share of the marks.

    ``key`` (an examdesk export's own note of the verified key) picks among several
    full-credit options; the others are flagged for a person to mark the question disputed.
    """
    letters = [chr(ord("A") + i) for i in range(len(options))]
    q.options = {letter: text or "(empty)" for letter, (text, _) in zip(letters, options)}
    shares = {letter: share for letter, (_, share) in zip(letters, options)}
    full = [k for k, s in shares.items() if s >= FULL]
    positive = [k for k, s in shares.items() if s > 0]
    if not single:
        if positive:
            q.answer = q.seed_answer = sorted(positive)
        else:
            q.review.append(ReviewFlag("no_key", "", "no option has a positive grade",
                                       "answer"))
        return
    if not full:
        q.review.append(ReviewFlag("no_key", "", "no option is worth 100%", "answer"))
    else:
        chosen = key if key in full else full[0]
        q.answer = q.seed_answer = chosen
        others = [k for k in full if k != chosen]
        if others:
            q.review.append(ReviewFlag(
                "also_accept", ", ".join(others), "the source gives full marks for these "
                "options too: mark the question disputed with also_accept if that is right",
                "answer"))
    partial = [k for k in positive if k not in full]
    if partial:
        q.review.append(ReviewFlag(
            "partial_credit", ", ".join(f"{k} {shares[k]:.0%}" for k in partial),
            "examdesk scores a single choice all or nothing", "answer"))


def set_fill_key(q: DraftQuestion, answers: list[tuple[str, float]]) -> bool:
    """One blank's accepted variants from short answers (``\\*`` is a literal star; a bare
    ``*`` is a wildcard, which examdesk cannot grade). False if none earns full marks."""
    variants, flagged = [], []
    for text, share in answers:
        if not text:
            continue
        if re.search(r"(?<!\\)\*", text):
            flagged.append(text)
        elif share >= FULL:
            variants.append(text.replace("\\*", "*"))
        elif share > 0:
            flagged.append(f"{text} ({share:.0%})")
    if flagged:
        q.review.append(ReviewFlag("partial_credit", "; ".join(flagged),
                                   "wildcard or partial-credit answers are not carried",
                                   "answer"))
    if not variants:
        return False
    blanks = len(BLANK_MARK.findall(q.stem))
    if blanks == 0:
        q.stem = q.stem + " ____"
    elif blanks > 1:  # one answer box: the first run stays the blank
        counter = iter(range(blanks))
        q.stem = BLANK_MARK.sub(lambda m: m.group(0) if next(counter) == 0 else "___", q.stem)
        q.review.append(ReviewFlag("blanks", str(blanks), "the text has several blanks but the "
                                   "source has one answer box: only the first is a blank now",
                                   "stem"))
    q.answer = [variants]
    q.seed_answer = [variants[0]]
    return True


def set_numeric_key(q: DraftQuestion, keys: list[tuple[float, float, float]],
                    unit: str = "") -> bool:
    """A one-part calculation from ``(share, value, tolerance)`` answers; False if none
    earns full marks. Other answers (close values for partial credit) are flagged."""
    full = [k for k in keys if k[0] >= FULL]
    if not full:
        return False
    _, value, tolerance = full[0]
    others = [k for k in keys if k is not full[0]]
    if others:
        q.review.append(ReviewFlag(
            "alternatives", "; ".join(f"{v:g} ± {t:g} ({s:.0%})" for s, v, t in others),
            "only the first full-credit answer is kept as the key", "answer"))
    q.parts = [{"label": "(1)", "value": value, "tolerance": abs(tolerance), "unit": unit,
                "points": q.points - sum(r["points"] for r in q.rubric)}]
    if not q.reference_answer:
        q.reference_answer = q.explanation or f"{value:g} ± {tolerance:g} {unit}".strip()
    return True


def set_rubric(q: DraftQuestion, rubric_markdown: str) -> None:
    """The rubric an examdesk export wrote (``feedback.rubric_markdown``); else, for a
    subjective answer, one item worth the whole question, flagged for review. A
    calculation keeps its points (its numeric parts share them with the rubric)."""
    items = parse_rubric(rubric_markdown)
    if items:
        q.rubric = [{"text": r.text, "points": r.points, **({"auto": True} if r.auto else {})}
                    for r in items]
        total = sum(r.points for r in items)
        if q.type != "calculation" and abs(total - q.points) > 1e-6:
            q.points = total
    elif q.type != "calculation":
        q.rubric, flag = reference_rubric(q.points, q.stem)
        q.review.append(flag)


def set_essay(q: DraftQuestion, reference: str, *, starter: str = "") -> None:
    """A subjective draft: the reference answer (for programming, a single code block is
    the reference solution), the starter code, and the rubric via ``set_rubric``."""
    if q.type == "programming":
        code = single_code_block(reference)
        q.code = {k: v for k, v in (("reference", code), ("starter", starter)) if v}
        if not q.code:  # nothing to run: a programming draft needs code
            q.type = "short_answer"
            q.answer = reference
        elif code is None and reference:
            q.explanation = "\n\n".join(p for p in (q.explanation, reference) if p)
    elif q.type == "calculation":  # a calculation with a rubric only
        q.reference_answer = reference or q.reference_answer or "(none)"
        if q.rubric:
            q.points = sum(r["points"] for r in q.rubric)
        else:
            q.rubric, flag = reference_rubric(q.points, q.stem)
            q.review.append(flag)
    else:
        q.answer = reference
        if starter:
            q.stem = f"{q.stem}\n\n{starter}"


def single_code_block(markdown: str) -> str | None:
    """The code of a text that is exactly one fenced block, else None."""
    m = re.fullmatch(r"```[\w+-]*\n(.*)\n```", markdown.strip(), re.S)
    return m.group(1) if m else None
