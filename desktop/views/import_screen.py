"""File ▸ Import paper… and Import pasted text…: an imported paper under review as a screen
of the main window (``ImportReviewView``), saved into the data folder's ``papers/``."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPlainTextEdit,
                               QProgressBar, QPushButton, QVBoxLayout, QWidget)

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


class ImportProgress(QDialog):
    """While an import runs in its child process: what is read, for how long, and Cancel,
    which stops the child (``cancel`` is the event the importer's waiter watches). Shown
    only after ``SHOW_AFTER_MS``, so a paper read in a blink flashes nothing."""

    SHOW_AFTER_MS = 1000  # the child alone takes ~0.5 s to start on a slow machine

    def __init__(self, what: str, size: int | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("import_progress")
        self.setWindowTitle(tr("Import paper"))
        self.setModal(False)
        self.setMinimumWidth(460)
        self.cancel = threading.Event()
        self._started = time.monotonic()
        self._finished = False
        layout = QVBoxLayout(self)
        size_text = f" ({size / 2**20:.1f} MB)" if size and size >= 2**20 else ""
        self.label = QLabel(tr("Reading %1%2…").replace("%1", what).replace("%2", size_text))
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        bar = QProgressBar()
        bar.setRange(0, 0)  # the importer reports no fraction: a busy bar, and the time
        layout.addWidget(bar)
        self.elapsed = QLabel()
        self.elapsed.setObjectName("import_elapsed")
        layout.addWidget(self.elapsed)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._tick = QTimer(self, interval=500, timeout=self._show_elapsed)
        self._show_later = QTimer(self, singleShot=True, interval=self.SHOW_AFTER_MS,
                                  timeout=self._appear)
        self._show_later.start()
        self._tick.start()
        self._show_elapsed()

    def _appear(self) -> None:
        if not self.cancel.is_set():
            self.show()

    def _show_elapsed(self) -> None:
        seconds = int(time.monotonic() - self._started)
        self.elapsed.setText(tr("%1 s; Cancel stops it and writes nothing.")
                             .replace("%1", str(seconds)))

    def reject(self) -> None:
        """Cancel (the button, Esc, closing the window): stop the importer."""
        self.cancel.set()
        self.finish()

    def finish(self) -> None:
        """The import ended (or was cancelled): go, for good (again: nothing happens)."""
        if self._finished:
            return
        self._finished = True
        self._show_later.stop()
        self._tick.stop()
        self.hide()
        self.deleteLater()


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
