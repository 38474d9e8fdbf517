"""Search (Ctrl+K): every paper's stems, options, keys, explanations, errata, code and the
learner's notes (``study.search``: SQLite FTS5 with the trigram tokenizer, so Chinese and
code identifiers match as substrings), filtered by paper, type, topic and status. Results
show the matched words highlighted; Enter or a double-click opens the question in practice
of its paper, at that question.

``SearchIndex`` keeps the index current off the UI thread: after the bank loads (a little
after the first paint) and whenever the bank is replaced (a pack imported), the index file
(``data_dir/cache/search.sqlite3``) is brought up to date beside the store thread
(``study.refresh_search_index``); a query runs on the store thread (notes live there).
"""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QObject, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QPainter, QTextDocument
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QStyle, QStyledItemDelegate,
                               QStyleOptionViewItem, QVBoxLayout, QWidget)

from question_db.model import Bank

from ..db import DbOps
from ..theme import Role, theme
from .problem_text import field_label
from .translation import tr

__all__ = ["SearchIndex", "SearchDialog", "SEARCH_DELAY_MS", "REFRESH_DELAY_MS", "HTML_ROLE"]

SEARCH_DELAY_MS = 150  # after the last keystroke
REFRESH_DELAY_MS = 1500  # a bank set with soon=True is indexed this much later
FIELD_NAMES = ("stem", "options", "answer", "explanation", "errata", "code", "topic", "note")
STATUSES = ("ok", "corrected", "void", "disputed", "draft")


def status_label(status: str) -> str:
    return {"ok": tr("verified"), "corrected": tr("corrected"), "void": tr("void"),
            "disputed": tr("disputed"), "draft": tr("unverified (imported)")}.get(status, status)


class SearchIndex(QObject):
    """The search index of a data folder, kept current with the bank off the UI thread."""

    sig_refreshed = Signal(object)
    """The index holds the bank now: (``search.IndexRefresh``)."""

    def __init__(self, db: DbOps, data_dir: Path | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db = db
        self.data_dir = data_dir
        self._index = None  # store_search.SearchIndex, opened on first use
        self.bank: Bank | None = None
        self.last_refresh = None
        self._refreshing = False
        self._again = False
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)

    @property
    def index(self):
        if self._index is None:
            from question_db import study
            from question_db.store_search import SearchIndex as Index

            self._index = (study.search_index_for(self.data_dir) if self.data_dir is not None
                           else Index(None))
        return self._index

    def set_bank(self, bank: Bank, *, soon: bool = True) -> None:
        """A (new) bank is on screen: bring the index up to date in a moment."""
        self.bank = bank
        if soon:
            self._timer.start()
        else:
            self.refresh()

    def refresh(self) -> None:
        """Bring the index up to date now, beside the store thread (one at a time)."""
        self._timer.stop()
        if self.bank is None or self._closed:
            return
        if self._refreshing:
            self._again = True
            return
        from question_db.search import refresh_index

        self._refreshing = True
        self.db.run_beside(refresh_index, self.index, self.bank, on_done=self._refreshed,
                           on_error=self._failed)

    def _refreshed(self, result) -> None:
        self._refreshing = False
        self.last_refresh = result
        self.sig_refreshed.emit(result)
        if self._again:
            self._again = False
            self.refresh()

    def _failed(self, error: BaseException) -> None:
        # a cache: the next search refreshes it again (study.search does, first)
        self._refreshing = False
        self.db.report(error)

    def close(self) -> None:
        """At quit: no file left open (the index is a cache; nothing to save)."""
        self._closed = True
        self._timer.stop()
        if self._index is not None:
            self._index.close()


HTML_ROLE = Qt.ItemDataRole.UserRole + 1


