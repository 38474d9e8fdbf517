"""One answer widget per question type; each speaks a typed response of the core.

Every widget emits ``sig_changed`` when the learner edits (drafts are saved from it),
returns ``response()`` as the record ``question_db.responses`` defines for its kind (what
grading scores and the store keeps), and takes one back with ``set_response()`` when a
session resumes.
"""
from __future__ import annotations

import functools
import hashlib
import math

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import (QFont, QKeySequence, QMouseEvent, QShortcut, QTextCursor,
                           QTextDocument)
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from question_db.checks.catalogue import descriptions, translate_message
from question_db.enums import CHOICE_TYPES, QuestionType
from question_db.grading import response_answered
from question_db.model import Question
from question_db.responses import (BlanksResponse, CalculationResponse, ChoiceResponse,
                                   CodeResponse, Response, TextResponse)

from .check_results import CheckResultsView
from .code_editor import CodeEditor
from ..theme import Role, css
from .markdown_html import inline
from .points import format_points
from .question_script import shown
from .translation import tr


RESULTS_SHARE = 0.45  # of the code pane's height, once a check failed


def code_digest(code: str) -> str:
    """The identity of a version of the code: its bytes, not its edit history."""
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()

CHOICE_KEYS = {**{getattr(Qt.Key, f"Key_{c}"): c for c in "ABCDEFGH"},
               **{getattr(Qt.Key, f"Key_{i + 1}"): "ABCDEFGH"[i] for i in range(8)}}


def option_mark(picked: bool, in_key: bool) -> tuple[str, str]:
    """(symbol, tooltip) for one option after the reveal."""
    if picked and in_key:
        return "✓", tr("Your pick, and it is in the key")
    if picked:
        return "✗", tr("Your pick, but it is not in the key")
    if in_key:
        return "○", tr("In the key, but you did not pick it (missed)")
    return "", ""


def option_html(letter: str, text: str, color: str = "") -> str:
    """One option as it is shown: its letter and its text, in one rich-text run."""
    body = f"<b>{letter}.</b>&nbsp;{inline(text)}"
    return f"<span style='color:{color}'>{body}</span>" if color else body


def first_line_height(html: str, font: QFont) -> int:
    """The height of the first line ``html`` is laid out in, in ``font`` with its
    fallbacks (a Chinese line is taller than a Latin one)."""
    document = QTextDocument()
    document.setDefaultFont(font)
    document.setDocumentMargin(0)
    document.setHtml(html)
    document.size()  # lays the text out
    layout = document.firstBlock().layout()
    return math.ceil(layout.lineAt(0).height()) if layout.lineCount() else 0


class ClickableLabel(QLabel):
    """A rich-text label that forwards clicks to its option button."""

    sig_clicked = Signal()
    """The label was clicked with the left button."""

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton and not self.hasSelectedText():
            self.sig_clicked.emit()
        super().mouseReleaseEvent(event)


class AnswerWidget(QWidget):
    """Base: the common API the practice and exam screens drive."""

    sig_changed = Signal()
    """The learner changed the response (save a draft)."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        self.locked = False

    def response(self) -> Response:
        raise NotImplementedError

    def set_response(self, response: Response) -> None:
        raise NotImplementedError

    def is_answered(self) -> bool:
        return response_answered(self.question, self.response())

    def set_locked(self, locked: bool) -> None:
        """Freeze the learner's answer (after submitting in practice, in a finished exam)."""
        self.locked = locked
        rubric = getattr(self, "rubric", None)
        for child in self.findChildren(QAbstractButton) + self.findChildren(QLineEdit):
            if rubric is None or not rubric.isAncestorOf(child):  # self-marks stay editable
                child.setEnabled(not locked)
        for editor in self.findChildren(QPlainTextEdit):
            editor.setReadOnly(locked)

    def handle_key(self, key: int, text: str) -> bool:
        """A keyboard shortcut from the screen (A–D, 1–4, Space); True if used."""
        return False

    @property
    def self_marked(self) -> bool:
        """True for types whose points (partly) come from rubric self-marks."""
        return False

    def show_rubric(self) -> None:
        """After the reference answer is revealed: let the learner self-mark."""

    def mark_key(self, key: list[str]) -> None:
        """After the reveal, choice widgets colour the key and the wrong picks."""


