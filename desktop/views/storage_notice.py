"""What the learner is told when the progress file is in trouble.

``StartupNotices``: the recovery notices from opening the progress file (damaged file kept
as a backup copy, file from a newer examdesk, read-only folder, full disk, failed backup),
in one non-blocking message; for a damaged file with a good backup, a "Restore backup"
button. ``StorageWarning``: a write the disk refused while working (full, read-only);
what is on screen stays there and is saved with the next change.

The core's ``Notice.message`` / ``StorageError`` text is complete English; the learner
reads a translated text built from the notice's kind and paths, with the English as details.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from question_db.sqlite_file import StorageError, StorageFull, StorageReadOnly

from ..db import DbOps

if TYPE_CHECKING:  # recovery (and the store) load on the store thread, after the first paint
    from question_db.recovery import Notice

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # module functions: an explicit context, lupdate reads it


def show_without_blocking(box: QMessageBox) -> None:
    """Non-modal: the learner can read it and keep working (an exam clock is running)."""
    box.setWindowModality(Qt.WindowModality.NonModal)
    box.show()


def notice_text(notice: Notice) -> str:
    """The learner's text for one recovery notice, in the UI language."""
    from question_db import recovery
    path = str(notice.path)
    if notice.kind == recovery.CORRUPT:
        text = translate(
            "StorageNotice", "Your progress file %1 is damaged. It was kept unchanged as %2, "
                             "and examdesk started a new, empty progress file.")
        text = text.replace("%1", path).replace("%2", str(notice.moved_to))
        if notice.backup is None:
            return text + " " + translate("StorageNotice", "No backup of it was found.")
        return text + " " + translate(
            "StorageNotice", "A backup is available (%1): restore it to get your progress "
                             "back as of that day.").replace("%1", str(notice.backup))
    if notice.kind == recovery.TOO_NEW:
        return translate(
            "StorageNotice", "Your progress file %1 was written by a newer version of "
                             "examdesk. It was left untouched. Until you update examdesk, your "
                             "progress is saved in %2 instead.").replace("%1", path).replace(
            "%2", str(recovery.side_path(notice.path)))
    if notice.kind == recovery.READ_ONLY:
        return translate(
            "StorageNotice", "The data folder %1 is read-only, so examdesk cannot save your "
                             "progress. You can look at what was saved before, but new answers "
                             "will not be saved. Make the folder writable, or start examdesk "
                             "with --data-dir set to a writable folder.").replace(
            "%1", str(notice.path.parent))
    if notice.kind == recovery.DISK_FULL:
        return translate(
            "StorageNotice", "The disk that holds %1 is full, so examdesk cannot save your "
                             "progress. Nothing you do will be saved until space is freed; then "
                             "restart examdesk.").replace("%1", path)
    if notice.kind == recovery.BACKUP_FAILED:
        return translate(
            "StorageNotice", "The daily backup of your progress could not be written to %1. "
                             "Your progress file itself is fine.").replace("%1", path)
    if notice.kind == recovery.LOW_DISK:
        return translate(
            "StorageNotice", "Little space is left on the disk that holds %1. When it is full, "
                             "examdesk cannot save your answers.").replace("%1", path)
    return translate(
        "StorageNotice", "examdesk cannot save your progress in %1. Nothing you do will be "
                         "saved until that is fixed; then restart examdesk.").replace("%1", path)


