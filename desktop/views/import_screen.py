"""File ▸ Import paper… and Import pasted text…: an imported paper under review as a screen
of the main window (``ImportReviewView``), saved into the data folder's ``papers/``."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPlainTextEdit,
                               QPushButton, QVBoxLayout, QWidget)

from question_db.interchange.pack import ImportResult

from .import_review import ImportReviewView
from .screen import Screen
from .translation import tr

FILE_FILTER_EXTENSIONS = "*.txt *.md *.markdown *.docx *.pdf *.html *.htm *.xml *.gift"


def file_filter() -> str:
    return (tr("Papers (text, Markdown, Word, PDF, web page, Moodle XML, GIFT)") +
            f" ({FILE_FILTER_EXTENSIONS})"
            + ";;" + tr("All files") + " (*)")


class PasteDialog(QDialog):
    """Paste a paper copied from a web page (or GIFT / Moodle XML text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("paste_dialog")
        self.setWindowTitle(tr("Import pasted text"))
        self.resize(720, 520)
        layout = QVBoxLayout(self)
        hint = QLabel(tr("Paste the whole paper: questions, options, 答案 and 解析 as copied. "
                         "Damage from the web page (Traditional characters, pinyin glosses, "
                         "lost symbols) is repaired or flagged for you to check."))
        hint.setWordWrap(True)
        layout.addWidget(hint)
        self.text = QPlainTextEdit()
        self.text.setObjectName("pasted_text")
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("Import"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class ImportScreen(Screen):
    """One imported paper under review; ``sig_saved(paper)`` once it is in ``papers_dir``."""

    sig_saved = Signal(object)
    """The reviewed pack was written and loads: (question_db.model.Paper)."""

    def __init__(self, result: ImportResult, papers_dir: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("import_screen")
        top = QHBoxLayout()
        back = QPushButton("← " + tr("Library"))
        back.setObjectName("import_back")
        back.clicked.connect(self.sig_leave)
        title = QLabel("<b>" + tr("Import paper") + "</b>")
        title.setTextFormat(Qt.TextFormat.RichText)
        top.addWidget(back)
        top.addWidget(title, 1)
        self.review = ImportReviewView.from_result(result, papers_dir)
        self.review.sig_saved.connect(self.sig_saved)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.review, 1)

    def leave(self, settings: QSettings) -> None:
        self.review.shutdown()  # a save in flight finishes first
