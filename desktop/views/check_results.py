"""A programming question's check results, directly under its editor (the workspace).

Fed by the check result dicts the console's ``CheckController`` reports (``Screen.
apply_check_result``), one view per question, so results always belong to the question on
screen. Marks are symbols, not colours (✓ passed, ✗ failed, ! a failed optional check).
When every check stopped at the same exception (the starter's ``raise NotImplementedError``)
the view says so once, with one traceback, instead of one per check.
"""
from __future__ import annotations

import html
import json
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QFrame, QHeaderView, QLabel, QScrollArea, QSplitter,
                               QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from question_db.attempts import (failure_summary, required_passed, strip_ansi,
                                  traceback_text)

from .translation import tr

# Details shown first, in this order; the rest follow alphabetically.
DETAIL_ORDER = ("max_abs_err", "max_rel_err", "first_mismatch", "actual_at", "expected_at",
                "mismatches", "shape", "expected_shape", "dtype", "expected_dtype")


def format_detail(value, key: str = "") -> str:
    if key == "traceback":
        return traceback_text(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)  # escapes ESC itself: nothing to strip
    return strip_ansi(str(value))


def mark_of(check: dict) -> str:
    if check.get("passed"):
        return "✓"
    if check.get("not_judged"):  # this environment could not run it: neither pass nor fail
        return "?"
    return "✗" if check.get("required", True) else "!"


def failure_rank(check: dict) -> int:
    """0 failed required, 1 failed optional, 2 passed (the order rows are shown in)."""
    if check.get("passed"):
        return 2
    return 0 if check.get("required", True) and not check.get("not_judged") else 1


def results_summary(checks: list[dict]) -> str:
    """'9 of 11 required checks passed' (plus optional ones when some failed)."""
    passed, required = required_passed(checks)
    text = tr("%1 of %2 required checks passed").replace("%1", str(passed)).replace(
        "%2", str(required))
    optional_failed = sum(1 for c in checks if not c.get("required", True)
                          and not c.get("passed"))
    if optional_failed:
        text += " · " + tr("%1 optional check(s) failed").replace("%1", str(optional_failed))
    not_judged = sum(1 for c in checks if c.get("not_judged"))
    if not_judged:
        text += " · " + tr("%1 check(s) not judged here").replace("%1", str(not_judged))
    return text


