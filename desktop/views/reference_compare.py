"""The learner's code beside a question's reference, for self-marking a code question that
no check suite scores (an imported one: the reference is the code the paper printed)."""
from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QSplitter, QTabWidget,
                               QTextBrowser, QVBoxLayout, QWidget)
from PySide6.QtCore import Qt

from .attempt_history import code_diff
from .markdown_html import highlight_code
from .translation import tr

__all__ = ["ReferenceCompareDialog"]


def _code_pane(title: str, code: str, name: str) -> QWidget:
    pane = QWidget()
    layout = QVBoxLayout(pane)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(QLabel("<b>" + title + "</b>"))
    view = QTextBrowser()
    view.setObjectName(name)
    view.setHtml(highlight_code(code, "python"))
    layout.addWidget(view, 1)
    return pane


class ReferenceCompareDialog(QDialog):
    """Two tabs: both versions side by side, and their unified diff."""

    def __init__(self, code: str, reference: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reference_compare")
        self.setWindowTitle(tr("Your code and the reference"))
        self.resize(960, 620)
        layout = QVBoxLayout(self)
        note = QLabel(tr("No check suite scores this question: compare your code with the "
                         "reference, then tick the self-marking points it covers."))
        note.setWordWrap(True)
        layout.addWidget(note)
        tabs = QTabWidget()
        side = QSplitter(Qt.Orientation.Horizontal)
        side.addWidget(_code_pane(tr("Your code"), code, "compare_yours"))
        side.addWidget(_code_pane(tr("Reference"), reference, "compare_reference_code"))
        tabs.addTab(side, tr("Side by side"))
        self.diff = QTextBrowser()
        self.diff.setObjectName("compare_diff")
        diff = code_diff(code, reference, old_name=tr("your code"), new_name=tr("reference"))
        if diff:
            self.diff.setHtml(highlight_code(diff, "diff"))
        else:
            self.diff.setPlainText(tr("Your code is the same as the reference."))
        tabs.addTab(self.diff, tr("Differences"))
        layout.addWidget(tabs, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
