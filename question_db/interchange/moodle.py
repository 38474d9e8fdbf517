"""Moodle XML: export the bank for a Moodle question bank, import what Moodle writes.

Mapping (the full table is in ``docs/interchange.md``): single and multiple choice ↔
``multichoice`` (``<single>``); one blank ↔ ``shortanswer``, several ↔ a ``cloze`` with one
``SHORTANSWER`` each; one numeric part ↔ ``numerical`` (tolerance, unit), several ↔ a
``cloze`` with one ``NUMERICAL`` each; short answer, system design ↔ ``essay``
(``graderinfo`` = reference answer + rubric); programming ↔ ``essay`` in monospaced
(``responsetemplate`` = starter); no key (void) → ``description``; paper and section ↔
categories ``$course$/top/<paper>/<section>``.

Moodle's true/false becomes a two-option single choice and a CodeRunner Python question a
programming draft; matching, drag-and-drop, calculated and other plug-in types, and
descriptions, are skipped (a warning names each one).
Fractions are checked against Moodle's own list (``question_bank::fraction_options_full``)
the way its importer does (within 1e-5); exports use only fractions on that list.
"""
from __future__ import annotations

import base64
import binascii
import html
import math
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from math import gcd
from pathlib import Path
from urllib.parse import quote, unquote

from ..model import BLANK_MARK, Paper, Problem, Question, ReviewFlag
from . import feedback
from .drafts import (FULL, DraftCollector, question_label, set_choice_key, set_essay,
                     set_fill_key, set_numeric_key, set_rubric, true_false_labels)
from .encoding import UnreadableInput, decode_bytes
from .markup import (canonical_markdown, html_to_markdown, inline_markdown_to_html,
                     markdown_to_html, plain_text)
from .pack import DraftQuestion, ImportResult
from ..atomic_file import write_atomically
from .writing import dropped, has_key, media_file

__all__ = ["FORMAT", "MOODLE_FRACTIONS", "TYPE_TAG", "KEY_TAG", "MoodleXmlError",
           "moodle_fraction", "nearest_moodle_fraction", "percent_text", "moodle_xml",
           "write_moodle_xml", "read_moodle_xml"]

FORMAT = "moodle-xml"
# question_bank::fraction_options() (lib/questionlib.php): 1, 0 and these, and in
# fraction_options_full() their negatives and -1
_POSITIVE = (1.0, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3,
             0.25, 0.2, 0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05)
MOODLE_FRACTIONS = tuple(sorted({0.0, *_POSITIVE, *(-f for f in _POSITIVE)}, reverse=True))
_FRACTION_TOLERANCE = 0.00001  # match_grade_options($options, $grade, 'error')
_PLUGINFILE = "@@PLUGINFILE@@/"
_CLOZE = re.compile(r"\{(\d*):([A-Z_]+):((?:\\.|[^\\}])*)\}")
_CLOZE_TYPES = {
    "SHORTANSWER": "sa", "SA": "sa", "MW": "sa", "SHORTANSWER_C": "sa", "SAC": "sa",
    "MWC": "sa", "NUMERICAL": "num", "NM": "num",
    **{t: "mc" for t in ("MULTICHOICE", "MC", "MULTICHOICE_V", "MCV", "MULTICHOICE_H", "MCH",
                         "MULTICHOICE_S", "MCS", "MULTICHOICE_VS", "MCVS", "MULTICHOICE_HS",
                         "MCHS")},
    **{t: "mr" for t in ("MULTIRESPONSE", "MR", "MULTIRESPONSE_H", "MRH", "MULTIRESPONSE_S",
                         "MRS", "MULTIRESPONSE_HS", "MRHS")},
}
_SKIPPED_TYPES = {
    "matching": "matching", "match": "matching", "ddwtos": "drag and drop into text",
    "gapselect": "select missing words", "ddimageortext": "drag and drop onto image",
    "ddmarker": "drag and drop markers", "calculated": "calculated",
    "calculatedsimple": "calculated", "calculatedmulti": "calculated multichoice",
    "randomsamatch": "random short-answer matching", "random": "random",
}
TYPE_TAG = "examdesk-type:"  # tags an export adds so a re-import knows the examdesk type
KEY_TAG = "examdesk-key:"  # and which of several full-credit options is the verified key
_INVALID_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


class MoodleXmlError(ValueError):
    """The file is not Moodle XML at all (broken XML, no ``<quiz>``); ``str()`` names it."""


def moodle_fraction(fraction: float) -> float | None:
    """The entry of Moodle's list within 1e-5 of ``fraction`` (a 0..1 share), or None."""
    return next((f for f in MOODLE_FRACTIONS if abs(f - fraction) < _FRACTION_TOLERANCE),
                None)


def nearest_moodle_fraction(fraction: float) -> float:
    return min(MOODLE_FRACTIONS, key=lambda f: abs(f - fraction))


def percent_text(fraction: float) -> str:
    """A share as Moodle writes it in ``fraction=""``: 1/3 -> ``33.33333``."""
    return f"{round(fraction * 100, 5):.10g}"


def _number(value: float) -> str:
    return f"{value:.15g}"


def _letters(n: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(n)]


# --- export -------------------------------------------------------------------------------


