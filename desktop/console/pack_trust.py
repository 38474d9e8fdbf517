"""Ask the learner before code from a pack examdesk did not ship runs on this computer.

A pack's check suites and verify snippets are Python with the learner's rights. For a pack
that is not bundled, the first Check asks once, naming the pack and its folder; "Allow"
is remembered by ``question_db.trust.grant`` for these exact files (any change asks again),
"Don't run" runs nothing. The consent logic is the core's; this is only the question.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from question_db import trust
from question_db.model import Paper

translate = QCoreApplication.translate  # module functions: an explicit context, lupdate reads it


def declined_text(paper: Paper) -> str:
    """Status after "Don't run": nothing ran, and how to change that."""
    return translate(
        "PackTrust", "nothing was run: you did not allow code from the pack “%1” (%2). Press "
                     "the button again to be asked again.").replace("%1", paper.title).replace(
        "%2", paper.id)


def question_text(paper: Paper) -> str:
    return translate(
        "PackTrust", "“%1” (%2) is not a pack that came with examdesk. Its checks and verify "
                     "snippets are Python programs that would run on this computer with your "
                     "rights.\n\nFolder: %3\n\nIf you are not sure where this pack comes "
                     "from, read its files first. Allow its code to run? You are asked again "
                     "if any of its files change.").replace("%1", paper.title).replace(
        "%2", paper.id).replace("%3", str(paper.folder))


class PackTrustGate(QObject):
    """``allow(paper)``: True when the pack's code may run (bundled, trusted before, or the
    learner allows it now)."""

    def __init__(self, parent: QWidget, data_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.window = parent
        self.data_dir = data_dir
        self.asked: list[str] = []  # paper ids asked about, for tests and the log

    def allow(self, paper: Paper) -> bool:
        # Hashing a pack reads its files here: a few KB of TOML and .py, once per press.
        if not trust.needs_consent(paper, data_dir=self.data_dir):
            return True
        self.asked.append(paper.id)
        box = QMessageBox(QMessageBox.Icon.Warning,
                          translate("PackTrust", "Run code from this pack?"),
                          question_text(paper), QMessageBox.StandardButton.NoButton,
                          self.window)
        box.setObjectName("trust_pack_box")
        allow = box.addButton(translate("PackTrust", "Allow and run"),
                              QMessageBox.ButtonRole.AcceptRole)
        allow.setObjectName("trust_allow")
        deny = box.addButton(translate("PackTrust", "Don't run"),
                             QMessageBox.ButtonRole.RejectRole)
        deny.setObjectName("trust_deny")
        box.setDefaultButton(deny)
        box.setEscapeButton(deny)
        box.exec()  # modal on purpose: nothing of the pack runs until the learner decides
        allowed = box.clickedButton() is allow
        box.deleteLater()
        if allowed:
            trust.grant(paper, data_dir=self.data_dir)
        return allowed