class ChoiceAnswer(AnswerWidget):
    """Radio buttons (single choice) or check boxes (multiple choice)."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(question, parent)
        self.multiple = question.type == QuestionType.MULTIPLE_CHOICE
        self.buttons: dict[str, QAbstractButton] = {}
        self.labels: dict[str, QLabel] = {}
        self.options = {k: shown(v) for k, v in (question.options or {}).items()}
        self.group = QButtonGroup(self)
        self.group.setExclusive(not self.multiple)
        self.cursor_letter: str | None = None  # Space toggles this one (multiple choice)
        self.marks: dict[str, QLabel] = {}
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.setHorizontalSpacing(8)
        layout.setColumnStretch(2, 1)
        for row, (letter, text) in enumerate(self.options.items()):
            # The letter is printed with its text, in one label, so both sit on one
            # baseline whatever fonts the text falls back to; the button is the indicator
            # only, centred on the label's first line (``_align_rows``).
            button = QCheckBox() if self.multiple else QRadioButton()
            button.setAccessibleName(letter)
            # No focus: ←/→ must navigate questions, not move between options.
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setObjectName(f"option_{letter}")
            # The verdict's ✓ ✗ ○ go in a column of their own, of a fixed size reserved
            # from the start, so nothing moves or re-wraps when the key is shown.
            mark = QLabel()
            mark.setObjectName(f"mark_{letter}")
            mark.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label = ClickableLabel(option_html(letter, text))
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            # Wider, but still height for width (a new QSizePolicy would drop that flag,
            # and the grid sized each row from a guess at a narrow width: too tall, until
            # the verdict's new text laid it out again and the options moved up).
            policy = label.sizePolicy()
            policy.setHorizontalPolicy(QSizePolicy.Policy.Expanding)
            label.setSizePolicy(policy)
            label.sig_clicked.connect(button.click)
            self.group.addButton(button, row)
            button.toggled.connect(self._changed)
            layout.addWidget(button, row, 0, Qt.AlignmentFlag.AlignTop)
            layout.addWidget(mark, row, 1, Qt.AlignmentFlag.AlignTop)
            layout.addWidget(label, row, 2, Qt.AlignmentFlag.AlignTop)
            self.buttons[letter] = button
            self.labels[letter] = label
            self.marks[letter] = mark
        self._align_rows()

    def _align_rows(self) -> None:
        """Give each row's indicator and mark the height of its text's first line (the
        style centres an indicator in its button), so all three share that line."""
        for letter, label in self.labels.items():
            line = first_line_height(label.text(), label.font())
            self.buttons[letter].setFixedHeight(max(line, 1))
            mark = self.marks[letter]
            mark.setFixedSize(mark.fontMetrics().horizontalAdvance("✓✗○") + 4, max(line, 1))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.StyleChange):
            self._align_rows()  # zoom (Ctrl+=) or a theme: the lines' heights change

    def _changed(self, checked: bool) -> None:
        if not self.multiple and not checked:
            return  # the exclusive group also untoggles the old button: one change, not two
        self.sig_changed.emit()

    def mark_key(self, key: list[str]) -> None:
        """After the reveal, marks that need no colour: ✓ picked and right, ✗ picked and
        wrong, ○ in the key but not picked (missed). Colour only repeats them."""
        for letter, label in self.labels.items():
            picked = self.buttons[letter].isChecked()
            symbol, tip = option_mark(picked, letter in key)
            self.marks[letter].setText(f"<b>{symbol}</b>" if symbol else "")
            self.marks[letter].setToolTip(tip)
            label.setToolTip(tip)
            color = css(Role.OK) if letter in key else (css(Role.ERROR) if picked else "")
            label.setText(option_html(letter, self.options[letter], color))

    def mark_of(self, letter: str) -> str:
        """The verdict mark shown beside option ``letter`` ('' before the reveal)."""
        return self.marks[letter].text().replace("<b>", "").replace("</b>", "")

    def response(self) -> ChoiceResponse:
        return ChoiceResponse(tuple(letter for letter, b in self.buttons.items()
                                    if b.isChecked()))

    def set_response(self, response: ChoiceResponse) -> None:
        chosen = set(response.picked)
        self.blockSignals(True)
        try:
            if not self.multiple and not chosen:
                self.group.setExclusive(False)
            for letter, button in self.buttons.items():
                button.setChecked(letter in chosen)
            self.group.setExclusive(not self.multiple)
        finally:
            self.blockSignals(False)


    def select(self, letter: str) -> None:
        """Pick (single) or toggle (multiple) an option, as a click would."""
        button = self.buttons.get(letter)
        if button is None or self.locked:
            return
        self.cursor_letter = letter
        if self.multiple:
            button.toggle()
        elif not button.isChecked():
            button.setChecked(True)

    def handle_key(self, key: int, text: str) -> bool:
        letter = CHOICE_KEYS.get(key)
        if letter in self.buttons:
            self.select(letter)
            return True
        if key == Qt.Key.Key_Space and self.multiple and self.cursor_letter and not self.locked:
            self.buttons[self.cursor_letter].toggle()
            return True
        return False


class FillBlankAnswer(AnswerWidget):
    """One line edit per blank, numbered like the blanks in the stem."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(question, parent)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        self.edits: list[QLineEdit] = []
        for i in range(max(question.blank_count, 1)):
            edit = QLineEdit()
            edit.setObjectName(f"blank_{i + 1}")
            edit.setPlaceholderText(self.tr("Blank %1").replace("%1", str(i + 1)))
            edit.textEdited.connect(self.sig_changed)
            layout.addWidget(QLabel(f"({i + 1})"), i, 0)
            layout.addWidget(edit, i, 1)
            self.edits.append(edit)

    def response(self) -> BlanksResponse:
        return BlanksResponse(tuple(e.text() for e in self.edits))

    def set_response(self, response: BlanksResponse) -> None:
        for edit, text in zip(self.edits, response.blanks):
            edit.setText(text)



