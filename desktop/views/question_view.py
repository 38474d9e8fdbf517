"""One question on screen: header, stem, answer widget, and (once revealed) the feedback.

Feedback = verdict, the verified key, the explanation and, when the seed's key was wrong or
the question is void/disputed, an errata box with both keys and the reason.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QVBoxLayout, QWidget)

from question_db.grading import CORRECT, PARTIAL, PENDING, UNANSWERED, VOID, WRONG
from question_db.model import BLANK_MARK, Question, Section

from .answer_widgets import AnswerWidget, make_answer_widget
from .markdown_html import highlight_code, inline, markdown_to_html
from .translation import tr

VERDICT_COLORS = {CORRECT: "#1b7f3b", PARTIAL: "#b26a00", WRONG: "#c62828",
                  UNANSWERED: "#666666", PENDING: "#1565c0", VOID: "#666666"}


def type_label(qtype: str) -> str:
    return {
        "single_choice": tr("Single choice"),
        "multiple_choice": tr("Multiple choice"),
        "fill_blank": tr("Fill in the blanks"),
        "calculation": tr("Calculation"),
        "short_answer": tr("Short answer"),
        "system_design": tr("System design"),
        "programming": tr("Programming"),
    }.get(qtype, qtype)


def verdict_label(verdict: str) -> str:
    return {
        CORRECT: tr("Correct"), PARTIAL: tr("Partly correct"), WRONG: tr("Wrong"),
        UNANSWERED: tr("Unanswered"), PENDING: tr("Pending"), VOID: tr("Void (not scored)"),
    }.get(verdict, verdict)


def verdict_html(grade: dict) -> str:
    """'Correct · 2 / 2 points' in the verdict's colour."""
    verdict = grade.get("verdict", "")
    color = VERDICT_COLORS.get(verdict, "#333")
    text = verdict_label(verdict)
    if verdict != VOID:
        text += f" · {grade.get('points', 0):g} / {grade.get('max_points', 0):g} " + tr("points")
    return f'<span style="color:{color}; font-weight:bold">{text}</span>'


def key_html(question: Question, key: Any, *, dark: bool = False) -> str:
    """A key (verified or seed) in a form the learner reads at a glance."""
    if key is None or key == "" or key == []:
        return "<i>" + tr("none") + "</i>"
    qtype = question.type
    if qtype == "single_choice":
        return f"<b>{key}</b>"
    if qtype == "multiple_choice":
        return "<b>" + ", ".join(key) + "</b>"
    if qtype == "fill_blank":
        items = []
        for i, blank in enumerate(key):
            shown = blank[0] if isinstance(blank, list) and blank else blank
            others = blank[1:4] if isinstance(blank, list) else []
            extra = (" <span style='color:#777'>(" + tr("also accepted") + ": "
                     + ", ".join(inline(str(o)) for o in others) + ")</span>") if others else ""
            items.append(f"({i + 1}) <b>{inline(str(shown))}</b>{extra}")
        return "<br/>".join(items)
    if qtype == "calculation" and isinstance(key, list):
        rows = []
        for part in key:
            if isinstance(part, dict):
                rows.append(f"{inline(part['label'])}: <b>{part['value']:g}</b> {part['unit']} "
                            f"(± {part['tolerance']:g})")
        return "<br/>".join(rows) if rows else markdown_to_html(str(key), dark=dark)
    if qtype == "programming" and isinstance(key, str) and key.count("\n") > 2:
        return highlight_code(key, "python", dark=dark)
    return markdown_to_html(str(key), dark=dark)


def stem_markdown(question: Question) -> str:
    """The stem, with fill-in blanks numbered to match the answer fields."""
    if question.type != "fill_blank":
        return question.stem
    count = iter(range(1, 100))
    return BLANK_MARK.sub(lambda m: f"＿＿({next(count)})＿＿", question.stem)


def rich_label(html: str = "", *, name: str = "") -> QLabel:
    label = QLabel(html)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setOpenExternalLinks(False)
    if name:
        label.setObjectName(name)
    return label


