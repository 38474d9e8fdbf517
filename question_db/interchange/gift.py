"""GIFT (Moodle's plain-text quiz format): export the bank, import GIFT files.

Written from Moodle's "GIFT format" documentation and checked against what Moodle's own
reader (``question/format/gift/format.php``) does with each construct: questions are
separated by blank lines; ``//`` lines are comments; ``$CATEGORY:`` switches category;
``::title::``; ``[html]``/``[markdown]``/``[plain]``/``[moodle]`` text formats; escapes
``\\~ \\= \\# \\{ \\} \\: \\\\ \\n``; answers in braces — ``{=right ~wrong}`` (choice),
``~%50%`` / ``~%-100%`` weights, ``{T}``/``{TRUE}``/``{F}``/``{FALSE}``,
``{=a =b}`` (short answer; with text after the brace it is a missing-word question),
``{#3.14:0.01}``, ``{#1..2}`` and several ``{#=…=…}`` numeric answers, ``{}`` (essay),
``#feedback`` per answer and ``####general feedback``.

What GIFT cannot carry (``docs/interchange.md``): points, images (files), units, several
blanks or numeric parts in one question, a rubric as points, code checks. The exporter
warns for each question that loses one of these, and writes every line break as ``\\n`` so
Moodle, which trims each line and ends a question at a blank line, keeps code indentation.
An exported question is preceded by an ``// examdesk {…}`` comment (id, type, points,
topics, the verified key of a disputed question) that Moodle ignores and the reader uses.
"""
from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from ..model import BLANK_MARK, Paper, Problem, Question, ReviewFlag
from . import feedback
from .drafts import (DraftCollector, question_label, set_choice_key, set_essay, set_fill_key,
                     set_numeric_key, set_rubric, single_code_block, true_false_labels)
from .encoding import read_text_file
from .markup import (canonical_markdown, html_to_markdown, inline_markdown_to_html,
                     markdown_to_html, plain_text)
from .moodle import moodle_fraction, nearest_moodle_fraction, percent_text
from .pack import DraftQuestion, ImportResult
from ..atomic_file import write_atomically
from .writing import dropped, has_key

__all__ = ["FORMAT", "HINT", "GiftError", "escape", "gift_text", "write_gift", "read_gift"]

FORMAT = "gift"
HINT = "// examdesk "
_ESCAPES = {"\\\\": "\ue100", "\\:": "\ue101", "\\#": "\ue102", "\\=": "\ue103",
            "\\{": "\ue104", "\\}": "\ue105", "\\~": "\ue106", "\\n": "\ue107"}
_UNESCAPED = {"\ue100": "\\", "\ue101": ":", "\ue102": "#", "\ue103": "=", "\ue104": "{",
              "\ue105": "}", "\ue106": "~", "\ue107": "\n"}
_FORMAT_PREFIX = re.compile(r"^\s*\[(html|markdown|plain|moodle)\]", re.I)
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d*)?)%")
_BLOCK_TAG = re.compile(r"<(p|div|br|ul|ol|li|table|pre|h[1-6])\b", re.I)


class GiftError(ValueError):
    """The file holds no GIFT question at all; ``str()`` names the file."""


# --- export -------------------------------------------------------------------------------


def escape(text: str) -> str:
    """Text for a GIFT file: reserved characters escaped, line breaks written ``\\n``."""
    out = text.replace("\\", "\\\\")
    for ch in "#=~{}:":
        out = out.replace(ch, "\\" + ch)
    return out.replace("\r", "").replace("\n", "\\n")


class _Writer:
    def __init__(self, paper: Paper, q: Question, warnings: list[Problem]):
        self.paper, self.q, self.warnings = paper, q, warnings

    def drop(self, field: str, message: str) -> None:
        self.warnings.append(dropped(self.q, field, FORMAT, message))

    def image_src(self, src: str) -> str | None:
        if re.match(r"^[a-z][a-z0-9+.-]*:", src, re.I):
            return src
        self.drop("stem", f"image {src!r}: GIFT cannot carry files; only its text is kept")
        return None

    def html(self, markdown: str, *, inline: bool = False) -> str:
        render = inline_markdown_to_html if inline else markdown_to_html
        return escape(render(markdown, image_src=self.image_src))

    def feedback(self, markdown: str) -> str:
        return f"\n\t####{self.html(markdown)}" if markdown.strip() else ""


