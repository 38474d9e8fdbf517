"""File ▸ Export questions on real widgets: the dialog, the export on the store thread, the
message with what the format could not carry."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop.views.bank_files import ExportDialog
from gui_fixtures import bundled_bank, launch, no_leaked_qt_objects  # noqa: F401
from question_db.interchange.anki import read_apkg

pytestmark = pytest.mark.gui


def test_export_dialog_lists_papers_and_formats(qtbot):
    dialog = ExportDialog(bundled_bank(), current_paper="001")
    qtbot.addWidget(dialog)
    assert [dialog.format.itemData(i) for i in range(dialog.format.count())] == [
        "apkg", "moodle-xml", "gift", "json"]
    assert dialog.chosen_papers() == ["001"]
    dialog.papers.item(0).setCheckState(Qt.CheckState.Checked)
    assert dialog.chosen_papers() == ["000", "001"]


def test_export_anki_deck_from_the_menu_writes_the_deck_and_says_so(launch, tmp_path):
    app = launch()
    out = tmp_path / "deck.apkg"
    files = app.window.bank_files()
    files.export("apkg", ["000"], out)
    app.wait_idle()
    box = app.window.findChild(QMessageBox, "export_done")
    assert box is not None and box.isVisible()
    assert "34" in box.text() and str(out) in box.text()
    deck = read_apkg(out)
    paper = bundled_bank().paper("000")
    assert len(deck.notes) == len(paper.questions)


def test_export_gift_lists_what_it_drops(launch, tmp_path):
    app = launch()
    out = tmp_path / "bank.gift.txt"
    app.window.bank_files().export("gift", ["000"], out)
    app.wait_idle()
    result = app.window.bank_files().last_result
    assert out.read_text(encoding="utf-8").strip()
    assert result.warnings, "GIFT cannot carry status, units, several blanks: it says so"
    box = app.window.findChild(QMessageBox, "export_done")
    from desktop.views.problem_text import problem_text

    assert problem_text(result.warnings[0]) in box.detailedText()
    # each question named as 000/10, not by the installed pack file (issue 30.5)
    assert "000/10 · " in box.detailedText() and ".toml" not in box.detailedText()
