"""Help → Keyboard shortcuts: every key examdesk answers to, where it works."""
from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHeaderView, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from .console_placement import SHORTCUTS as CONSOLE_KEYS
from .translation import tr


def shortcut_rows() -> list[tuple[str, str, str]]:
    """(keys, what they do, where) — the table, in reading order."""
    everywhere, question = tr("everywhere"), tr("on a question (not while typing)")
    practice, exam, code = tr("practice"), tr("exam"), tr("code questions")
    return [
        ("A–H, 1–8", tr("pick an option (multiple choice: toggle it)"), question),
        (tr("Space"), tr("toggle the last option picked (multiple choice)"), question),
        ("← → / PgUp PgDn", tr("previous / next question"), question),
        (tr("Enter"), tr("submit a choice or a fill-in answer"), practice),
        ("Ctrl+Enter", tr("submit any answer, also while typing (Enter is a new line in "
                          "working, essays and code)"), practice),
        (tr("Enter"), tr("next question (the exam is handed in with its Submit button)"),
         exam),
        ("Ctrl+F", tr("flag / unflag the question"), tr("practice and exam")),
        ("Ctrl+D", tr("star / unstar the question (favourites)"), practice),
        ("Ctrl+Shift+A", tr("show the answer without answering (reviewed soon, as a miss)"),
         practice),
        ("Ctrl+R", tr("recite mode (背题) on / off"), practice),
        ("1 / 2", tr("recite mode: knew it / didn't"), practice),
        (tr("Space") + " / " + tr("Enter") + ", 1–4",
         tr("review session: show the answer, then Again / Hard / Good / Easy"),
         tr("review session")),
        ("F5", tr("run your code in the console"), code),
        ("Ctrl+Shift+Enter", tr("check your code"), code),
        ("Ctrl+Shift+P", tr("hide or show the problem beside the editor"), code),
        ("Tab / Shift+Tab", tr("indent / dedent (code editor)"), code),
        (" / ".join(CONSOLE_KEYS), tr("open or collapse the Python console"), everywhere),
        ("Ctrl+L", tr("back to the library"), everywhere),
        ("Ctrl+Shift+W", tr("wrong-answer book"), everywhere),
        ("Ctrl+Shift+R", tr("review what is due today"), everywhere),
        ("Ctrl+K", tr("search every question and your notes"), everywhere),
        ("Ctrl+P", tr("practice sets"), everywhere),
        ("Ctrl+M", tr("mock exam (组卷)"), everywhere),
        ("Ctrl+Shift+D", tr("dashboard"), everywhere),
        ("Ctrl+= / Ctrl+- / Ctrl+0", tr("text larger / smaller / reset"), everywhere),
        ("Ctrl+,", tr("settings (language, question script)"), everywhere),
        ("F1", tr("this list"), everywhere),
        ("Ctrl+Q", tr("quit (asks first during an exam: its clock keeps running)"),
         everywhere),
    ]


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcuts_dialog")
        self.setWindowTitle(tr("Keyboard shortcuts"))
        self.resize(760, 560)
        layout = QVBoxLayout(self)
        rows = shortcut_rows()
        self.table = QTableWidget(len(rows), 3)
        self.table.setObjectName("shortcuts_table")
        self.table.setHorizontalHeaderLabels([tr("Keys"), tr("Does"), tr("Where")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.resizeRowsToContents()
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
