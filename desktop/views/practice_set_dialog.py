"""Practice sets: which questions to practise (``study.build_practice_set``).

In order (顺序) or random N with a seed (shown, editable: the same seed gives the same set);
by section, type, topic or status; unanswered only, wrong only, favourites only; drafts
(imported, unverified) in or out; over one paper, some, or all papers including imported
ones. The number of questions that match updates as the filters change. A set can be saved
as a template (``study.save_template``) and is started as a practice run
(``study.start_practice_set``), in practice or recite (背题) mode. Unfinished sets are
listed with Continue (``study.unfinished_runs`` / ``resume_run``).
"""
from __future__ import annotations

import datetime as dt
import html
import secrets

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox,
                               QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPushButton, QRadioButton,
                               QSpinBox, QVBoxLayout, QWidget)

from question_db import study
from question_db.enums import SetOrder, TemplateKind
from question_db.model import Bank
from question_db.practice_sets import (SECTION_SEP, PracticeSetSpec, section_key,
                                      section_title)

from ..db import DbOps
from ..theme import Role, theme
from .check_list import CheckList
from .search_dialog import status_label
from .translation import tr

__all__ = ["PracticeSetDialog", "PREVIEW_DELAY_MS", "imported"]

PREVIEW_DELAY_MS = 150
MAX_SEED = 2**31 - 1


def imported(paper) -> bool:
    """A pack nobody verified yet (every question a draft): imported."""
    return bool(paper.questions) and all(q.draft for q in paper.questions)