class StartupNotices(QObject):
    """Shows the notices from ``recovery.open_progress`` and restores a backup on request."""

    sig_restored = Signal(object)
    """A backup replaced the progress file; the store was reopened: (backup path)."""

    def __init__(self, parent: QWidget, db: DbOps, data_dir: Path) -> None:
        super().__init__(parent)
        self.window = parent
        self.db = db
        self.data_dir = Path(data_dir)
        self.box: QMessageBox | None = None
        self.notices: list[Notice] = []

    def show(self, notices: list[Notice]) -> QMessageBox | None:
        """One non-blocking message for all notices (None when there is nothing to say)."""
        from question_db import recovery

        self.notices = list(notices)
        if not self.notices:
            return None
        for notice in self.notices:
            log.warning("%s", notice.message)
        serious = any(n.kind in (recovery.CORRUPT, recovery.READ_ONLY, recovery.DISK_FULL,
                                 recovery.STORAGE) for n in self.notices)
        box = QMessageBox(QMessageBox.Icon.Warning if serious else QMessageBox.Icon.Information,
                          translate("StorageNotice", "Your progress file"),
                          "\n\n".join(notice_text(n) for n in self.notices),
                          QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName("startup_notices")
        box.setDetailedText("\n\n".join(n.message for n in self.notices))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        backup = next((n.backup for n in self.notices
                       if n.kind == recovery.CORRUPT and n.backup is not None), None)
        if backup is not None:
            # Made by the box, so the box owns it (a button made here and added would be
            # deleted with its Python wrapper when this method returns: PySide6 6.12).
            restore = box.addButton(translate("StorageNotice", "Restore backup"),
                                    QMessageBox.ButtonRole.AcceptRole)
            restore.setObjectName("restore_backup")
            restore.clicked.connect(lambda: self.restore(backup))
        box.destroyed.connect(self._forget_box)
        self.box = box
        show_without_blocking(box)
        return box

    def _forget_box(self) -> None:
        self.box = None

    def restore(self, backup: Path) -> Path | None:
        """Put ``backup`` in place of the (new, empty) progress file and reopen the store.

        On the UI thread on purpose: the store thread must have let go of the file first,
        and the learner asked for exactly this (a copy of a few MB, at start-up). What the
        new file held is kept aside (``restore_backup``), never deleted.
        """
        from question_db import backups, recovery

        self.db.flush()
        old = self.db.worker
        if not old.close():
            self._failed(translate("StorageNotice",
                                   "the progress file is still busy; try again in a moment"))
            return None
        try:
            moved = backups.restore_backup(backup, recovery.progress_path(self.data_dir))
        except Exception as exc:  # noqa: BLE001 - OSError, ValueError, sqlite3.Error: say it
            moved = None
            self._failed(str(exc))
        else:
            log.info("restored %s (the file it replaced is kept as %s)", backup, moved)
        # Reopen in every case: the app must keep a working store.
        self.db.worker = recovery.progress_worker(self.data_dir)
        self.db.run(lambda store: self.db.worker.ready.result(),
                    on_done=lambda notices: self._reopened(backup, notices))
        return moved

    def _reopened(self, backup: Path, notices: list[Notice]) -> None:
        if notices:
            self.show(notices)
        self.sig_restored.emit(backup)

    def _failed(self, detail: str) -> None:
        text = translate("StorageNotice", "The backup could not be restored: %1")
        box = QMessageBox(QMessageBox.Icon.Critical,
                          translate("StorageNotice", "Your progress file"),
                          text.replace("%1", detail), QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName("restore_failed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        show_without_blocking(box)


def storage_error_text(error: StorageError) -> str:
    """Why a save failed, in the UI language, and what happens to the learner's work."""
    if isinstance(error, StorageFull):
        why = translate("StorageNotice",
                        "The disk is full, so your latest changes could not be saved.")
    elif isinstance(error, StorageReadOnly):
        why = translate("StorageNotice", "The progress file or its folder is read-only, so "
                                         "your latest changes could not be saved.")
    else:
        why = translate("StorageNotice", "The disk refused to save your latest changes.")
    return why + "\n\n" + translate(
        "StorageNotice", "They stay on screen, and examdesk saves them again with your next "
                         "change once the problem is fixed (free some space, or make the "
                         "folder writable).")


class StorageWarning(QObject):
    """One non-blocking message for writes the disk refused; repeated failures update it
    instead of stacking a new box per keystroke."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.window = parent
        self.box: QMessageBox | None = None
        self.shown: list[str] = []  # every message, for tests and the log

    def show_problem(self, error: StorageError) -> None:
        text = storage_error_text(error)
        self.shown.append(str(error))
        if self.box is None:
            box = QMessageBox(QMessageBox.Icon.Warning, translate("StorageNotice", "Not saved"),
                              text, QMessageBox.StandardButton.Ok, self.window)
            box.setObjectName("storage_error_box")
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.destroyed.connect(self._forget_box)
            self.box = box
            box.setDetailedText(str(error))
            show_without_blocking(box)
        else:
            self.box.setText(text)
            self.box.setDetailedText(str(error))

    def _forget_box(self) -> None:
        self.box = None