def _hint(q: Question, extra: dict | None = None) -> str:
    data = {"id": q.id, "type": q.type, "points": q.points, "topics": list(q.topics),
            **(extra or {})}
    return HINT + json.dumps(data, ensure_ascii=False)


def _title(q: Question) -> str:
    return f"::{escape(f'{q.id} {plain_text(q.stem)[:40]}'.strip())}::"


def _question(paper: Paper, q: Question, warnings: list[Problem]) -> str:
    w = _Writer(paper, q, warnings)
    compose = functools.partial(feedback.compose, language=paper.language)
    general = compose(q.explanation, (feedback.ERRATA, q.errata))
    head = _title(q) + "[html]"
    extra: dict = {}
    if not has_key(q):
        w.drop("answer", f"no correct answer ({q.status}): exported as a description, which "
                         f"Moodle does not score")
        body = "\n\n".join(p for p in (
            q.stem, "\n".join(f"{k}. {v}" for k, v in (q.options or {}).items()),
            q.explanation) if p)
        return f"{_hint(q)}\n{head}{w.html(compose(body, (feedback.ERRATA, q.errata)))}\n"
    if q.type in ("single_choice", "multiple_choice"):
        lines = []
        if q.type == "single_choice":
            correct = {q.answer, *q.also_accept}
            if q.also_accept:
                extra["key"] = q.answer
            for letter, option in q.options.items():
                lines.append(("=" if letter in correct else "~") + w.html(option, inline=True))
        else:
            correct = set(q.answer)
            share = moodle_fraction(1 / len(correct))
            for letter, option in q.options.items():
                weight = percent_text(share if letter in correct else -1.0)
                lines.append(f"~%{weight}%" + w.html(option, inline=True))
            for alt in q.also_accept:
                w.drop("also_accept", f"alternative key {''.join(alt)} not carried")
            section = paper.section_of(q)
            if section and section.multiple_choice_rule == "all_or_nothing":
                w.drop("multiple_choice_rule", "all-or-nothing scoring becomes partial credit")
        answers = "".join(f"\n\t{line}" for line in lines)
        return (f"{_hint(q, extra)}\n{head}{w.html(q.stem)}{{{answers}{w.feedback(general)}"
                f"\n}}\n")
    if q.type == "fill_blank" and len(q.answer) == 1:
        before, after = BLANK_MARK.split(q.stem, maxsplit=1)
        variants = " ".join("=" + escape(v.replace("*", "\\*")) for v in q.answer[0])
        # the stem around the blank is rendered whole, then cut at a marker that survives
        marker = "\ue000"
        rendered = w.html(f"{before}{marker}{after}")
        pre, post = rendered.split(marker, 1)  # "</p>" at least follows: a missing word
        return f"{_hint(q)}\n{head}{pre}{{{variants}{w.feedback(general)}}}{post}\n"
    if q.type == "calculation" and len(q.parts) == 1:
        part = q.parts[0]
        if part.unit:
            w.drop("answer[0].unit", f"GIFT numerical answers have no unit ({part.unit!r})")
        if part.label and part.label != "(1)":
            w.drop("answer[0].label", f"a numerical question has no label: {part.label!r}")
        if q.rubric:
            w.drop("rubric", "the self-marked rubric goes into the general feedback")
        general = compose(q.explanation, (feedback.REFERENCE, q.reference_answer),
                                   (feedback.RUBRIC, feedback.rubric_markdown(q.rubric)),
                                   (feedback.ERRATA, q.errata))
        key = f"{part.value:.15g}:{part.tolerance:.15g}"
        return f"{_hint(q)}\n{head}{w.html(q.stem)}{{#{key}{w.feedback(general)}\n}}\n"
    # everything else is an essay: the reference answer and the rubric go into the feedback;
    # the key of a fill-in or calculation GIFT cannot hold becomes rubric lines (same points)
    stem = q.stem
    rubric = list(q.rubric)
    if q.type == "fill_blank":
        w.drop("answer", f"{len(q.answer)} blanks: a GIFT question has one answer set, so it "
                         f"is exported as an essay with the key in the feedback")
        reference = "\n".join(f"{i + 1}. " + " / ".join(f"`{v}`" for v in variants)
                              for i, variants in enumerate(q.answer))
        rubric = [feedback.RubricLine(f"({i + 1}) " + " / ".join(variants), points)
                  for i, (variants, points) in enumerate(zip(q.answer, q.blank_points))]
    elif q.type == "calculation":
        w.drop("answer", f"{len(q.parts)} numeric parts: a GIFT numerical question has one, "
                         f"so it is exported as an essay with the key in the feedback")
        reference = q.reference_answer
        rubric = [feedback.RubricLine(f"{p.label}: {p.value:.15g} ± {p.tolerance:.15g} "
                                      f"{p.unit}".rstrip(), p.points) for p in q.parts] + rubric
    elif q.type == "programming":
        code = q.code.read("reference").rstrip() if q.code else ""
        reference = f"```python\n{code}\n```"
        starter = q.code.read("starter").rstrip() if q.code else ""
        if starter:
            stem = compose(stem, (feedback.STARTER, f"```python\n{starter}\n```"))
        if q.code and (q.code.check or q.code.wrong):
            w.drop("code.check", "the check suite is not exported")
    else:
        reference = q.answer or ""
    general = compose(q.explanation, (feedback.REFERENCE, reference),
                               (feedback.RUBRIC, feedback.rubric_markdown(rubric)),
                               (feedback.ERRATA, q.errata))
    return f"{_hint(q)}\n{head}{w.html(stem)}{{{w.feedback(general)}\n}}\n"


