"""The practice navigator (答题卡): one cell per question, grouped under headings, in the
question's mark (``question_db.navigation``: unanswered, answered, right, partly, wrong,
pending, void, revealed, recited) and flag. Click a cell to jump there.

Every mark has a colour *and* a glyph (✓ ◐ ✗ …), so it reads without colour too; a flag
is a ⚑ in the cell's corner, the question on screen has an outline. The grid is painted by
one widget instead of a button per question (the exam's ``AnswerSheet``): a practice set can
hold every question of the bank, and 5,000 styled buttons take ~1.3 s to build (measured),
while painting only the visible cells costs the same at 50 or 5,000.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Sequence

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (QColor, QFont, QHelpEvent, QMouseEvent, QPainter, QPaintEvent,
                           QPen)
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolTip, QWidget

from question_db.enums import Mark
from question_db.model import Paper, Question

from ..theme import Role, theme
from .question_script import shown
from .translation import tr

__all__ = ["Navigator", "NavigatorGroup", "navigator_groups", "cell_labels",
           "mark_label", "legend_html", "Legend", "MARK_GLYPHS"]

CELL = QSize(36, 26)  # six a row in the side panel: a 50-question paper needs no scroll bar
GAP = 3
MIN_COLUMNS = 5
MARGIN = 4

# A glyph per mark: the mark reads without its colour (and in a screenshot in grey).
MARK_GLYPHS = {Mark.UNANSWERED: "", Mark.ANSWERED: "•", Mark.RIGHT: "✓", Mark.PARTLY: "◐",
               Mark.WRONG: "✗", Mark.PENDING: "…", Mark.VOID: "", Mark.REVEALED: "◉",
               Mark.RECITED: "≡"}
# (background, border / glyph) roles; None: the palette's base and mid
_ROLES: dict[Mark, tuple[Role | None, Role | None]] = {
    Mark.UNANSWERED: (None, None), Mark.ANSWERED: (Role.INFO_BG, Role.INFO),
    Mark.RIGHT: (Role.OK_BG, Role.OK), Mark.PARTLY: (Role.WARNING_BG, Role.WARNING),
    Mark.WRONG: (Role.ERROR_BG, Role.ERROR), Mark.PENDING: (Role.INFO_BG, Role.INFO),
    Mark.VOID: (None, Role.MUTED), Mark.REVEALED: (Role.CODE_BG, Role.MUTED),
    Mark.RECITED: (Role.CODE_BG, Role.INFO)}
LEGEND_ORDER = (Mark.RIGHT, Mark.PARTLY, Mark.WRONG, Mark.PENDING, Mark.ANSWERED,
                Mark.REVEALED, Mark.RECITED, Mark.UNANSWERED, Mark.VOID)


def mark_label(mark: Mark) -> str:
    return {Mark.UNANSWERED: tr("unanswered"), Mark.ANSWERED: tr("answered, not submitted"),
            Mark.RIGHT: tr("right"), Mark.PARTLY: tr("partly right"), Mark.WRONG: tr("wrong"),
            Mark.PENDING: tr("pending (self-marks or checks)"),
            Mark.VOID: tr("void (not scored)"), Mark.REVEALED: tr("answer shown"),
            Mark.RECITED: tr("recited")}[mark]


def mark_short(mark: Mark) -> str:
    """The legend's word for a mark (the tooltip has ``mark_label``)."""
    return {Mark.UNANSWERED: tr("to do"), Mark.ANSWERED: tr("draft"), Mark.RIGHT: tr("right"),
            Mark.PARTLY: tr("partly"), Mark.WRONG: tr("wrong"), Mark.PENDING: tr("pending"),
            Mark.VOID: tr("void"), Mark.REVEALED: tr("shown"),
            Mark.RECITED: tr("recited")}[mark]


def _legend_items(short: bool) -> list[str]:
    t = theme()
    items = []
    for mark in LEGEND_ORDER:
        _, fg = _ROLES[mark]
        glyph = MARK_GLYPHS[mark] or ("□" if mark == Mark.UNANSWERED else "<s>1</s>")
        color = t.css(fg) if fg is not None else t.css(Role.MUTED)
        name = mark_short(mark) if short else mark_label(mark)
        items.append(f"<span style='color:{color}'><b>{glyph}</b></span> {name}")
    items.append(f"<span style='color:{t.css(Role.FLAG)}'><b>⚑</b></span> " + tr("flagged"))
    return items