class RichTextDelegate(QStyledItemDelegate):
    """Paints an item's ``HTML_ROLE`` rich text, wrapped to the list's width."""

    PADDING = 6

    def _document(self, option: QStyleOptionViewItem, index) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setHtml(index.data(HTML_ROLE) or "")
        doc.setTextWidth(max(50, option.rect.width() - 2 * self.PADDING))
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index) -> None:
        painter.save()
        t = theme()
        if option.state & QStyle.StateFlag.State_Selected:
            # a tint and a bar, not the palette's highlight: the coloured marks stay readable
            painter.fillRect(option.rect, t.color(Role.INFO_BG))
            painter.fillRect(QRect(option.rect.left(), option.rect.top(), 3,
                                   option.rect.height()), t.color(Role.INFO))
        elif index.row() % 2:
            painter.fillRect(option.rect, option.palette.alternateBase())
        doc = self._document(option, index)
        painter.translate(option.rect.left() + self.PADDING, option.rect.top() + self.PADDING)
        doc.drawContents(painter)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:  # noqa: N802
        doc = self._document(option, index)
        return QSize(int(doc.idealWidth()), int(doc.size().height()) + 2 * self.PADDING)


class SearchDialog(QDialog):
    """Type to search; Enter / double-click opens the highlighted question."""

    sig_open = Signal(str)
    """Open this question in practice: (question id)."""

    def __init__(self, db: DbOps, index: SearchIndex, bank: Callable[[], Bank],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("search_dialog")
        self.setWindowTitle(tr("Search questions"))
        self.resize(760, 560)
        self.db = db
        self.search_index = index
        self.bank = bank
        self.results: Any = None
        self._seq = 0  # the newest query sent; older answers are dropped
        self._shown_seq = 0
        self._open_when_shown = False  # Enter came before the results
        self.query = QLineEdit()
        self.query.setObjectName("search_query")
        self.query.setPlaceholderText(tr("Search stems, options, keys, explanations, errata, "
                                         "code and your notes (Chinese or identifiers)…"))
        self.query.setClearButtonEnabled(True)
        self.query.textChanged.connect(lambda _text: self._timer.start())
        self.query.installEventFilter(self)
        self.paper = QComboBox()
        self.paper.setObjectName("search_paper")
        self.qtype = QComboBox()
        self.qtype.setObjectName("search_type")
        self.topic = QComboBox()
        self.topic.setObjectName("search_topic")
        self.status = QComboBox()
        self.status.setObjectName("search_status")
        self.include_notes = QCheckBox(tr("my notes too"))
        self.include_notes.setObjectName("search_notes")
        self.include_notes.setChecked(True)
        self.fill_filters()
        for combo in (self.paper, self.qtype, self.topic, self.status):
            combo.currentIndexChanged.connect(lambda _i: self.search_now())
        self.include_notes.toggled.connect(lambda _on: self.search_now())
        filters = QHBoxLayout()
        for widget in (self.paper, self.qtype, self.topic, self.status, self.include_notes):
            filters.addWidget(widget)
        filters.addStretch(1)
        self.summary = QLabel()
        self.summary.setObjectName("search_summary")
        self.list = QListWidget()
        self.list.setObjectName("search_results")
        self.list.setItemDelegate(RichTextDelegate(self.list))
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.itemActivated.connect(self._activated)
        self.list.itemDoubleClicked.connect(self._activated)
        hint = QLabel(tr("Enter opens the question in practice · ↑/↓ choose · two-character "
                         "words work too · \"quotes\" keep a phrase"))
        hint.setObjectName("search_hint")
        hint.setWordWrap(True)
        hint.setStyleSheet(f"color: {theme().css(Role.MUTED)}")
        layout = QVBoxLayout(self)
        layout.addWidget(self.query)
        layout.addLayout(filters)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        layout.addWidget(hint)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.search_now)

    def fill_filters(self) -> None:
        """The filter choices of the bank now (it grows with imports)."""
        from .question_view import type_label

        bank = self.bank()
        questions = bank.all_questions()
        choices = (
            (self.paper, tr("All papers"), [(p.title, p.id) for p in bank.papers]),
            (self.qtype, tr("All types"), [(type_label(t), t) for t in
                                           dict.fromkeys(q.type for q in questions)]),
            (self.topic, tr("All topics"), [(t, t) for t in sorted(
                {t for q in questions for t in q.topics})]),
            (self.status, tr("Any status"), [(status_label(s), s) for s in STATUSES]))
        for combo, everything, items in choices:
            chosen = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(everything, None)
            for text, value in items:
                combo.addItem(text, value)
            combo.setCurrentIndex(max(0, combo.findData(chosen)) if chosen else 0)
            combo.blockSignals(False)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.query.setFocus()
        self.query.selectAll()

    # --- searching -----------------------------------------------------------------------
    def search_now(self) -> None:
        from question_db import study

        self._timer.stop()
        self._seq += 1
        seq = self._seq
        text = self.query.text()
        if not text.strip():
            self._shown_seq = seq
            self.results = None
            self.list.clear()
            self.summary.setText("")
            return

        def one(combo: QComboBox) -> tuple:
            return (combo.currentData(),) if combo.currentData() else ()
        self.db.run(study.search, index=self.search_index.index, bank=self.bank(), query=text,
                    paper_ids=one(self.paper), types=one(self.qtype), topics=one(self.topic),
                    statuses=one(self.status), include_notes=self.include_notes.isChecked(),
                    on_done=lambda results: self._show(seq, results))

    def _show(self, seq: int, results) -> None:
        if seq != self._seq or not shiboken6.isValid(self):
            return  # an older query, or the dialog is gone
        self._shown_seq = seq
        self.results = results
        bank = self.bank()
        self.list.clear()
        mark = (f"<span style='background-color:{theme().css(Role.WARNING_BG)}'><b>",
                "</b></span>")
        muted = theme().css(Role.MUTED)
        for hit in results.hits:
            try:
                paper_title = bank.paper(hit.paper_id).title
            except KeyError:
                paper_title = hit.paper_id
            where = (f"<b>{html.escape(paper_title)} · " + tr("Question %1").replace(
                "%1", str(hit.number)) + "</b>")
            from .question_view import type_label

            field = ("✎ " + field_label("note")) if hit.in_note else field_label(hit.field)
            meta = " · ".join([type_label(hit.type), field]
                              + ([status_label(hit.status)] if hit.status != "ok" else []))
            text = (f"{where} <span style='color:{muted}'>{html.escape(meta)}</span>"
                    f"<br/>{hit.snippet.marked(*mark, html.escape)}")
            item = QListWidgetItem(hit.snippet.text)  # plain text: accessibility, tests
            item.setData(Qt.ItemDataRole.UserRole, hit.question_id)
            item.setData(HTML_ROLE, text)
            self.list.addItem(item)
        shown = len(results.hits)
        if results.total == 0:
            self.summary.setText(tr("No question matches “%1”.").replace("%1", results.query))
        elif shown < results.total:
            self.summary.setText(tr("%1 matches, the best %2 shown").replace(
                "%1", str(results.total)).replace("%2", str(shown)))
        else:
            self.summary.setText(tr("%1 match(es)").replace("%1", str(results.total)))
        if self.list.count():
            self.list.setCurrentRow(0)
        if self._open_when_shown:
            self._open_when_shown = False
            self.open_current()

    def hit_ids(self) -> list[str]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.list.count())]

    # --- opening -------------------------------------------------------------------------
    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        if watched is self.query and isinstance(event, QKeyEvent) \
                and event.type() == QKeyEvent.Type.KeyPress:
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self.list.count():
                step = 1 if key == Qt.Key.Key_Down else -1
                row = max(0, min(self.list.count() - 1, self.list.currentRow() + step))
                self.list.setCurrentRow(row)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self._timer.isActive() or self._shown_seq != self._seq:
                    self._open_when_shown = True  # results for what is typed come first
                    if self._timer.isActive():
                        self.search_now()
                else:
                    self.open_current()
                return True
        return super().eventFilter(watched, event)

    def open_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self._activated(item)

    def _activated(self, item: QListWidgetItem) -> None:
        qid = item.data(Qt.ItemDataRole.UserRole)
        if qid:
            self.sig_open.emit(qid)
            self.hide()
