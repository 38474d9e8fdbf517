"""desktop/views/wrapped_label.WrappedLabel: a wrapping QLabel's height for a width, kept
per width, is the height QLabel itself gives, and is recomputed when the text, the font or
the style changes."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from desktop.views.wrapped_label import WrappedLabel

pytestmark = pytest.mark.gui

TEXT = "合成试卷 007（分布式训练与推理系统）: a long title that wraps " * 3


def _qlabel_height(text: str, width: int, font=None) -> int:
    label = QLabel(text)
    label.setWordWrap(True)
    if font is not None:
        label.setFont(font)
    return label.heightForWidth(width)


def test_heights_are_qlabels_own_and_follow_text_font_and_style(qtbot):
    label = WrappedLabel(TEXT)
    qtbot.addWidget(label)
    assert label.wordWrap()
    for width in (120, 300, 800, 300):
        assert label.heightForWidth(width) == _qlabel_height(TEXT, width)
    narrow = label.heightForWidth(120)
    label.setText("short")
    assert label.heightForWidth(120) == _qlabel_height("short", 120) < narrow
    label.setText(TEXT)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    label.setFont(font)
    assert label.heightForWidth(300) == _qlabel_height(TEXT, 300, font) > narrow // 2
    before = label.heightForWidth(300)
    label.setContentsMargins(0, 40, 0, 40)
    assert label.heightForWidth(300) == before + 80
    styled = WrappedLabel(TEXT)
    qtbot.addWidget(styled)
    before = styled.heightForWidth(300)
    styled.setStyleSheet("QLabel { font-size: 30pt; }")
    styled.ensurePolished()  # as a shown label is
    assert styled.heightForWidth(300) > before
