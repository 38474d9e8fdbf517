"""One answer widget per question type; each speaks a typed response of the core.

Every widget emits ``sig_changed`` when the learner edits (drafts are saved from it),
returns ``response()`` as the record ``question_db.responses`` defines for its kind (what
grading scores and the store keeps), and takes one back with ``set_response()`` when a
session resumes.
"""
from __future__ import annotations


from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from question_db.enums import CHOICE_TYPES, QuestionType
from question_db.grading import response_answered
from question_db.model import Question
from question_db.responses import (BlanksResponse, CalculationResponse, ChoiceResponse,
                                   CodeResponse, Response, TextResponse)

from .code_editor import CodeEditor
from .markdown_html import inline

CHOICE_KEYS = {**{getattr(Qt.Key, f"Key_{c}"): c for c in "ABCDEFGH"},
               **{getattr(Qt.Key, f"Key_{i + 1}"): "ABCDEFGH"[i] for i in range(8)}}


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
        self.options = dict(question.options or {})
        self.group = QButtonGroup(self)
        self.group.setExclusive(not self.multiple)
        self.cursor_letter: str | None = None  # Space toggles this one (multiple choice)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.setHorizontalSpacing(8)
        layout.setColumnStretch(1, 1)
        for row, (letter, text) in enumerate((question.options or {}).items()):
            button = QCheckBox(letter) if self.multiple else QRadioButton(letter)
            # No focus: ←/→ must navigate questions, not move between options.
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setObjectName(f"option_{letter}")
            label = ClickableLabel(inline(text))
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            label.sig_clicked.connect(button.click)
            self.group.addButton(button, row)
            button.toggled.connect(self._changed)
            layout.addWidget(button, row, 0, Qt.AlignmentFlag.AlignTop)
            layout.addWidget(label, row, 1)
            self.buttons[letter] = button
            self.labels[letter] = label

    def _changed(self, checked: bool) -> None:
        if not self.multiple and not checked:
            return  # the exclusive group also untoggles the old button: one change, not two
        self.sig_changed.emit()

    def mark_key(self, key: list[str]) -> None:
        """After the reveal: key options green, wrongly picked ones red."""
        for letter, label in self.labels.items():
            picked = self.buttons[letter].isChecked()
            color = "#1b7f3b" if letter in key else ("#c62828" if picked else "")
            mark = " ✓" if letter in key else (" ✗" if picked else "")
            label.setText(f"<span style='color:{color}'>{inline(self.options[letter])}"
                          f"<b>{mark}</b></span>" if color else inline(self.options[letter]))

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
            label = ClickableLabel(f"{inline(item.text)} <b>({item.points:g})</b>")
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
            label = QLabel(inline(part.label))
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
    """The code editor with starter code, and the console's Run / Check buttons."""

    sig_run_requested = Signal(str)
    """Run this code in the console: (code)."""

    sig_check_requested = Signal(str, str)
    """Run the question's check suite on this code: (question id, code)."""

    def __init__(self, question: Question, parent: QWidget | None = None) -> None:
        super().__init__(question, parent)
        self.checks: list[dict] | None = None
        self.console_available = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        self.editor = CodeEditor()
        self.editor.setObjectName("code")
        self.editor.setMinimumHeight(320)
        self.editor.setPlainText(question.code.read("starter") if question.code else "")
        self.editor.textChanged.connect(self._code_changed)
        layout.addWidget(self.editor)
        buttons = QHBoxLayout()
        self.run_button = QPushButton(self.tr("Run in console"))
        self.check_button = QPushButton(self.tr("Check"))
        self.run_button.clicked.connect(lambda: self.sig_run_requested.emit(self.code()))
        self.check_button.clicked.connect(
            lambda: self.sig_check_requested.emit(self.question.id, self.code()))
        self.check_status = QLabel()
        self.check_status.setWordWrap(True)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.check_status, 1)
        layout.addLayout(buttons)
        self.set_console_available(False)
        self._init_rubric(layout)

    def code(self) -> str:
        return self.editor.toPlainText()

    def _code_changed(self) -> None:
        self.checks = None  # results belong to the code they ran on
        self.sig_changed.emit()

    def set_console_available(self, available: bool) -> None:
        """Enable Run / Check once a console (kernel) is connected."""
        self.console_available = available
        for button in (self.run_button, self.check_button):
            button.setEnabled(available and not self.locked)
            button.setToolTip("" if available else self.tr(
                "The Python console is not available yet; your code is saved and "
                "will be checked later."))

    def show_check_error(self, message: str) -> None:
        """The checks could not run on this code: say why, next to the buttons."""
        self.check_status.setText(self.tr("Not checked: %1").replace("%1", message))

    def set_checks(self, checks: list[dict] | None) -> None:
        """Results of the check suite for the current code."""
        self.checks = checks
        if checks:
            passed = sum(1 for c in checks if c.get("passed"))
            self.check_status.setText(self.tr("%1 of %2 checks passed")
                                      .replace("%1", str(passed)).replace("%2", str(len(checks))))
        else:
            self.check_status.setText("")

    def response(self) -> CodeResponse:
        checks = None if self.checks is None else tuple(self.checks)
        return CodeResponse(self.code(), checks, self._marks_tuple())

    def set_response(self, response: CodeResponse) -> None:
        self.editor.blockSignals(True)
        self.editor.setPlainText(response.code)
        self.editor.blockSignals(False)
        self.set_checks(None if response.checks is None else list(response.checks))
        self._restore_marks(response.marks)


    def set_locked(self, locked: bool) -> None:
        super().set_locked(locked)
        self.set_console_available(self.console_available)


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
