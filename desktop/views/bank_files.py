"""File ▸ Export questions: the chosen papers as an Anki deck, Moodle XML, GIFT or the JSON
bank (``question_db.actions.export_questions``, on the store thread). The warnings about what
a format cannot carry are listed, each naming the question and the field."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QLabel, QListWidget, QListWidgetItem, QMessageBox, QVBoxLayout,
                               QWidget)

from question_db.interchange.refusals import export_failure
from question_db.model import Bank, Paper

from ..db import DbOps
from .problem_text import problem_text, refusal_message
from .translation import tr

FORMATS = ("apkg", "moodle-xml", "gift", "json")
SUFFIXES = {"apkg": ".apkg", "moodle-xml": ".xml", "gift": ".gift.txt", "json": ".json"}


def format_label(fmt: str) -> str:
    return {"apkg": tr("Anki deck (.apkg)"), "moodle-xml": tr("Moodle XML (.xml)"),
            "gift": tr("GIFT (.gift.txt)"), "json": tr("examdesk JSON (.json)")}[fmt]


class ExportDialog(QDialog):
    """Which papers, which format."""

    def __init__(self, bank: Bank, parent: QWidget | None = None, *,
                 current_paper: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("export_dialog")
        self.setWindowTitle(tr("Export questions"))
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.format = QComboBox()
        self.format.setObjectName("export_format")
        for fmt in FORMATS:
            self.format.addItem(format_label(fmt), fmt)
        form.addRow(tr("Format"), self.format)
        layout.addLayout(form)
        layout.addWidget(QLabel(tr("Papers")))
        self.papers = QListWidget()
        self.papers.setObjectName("export_papers")
        for paper in bank.papers:
            item = QListWidgetItem(f"{paper.title}  ({len(paper.questions)})")
            item.setData(Qt.ItemDataRole.UserRole, paper.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            chosen = current_paper is None or paper.id == current_paper
            item.setCheckState(Qt.CheckState.Checked if chosen else Qt.CheckState.Unchecked)
            self.papers.addItem(item)
        layout.addWidget(self.papers, 1)
        self.hint = QLabel(tr("Anki keeps your reviews: exporting again updates the same "
                              "notes instead of adding copies."))
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        self.include_notes = QCheckBox(tr("Include my notes (the cards' Note field)"))
        self.include_notes.setObjectName("export_notes")
        self.include_notes.setChecked(True)
        layout.addWidget(self.include_notes)
        self.format.currentIndexChanged.connect(
            lambda _i: self.include_notes.setEnabled(self.chosen_format() == "apkg"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("Export…"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def chosen_format(self) -> str:
        return self.format.currentData()

    def notes_included(self) -> bool:
        return self.chosen_format() == "apkg" and self.include_notes.isChecked()

    def chosen_papers(self) -> list[str]:
        return [self.papers.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.papers.count())
                if self.papers.item(i).checkState() == Qt.CheckState.Checked]


class BankFiles(QObject):
    """Runs the export off the UI thread and says how it went on ``window``."""

    def __init__(self, window: QWidget, db: DbOps, bank: Callable[[], Bank]) -> None:
        super().__init__(window)
        self.window = window
        self.db = db
        self.bank = bank
        self.last_result = None

    def export(self, fmt: str | None = None, paper_ids: list[str] | None = None,
               path: str | Path | None = None, *, include_notes: bool = True) -> None:
        """Ask what and where (unless given), then export (an Anki deck with the
        learner's notes unless ``include_notes`` is False or unticked)."""
        bank = self.bank()
        if fmt is None or paper_ids is None:
            dialog = ExportDialog(bank, self.window)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            fmt, paper_ids = dialog.chosen_format(), dialog.chosen_papers()
            include_notes = dialog.notes_included()
        papers: list[Paper] = [p for p in bank.papers if p.id in set(paper_ids)]
        if not papers:
            self._tell("export_nothing", tr("Export questions"), tr("Choose at least one paper."),
                       QMessageBox.Icon.Warning)
            return
        if path is None:
            name = ("examdesk" if len(papers) > 1 else papers[0].id) + SUFFIXES[fmt]
            chosen, _ = QFileDialog.getSaveFileName(self.window, tr("Export questions"), name,
                                                    format_label(fmt) + f" (*{SUFFIXES[fmt]})")
            if not chosen:
                return
            path = chosen if chosen.endswith(SUFFIXES[fmt]) else chosen + SUFFIXES[fmt]
        from question_db import actions

        self.db.run(actions.export_questions, papers=papers, fmt=fmt, path=Path(path),
                    include_notes=include_notes and fmt == "apkg", on_done=self._exported,
                    on_error=lambda error: self._tell(
                        "export_failed", tr("Export failed"),
                        refusal_message(export_failure(error, path)), QMessageBox.Icon.Warning))

    def _exported(self, result) -> None:
        self.last_result = result
        text = tr("%1 question(s) written to %2.").replace("%1", str(result.questions)) \
            .replace("%2", str(result.path))
        if result.warnings:
            text += "\n\n" + tr("%1 thing(s) this format cannot carry were left out or "
                                "changed; see the details.").replace("%1",
                                                                    str(len(result.warnings)))
        self._tell("export_done", tr("Questions exported"), text,
                   details="\n".join(problem_text(w) for w in result.warnings))

    def _tell(self, name: str, title: str, text: str,
              icon: QMessageBox.Icon = QMessageBox.Icon.Information, details: str = "") -> None:
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName(name)
        if details:
            box.setDetailedText(details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
