"""The progress dashboard: accuracy by topic and by question type, the score trend of each
paper's exams, time per question, and the reviews due over the next 14 days (with the exam
date, if set, against that load). Numbers are in a table beside every chart.

The data loads on the store thread (``load_dashboard``, core queries only); the charts are
built in the callback, and pyqtgraph (~0.7 s to import) is imported only then.
"""
from __future__ import annotations

import datetime as dt
import html
from dataclasses import replace

from PySide6.QtCore import QDate, QLocale, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from question_db import actions, review, stats
from question_db.actions import DashboardData
from question_db.changes import Changes
from question_db.model import Bank

from ..db import DbOps
from .date_field import DateField
from .points import format_points


def weekday(day: dt.date) -> str:
    """The short weekday name in the UI language (strftime's %a is always the C locale's)."""
    return QLocale().dayName(day.isoweekday(), QLocale.FormatType.ShortFormat)
from .question_view import type_label
from .screen import Screen

PANEL_HEIGHT = 300


def _percent(a: float, b: float) -> str:
    return f"{100 * a / b:.0f}%" if b else "—"


def _minutes(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


class DashboardView(Screen):
    """Charts over the whole progress history."""

    def __init__(self, bank: Bank, db: DbOps, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dashboard_view")
        self.bank = bank
        self.db = db
        self.data: DashboardData | None = None
        self.panels: dict = {}  # name -> charts.ChartPanel, once built
        self.paper_choice: QComboBox | None = None  # the paper of the time chart
        self.exam_note = ""
        self._exam_items: list = []

        back = QPushButton("← " + self.tr("Library"))
        back.clicked.connect(self.sig_leave)
        heading = QLabel("<h2 style='margin:0'>" + self.tr("Dashboard") + "</h2>")
        self.summary = QLabel(self.tr("Loading…"))
        self.summary.setObjectName("dashboard_summary")
        top = QHBoxLayout()
        top.addWidget(back)
        top.addWidget(heading)
        top.addWidget(self.summary, 1)

        self.exam_date_check = QCheckBox(self.tr("Exam date"))
        self.exam_date_check.setObjectName("exam_date_check")
        self.exam_date_edit = DateField()  # typed whole or picked (QDateEdit took neither)
        self.exam_date_edit.setObjectName("exam_date")
        self.exam_date_edit.setDate(QDate.currentDate().addDays(30))
        self.exam_date_edit.setEnabled(False)
        top.addWidget(self.exam_date_check)
        top.addWidget(self.exam_date_edit)

        self.grid = QGridLayout()
        self.grid.setSpacing(10)
        body = QWidget()
        body.setLayout(self.grid)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(scroll, 1)
        self.reload()

    def reload(self) -> None:
        self.db.run(actions.dashboard, bank=self.bank, on_done=self.show_data)

    def apply_theme(self) -> None:
        self.reload()

    def refresh_from(self, changes: Changes, *, initiator: object | None) -> None:
        if changes.everything:
            self.reload()

    # --- building ------------------------------------------------------------------------
    def show_data(self, data: DashboardData) -> None:
        """Build the charts (the first call imports pyqtgraph)."""
        from . import charts  # lazily: pyqtgraph

        self.data = data
        graded = sum(a.answers for a in data.by_type)
        correct = sum(a.correct for a in data.by_type)
        self.summary.setText(
            self.tr("%1 graded answers · %2 fully right · %3 due today")
            .replace("%1", str(graded)).replace("%2", _percent(correct, graded))
            .replace("%3", str(data.due_today)))
        accuracy = [self.tr("Answers"), self.tr("Fully right"), self.tr("Score rate")]
        # The bars are points earned / points possible (得分率), not the share fully right
        # (正确率: that is the "Right" column): the titles say so.
        topic = charts.ChartPanel(self.tr("Score rate by topic (points earned / possible)"),
                                  [self.tr("Topic"), *accuracy], name="topic")
        qtype = charts.ChartPanel(
            self.tr("Score rate by question type (points earned / possible)"),
            [self.tr("Type"), *accuracy], name="type")
        trend = charts.ChartPanel(self.tr("Exam scores per paper (%)"),
                                  [self.tr("Paper"), self.tr("Attempt"), self.tr("Date"),
                                   self.tr("Score")], name="trend")
        forecast = charts.ChartPanel(self.tr("Reviews due, next 14 days"),
                                     [self.tr("Day"), self.tr("Due")], name="forecast")
        times = charts.ChartPanel(self.tr("Mean time per question (minutes)"),
                                  [self.tr("Question"), self.tr("Visits"), self.tr("Mean"),
                                   self.tr("Budget")], name="time")
        self.panels = {"topic": topic, "type": qtype, "trend": trend, "forecast": forecast,
                       "time": times}
        self._accuracy(topic, data.by_topic, lambda key: key)
        self._accuracy(qtype, data.by_type, type_label)
        self._trend(trend, data)
        self._forecast(forecast, data)
        self.paper_choice = QComboBox()
        self.paper_choice.setObjectName("time_paper")
        for paper in self.bank.papers:
            self.paper_choice.addItem(paper.title, paper.id)
        times.header.addWidget(self.paper_choice)
        self.paper_choice.currentIndexChanged.connect(lambda: self._times(times))
        self._times(times)
        # Topics are many: their panel spans two rows beside types and the due forecast.
        for panel in (qtype, forecast, trend, times):
            panel.setMinimumHeight(PANEL_HEIGHT)
        topic.setMinimumHeight(max(2 * PANEL_HEIGHT + self.grid.spacing(),
                                   24 * len(data.by_topic) + 90))
        self.grid.addWidget(topic, 0, 0, 2, 1)
        self.grid.addWidget(qtype, 0, 1)
        self.grid.addWidget(forecast, 1, 1)
        self.grid.addWidget(trend, 2, 0)
        self.grid.addWidget(times, 2, 1)
        self.grid.setColumnStretch(0, 1)
        self.grid.setColumnStretch(1, 1)
        if data.exam_date is not None:
            self.exam_date_edit.setDate(QDate(data.exam_date.year, data.exam_date.month,
                                              data.exam_date.day))
            self.exam_date_check.setChecked(True)
            self.exam_date_edit.setEnabled(True)
        self.exam_date_check.toggled.connect(self._exam_date_changed)
        self.exam_date_edit.dateChanged.connect(self._exam_date_changed)

    def _accuracy(self, panel, lines: list[stats.Accuracy], name_of) -> None:
        lines = sorted(lines, key=lambda a: (a.score_rate, a.key))  # weakest first
        panel.horizontal_bars([name_of(a.key) for a in lines], [a.score_rate for a in lines])
        panel.fill_table([[name_of(a.key), a.answers, a.correct,
                           _percent(a.points, a.max_points)] for a in lines])

    def _trend(self, panel, data: DashboardData) -> None:
        series, rows = {}, []
        papers = [(paper.title, data.trends.get(paper.id, [])) for paper in self.bank.papers]
        mocks = [(self.tr("%1 (mock exam)").replace("%1", title), points)
                 for title, points in data.mock_trends.values()]
        for title, points in papers + mocks:  # a mock exam (组卷) has no paper in the bank
            if not points:
                continue
            name = title[:12] + ("…" if len(title) > 12 else "")
            while name in series:  # two papers or mock exams whose titles start alike
                name += "′"
            series[name] = [100 * p.score / p.max_score if p.max_score else 0 for p in points]
            for n, p in enumerate(points, start=1):
                day = dt.datetime.fromtimestamp(p.finished_at).strftime("%m-%d")
                rows.append([title, n, day,
                             f"{format_points(p.score)} / {format_points(p.max_score)}"])
        panel.lines(series)
        panel.fill_table(rows)

    def _forecast(self, panel, data: DashboardData) -> None:
        days = [d for d, _ in data.forecast]
        panel.vertical_bars([d.strftime("%m-%d") for d in days], [n for _, n in data.forecast],
                            tick_every=2)
        panel.fill_table([[f"{d:%m-%d} {weekday(d)}", n] for d, n in data.forecast])
        self._exam_line(panel, data)

    def _exam_line(self, panel, data: DashboardData) -> None:
        """The exam date against the due load: a line on the chart and a note."""
        from . import charts

        for item in self._exam_items:
            panel.plot.removeItem(item)
        self._exam_items = []
        note = ""
        if data.exam_date is not None and data.forecast:
            start = data.forecast[0][0]
            offset = (data.exam_date - start).days
            before = sum(n for d, n in data.forecast if d < data.exam_date)
            if 0 <= offset < len(data.forecast):
                line = charts.pg.InfiniteLine(pos=offset - 0.5, angle=90,
                                              pen=charts.pg.mkPen(charts.poor_color(), width=2,
                                                                  style=Qt.PenStyle.DashLine))
                panel.plot.addItem(line)
                self._exam_items.append(line)
            note = (self.tr("Exam in %1 days; %2 reviews due before it")
                    .replace("%1", str(offset)).replace("%2", str(before))
                    if offset >= 0 else self.tr("The exam date has passed"))
        panel.title.setText("<b>" + html.escape(self.tr("Reviews due, next 14 days"))
                            + "</b>" + (f" · <span style='color:{charts.poor_color()}'>"
                                        f"{html.escape(note)}</span>" if note else ""))
        self.exam_note = note

    def _times(self, panel) -> None:
        paper = self.bank.paper(self.paper_choice.currentData())
        spent = {t.question_id: t for t in self.data.times.get(paper.id, [])}
        questions = sorted(paper.questions, key=lambda q: q.number)
        means = [spent[q.id].mean_seconds / 60 if q.id in spent else 0 for q in questions]
        panel.vertical_bars([str(q.number) for q in questions], means, fmt="{:.1f}",
                            tick_every=2 if len(questions) > 20 else 1)
        panel.fill_table([[q.number, spent[q.id].visits, _minutes(spent[q.id].mean_seconds),
                           _minutes(review.time_budget_s(paper, q))]
                          for q in questions if q.id in spent])

    # --- exam date -----------------------------------------------------------------------
    def _exam_date_changed(self) -> None:
        on = self.exam_date_check.isChecked()
        self.exam_date_edit.setEnabled(on)
        day = self.exam_date_edit.date().toPython() if on else None
        self.db.run(actions.set_exam_date, day=day)
        if self.data is not None:
            self.data = replace(self.data, exam_date=day)
            self._exam_line(self.panels["forecast"], self.data)