class RubricChecklist(QWidget):
    """Self-marking: one check box per rubric item, with its points."""

    sig_changed = Signal()
    """A self-mark was ticked or cleared."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        title = QLabel(self.tr("Self-marking: tick each point your answer covers"))
        title.setStyleSheet("font-weight: bold")
        layout.addWidget(title)
        self.boxes: list[QCheckBox | None] = []
        for i, item in enumerate(question.rubric):
            row = QHBoxLayout()
            label = ClickableLabel(f"{inline(shown(item.text))} <b>({format_points(item.points)})</b>")
            label.setWordWrap(True)
            if item.auto:
                box = None
                row.addWidget(QLabel("⚙"))
                label.setText(label.text() + " — " + self.tr("scored by the checks"))
            else:
                box = QCheckBox()
                box.setObjectName(f"rubric_{i + 1}")
                box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                box.toggled.connect(self.sig_changed)
                label.sig_clicked.connect(box.click)
                row.addWidget(box, 0, Qt.AlignmentFlag.AlignTop)
            row.addWidget(label, 1)
            layout.addLayout(row)
            self.boxes.append(box)

    def marks(self) -> list[bool | None]:
        return [None if b is None else b.isChecked() for b in self.boxes]

    def set_marks(self, marks: list | None) -> None:
        for box, mark in zip(self.boxes, marks or []):
            if box is not None:
                box.blockSignals(True)
                box.setChecked(bool(mark))
                box.blockSignals(False)


class _RubricMixin:
    """Shared by the types that end in self-marks."""

    rubric: RubricChecklist | None = None
    _marks: list | None = None

    def _init_rubric(self, layout: QVBoxLayout) -> None:
        self._rubric_layout = layout

    def show_rubric(self) -> None:
        if self.rubric is None and self.question.rubric:
            self.rubric = RubricChecklist(self.question)
            self.rubric.set_marks(self._marks)
            self.rubric.sig_changed.connect(self.sig_changed)
            self._rubric_layout.addWidget(self.rubric)

    def marks(self) -> list | None:
        if self.rubric is not None:
            return self.rubric.marks()
        return self._marks

    def _restore_text_and_marks(self, text: str, marks) -> None:
        """Put back the free text (without a change signal) and the self-marks."""
        self.text.blockSignals(True)
        self.text.setPlainText(text)
        self.text.blockSignals(False)
        self._restore_marks(marks)

    def _restore_marks(self, marks) -> None:
        self._marks = None if marks is None else list(marks)
        if self.rubric is not None:
            self.rubric.set_marks(self._marks)

    def _marks_tuple(self) -> tuple | None:
        marks = self.marks()
        return None if marks is None else tuple(marks)

    @property
    def self_marked(self) -> bool:
        return any(not item.auto for item in self.question.rubric)


class CalculationAnswer(_RubricMixin, AnswerWidget):
    """A number field (with its unit) per numeric part, plus the worked solution as text."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(question, parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        grid = QGridLayout()
        self.values: list[QLineEdit] = []
        for i, part in enumerate(question.parts):
            label = QLabel(inline(shown(part.label)))
            label.setWordWrap(True)
            edit = QLineEdit()
            edit.setObjectName(f"value_{i + 1}")
            edit.setPlaceholderText(self.tr("number, e.g. 2.7e8"))
            edit.textEdited.connect(self.sig_changed)
            grid.addWidget(label, i, 0)
            grid.addWidget(edit, i, 1)
            grid.addWidget(QLabel(part.unit), i, 2)
            self.values.append(edit)
        grid.setColumnStretch(0, 2)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)
        layout.addWidget(QLabel(self.tr("Working (expression and derivation):")))
        self.text = QPlainTextEdit()
        self.text.setObjectName("working")
        self.text.setMinimumHeight(120)
        self.text.textChanged.connect(self.sig_changed)
        layout.addWidget(self.text)
        self._init_rubric(layout)

    def response(self) -> CalculationResponse:
        return CalculationResponse(tuple(e.text() for e in self.values),
                                   self.text.toPlainText(), self._marks_tuple())

    def set_response(self, response: CalculationResponse) -> None:
        for edit, value in zip(self.values, response.values):
            edit.setText(value)
        self._restore_text_and_marks(response.text, response.marks)



