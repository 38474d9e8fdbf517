"""What the learner is told when the progress file is in trouble.

``StartupNotices``: the recovery notices from opening the progress file (damaged file kept
as a backup copy, file from a newer examdesk, read-only folder, full disk, failed backup),
in one non-blocking message; for a damaged file with a good backup, a "Restore backup"
button. ``StorageWarning``: a write the disk refused while working (full, read-only);
what is on screen stays there and is saved with the next change.

The texts come from the core's one catalogue (``question_db.messages``), rendered in the UI
language from the notice's or error's kind and parameters; the English is the details.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from question_db import messages

from ..db import DbOps

if TYPE_CHECKING:  # recovery (and the store) load on the store thread, after the first paint
    from question_db.recovery import Notice
    from question_db.sqlite_file import StorageError

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # module functions: an explicit context, lupdate reads it


def show_without_blocking(box: QMessageBox) -> None:
    """Non-modal: the learner can read it and keep working (an exam clock is running)."""
    box.setWindowModality(Qt.WindowModality.NonModal)
    box.show()


def qt_translate(context: str, text: str) -> str:
    """The catalogue's templates (``question_db.messages``) in the UI language."""
    return QCoreApplication.translate(context, text)


def notice_text(notice: Notice) -> str:
    """The learner's text for one recovery notice, in the UI language."""
    return notice.text(qt_translate)


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
        from question_db import backups
        from question_db.paths import progress_path

        moved: list[Path | None] = [None]

        def put_back() -> None:
            moved[0] = backups.restore_backup(backup, progress_path(self.data_dir))

        try:  # DbOps closes the store, runs put_back, and opens it again in every case
            ready = self.db.reopen(put_back)
        except Exception as exc:  # noqa: BLE001 - OSError, ValueError, sqlite3.Error: say it
            self._failed(str(exc))
            ready = self.db.worker.ready
        else:
            log.info("restored %s (the file it replaced is kept as %s)", backup, moved[0])
        self.db.run(lambda store: ready.result(),
                    on_done=lambda notices: self._reopened(backup, notices))
        return moved[0]

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
    return error.text(qt_translate) + "\n\n" + messages.render("kept_on_screen", {},
                                                              qt_translate)


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