class ErrataBox(QFrame):
    """What the source paper got wrong: its key, the verified key and why."""

    def __init__(self, question: Question, *, dark: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errata_box")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#errata_box { background: %s; border: 1px solid %s; "
                           "border-radius: 6px; }" % (("#3a2f12", "#8d6e1c") if dark
                                                      else ("#fff8e1", "#e0b84c")))
        layout = QVBoxLayout(self)
        status_text = {
            "corrected": tr("Errata: the source paper's key was wrong and has been corrected"),
            "void": tr("Errata: this question is void: no option is correct, so it is not "
                       "scored"),
            "disputed": tr("Errata: this question is disputed; defensible keys are accepted"),
            "draft": tr("Unverified: imported from a source nobody has checked yet; the key "
                        "is the one the source printed"),
        }[question.status]
        if question.status == "corrected" and not question.key_changed:
            status_text = tr("Errata: the key is right, but the source's wording or "
                             "explanation was not")
        title = rich_label(f"<b>⚠ {status_text}</b>", name="errata_title")
        layout.addWidget(title)
        if question.type in ("single_choice", "multiple_choice", "fill_blank"):
            keys = QHBoxLayout()
            keys.addWidget(rich_label(tr("Source paper's key") + ": "
                                      + key_html(question, question.seed_answer, dark=dark),
                                      name="errata_seed_key"), 1)
            verified = (key_html(question, question.answer, dark=dark) if question.scored
                        else "<i>" + tr("none (void)") + "</i>")
            keys.addWidget(rich_label(tr("Verified key") + ": " + verified,
                                      name="errata_verified_key"), 1)
            layout.addLayout(keys)
        elif question.status != "ok" and question.seed_answer:
            # Long keys (derivations, essays): the source's text; the verified one is shown
            # as the reference answer next to this box.
            layout.addWidget(rich_label("<b>" + tr("Source paper's answer") + "</b>"
                                        + markdown_to_html(str(question.seed_answer), dark=dark),
                                        name="errata_seed_key"))
        layout.addWidget(rich_label(markdown_to_html(question.errata, dark=dark),
                                    name="errata_reason"))


