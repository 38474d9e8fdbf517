"""Mock exam (组卷): compose an exam from the bank and run it as a paper exam.

Papers and topics to draw from, per question type a count and the points each is worth,
the duration, the seed (the same seed draws the same exam) and whether unverified
(imported) questions may be drawn. The preview (``study.compose_mock_exam``) says how many
questions and points the exam has, or which type is short ("not enough 多选题: 10 needed,
6 available"). A composition is saved as a template (``study.save_template``), with its
best and last score; Start (``study.start_mock_exam``) opens it in the exam screen:
countdown, 答题卡, flags, auto-submit, report, resume after a kill.
"""
from __future__ import annotations

import datetime as dt
import html
import secrets

import shiboken6
from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox,
                               QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QPushButton, QSpinBox,
                               QTableWidget, QVBoxLayout, QWidget)

from question_db import study
from question_db.enums import QuestionType, TemplateKind
from question_db.mock_exam import CompositionError, MockExamSpec, MockPart, typical_points
from question_db.model import Bank

from ..config import Keys
from ..db import DbOps
from ..theme import Role, theme
from .check_list import CheckList
from .points import format_points
from .practice_set_dialog import MAX_SEED, imported
from .question_view import type_label
from .translation import tr

__all__ = ["MockExamDialog", "DEFAULT_PARTS"]

PREVIEW_DELAY_MS = 150
# A first composition like the bundled papers' front part: questions per type. Each type's
# points start from what its questions are most often worth in the bank.
DEFAULT_PARTS = {QuestionType.SINGLE_CHOICE: 10, QuestionType.MULTIPLE_CHOICE: 5,
                 QuestionType.FILL_BLANK: 3}
COUNT, POINTS = 2, 3  # table columns