class _Field:
    """One Moodle text field being built: its HTML and the files its images need."""

    def __init__(self, paper: Paper, question: Question, warnings: list[Problem],
                 field_name: str):
        self.paper, self.question, self.warnings = paper, question, warnings
        self.field_name = field_name
        self.files: dict[str, bytes] = {}

    def image_src(self, src: str) -> str | None:
        path = media_file(self.paper, src)
        if path is None:
            if re.match(r"^[a-z][a-z0-9+.-]*:", src, re.I):
                return src  # a URL stays a URL
            self.warnings.append(dropped(self.question, self.field_name, FORMAT,
                                         f"image {src!r} not found in the pack; dropped"))
            return None
        name = path.name
        self.files[name] = path.read_bytes()
        return _PLUGINFILE + quote(name)

    def html(self, markdown: str, *, inline: bool = False) -> str:
        render = inline_markdown_to_html if inline else markdown_to_html
        return render(markdown, image_src=self.image_src)


def _text_el(parent: ET.Element, tag: str, text: str, *, fmt: str = "html",
             files: dict[str, bytes] | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, {"format": fmt, **attrs} if fmt else attrs)
    ET.SubElement(el, "text").text = _INVALID_XML_CHARS.sub("", text)
    for name, data in (files or {}).items():
        f = ET.SubElement(el, "file", {"name": name, "path": "/", "encoding": "base64"})
        f.text = base64.b64encode(data).decode("ascii")
    return el


def _simple(parent: ET.Element, tag: str, value: str) -> None:
    ET.SubElement(parent, tag).text = value


def _category_path(*names: str) -> str:
    return "$course$/top/" + "/".join(n.replace("/", "//") for n in names)


def _cloze_text(value: str) -> str:
    """An answer inside ``{1:SHORTANSWER:…}``: Moodle decodes entities there, and ``}``,
    ``#``, ``~``, ``=`` and ``%`` would otherwise end or re-weight the answer."""
    out = html.escape(value, quote=False).replace("*", "\\*")
    return re.sub(r"[{}#~=%]", lambda m: f"&#{ord(m.group())};", out)