def gift_text(papers: list[Paper]) -> tuple[str, list[Problem]]:
    """The GIFT file for ``papers`` and the warnings about what it drops."""
    warnings: list[Problem] = []
    chunks = ["// examdesk export (GIFT). Moodle: Question bank > Import > GIFT format."]
    for paper in papers:
        for section in paper.sections:
            category = "/".join(n.replace("/", "-") for n in (paper.title, section.title))
            chunks.append(f"$CATEGORY: $course$/top/{category}")
            for q in paper.questions:
                if section.contains(q.number):
                    if q.status == "draft":
                        warnings.append(dropped(q, "status", FORMAT, "a draft (unverified) "
                                                                     "question"))
                    chunks.append(_question(paper, q, warnings).rstrip("\n"))
    return "\n\n".join(chunks) + "\n", warnings


def write_gift(papers: list[Paper], out: Path | str) -> list[Problem]:
    """Write ``papers`` as one GIFT file (UTF-8, atomically); the warnings."""
    text, warnings = gift_text(papers)
    write_atomically(out, text.encode("utf-8"))
    return warnings


# --- import -------------------------------------------------------------------------------


def _protect(text: str) -> str:
    for seq, ph in _ESCAPES.items():
        text = text.replace(seq, ph)
    return text


def _restore(text: str) -> str:
    for ph, ch in _UNESCAPED.items():
        text = text.replace(ph, ch)
    return text


@dataclass
class _Chunk:
    line: int  # first line of the chunk in the file (1-based)
    lines: list[str]  # the question's lines, comments removed
    hint: dict


def _chunks(text: str) -> list[_Chunk]:
    """Questions as Moodle cuts them: blank lines separate, ``//`` lines are comments. A
    chunk left with an open brace is joined to the next one when that one closes it first
    (a blank line inside the answers, which Moodle itself would reject)."""
    out: list[_Chunk] = []
    current: list[str] = []
    hint: dict = {}
    start = 0
    for n, raw in enumerate(text.split("\n") + [""], 1):
        line = raw.strip()
        if line.startswith("//"):
            if line.startswith(HINT.strip()):
                try:
                    hint = json.loads(line[len(HINT.strip()):].strip())
                except ValueError:
                    hint = {}
            continue
        if line:
            if not current:
                start = n
            current.append(line)
            continue
        if current:
            out.append(_Chunk(start, current, hint if isinstance(hint, dict) else {}))
            current, hint = [], {}
    merged: list[_Chunk] = []
    for chunk in out:
        if merged and _open_brace(merged[-1].lines) and _closes_first(chunk.lines):
            merged[-1].lines.extend(chunk.lines)
        else:
            merged.append(chunk)
    return merged


