"""A programming question's check attempts: open an earlier one, diff it with the editor,
put its code back (one undo step in the editor).

The attempts come from the progress file (``actions.check_attempts``); the dialog only
shows them and hands the chosen code back through ``sig_restore``.
"""
from __future__ import annotations

import datetime as dt
import difflib

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QRadioButton, QSplitter,
                               QTextBrowser, QVBoxLayout, QWidget)

from question_db.attempts import CheckAttempt

from .check_results import results_summary
from .markdown_html import highlight_code
from .translation import tr


def attempt_title(attempt: CheckAttempt) -> str:
    """'12-05 14:31 · ✓ 11/11' — one line of the list."""
    when = dt.datetime.fromtimestamp(attempt.created_at).strftime("%m-%d %H:%M:%S")
    if attempt.error:
        return f"{when} · " + tr("no verdict")
    mark = "✓" if attempt.all_passed else "✗"
    return f"{when} · {mark} {attempt.passed}/{attempt.required}"


def code_diff(old: str, new: str, *, old_name: str, new_name: str) -> str:
    """A unified diff of two versions of the code ('' when they are equal)."""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True),
                                        new.splitlines(keepends=True),
                                        fromfile=old_name, tofile=new_name))


class AttemptHistoryDialog(QDialog):
    """Every check run of one question, newest first."""

    sig_restore = Signal(str)
    """Put this code into the editor: (code)."""

    def __init__(self, attempts: list[CheckAttempt], current_code: str, *,
                 can_restore: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attempt_history")
        self.setWindowTitle(tr("Check attempts"))
        self.resize(900, 600)
        self.attempts = attempts
        self.current_code = current_code
        layout = QVBoxLayout(self)
        if not attempts:
            layout.addWidget(QLabel(tr("No check attempts yet: each Check keeps your code and "
                                       "its results here.")))
        self.list = QListWidget()
        self.list.setObjectName("attempt_list")
        for attempt in attempts:
            item = QListWidgetItem(attempt_title(attempt))
            item.setData(Qt.ItemDataRole.UserRole, attempt.id)
            self.list.addItem(item)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        modes = QHBoxLayout()
        self.show_code = QRadioButton(tr("Code of this attempt"))
        self.show_diff = QRadioButton(tr("Diff: this attempt → the editor now"))
        self.show_code.setChecked(True)
        for button in (self.show_code, self.show_diff):
            button.toggled.connect(self._refresh)
            modes.addWidget(button)
        modes.addStretch(1)
        right_layout.addLayout(modes)
        self.result = QLabel()
        self.result.setObjectName("attempt_result")
        self.result.setWordWrap(True)
        right_layout.addWidget(self.result)
        self.view = QTextBrowser()
        self.view.setObjectName("attempt_view")
        right_layout.addWidget(self.view, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.list)
        splitter.addWidget(right)
        splitter.setSizes([260, 640])
        layout.addWidget(splitter, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.restore_button = QPushButton(tr("Put this code in the editor"))
        self.restore_button.setObjectName("restore_attempt")
        self.restore_button.setEnabled(can_restore and bool(attempts))
        if not can_restore:
            self.restore_button.setToolTip(tr("The answer is submitted: its code is locked."))
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.restore_button.clicked.connect(self._restore)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.list.currentRowChanged.connect(self._refresh)
        if attempts:
            self.list.setCurrentRow(0)

    def selected(self) -> CheckAttempt | None:
        row = self.list.currentRow()
        return self.attempts[row] if 0 <= row < len(self.attempts) else None

    def _refresh(self, *_args) -> None:
        attempt = self.selected()
        if attempt is None:
            return
        self.result.setText(attempt.error and tr("No verdict: %1").replace("%1", attempt.error)
                            or results_summary(list(attempt.checks)))
        if self.show_diff.isChecked():
            diff = code_diff(attempt.code, self.current_code, old_name=tr("attempt"),
                             new_name=tr("editor"))
            self.view.setHtml(highlight_code(diff, "diff") if diff else
                              "<i>" + tr("The editor holds exactly this code.") + "</i>")
        else:
            self.view.setHtml(highlight_code(attempt.code, "python"))

    def _restore(self) -> None:
        attempt = self.selected()
        if attempt is not None:
            self.sig_restore.emit(attempt.code)
            self.accept()
