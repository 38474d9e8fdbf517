"""One question on screen: header, stem, answer widget, and (once revealed) the feedback.

Feedback = verdict, the verified key, the explanation and, when the seed's key was wrong or
the question is void/disputed, an errata box with both keys and the reason.
"""
from __future__ import annotations

import html
from contextlib import contextmanager
from typing import Any, Iterator

import shiboken6
from PySide6.QtCore import QPoint, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QPainter, QPalette, QPen, QShortcut
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QScrollBar, QSplitter, QTextBrowser, QVBoxLayout, QWidget)

from question_db.enums import QuestionType
from question_db.grading import CORRECT, PARTIAL, PENDING, UNANSWERED, VOID, WRONG
from question_db.model import BLANK_MARK, Question, Section

from .answer_widgets import AnswerWidget, make_answer_widget
from .markdown_html import highlight_code, inline, markdown_to_html
from .flow_text import FlowText
from .points import format_points
from .question_script import shown
from .translation import tr
from ..theme import Role, css, theme

VERDICT_ROLES = {CORRECT: Role.OK, PARTIAL: Role.WARNING, WRONG: Role.ERROR,
                 UNANSWERED: Role.MUTED, PENDING: Role.INFO, VOID: Role.MUTED}


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


def waits_for_checks(grade: dict) -> bool:
    """A pending grade that a check run would score (else only self-marks are missing)."""
    return any(part.get("checks_passed_share", 1) is None and part.get("max_points")
               for part in grade.get("parts") or [])


def verdict_html(grade: dict) -> str:
    """'Correct · 2 / 2 points' in the verdict's colour."""
    verdict = grade.get("verdict", "")
    color = css(VERDICT_ROLES.get(verdict, Role.TEXT))
    text = verdict_label(verdict)
    if verdict == PENDING and not waits_for_checks(grade):
        text = tr("To self-mark")  # nothing runs to score it: the learner's marks will
    if verdict != VOID:
        text += (f" · {format_points(grade.get('points'))} / "
                 f"{format_points(grade.get('max_points'))} " + tr("points"))
    return f'<span style="color:{color}; font-weight:bold">{text}</span>'


def key_html(question: Question, key: Any) -> str:
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
            first = blank[0] if isinstance(blank, list) and blank else blank
            others = blank[1:] if isinstance(blank, list) else []  # every variant, none cut
            extra = (" (" + tr("also accepted") + ": " + variants_html(others) + ")"
                     ) if others else ""
            items.append(f"({i + 1}) <b>{variants_html([first])}</b>{extra}")
        return "<br/>".join(items)
    if qtype == "calculation" and isinstance(key, list):
        rows = []
        for part in key:
            if isinstance(part, dict):
                rows.append(f"{inline(shown(part['label']))}: <b>{part['value']:g}</b> {part['unit']} "
                            f"(± {part['tolerance']:g})")
        return "<br/>".join(rows) if rows else markdown_to_html(shown(str(key)))
    if qtype == "programming" and isinstance(key, str) and key.count("\n") > 2:
        return highlight_code(key, "python")
    return markdown_to_html(shown(str(key)))


def variants_html(variants) -> str:
    """Accepted answers, each as code (they contain commas themselves), none left out."""
    return VARIANT_SEPARATOR.join(f"<code>{html.escape(shown(str(v)))}</code>"
                                  for v in variants)


VARIANT_SEPARATOR = "&nbsp;&nbsp;|&nbsp;&nbsp;"


def _mark(correct: bool | None) -> str:
    return "" if correct is None else ("✓" if correct else "✗")