class PracticeSetDialog(QDialog):
    """Choose a set, see how many questions match, start it (or continue one)."""

    sig_start = Signal(object, str, bool)
    """Practise this set: (PracticeSetSpec, title, recite mode)."""

    sig_continue = Signal(int)
    """Continue this unfinished run: (run id)."""

    def __init__(self, bank: Bank, db: DbOps, parent: QWidget | None = None, *,
                 paper_id: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("practice_set_dialog")
        self.setWindowTitle(tr("Practice sets"))
        self.resize(900, 640)
        self.bank = bank
        self.db = db
        self.preview = None  # the last PracticeSet built for the current spec
        self.templates: list[study.Template] = []
        self.loaded_template: study.Template | None = None
        self.runs: list[study.RunSummary] = []
        self._seq = 0
        self._building = False

        # --- unfinished sets ---------------------------------------------------------
        self.run_list = QListWidget()
        self.run_list.setObjectName("unfinished_runs")
        self.run_list.setMaximumHeight(96)
        self.run_list.itemDoubleClicked.connect(lambda _item: self.continue_run())
        self.continue_button = QPushButton(tr("Continue"))
        self.continue_button.setObjectName("continue_run")
        self.continue_button.clicked.connect(self.continue_run)
        runs_box = QGroupBox(tr("Unfinished sets"))
        runs_layout = QHBoxLayout(runs_box)
        runs_layout.addWidget(self.run_list, 1)
        runs_layout.addWidget(self.continue_button, 0, Qt.AlignmentFlag.AlignTop)
        self.runs_box = runs_box
        runs_box.hide()

        # --- templates ---------------------------------------------------------------
        self.template_combo = QComboBox()
        self.template_combo.setObjectName("set_templates")
        self.template_combo.activated.connect(self._template_chosen)
        self.delete_button = QPushButton(tr("Delete"))
        self.delete_button.setObjectName("delete_set_template")
        self.delete_button.clicked.connect(self.delete_template)
        self.name = QLineEdit()
        self.name.setObjectName("set_name")
        self.name.setPlaceholderText(tr("Name, to save this set as a template"))
        self.save_button = QPushButton(tr("Save as template"))
        self.save_button.setObjectName("save_set_template")
        self.save_button.clicked.connect(self.save_template)
        templates = QHBoxLayout()
        templates.addWidget(QLabel(tr("Template")))
        templates.addWidget(self.template_combo, 1)
        templates.addWidget(self.delete_button)
        templates.addSpacing(12)
        templates.addWidget(self.name, 1)
        templates.addWidget(self.save_button)

        # --- scope and order ---------------------------------------------------------
        self.papers = CheckList("set_papers")
        self.papers.set_items([(p.title + ("  " + tr("(imported, unverified)")
                                           if imported(p) else ""), p.id)
                               for p in bank.papers],
                              checked=[paper_id] if paper_id else [p.id for p in bank.papers])
        self.papers.sig_changed.connect(self._papers_changed)
        all_row = QHBoxLayout()
        for text, checked in ((tr("All"), True), (tr("None"), False)):
            button = QPushButton(text)
            button.clicked.connect(lambda _=False, on=checked: self.papers.set_checked(
                self.papers.values() if on else []))
            all_row.addWidget(button)
        all_row.addStretch(1)
        papers_box = QGroupBox(tr("Papers"))
        papers_layout = QVBoxLayout(papers_box)
        papers_layout.addWidget(self.papers, 1)
        papers_layout.addLayout(all_row)

        self.in_order = QRadioButton(tr("In order (顺序)"))
        self.in_order.setObjectName("order_paper")
        self.random = QRadioButton(tr("Random (随机)"))
        self.random.setObjectName("order_random")
        self.in_order.setChecked(True)
        self.count = QSpinBox()
        self.count.setObjectName("set_count")
        self.count.setRange(0, 100_000)
        self.count.setSpecialValueText(tr("all"))
        self.count.setValue(0)
        self.seed = QLineEdit()
        self.seed.setObjectName("set_seed")
        self.seed.setPlaceholderText(tr("seed"))
        self.seed.setMinimumWidth(self.seed.fontMetrics().horizontalAdvance("0" * 12))
        self.new_seed_button = QPushButton(tr("New seed"))
        self.new_seed_button.setObjectName("new_seed")
        self.new_seed_button.clicked.connect(self.new_seed)
        self.seed.textEdited.connect(self.schedule_preview)
        self.count.valueChanged.connect(self.schedule_preview)
        order = QGridLayout()
        order.addWidget(self.in_order, 0, 0)
        order.addWidget(self.random, 1, 0)
        order.addWidget(QLabel(tr("How many")), 0, 1)
        order.addWidget(self.count, 0, 2)
        order.addWidget(QLabel(tr("Seed")), 1, 1)
        order.addWidget(self.seed, 1, 2)
        order.addWidget(self.new_seed_button, 1, 3)
        self.random.toggled.connect(self._order_changed)
        order_box = QGroupBox(tr("Order"))
        order_box.setLayout(order)

        # --- filters -----------------------------------------------------------------
        self.sections = CheckList("set_sections")
        self.types = CheckList("set_types")
        self.topics = CheckList("set_topics")
        self.statuses = CheckList("set_statuses")
        filters = QGridLayout()
        for column, (title, widget) in enumerate(((tr("Sections"), self.sections),
                                                  (tr("Types"), self.types),
                                                  (tr("Topics"), self.topics),
                                                  (tr("Status"), self.statuses))):
            filters.addWidget(QLabel("<b>" + title + "</b>"), 0, column)
            filters.addWidget(widget, 1, column)
            widget.sig_changed.connect(self.schedule_preview)
        hint = QLabel(tr("Nothing ticked in a list means any."))
        hint.setStyleSheet(f"color: {theme().css(Role.MUTED)}")
        filters.addWidget(hint, 2, 0, 1, 4)
        self.unanswered_only = QCheckBox(tr("Unanswered only (never answered or shown)"))
        self.unanswered_only.setObjectName("unanswered_only")
        self.wrong_only = QCheckBox(tr("Wrong only (in the wrong-answer book)"))
        self.wrong_only.setObjectName("wrong_only")
        self.favourites_only = QCheckBox(tr("Favourites only (★)"))
        self.favourites_only.setObjectName("favourites_only")
        self.include_drafts = QCheckBox(tr("Include unverified (imported) questions"))
        self.include_drafts.setObjectName("include_drafts")
        self.include_drafts.setChecked(True)
        toggles = QGridLayout()
        for i, box in enumerate((self.unanswered_only, self.wrong_only, self.favourites_only,
                                 self.include_drafts)):
            toggles.addWidget(box, i // 2, i % 2)
            box.toggled.connect(self.schedule_preview)
        filters.addLayout(toggles, 3, 0, 1, 4)
        filters_box = QGroupBox(tr("Filters"))
        filters_box.setLayout(filters)

        # --- mode, count, start ------------------------------------------------------
        self.practice_mode = QRadioButton(tr("Practice: answer, then see the key"))
        self.practice_mode.setObjectName("mode_practice")
        self.recite_mode = QRadioButton(tr("Recite (背题): key and explanation at once"))
        self.recite_mode.setObjectName("mode_recite")
        self.practice_mode.setChecked(True)
        mode = QHBoxLayout()
        mode.addWidget(self.practice_mode)
        mode.addWidget(self.recite_mode)
        mode.addStretch(1)
        self.matching = QLabel()
        self.matching.setObjectName("set_matching")
        self.matching.setTextFormat(Qt.TextFormat.RichText)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.start_button.setText(tr("Start"))
        self.start_button.setObjectName("start_set")
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.reject)

        top = QHBoxLayout()
        left = QVBoxLayout()
        left.addWidget(papers_box, 1)
        left.addWidget(order_box)
        top.addLayout(left, 2)
        top.addWidget(filters_box, 5)
        layout = QVBoxLayout(self)
        layout.addWidget(runs_box)
        layout.addLayout(templates)
        layout.addLayout(top, 1)
        layout.addLayout(mode)
        bottom = QHBoxLayout()
        bottom.addWidget(self.matching, 1)
        bottom.addWidget(self.buttons)
        layout.addLayout(bottom)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.build_preview)
        self._fill_filters()
        self._order_changed(False)
        self.reload_templates()
        self.db.run(study.unfinished_runs, bank=bank, on_done=self._show_runs)

    # --- the spec ------------------------------------------------------------------------
    def spec(self) -> PracticeSetSpec:
        """The set the dialog describes now (``ValueError`` for a seed that is no number)."""
        chosen = self.papers.checked()
        every = len(chosen) == len(self.bank.papers)
        random_order = self.random.isChecked()
        seed_text = self.seed.text().strip()
        if random_order and seed_text and not seed_text.lstrip("-").isdigit():
            raise ValueError(tr("The seed must be a whole number."))
        return PracticeSetSpec(
            paper_ids=None if every else tuple(chosen), sections=tuple(self.sections.checked()),
            types=tuple(self.types.checked()), topics=tuple(self.topics.checked()),
            statuses=tuple(self.statuses.checked()),
            include_drafts=self.include_drafts.isChecked(),
            unanswered_only=self.unanswered_only.isChecked(),
            wrong_only=self.wrong_only.isChecked(),
            favourites_only=self.favourites_only.isChecked(),
            order=SetOrder.RANDOM if random_order else SetOrder.PAPER,
            count=self.count.value() or None,
            seed=int(seed_text) if random_order and seed_text else None)

    def set_spec(self, spec: PracticeSetSpec) -> None:
        """Show a saved set (a template)."""
        self.papers.blockSignals(True)
        self.papers.set_checked(spec.paper_ids if spec.paper_ids is not None
                                else self.papers.values())
        self.papers.blockSignals(False)
        self._fill_filters()
        # a set saved with bare titles (before sections were per paper): each paper's
        sections = [key for value in spec.sections for key in self.sections.values()
                    if key == value or (SECTION_SEP not in value
                                        and section_title(key) == value)]
        for widget, values in ((self.sections, sections), (self.types, spec.types),
                               (self.topics, spec.topics), (self.statuses, spec.statuses)):
            widget.set_checked([str(v) for v in values])
        for box, value in ((self.unanswered_only, spec.unanswered_only),
                           (self.wrong_only, spec.wrong_only),
                           (self.favourites_only, spec.favourites_only),
                           (self.include_drafts, spec.include_drafts)):
            box.setChecked(value)
        (self.random if spec.order == SetOrder.RANDOM else self.in_order).setChecked(True)
        self.count.setValue(spec.count or 0)
        self.seed.setText("" if spec.seed is None else str(spec.seed))
        self.schedule_preview()

    def title(self) -> str:
        """The run's title: the template's name, else what the set is."""
        name = self.name.text().strip()
        if name:
            return name
        spec = self.spec()
        papers = (tr("all papers") if spec.paper_ids is None else
                  ", ".join(self.bank.paper(pid).title for pid in spec.paper_ids[:2])
                  + ("…" if len(spec.paper_ids) > 2 else ""))
        if spec.order == SetOrder.RANDOM:
            what = tr("Random %1 (seed %2)").replace(
                "%1", str(spec.count or tr("all"))).replace("%2", str(spec.seed))
        else:
            what = tr("In order")
        extra = [text for on, text in ((spec.wrong_only, tr("wrong only")),
                                       (spec.unanswered_only, tr("unanswered only")),
                                       (spec.favourites_only, tr("favourites only")))
                 if on]
        return " · ".join([what, papers, *extra])

    # --- keeping the lists and the count current -----------------------------------------
    def _papers_changed(self) -> None:
        self._fill_filters()
        self.schedule_preview()

    def _fill_filters(self) -> None:
        """Sections, types, topics and statuses of the papers ticked (ticks kept)."""
        from .question_view import type_label

        chosen = set(self.papers.checked())
        papers = [p for p in self.bank.papers if p.id in chosen]
        questions = [q for p in papers for q in p.questions]
        # grouped by paper, each named with it: two papers' 一、单选题 are two sections
        sections = [(f"{p.title} ▸ {s.title}" if len(papers) > 1 else s.title,
                     section_key(p.id, s.title)) for p in papers for s in p.sections]
        for widget, items in (
                (self.sections, sections),
                (self.types, [(type_label(t), str(t))
                              for t in dict.fromkeys(q.type for q in questions)]),
                (self.topics, [(t, t) for t in sorted({t for q in questions
                                                       for t in q.topics})]),
                (self.statuses, [(status_label(s), str(s))
                                 for s in dict.fromkeys(q.status for q in questions)])):
            kept = widget.checked()
            widget.blockSignals(True)
            widget.set_items(items, checked=kept)
            widget.blockSignals(False)

    def _order_changed(self, random_order: bool) -> None:
        self.seed.setEnabled(random_order)
        self.new_seed_button.setEnabled(random_order)
        if random_order and not self.seed.text().strip():
            self.new_seed()  # shown before starting: the set can be repeated
        if random_order and not self.count.value():
            self.count.setValue(50)
        self.schedule_preview()

    def new_seed(self) -> None:
        self.seed.setText(str(secrets.randbelow(MAX_SEED)))
        self.schedule_preview()

    def schedule_preview(self, *_args) -> None:
        self._timer.start()

    def build_preview(self) -> None:
        """How many questions match, and the set (on the store thread)."""
        self._timer.stop()
        try:
            spec = self.spec()
        except ValueError as exc:
            self.preview = None
            self._say_error(str(exc))
            return
        self._seq += 1
        seq = self._seq
        self._building = True
        self.start_button.setEnabled(False)
        self.db.run(study.build_practice_set, bank=self.bank, spec=spec,
                    on_done=lambda built: self._previewed(seq, built),
                    on_error=lambda error: self._preview_failed(seq, error))

    def _previewed(self, seq: int, built) -> None:
        if seq != self._seq or not shiboken6.isValid(self):
            return
        self._building = False
        self.preview = built
        n = len(built.question_ids)
        text = tr("%1 question(s) match; the set has %2").replace(
            "%1", str(built.matched)).replace("%2", str(n))
        if built.spec.order == SetOrder.RANDOM:
            text += " · " + tr("seed %1 (the same seed gives the same set)").replace(
                "%1", str(built.spec.seed))
        if len(built.papers) > 1:
            text += " · " + tr("from %1 papers").replace("%1", str(len(built.papers)))
        self.matching.setText(f"<b>{html.escape(text)}</b>")
        self.start_button.setEnabled(n > 0)

    def _preview_failed(self, seq: int, error: BaseException) -> None:
        if seq != self._seq or not shiboken6.isValid(self):
            return
        self._building = False
        self.preview = None
        self._say_error(str(error))

    def _say_error(self, text: str) -> None:
        self.matching.setText(f"<span style='color:{theme().css(Role.ERROR)}'>"
                              f"{html.escape(text)}</span>")
        self.start_button.setEnabled(False)

    # --- templates -----------------------------------------------------------------------
    def reload_templates(self) -> None:
        self.db.run(study.templates, kind=TemplateKind.PRACTICE_SET,
                    on_done=self._show_templates)

    def _show_templates(self, found: list) -> None:
        if not shiboken6.isValid(self):
            return
        self.templates = list(found)
        self.template_combo.clear()
        self.template_combo.addItem(tr("(a new set)"), None)
        for template in self.templates:
            self.template_combo.addItem(template.name, template.id)
        if self.loaded_template is not None:
            self.template_combo.setCurrentIndex(
                max(0, self.template_combo.findData(self.loaded_template.id)))
        self.delete_button.setEnabled(self.loaded_template is not None)

    def _template_chosen(self, index: int) -> None:
        template_id = self.template_combo.itemData(index)
        template = next((t for t in self.templates if t.id == template_id), None)
        self.loaded_template = template
        self.delete_button.setEnabled(template is not None)
        if template is not None:
            self.name.setText(template.name)
            self.set_spec(template.spec)

    def save_template(self) -> None:
        name = self.name.text().strip()
        if not name:
            self._say_error(tr("Give the set a name to save it as a template."))
            self.name.setFocus()
            return
        spec = self.spec()
        template_id = (self.loaded_template.id if self.loaded_template is not None
                       and self.loaded_template.name == name else None)
        self.db.run(study.save_template, kind=TemplateKind.PRACTICE_SET, name=name, spec=spec,
                    template_id=template_id, on_done=self._template_saved,
                    on_error=lambda error: self._say_error(str(error)))

    def _template_saved(self, saved) -> None:
        if not shiboken6.isValid(self):
            return
        self.loaded_template = saved.template
        self.reload_templates()

    def delete_template(self) -> None:
        if self.loaded_template is None:
            return
        self.db.run(study.delete_template, template_id=self.loaded_template.id)
        self.loaded_template = None
        self.reload_templates()

    # --- unfinished runs -----------------------------------------------------------------
    def _show_runs(self, runs: list) -> None:
        if not shiboken6.isValid(self):
            return
        self.runs = list(runs)
        self.run_list.clear()
        for run in self.runs:
            when = dt.datetime.fromtimestamp(run.created_at).strftime("%Y-%m-%d %H:%M")
            item = QListWidgetItem(tr("%1 · %2 of %3 answered · started %4")
                                   .replace("%1", run.title or tr("Practice run"))
                                   .replace("%2", str(run.answered))
                                   .replace("%3", str(run.total)).replace("%4", when))
            item.setData(Qt.ItemDataRole.UserRole, run.run_id)
            self.run_list.addItem(item)
        if self.runs:
            self.run_list.setCurrentRow(0)
        self.runs_box.setVisible(bool(self.runs))

    def continue_run(self) -> None:
        item = self.run_list.currentItem()
        if item is None:
            return
        self.sig_continue.emit(int(item.data(Qt.ItemDataRole.UserRole)))
        self.accept_quietly()

    # --- start ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the set as previewed (its seed included), in the mode chosen."""
        if self._timer.isActive() or self._building or self.preview is None:
            return  # the count for the current filters is on its way
        if not self.preview.question_ids:
            return
        self.sig_start.emit(self.preview.spec, self.title(), self.recite_mode.isChecked())
        self.accept_quietly()

    def accept_quietly(self) -> None:
        self._timer.stop()
        super().accept()

