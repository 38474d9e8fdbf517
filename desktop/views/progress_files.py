"""File ▸ Export progress / Import progress (``question_db.progress_io``): JSON carries
everything, CSV one row per answer. An import merges (rows already here are skipped) and
reports what it added; a bad file is refused whole, with the file and field named."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from question_db import actions, progress_io
from question_db.model import Bank

from ..db import DbOps

TABLES = ("sessions", "answers", "reviews")


class ProgressFiles(QObject):
    """Export and import on the store thread; results in a message box on ``window``."""

    def __init__(self, window: QWidget, db: DbOps, bank: Callable[[], Bank]) -> None:
        super().__init__(window)
        self.window = window
        self.db = db
        self.bank = bank
        self.last_result: progress_io.ImportResult | None = None

    def _filters(self) -> str:
        return self.tr("Progress (JSON) (*.json);;Spreadsheet (CSV) (*.csv)")

    def export_progress(self, path: str | Path | None = None) -> None:
        """Ask where (unless ``path`` is given), then write the export."""
        if path is None:
            chosen, selected = QFileDialog.getSaveFileName(
                self.window, self.tr("Export progress"), "examdesk-progress.json",
                self._filters())
            if not chosen:
                return
            path = Path(chosen)
            if not path.suffix:
                path = path.with_suffix(".csv" if "csv" in selected.lower() else ".json")
        path = Path(path)
        self.db.run(actions.export_progress, path=path,
                    on_done=lambda _: self._tell(
                        "progress_exported", self.tr("Progress exported"),
                        self.tr("Your progress was saved to %1.").replace("%1", str(path))),
                    on_error=lambda error: self._fail(self.tr("Export failed"), path, error))

    def import_progress(self, path: str | Path | None = None) -> None:
        """Ask for a file (unless ``path`` is given), then merge it into the progress."""
        if path is None:
            chosen, _ = QFileDialog.getOpenFileName(
                self.window, self.tr("Import progress"), "", self._filters())
            if not chosen:
                return
            path = chosen
        path = Path(path)
        self.db.run(actions.import_progress, path=path, bank=self.bank(),
                    on_done=lambda done: self._imported(done.result),
                    on_error=lambda error: self._fail(self.tr("Import failed"), path, error))

    def _imported(self, result: progress_io.ImportResult) -> None:
        self.last_result = result

        def counts(bucket: dict[str, int]) -> str:
            names = {"sessions": self.tr("sessions"), "answers": self.tr("answers"),
                     "reviews": self.tr("reviews")}
            return ", ".join(f"{bucket.get(t, 0)} {names[t]}" for t in TABLES)

        text = (self.tr("Added: %1.").replace("%1", counts(result.added)) + "\n"
                + self.tr("Skipped, already here: %1.").replace("%1", counts(result.skipped)))
        self._tell("progress_imported", self.tr("Progress imported"), text)

    def _fail(self, title: str, path: Path, error: BaseException) -> None:
        # ProgressFileError names the file and field already; others get the file added.
        message = str(error) if isinstance(error, progress_io.ProgressFileError) \
            else f"{path}: {type(error).__name__}: {error}"
        self._tell("progress_error", title, message, icon=QMessageBox.Icon.Warning)

    def _tell(self, name: str, title: str, text: str,
              icon: QMessageBox.Icon = QMessageBox.Icon.Information) -> None:
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName(name)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
