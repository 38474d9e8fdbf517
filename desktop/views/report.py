"""The exam report: total, per section, per topic, time per question, and every question
with the learner's answer, verdict, key, explanation and errata (``question_db.exam``).

Pending subjective answers can be self-marked here: the marks are recorded as a new answer
row (history is kept), scheduled for review, the session rescored, and the report rebuilt
from the store (``question_db.actions.mark_exam_answer``).
"""
from __future__ import annotations

import datetime as dt
import html
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from question_db import actions
from question_db.changes import Changes
from question_db.exam import ExamReport, QuestionRow, ScoreLine
from question_db.grading import PENDING, as_response, response_answered
from question_db.model import Paper, Question
from question_db.responses import (BlanksResponse, CalculationResponse, ChoiceResponse,
                                   CodeResponse, Response, TextResponse, with_checks, with_marks)

from ..db import DbOps
from .answer_widgets import RubricChecklist
from .markdown_html import highlight_code, inline, markdown_to_html
from .points import format_points
from .question_script import shown
from .question_view import key_html, type_label, verdict_html, verdict_label
from .screen import Screen
from .translation import tr
from ..theme import Role, css


def response_html(question: Question, response: Response | Any) -> str:
    """The learner's response, readable (stored JSON is read for its question)."""
    if response is None:
        return "<i>" + tr("no answer") + "</i>"
    response = as_response(question, response)
    if not response.answered:
        return "<i>" + tr("no answer") + "</i>"
    if isinstance(response, ChoiceResponse):
        return "<b>" + ", ".join(response.picked) + "</b>"
    if isinstance(response, BlanksResponse):
        return "<br/>".join(f"({i + 1}) {html.escape(v)}" for i, v in enumerate(response.blanks))
    parts = []
    if isinstance(response, CalculationResponse):
        for part, value in zip(question.parts, response.values):
            parts.append(f"{inline(shown(part.label))}: <b>{html.escape(value or '—')}</b> "
                         f"{html.escape(part.unit)}")
    if isinstance(response, CodeResponse):
        parts.append(highlight_code(response.code, "python"))
    if isinstance(response, (CalculationResponse, TextResponse)) and response.text:
        parts.append("<p style='white-space: pre-wrap'>" + html.escape(response.text) + "</p>")
    return "<br/>".join(parts) or "<i>" + tr("no answer") + "</i>"


