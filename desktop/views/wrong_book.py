"""The wrong-answer book (错题本): every question missed since it was last marked mastered
(``question_db.review.wrong_book``), with the learner's answer, the key, the explanation and
the errata; filters by paper, topic and type; mark mastered (and undo); practise them.
An entry graduates (leaves the book) after N right answers in a row (Settings); "Show
graduated" lists those too, and "Put back" returns any of them (``study.put_back``)."""
from __future__ import annotations

import datetime as dt
import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from question_db import actions, study
from question_db.changes import Changes
from question_db.model import Bank
from question_db.review import WrongEntry

from ..db import DbOps
from .question_view import type_label, verdict_html
from .report import question_review_html
from .screen import Screen
from ..theme import Role, css


# How much of a stem the list shows: enough to recognise the question (issue 30: 24
# characters told nothing); wrapped over the list's width, the whole in the tooltip.
STEM_CHARS = 120

class WrongBookView(Screen):
    """The book, filtered; the selected entry in full on the right."""

    sig_practise = Signal(list)
    """Practise these questions: (question ids, in the order shown)."""

    def __init__(self, bank: Bank, db: DbOps, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("wrong_book_view")
        self.bank = bank
        self.db = db
        self.entries: list[WrongEntry] = []  # grouped by paper, as listed
        self.row_entries: list[WrongEntry | None] = []  # per list row; None: a paper heading
        self.last_mastered: str | None = None  # for "undo"

        back = QPushButton("← " + self.tr("Library"))
        back.clicked.connect(self.sig_leave)
        heading = QLabel("<h2 style='margin:0'>" + self.tr("Wrong-answer book") + "</h2>")
        self.count = QLabel()
        self.count.setObjectName("wrong_book_count")
        self.practise_button = QPushButton(self.tr("Practise these"))
        self.practise_button.setObjectName("practise_these")
        self.practise_button.clicked.connect(
            lambda: self.sig_practise.emit([e.question.id for e in self.entries
                                            if e.mastered_at is None and not e.graduated]))
        top = QHBoxLayout()
        for widget, stretch in ((back, 0), (heading, 0), (self.count, 1),
                                (self.practise_button, 0)):
            top.addWidget(widget, stretch)

        self.paper_filter = self._combo("paper_filter", self.tr("All papers"),
                                        [(p.title, p.id) for p in bank.papers])
        topics = sorted({t for q in bank.all_questions() for t in q.topics})
        self.topic_filter = self._combo("topic_filter", self.tr("All topics"),
                                        [(t, t) for t in topics])
        types = list(dict.fromkeys(q.type for q in bank.all_questions()))
        self.type_filter = self._combo("type_filter", self.tr("All types"),
                                       [(type_label(t), t) for t in types])
        self.show_mastered = QCheckBox(self.tr("Show mastered"))
        self.show_mastered.toggled.connect(self.reload)
        self.show_graduated = QCheckBox(self.tr("Show graduated"))
        self.show_graduated.setObjectName("show_graduated")
        self.show_graduated.setToolTip(self.tr("Entries answered right enough times in a row "
                                               "to leave the book (File ▸ Settings)"))
        self.show_graduated.toggled.connect(self.reload)
        filters = QHBoxLayout()
        for widget in (self.paper_filter, self.topic_filter, self.type_filter,
                       self.show_mastered, self.show_graduated):
            filters.addWidget(widget)
        filters.addStretch(1)

        self.list = QListWidget()
        self.list.setObjectName("wrong_book_list")
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setAlternatingRowColors(True)
        self.list.setMinimumWidth(280)
        self.list.setWordWrap(True)  # a stem reads over a few lines, not cut at a width
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.currentRowChanged.connect(self._show_entry)
        self.detail = QTextBrowser()
        self.detail.setObjectName("wrong_book_detail")
        self.master_button = QPushButton(self.tr("Mark mastered"))
        self.master_button.setObjectName("mark_mastered")
        self.master_button.clicked.connect(self.toggle_mastered)
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.setObjectName("undo_mastered")
        self.undo_button.clicked.connect(self.undo_mastered)
        self.put_back_button = QPushButton(self.tr("Put back in the book"))
        self.put_back_button.setObjectName("put_back")
        self.put_back_button.setToolTip(self.tr("It stays until answered right enough times "
                                                "in a row again"))
        self.put_back_button.clicked.connect(self.put_back)
        self.put_back_button.hide()
        self.undo_note = QLabel()
        self.undo_note.setObjectName("undo_note")
        for widget in (self.undo_note, self.undo_button):
            widget.hide()
        actions = QHBoxLayout()
        actions.addWidget(self.master_button)
        actions.addWidget(self.put_back_button)
        actions.addWidget(self.undo_note, 1)
        actions.addWidget(self.undo_button)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.detail, 1)
        right_layout.addLayout(actions)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.list)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addLayout(filters)
        layout.addWidget(splitter, 1)
        self.reload()

    def _combo(self, name: str, everything: str, items: list[tuple[str, str]]) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        combo.addItem(everything, None)
        for text, value in items:
            combo.addItem(text, value)
        combo.currentIndexChanged.connect(self.reload)
        return combo

    # --- loading -------------------------------------------------------------------------
    def reload(self) -> None:
        """Query the book with the current filters (on the store thread)."""
        self.db.run(actions.wrong_book, bank=self.bank, paper_id=self.paper_filter.currentData(),
                    topic=self.topic_filter.currentData(), qtype=self.type_filter.currentData(),
                    include_mastered=self.show_mastered.isChecked(),
                    include_graduated=self.show_graduated.isChecked(),
                    on_done=self.show_entries)

    def apply_theme(self) -> None:
        self.reload()

    def refresh_from(self, changes: Changes, *, initiator: object | None) -> None:
        """Reviews changed (here, in a practice run, by an import): the book follows."""
        if changes.reviews or changes.everything:
            self.reload()

    def show_entries(self, entries: list[WrongEntry]) -> None:
        """List the entries under a heading per paper (newest miss first within one)."""
        current = self.current_entry()
        order = {p.id: i for i, p in enumerate(self.bank.papers)}
        self.entries = sorted(entries, key=lambda e: order.get(e.question.paper_id, len(order)))
        self.row_entries = []
        self.list.blockSignals(True)
        self.list.clear()
        for paper in self.bank.papers:
            group = [e for e in self.entries if e.question.paper_id == paper.id]
            if not group:
                continue
            heading = QListWidgetItem(f"{paper.title} ({len(group)})")
            heading.setFlags(Qt.ItemFlag.ItemIsEnabled)  # a heading: not selectable
            font = heading.font()
            font.setBold(True)
            heading.setFont(font)
            self.list.addItem(heading)
            self.row_entries.append(None)
            for entry in group:
                self.list.addItem(self._item(entry))
                self.row_entries.append(entry)
        self.list.blockSignals(False)
        active = sum(e.mastered_at is None and not e.graduated for e in self.entries)
        self.count.setText(self.tr("%1 question(s) to review").replace("%1", str(active)))
        self.practise_button.setEnabled(active > 0)
        rows = [i for i, e in enumerate(self.row_entries) if e is not None]
        keep = [i for i in rows if current and self.row_entries[i].question.id
                == current.question.id]
        self.list.setCurrentRow((keep or rows or [-1])[0])
        self._show_entry(self.list.currentRow())

    def _item(self, entry: WrongEntry) -> QListWidgetItem:
        q = entry.question
        stem = " ".join(q.stem.split())
        text = (self.tr("Question %1").replace("%1", str(q.number))
                + f" · {type_label(q.type)} · "
                + self.tr("missed %1×").replace("%1", str(entry.misses))
                + (" · " + self.tr("mastered") if entry.mastered_at is not None else "")
                + (" · " + self.tr("graduated") if entry.graduated else "")
                + f"\n{stem[:STEM_CHARS]}{'…' if len(stem) > STEM_CHARS else ''}")
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, q.id)
        item.setToolTip(stem + ("\n" + " · ".join(q.topics) if q.topics else ""))
        return item

    def select(self, question_id: str) -> bool:
        """Show this question's entry, if it is listed."""
        for row, entry in enumerate(self.row_entries):
            if entry is not None and entry.question.id == question_id:
                self.list.setCurrentRow(row)
                return True
        return False

    def current_entry(self) -> WrongEntry | None:
        row = self.list.currentRow()
        return self.row_entries[row] if 0 <= row < len(self.row_entries) else None

    def _show_entry(self, row: int) -> None:
        if 0 <= row < len(self.row_entries) and self.row_entries[row] is None:
            return  # a paper heading: keep showing the last entry
        entry = self.row_entries[row] if 0 <= row < len(self.row_entries) else None
        self.master_button.setEnabled(entry is not None)
        if entry is None:
            self.detail.setHtml("<p>" + html.escape(self.tr(
                "Nothing here: every question you missed is mastered, or none matches the "
                "filters.")) + "</p>")
            return
        mastered = entry.mastered_at is not None
        self.master_button.setText(self.tr("Not mastered yet") if mastered
                                   else self.tr("Mark mastered"))
        self.put_back_button.setVisible(entry.graduated)
        self.detail.setHtml(self.entry_html(entry))

    def entry_html(self, entry: WrongEntry) -> str:
        q = entry.question
        missed = dt.datetime.fromtimestamp(entry.last_missed_at).strftime("%Y-%m-%d %H:%M")
        facts = [self.tr("missed %1×, last on %2").replace("%1", str(entry.misses))
                 .replace("%2", missed)]
        if entry.graduated:
            facts.append(self.tr("graduated: right %1× in a row since").replace(
                "%1", str(entry.streak)))
        elif entry.correct_since:
            facts.append(self.tr("right %1× since: mark it mastered when it sticks")
                         .replace("%1", str(entry.correct_since)))
        title = (html.escape(self.bank.paper(q.paper_id).title) + " · "
                 + self.tr("Question %1").replace("%1", str(q.number)))
        out = [f"<h3 style='margin-bottom:2px'>{title}</h3>",
               f"<p style='color:{css(Role.MUTED)}'>"
               + " · ".join([type_label(q.type), *map(html.escape, q.topics)])
               + "<br/>" + html.escape(" · ".join(facts)) + "</p>"]
        if entry.grade:
            out.append("<p>" + verdict_html(entry.grade) + "</p>")
        out.append(question_review_html(q, entry.response))
        return "".join(out)

    # --- mastery -------------------------------------------------------------------------
    def toggle_mastered(self) -> None:
        """Mark the selected question mastered (it leaves the book), or take that back."""
        entry = self.current_entry()
        if entry is None:
            return
        mastered = entry.mastered_at is None
        self.db.run(actions.set_mastered, question_id=entry.question.id, mastered=mastered)
        if mastered:
            self.last_mastered = entry.question.id
            self.undo_note.setText(self.tr("Question %1 marked mastered.")
                                   .replace("%1", str(entry.question.number)))
            self.undo_note.show()
            self.undo_button.show()

    def put_back(self) -> None:
        """A graduated entry goes back into the book (graduating again takes N right
        answers from now)."""
        entry = self.current_entry()
        if entry is not None:
            self.db.run(study.put_back, question_id=entry.question.id)

    def undo_mastered(self) -> None:
        if self.last_mastered is None:
            return
        self.db.run(actions.set_mastered, question_id=self.last_mastered, mastered=False)
        self.last_mastered = None
        self.undo_note.hide()
        self.undo_button.hide()
