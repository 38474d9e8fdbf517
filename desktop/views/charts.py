"""pyqtgraph charts for the dashboard: a panel (title, chart, the numbers beside it in a
table) and bar / line plots with their values printed on them.

Imported only when the dashboard opens: importing pyqtgraph costs ~0.7 s.
"""
from __future__ import annotations

from typing import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..theme import Role, css, series_colors

def poor_color() -> str:
    """Below the pass mark (and the exam-date line): the theme's error colour."""
    return css(Role.ERROR)


def rate_color(rate: float) -> str:
    """Green from 80 %, amber from 60 %, red below: the pass mark the review uses."""
    return css(Role.OK) if rate >= 0.8 else css(Role.WARNING) if rate >= 0.6 else poor_color()


def _text_color() -> QColor:
    return QApplication.palette().color(QPalette.ColorRole.Text)


class ChartPanel(QFrame):
    """A titled chart with its numbers in a table beside it."""

    def __init__(self, title: str, headers: list[str], *, name: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"{name}_panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        self.header = QHBoxLayout()
        self.title = QLabel(f"<b>{title}</b>")
        self.header.addWidget(self.title, 1)
        layout.addLayout(self.header)
        base = QApplication.palette().color(QPalette.ColorRole.Base)
        self.plot = pg.PlotWidget(background=base)
        self.plot.setObjectName(f"{name}_chart")
        # pyqtgraph's context menus have no parent, and reference cycles keep them (and
        # their sub-menus) alive after the dashboard closes: delete the one it drops when
        # disabled, give the other a parent.
        item = self.plot.getPlotItem()
        view_menu = item.vb.menu
        self.plot.setMenuEnabled(False)
        view_menu.deleteLater()
        item.ctrlMenu.setParent(self, item.ctrlMenu.windowFlags())
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            axis.setTextPen(_text_color())
            axis.setPen(_text_color())
        self.table = QTableWidget(0, len(headers))
        self.table.setObjectName(f"{name}_table")
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # names elide
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setWordWrap(False)
        body = QHBoxLayout()
        body.addWidget(self.plot, 3)
        body.addWidget(self.table, 2)
        layout.addLayout(body, 1)
        self.bars: dict[str, list[float]] = {}  # what each chart shows, for tests and tools

    def fill_table(self, rows: Sequence[Sequence[object]]) -> None:
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                item = QTableWidgetItem(str(value))
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)

    def label(self, x: float, y: float, text: str, *, anchor=(0, 0.5)) -> None:
        item = pg.TextItem(text, color=_text_color(), anchor=anchor)
        item.setPos(x, y)
        self.plot.addItem(item)

    def empty(self) -> None:
        """Nothing answered yet: say so on the chart."""
        for side in ("left", "bottom"):
            self.plot.getAxis(side).setTicks([[]])
        self.plot.setXRange(0, 1, padding=0)
        self.plot.setYRange(0, 1, padding=0)
        self.label(0.5, 0.5, self.tr("No answers yet"), anchor=(0.5, 0.5))

    def horizontal_bars(self, names: list[str], rates: list[float]) -> None:
        """Shares (0..1) as percent bars, one per name, the first at the top."""
        self.plot.clear()
        n = len(names)
        ys = [n - 1 - i for i in range(n)]
        percents = [100 * r for r in rates]
        self.bars["percent"] = percents
        if not n:  # pyqtgraph 0.14 fails on an empty BarGraphItem
            self.empty()
            return
        self.plot.addItem(pg.BarGraphItem(
            x0=0, y=ys, height=0.65, width=percents,
            brushes=[pg.mkBrush(rate_color(r)) for r in rates], pen=pg.mkPen(None)))
        for y, value in zip(ys, percents):
            self.label(value + 1.5, y, f"{value:.0f}%")
        self.plot.getAxis("left").setTicks([list(zip(ys, names))])
        self.plot.setXRange(0, 118, padding=0)
        self.plot.setYRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.plot.getAxis("bottom").setTicks([[(v, f"{v}%") for v in range(0, 101, 20)]])

    def vertical_bars(self, ticks: list[str], values: list[float], *, fmt: str = "{:g}",
                      color: str | None = None, tick_every: int = 1) -> None:
        self.plot.clear()
        xs = list(range(len(values)))
        self.bars["values"] = list(values)
        if not xs:
            self.empty()
            return
        self.plot.addItem(pg.BarGraphItem(x=xs, height=values, width=0.7,
                                          brush=pg.mkBrush(color or css(Role.INFO)),
                                          pen=pg.mkPen(None)))
        self.plot.getAxis("left").setTicks(None)
        top = max(values, default=0) or 1
        for x, value in zip(xs, values):
            if value:
                self.label(x, value + top * 0.02, fmt.format(value), anchor=(0.5, 1))
        self.plot.getAxis("bottom").setTicks(
            [[(x, t) for x, t in zip(xs, ticks) if x % tick_every == 0]])
        self.plot.setXRange(-0.9, max(len(values), 1) - 0.1, padding=0)  # room for labels
        self.plot.setYRange(0, top * 1.18, padding=0)

    def lines(self, series: dict[str, list[float]]) -> None:
        """One line per series over attempts 1, 2, …, in percent."""
        self.plot.clear()
        self.bars["series"] = [v for values in series.values() for v in values]
        if not series:
            self.empty()
            return
        legend = self.plot.addLegend(offset=(-10, 10), labelTextColor=_text_color())
        legend.setBrush(pg.mkBrush(QApplication.palette().color(QPalette.ColorRole.Base)))
        longest = 1
        for (name, values), color in zip(series.items(), series_colors(len(series))):
            xs = list(range(1, len(values) + 1))
            longest = max(longest, len(values))
            self.plot.plot(xs, values, pen=pg.mkPen(color, width=2), symbol="o",
                           symbolBrush=color, symbolPen=None, symbolSize=8, name=name)
            for x, value in zip(xs, values):
                self.label(x, value + 3, f"{value:.0f}", anchor=(0.5, 1))
        self.plot.setXRange(0.5, longest + 0.5, padding=0)
        self.plot.setYRange(0, 110, padding=0)
        self.plot.getAxis("bottom").setTicks([[(x, str(x)) for x in range(1, longest + 1)]])