def format_time_used(seconds: float) -> str:
    """'2 min 25 s' (2 分 25 秒), '1 h 05 min', '40 s': a bare '2:25' reads as hours or
    minutes alike (issue 30)."""
    hours, rest = divmod(int(round(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return tr("%1 h %2 min").replace("%1", str(hours)).replace("%2", f"{minutes:02d}")
    if minutes:
        return tr("%1 min %2 s").replace("%1", str(minutes)).replace("%2", str(secs))
    return tr("%1 s").replace("%1", str(secs))


class SelfMarkDialog(QDialog):
    """Self-mark one subjective answer against its reference answer and rubric."""

    def __init__(self, question: Question, marks: list | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Self-mark question %1").replace("%1", str(question.number)))
        self.resize(760, 640)
        layout = QVBoxLayout(self)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        body = QLabel(markdown_to_html(shown(str(
            question.answer if question.type != "calculation" else question.reference_answer))))
        body.setWordWrap(True)
        body.setTextFormat(Qt.TextFormat.RichText)
        scroll.setWidget(body)
        layout.addWidget(QLabel("<b>" + tr("Reference answer") + "</b>"))
        layout.addWidget(scroll, 1)
        self.checklist = RubricChecklist(question)
        self.checklist.set_marks(marks)
        layout.addWidget(self.checklist)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


def question_review_html(question: Question, response: Any) -> str:
    """The stem, the learner's response, the key, errata and explanation (reports and the
    wrong-answer book)."""
    out = [markdown_to_html(shown(question.stem))]
    if question.options:
        out.append("<p>" + "<br/>".join(f"{letter}. {inline(shown(text))}"
                                       for letter, text in question.options.items())
                   + "</p>")
    out.append("<p><b>" + tr("Your answer") + ":</b> "
               + response_html(question, response) + "</p>")
    if question.type in ("short_answer", "system_design"):
        out.append("<p><b>" + tr("Reference answer") + ":</b></p>"
                   + markdown_to_html(shown(str(question.answer or ""))))
    elif question.type == "calculation":
        out.append("<p><b>" + tr("Key") + ":</b><br/>"
                   + key_html(question, question.answer) + "</p>")
    elif question.type == "programming":
        out.append("<p><b>" + tr("Reference solution") + ":</b></p>"
                   + key_html(question, question.answer))
    elif question.scored:
        out.append("<p><b>" + tr("Key") + ":</b> "
                   + key_html(question, question.answer) + "</p>")
    if question.errata:
        box = css(Role.WARNING_BG)
        seed = ""
        if question.type in ("single_choice", "multiple_choice", "fill_blank"):
            seed = ("<p>" + tr("Source paper's key") + ": "
                    + key_html(question, question.seed_answer) + "</p>")
        out.append(f"<table width='100%' cellpadding='6' style='background-color:{box}'>"
                   f"<tr><td><b>⚠ " + tr("Errata") + f"</b>{seed}"
                   + markdown_to_html(shown(question.errata)) + "</td></tr></table>")
    out.append("<p><b>" + tr("Explanation") + ":</b></p>"
               + markdown_to_html(shown(question.explanation)))
    return "".join(out)


class ReportView(Screen):
    """Shows one ExamReport. ``sig_leave`` goes back to the library; ``sig_check_requested``
    checks a pending programming answer in the console."""

    sig_practise = Signal(list, str)
    """Practise these questions as a run: (question ids, the run's title)."""

    def __init__(self, paper: Paper, report: ExamReport, db: DbOps, *,
                 check_pending: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("report_view")
        self.paper = paper
        self.db = db
        self.report = report
        self.console_available = False
        # An exam just submitted: its code answers are checked one after another, as soon
        # as the console is up (a closed-book exam ran no check before).
        self.to_check: list[str] = [r.question_id for r in report.questions
                                    if check_pending and self._checkable(r)]
        self.checking: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        top = QHBoxLayout()
        back = QPushButton("← " + tr("Library"))
        back.clicked.connect(self.sig_leave)
        top.addWidget(back)
        self.summary = QLabel()
        self.summary.setObjectName("report_summary")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        top.addWidget(self.summary, 1)
        # 错题重练: the questions this exam scored wrong or partly, as a practice run
        self.missed_ids = [r.question_id for r in report.questions
                           if r.verdict in ("wrong", "partial")]
        self.retry_button = QPushButton(self.tr("Practise the %n missed", "",
                                                len(self.missed_ids)))
        self.retry_button.setObjectName("retry_missed")
        self.retry_button.setToolTip(self.tr("A practice run of the questions this exam "
                                             "scored wrong or partly (错题重练)"))
        self.retry_button.setVisible(bool(self.missed_ids))
        self.retry_button.clicked.connect(
            lambda: self.sig_practise.emit(self.missed_ids, self.tr("Missed in %1").replace(
                "%1", paper.title)))
        top.addWidget(self.retry_button)
        layout.addLayout(top)
        self.check_status = QLabel()
        self.check_status.setObjectName("report_check_status")
        self.check_status.setWordWrap(True)
        self.check_status.setVisible(bool(self.to_check))
        if self.to_check:
            self.check_status.setText(tr("Your code answers are checked as soon as the Python "
                                         "console is ready; the results come into this "
                                         "report."))
        layout.addWidget(self.check_status)

        self.tabs = QTabWidget()
        self.sections = self._table([tr("Section"), tr("Points"), tr("Max"), tr("Correct"),
                                     tr("Pending")])
        self.sections.setObjectName("report_sections")
        self.topics = self._table([tr("Topic"), tr("Points"), tr("Max"), tr("Correct"),
                                   tr("Pending")])
        self.topics.setObjectName("report_topics")
        self.times = self._table([tr("Question"), tr("Type"), tr("Verdict"), tr("Points"),
                                  tr("Time")], stretch_first=False)
        self.times.setObjectName("report_times")
        self.details = QTextBrowser()
        self.details.setObjectName("report_details")
        self.details.setOpenLinks(False)
        self.details.anchorClicked.connect(self._anchor)
        overview = QWidget()
        overview_layout = QVBoxLayout(overview)
        overview_layout.addWidget(QLabel("<b>" + tr("By section") + "</b>"))
        overview_layout.addWidget(self.sections, 1)
        overview_layout.addWidget(QLabel("<b>" + tr("By topic") + "</b>"))
        overview_layout.addWidget(self.topics, 2)
        self.tabs.addTab(overview, tr("Overview"))
        self.tabs.addTab(self.details, tr("Questions"))
        self.tabs.addTab(self.times, tr("Time per question"))
        layout.addWidget(self.tabs, 1)
        self.show_report(report)

    @staticmethod
    def _table(headers: list[str], *, stretch_first: bool = True) -> QTableWidget:
        """``stretch_first``: the first column (a name) takes the spare width; else every
        column fits its contents (a question number needs no 1100 px: issue 30)."""
        table = QTableWidget(0, len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.verticalHeader().hide()
        header = table.horizontalHeader()
        header.setStretchLastSection(False)
        for column in range(len(headers)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch
                                        if column == 0 and stretch_first
                                        else QHeaderView.ResizeMode.ResizeToContents)
        return table

    @staticmethod
    def _fill(table: QTableWidget, rows: list[list[str]]) -> None:
        table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                table.setItem(r, c, item)

    @staticmethod
    def _score_rows(lines: tuple[ScoreLine, ...]) -> list[list[str]]:
        return [[line.name or tr("Other"), format_points(line.points), format_points(line.max_points),
                 f"{line.correct}/{line.questions}", str(line.pending)] for line in lines]

    def show_report(self, report: ExamReport) -> None:
        self.report = report
        state = {"submitted": tr("submitted"), "auto_submitted": tr("submitted when time ran "
                                                                    "out"),
                 "active": tr("in progress"), "abandoned": tr("abandoned")}.get(report.state,
                                                                                report.state)
        started = dt.datetime.fromtimestamp(report.started_at).strftime("%Y-%m-%d %H:%M")
        used = format_time_used(report.time_used_s) if report.time_used_s is not None else "—"
        pending = (f"<br/><span style='color:{css(Role.INFO)}'>" + tr(
            "%1 answer(s) pending: self-mark them under Questions, or run the code checks.")
            .replace("%1", str(report.pending)) + "</span>") if report.pending else ""
        self.summary.setText(
            f"<h2 style='margin:0'>{html.escape(report.paper_title)}</h2>"
            f"<span style='font-size:16pt'><b>{format_points(report.score)}</b> / "
            f"{format_points(report.max_score)} "
            + tr("points") + f"</span> · {started} · {state} · " + tr("time used")
            + f" {used}{pending}")
        self._fill(self.sections, self._score_rows(report.sections))
        self._fill(self.topics, self._score_rows(report.topics))
        self._fill(self.times, [[f"{row.number}", type_label(row.type),
                                 verdict_label(row.verdict),
                                 f"{format_points(row.points)} / {format_points(row.max_points)}", format_time_used(row.seconds)]
                                for row in report.questions])
        scroll = self.details.verticalScrollBar().value()
        self.details.setHtml(self.details_html(report))
        self.details.verticalScrollBar().setValue(scroll)

    def details_html(self, report: ExamReport) -> str:
        parts = []
        for row in report.questions:
            question = self.paper.question(row.number)
            parts.append(self._row_html(question, row))
        return "<hr/>".join(parts)

    def _row_html(self, question: Question, row: QuestionRow) -> str:
        grade = {"verdict": row.verdict, "points": row.points, "max_points": row.max_points}
        flag = " ⚑" if row.flagged else ""
        number = tr("Question %1").replace("%1", str(row.number))
        out = [f"<h3 style='margin-bottom:2px'>{number}{flag} "
               f"<span style='font-weight:normal; color:{css(Role.MUTED)}'>· "
               f"{html.escape(row.section)} · "
               f"{type_label(row.type)} · {format_time_used(row.seconds)}</span></h3>",
               verdict_html(grade)]
        if not row.counted and row.verdict != "void":
            out.append(f" · <span style='color:{css(Role.WARNING)}'>" + tr(
                "not counted: unverified (imported) question") + "</span>")
        if row.verdict == PENDING and question.rubric and any(
                not item.auto for item in question.rubric):
            label = tr("Self-mark…")
            out.append(f" · <a href='selfmark:{row.number}'>{label}</a>")
        if (row.verdict == PENDING and question.type == "programming" and self.console_available
                and isinstance(row.response, CodeResponse) and row.response.code):
            label = tr("Run the checks now")
            out.append(f" · <a href='check:{row.number}'>{label}</a>")
        out.append(question_review_html(question, row.response))
        return "".join(out)

    # --- self-marking pending answers ----------------------------------------------------
    def _anchor(self, url: QUrl) -> None:
        if url.scheme() == "selfmark":
            self.self_mark(int(url.path()))
        elif url.scheme() == "check":
            row = next(r for r in self.report.questions if r.number == int(url.path()))
            self.sig_check_requested.emit(row.question_id, row.response.code)

    def set_console_available(self, available: bool) -> None:
        """Offer "run the checks now" on pending programming answers (and run those of an
        exam just submitted)."""
        self.console_available = available
        self.show_report(self.report)
        self.check_next()

    def enter(self, settings) -> None:
        self.check_next()

    def _checkable(self, row: QuestionRow) -> bool:
        question = self.paper.question(row.number)
        return (row.verdict == PENDING and question.type == "programming"
                and isinstance(row.response, CodeResponse)
                and response_answered(question, row.response))

    def check_next(self) -> None:
        """The next code answer of the submitted exam to check, one run at a time."""
        if self.checking is not None or not self.console_available or not self.to_check:
            return
        question_id = self.to_check.pop(0)
        row = next(r for r in self.report.questions if r.question_id == question_id)
        self.checking = question_id
        self.check_status.setText(tr("Checking your code for question %1… (%2 more to go)")
                                  .replace("%1", str(row.number))
                                  .replace("%2", str(len(self.to_check))))
        self.sig_check_requested.emit(question_id, row.response.code)

    def _checked(self, question_id: str, note: str = "") -> None:
        if question_id != self.checking:
            return
        self.checking = None
        if self.to_check:
            self.check_next()
        else:
            self.check_status.setText(note or tr("Your code answers are checked: the results "
                                                 "are in this report (Questions)."))

    def apply_check_result(self, question_id: str, checks: list[dict]) -> None:
        """Store a check run's results with the answer (and as an attempt in the
        question's history); the report regrades it."""
        row = next((r for r in self.report.questions if r.question_id == question_id), None)
        if row is None or not isinstance(row.response, CodeResponse):
            return
        self.db.run(actions.record_check_attempt, session_id=self.report.session_id,
                    question_id=question_id, code=row.response.code, checks=list(checks))
        self._mark(row, with_checks(row.response, checks))
        self._checked(question_id)

    def show_check_error(self, question_id: str, message: str) -> None:
        """A check of an answer could not run: say so; the answer stays pending."""
        row = next((r for r in self.report.questions if r.question_id == question_id), None)
        note = tr("Question %1 was not checked: %2").replace(
            "%1", str(row.number if row else question_id)).replace("%2", message)
        self.check_status.setVisible(True)
        self.check_status.setText(note)
        self._checked(question_id, note)

    def self_mark(self, number: int, marks: list[bool] | None = None) -> None:
        """Self-mark question ``number``: ask in a dialog unless ``marks`` are given."""
        question = self.paper.question(number)
        row = next(r for r in self.report.questions if r.number == number)
        response = row.response if row.response is not None else as_response(question, None)
        if marks is None:
            dialog = SelfMarkDialog(question, getattr(response, "marks", None),
                                    parent=self)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            marks = dialog.checklist.marks()
        self._mark(row, with_marks(response, marks))

    def _mark(self, row: QuestionRow, response: Response) -> None:
        """Store a marked (or checked) answer after submission; the report is rebuilt."""
        self.db.run(actions.mark_exam_answer, paper=self.paper,
                    session_id=self.report.session_id, question=self.paper.question(row.number),
                    response=response, seconds=row.seconds,
                    on_done=lambda result: self.show_report(result.report))

    def apply_theme(self) -> None:
        self.show_report(self.report)

    def refresh_from(self, changes: Changes, *, initiator: object | None) -> None:
        """Progress was imported or restored: regrade from the store. (Its own marks come
        back through ``_mark``'s callback.)"""
        if changes.everything:
            self.db.run(actions.exam_report, paper=self.paper,
                        session_id=self.report.session_id,
                        on_done=lambda result: self.show_report(result.report))
