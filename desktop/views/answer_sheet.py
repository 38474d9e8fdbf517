"""答题卡: one button per question, grouped by section; states unanswered/answered/flagged;
void questions (not scored) are struck through and say so."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from question_db.model import Paper

from ..theme import Role, css

COLUMNS = 5
def _styles() -> dict[str, str]:
    """The button styles in the theme's colours (read when a button is restyled)."""
    return {
        "unanswered": "background: palette(base); color: palette(text); "
                      "border: 1px solid palette(mid);",
        "answered": f"background: {css(Role.INFO)}; color: palette(base); "
                    f"border: 1px solid {css(Role.INFO)};",
    }


def _flag_style() -> str:
    return f" border: 2px solid {css(Role.FLAG)};"


CURRENT_STYLE = " font-weight: bold; text-decoration: underline;"
# theme: a void question's number is struck through, in the palette's mid tone
VOID_STYLE = " text-decoration: line-through; color: palette(mid);"


class AnswerSheet(QWidget):
    """The answer card. Click a number to jump to that question."""

    sig_jump = Signal(int)
    """Go to the question at this index in the paper."""

    def __init__(self, paper: Paper, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("answer_sheet")
        self.answered: set[int] = set()
        self.flagged: set[int] = set()
        self.void = {i for i, q in enumerate(paper.questions) if not q.scored}
        self.current = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        title = QLabel(self.tr("Answer sheet"))
        title.setStyleSheet("font-weight: bold")
        layout.addWidget(title)
        position = {q.number: i for i, q in enumerate(paper.questions)}
        self.buttons = [QPushButton(str(q.number)) for q in paper.questions]
        groups = [(s.title, [q for q in paper.questions if s.contains(q.number)])
                  for s in paper.sections]
        loose = [q for q in paper.questions if paper.section_of(q) is None]
        if loose:
            groups.append((self.tr("Other"), loose))
        for title_text, members in groups:
            if not members:
                continue
            heading = QLabel(title_text)
            heading.setWordWrap(True)
            layout.addWidget(heading)
            grid = QGridLayout()
            grid.setSpacing(4)
            for i, question in enumerate(members):
                index = position[question.number]
                button = self.buttons[index]
                button.setObjectName(f"sheet_{question.number}")
                button.setFixedSize(40, 30)
                button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                if index in self.void:
                    button.setToolTip(self.tr("Question %1 is void: no correct answer, not "
                                              "scored").replace("%1", str(question.number)))
                button.clicked.connect(lambda _=False, n=index: self.sig_jump.emit(n))
                grid.addWidget(button, i // COLUMNS, i % COLUMNS)
            grid.setColumnStretch(COLUMNS, 1)
            layout.addLayout(grid)
        text = self.tr("■ answered   □ unanswered   ⚑ orange border: flagged")
        if self.void:
            text += "   " + self.tr("struck through: void (not scored)")
        legend = QLabel(text)
        legend.setWordWrap(True)
        legend.setStyleSheet(f"color: {css(Role.MUTED)}")
        layout.addWidget(legend)
        layout.addStretch(1)
        for i in range(len(self.buttons)):
            self._restyle(i)

    def state(self, index: int) -> str:
        """'answered' or 'unanswered', plus '+flagged' when flagged, '+void' when void."""
        base = "answered" if index in self.answered else "unanswered"
        return (base + ("+flagged" if index in self.flagged else "")
                + ("+void" if index in self.void else ""))

    def set_answered(self, index: int, answered: bool) -> None:
        (self.answered.add if answered else self.answered.discard)(index)
        self._restyle(index)

    def set_flagged(self, index: int, flagged: bool) -> None:
        (self.flagged.add if flagged else self.flagged.discard)(index)
        self._restyle(index)

    def set_current(self, index: int) -> None:
        old, self.current = self.current, index
        self._restyle(old)
        self._restyle(index)

    def _restyle(self, index: int) -> None:
        if not 0 <= index < len(self.buttons):
            return
        style = _styles()["answered" if index in self.answered else "unanswered"]
        if index in self.flagged:
            style += _flag_style()
        if index in self.void:
            style += VOID_STYLE
        if index == self.current:
            style += CURRENT_STYLE
        button = self.buttons[index]
        button.setStyleSheet(f"QPushButton {{ {style} border-radius: 4px; }}")
        button.setProperty("sheet_state", self.state(index))
