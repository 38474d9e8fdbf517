"""Search (Ctrl+K) on real widgets: Chinese substrings, code identifiers, filters, the
learner's notes, opening a hit in practice, and the index following a changed pack
(issue 15, item 4)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from desktop.views.practice import PracticeView
from desktop.views.search_dialog import HTML_ROLE, SearchDialog
from gui_fixtures import bundled_bank, launch, no_leaked_qt_objects  # noqa: F401
from question_db import study
from question_db.model import Bank

pytestmark = pytest.mark.gui


def search(app, dialog: SearchDialog, text: str) -> list[str]:
    dialog.query.setText(text)
    app.qtbot.waitUntil(lambda: dialog.results is not None and dialog.results.query == text,
                        timeout=10_000)
    return dialog.hit_ids()


def test_ctrl_k_finds_chinese_identifiers_and_notes_and_enter_opens_the_question(launch):
    app = launch()
    app.db.run(study.save_note, question_id="000/4",
               text="记住：vocab_parallel 的切分维度").result(timeout=5)
    app.qtbot.keyClick(app.window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    dialog = app.window.search_dialog
    assert dialog is not None and dialog.isVisible()

    assert "000/8" in search(app, dialog, "显存")  # two characters: the substring scan
    hits = search(app, dialog, "梯度仍驻留显存")  # a Chinese substring of 000/8's option B
    assert hits[0] == "000/8" and dialog.results.hits[0].field == "options"
    assert "<b>梯度仍驻留显存</b>" in dialog.list.item(0).data(HTML_ROLE)
    assert "001/29" in search(app, dialog, "register_buffer")  # an identifier in its code

    dialog.paper.setCurrentIndex(dialog.paper.findData("000"))
    app.qtbot.waitUntil(lambda: dialog.results.total == 0 or all(
        h.paper_id == "000" for h in dialog.results.hits))
    assert "001/29" not in dialog.hit_ids()
    dialog.paper.setCurrentIndex(0)

    hits = search(app, dialog, "vocab_parallel")
    assert hits[0] == "000/4" and dialog.results.hits[0].in_note
    app.qtbot.keyClick(dialog.query, Qt.Key.Key_Return)
    view = app.wait_screen(PracticeView)
    assert view.question_id(view.current) == "000/4" and not dialog.isVisible()
    app.wait_idle()
    assert "vocab_parallel" in view.notes.view.text()  # the note shows under it


def test_the_index_follows_a_changed_pack(launch):
    app = launch()
    index = app.window.search_index()
    index.refresh()
    app.qtbot.waitUntil(lambda: index.last_refresh is not None, timeout=15_000)
    bank = bundled_bank()
    paper = bank.paper("001")
    edited = replace(paper, questions=(replace(paper.questions[0],
                                               stem=paper.questions[0].stem + " 新增词语甲乙丙"),
                                       *paper.questions[1:]))
    changed = Bank(papers=[edited if p.id == "001" else p for p in bank.papers])
    app.window.set_bank(changed)  # what a reload after an import does
    index.refresh()
    app.qtbot.waitUntil(lambda: index.last_refresh.papers_written == ("001",),
                        timeout=15_000)
    dialog = app.window.open_search()
    assert search(app, dialog, "新增词语甲乙丙") == ["001/1"]


def test_search_does_not_open_during_an_exam(launch):
    """The bank holds every key: Ctrl+K does nothing while an exam runs."""
    from desktop.views.exam import ExamView

    app = launch()
    app.window.start_exam("000", 3600)
    exam = app.wait_screen(ExamView)
    assert app.window.open_search() is None and app.window.search_dialog is None
    app.window.open_question("000/5")  # a hit from before: the exam stays on screen
    app.wait_idle()
    assert app.window.screen_view is exam


def test_a_topic_name_finds_its_questions_and_snippets_are_plain_text(launch):
    """Issue 30.6: 显存估算 (a topic tag, in no question's text) finds its questions, the
    hit says it matched the topic; a note written in Markdown reads without its marks."""
    app = launch()
    app.db.run(study.save_note, question_id="000/8",
               text="ZeRO-Offload：梯度与优化器状态都卸到 CPU，**显存**里只剩参数分片"
               ).result(timeout=5)
    dialog = app.window.open_search()
    tagged = {q.id for q in bundled_bank().all_questions() if "显存估算" in q.topics}
    assert tagged and tagged <= set(search(app, dialog, "显存估算"))
    row = next(i for i, h in enumerate(dialog.results.hits) if h.field == "topic")
    assert "topic" in dialog.list.item(row).data(HTML_ROLE)
    hits = search(app, dialog, "只剩参数分片")
    assert hits[0] == "000/8" and dialog.results.hits[0].in_note
    shown = dialog.list.item(0).text()
    assert "显存里只剩参数分片" in shown and "**" not in shown
