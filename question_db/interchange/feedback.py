"""The fields a format has no slot for, written as titled parts of one feedback text.

Moodle's general feedback, its essay ``graderinfo`` and GIFT's ``####`` feedback each hold
one HTML text. The exporters put the explanation first (untitled) and the rest under
``<h4>`` headings labelled in the paper's language (English or Chinese); the importers split
them back whatever the language, so a question that leaves examdesk and comes back keeps
its errata, reference answer and rubric apart.
A feedback text written by a person has no such headings and stays whole.

Rubric items are a list whose lines start with the points: ``- [3 pt] text`` (``auto`` marks
an item scored by a programming question's check suite).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .markup import canonical_markdown

__all__ = ["REFERENCE", "RUBRIC", "ERRATA", "STARTER", "LABELS", "HEADINGS", "heading",
           "compose", "split",
           "points_text", "RubricLine", "rubric_markdown", "parse_rubric"]

REFERENCE = "Reference answer"
RUBRIC = "Rubric"
ERRATA = "Errata"
STARTER = "Starter code"  # GIFT has no response template: a code question's starter
LABELS = (REFERENCE, RUBRIC, ERRATA, STARTER)
# The heading a reader of the deck sees, per language; every one is read back.
HEADINGS = {"zh": {REFERENCE: "参考答案", RUBRIC: "评分要点", ERRATA: "勘误",
                   STARTER: "初始代码"}}
_LABEL_OF = {**{label: label for label in LABELS},
             **{text: label for table in HEADINGS.values() for label, text in table.items()}}
_HEADING = re.compile(r"^#### (%s)\s*$" % "|".join(map(re.escape, _LABEL_OF)), re.M)
_RUBRIC_LINE = re.compile(r"^- \[(\d+(?:\.\d+)?(?:e-?\d+)?) pts?(, auto)?\]\s*(.*)$")


def heading(label: str, language: str = "en") -> str:
    """The heading ``label`` is written under in a paper of ``language`` (``zh-Hans``…)."""
    assert label in LABELS, label
    return HEADINGS.get(language.split("-")[0].lower(), {}).get(label, label)


def compose(untitled: str, *titled: tuple[str, str], language: str = "en") -> str:
    """Markdown: ``untitled`` first, then each non-empty ``(label, text)`` under its heading
    in ``language``."""
    parts = [untitled.strip()] if untitled.strip() else []
    for label, text in titled:
        if text.strip():
            parts.append(f"#### {heading(label, language)}\n\n{text.strip()}")
    return "\n\n".join(parts)


def split(markdown: str) -> dict[str, str]:
    """The parts of a composed text: ``""`` for the untitled part, else the label."""
    out: dict[str, str] = {}
    last, label = 0, ""
    for m in _HEADING.finditer(markdown):
        out[label] = (out.get(label, "") + "\n\n" + markdown[last:m.start()]).strip()
        last, label = m.end(), _LABEL_OF[m.group(1)]
    out[label] = (out.get(label, "") + "\n\n" + markdown[last:]).strip()
    return {k: v for k, v in out.items() if v or k == ""}


def points_text(points: float) -> str:
    """Points as text, exact enough that parts still add up (2/3 -> 0.666666666666667)."""
    return f"{points:.15g}"


@dataclass(frozen=True)
class RubricLine:
    text: str
    points: float
    auto: bool = False


def rubric_markdown(items) -> str:
    """A rubric as a Markdown list; ``items`` have ``text``, ``points`` and ``auto``."""
    lines = []
    for item in items:
        auto = ", auto" if getattr(item, "auto", False) else ""
        text = " ".join(item.text.split())
        lines.append(f"- [{points_text(item.points)} pt{auto}] {text}")
    return "\n".join(lines)


def parse_rubric(markdown: str) -> list[RubricLine] | None:
    """The items of a rubric part, or None if any line is not ``- [N pt] text``."""
    lines = [line for line in canonical_markdown(markdown).splitlines() if line.strip()]
    items = []
    for line in lines:
        m = _RUBRIC_LINE.match(line)
        if not m:
            return None
        items.append(RubricLine(m.group(3).strip(), float(m.group(1)), bool(m.group(2))))
    return items or None