def _open_brace(lines: list[str]) -> bool:
    text = _protect("\n".join(lines))
    return text.rfind("{") > text.rfind("}")


def _closes_first(lines: list[str]) -> bool:
    text = _protect("\n".join(lines))
    close, opening = text.find("}"), text.find("{")
    return close >= 0 and (opening < 0 or close < opening)


def _text_to_markdown(text: str, fmt: str) -> str:
    text = text.strip()
    if fmt == "html":
        return html_to_markdown(text)
    if fmt == "markdown":
        return canonical_markdown(text)
    if fmt == "plain":
        return text
    # moodle auto-format: HTML allowed, line breaks are breaks
    return html_to_markdown(text if _BLOCK_TAG.search(text) else text.replace("\n", "<br>"))


def _split_format(text: str, default: str) -> tuple[str, str]:
    m = _FORMAT_PREFIX.match(text)
    return (text[m.end():], m.group(1).lower()) if m else (text, default)


def _split_feedback(answer: str) -> tuple[str, str]:
    text, _, fb = answer.partition("#")
    return text.strip(), fb.strip()


class _Reader:
    def __init__(self, path: Path):
        self.path = path
        self.collector = DraftCollector(path)
        self.category: tuple[str, ...] = ()
        self.index = 0

    def read(self, text: str) -> None:
        for chunk in _chunks(text):
            body = _protect("\n".join(chunk.lines))
            if body.startswith("$CATEGORY:"):
                first, _, rest = body.partition("\n")
                self.set_category(_restore(first[len("$CATEGORY:"):]).strip())
                if not rest.strip():
                    continue
                body = rest.strip()
            self.index += 1
            label = f"{question_label(self.index)} (line {chunk.line})"
            try:
                q = self.question(body, chunk, label)
            except _Skip as skip:
                self.collector.warn(skip.label or label, skip.field_name, f"{skip}; skipped")
                continue
            topics = chunk.hint.get("topics")
            if isinstance(topics, list):
                q.topics = [t for t in topics if isinstance(t, str) and t]
            self.collector.add(self.category, q)

    def set_category(self, path: str) -> None:
        parts = [p.strip() for p in path.split("/") if p.strip()]
        if parts and re.fullmatch(r"\$\w+\$", parts[0]):
            parts = parts[1:]
        if parts and parts[0] == "top":
            parts = parts[1:]
        self.category = tuple(parts)

    def question(self, body: str, chunk: _Chunk, label: str) -> DraftQuestion:
        name = ""
        if body.startswith("::"):
            end = body.find("::", 2)
            if end >= 0:
                name, body = _restore(body[2:end]).strip(), body[end + 2:].strip()
        if name:
            label = f"{question_label(self.index, name)} (line {chunk.line})"
        opening, closing = body.find("{"), body.find("}")
        if opening < 0 and closing < 0:
            raise _Skip("type", "pseudo-question 'description' (no answer braces) is not "
                                "supported", label)
        if opening >= 0 and body.find("}", opening) < 0:
            raise _Skip("braces", "unterminated '{': the answers never close", label)
        if opening < 0 or closing < opening:
            raise _Skip("braces", "a '}' without its '{' (escape it as \\})", label)
        closing = body.find("}", opening)
        answer_text = body[opening + 1:closing].strip()
        after = body[closing + 1:]
        text = body[:opening] + ("_____" + after if after.strip() else "")
        general = ""
        if "####" in answer_text:
            at = answer_text.rfind("####")
            answer_text, general = answer_text[:at].strip(), answer_text[at + 4:]
        qtext, fmt = _split_format(_restore(text), "moodle")
        stem = _text_to_markdown(qtext, fmt)
        gf, gf_fmt = _split_format(_restore(general), fmt)
        parts = feedback.split(_text_to_markdown(gf, gf_fmt)) if gf.strip() else {}
        points = chunk.hint.get("points", 1)
        if not isinstance(points, (int, float)) or isinstance(points, bool) or points < 0:
            points = 1
        q = DraftQuestion(number=0, type="short_answer", points=float(points),
                          stem=stem or "(no text)", explanation=parts.get("", ""),
                          errata=parts.get(feedback.ERRATA, ""),
                          reference_answer=parts.get(feedback.REFERENCE, ""))
        hint_type = chunk.hint.get("type")
        if not answer_text:
            return self.essay(q, hint_type, parts)
        if answer_text.startswith("#"):
            return self.numerical(q, answer_text[1:], fmt, parts, label)
        if "~" in answer_text:
            return self.choice(q, answer_text, fmt, label, chunk.hint.get("key"))
        if "=" in answer_text and "->" in answer_text:
            raise _Skip("type", "question type 'matching' is not supported", label)
        tf = _restore(_split_feedback(answer_text)[0]).strip()
        if tf in ("T", "TRUE", "F", "FALSE"):
            return self.true_false(q, answer_text, fmt)
        return self.short_answer(q, answer_text, fmt, label)

    def warn_weight(self, q: DraftQuestion, label: str, which: str, raw: str,
                    share: float) -> None:
        if moodle_fraction(share) is None:
            self.collector.warn(label, f"answer {which}.weight",
                                f"{raw}% is not one of Moodle's grades (nearest: "
                                f"{percent_text(nearest_moodle_fraction(share))}%); Moodle "
                                f"would refuse this question")
            q.review.append(ReviewFlag("weight", f"{raw}%", "a grade Moodle does not accept",
                                       f"answer {which}"))

    def choice(self, q: DraftQuestion, answer_text: str, fmt: str, label: str,
               key: object) -> DraftQuestion:
        single = "=" in answer_text
        raw_answers = [a.strip() for a in answer_text.replace("=", "~=").split("~")]
        raw_answers = [a for a in raw_answers if a]
        if len(raw_answers) < 2:
            raise _Skip("answer", "a choice question needs two options", label)
        if len(raw_answers) > 26:
            raise _Skip("answer", f"{len(raw_answers)} options: more than A-Z", label)
        q.type = "single_choice" if single else "multiple_choice"
        options, notes = [], []
        for i, raw in enumerate(raw_answers):
            letter = chr(ord("A") + i)
            share = 0.0
            if raw.startswith("="):
                share, raw = 1.0, raw[1:].lstrip()
            weight = _WEIGHT.match(raw)
            if weight:
                share = float(weight.group(1)) / 100
                self.warn_weight(q, label, letter, weight.group(1), share)
                raw = raw[weight.end():]
            text, fb = _split_feedback(raw)
            text, afmt = _split_format(_restore(text), fmt)
            options.append((_text_to_markdown(text, afmt), share))
            if fb:
                fb_text, ffmt = _split_format(_restore(fb), fmt)
                notes.append(f"- {letter}: {_text_to_markdown(fb_text, ffmt)}")
        set_choice_key(q, options, single=single, key=key if isinstance(key, str) else None)
        if notes:
            q.explanation = "\n\n".join(p for p in (q.explanation, "\n".join(notes)) if p)
        return q

    def true_false(self, q: DraftQuestion, answer_text: str, fmt: str) -> DraftQuestion:
        pieces = [_restore(p).strip() for p in answer_text.split("#", 2)]
        correct = pieces[0] in ("T", "TRUE")
        true_label, false_label = true_false_labels(q.stem)
        q.type = "single_choice"
        set_choice_key(q, [(true_label, float(correct)), (false_label, float(not correct))],
                       single=True)
        notes = []
        for title, text in (("✗", pieces[1] if len(pieces) > 1 else ""),
                            ("✓", pieces[2] if len(pieces) > 2 else "")):
            if text:
                body, ffmt = _split_format(text, fmt)
                notes.append(f"- {title} {_text_to_markdown(body, ffmt)}")
        if notes:
            q.explanation = "\n\n".join(p for p in (q.explanation, "\n".join(notes)) if p)
        return q

    def equal_answers(self, q: DraftQuestion, answer_text: str,
                      label: str) -> list[tuple[float, str]]:
        """The ``=``-separated answers of a short-answer or numerical question, each with
        its share of the marks (100 % unless ``%w%`` says otherwise)."""
        out = []
        for raw in (a.strip() for a in answer_text.split("=")):
            if not raw:
                continue
            share = 1.0
            weight = _WEIGHT.match(raw)
            if weight:
                share = float(weight.group(1)) / 100
                self.warn_weight(q, label, str(len(out) + 1), weight.group(1), share)
                raw = raw[weight.end():]
            out.append((share, raw))
        return out

    def short_answer(self, q: DraftQuestion, answer_text: str, fmt: str,
                     label: str) -> DraftQuestion:
        q.type = "fill_blank"
        answers = []
        for share, raw in self.equal_answers(q, answer_text, label):
            text, _ = _split_feedback(raw)
            answers.append((_split_format(_restore(text), "plain")[0].strip(), share))
        if not set_fill_key(q, answers):
            raise _Skip("answer", "a short-answer question without a 100% answer", label)
        return q

    def numerical(self, q: DraftQuestion, answer_text: str, fmt: str,
                  parts: dict[str, str], label: str) -> DraftQuestion:
        q.type = "calculation"
        set_rubric(q, parts.get(feedback.RUBRIC, ""))
        answer_text = answer_text.split("~", 1)[0]  # "~#feedback": for any other answer
        keys = []
        for share, raw in self.equal_answers(q, answer_text, label):
            value_text = _restore(_split_feedback(raw)[0]).strip()
            try:
                if ".." in value_text:  # in decimal, so {#3.141..3.142} is 3.1415 ± 0.0005
                    low, high = (Decimal(v.strip()) for v in value_text.split("..", 1))
                    keys.append((share, float((low + high) / 2), float(abs(high - low) / 2)))
                elif ":" in value_text:
                    value, tolerance = (float(v) for v in value_text.split(":", 1))
                    keys.append((share, value, tolerance))
                else:
                    keys.append((share, float(value_text), 0.0))
                if not all(math.isfinite(k) for k in keys[-1][1:]):
                    raise ValueError(value_text)
            except (ValueError, ArithmeticError):
                raise _Skip("answer", f"{value_text!r} is not a number, a value:tolerance "
                                      f"or a min..max range", label) from None
        if not set_numeric_key(q, keys):
            raise _Skip("answer", "a numerical question without a full-credit answer", label)
        return q

    def essay(self, q: DraftQuestion, hint_type: object, parts: dict[str, str]) -> DraftQuestion:
        if hint_type in ("system_design", "programming"):
            q.type = hint_type
        reference = parts.get(feedback.REFERENCE, "")
        q.reference_answer = ""
        starter = ""
        if q.type == "programming":
            stem_parts = feedback.split(q.stem)
            starter = single_code_block(stem_parts.get(feedback.STARTER, "")) or ""
            q.stem = stem_parts[""] or q.stem
        set_rubric(q, parts.get(feedback.RUBRIC, ""))
        set_essay(q, reference, starter=starter)
        return q


class _Skip(Exception):
    def __init__(self, field_name: str, message: str, label: str = ""):
        super().__init__(message)
        self.field_name = field_name
        self.label = label


def read_gift(path: Path, *, paper_id: str | None = None,
              title: str | None = None) -> ImportResult:
    """Read a GIFT file (any encoding ``read_text_file`` knows) into a draft pack.

    Questions GIFT or examdesk cannot represent (matching, descriptions, broken braces) are
    skipped with a warning naming the question (its title or position and line); a file
    with no question at all raises ``GiftError``.
    """
    path = Path(path)
    decoded = read_text_file(path)
    reader = _Reader(path)
    reader.read(decoded.text)
    if not reader.collector.count:
        raise GiftError(f"{path}: no GIFT question examdesk can import "
                        f"({len(reader.collector.warnings)} skipped)"
                        + "".join(f"\n  {w}" for w in reader.collector.warnings[:20]))
    paper = reader.collector.paper(paper_id=paper_id, title=title, source=path.name)
    return ImportResult(paper, reader.collector.warnings, decoded.encoding)
