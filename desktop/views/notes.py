"""Favourites and notes on the question on screen (practice, recite, the review session).

``StarButton``: ☆ / ★ (Ctrl+D), ``study.set_favourite``. ``NotePanel``: the learner's Markdown
note under the question, shown rendered, edited in place (Edit / Done); it is saved
``NOTE_DELAY_MS`` after the first keystroke not yet saved (``study.save_note``, one upsert
that skips an unchanged text) and at once when the learner moves to another question or
leaves. The timer is a deadline, not a quiet period, as for drafts (``paper_session``):
someone typing without a pause has the note saved twice a second (issue 28: a debounce
saved nothing during 10 s of steady typing, and a kill lost all of it). Both
show one question at a time and keep every loaded question's state, so a switch between
questions is a lookup (bench: question_switch).
"""
from __future__ import annotations

from typing import Iterable

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                               QToolButton, QVBoxLayout, QWidget)

from question_db import study

from ..db import DbOps
from ..theme import Role, theme
from .markdown_html import markdown_to_html
from .translation import tr

__all__ = ["NOTE_DELAY_MS", "StarButton", "NotePanel"]

NOTE_DELAY_MS = 500  # after the first unsaved keystroke: with the write, inside a second


class StarButton(QToolButton):
    """★ when the question on screen is a favourite; a click stars or unstars it."""

    sig_toggled = Signal(str, bool)
    """The learner starred (True) or unstarred a question: (question id, starred)."""

    def __init__(self, db: DbOps, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("favourite")
        self.db = db
        self.starred: set[str] = set()
        self.question_id: str | None = None
        self.setCheckable(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setToolTip(tr("Favourite: star this question to practise your favourites "
                           "later (Ctrl+D)"))
        self.clicked.connect(lambda _=False: self.toggle())
        self._show()

    def load(self, starred: Iterable[str]) -> None:
        self.starred = set(starred)
        self._show()

    def show_question(self, question_id: str) -> None:
        self.question_id = question_id
        self._show()

    def is_starred(self) -> bool:
        return self.question_id in self.starred

    def toggle(self) -> None:
        if self.question_id is None:
            return
        qid, starred = self.question_id, self.question_id not in self.starred
        (self.starred.add if starred else self.starred.discard)(qid)
        self._show()
        self.db.run(study.set_favourite, question_id=qid, starred=starred,
                    on_error=lambda error: self._not_saved(qid, not starred, error))
        self.sig_toggled.emit(qid, starred)

    def _not_saved(self, question_id: str, was: bool, error: BaseException) -> None:
        (self.starred.add if was else self.starred.discard)(question_id)
        if shiboken6.isValid(self):
            self._show()
        self.db.report(error)

    def _show(self) -> None:
        on = self.is_starred()
        self.setChecked(on)
        self.setText(("★ " if on else "☆ ") + (tr("Favourite") if on else tr("Star")))


class NotePanel(QFrame):
    """The note on the question on screen: rendered, or an editor (autosaved)."""

    sig_saved = Signal(str)
    """A note was stored: (question id)."""

    def __init__(self, db: DbOps, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("note_panel")
        self.db = db
        self.notes: dict[str, str] = {}  # question id -> the text (what is stored or typed)
        self.question_id: str | None = None
        self._unsaved: set[str] = set()
        self._html: dict[str, str] = {}  # rendered notes, by question id
        self.editing = False

        self.title = QLabel("<b>" + tr("My note") + "</b>")
        self.status = QLabel()
        self.status.setObjectName("note_status")
        self.edit_button = QPushButton(tr("Add a note"))
        self.edit_button.setObjectName("edit_note")
        self.edit_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.edit_button.clicked.connect(self.toggle_editing)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title)
        header.addWidget(self.status, 1)
        header.addWidget(self.edit_button)
        self.view = QLabel()
        self.view.setObjectName("note_view")
        self.view.setWordWrap(True)
        self.view.setTextFormat(Qt.TextFormat.RichText)
        self.view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("note_editor")
        self.editor.setPlaceholderText(tr("Your note, in Markdown: what to remember, where "
                                          "you went wrong… Saved as you type."))
        self.editor.setMaximumHeight(140)
        self.editor.textChanged.connect(self._typed)
        self.editor.hide()
        self.view.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addLayout(header)
        layout.addWidget(self.view)
        layout.addWidget(self.editor)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(NOTE_DELAY_MS)
        self._timer.timeout.connect(self.flush)
        theme().sig_changed.connect(self._retheme)
        self._retheme()

    def _retheme(self) -> None:
        self.status.setStyleSheet(f"color: {theme().css(Role.MUTED)}")

    # --- what is shown -------------------------------------------------------------------
    def load(self, notes: dict[str, str]) -> None:
        """The stored notes of the screen's questions (typed, unsaved text is kept)."""
        for qid, text in notes.items():
            if qid not in self._unsaved:
                self.notes[qid] = text
                self._html.pop(qid, None)
        if self.question_id is not None:
            self.show_question(self.question_id)

    def show_question(self, question_id: str) -> None:
        """Show ``question_id``'s note; the one shown before is saved now if it changed."""
        if question_id != self.question_id:
            self.flush()
        self.question_id = question_id
        text = self.notes.get(question_id, "")
        if self.editing:
            self.editor.blockSignals(True)
            self.editor.setPlainText(text)
            self.editor.blockSignals(False)
        self.status.setText("")
        self._show_view(text)

    def _show_view(self, text: str) -> None:
        has_text = bool(text.strip())
        if not self.editing:
            if has_text:
                html = self._html.get(self.question_id or "")
                if html is None:
                    html = markdown_to_html(text)
                    self._html[self.question_id or ""] = html
                self.view.setText(html)
            self.view.setVisible(has_text)
            self.edit_button.setText(tr("Edit note") if has_text else tr("Add a note"))
        else:
            self.edit_button.setText(tr("Done"))

    def toggle_editing(self) -> None:
        """Edit ↔ rendered view (saves what was typed first)."""
        self.set_editing(not self.editing)

    def set_editing(self, editing: bool) -> None:
        if editing == self.editing:
            return
        self.editing = editing
        text = self.notes.get(self.question_id or "", "")
        if editing:
            self.editor.blockSignals(True)
            self.editor.setPlainText(text)
            self.editor.blockSignals(False)
            self.view.hide()
            self.editor.show()
            self.editor.setFocus()
        else:
            self.flush()
            self.editor.hide()
        self._show_view(text)

    def text(self) -> str:
        return self.notes.get(self.question_id or "", "")

    # --- saving --------------------------------------------------------------------------
    def _typed(self) -> None:
        if self.question_id is None:
            return
        self.notes[self.question_id] = self.editor.toPlainText()
        self._html.pop(self.question_id, None)
        self._unsaved.add(self.question_id)
        self.status.setText(tr("editing…"))
        if not self._timer.isActive():  # a deadline, not restarted by later keystrokes
            self._timer.start()

    def flush(self) -> None:
        """Save every note typed since its last save (now)."""
        self._timer.stop()
        for qid in sorted(self._unsaved):
            self.db.run(study.save_note, question_id=qid, text=self.notes.get(qid, ""),
                        on_done=lambda saved, q=qid: self._saved(q, saved),
                        on_error=lambda error, q=qid: self._not_saved(q, error))
        self._unsaved.clear()

    def _saved(self, question_id: str, saved) -> None:
        if not shiboken6.isValid(self):  # saved after the screen was closed
            return
        if question_id == self.question_id:
            self.status.setText(tr("saved"))
        self.sig_saved.emit(question_id)

    def _not_saved(self, question_id: str, error: BaseException) -> None:
        """The disk refused it: the text stays here and is saved with the next change."""
        self._unsaved.add(question_id)
        if shiboken6.isValid(self) and question_id == self.question_id:
            self.status.setText(tr("not saved"))
        self.db.report(error)