class MockExamDialog(QDialog):
    """Compose, preview, save as a template, start."""

    sig_start = Signal(object, object)
    """Start a mock exam: (template id or None, MockExamSpec)."""

    def __init__(self, bank: Bank, db: DbOps, settings: QSettings,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mock_exam_dialog")
        self.setWindowTitle(tr("Mock exam (组卷)"))
        self.resize(860, 640)
        self.bank = bank
        self.db = db
        self.settings = settings
        self.templates: list[study.Template] = []
        self.template: study.Template | None = None  # loaded (and unchanged since saved)
        self.preview = None  # ComposedPreview of the current spec
        self.shortages: tuple = ()
        self._seq = 0

        self.template_combo = QComboBox()
        self.template_combo.setObjectName("mock_templates")
        self.template_combo.activated.connect(self._template_chosen)
        self.template_scores = QLabel()
        self.template_scores.setObjectName("mock_template_scores")
        self.delete_button = QPushButton(tr("Delete"))
        self.delete_button.setObjectName("delete_mock_template")
        self.delete_button.clicked.connect(self.delete_template)
        templates = QHBoxLayout()
        templates.addWidget(QLabel(tr("Template")))
        templates.addWidget(self.template_combo, 1)
        templates.addWidget(self.template_scores, 1)
        templates.addWidget(self.delete_button)

        self.title = QLineEdit(tr("Mock exam"))
        self.title.setObjectName("mock_title")
        self.duration = QSpinBox()
        self.duration.setObjectName("mock_duration")
        self.duration.setRange(1, 600)
        self.duration.setValue(60)
        self.duration.setSuffix(" " + tr("min"))
        self.seed = QSpinBox()
        self.seed.setObjectName("mock_seed")
        self.seed.setRange(0, MAX_SEED)
        self.seed.setValue(secrets.randbelow(10_000))
        new_seed = QPushButton(tr("New seed"))
        new_seed.clicked.connect(lambda: self.seed.setValue(secrets.randbelow(10_000)))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(new_seed)
        self.include_drafts = QCheckBox(tr("Unverified (imported) questions too"))
        self.include_drafts.setObjectName("mock_include_drafts")
        form = QFormLayout()
        form.addRow(tr("Title"), self.title)
        form.addRow(tr("Duration"), self.duration)
        form.addRow(tr("Seed"), seed_row)
        seed_note = QLabel(tr("The same seed draws the same exam."))
        seed_note.setStyleSheet(f"color: {theme().css(Role.MUTED)}")
        form.addRow("", seed_note)
        form.addRow("", self.include_drafts)

        self.papers = CheckList("mock_papers")
        self.papers.set_items([(p.title + ("  " + tr("(imported, unverified)")
                                           if imported(p) else ""), p.id)
                               for p in bank.papers], checked=[p.id for p in bank.papers])
        self.topics = CheckList("mock_topics")
        self.topics.set_items([(t, t) for t in sorted({t for q in bank.all_questions()
                                                       for t in q.topics})])
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("mock_parts")
        self.table.setHorizontalHeaderLabels([tr("Type"), tr("Available"), tr("How many"),
                                              tr("Points each")])
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        for column in (0, 1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.types = list(dict.fromkeys(q.type for q in bank.all_questions()))
        self.include: dict[QuestionType, QCheckBox] = {}
        self.counts: dict[QuestionType, QSpinBox] = {}
        self.points: dict[QuestionType, QDoubleSpinBox] = {}
        self.available: dict[QuestionType, QLabel] = {}
        self.table.setRowCount(len(self.types))
        for row, qtype in enumerate(self.types):
            count, points = DEFAULT_PARTS.get(qtype, 0), typical_points(bank, qtype)
            box = QCheckBox(type_label(qtype))
            box.setChecked(count > 0)
            spin = QSpinBox()
            spin.setRange(1, 500)
            spin.setValue(max(1, count))
            spin.setObjectName(f"mock_count_{qtype}")
            worth = QDoubleSpinBox()
            worth.setRange(0.5, 100)
            worth.setSingleStep(0.5)
            worth.setDecimals(1)
            worth.setValue(points)
            worth.setObjectName(f"mock_points_{qtype}")
            available = QLabel()
            available.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.include[qtype], self.counts[qtype] = box, spin
            self.points[qtype], self.available[qtype] = worth, available
            box.setObjectName(f"mock_type_{qtype}")
            self.table.setCellWidget(row, 0, box)
            self.table.setCellWidget(row, 1, available)
            self.table.setCellWidget(row, COUNT, spin)
            self.table.setCellWidget(row, POINTS, worth)
            box.toggled.connect(self._part_toggled)
            spin.valueChanged.connect(self.schedule_preview)
            worth.valueChanged.connect(self.schedule_preview)
        self._part_toggled()

        scope = QHBoxLayout()
        for title, widget in ((tr("Papers"), self.papers), (tr("Topics (none: any)"),
                                                            self.topics)):
            box = QGroupBox(title)
            inner = QVBoxLayout(box)
            inner.addWidget(widget)
            scope.addWidget(box)
        self.preview_label = QLabel()
        self.preview_label.setObjectName("mock_preview")
        self.preview_label.setWordWrap(True)
        self.preview_label.setTextFormat(Qt.TextFormat.RichText)
        self.save_button = QPushButton(tr("Save as template"))
        self.save_button.setObjectName("save_mock_template")
        self.save_button.clicked.connect(self.save_template)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.start_button.setText(tr("Start exam"))
        self.start_button.setObjectName("start_mock_exam")
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(templates)
        top = QHBoxLayout()
        top.addLayout(form, 2)
        top.addWidget(self.table, 3)
        layout.addLayout(top, 1)
        layout.addLayout(scope, 1)
        layout.addWidget(self.preview_label)
        bottom = QHBoxLayout()
        bottom.addWidget(self.save_button)
        bottom.addStretch(1)
        bottom.addWidget(self.buttons)
        layout.addLayout(bottom)

        for signal in (self.duration.valueChanged, self.seed.valueChanged,
                       self.include_drafts.toggled, self.papers.sig_changed,
                       self.topics.sig_changed, self.title.textEdited):
            signal.connect(self.schedule_preview)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.build_preview)
        self.reload_templates()
        self.schedule_preview()

    # --- the spec ------------------------------------------------------------------------
    def spec(self) -> MockExamSpec:
        """The exam the dialog describes (``ValueError`` naming what is missing)."""
        parts = tuple(MockPart(t, self.counts[t].value(), self.points[t].value())
                      for t in self.types if self.include[t].isChecked())
        chosen = self.papers.checked()
        if not chosen:
            raise ValueError(tr("Choose at least one paper."))
        return MockExamSpec(
            title=self.title.text().strip() or tr("Mock exam"), parts=parts,
            duration_minutes=self.duration.value(),
            paper_ids=None if len(chosen) == len(self.bank.papers) else tuple(chosen),
            topics=tuple(self.topics.checked()), seed=self.seed.value(),
            include_drafts=self.include_drafts.isChecked())

    def set_spec(self, spec: MockExamSpec) -> None:
        self.title.setText(spec.title)
        self.duration.setValue(spec.duration_minutes)
        self.seed.setValue(spec.seed)
        self.include_drafts.setChecked(spec.include_drafts)
        self.papers.set_checked(spec.paper_ids if spec.paper_ids is not None
                                else self.papers.values())
        self.topics.set_checked(spec.topics)
        parts = {p.type: p for p in spec.parts}
        for qtype in self.types:
            part = parts.get(qtype)
            self.include[qtype].setChecked(part is not None)
            if part is not None:
                self.counts[qtype].setValue(part.count)
                self.points[qtype].setValue(part.points)
        self.schedule_preview()

    def _part_toggled(self, *_args) -> None:
        for qtype in self.types:
            on = self.include[qtype].isChecked()
            self.counts[qtype].setEnabled(on)
            self.points[qtype].setEnabled(on)
        self.schedule_preview()

    # --- preview -------------------------------------------------------------------------
    def schedule_preview(self, *_args) -> None:
        if hasattr(self, "_timer"):
            self._timer.start()

    def build_preview(self) -> None:
        self._timer.stop()
        self._seq += 1
        seq = self._seq
        self.start_button.setEnabled(False)
        try:
            spec = self.spec()
        except ValueError as exc:
            self._say(str(exc), error=True)
            return
        self._show_available(spec)
        self.db.run(study.compose_mock_exam, bank=self.bank, spec=spec,
                    on_done=lambda preview: self._previewed(seq, preview),
                    on_error=lambda error: self._preview_failed(seq, error))

    def _show_available(self, spec: MockExamSpec) -> None:
        """How many questions of each type the scope offers (all types, even unticked)."""
        from question_db import mock_exam

        every = MockExamSpec(title="x", parts=tuple(MockPart(t, 1, 1) for t in self.types),
                             duration_minutes=1, paper_ids=spec.paper_ids, topics=spec.topics,
                             include_drafts=spec.include_drafts)
        for qtype, found in mock_exam.pool(self.bank, every).items():
            self.available[qtype].setText(str(len(found)))

    def _previewed(self, seq: int, preview) -> None:
        if seq != self._seq or not shiboken6.isValid(self):
            return
        self.preview, self.shortages = preview, ()
        paper = preview.paper
        self._say(tr("%1 questions · %2 points · %3 min, in %4 section(s)")
                  .replace("%1", str(len(paper.questions)))
                  .replace("%2", format_points(paper.total_points))
                  .replace("%3", str(paper.duration_minutes))
                  .replace("%4", str(len(paper.sections))))
        self.start_button.setEnabled(True)

    def _preview_failed(self, seq: int, error: BaseException) -> None:
        if seq != self._seq or not shiboken6.isValid(self):
            return
        self.preview = None
        if isinstance(error, CompositionError):
            self.shortages = error.shortages
            self._say(self.shortage_text(error.shortages), error=True)
        else:
            self._say(str(error), error=True)

    @staticmethod
    def shortage_text(shortages) -> str:
        return tr("Not enough questions for this exam:") + " " + "; ".join(
            tr("not enough %1: %2 needed, %3 available").replace("%1", type_label(s.type))
            .replace("%2", str(s.needed)).replace("%3", str(s.available)) for s in shortages)

    def _say(self, text: str, *, error: bool = False) -> None:
        color = theme().css(Role.ERROR if error else Role.TEXT)
        self.preview_label.setText(f"<b style='color:{color}'>{html.escape(text)}</b>")

    # --- templates -----------------------------------------------------------------------
    def reload_templates(self) -> None:
        self.db.run(study.templates, kind=TemplateKind.MOCK_EXAM, on_done=self._show_templates)

    def _show_templates(self, found: list) -> None:
        if not shiboken6.isValid(self):
            return
        self.templates = list(found)
        self.template_combo.clear()
        self.template_combo.addItem(tr("(a new exam)"), None)
        for template in self.templates:
            self.template_combo.addItem(template.name, template.id)
        wanted = self.template.id if self.template is not None else self.settings.value(
            Keys.MOCK_EXAM_LAST)
        index = self.template_combo.findData(int(wanted)) if wanted not in (None, "") else -1
        if index > 0 and self.template is None:
            self.template_combo.setCurrentIndex(index)
            self._template_chosen(index)
        elif index > 0:
            self.template_combo.setCurrentIndex(index)
        self._show_template_scores()

    def _template_chosen(self, index: int) -> None:
        template_id = self.template_combo.itemData(index)
        self.template = next((t for t in self.templates if t.id == template_id), None)
        if self.template is not None:
            self.set_spec(self.template.spec)
            self.settings.setValue(Keys.MOCK_EXAM_LAST, self.template.id)
        self._show_template_scores()

    def _show_template_scores(self) -> None:
        t = self.template
        self.delete_button.setEnabled(t is not None)
        summary = t.summary if t is not None else None
        if summary is None or not summary.attempts:
            self.template_scores.setText(tr("not taken yet") if t is not None else "")
            return
        self.template_scores.setText(tr("best %1 · last %2 of %3 · %4 time(s)")
                                     .replace("%1", format_points(summary.best_score))
                                     .replace("%2", format_points(summary.last_score))
                                     .replace("%3", format_points(summary.max_score))
                                     .replace("%4", str(summary.attempts)))

    def save_template(self) -> None:
        try:
            spec = self.spec()
        except ValueError as exc:
            self._say(str(exc), error=True)
            return
        template_id = (self.template.id if self.template is not None
                       and self.template.name == spec.title else None)
        self.db.run(study.save_template, kind=TemplateKind.MOCK_EXAM, name=spec.title,
                    spec=spec, template_id=template_id, on_done=self._saved,
                    on_error=lambda error: self._say(str(error), error=True))

    def _saved(self, saved) -> None:
        if not shiboken6.isValid(self):
            return
        self.template = saved.template
        self.settings.setValue(Keys.MOCK_EXAM_LAST, saved.template.id)
        when = dt.datetime.fromtimestamp(saved.template.updated_at).strftime("%H:%M")
        self._say(tr("Saved as the template “%1” (%2).").replace("%1", saved.template.name)
                  .replace("%2", when))
        self.reload_templates()

    def delete_template(self) -> None:
        if self.template is None:
            return
        self.db.run(study.delete_template, template_id=self.template.id)
        self.template = None
        self.settings.remove(Keys.MOCK_EXAM_LAST)
        self.reload_templates()

    # --- start ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the previewed exam (from its template when it is the saved one)."""
        if self._timer.isActive() or self.preview is None:
            return
        spec = self.spec()
        template_id = self.template.id if self.template is not None and \
            self.template.spec == spec else None
        self.sig_start.emit(template_id, spec)
        self._timer.stop()
        self.accept()