def blanks_html(question: Question, grade: dict | None) -> str:
    """Per blank: ✓/✗, what was written, the key and every accepted variant, the points."""
    parts = {p.get("blank"): p for p in (grade or {}).get("parts", []) if "blank" in p}
    rows = []
    for i, variants in enumerate(question.answer or []):
        variants = list(variants) if isinstance(variants, (list, tuple)) else [variants]
        part = parts.get(i + 1)
        row = f"({i + 1}) "
        if part is not None:
            given = str(part.get("given") or "").strip()
            row += (f"<b>{_mark(part.get('correct'))}</b> " + tr("yours") + ": "
                    + (f"<code>{html.escape(given)}</code>" if given else "—") + " · ")
        row += tr("key") + f": <b>{variants_html(variants[:1])}</b>"
        if len(variants) > 1:
            row += "<br/>&nbsp;&nbsp;&nbsp;&nbsp;" + tr("also accepted") + ": " + variants_html(
                variants[1:])
        if part is not None:
            row += (f" · {format_points(part.get('points'))}/"
                    f"{format_points(part.get('max_points'))}")
        rows.append(row)
    return "<br/>".join(rows)


def _number(value: Any) -> str:
    return "—" if value is None else f"{value:g}"


def parts_html(question: Question, grade: dict | None) -> str:
    """Per numeric part: ✓/✗, the value given, the key with its unit and tolerance."""
    graded = [p for p in (grade or {}).get("parts", []) if "part" in p]
    rows = []
    for i, part in enumerate(question.parts):
        row = f"{inline(shown(part.label))}: "
        mark = graded[i] if i < len(graded) else None
        if mark is not None:
            row += (f"<b>{_mark(mark.get('correct'))}</b> " + tr("yours") + ": "
                    + _number(mark.get("given")) + " · ")
        row += (tr("key") + f": <b>{part.value:g}</b> {html.escape(part.unit)} "
                + tr("(accepted within ± %1)").replace("%1", f"{part.tolerance:g}"))
        if mark is not None:
            row += (f" · {format_points(mark.get('points'))}/"
                    f"{format_points(mark.get('max_points'))}")
        rows.append(row)
    return "<br/>".join(rows)


CHOICE_LEGEND_MARKS = ("✓", "✗", "○")


def choice_legend() -> str:
    # tr() stays outside the f-string: lupdate does not look inside string literals.
    labels = (tr("your pick, right"), tr("your pick, wrong"), tr("in the key, not picked"))
    return "   ".join(f"{mark} {label}" for mark, label in zip(CHOICE_LEGEND_MARKS, labels))


def stem_markdown(question: Question) -> str:
    """The stem, with fill-in blanks numbered to match the answer fields."""
    if question.type != "fill_blank":
        return question.stem
    count = iter(range(1, 100))
    return BLANK_MARK.sub(lambda m: f"＿＿({next(count)})＿＿", question.stem)


def rich_label(html: str = "", *, name: str = "", flow: bool = False) -> QLabel | FlowText:
    """Selectable rich text; ``flow``: for a narrow pane (wraps inside long tokens)."""
    if flow:
        text = FlowText(html)
        if name:
            text.setObjectName(name)
        return text
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

    def __init__(self, question: Question, parent: QWidget | None = None, *,
                 flow: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("errata_box")
        # Painted here, not by a style sheet: under one, the box's text kept its size when
        # the learner zoomed (Ctrl+=) while the rest of the page grew (issue 30.7).
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setContentsMargins(1, 1, 1, 1)
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
                                      + key_html(question, question.seed_answer),
                                      name="errata_seed_key"), 1)
            verified = (key_html(question, question.answer) if question.scored
                        else "<i>" + tr("none (void)") + "</i>")
            keys.addWidget(rich_label(tr("Verified key") + ": " + verified,
                                      name="errata_verified_key"), 1)
            layout.addLayout(keys)
        elif question.status != "ok" and question.seed_answer:
            # Long keys (derivations, essays): the source's text; the verified one is shown
            # as the reference answer next to this box.
            layout.addWidget(rich_label("<b>" + tr("Source paper's answer") + "</b>"
                                        + markdown_to_html(shown(str(question.seed_answer))),
                                        name="errata_seed_key", flow=flow))
        layout.addWidget(rich_label(markdown_to_html(shown(question.errata)),
                                    name="errata_reason", flow=flow))

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(theme().color(Role.WARNING_BORDER), 1))
        painter.setBrush(theme().color(Role.WARNING_BG))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        painter.end()


