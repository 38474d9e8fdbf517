"""Check results: one row per check (pass/fail, one-line reason, device, dtype, time),
expandable details (max abs/rel error, first mismatching index, shapes, dtypes …),
a header with the device and whether flash_attn is real or the stand-in, and the
"include slow checks" toggle. A view only: ``bind()`` it to a CheckController."""
from __future__ import annotations

import json

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QHeaderView, QLabel, QTreeWidget,
                               QTreeWidgetItem, QVBoxLayout, QWidget)

from ..theme import Role, theme

COLUMNS = ("result", "check", "reason", "device", "dtype", "time")
# Details shown first, in this order; the rest follow alphabetically.
_DETAIL_ORDER = ("max_abs_err", "max_rel_err", "first_mismatch", "actual_at", "expected_at",
                 "mismatches", "shape", "expected_shape", "dtype", "expected_dtype")

translate = QCoreApplication.translate  # module functions: an explicit context, lupdate reads it


def device_summary(env: dict, device: str = "") -> str:
    """'cpu (2 threads) · flash_attn: stand-in' — the panel header."""
    if env.get("cuda"):
        where = f"cuda — {env.get('device_name')}, {env.get('memory_gib')} GiB, " \
                f"sm {env.get('capability')}"
    elif env:
        where = translate("CheckPanel", "cpu ({0} threads)").format(env.get("threads", "?"))
    else:
        where = device or translate("CheckPanel", "unknown device")
    flash = env.get("flash_attn", "?")
    return translate("CheckPanel", "Device: {0} · flash_attn: {1}").format(where, flash)


def _format_value(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


class CheckPanel(QWidget):
    """Results table for the last check run."""

    sig_include_slow_changed = Signal(bool)
    """The learner toggled "include slow checks (torch.compile)"."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.header = QLabel(self.tr("No check run yet"), self)
        self.header.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.slow_toggle = QCheckBox(self.tr("include slow checks (torch.compile)"), self)
        self.slow_toggle.toggled.connect(self.sig_include_slow_changed)
        top.addWidget(self.header, 1)
        top.addWidget(self.slow_toggle)
        layout.addLayout(top)
        self.table = QTreeWidget(self)
        self.table.setColumnCount(len(COLUMNS))
        self.table.setHeaderLabels([self.tr("Result"), self.tr("Check"), self.tr("Reason"),
                                    self.tr("Device"), self.tr("Dtype"), self.tr("Time")])
        self.table.setRootIsDecorated(True)
        self.table.setUniformRowHeights(False)
        self.table.setWordWrap(True)
        header = self.table.header()
        header.setStretchLastSection(False)
        for column in range(len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(COLUMNS.index("reason"), QHeaderView.Stretch)
        layout.addWidget(self.table, 1)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        layout.addWidget(self.summary)

    def bind(self, controller) -> None:
        """Follow a CheckController: its runs fill the table, the toggle drives it."""
        controller.sig_check_started.connect(self.show_started)
        controller.sig_check_result.connect(self.add_result)
        controller.sig_check_finished.connect(self.show_finished)
        self.sig_include_slow_changed.connect(controller.set_include_slow)
        controller.set_include_slow(self.slow_toggle.isChecked())

    # --- slots -----------------------------------------------------------------------
    def show_started(self, question_id: str, environment: dict) -> None:
        self.table.clear()
        self.header.setText(device_summary(environment))
        self.summary.setText(self.tr("Checking {0}: running your code in the console, "
                                     "then the checks…").format(question_id))

    def add_result(self, result: dict) -> None:
        item = QTreeWidgetItem(self.table)
        passed, required = bool(result.get("passed")), result.get("required", True)
        mark, role = ((self.tr("pass"), Role.OK) if passed else
                      (self.tr("not judged"), Role.WARNING) if result.get("not_judged") else
                      (self.tr("FAIL"), Role.ERROR) if required else
                      (self.tr("warn"), Role.WARNING))
        colour = theme().color(role)
        details = dict(result.get("details") or {})
        values = (mark, result.get("name", ""), result.get("message", "").splitlines()[0]
                  if result.get("message") else "", result.get("device", ""),
                  str(details.get("dtype", "")), f"{float(result.get('seconds', 0)):.2f} s")
        for column, text in enumerate(values):
            item.setText(column, text)
        item.setForeground(0, QBrush(colour))
        item.setToolTip(2, result.get("message", ""))
        if result.get("description"):
            item.setToolTip(1, result["description"])
        item.setData(0, Qt.UserRole, result)
        if result.get("recognised"):  # what the check mapped the learner's design onto
            child = QTreeWidgetItem(item)
            child.setText(1, self.tr("recognised"))
            child.setText(2, result["recognised"])
            child.setToolTip(2, result["recognised"])
        for key in sorted(details, key=lambda k: (_DETAIL_ORDER.index(k)
                                                  if k in _DETAIL_ORDER else 99, k)):
            child = QTreeWidgetItem(item)
            child.setText(1, key)
            child.setText(2, _format_value(details[key]))
            child.setToolTip(2, _format_value(details[key]))
        if not passed and details:
            item.setExpanded(True)

    def show_finished(self, question_id: str, report: dict) -> None:
        self.header.setText(device_summary(report.get("environment") or {},
                                           report.get("device", "")))
        if self.table.topLevelItemCount() == 0 and report.get("checks"):
            for result in report["checks"]:
                self.add_result(result)
        checks = report.get("checks") or []
        n_pass = sum(1 for c in checks if c.get("passed"))
        if report.get("error"):
            text = self.tr("{0}: no verdict — {1}").format(question_id, report["error"])
        else:
            verdict = (self.tr("PASSED") if report.get("passed") else
                       self.tr("NOT JUDGED") if any(c.get("not_judged") for c in checks) else
                       self.tr("FAILED"))
            text = self.tr("{0}: {1}/{2} checks passed in {3:.1f} s — {4}").format(
                question_id, n_pass, len(checks), float(report.get("seconds", 0)), verdict)
        self.summary.setText(text)

    def rows(self) -> list[dict]:
        """The result dicts shown, top to bottom (for tests and export)."""
        return [self.table.topLevelItem(i).data(0, Qt.UserRole)
                for i in range(self.table.topLevelItemCount())]
