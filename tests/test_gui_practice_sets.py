"""Practice sets on real widgets (issue 15, item 2): the live count, a seeded random set
that repeats, favourites only, templates, a set practised as a run that is continued after
a relaunch with its answers and its position."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.views.practice import PracticeView
from desktop.views.practice_set_dialog import PracticeSetDialog
from gui_fixtures import bundled_bank, db_rows, launch, no_leaked_qt_objects  # noqa: F401
from question_db import study

pytestmark = pytest.mark.gui


def open_dialog(app) -> PracticeSetDialog:
    app.qtbot.mouseClick(app.window.library.sets_button, Qt.MouseButton.LeftButton)
    [dialog] = [d for d in app.window.findChildren(PracticeSetDialog) if d.isVisible()]
    settle(app, dialog)
    return dialog


def settle(app, dialog: PracticeSetDialog) -> None:
    """The count for what the dialog shows now has come back."""
    app.qtbot.waitUntil(lambda: not dialog._timer.isActive() and not dialog._building
                        and dialog.preview is not None, timeout=10_000)
    app.wait_idle()


def test_live_count_seeded_random_set_and_favourites_only(launch):
    app = launch()
    dialog = open_dialog(app)
    questions = bundled_bank().all_questions()
    void = {q.id for q in questions if q.status == "void"}
    every = len(questions) - len(void)
    assert void and every > 0  # the bank has void questions: a set never draws them...
    assert dialog.preview.matched == every and f"{every} question(s) match" in \
        dialog.matching.text()
    assert not void & set(dialog.preview.question_ids)
    dialog.statuses.set_checked(["void"])  # ...unless asked for (issue 30)
    settle(app, dialog)
    assert set(dialog.preview.question_ids) == void
    dialog.statuses.set_checked([])
    settle(app, dialog)
    dialog.types.set_checked(["multiple_choice"])
    settle(app, dialog)
    multiple = sum(q.type == "multiple_choice" and q.id not in void for q in questions)
    assert dialog.preview.matched == multiple
    dialog.types.set_checked([])
    dialog.random.setChecked(True)
    settle(app, dialog)
    seed = dialog.seed.text()
    assert seed and dialog.count.value() == 50 and seed in dialog.matching.text()
    first = dialog.preview.question_ids
    dialog.new_seed()
    settle(app, dialog)
    assert dialog.preview.question_ids != first
    dialog.seed.setText(seed)
    dialog.schedule_preview()
    settle(app, dialog)
    assert dialog.preview.question_ids == first  # the same seed, the same set

    app.db.run(study.set_favourite, question_id="001/3", starred=True).result(timeout=5)
    dialog.in_order.setChecked(True)
    dialog.count.setValue(0)
    dialog.favourites_only.setChecked(True)
    settle(app, dialog)
    assert dialog.preview.question_ids == ("001/3",)

    dialog.name.setText("★ 收藏")
    dialog.save_button.click()
    app.wait_idle()
    app.qtbot.waitUntil(lambda: dialog.template_combo.count() == 2)
    dialog.reject()
    again = open_dialog(app)
    again.template_combo.setCurrentIndex(1)
    again._template_chosen(1)
    settle(app, again)
    assert again.favourites_only.isChecked() and again.preview.question_ids == ("001/3",)
    again.reject()


def test_a_set_runs_with_its_navigator_and_continues_after_a_relaunch(launch, tmp_path):
    app = launch()
    dialog = open_dialog(app)
    dialog.papers.set_checked(["001"])
    dialog.random.setChecked(True)
    dialog.count.setValue(6)
    dialog.seed.setText("15")
    dialog.schedule_preview()
    settle(app, dialog)
    chosen = dialog.preview.question_ids
    assert len(chosen) == 6 and all(qid.startswith("001/") for qid in chosen)
    dialog.start_button.click()
    run = app.wait_screen(PracticeView)
    app.wait_idle()
    assert [q.id for q in run.questions] == list(chosen)
    assert run.finish_button.isVisible() and "seed 15" in run.title_label.text()
    assert run.navigator.labels == [str(i) for i in range(1, 7)]
    assert [q.type for q in run.questions[:2]] == ["system_design", "single_choice"]
    run.show_answer()  # 001/31, an essay: its reference answer without answering
    app.wait_idle()
    run.go_to(1)
    app.qtbot.keyClick(run, getattr(Qt.Key, f"Key_{run.questions[1].answer}"))
    app.qtbot.keyClick(run, Qt.Key.Key_Return)
    app.wait_idle()
    app.qtbot.mouseClick(run.navigator, Qt.MouseButton.LeftButton,
                         pos=run.navigator.cell_rect(4).center())
    app.wait_idle()
    assert (run.navigator.state(0), run.navigator.state(1)) == ("revealed", "right")
    app.qtbot.mouseClick(run.back_button, Qt.MouseButton.LeftButton)  # leave, not finish
    app.wait_idle()
    states = {r["state"] for r in db_rows(tmp_path / "progress.sqlite3",
                                          "SELECT state FROM sessions WHERE run_id IS NOT NULL")}
    assert states == {"active"}
    app.quit()

    again = launch()
    dialog = open_dialog(again)
    assert dialog.runs_box.isVisible() and dialog.run_list.count() == 1
    assert "1 of 6 answered" in dialog.run_list.item(0).text()
    dialog.continue_button.click()
    resumed = again.wait_screen(PracticeView)
    again.wait_idle()
    assert [q.id for q in resumed.questions] == list(chosen)
    assert resumed.current == 4
    assert (resumed.navigator.state(0), resumed.navigator.state(1)) == ("revealed", "right")
    resumed.go_to(1)
    assert resumed.current_page().feedback.isVisible()  # its verdict and key, restored
    resumed.finish_button.click()
    again.wait_idle()
    states = {r["state"] for r in db_rows(tmp_path / "progress.sqlite3",
                                          "SELECT state FROM sessions WHERE run_id IS NOT NULL")}
    assert "active" not in states


def test_sections_are_grouped_by_paper_and_named_with_it(launch):
    """Issue 30.6: with every paper ticked, each paper's sections are listed under its name
    (000's 一、单项选择题 and 001's 一、单选题 are not one flat list of look-alikes), and a
    section picked draws from that paper only."""
    app = launch()
    dialog = open_dialog(app)
    bank = bundled_bank()
    labels = [dialog.sections.item(i).text() for i in range(dialog.sections.count())]
    expected = [f"{p.title} ▸ {s.title}" for p in bank.papers for s in p.sections]
    assert labels == expected
    first = bank.paper("000").sections[0]
    dialog.sections.set_checked([dialog.sections.values()[0]])
    settle(app, dialog)
    picked = {bank.question(qid).paper_id for qid in dialog.preview.question_ids}
    assert picked == {"000"} and dialog.preview.matched == sum(
        1 for q in bank.paper("000").questions
        if bank.paper("000").section_of(q) == first and q.status != "void")
    # a set saved with a bare title (before sections were per paper) still finds them
    dialog.set_spec(study.PracticeSetSpec(sections=(first.title,)))
    settle(app, dialog)
    assert dialog.sections.checked() == [dialog.sections.values()[0]]


def test_a_run_over_several_papers_names_each_questions_paper(launch):
    """Issue 30.6: in a set drawn from every paper, the question header says which paper
    the question is from (a single paper's practice does not repeat its title)."""
    app = launch()
    bank = bundled_bank()
    ids = [bank.paper("000").questions[0].id, bank.paper("001").questions[0].id]
    app.window.open_run(ids, "two papers")
    view = app.wait_screen(PracticeView)
    for index, paper_id in enumerate(("000", "001")):
        view.go_to(index)
        assert bank.paper(paper_id).title in view.current_page().title.text()
    app.window.go_library()
    app.window.open_practice("000")
    single = app.wait_screen(PracticeView)
    assert bank.paper("000").title not in single.current_page().title.text()
