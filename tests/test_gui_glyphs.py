"""Every character the UI draws has a glyph in the fonts the app uses (issue 31).

A character no font has is drawn as a box (glyph 0, ``.notdef``) after Qt's whole fallback
chain, so the check lays each character out the way a widget does (``QTextLayout`` with the
app's font, fallbacks included) and looks at the glyphs it got. What is checked: the UI's
strings in both languages (the translation catalogue: every source and its Chinese), the
symbols in the Qt layer's string literals (◀ ⚑ ✓ …), and the bundled papers' text, in the
UI font and in the code editor's. Run on a machine set up as the README says (its
``fonts-noto-cjk``): without a CJK font this fails, as Chinese would show as boxes there.
"""
from __future__ import annotations

import dataclasses
import io
import tokenize
import unicodedata
from pathlib import Path

import pytest
from defusedxml import ElementTree
from PySide6.QtGui import QFont, QTextLayout
from PySide6.QtWidgets import QApplication

from desktop.app import CJK_FAMILIES, apply_ui_font
from desktop.views.code_editor import CodeEditor
from gui_fixtures import bundled_bank

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[1]
NOT_DRAWN = {"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Zs", "Zl", "Zp"}  # no glyph of their own


def drawn(text: str) -> set[str]:
    return {c for c in text if ord(c) > 0x7F and unicodedata.category(c) not in NOT_DRAWN}


def catalogue_characters() -> set[str]:
    tree = ElementTree.parse(ROOT / "resources" / "translations" / "examdesk_zh_CN.ts")
    return set().union(*(drawn("".join(e.itertext())) for tag in ("source", "translation")
                         for e in tree.iter(tag)))


def literal_characters() -> set[str]:
    chars: set[str] = set()
    for path in (ROOT / "desktop").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING:
                chars |= drawn(token.string)
    return chars


def content_characters() -> set[str]:
    chars: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            chars.update(drawn(value))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                walk(getattr(value, field.name))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                walk(item)

    for paper in bundled_bank().papers:
        walk(paper)
    return chars


def glyphs(text: str, font: QFont) -> list[tuple[str, list[int]]]:
    """The fonts and glyph indexes ``text`` is drawn with in ``font`` (fallbacks included)."""
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return [(run.rawFont().familyName(), list(run.glyphIndexes()))
            for run in layout.glyphRuns()]


def missing(chars: set[str], font: QFont) -> list[str]:
    return sorted(c for c in chars if any(0 in indexes for _, indexes in glyphs(c, font)))


@pytest.fixture
def ui_font(qapp: QApplication):
    before = qapp.font()
    apply_ui_font(qapp)  # as a launch does
    yield qapp.font()
    qapp.setFont(before)


def test_chinese_is_drawn_with_a_real_cjk_font(ui_font):
    families = {family for family, _ in glyphs("题库错题本", ui_font)}
    assert families & set(CJK_FAMILIES), (
        f"Chinese is drawn with {families}: install a CJK font (README: fonts-noto-cjk)")
    assert missing(set("题库錯題本"), ui_font) == []  # Simplified and Traditional


def test_no_character_the_ui_draws_falls_back_to_a_box(ui_font):
    sets = {"translation catalogue": catalogue_characters(),
            "string literals in desktop/": literal_characters(),
            "bundled papers": content_characters()}
    assert len(sets["translation catalogue"]) > 500  # the Chinese UI is in there
    assert {"◀", "⚑", "✓"} <= sets["string literals in desktop/"]
    editor = CodeEditor()
    fonts = {"UI font": ui_font, "code editor font": editor.font()}
    boxes = {(where, name): missing(chars, font) for where, chars in sets.items()
             for name, font in fonts.items()}
    editor.deleteLater()
    assert {k: v for k, v in boxes.items() if v} == {}


def test_the_check_finds_a_box_when_there_is_one(ui_font):
    """The check itself: a private-use character no font has is reported."""
    assert missing({"\U000F0000"}, ui_font) == ["\U000F0000"]