def _weights(points: list[float]) -> list[int]:
    """Whole-number cloze weights in the proportion of ``points`` (Moodle's syntax)."""
    fractions = [Fraction(p).limit_denominator(1000) for p in points]
    if not any(fractions):
        return [1] * len(points)
    lcm = 1
    for f in fractions:
        lcm = lcm * f.denominator // gcd(lcm, f.denominator)
    ints = [int(f * lcm) for f in fractions]
    common = 0
    for i in ints:
        common = gcd(common, i)
    return [max(1, i // (common or 1)) for i in ints]


def _blank_placeholder(i: int) -> str:
    return f"\ue000{i}\ue001"


def _general_feedback(paper: Paper, q: Question) -> str:
    return feedback.compose(q.explanation, (feedback.ERRATA, q.errata), language=paper.language)


def _write_header(el: ET.Element, paper: Paper, q: Question, warnings: list[Problem], *,
                  question_html: str, files: dict[str, bytes], points: float,
                  penalty: str = "0.3333333", general: str | None = None) -> None:
    ET.SubElement(ET.SubElement(el, "name"), "text").text = (
        f"{q.number:02d} {plain_text(q.stem)[:60]}".strip())
    _text_el(el, "questiontext", question_html, files=files)
    gf = _Field(paper, q, warnings, "explanation")
    gf_html = gf.html(_general_feedback(paper, q) if general is None else general)
    _text_el(el, "generalfeedback", gf_html, files=gf.files)
    _simple(el, "defaultgrade", _number(points))
    _simple(el, "penalty", penalty)
    _simple(el, "hidden", "0")
    _simple(el, "idnumber", q.id)


def _write_tags(el: ET.Element, q: Question) -> None:
    tags = ET.SubElement(el, "tags")
    key = (KEY_TAG + q.answer,) if q.type == "single_choice" and q.also_accept else ()
    for topic in (*q.topics, TYPE_TAG + q.type, *key):
        ET.SubElement(ET.SubElement(tags, "tag"), "text").text = topic


def _write_choice(el: ET.Element, paper: Paper, q: Question, warnings: list[Problem]) -> None:
    single = q.type == "single_choice"
    stem = _Field(paper, q, warnings, "stem")
    _write_header(el, paper, q, warnings, question_html=stem.html(q.stem), files=stem.files,
                  points=q.points)
    _simple(el, "single", "true" if single else "false")
    _simple(el, "shuffleanswers", "false")
    _simple(el, "answernumbering", "ABCD")
    _simple(el, "showstandardinstruction", "0")
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        _text_el(el, tag, "")
    if single:
        correct = {q.answer, *q.also_accept}
        fractions = {letter: 1.0 if letter in correct else 0.0 for letter in q.options}
    else:
        correct = set(q.answer)
        share = moodle_fraction(1 / len(correct))
        assert share is not None, len(correct)  # 1/k for k <= 10 is on Moodle's list
        fractions = {letter: share if letter in correct else -1.0 for letter in q.options}
        if len(correct) > 10:
            warnings.append(dropped(q, "answer", FORMAT, "more than 10 correct options"))
        for alt in q.also_accept:
            warnings.append(dropped(q, "also_accept", FORMAT,
                                    f"alternative key {''.join(alt)} not carried (Moodle "
                                    f"has one set of correct options)"))
        section = paper.section_of(q)
        if section and section.multiple_choice_rule == "all_or_nothing":
            warnings.append(dropped(q, "multiple_choice_rule", FORMAT,
                                    "all-or-nothing scoring becomes Moodle's partial credit "
                                    "(each correct option 1/k, each wrong one -100%)"))
    for letter, text in q.options.items():
        opt = _Field(paper, q, warnings, f"options.{letter}")
        answer = _text_el(el, "answer", opt.html(text, inline=True), files=opt.files,
                          fraction=percent_text(fractions[letter]))
        _text_el(answer, "feedback", "")
    if single and q.also_accept:
        warnings.append(dropped(q, "also_accept", FORMAT, "written as several 100% options; "
                                "the question is no longer marked disputed"))


def _write_fill(el: ET.Element, paper: Paper, q: Question, warnings: list[Problem]) -> None:
    stem_field = _Field(paper, q, warnings, "stem")
    if len(q.answer) == 1:
        el.set("type", "shortanswer")
        _write_header(el, paper, q, warnings, question_html=stem_field.html(q.stem),
                      files=stem_field.files, points=q.points)
        _simple(el, "usecase", "0")
        for variant in q.answer[0]:
            answer = _text_el(el, "answer", variant.replace("*", "\\*"),
                              fmt="moodle_auto_format", fraction="100")
            _text_el(answer, "feedback", "")
        return
    el.set("type", "cloze")
    counter = iter(range(len(q.answer)))
    stem = BLANK_MARK.sub(lambda m: _blank_placeholder(next(counter)), q.stem)
    rendered = stem_field.html(stem)
    weights = _weights(list(q.blank_points))
    for i, (variants, weight) in enumerate(zip(q.answer, weights)):
        alts = "~".join("=" + _cloze_text(v) for v in variants)
        rendered = rendered.replace(_blank_placeholder(i), f"{{{weight}:SHORTANSWER:{alts}}}")
    if abs(sum(weights) - q.points) > 1e-9:
        warnings.append(dropped(q, "blank_points", FORMAT,
                                f"Moodle cloze weights are whole numbers: written as "
                                f"{':'.join(map(str, weights))}, so Moodle scores the "
                                f"question out of {sum(weights)} instead of {q.points:g}"))
    _write_header(el, paper, q, warnings, question_html=rendered, files=stem_field.files,
                  points=q.points)


def _write_calculation(el: ET.Element, paper: Paper, q: Question,
                       warnings: list[Problem]) -> None:
    stem_field = _Field(paper, q, warnings, "stem")
    gf = feedback.compose(q.explanation, (feedback.REFERENCE, q.reference_answer),
                          (feedback.RUBRIC, feedback.rubric_markdown(q.rubric)),
                          (feedback.ERRATA, q.errata), language=paper.language)
    if q.rubric:
        warnings.append(dropped(q, "rubric", FORMAT,
                                f"the self-marked rubric ({sum(r.points for r in q.rubric):g} "
                                f"points) goes into the general feedback; Moodle grades only "
                                f"the numeric parts"))
    if len(q.parts) == 1:
        el.set("type", "numerical")
        part = q.parts[0]
        _write_header(el, paper, q, warnings, question_html=stem_field.html(q.stem),
                      files=stem_field.files, points=q.points, general=gf)
        answer = _text_el(el, "answer", _number(part.value), fmt="moodle_auto_format",
                          fraction="100")
        _text_el(answer, "feedback", "")
        _simple(answer, "tolerance", _number(part.tolerance))
        if part.unit:
            unit = ET.SubElement(ET.SubElement(el, "units"), "unit")
            _simple(unit, "multiplier", "1")
            _simple(unit, "unit_name", part.unit)
        _simple(el, "unitgradingtype", "0")
        _simple(el, "unitpenalty", "0.1000000")
        _simple(el, "showunits", "3" if not part.unit else "0")
        _simple(el, "unitsleft", "0")
        if part.label and part.label != "(1)":
            warnings.append(dropped(q, "answer[0].label", FORMAT,
                                    f"a numerical question has no label: {part.label!r}"))
    else:
        el.set("type", "cloze")
        weights = _weights([p.points for p in q.parts])
        items = []
        for i, (part, weight) in enumerate(zip(q.parts, weights)):
            label = inline_markdown_to_html(part.label)
            marker = f"{{{weight}:NUMERICAL:={_number(part.value)}:{_number(part.tolerance)}}}"
            unit = f" {html.escape(part.unit, quote=False)}" if part.unit else ""
            items.append(f"<li>{label}: {marker}{unit}</li>")
        rendered = stem_field.html(q.stem) + "\n<ul>\n" + "\n".join(items) + "\n</ul>"
        if abs(sum(weights) - sum(p.points for p in q.parts)) > 1e-9:
            warnings.append(dropped(q, "answer", FORMAT,
                                    f"Moodle cloze weights are whole numbers: parts written "
                                    f"as {':'.join(map(str, weights))}"))
        _write_header(el, paper, q, warnings, question_html=rendered, files=stem_field.files,
                      points=q.points, general=gf)


def _write_essay(el: ET.Element, paper: Paper, q: Question, warnings: list[Problem]) -> None:
    stem = _Field(paper, q, warnings, "stem")
    _write_header(el, paper, q, warnings, question_html=stem.html(q.stem), files=stem.files,
                  points=q.points, penalty="0")
    code = q.type == "programming"
    if code:
        reference = f"```python\n{q.code.read('reference').rstrip()}\n```" if q.code else ""
        if q.code and (q.code.check or q.code.wrong):
            warnings.append(dropped(q, "code.check", FORMAT,
                                    "the check suite is not exported (a Moodle essay is "
                                    "marked by hand)"))
    elif q.type == "calculation":  # no numeric parts: only a rubric
        reference = q.reference_answer
    else:
        reference = q.answer or ""
    grader = feedback.compose(reference, (feedback.RUBRIC, feedback.rubric_markdown(q.rubric)),
                              language=paper.language)
    _simple(el, "responseformat", "monospaced" if code else "editor")
    _simple(el, "responserequired", "1")
    _simple(el, "responsefieldlines", "30" if code else "15")
    _simple(el, "attachments", "0")
    _simple(el, "attachmentsrequired", "0")
    grader_field = _Field(paper, q, warnings, "answer")
    _text_el(el, "graderinfo", grader_field.html(grader), files=grader_field.files)
    starter = q.code.read("starter") if code and q.code else ""
    _text_el(el, "responsetemplate", starter, fmt="plain_text" if code else "html")


def _write_description(el: ET.Element, paper: Paper, q: Question,
                       warnings: list[Problem]) -> None:
    el.set("type", "description")
    stem = _Field(paper, q, warnings, "stem")
    body = stem.html(q.stem)
    if q.options:
        body += "\n<ol type=\"A\">\n" + "\n".join(
            f"<li>{stem.html(t, inline=True)}</li>" for t in q.options.values()) + "\n</ol>"
    _write_header(el, paper, q, warnings, question_html=body, files=stem.files, points=0,
                  penalty="0")
    warnings.append(dropped(q, "answer", FORMAT,
                            f"no correct answer ({q.status}): exported as a description, "
                            f"which Moodle does not score"))


def _write_question(quiz: ET.Element, paper: Paper, q: Question,
                    warnings: list[Problem]) -> None:
    el = ET.SubElement(quiz, "question", {"type": "essay"})
    if not has_key(q):
        _write_description(el, paper, q, warnings)
        return
    if q.type in ("single_choice", "multiple_choice"):
        el.set("type", "multichoice")
        _write_choice(el, paper, q, warnings)
    elif q.type == "fill_blank":
        _write_fill(el, paper, q, warnings)
    elif q.type == "calculation" and q.parts:
        _write_calculation(el, paper, q, warnings)
    else:
        _write_essay(el, paper, q, warnings)
    if q.status == "draft":
        warnings.append(dropped(q, "status", FORMAT, "a draft (unverified) question"))
    _write_tags(el, q)


def moodle_xml(papers: list[Paper]) -> tuple[bytes, list[Problem]]:
    """The Moodle XML document for ``papers`` and the warnings about what it drops."""
    quiz = ET.Element("quiz")
    warnings: list[Problem] = []
    for paper in papers:
        for i, section in enumerate(paper.sections):
            cat = ET.SubElement(quiz, "question", {"type": "category"})
            ET.SubElement(ET.SubElement(cat, "category"), "text").text = _category_path(
                paper.title, section.title)
            info = "\n\n".join(t for t in (section.scoring, section.note) if t)
            _text_el(cat, "info", info, fmt="plain_text")
            _simple(cat, "idnumber", f"{paper.id}/s{i + 1}")
            for q in paper.questions:
                if section.contains(q.number):
                    _write_question(quiz, paper, q, warnings)
    ET.indent(quiz, "  ")
    body = ET.tostring(quiz, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n").encode("utf-8"), warnings


def write_moodle_xml(papers: list[Paper], out: Path | str) -> list[Problem]:
    """Write ``papers`` as one Moodle XML file (atomically); the warnings."""
    data, warnings = moodle_xml(papers)
    write_atomically(out, data)
    return warnings


# --- import -------------------------------------------------------------------------------


def _decode(path: Path) -> tuple[str, str]:
    """The document as text (its declared encoding, else BOM / UTF-8 / GB18030)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableInput(path, f"cannot read: {exc.strerror or exc}") from None
    head = data[:200].lstrip(b"\xef\xbb\xbf")
    declared = re.match(rb"<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)[\"']", head)
    if declared and data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        codec = declared.group(1).decode("ascii").lower()
        if codec in ("gbk", "gb2312", "gb_2312-80"):
            codec = "gb18030"
        try:
            text = data.decode(codec).lstrip("\ufeff")
        except (LookupError, UnicodeDecodeError):
            pass  # the declaration lies: fall back to detecting the encoding
        else:
            return text.replace("\r\n", "\n").replace("\r", "\n"), codec
    decoded = decode_bytes(data, name=str(path))
    return decoded.text, decoded.encoding


def _parse(path: Path) -> tuple[ET.Element, str]:
    from defusedxml import ElementTree as SafeET
    from defusedxml.common import DefusedXmlException

    text, codec = _decode(path)
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text)  # the str is decoded already
    try:
        root = SafeET.fromstring(text)
    except ET.ParseError as exc:
        line, col = exc.position
        raise MoodleXmlError(f"{path}:{line}:{col}: not well-formed XML: "
                             f"{str(exc).split(':')[0]}") from None
    except DefusedXmlException as exc:
        raise MoodleXmlError(f"{path}: refused: {exc} (entity or DTD tricks)") from None
    if root.tag != "quiz":
        raise MoodleXmlError(f"{path}: not Moodle XML: the root element is <{root.tag}>, "
                             f"expected <quiz>")
    return root, codec


def _text(el: ET.Element | None, path: str = "text") -> str:
    if el is None:
        return ""
    node = el.find(path) if path else el
    if node is None:
        return "" if path else (el.text or "").strip()
    return (node.text or "").strip()


def _float(text: str, default: float | None = None) -> float | None:
    try:
        value = float(text.strip().replace(",", "."))
    except (ValueError, AttributeError):
        return default
    return value if math.isfinite(value) else default


class _Reader:
    """One Moodle XML file being read into a draft."""

    def __init__(self, path: Path):
        self.path = path
        self.collector = DraftCollector(path)
        self.category: tuple[str, ...] = ()

    def warn(self, label: str, field_name: str, message: str) -> None:
        self.collector.warn(label, field_name, message)

    # text fields ------------------------------------------------------------------------

    def markdown(self, el: ET.Element | None, label: str, field_name: str, *,
                 default_format: str = "html") -> str:
        """A text field as bank Markdown, its embedded files stored under ``media/``."""
        if el is None:
            return ""
        raw = _text(el)
        fmt = el.get("format", default_format)
        files: dict[str, str] = {}
        for f in el.findall("file"):
            name = f.get("name", "")
            try:
                data = base64.b64decode((f.text or "").strip(), validate=False)
            except (binascii.Error, ValueError):
                self.warn(label, field_name, f"file {name!r} is not valid base64; dropped")
                continue
            files[(f.get("path", "/") or "/").lstrip("/") + name] = self.collector.add_media(
                name, data, question=label, field_name=field_name)
        if fmt == "plain_text":
            md = raw
        elif fmt == "markdown":
            md = canonical_markdown(raw)
        else:  # html, moodle_auto_format (newlines are line breaks there), wiki_like
            source = raw
            if fmt in ("moodle_auto_format", "wiki_like") and not re.search(
                    r"<(p|div|br|ul|ol|table|pre)\b", raw, re.I):
                source = raw.replace("\n", "<br>")
            md = html_to_markdown(source)

        def media(m: re.Match) -> str:
            bang, text, src = m.groups()
            if src.startswith(_PLUGINFILE):
                name = unquote(src[len(_PLUGINFILE):].split("?")[0])
                if name in files:
                    return f"{bang}[{text}]({files[name]})"
                self.warn(label, field_name, f"file {name!r} is referenced but not "
                                             f"included in the XML")
            return m.group(0)

        return re.sub(r"(!?)\[([^\]\n]*)\]\(([^)\s]+)\)", media, md)

    def old_image(self, qel: ET.Element, label: str) -> str:
        """Moodle 1.9's ``<image>`` + ``<image_base64>``, as an image line for the stem."""
        name = _text(qel, "image") if qel.find("image") is not None else ""
        data = (qel.findtext("image_base64") or "").strip()
        if not name:
            return ""
        if not data:
            self.warn(label, "image", f"image {name!r} is named but its data is missing")
            return ""
        try:
            path = self.collector.add_media(name.replace("/", "_"), base64.b64decode(data),
                                            question=label, field_name="image", what="image")
        except (binascii.Error, ValueError):
            self.warn(label, "image", f"image {name!r} is not valid base64; dropped")
            return ""
        return f"![]({path})"

    # questions --------------------------------------------------------------------------

    def read(self, root: ET.Element) -> None:
        for index, qel in enumerate(root.findall("question"), 1):
            qtype = (qel.get("type") or "").strip().lower()
            name = _text(qel.find("name"))
            label = question_label(index, name)
            if qtype == "category":
                self.read_category(qel)
                continue
            reader = {"multichoice": self.read_multichoice, "truefalse": self.read_truefalse,
                      "shortanswer": self.read_shortanswer, "numerical": self.read_numerical,
                      "essay": self.read_essay, "cloze": self.read_multianswer,
                      "multianswer": self.read_multianswer,
                      "coderunner": self.read_coderunner}.get(qtype)
            if reader is None:
                kind = _SKIPPED_TYPES.get(qtype, qtype or "(none)")
                what = "pseudo-question" if qtype == "description" else "question type"
                self.warn(label, "type", f"{what} {kind!r} is not supported; skipped")
                continue
            try:
                draft = reader(qel, label)
            except _Skip as skip:
                self.warn(label, skip.field_name, f"{skip}; skipped")
                continue
            if draft is None:
                continue
            tags = [_text(t) for t in qel.findall("tags/tag")]
            draft.topics = [t for t in tags if t and not t.startswith((TYPE_TAG, KEY_TAG))]
            self.collector.add(self.category, draft)

    def read_category(self, qel: ET.Element) -> None:
        path = _text(qel.find("category")) or _text(qel, "category")
        parts = [p.replace("\x00", "/") for p in path.replace("//", "\x00").split("/")]
        parts = [p.strip() for p in parts if p.strip()]
        if parts and re.fullmatch(r"\$\w+\$", parts[0]):
            parts = parts[1:]
        if parts and parts[0] == "top":
            parts = parts[1:]
        self.category = tuple(parts)
        info = qel.find("info")
        if info is not None and _text(info):
            self.collector.category_info[self.category] = self.markdown(
                info, "-", "category.info", default_format="moodle_auto_format")

    def common(self, qel: ET.Element, label: str, qtype: str, *,
               stem: str | None = None) -> DraftQuestion:
        stem = self.markdown(qel.find("questiontext"), label, "questiontext") if stem is None \
            else stem
        image = self.old_image(qel, label)
        if image:
            stem = f"{stem}\n\n{image}" if stem else image
        parts = feedback.split(self.markdown(qel.find("generalfeedback"), label,
                                             "generalfeedback"))
        points = _float(_text(qel, "defaultgrade"), 1.0)
        if points is None or points < 0:
            self.warn(label, "defaultgrade", "not a non-negative number; 1 point assumed")
            points = 1.0
        return DraftQuestion(number=0, type=qtype, points=points, stem=stem or "(no text)",
                             explanation=parts.get("", ""), errata=parts.get(feedback.ERRATA, ""),
                             reference_answer=parts.get(feedback.REFERENCE, ""))

    def read_multichoice(self, qel: ET.Element, label: str) -> DraftQuestion:
        single = _text(qel, "single").lower() not in ("false", "0")
        answers = qel.findall("answer")
        if len(answers) < 2:
            raise _Skip("answer", f"a choice question needs two options, found {len(answers)}")
        if len(answers) > 26:
            raise _Skip("answer", f"{len(answers)} options: more than A-Z")
        q = self.common(qel, label, "single_choice" if single else "multiple_choice")
        options, notes = [], []
        for letter, ans in zip(_letters(len(answers)), answers):
            options.append((self.markdown(ans, label, f"answer {letter}"),
                            self.fraction(ans, label, letter, q)))
            fb = self.markdown(ans.find("feedback"), label, f"answer {letter}.feedback")
            if fb:
                notes.append(f"- {letter}: {fb}")
        key = next((t[len(KEY_TAG):] for t in self.tags(qel) if t.startswith(KEY_TAG)), None)
        set_choice_key(q, options, single=single, key=key)
        if notes:
            q.explanation = "\n\n".join(p for p in (q.explanation, "\n".join(notes)) if p)
        return q

    def tags(self, qel: ET.Element) -> list[str]:
        return [t for t in (_text(tag) for tag in qel.findall("tags/tag")) if t]

    def fraction(self, ans: ET.Element, label: str, which: str, q: DraftQuestion) -> float:
        raw = ans.get("fraction", "0")
        value = _float(raw)
        if value is None:
            self.warn(label, f"answer {which}.fraction", f"{raw!r} is not a number; 0 assumed")
            return 0.0
        share = value / 100
        if moodle_fraction(share) is None:
            nearest = nearest_moodle_fraction(share)
            self.warn(label, f"answer {which}.fraction",
                      f"{raw}% is not one of Moodle's grades (nearest: {percent_text(nearest)}"
                      f"%); Moodle would refuse this question")
            q.review.append(ReviewFlag("weight", f"{raw}%", "a grade Moodle does not accept",
                                       f"answer {which}"))
        return share

    def read_truefalse(self, qel: ET.Element, label: str) -> DraftQuestion:
        q = self.common(qel, label, "single_choice")
        true_label, false_label = true_false_labels(q.stem)
        correct = None
        for position, ans in enumerate(qel.findall("answer")):
            text = _text(ans).lower()
            is_true = text == "true" if text in ("true", "false") else position == 0
            if (_float(ans.get("fraction", "0"), 0) or 0) >= 100 * FULL:
                correct = is_true
        if correct is None:
            raise _Skip("answer", "a true/false question without a 100% answer")
        set_choice_key(q, [(true_label, float(correct)), (false_label, float(not correct))],
                       single=True)
        return q

    def read_shortanswer(self, qel: ET.Element, label: str) -> DraftQuestion:
        q = self.common(qel, label, "fill_blank")
        answers = [(_text(ans), (_float(ans.get("fraction", "0"), 0) or 0) / 100)
                   for ans in qel.findall("answer")]
        if not set_fill_key(q, answers):
            raise _Skip("answer", "a short-answer question without a 100% answer")
        return q

    def read_numerical(self, qel: ET.Element, label: str) -> DraftQuestion:
        q = self.common(qel, label, "calculation")
        set_rubric(q, self.feedback_parts(qel, label).get(feedback.RUBRIC, ""))
        keys = []
        for ans in qel.findall("answer"):
            text = _text(ans)
            if text in ("", "*"):
                continue
            value = _float(text)
            tolerance = _float(_text(ans, "tolerance") or "0", 0.0)
            if value is None or tolerance is None:
                self.warn(label, "answer", f"{text!r} is not a number; ignored")
                continue
            keys.append(((_float(ans.get("fraction", "0"), 0) or 0) / 100, value, tolerance))
        unit = ""
        for u in qel.findall("units/unit"):
            if (_float(_text(u, "multiplier") or "1", 1.0) or 1.0) == 1.0:
                unit = _text(u, "unit_name")
                break
        if not set_numeric_key(q, keys, unit):
            raise _Skip("answer", "a numerical question without a 100% answer")
        return q

    def feedback_parts(self, qel: ET.Element, label: str) -> dict[str, str]:
        return feedback.split(self.markdown(qel.find("generalfeedback"), label,
                                            "generalfeedback"))

    def read_essay(self, qel: ET.Element, label: str) -> DraftQuestion:
        hinted = next((t[len(TYPE_TAG):] for t in self.tags(qel) if t.startswith(TYPE_TAG)),
                      "")
        qtype = hinted if hinted in ("short_answer", "system_design", "programming",
                                     "calculation") else "short_answer"
        if not hinted and _text(qel, "responseformat") in ("monospaced", "plain"):
            qtype = "programming"
        q = self.common(qel, label, qtype)
        grader = feedback.split(self.markdown(qel.find("graderinfo"), label, "graderinfo"))
        template = qel.find("responsetemplate")
        starter = _text(template) if template is not None else ""
        if starter and template.get("format", "plain_text") != "plain_text" \
                and qtype != "programming":
            starter = self.markdown(template, label, "responsetemplate")
        set_rubric(q, grader.get(feedback.RUBRIC, ""))
        set_essay(q, grader.get("", ""), starter=starter)
        return q

    def read_coderunner(self, qel: ET.Element, label: str) -> DraftQuestion:
        """A CodeRunner (plug-in) Python question: its sample answer is the reference
        solution and its preload the starter; its test cases are not carried."""
        language = _text(qel, "coderunnertype") or "?"
        if _text(qel, "prototypetype") not in ("", "0"):
            raise _Skip("type", f"CodeRunner prototype {language!r}, not a question")
        if not language.startswith("python"):
            raise _Skip("type", f"CodeRunner {language!r} question: only Python code "
                                f"questions can be imported")
        q = self.common(qel, label, "programming")
        reference = (qel.findtext("answer") or "").strip("\n")
        starter = (qel.findtext("answerpreload") or "").strip("\n")
        set_rubric(q, "")
        q.code = {k: v for k, v in (("reference", reference), ("starter", starter)) if v}
        if not q.code:
            raise _Skip("answer", "a CodeRunner question without a sample answer or preload")
        tests = len(qel.findall("testcases/testcase"))
        if tests:
            q.review.append(ReviewFlag("checks", f"{tests} test case(s)",
                                       "CodeRunner's test cases are not carried: write a "
                                       "property check suite", "code.check"))
        return q

    def read_multianswer(self, qel: ET.Element, label: str) -> DraftQuestion:
        qtext = qel.find("questiontext")
        raw = _text(qtext)
        subs = []

        def take(m: re.Match) -> str:
            kind = _CLOZE_TYPES.get(m.group(2))
            if kind is None:
                return m.group(0)
            subs.append((int(m.group(1) or 1), kind, m.group(3)))
            return _blank_placeholder(len(subs) - 1)

        masked = _CLOZE.sub(take, raw)
        if not subs:
            raise _Skip("questiontext", "a cloze question without a valid {n:TYPE:…} part")
        el = ET.Element("questiontext", dict(qtext.attrib))
        ET.SubElement(el, "text").text = masked
        for f in qtext.findall("file"):
            el.append(f)
        markdown = self.markdown(el, label, "questiontext")
        alternatives = [_cloze_alternatives(body) for _, _, body in subs]
        weights = [w for w, _, _ in subs]
        if all(kind == "num" for _, kind, _ in subs):
            return self.cloze_calculation(qel, label, markdown, subs, alternatives, weights)
        return self.cloze_fill(qel, label, markdown, subs, alternatives, weights)

    def cloze_points(self, qel: ET.Element, weights: list[int],
                     rubric_points: float = 0.0) -> tuple[float, list[float]]:
        """The question's points and each part's: Moodle counts the weights; an examdesk
        export also writes the real total as ``<defaultgrade>``."""
        total = sum(weights) or 1
        stated = _float(_text(qel, "defaultgrade"))
        points = stated if stated is not None and stated > rubric_points else total
        share = points - rubric_points if stated is not None and stated > rubric_points \
            else total
        return points, [w * share / total for w in weights]

    def cloze_fill(self, qel, label, markdown, subs, alternatives, weights) -> DraftQuestion:
        stem = markdown
        answers: list[list[str]] = []
        for i, ((_, kind, _), alts) in enumerate(zip(subs, alternatives)):
            stem = stem.replace(_blank_placeholder(i), "____")
            correct = [text for share, text, _ in alts if share >= FULL]
            if kind == "num":
                correct = [text.split(":")[0] for text in correct]
            answers.append([c for c in correct if c])
        q = self.common(qel, label, "fill_blank", stem=stem)
        points, blank_points = self.cloze_points(qel, weights)
        q.points = points
        for i, ((_, kind, _), alts) in enumerate(zip(subs, alternatives)):
            partial = [f"{t} ({s:.0%})" for s, t, _ in alts if 0 < s < FULL]
            if partial and kind == "sa":
                q.review.append(ReviewFlag("partial_credit", "; ".join(partial),
                                           f"blank {i + 1}: partial-credit answers are not "
                                           f"carried", f"answer[{i}]"))
            if kind in ("mc", "mr"):
                q.review.append(ReviewFlag(
                    "choices", " / ".join(t for _, t, _ in alts),
                    f"blank {i + 1} was a drop-down choice; only its correct option is kept",
                    f"answer[{i}]"))
            elif kind == "num":
                q.review.append(ReviewFlag("tolerance", " / ".join(t for _, t, _ in alts),
                                           f"blank {i + 1} was numerical; its tolerance is "
                                           f"not kept", f"answer[{i}]"))
        if all(answers):
            q.answer = answers
            q.seed_answer = [a[0] for a in answers]
            q.blank_points = blank_points
        else:
            missing = [str(i + 1) for i, a in enumerate(answers) if not a]
            q.review.append(ReviewFlag("no_key", ", ".join(missing),
                                       "these blanks have no 100% answer", "answer"))
        return q

    def cloze_calculation(self, qel, label, markdown, subs, alternatives,
                          weights) -> DraftQuestion:
        lines = markdown.split("\n")
        own_line = {}
        for n, line in enumerate(lines):
            found = [i for i in range(len(subs)) if _blank_placeholder(i) in line]
            if len(found) == 1 and line.startswith("- "):
                own_line[found[0]] = n
        labelled = len(own_line) == len(subs) and sorted(own_line.values()) == list(
            range(len(lines) - len(subs), len(lines)))
        parts = []
        keys = []
        for i, alts in enumerate(alternatives):
            correct = [t for s, t, _ in alts if s >= FULL]
            value, _, tol = (correct[0] if correct else "").partition(":")
            if _float(value) is None or (tol and _float(tol) is None):
                raise _Skip("questiontext", f"part {i + 1}: {value or '(none)'!r} is not a "
                                            f"number")
            keys.append((float(value.replace(",", ".")), abs(_float(tol or "0", 0.0))))
        stem = markdown
        for i in range(len(subs)):
            text_label, unit = f"({i + 1})", ""
            if labelled:
                line = lines[own_line[i]][2:]
                before, _, after = line.partition(_blank_placeholder(i))
                text_label = before.strip().rstrip(":：").strip() or text_label
                unit = after.strip()
            parts.append({"label": text_label, "value": keys[i][0], "tolerance": keys[i][1],
                          "unit": unit, "points": 0.0})
        if labelled:
            stem = "\n".join(lines[:len(lines) - len(subs)]).strip()
        else:
            for i in range(len(subs)):
                stem = stem.replace(_blank_placeholder(i), f"____({i + 1})")
        q = self.common(qel, label, "calculation", stem=stem)
        set_rubric(q, self.feedback_parts(qel, label).get(feedback.RUBRIC, ""))
        rubric_points = sum(r["points"] for r in q.rubric)
        points, part_points = self.cloze_points(qel, weights, rubric_points)
        q.points = sum(part_points) + rubric_points if q.rubric else points
        for part, pts in zip(parts, part_points):
            part["points"] = pts
        q.parts = parts
        if not q.reference_answer:
            q.reference_answer = q.explanation or "\n".join(
                f"- {p['label']}: {p['value']:g} ± {p['tolerance']:g} {p['unit']}".rstrip()
                for p in parts)
        return q


class _Skip(Exception):
    def __init__(self, field_name: str, message: str):
        super().__init__(message)
        self.field_name = field_name


def _cloze_alternatives(body: str) -> list[tuple[float, str, str]]:
    """``(share, answer, feedback)`` of each ``~``-separated alternative of a cloze part."""
    out = []
    for alt in re.split(r"(?<!\\)~", body):
        if not alt:
            continue
        share = 0.0
        if alt.startswith("="):
            share, alt = 1.0, alt[1:]
        else:
            m = re.match(r"%(-?\d+(?:[.,]\d*)?)%", alt)
            if m:
                share, alt = float(m.group(1).replace(",", ".")) / 100, alt[m.end():]
        parts = re.split(r"(?<![\\&])#", alt, maxsplit=1)
        answer = parts[0]
        fb = parts[1] if len(parts) > 1 else ""
        text = html.unescape(answer).replace("\\}", "}").replace("\\#", "#").replace(
            "\\~", "~").replace("\\*", "*").strip()
        out.append((share, text, html.unescape(fb)))
    return out


def read_moodle_xml(path: Path, *, paper_id: str | None = None,
                    title: str | None = None) -> ImportResult:
    """Read a Moodle XML file into a draft pack (every question ``status = "draft"``).

    Unsupported question types and descriptions are skipped with a warning naming the type
    and the question; a file that is not Moodle XML raises ``MoodleXmlError``.
    """
    path = Path(path)
    root, codec = _parse(path)
    reader = _Reader(path)
    reader.read(root)
    if not reader.collector.count:
        raise MoodleXmlError(f"{path}: no question examdesk can import "
                             f"({len(reader.collector.warnings)} skipped)"
                             + "".join(f"\n  {w}" for w in reader.collector.warnings[:20]))
    paper = reader.collector.paper(paper_id=paper_id, title=title, source=path.name)
    return ImportResult(paper, reader.collector.warnings, codec)

