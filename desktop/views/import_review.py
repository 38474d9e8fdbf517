"""Review an imported paper before it joins the bank: the source beside each parsed
question, its review flags highlighted, every field editable, "mark verified" per
question, and a save into a papers folder that runs off the UI thread.

Standalone: built from an ``ImportResult`` (``question_db.interchange.importers``) or a
draft pack folder; the main window wires it (File → Import paper…). Verification follows
``question_db.interchange.verify``: a changed printed key makes the question ``corrected``
and needs errata; the window never decides that on its own.
"""
from __future__ import annotations

import copy
import html
import re
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from question_db.bank import load_paper
from question_db.interchange import verify as verification
from question_db.interchange.pack import (
    DraftPaper,
    DraftQuestion,
    PackExists,
    PackInvalid,
    draft_from_paper,
    write_pack,
)
from question_db.enums import QuestionType
from question_db.model import Problem

from .code_editor import CodeEditor
from .problem_text import field_label, flag_label, message_text, problem_text, refusal_message
from .question_view import type_label
from ..theme import Role, css, theme



def _flag_color() -> QColor:
    """Where a review flag sits: the theme's warning background."""
    return theme().color(Role.WARNING_BG)


def _source_mark() -> str:
    return f"background-color:{css(Role.WARNING_BG)};color:{css(Role.TEXT)}"

CHOICE = ("single_choice", "multiple_choice")
SUBJECTIVE = ("short_answer", "system_design", "calculation", "programming")


class _Saver(QObject):
    """Runs ``write_pack`` on a worker thread; progress and the result come back on the
    UI thread through queued signals (the window never waits on the disk)."""

    sig_progress = Signal(str, int, int)
    sig_done = Signal(object, object)  # (loaded Paper or None, exception or None)

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-save")

    def save(self, paper: DraftPaper, out_dir: Path, replace: bool) -> Future:
        future = self._pool.submit(write_pack, paper, out_dir, replace=replace,
                                   progress=self.sig_progress.emit)
        future.add_done_callback(lambda f: self.sig_done.emit(
            None if f.exception() else f.result(), f.exception()))
        return future

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)