class QuestionView(QScrollArea):
    """A scrollable page for one question; the screens put one per question in a stack."""

    sig_verify_requested = Signal(str)
    """Run the question's verify snippet visibly in the console: (source)."""

    def __init__(self, question: Question, section: Section | None, *, index: int, total: int,
                 dark: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        self.dark = dark
        self.revealed = False
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # arrows/PgUp navigate, not scroll
        page = QWidget()
        self.setWidget(page)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(16, 12, 16, 16)

        header = QHBoxLayout()
        where = f"{section.title} · " if section else ""
        number = tr("Question %1").replace("%1", str(question.number))
        self.title = rich_label(
            f"<b>{where}{number}</b> "
            f"<span style='color:#777'>({index + 1}/{total}) · {type_label(question.type)} · "
            f"{question.points:g} {tr('points')}</span>", name="question_title")
        header.addWidget(self.title, 1)
        self.flag_label = QLabel("⚑ " + tr("Flagged"))
        self.flag_label.setStyleSheet("color: #d35400; font-weight: bold")
        self.flag_label.hide()
        header.addWidget(self.flag_label)
        layout.addLayout(header)
        if question.topics:
            layout.addWidget(rich_label("<span style='color:#777'>" + " · ".join(
                inline(t) for t in question.topics) + "</span>"))
        if not question.scored:
            # A void question says so up front: the learner should not spend time on it.
            layout.addWidget(rich_label(
                "<span style='color:#b26a00; font-weight:bold'>" + tr(
                    "This question is void (no correct answer): it is shown for study "
                    "and is not scored.") + "</span>", name="void_notice"))
        if question.draft:
            # Imported and not checked by anyone: say so before the learner trusts the key.
            flags = len(question.review)
            text = tr("Unverified: imported from a source nobody has checked yet; the key is "
                      "the one the source printed.")
            if flags:
                text += " " + tr("%1 place(s) were flagged for review when it was imported.") \
                    .replace("%1", str(flags))
            layout.addWidget(rich_label("<span style='color:#b26a00; font-weight:bold'>"  # theme: warning
                                        + text + "</span>", name="draft_notice"))
        self.stem = rich_label(markdown_to_html(stem_markdown(question), dark=dark), name="stem")
        layout.addWidget(self.stem)

        self.answer: AnswerWidget = make_answer_widget(question)
        layout.addWidget(self.answer)

        # Outside the feedback: it also carries "answer first" without revealing anything.
        self.verdict = rich_label(name="verdict")
        layout.addWidget(self.verdict)
        self.feedback = QWidget()
        self.feedback.setObjectName("feedback")
        feedback_layout = QVBoxLayout(self.feedback)
        feedback_layout.setContentsMargins(0, 8, 0, 0)
        self.key = rich_label(name="key")
        feedback_layout.addWidget(self.key)
        self.errata: ErrataBox | None = None
        if question.errata:
            self.errata = ErrataBox(question, dark=dark)
            feedback_layout.addWidget(self.errata)
        self.explanation = rich_label(name="explanation")
        feedback_layout.addWidget(self.explanation)
        self.verify_button: QPushButton | None = None
        if question.verify is not None:
            # Executable explanation: the key's figures recomputed with real code.
            self.verify_button = QPushButton(tr("Verify in console"))
            self.verify_button.setObjectName("verify_button")
            self.verify_button.setToolTip(tr("Runs a snippet that reproduces the key's "
                                             "figures with torch (needs the console)."))
            self.verify_button.clicked.connect(self._request_verify)
            self.verify_button.setEnabled(False)
            row = QHBoxLayout()
            row.addWidget(self.verify_button)
            row.addStretch(1)
            feedback_layout.addLayout(row)
        self.feedback.hide()
        layout.addWidget(self.feedback)
        layout.addStretch(1)

    def _request_verify(self) -> None:
        self.sig_verify_requested.emit(self.question.verify.read_text(encoding="utf-8"))

    def set_console_available(self, available: bool) -> None:
        if self.verify_button is not None:
            self.verify_button.setEnabled(available)

    def set_flagged(self, flagged: bool) -> None:
        self.flag_label.setVisible(flagged)

    def set_grade(self, grade: dict | None) -> None:
        """Show (or update, after self-marks) the verdict line."""
        self.verdict.setText(verdict_html(grade) if grade else "")

    def reveal(self, grade: dict | None) -> None:
        """Show the verdict, the key, the explanation and the errata."""
        q = self.question
        self.revealed = True
        self.set_grade(grade)
        if q.type in ("short_answer", "system_design"):
            key = "<b>" + tr("Reference answer") + "</b>" + markdown_to_html(
                str(q.answer or ""), dark=self.dark)
        elif q.type == "calculation":
            key = ("<b>" + tr("Key") + "</b><br/>" + key_html(q, q.answer, dark=self.dark)
                   + "<br/><b>" + tr("Worked solution") + "</b>"
                   + markdown_to_html(q.reference_answer, dark=self.dark))
        elif q.type == "programming":
            key = ("<b>" + tr("Reference solution") + "</b>"
                   + key_html(q, q.answer, dark=self.dark))
        elif q.scored:
            key = "<b>" + tr("Key") + ":</b> " + key_html(q, q.answer, dark=self.dark)
        else:
            key = ""
        self.key.setText(key)
        self.explanation.setText("<b>" + tr("Explanation") + "</b>"
                                 + markdown_to_html(q.explanation, dark=self.dark))
        self.feedback.show()
        self.answer.show_rubric()
        rubric = getattr(self.answer, "rubric", None)
        if rubric is not None:
            # Below the reference answer: read it, then tick what your answer covered.
            self.feedback.layout().addWidget(rubric)
            rubric.show()
        if q.scored and q.type in ("single_choice", "multiple_choice"):
            self.answer.mark_key([q.answer] if isinstance(q.answer, str) else list(q.answer))