class QuestionView(QWidget):
    """One question's page; the screens put one per question in a stack.

    The problem (header, stem, answer, feedback) scrolls on its own. A programming question
    is a workspace: the problem on the left | the code (editor at full height, its check
    results under it) on the right, in ``workspace_splitter``.
    """

    sig_verify_requested = Signal(str)
    """Run the question's verify snippet visibly in the console: (source)."""

    sig_problem_shown = Signal(bool)
    """A code page's problem pane was shown or hidden by the learner (the editor then has
    the page's width)."""

    def __init__(self, question: Question, section: Section | None, *, index: int,
                 total: int, paper_title: str = "", position: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        self.revealed = False
        self.scroll = QScrollArea()
        self.scroll.setObjectName("problem_scroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # arrows/PgUp navigate, not scroll
        # The bar's place is kept (a stable gutter): the verdict, the explanation or a
        # longer answer would otherwise bring it in and narrow every line, re-wrapping
        # the options the learner is reading.
        self.scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        page = QWidget()
        self.scroll.setWidget(page)
        # Not opaque (setWidget made the page fill its background, the viewport fills
        # too): an opaque page shown by a switch is painted on its own, with its
        # children, and then its children, dirty from their own show, again with the
        # rest of the window (Qt's QWidgetRepaintManager::paintAndFlush). Not filling,
        # the window's background shows through (the same Window colour) and each
        # label is painted once. Bench question_switch: 38.5 -> 30.2 paints a switch.
        page.setAutoFillBackground(False)
        self.scroll.viewport().setAutoFillBackground(False)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(16, 12, 16, 16)

        header = QHBoxLayout()
        # ``paper_title``: on a screen over several papers (a set's run, the review
        # session), which paper this question is from
        named = (paper_title, shown(section.title) if section else "")
        where = "".join(f"{html.escape(text)} · " for text in named if text)
        number = tr("Question %1").replace("%1", str(question.number))
        points = tr("points")  # not inside the f-string, where lupdate cannot see it
        self.title = rich_label(
            f"<b>{where}{number}</b> "
            f"<span style='color:{css(Role.MUTED)}'>({position or f'{index + 1}/{total}'}) · "
            f"{type_label(question.type)} · "
            f"{format_points(question.points)} {points}</span>", name="question_title")
        header.addWidget(self.title, 1)
        self.flag_label = QLabel("⚑ " + tr("Flagged"))
        flag_font = self.flag_label.font()  # a palette, not a style sheet: it zooms
        flag_font.setBold(True)
        self.flag_label.setFont(flag_font)
        flag_palette = self.flag_label.palette()
        flag_palette.setColor(QPalette.ColorRole.WindowText, theme().color(Role.FLAG))
        self.flag_label.setPalette(flag_palette)
        self.flag_label.hide()
        header.addWidget(self.flag_label)
        layout.addLayout(header)
        if question.topics:
            layout.addWidget(rich_label(f"<span style='color:{css(Role.MUTED)}'>" + " · ".join(
                inline(shown(t)) for t in question.topics) + "</span>"))
        if not question.scored:
            # A void question says so up front: the learner should not spend time on it.
            layout.addWidget(rich_label(
                f"<span style='color:{css(Role.WARNING)}; font-weight:bold'>" + tr(
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
            layout.addWidget(rich_label(f"<span style='color:{css(Role.WARNING)}; "
                                        "font-weight:bold'>" + text + "</span>",
                                        name="draft_notice"))
        # A programming question's problem pane is narrow (the editor gets the width): its
        # long texts wrap inside long tokens instead of widening the page (flow_text.py).
        narrow = question.type == QuestionType.PROGRAMMING
        self.stem = rich_label(markdown_to_html(shown(stem_markdown(question))),
                               name="stem", flow=narrow)
        layout.addWidget(self.stem)

        self.answer: AnswerWidget = make_answer_widget(question)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.workspace_splitter: QSplitter | None = None
        if question.type == QuestionType.PROGRAMMING:
            self.workspace_splitter = QSplitter(Qt.Orientation.Horizontal)
            self.workspace_splitter.setObjectName("workspace_splitter")
            self.workspace_splitter.setChildrenCollapsible(False)
            self.workspace_splitter.addWidget(self.scroll)
            self.workspace_splitter.addWidget(self.answer)
            # The editor gets the larger share (≥ 60% of the page) until the learner moves
            # the handle; the screens remember where (Keys.WORKSPACE_SPLITTER).
            self.workspace_splitter.setStretchFactor(0, 38)
            self.workspace_splitter.setStretchFactor(1, 62)
            self.workspace_splitter.setSizes([380, 620])
            self.answer.setMinimumWidth(280)
            self.scroll.setMinimumWidth(200)
            outer.addWidget(self.workspace_splitter)
            # At 1024×700 the problem pane leaves the editor ~60 columns: it can be put
            # away (Ctrl+Shift+P) for the code's full width, and back.
            self.problem_button = QPushButton()
            self.problem_button.setObjectName("toggle_problem")
            self.problem_button.setCheckable(True)
            self.problem_button.setChecked(True)
            self.problem_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.problem_button.toggled.connect(self._problem_toggled)
            self.answer.button_bar.layout().insertWidget(0, self.problem_button)
            shortcut = QShortcut(QKeySequence("Ctrl+Shift+P"), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(self.problem_button.toggle)
            self._show_problem_state(True)
        else:
            layout.addWidget(self.answer)
            outer.addWidget(self.scroll)

        # Outside the feedback: it also carries "answer first" without revealing anything.
        self.compare: QSplitter | None = None  # answer | reference answer, after the reveal
        self.reference: QTextBrowser | None = None
        self.verdict = rich_label(name="verdict")
        layout.addWidget(self.verdict)
        self.feedback = QWidget()
        self.feedback.setObjectName("feedback")
        feedback_layout = QVBoxLayout(self.feedback)
        feedback_layout.setContentsMargins(0, 8, 0, 0)
        self.key = rich_label(name="key", flow=narrow)
        feedback_layout.addWidget(self.key)
        self.errata: ErrataBox | None = None
        if question.errata:
            self.errata = ErrataBox(question, flow=narrow)
            feedback_layout.addWidget(self.errata)
        self.explanation = rich_label(name="explanation", flow=narrow)
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

    def set_problem_shown(self, shown: bool) -> None:
        """Show or put away a code page's problem pane (the screen keeps one state for all
        its code pages)."""
        if self.workspace_splitter is not None and self.problem_button.isChecked() != shown:
            self.problem_button.blockSignals(True)
            self.problem_button.setChecked(shown)
            self.problem_button.blockSignals(False)
            self._show_problem_state(shown)

    def problem_shown(self) -> bool:
        return self.workspace_splitter is None or not self.scroll.isHidden()

    def _problem_toggled(self, shown: bool) -> None:
        self._show_problem_state(shown)
        self.sig_problem_shown.emit(shown)

    def _show_problem_state(self, shown: bool) -> None:
        self.scroll.setVisible(shown)
        self.workspace_splitter.refresh()  # now: the code pane takes (or gives) the width
        self.problem_button.setText(("◀ " if shown else "▶ ") + tr("Problem"))
        self.problem_button.setToolTip(
            tr("Hide the problem: the editor gets the whole width (Ctrl+Shift+P)") if shown
            else tr("Show the problem beside the editor (Ctrl+Shift+P)"))

    def verticalScrollBar(self) -> QScrollBar:  # noqa: N802 - as QScrollArea's
        """The problem's scroll bar."""
        return self.scroll.verticalScrollBar()

    def ensureWidgetVisible(self, widget: QWidget, xmargin: int = 50,  # noqa: N802
                            ymargin: int = 50) -> None:
        self.scroll.ensureWidgetVisible(widget, xmargin, ymargin)

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
        """Show the verdict, the key (per blank / per part), the explanation and the errata;
        a self-marked answer gets the reference answer and the rubric beside its text."""
        q = self.question
        self.revealed = True
        self.set_grade(grade)
        self.answer.show_rubric()
        rubric = getattr(self.answer, "rubric", None)
        key = ""
        if q.type in ("short_answer", "system_design"):
            self._show_beside_answer(str(q.answer or ""), rubric)
        elif q.type == "calculation":
            key = "<b>" + tr("Key") + "</b><br/>" + parts_html(q, grade)
            self._show_beside_answer(q.reference_answer, rubric, title=tr("Worked solution"))
        elif q.type == "programming":
            key = ("<b>" + tr("Reference solution") + "</b>"
                   + key_html(q, q.answer))
            if rubric is not None:  # the self-marked items, in the problem pane
                self.feedback.layout().addWidget(rubric)
                rubric.show()
        elif q.type == "fill_blank" and q.scored:
            key = "<b>" + tr("Key") + "</b><br/>" + blanks_html(q, grade)
        elif q.scored:
            key = "<b>" + tr("Key") + ":</b> " + key_html(q, q.answer)
            key += "<br/><small>" + choice_legend() + "</small>"
        self.key.setText(key)
        self.key.setVisible(bool(key))
        self.explanation.setText("<b>" + tr("Explanation") + "</b>"
                                 + markdown_to_html(shown(q.explanation)))
        self.feedback.show()
        if q.scored and q.type in ("single_choice", "multiple_choice"):
            self.answer.mark_key([q.answer] if isinstance(q.answer, str) else list(q.answer))

    def _show_beside_answer(self, reference_markdown: str, rubric: QWidget | None, *,
                            title: str | None = None) -> None:
        """The reference answer (scrolling on its own) and the rubric to tick, next to the
        learner's text instead of far below it."""
        if self.compare is not None:
            return
        layout = self.scroll.widget().layout()
        index = layout.indexOf(self.answer)
        self.compare = QSplitter(Qt.Orientation.Horizontal)
        self.compare.setObjectName("answer_and_reference")
        self.compare.setChildrenCollapsible(False)
        layout.insertWidget(index, self.compare)
        self.compare.addWidget(self.answer)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 0, 0, 0)
        side_layout.addWidget(rich_label("<b>" + (title or tr("Reference answer")) + "</b>"))
        self.reference = QTextBrowser()
        self.reference.setObjectName("reference_answer")
        self.reference.setOpenLinks(False)
        self.reference.setHtml(markdown_to_html(shown(reference_markdown)))
        side_layout.addWidget(self.reference, 1)
        if rubric is not None:
            side_layout.addWidget(rubric)
            rubric.show()
        self.compare.addWidget(side)
        self.compare.setSizes([500, 500])
        self.compare.setMinimumHeight(440)

    @contextmanager
    def keeping_in_view(self, anchor: QWidget) -> Iterator[None]:
        """Changes made inside keep ``anchor`` where it is on screen (saving self-marks
        inserts the rating bar and rewrites the verdict: the rubric must not move)."""
        content = self.scroll.widget()
        bar = self.scroll.verticalScrollBar()
        before = anchor.mapTo(content, QPoint(0, 0)).y() - bar.value()
        yield

        def restore() -> None:
            if shiboken6.isValid(anchor) and shiboken6.isValid(bar):
                bar.setValue(anchor.mapTo(content, QPoint(0, 0)).y() - before)
        content.layout().activate()
        restore()
        QTimer.singleShot(0, self, restore)  # after the scroll area took the new size