class SubjectiveAnswer(_RubricMixin, AnswerWidget):
    """Free text (short answer, system design); scored by rubric self-marks."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(question, parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        self.text = QPlainTextEdit()
        self.text.setObjectName("answer_text")
        self.text.setPlaceholderText(self.tr("Write your answer here."))
        self.text.setMinimumHeight(220)
        self.text.textChanged.connect(self.sig_changed)
        layout.addWidget(self.text)
        self._init_rubric(layout)

    def response(self) -> TextResponse:
        return TextResponse(self.text.toPlainText(), self._marks_tuple())

    def set_response(self, response: TextResponse) -> None:
        self._restore_text_and_marks(response.text, response.marks)



class ProgrammingAnswer(_RubricMixin, AnswerWidget):
    """The workspace's right pane: Run / Check / Reset to starter / History, the editor at
    full height and this question's check results directly under it (a splitter)."""

    sig_run_requested = Signal(str)
    """Run this code in the console: (code)."""

    sig_check_requested = Signal(str, str)
    """Run the question's check suite on this code: (question id, code)."""

    sig_history_requested = Signal()
    """Show this question's earlier check attempts."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(question, parent)
        self.checks: list[dict] | None = None  # the last check's results, shown
        # sha256 of the code those results ran on: they grade the editor's code whenever
        # it holds those bytes again (Reset, then Ctrl+Z), not only until the next edit.
        self._checks_digest: str | None = None
        self._checks_summary = ""  # the results' summary without the "code changed" note
        self.has_check_suite = question.code is not None and question.code.check is not None
        self.console_available = False
        # A closed-book exam: no Run, no Check until the exam is submitted.
        self.checks_allowed = True
        # Practice: the submitted code can be checked again (a new kernel, a CUDA box).
        self.check_when_locked = False
        self.checked_code: str | None = None  # the code the last Check was asked for
        self.starter = question.code.read("starter") if question.code else ""
        self._own_code: str | None = None  # kept while the editor shows the reference
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        self.button_bar = QWidget()
        bar = QHBoxLayout(self.button_bar)
        bar.setContentsMargins(0, 0, 0, 0)
        self.run_button = QPushButton("▶ " + self.tr("Run in console"))
        self.run_button.setObjectName("run_code")
        self.check_button = QPushButton("✓ " + self.tr("Check"))
        self.check_button.setObjectName("check_code")
        self.reset_button = QPushButton(self.tr("Reset to starter"))
        self.reset_button.setObjectName("reset_code")
        self.history_button = QPushButton(self.tr("History"))
        self.history_button.setObjectName("attempt_history_button")
        self.history_button.setToolTip(self.tr("Earlier check attempts: open one, diff it "
                                               "with the editor, put its code back"))
        for button in (self.run_button, self.check_button, self.reset_button,
                       self.history_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            bar.addWidget(button)
        bar.addStretch(1)
        self.run_button.clicked.connect(self.request_run)
        self.check_button.clicked.connect(self.request_check)
        self.reset_button.clicked.connect(self.reset_to_starter)
        self.history_button.clicked.connect(self.sig_history_requested)
        # No check suite (an imported question): the reference answer to compare with,
        # once the answer is submitted (the key is not shown before).
        self.compare_button = QPushButton(self.tr("Compare with reference"))
        self.compare_button.setObjectName("compare_reference")
        self.compare_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.compare_button.clicked.connect(self.compare_with_reference)
        self.compare_button.hide()
        bar.insertWidget(bar.count() - 1, self.compare_button)
        layout.addWidget(self.button_bar)
        self.editor = CodeEditor()
        self.editor.setObjectName("code")
        self.editor.setPlainText(self.starter)
        self.editor.textChanged.connect(self._code_changed)
        self.results = CheckResultsView()
        suite = question.code.check if question.code is not None else None
        self.results.set_descriptions(descriptions(suite, QLocale().name()))
        self.results.set_message_translation(
            functools.partial(translate_message, check_file=suite, language=QLocale().name()))
        self.results.setMinimumHeight(60)
        self.check_status = self.results.summary
        self.results_splitter = QSplitter(Qt.Orientation.Vertical)
        self.results_splitter.setObjectName("results_splitter")
        self.results_splitter.setChildrenCollapsible(False)
        self.results_splitter.addWidget(self.editor)
        self.results_splitter.addWidget(self.results)
        self.results_splitter.setStretchFactor(0, 7)
        self.results_splitter.setStretchFactor(1, 3)
        self.results_splitter.setSizes([700, 300])
        layout.addWidget(self.results_splitter, 1)
        for keys, slot in (("F5", self.request_run), ("Ctrl+Shift+Return", self.request_check),
                           ("Ctrl+Shift+Enter", self.request_check)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self.set_attempt_count(0)
        self.set_console_available(False)
        if not self.has_check_suite:
            self.set_checks(None)  # says there is none, and what to do instead
        self._init_rubric(layout)

    def code(self) -> str:
        """The learner's code (also while the editor shows the reference, recite mode)."""
        return self.editor.toPlainText() if self._own_code is None else self._own_code

    def show_reference(self) -> bool:
        """Recite mode: the reference solution in the editor, read-only, instead of the
        starter; the learner's own code is kept (``code()``, ``response()``) and comes back
        when the page is built again. False when there is no reference to show."""
        reference = self.reference_code()
        if not reference or self._own_code is not None:
            return self._own_code is not None
        self._own_code = self.editor.toPlainText()
        self.editor.blockSignals(True)
        self.editor.setPlainText(reference)
        self.editor.blockSignals(False)
        self.editor.setReadOnly(True)
        self.results.summary.setText(self.tr(
            "Recite mode: the reference solution, read-only. Your own code is kept."))
        self.set_console_available(self.console_available)  # no Run / Check of it
        return True

    def results_current(self) -> bool:
        """Whether the last check ran on exactly the code in the editor (by content)."""
        return self.checks is not None and self._checks_digest == code_digest(self.code())

    def _code_changed(self) -> None:
        if self.checks is not None:  # results belong to the code they ran on
            self.results.summary.setText(self._checks_summary if self.results_current()
                                         else self._checks_summary + "<br/><i>" + self.tr(
                                             "The code changed since these results: check "
                                             "again.") + "</i>")
        self.sig_changed.emit()

    # --- Run, Check, Reset ---------------------------------------------------------------
    def can_check(self) -> bool:
        return (self.console_available and self.checks_allowed and self._own_code is None
                and (not self.locked or self.check_when_locked))

    def request_run(self) -> None:
        if self.can_check():
            self.sig_run_requested.emit(self.code())

    def request_check(self) -> None:
        if not self.can_check():
            return
        self.checked_code = self.code()
        self.results.show_running()
        self.sig_check_requested.emit(self.question.id, self.checked_code)

    def reset_to_starter(self) -> None:
        """Put the starter back (one undo step: Ctrl+Z brings the code back); asks first."""
        if self.locked or self.code() == self.starter:
            return
        answer = QMessageBox.question(
            self.window(), self.tr("Reset to starter"),
            self.tr("Replace your code with the starter code? Ctrl+Z in the editor brings "
                    "your code back; checked versions stay in the History."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if answer == QMessageBox.StandardButton.Yes:
            self.replace_code(self.starter)

    def replace_code(self, code: str) -> None:
        """Replace the editor's text as one undoable edit (reset, an attempt put back)."""
        if self.locked:
            return
        cursor = self.editor.textCursor()
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(code)
        cursor.endEditBlock()
        self.editor.setTextCursor(cursor)

    def set_attempt_count(self, count: int) -> None:
        self.attempt_count = count
        self.history_button.setText(self.tr("History (%1)").replace("%1", str(count)))

    def set_attempts(self, attempts: list) -> None:
        """The question's stored attempts (newest first), when the page is built."""
        self.set_attempt_count(len(attempts))

    def attempt_recorded(self, _recorded) -> None:
        """``actions.record_check_attempt`` stored one more attempt."""
        self.set_attempt_count(self.attempt_count + 1)

    def show_stale_results(self, checks: list[dict], code: str | None = None) -> None:
        """Results of code edited since: shown, but they do not grade the code on screen
        (``code``, the code they ran on: they do again if the editor returns to it)."""
        if code is not None:
            self.set_checks(checks, code=code)
        else:
            self.results.show_results(checks)
        self.results.summary.setText(self.results.summary.text() + "<br/><i>" + self.tr(
            "These results are for the code as it was when you pressed Check; it has "
            "changed since: check again.") + "</i>")

    def set_console_available(self, available: bool) -> None:
        """Enable Run / Check once a console (kernel) is connected and the screen allows."""
        self.console_available = available
        enabled = self.can_check()
        for button in (self.run_button, self.check_button):
            button.setEnabled(enabled)
            button.setVisible(self.checks_allowed)
            button.setToolTip("" if available else self.tr(
                "The Python console is not available yet; your code is saved and "
                "will be checked later."))
        self.check_button.setVisible(self.checks_allowed and self.has_check_suite)
        self.check_button.setToolTip(self.check_button.toolTip() or self.tr(
            "Run your code, then the question's checks (Ctrl+Shift+Enter)"))
        self.run_button.setToolTip(self.run_button.toolTip() or self.tr(
            "Run your code in the console (F5)"))
        self.reset_button.setEnabled(not self.locked)
        self.history_button.setEnabled(True)
        self.history_button.setVisible(self.checks_allowed)

    def set_checks_allowed(self, allowed: bool) -> None:
        """A closed-book exam hides Run, Check and the history until it is submitted."""
        self.checks_allowed = allowed
        self.results.setVisible(allowed)
        self.set_console_available(self.console_available)

    def show_check_error(self, message: str) -> None:
        """The checks could not run on this code: say why, under the editor."""
        self.results.show_error(message)

    def set_checks(self, checks: list[dict] | None, *, code: str | None = None) -> None:
        """Results of the check suite for ``code`` (default: the editor's code)."""
        self.checks = checks
        self._checks_digest = None if checks is None else code_digest(
            self.code() if code is None else code)
        if checks:
            self.results.show_results(checks)
            if self.isVisible() and any(not c.get("passed") for c in checks):
                self._room_for_results()
        elif not self.has_check_suite:
            self.results.clear()
            self.results.summary.setText(self.tr(
                "This question has no check suite: Run tries your code; after you submit, "
                "compare it with the reference answer and self-mark it."))
        else:
            self.results.clear()
        self._checks_summary = self.results.summary.text()

    def _room_for_results(self) -> None:
        """A check failed: the results get at least RESULTS_SHARE of the height, so the
        failure's diagnosis is read without dragging (1024×700 with the console open left
        them ~80 px). Only for this page; the split the learner set is what is kept."""
        sizes = self.results_splitter.sizes()
        total = sum(sizes)
        wanted = int(total * RESULTS_SHARE)
        if total and sizes[1] < wanted:
            self.results_splitter.setSizes([total - wanted, wanted])

    def response(self) -> CodeResponse:
        checks = tuple(self.checks) if self.results_current() else None
        return CodeResponse(self.code(), checks, self._marks_tuple())

    def set_response(self, response: CodeResponse) -> None:
        self.editor.blockSignals(True)
        self.editor.setPlainText(response.code)
        self.editor.blockSignals(False)
        self.set_checks(None if response.checks is None else list(response.checks),
                        code=response.code)
        self._restore_marks(response.marks)

    def set_locked(self, locked: bool) -> None:
        super().set_locked(locked)
        self.set_console_available(self.console_available)
        self.compare_button.setVisible(locked and not self.has_check_suite
                                       and bool(self.reference_code()))
        self.compare_button.setEnabled(True)  # reading the reference needs no edit

    def reference_code(self) -> str:
        """The reference solution (a person's), else the code the paper printed."""
        code = self.question.code
        return (code.read("reference") or code.read("seed")) if code is not None else ""

    def compare_with_reference(self) -> None:
        """The learner's code beside the reference, with their differences (self-marking
        a question that no check scores)."""
        from .reference_compare import ReferenceCompareDialog  # only when asked for

        dialog = ReferenceCompareDialog(self.code(), self.reference_code(), parent=self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()


def make_answer_widget(question: Question, parent: QWidget | None = None) -> AnswerWidget:
    """The answer widget for ``question``'s type."""
    if question.type in CHOICE_TYPES:
        return ChoiceAnswer(question, parent)
    if question.type == QuestionType.FILL_BLANK:
        return FillBlankAnswer(question, parent)
    if question.type == QuestionType.CALCULATION:
        return CalculationAnswer(question, parent)
    if question.type == QuestionType.PROGRAMMING:
        return ProgrammingAnswer(question, parent)
    return SubjectiveAnswer(question, parent)