class CheckResultsView(QWidget):
    """The last check run of one question: a summary line and one row per check."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("check_results")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        self.summary = QLabel(tr("No check run yet: Check runs your code, then the "
                                 "question's checks."))
        self.summary.setObjectName("check_summary")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.summary)
        self.table = QTreeWidget()
        self.table.setObjectName("check_rows")
        self.table.setColumnCount(4)
        self.table.setHeaderLabels(["", tr("Check"), tr("Result"), tr("Time")])
        self.table.setWordWrap(True)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        header = self.table.header()
        header.setStretchLastSection(False)
        for column in (0, 1, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        # The selected check in full (the first failure when results arrive): a row shows
        # a message's first line, cut at the column's edge; the diagnosis is read here,
        # wrapped, without hovering for a tooltip.
        self.detail = QLabel()
        self.detail.setObjectName("check_detail")
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.detail_scroll = QScrollArea()
        self.detail_scroll.setObjectName("check_detail_scroll")
        self.detail_scroll.setWidgetResizable(True)
        self.detail_scroll.setWidget(self.detail)
        self.detail_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.rows_splitter = QSplitter(Qt.Orientation.Vertical)
        self.rows_splitter.setChildrenCollapsible(False)
        # The diagnosis above the list: in a short pane (1024×700 with the console open:
        # ~80 px) it is what stays readable; the rows are one line each below it.
        self.rows_splitter.addWidget(self.detail_scroll)
        self.rows_splitter.addWidget(self.table)
        self.rows_splitter.setStretchFactor(0, 3)
        self.rows_splitter.setStretchFactor(1, 2)
        layout.addWidget(self.rows_splitter, 1)
        self.table.currentItemChanged.connect(self._show_detail)
        # No rows, no table: an empty grid under the summary says nothing.
        self.rows_splitter.hide()
        self.checks: list[dict] = []
        # check name -> its description in the UI's language (question_db.checks.catalogue)
        self.descriptions: dict[str, str] = {}
        # a check's message -> the same in the UI's language (catalogue.translate_message)
        self.translate_message: Callable[[str], str] = lambda message: message

    def set_descriptions(self, descriptions: dict[str, str]) -> None:
        """The suite's descriptions in the learner's language, where it has them."""
        self.descriptions = dict(descriptions)

    def set_message_translation(self, translate: Callable[[str], str]) -> None:
        """How the checks' messages are shown in the learner's language (their numbers,
        shapes and code kept as the check wrote them)."""
        self.translate_message = translate

    def message_of(self, check: dict) -> str:
        """The check's message as shown: without terminal escapes, translated."""
        message = strip_ansi(str(check.get("message") or ""))
        return self.translate_message(message) if message else message

    def description_of(self, check: dict) -> str:
        return self.descriptions.get(str(check.get("name", "")),
                                     str(check.get("description") or ""))

    def _no_rows(self) -> None:
        self.table.clear()
        self.detail.clear()
        self.rows_splitter.hide()

    def _show_detail(self, item: QTreeWidgetItem | None, _previous=None) -> None:
        """The selected check (or a detail row's check) in full, wrapped."""
        while item is not None and item.parent() is not None:
            item = item.parent()
        check = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        if not isinstance(check, dict):
            self.detail.setText(html.escape(item.text(2)) if item is not None else "")
            return
        message = self.message_of(check)
        lines = [f"<b>{mark_of(check)} {html.escape(str(check.get('name', '')))}</b>"]
        if self.description_of(check):
            lines.append(f"<i>{html.escape(self.description_of(check))}</i>")
        if message:
            lines.append(html.escape(message).replace("\n", "<br/>"))
        for key, value in (check.get("details") or {}).items():
            text = html.escape(format_detail(value, key))
            lines.append(f"<pre>{text}</pre>" if key == "traceback" or "\n" in text
                         else f"{html.escape(key)}: {text}")
        self.detail.setText("<br/>".join(lines))

    def clear(self) -> None:
        self.checks = []
        self._no_rows()
        self.summary.setText(tr("No check run yet: Check runs your code, then the "
                                "question's checks."))

    def show_running(self) -> None:
        self._no_rows()
        self.summary.setText(tr("Checking: running your code in the console, then the "
                                "checks…"))

    def show_error(self, message: str) -> None:
        self.checks = []
        self._no_rows()
        self.summary.setText(tr("Not checked: %1").replace(
            "%1", html.escape(self.translate_message(strip_ansi(message)))))

    def show_results(self, checks: list[dict]) -> None:
        """One row per check, failures first; a shared exception is said once."""
        self.checks = list(checks)
        self.table.clear()
        shared = failure_summary(checks)
        text = results_summary(checks)
        if shared is not None:
            text += "<br/><b>" + tr("All %1 failed checks stopped at the same error: %2")\
                .replace("%1", str(shared.count)).replace("%2", html.escape(shared.message)) \
                + "</b>"
            if shared.starter_placeholder:
                text += "<br/>" + tr("That is the starter's placeholder: replace every "
                                     "<code>raise NotImplementedError</code> with your code, "
                                     "then check again.")
        self.summary.setText(text)
        # Failures first (required, then optional), each group in run order: what needs
        # fixing is in view without scrolling the results.
        for check in sorted(checks, key=failure_rank):
            self._add_row(check, with_traceback=shared is None)
        if shared is not None and shared.traceback:
            item = QTreeWidgetItem(self.table)
            item.setText(1, tr("traceback (the same for each)"))
            item.setText(2, shared.traceback.strip().splitlines()[-1])
            child = QTreeWidgetItem(item)
            child.setText(2, shared.traceback.strip())
        shown = self.table.topLevelItemCount() > 0
        self.rows_splitter.setVisible(shown)
        if shown:  # the first row is the first failure (or the first check, all passed)
            self.table.setCurrentItem(self.table.topLevelItem(0))
            self._show_detail(self.table.topLevelItem(0))

    def _add_row(self, check: dict, *, with_traceback: bool) -> None:
        item = QTreeWidgetItem(self.table)
        message = self.message_of(check)
        item.setText(0, mark_of(check))
        item.setText(1, str(check.get("name", "")))
        item.setText(2, message.splitlines()[0] if message else "")
        item.setText(3, f"{float(check.get('seconds', 0) or 0):.2f} s")
        item.setToolTip(2, message)
        if self.description_of(check):
            item.setToolTip(1, self.description_of(check))
        item.setData(0, Qt.ItemDataRole.UserRole, check)
        details = dict(check.get("details") or {})
        if not with_traceback:
            details.pop("traceback", None)
        for key in sorted(details, key=lambda k: (DETAIL_ORDER.index(k)
                                                  if k in DETAIL_ORDER else 99, k)):
            child = QTreeWidgetItem(item)
            child.setText(1, key)
            child.setText(2, format_detail(details[key], key))
            child.setToolTip(2, format_detail(details[key], key))
        if not check.get("passed") and details and with_traceback:
            item.setExpanded(True)

    def rows(self) -> list[dict]:
        """The check dicts shown, top to bottom (tests)."""
        out = []
        for i in range(self.table.topLevelItemCount()):
            data = self.table.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole)
            if data is not None:
                out.append(data)
        return out

    def text_shown(self) -> str:
        """Everything the view shows, as text (tests)."""
        lines = [self.summary.text()]

        def walk(item: QTreeWidgetItem) -> None:
            lines.append(" | ".join(item.text(c) for c in range(4)))
            for k in range(item.childCount()):
                walk(item.child(k))
        for i in range(self.table.topLevelItemCount()):
            walk(self.table.topLevelItem(i))
        return "\n".join(lines)