class ImportReviewView(QWidget):
    """One imported paper under review."""

    sig_saved = Signal(object)
    """The pack was written and loaded back: (question_db.model.Paper)."""

    sig_closed = Signal()
    """The learner left the review (saved or not)."""

    def __init__(self, paper: DraftPaper, papers_dir: Path | str, *,
                 warnings: list[Problem] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("import_review")
        self.paper = copy.deepcopy(paper)
        self.papers_dir = Path(papers_dir)
        self.warnings = list(warnings or [])
        self.current: DraftQuestion | None = None
        self._flags_before: dict[int, list] = {}  # flags of verified questions, for undo
        self._replace = False
        self._origin: Path | None = None  # the pack folder it was opened from
        self._origin_id = self.paper.id
        self._loading = False
        self._saver = _Saver(self)
        self._saver.sig_progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self._saver.sig_done.connect(self._on_saved, Qt.ConnectionType.QueuedConnection)
        self._build()
        self._fill_list()
        if self.paper.questions:
            self._show_row(0)

    @classmethod
    def from_result(cls, result, papers_dir: Path | str, **kw) -> "ImportReviewView":
        """From an ``ImportResult`` (what every importer returns)."""
        return cls(result.paper, papers_dir, warnings=result.warnings, **kw)

    @classmethod
    def from_pack(cls, folder: Path | str, papers_dir: Path | str | None = None,
                  **kw) -> "ImportReviewView":
        """From a draft pack folder (no source text: that lives only in the import)."""
        problems: list[Problem] = []
        loaded = load_paper(Path(folder), problems)
        if loaded is None or problems:
            raise ValueError("\n".join(map(str, problems)) or f"{folder}: not a pack")
        view = cls(draft_from_paper(loaded), papers_dir or Path(folder).parent, **kw)
        view._origin = Path(folder)
        view._replace = True  # saving puts the reviewed pack back where it came from
        if view.current is not None:
            view.source.setHtml(view._source_html(view.current))  # now it knows its origin
        return view

    # --- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Title")))
        self.title_edit = QLineEdit(self.paper.title)
        self.title_edit.setObjectName("paper_title")
        top.addWidget(self.title_edit, 3)
        top.addWidget(QLabel(self.tr("Id")))
        self.id_edit = QLineEdit(self.paper.id)
        self.id_edit.setObjectName("paper_id")
        top.addWidget(self.id_edit, 1)
        self.summary = QLabel()
        self.summary.setObjectName("summary")
        top.addWidget(self.summary, 2)

        self.question_list = QListWidget()
        self.question_list.setObjectName("question_list")
        self.question_list.setMinimumWidth(150)
        self.question_list.currentRowChanged.connect(self._show_row)

        self.source = QTextBrowser()
        self.source.setObjectName("source")
        self.source.setOpenLinks(False)
        source_box = self._titled(self.tr("Source as printed (simplified, glosses removed)"),
                                  self.source)

        form_widget = QWidget()
        form = QFormLayout(form_widget)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.type_box = QComboBox()
        self.type_box.setObjectName("type")
        for qtype in QuestionType:
            self.type_box.addItem(type_label(qtype), qtype)
        self.type_box.currentIndexChanged.connect(self._type_changed)
        self.points = QDoubleSpinBox()
        self.points.setObjectName("points")
        self.points.setRange(0, 1000)
        self.points.setDecimals(2)
        self.status_label = QLabel()
        self.status_label.setObjectName("status")
        row = QHBoxLayout()
        row.addWidget(self.type_box, 2)
        row.addWidget(QLabel(self.tr("Points")))
        row.addWidget(self.points, 1)
        row.addWidget(self.status_label, 2)
        form.addRow(self.tr("Type"), row)
        self.stem = self._editor("stem", 80)
        form.addRow(self.tr("Stem"), self.stem)
        self.options = QTableWidget(0, 2)
        self.options.setObjectName("options")
        self.options.setHorizontalHeaderLabels([self.tr("Letter"), self.tr("Option")])
        self.options.horizontalHeader().setStretchLastSection(True)
        self.options.verticalHeader().setVisible(False)
        self.options.setMaximumHeight(190)
        self.options.setWordWrap(True)
        self.options_box = QWidget()
        options_box = QVBoxLayout(self.options_box)
        options_box.setContentsMargins(0, 0, 0, 0)
        option_buttons = QHBoxLayout()
        add = QPushButton(self.tr("Add option"))
        add.clicked.connect(self._add_option)
        remove = QPushButton(self.tr("Remove option"))
        remove.clicked.connect(self._remove_option)
        option_buttons.addWidget(add)
        option_buttons.addWidget(remove)
        option_buttons.addStretch(1)
        options_box.addWidget(self.options)
        options_box.addLayout(option_buttons)
        self.options_label = QLabel(self.tr("Options"))
        form.addRow(self.options_label, self.options_box)
        self.key = QLineEdit()
        self.key.setObjectName("key")
        self.printed_key = QLabel()
        self.printed_key.setObjectName("printed_key")
        key_row = QHBoxLayout()
        key_row.addWidget(self.key, 2)
        key_row.addWidget(self.printed_key, 1)
        self.key_label = QLabel(self.tr("Key"))
        form.addRow(self.key_label, key_row)
        self.answer = self._editor("answer", 110)
        self.answer_label = QLabel(self.tr("Answer"))
        form.addRow(self.answer_label, self.answer)
        self.code = CodeEditor()
        self.code.setObjectName("code")
        self.code.setMinimumHeight(180)
        self.code_label = QLabel(self.tr("Code"))
        form.addRow(self.code_label, self.code)
        self.explanation = self._editor("explanation", 70)
        form.addRow(self.tr("Explanation"), self.explanation)
        self.errata = self._editor("errata", 50)
        self.errata.setPlaceholderText(self.tr("What the paper got wrong, if anything (needed "
                                               "when you change the printed key)"))
        form.addRow(self.tr("Errata"), self.errata)
        self.flags = QListWidget()
        self.flags.setObjectName("flags")
        self.flags.setWordWrap(True)
        self.flags.setMaximumHeight(150)
        self.flags.currentRowChanged.connect(self._flag_selected)
        form.addRow(self.tr("Flags"), self.flags)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_widget)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.setObjectName("review_split")
        split.addWidget(self.question_list)
        split.addWidget(source_box)
        split.addWidget(scroll)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 4)
        split.setSizes([160, 360, 520])

        bottom = QHBoxLayout()
        self.verify_button = QPushButton(self.tr("Mark verified"))
        self.verify_button.setObjectName("verify")
        self.verify_button.clicked.connect(self.toggle_verified)
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setObjectName("progress")
        self.progress.setVisible(False)
        self.progress.setMaximumWidth(220)
        self.save_button = QPushButton(self.tr("Save to papers folder"))
        self.save_button.setObjectName("save")
        self.save_button.clicked.connect(self.save)
        bottom.addWidget(self.verify_button)
        bottom.addWidget(self.message, 1)
        bottom.addWidget(self.progress)
        bottom.addWidget(self.save_button)

        # What the importer could not carry (a skipped question, an unreadable field): each
        # names the file, the question and the field, so nothing is lost silently.
        self.left_out = QLabel()
        self.left_out.setObjectName("import_warnings")
        self.left_out.setWordWrap(True)
        self.left_out.setTextFormat(Qt.TextFormat.RichText)
        self.left_out.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._show_left_out()
        theme().sig_changed.connect(self._show_left_out)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.left_out)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)

    def _show_left_out(self) -> None:
        self.left_out.setVisible(bool(self.warnings))
        if not self.warnings:
            return
        head = self.tr("%n thing(s) in the file were not imported or were changed:", "",
                       len(self.warnings))
        items = "".join(f"<li>{html.escape(problem_text(w))}</li>" for w in self.warnings)
        self.left_out.setText(f"<b>{html.escape(head)}</b><ul style='margin:0'>{items}</ul>")
        self.left_out.setStyleSheet(f"QLabel#import_warnings {{{_source_mark()};"
                                    "padding:4px 8px;border-radius:4px}")

    def _titled(self, title: str, widget: QWidget) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(f"<b>{html.escape(title)}</b>"))
        lay.addWidget(widget)
        return box

    def _editor(self, name: str, height: int) -> QPlainTextEdit:
        edit = QPlainTextEdit()
        edit.setObjectName(name)
        edit.setMinimumHeight(height)
        return edit

    # --- the list ----------------------------------------------------------------------------
    def _fill_list(self) -> None:
        self.question_list.blockSignals(True)
        row = self.question_list.currentRow()
        self.question_list.clear()
        for q in self.paper.questions:
            item = QListWidgetItem(self._list_text(q))
            if q.status != "draft":
                item.setForeground(theme().color(Role.OK))
            elif q.review:
                item.setForeground(theme().color(Role.WARNING))
            self.question_list.addItem(item)
        self.question_list.setCurrentRow(max(row, 0) if self.paper.questions else -1)
        self.question_list.blockSignals(False)
        self._update_summary()

    def _list_text(self, q: DraftQuestion) -> str:
        if q.status != "draft":
            state = "✓ " + (self.tr("verified") if q.status == "ok" else self.tr("corrected"))
        elif q.review:
            state = "⚑ " + self.tr("%n flag(s)", "", len(q.review))
        else:
            state = self.tr("draft")
        cut = " ✂" if q.truncated else ""
        return f"{q.number}. {type_label(q.type)}{cut}\n   {state}"

    def _update_summary(self) -> None:
        qs = self.paper.questions
        done = sum(q.status != "draft" for q in qs)
        flags = sum(len(q.review) for q in qs)
        self.summary.setText(self.tr("%1 questions · %2 verified · %3 flags open")
                             .replace("%1", str(len(qs))).replace("%2", str(done))
                             .replace("%3", str(flags)))

    def _show_row(self, row: int) -> None:
        self.commit()
        self.current = self.paper.questions[row] if 0 <= row < len(self.paper.questions) \
            else None
        self._load(self.current)

    def select(self, number: int) -> None:
        """Show question ``number``."""
        row = next(i for i, q in enumerate(self.paper.questions) if q.number == number)
        if row == self.question_list.currentRow():
            self._show_row(row)
        else:
            self.question_list.setCurrentRow(row)

    # --- one question: fields <-> DraftQuestion --------------------------------------------
    def _load(self, q: DraftQuestion | None) -> None:
        self._loading = True
        try:
            if q is None:
                return
            self.type_box.setCurrentIndex(max(0, self.type_box.findData(q.type)))
            self.points.setValue(float(q.points))
            self.stem.setPlainText(q.stem)
            self.options.setRowCount(0)
            flagged = {f.field.split(".", 1)[1] for f in q.review
                       if f.field.startswith("options.")}
            for letter, text in (q.options or {}).items():
                self._append_option(letter, text, flagged=letter in flagged)
            self.options.resizeRowsToContents()
            self.key.setText(_key_text(q))
            printed = _format_key(q.seed_answer)
            if printed and q.key_source:
                self.printed_key.setText(self.tr("printed: %1 (%2)").replace(
                    "%1", printed).replace("%2", self._key_source_text(q.key_source)))
            else:
                self.printed_key.setText(self.tr("printed: %1").replace(
                    "%1", printed or self.tr("none")))
            self.answer.setPlainText(_answer_text(q))
            self.code.setPlainText(q.code.get("reference") or q.code.get("seed")
                                   or q.code.get("starter", ""))
            self.explanation.setPlainText(q.explanation)
            self.errata.setPlainText(q.errata)
            self.flags.clear()
            for flag in q.review:
                where = f" [{field_label(flag.field)}]" if flag.field else ""
                why = message_text(flag.why)
                item = QListWidgetItem(f"{flag_label(flag.kind)}{where}: {flag.text}\n{why}")
                item.setToolTip(why)
                self.flags.addItem(item)
            self.source.setHtml(self._source_html(q))
            self._show_fields(q.type)
            self._refresh_state(q)
            self._highlight_flags(q)
        finally:
            self._loading = False

    def commit(self) -> None:
        """Write the fields back into the current question (called before any switch)."""
        q = self.current
        if q is None or self._loading:
            return
        q.type = self.type_box.currentData()
        q.points = self.points.value()
        q.stem = self.stem.toPlainText().strip()
        q.explanation = self.explanation.toPlainText().strip()
        q.errata = self.errata.toPlainText().strip()
        if q.type in CHOICE:
            q.options = {}
            for r in range(self.options.rowCount()):
                letter = (self.options.item(r, 0).text() if self.options.item(r, 0) else "")
                text = self.options.item(r, 1).text() if self.options.item(r, 1) else ""
                if letter.strip():
                    q.options[letter.strip().upper()] = text.strip()
            letters = [c for c in self.key.text().upper() if c.isalpha()]
            q.answer = (letters[0] if letters else None) if q.type == "single_choice" \
                else (sorted(set(letters)) or None)
        else:
            q.options = None
        if q.type == "fill_blank":
            blanks = [b.strip() for b in self.key.text().split("|")]
            q.answer = [[b] + _other_variants(q, i, b) for i, b in enumerate(blanks)] \
                if any(blanks) else None
        elif q.type in ("short_answer", "system_design"):
            q.answer = self.answer.toPlainText().strip() or None
        elif q.type == "calculation":
            q.reference_answer = self.answer.toPlainText().strip()
        if q.type in SUBJECTIVE:
            if not q.rubric or abs(sum(r["points"] for r in q.rubric) - q.points) > 1e-6:
                q.rubric = [{"text": self.tr("Self-marked against the reference answer"),
                             "points": q.points}]
        else:
            q.rubric = []
        if q.type == "programming":
            role = "reference" if "reference" in q.code else "seed"
            q.code[role] = self.code.toPlainText()
        self.question_list.item(self.paper.questions.index(q)).setText(self._list_text(q))

    def _show_fields(self, qtype: str) -> None:
        choice, fill = qtype in CHOICE, qtype == "fill_blank"
        for w in (self.options_box, self.options_label):
            w.setVisible(choice)
        for w in (self.key, self.key_label, self.printed_key):
            w.setVisible(choice or fill)
        self.key.setPlaceholderText(self.tr("e.g. B or A,C") if choice else
                                    self.tr("one key per blank, separated by |"))
        for w in (self.answer, self.answer_label):
            w.setVisible(qtype in SUBJECTIVE and qtype != "programming")
        self.answer_label.setText(self.tr("Worked solution") if qtype == "calculation"
                                  else self.tr("Reference answer"))
        for w in (self.code, self.code_label):
            w.setVisible(qtype == "programming")

    def _type_changed(self) -> None:
        if not self._loading:
            self._show_fields(self.type_box.currentData())

    def _append_option(self, letter: str, text: str, *, flagged: bool = False) -> None:
        r = self.options.rowCount()
        self.options.insertRow(r)
        self.options.setItem(r, 0, QTableWidgetItem(letter))
        item = QTableWidgetItem(text)
        if flagged:  # a review flag sits in this option
            item.setBackground(_flag_color())
        self.options.setItem(r, 1, item)

    def _add_option(self) -> None:
        used = {self.options.item(r, 0).text() for r in range(self.options.rowCount())
                if self.options.item(r, 0)}
        letter = next((c for c in "ABCDEFGH" if c not in used), "")
        self._append_option(letter, "")

    def _remove_option(self) -> None:
        if self.options.rowCount():
            self.options.removeRow(self.options.currentRow() if self.options.currentRow() >= 0
                                   else self.options.rowCount() - 1)

    # --- flags -------------------------------------------------------------------------------
    def _key_source_text(self, source: str) -> str:
        """Where the importer found the printed key, in the learner's words."""
        return {"inline": self.tr("next to the question"),
                "part": self.tr("in the key list at the end of its part"),
                "appendix": self.tr("in the answer appendix")}.get(source, source)

    def _source_html(self, q: DraftQuestion) -> str:
        text = q.source_text or (
            self.tr("(no source text: this draft was opened from a pack)")
            if self._origin is not None else
            self.tr("(no printed source: this format stores the fields themselves, shown on "
                    "the right as the file gives them)"))
        spans = []
        for flag in q.review:
            pattern = _loose_pattern(flag.text)
            if pattern is None:
                continue
            for m in pattern.finditer(text):
                spans.append((m.start(), m.end(), flag.kind))
        spans.sort()
        out, last = [], 0
        for start, end, kind in spans:
            if start < last:
                continue
            out.append(html.escape(text[last:start]))
            out.append(f"<span style='{_source_mark()}' title='{html.escape(kind)}'>"
                       f"{html.escape(text[start:end])}</span>")
            last = end
        out.append(html.escape(text[last:]))
        return ("<div style='white-space:pre-wrap;font-size:11pt'>" + "".join(out)
                + "</div>")

    def _highlight_flags(self, q: DraftQuestion) -> None:
        editors = {"stem": self.stem, "answer": self.answer, "explanation": self.explanation,
                   "code": self.code}
        color = _flag_color()
        marks: dict[QPlainTextEdit, list] = {e: [] for e in editors.values()}
        for flag in q.review:
            field = flag.field.split(".")[0]
            targets = [editors["code"]] if flag.field.endswith("code") and \
                q.type == "programming" else [editors[field]] if field in editors else []
            pattern = _loose_pattern(flag.text)
            for editor in targets:
                if pattern is None:
                    continue
                for m in pattern.finditer(editor.toPlainText()):
                    sel = QTextEdit.ExtraSelection()
                    fmt = QTextCharFormat()
                    fmt.setBackground(color)
                    sel.format = fmt
                    cursor = QTextCursor(editor.document())
                    cursor.setPosition(m.start())
                    cursor.setPosition(m.end(), QTextCursor.MoveMode.KeepAnchor)
                    sel.cursor = cursor
                    marks[editor].append(sel)
        for editor, selections in marks.items():
            editor.setExtraSelections(selections)

    def highlighted(self, name: str) -> list[str]:
        """The flagged spans highlighted in field ``name`` (stem, answer, explanation,
        code), as text: what a person sees marked."""
        editor = {"stem": self.stem, "answer": self.answer, "explanation": self.explanation,
                  "code": self.code}[name]
        return [s.cursor.selectedText() for s in editor.extraSelections()]

    def _flag_selected(self, row: int) -> None:
        if self.current is None or not (0 <= row < len(self.current.review)):
            return
        flag = self.current.review[row]
        self.message.setText(f"{flag_label(flag.kind)}: {message_text(flag.why)}")

    # --- verification ------------------------------------------------------------------------
    def _refresh_state(self, q: DraftQuestion) -> None:
        verified = q.status != "draft"
        self.status_label.setText({"draft": self.tr("unverified draft"),
                                   "ok": self.tr("verified: printed key confirmed"),
                                   "corrected": self.tr("verified: corrected (errata)")}
                                  .get(q.status, q.status))
        self.verify_button.setText(self.tr("Mark unverified") if verified
                                   else self.tr("Mark verified"))
        for w in (self.stem, self.answer, self.explanation, self.errata, self.code, self.key,
                  self.options, self.type_box, self.points):
            w.setEnabled(not verified)

    def toggle_verified(self) -> bool:
        """Verify the current question (or put it back to draft); False with the reason
        shown when something is missing."""
        q = self.current
        if q is None:
            return False
        self.commit()
        if q.status != "draft":
            verification.unverify(q, self._flags_before.pop(id(q), None))
            self.message.setText(self.tr("Question %1 is a draft again.").replace(
                "%1", str(q.number)))
        else:
            flags = list(q.review)
            try:
                verification.verify(q)
            except ValueError as exc:  # each thing missing, in the UI's language
                missing = verification.verification_problems(q)
                self.message.setText(self.tr("Not verified: %1").replace(
                    "%1", "; ".join(map(message_text, missing)) if missing else str(exc)))
                return False
            self._flags_before[id(q)] = flags
            self.message.setText(self.tr("Question %1 verified as “%2”; %3 flag(s) resolved.")
                                 .replace("%1", str(q.number)).replace("%2", q.status)
                                 .replace("%3", str(len(flags))))
        self._fill_list()
        self._load(q)
        return True

    # --- saving ------------------------------------------------------------------------------
    def target(self) -> Path:
        """Where a save goes: the pack's own folder when it was opened from one (and its id
        is unchanged), else ``papers_dir/<id>``."""
        paper_id = self.id_edit.text().strip() or self.paper.id
        if self._origin is not None and paper_id == self._origin_id:
            return self._origin
        return self.papers_dir / paper_id

    def save(self) -> Future | None:
        """Write the pack into ``papers_dir/<id>`` on a worker thread; ``sig_saved`` when it
        is in place (and loads), the reason on screen when not."""
        self.commit()
        self.paper.title = self.title_edit.text().strip() or self.paper.title
        self.paper.id = self.id_edit.text().strip() or self.paper.id
        self.save_button.setEnabled(False)
        self.verify_button.setEnabled(False)
        self.progress.setRange(0, max(1, len(self.paper.questions)))
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.message.setText(self.tr("Saving to %1 …").replace("%1", str(self.target())))
        return self._saver.save(copy.deepcopy(self.paper), self.target(), self._replace)

    def _on_progress(self, stage: str, done: int, total: int) -> None:
        self.progress.setValue(done)
        self.progress.setFormat({"write": self.tr("writing %v/%m"),
                                 "validate": self.tr("validating"),
                                 "move": self.tr("moving into place")}.get(stage, stage))

    def _on_saved(self, loaded, error) -> None:
        self.progress.setVisible(False)
        self.save_button.setEnabled(True)
        self.verify_button.setEnabled(True)
        if error is None:
            self._replace = True  # it is ours now: a second save replaces it
            self._origin, self._origin_id = self.target(), self.paper.id
            self.message.setText(self.tr("Saved %1 (%2 questions).").replace(
                "%1", str(self.target())).replace("%2", str(len(loaded.questions))))
            self.sig_saved.emit(loaded)
        elif isinstance(error, PackExists):
            self._replace = True
            self.save_button.setText(self.tr("Replace existing pack"))
            self.message.setText(self.tr("%1 already holds a pack; press again to replace it, "
                                         "or change the id.").replace("%1", str(self.target())))
        elif isinstance(error, PackInvalid):
            self.message.setText(self.tr("Not saved: %1").replace(
                "%1", "; ".join(problem_text(p)[-160:] for p in error.problems[:3])))
        else:
            self.message.setText(self.tr("Not saved: %1").replace("%1", refusal_message(error)))

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        self._saver.shutdown()
        self.sig_closed.emit()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Wait for a save in flight (for the owner, before deleting the view)."""
        self._saver.shutdown()


def _format_key(key) -> str:
    if isinstance(key, list):
        return " | ".join(map(str, key)) if key and isinstance(key[0], str) and len(
            key[0]) > 1 else ",".join(map(str, key))
    return str(key or "")


def _key_text(q: DraftQuestion) -> str:
    if q.type in CHOICE:
        return ",".join(q.answer) if isinstance(q.answer, list) else (q.answer or "")
    if q.type == "fill_blank":
        return " | ".join(v[0] for v in q.answer) if q.answer else ""
    return ""


def _answer_text(q: DraftQuestion) -> str:
    if q.type == "calculation":
        return q.reference_answer
    if q.type in ("short_answer", "system_design"):
        return str(q.answer or "")
    return ""


def _other_variants(q: DraftQuestion, i: int, canonical: str) -> list[str]:
    """Keep the accepted variants a blank already had when its canonical key is kept."""
    old = q.answer[i] if isinstance(q.answer, list) and i < len(q.answer) else []
    return [v for v in old[1:] if v != canonical] if old and old[0] == canonical else []


def _loose_pattern(text: str) -> re.Pattern | None:
    """``text`` found whatever the spacing (flags quote the source; fields are spaced)."""
    chars = [c for c in text.strip() if not c.isspace()]
    if len(chars) < 2:
        return None
    return re.compile(r"\s*".join(re.escape(c) for c in chars))
