"""Qt's own strings that PySide6's qtbase_zh_CN.qm leaves in English, translated in ours.

Qt asks the translators installed last first: qtbase's, then examdesk's, which holds these
under Qt's own context (lupdate reads the marks below; nothing imports them at run time).
Found by listing what Qt's file dialog shows in Chinese (tests/test_gui_widgets.py).
"""
from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate reads
    return text


MISSING_FROM_QTBASE = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)