def legend_html(short: bool = True) -> str:
    """Each mark's glyph in its colour and its name, and the flag: a table of short words
    (no wrapping: a wrapped rich-text label is laid out again at every question switch)."""
    items = _legend_items(short)
    per_row = 3 if short else 1
    rows = ["<tr><td>" + "</td><td>".join(items[i:i + per_row]) + "</td></tr>"
            for i in range(0, len(items), per_row)]
    return "<small><table cellspacing='0' cellpadding='1'>" + "".join(rows) + \
        "</table></small>"


@dataclass(frozen=True)
class NavigatorGroup:
    """A heading and the indices (into the screen's questions) under it."""

    title: str
    indices: tuple[int, ...]


MAX_GROUPS_PER_CELL = 0.2  # more headings than one per five cells: one list instead


def navigator_groups(questions: Sequence[Question], papers: dict[str, Paper]
                     ) -> list[NavigatorGroup]:
    """Consecutive questions of one section share a heading; a screen spanning papers (a
    run) names the paper too. A shuffled run, whose neighbours rarely share a section, is
    one group: a heading per cell would say nothing."""
    several = len({q.paper_id for q in questions}) > 1
    groups: list[tuple[str, list[int]]] = []
    last_key = None
    for i, q in enumerate(questions):
        paper = papers.get(q.paper_id)
        section = paper.section_of(q) if paper is not None else None
        key = (q.paper_id, section.title if section else "")
        if key != last_key:
            # in the script the learner reads (繁體 too), like the questions themselves
            parts = ([shown(paper.title) if paper else q.paper_id] if several else []) + (
                [shown(section.title)] if section else [])
            groups.append((" · ".join(parts) or tr("All questions"), []))
            last_key = key
        groups[-1][1].append(i)
    if len(groups) > max(1, MAX_GROUPS_PER_CELL * len(questions)):
        title = tr("%1 questions from %2 papers").replace("%1", str(len(questions))).replace(
            "%2", str(len({q.paper_id for q in questions}))) if several else tr("All questions")
        return [NavigatorGroup(title, tuple(range(len(questions))))]
    return [NavigatorGroup(title, tuple(indices)) for title, indices in groups]


def cell_labels(questions: Sequence[Question], papers: dict[str, Paper], *,
                run: bool) -> list[str]:
    """A paper's cells carry its question numbers; a run's their place in the run (its
    questions' numbers repeat across papers)."""
    if run:
        return [str(i + 1) for i in range(len(questions))]
    return [str(q.number) for q in questions]


class Navigator(QWidget):
    """The grid of cells; ``sig_jump(index)`` when one is clicked."""

    sig_jump = Signal(int)
    """Go to the question at this index of the screen."""

    def __init__(self, questions: Sequence[Question], groups: list[NavigatorGroup],
                 parent: QWidget | None = None, *, labels: Sequence[str] | None = None,
                 papers: dict[str, Paper] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("navigator")
        self.questions = tuple(questions)
        self.groups = groups
        self.labels = list(labels) if labels is not None else [str(q.number)
                                                               for q in self.questions]
        self.papers = papers or {}
        self.marks: list[Mark] = [Mark.VOID if not q.scored else Mark.UNANSWERED
                                  for q in self.questions]
        self.flagged: set[int] = set()
        self.current = -1
        self._cells: list[QRect] = [QRect() for _ in self.questions]
        self._style_cache: dict | None = None
        self._font_cache: tuple | None = None
        self._tops: list[int] = []  # per cell, in index order (non-decreasing)
        self._bottoms: list[int] = []
        self._headings: list[tuple[QRect, str]] = []
        self._columns = MIN_COLUMNS
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # It paints its ground itself: Qt fills nothing under it first (the scroll area's
        # autofill would, each switch).
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setMinimumWidth(MIN_COLUMNS * (CELL.width() + GAP) + 2 * MARGIN)
        self.setMouseTracking(False)
        self._layout_cells()
        theme().sig_changed.connect(self._retheme)

    # --- state ---------------------------------------------------------------------------
    def set_mark(self, index: int, mark: Mark) -> None:
        if 0 <= index < len(self.marks) and self.marks[index] != mark:
            self.marks[index] = Mark(mark)
            self._redraw(index)

    def set_flagged(self, index: int, flagged: bool) -> None:
        if not 0 <= index < len(self.marks) or (index in self.flagged) == flagged:
            return
        (self.flagged.add if flagged else self.flagged.discard)(index)
        self._redraw(index)

    def set_current(self, index: int) -> None:
        old, self.current = self.current, index
        for i in (old, index):
            if 0 <= i < len(self._cells):
                self.update(self._cells[i].adjusted(-3, -3, 3, 3))

    def current_rect(self) -> QRect:
        """The current cell with its outline's margin (an empty rect when there is none)."""
        if 0 <= self.current < len(self._cells):
            return self._cells[self.current].adjusted(-3, -3, 3, 3)
        return QRect()

    def _redraw(self, index: int) -> None:
        """One cell changed: drawn again (only its rectangle)."""
        self.update(self._cells[index].adjusted(-3, -3, 3, 3))

    def state(self, index: int) -> str:
        """The cell as text, for tests and tooltips: 'wrong', 'right+flagged', …"""
        return str(self.marks[index]) + ("+flagged" if index in self.flagged else "")

    def counts(self) -> dict[Mark, int]:
        out = {m: 0 for m in Mark}
        for mark in self.marks:
            out[mark] += 1
        return out

    def cell_rect(self, index: int) -> QRect:
        return QRect(self._cells[index])

    def index_at(self, pos: QPoint) -> int | None:
        for i in self._visible(QRect(pos, QSize(1, 1))):
            if self._cells[i].contains(pos):
                return i
        return None

    # --- layout --------------------------------------------------------------------------
    def _layout_cells(self) -> None:
        width = max(self.width(), self.minimumWidth())
        self._columns = max(MIN_COLUMNS, (width - 2 * MARGIN + GAP) // (CELL.width() + GAP))
        line = self.fontMetrics().height() + 6
        y = MARGIN
        self._headings = []
        for group in self.groups:
            self._headings.append((QRect(MARGIN, y, width - 2 * MARGIN, line), group.title))
            y += line
            for k, index in enumerate(group.indices):
                row, col = divmod(k, self._columns)
                self._cells[index] = QRect(MARGIN + col * (CELL.width() + GAP),
                                           y + row * (CELL.height() + GAP), CELL.width(),
                                           CELL.height())
            rows = (len(group.indices) + self._columns - 1) // self._columns
            y += rows * (CELL.height() + GAP) + GAP
        self._tops = [r.top() for r in self._cells]
        self._bottoms = [r.bottom() for r in self._cells]
        self.setFixedHeight(y + MARGIN)

    def _retheme(self) -> None:
        self._style_cache = None
        self.update()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange):
            self._style_cache = None  # zoom (Ctrl+=), another palette
            if event.type() == QEvent.Type.FontChange:
                self._layout_cells()
        super().changeEvent(event)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        columns = max(MIN_COLUMNS, (self.width() - 2 * MARGIN + GAP) // (CELL.width() + GAP))
        if columns != self._columns:
            self._layout_cells()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(self.minimumWidth(), self.height())

    # --- painting ------------------------------------------------------------------------
    def _styles(self) -> dict[Mark, tuple[QColor, QPen, QColor]]:
        """Per mark: background, border pen, glyph colour (until the theme changes)."""
        if self._style_cache is None:
            self._style_cache = self._make_styles()
        return self._style_cache

    def _make_styles(self) -> dict[Mark, tuple[QColor, QPen, QColor]]:
        t, palette = theme(), self.palette()
        out = {}
        for mark, (bg_role, fg_role) in _ROLES.items():
            border = t.color(fg_role) if fg_role else palette.mid().color()
            out[mark] = (t.color(bg_role) if bg_role else palette.base().color(),
                         QPen(border, 1), border)
        return out

    def _fonts(self) -> dict[str, QFont]:
        if self._font_cache is None or self._font_cache[0] != self.font():
            self._font_cache = (QFont(self.font()), self._make_fonts())
        return self._font_cache[1]

    def _make_fonts(self) -> dict[str, QFont]:
        base = self.font()
        fonts = {name: QFont(base) for name in ("plain", "current", "void", "small", "bold")}
        fonts["current"].setBold(True)
        fonts["current"].setUnderline(True)
        fonts["void"].setStrikeOut(True)
        fonts["small"].setPointSizeF(max(6.0, base.pointSizeF() * 0.75))
        fonts["bold"].setBold(True)
        return fonts

    def _visible(self, area: QRect) -> range:
        """Indices of the cells ``area`` may touch (cells go down the page in order)."""
        if not self._bottoms:
            return range(0)
        first = bisect.bisect_left(self._bottoms, area.top() - 3)
        last = bisect.bisect_right(self._tops, area.bottom() + 3)
        return range(first, max(first, last))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        # The exposed cells only: a question switch repaints two cells' rectangles, a
        # scroll the rows that come into view (bench question_switch_p95_5000).
        area = event.rect()
        painter = QPainter(self)
        painter.fillRect(area, self._ground())
        painter.setClipRect(area)
        self._paint_cells(painter, area, self._visible(area), self.current)
        painter.end()

    def _ground(self) -> QColor:
        """What the scroll area's autofill painted under the grid."""
        return self.palette().color(self.backgroundRole())

    def _paint_cells(self, painter: QPainter, area: QRect, indices, current: int, *,
                     headings: bool = True) -> None:
        t = theme()
        styles, fonts = self._styles(), self._fonts()
        text, muted, flag = t.color(Role.TEXT), t.color(Role.MUTED), t.color(Role.FLAG)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setFont(fonts["bold"])
        painter.setPen(text)
        metrics = self.fontMetrics()
        for rect, title in self._headings if headings else ():
            if rect.intersects(area):
                painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                 metrics.elidedText(title, Qt.TextElideMode.ElideRight,
                                                    rect.width()))
        center = Qt.AlignmentFlag.AlignCenter
        top_right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop
        top_left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        current_pen = QPen(text, 2)
        for index in indices:
            rect = self._cells[index]
            mark = self.marks[index]
            background, pen, glyph_color = styles[mark]
            painter.setPen(pen)
            painter.setBrush(background)
            painter.drawRoundedRect(rect.adjusted(0, 0, -1, -1), 4, 4)
            flagged = index in self.flagged
            if flagged:  # a strip along the top and the ⚑: not colour alone
                painter.fillRect(QRect(rect.left() + 3, rect.top() + 1, rect.width() - 6, 3),
                                 flag)
            if index == current:
                painter.setPen(current_pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect.adjusted(-2, -2, 1, 1), 5, 5)
            painter.setFont(fonts["current"] if index == current else
                            fonts["void"] if mark == Mark.VOID else fonts["plain"])
            painter.setPen(muted if mark == Mark.VOID else text)
            painter.drawText(rect, center, self.labels[index])
            glyph = MARK_GLYPHS[mark]
            if glyph or flagged:
                painter.setFont(fonts["small"])
            if glyph:
                painter.setPen(glyph_color)
                painter.drawText(rect.adjusted(0, 1, -3, 0), top_right, glyph)
            if flagged:
                painter.setPen(flag)
                painter.drawText(rect.adjusted(3, 1, 0, 0), top_left, "⚑")

    # --- mouse and tooltips --------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        index = self.index_at(event.position().toPoint())
        if index is not None and event.button() == Qt.MouseButton.LeftButton:
            self.sig_jump.emit(index)
            return
        super().mousePressEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.index_at(event.pos())
            if index is None:
                QToolTip.hideText()
                event.ignore()
            else:
                QToolTip.showText(event.globalPos(), self.tooltip(index), self)
            return True
        return super().event(event)

    def tooltip(self, index: int) -> str:
        q = self.questions[index]
        paper = self.papers.get(q.paper_id)
        text = ((paper.title + " · ") if paper is not None and len(self.papers) > 1 else "") \
            + tr("Question %1").replace("%1", str(q.number)) + " · " + mark_label(
                self.marks[index])
        if index in self.flagged:
            text += " · " + tr("flagged")
        return text


class Legend(QLabel):
    """What the glyphs and colours mean, under the grid; its colours follow the theme."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("navigator_legend")
        self.setTextFormat(Qt.TextFormat.RichText)
        self._retheme()
        theme().sig_changed.connect(self._retheme)

    def _retheme(self) -> None:
        self.setText(legend_html())
        self.setToolTip(legend_html(short=False))
