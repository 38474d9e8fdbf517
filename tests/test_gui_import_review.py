"""The import review screen on a real seed import: source beside the parsed question,
flags highlighted, edit, mark verified (honestly), save off the UI thread, reload."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent

from desktop.views.import_review import ImportReviewView
from question_db.bank import load_paper
from question_db.interchange.text_import import read_text_paper
from test_import_seeds import SEEDS

pytestmark = pytest.mark.gui


@pytest.fixture
def view(qtbot, tmp_path):
    result = read_text_paper(next(SEEDS.glob("000_*.txt")))
    v = ImportReviewView.from_result(result, tmp_path / "papers")
    qtbot.addWidget(v)
    v.resize(1400, 900)
    v.show()
    qtbot.waitExposed(v)
    yield v
    v.shutdown()
    v.close()
    v.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


def test_source_beside_the_question_and_flags_highlighted(view):
    view.select(3)
    assert "3.在DiffusionModel采样阶段" in view.source.toPlainText()  # as printed
    assert view.stem.toPlainText().startswith("在 DiffusionModel 采样阶段")
    assert [view.options.item(r, 1).text() for r in range(4)][0] == "eta=0.0，均匀跳步 stride=20"
    assert "??" in "".join(view.highlighted("stem"))  # the lost-math flag, marked
    assert "lost formula" in view.flags.item(0).text()
    view.select(34)
    assert view.code.isVisible() and not view.options.isVisible()
    assert any("xtorch" in s for s in view.highlighted("code"))
    assert "✂" in view.question_list.item(33).text()  # truncated


def test_changed_key_needs_errata_then_is_corrected(view):
    view.select(1)
    assert view.printed_key.text() == "printed: A (next to the question)"
    view.key.setText("B")
    assert not view.toggle_verified()
    assert "errata" in view.message.text()
    view.errata.setPlainText("原卷答案 A 有误：nvfuser 不是合法后端。")
    assert view.toggle_verified()
    assert view.current.status == "corrected" and view.current.review == []
    assert not view.stem.isEnabled()  # verified fields are read-only until unverified
    view.select(6)
    assert view.toggle_verified()  # key kept, explanation printed: ok
    assert view.current.status == "ok"
    view.select(34)  # the seed's code does not compile: not a reference solution yet
    assert not view.toggle_verified() and "does not compile" in view.message.text()


def test_unverify_restores_the_flags(view):
    view.select(3)
    flags = list(view.current.review)
    assert view.toggle_verified() and view.current.review == []
    assert view.toggle_verified()
    assert view.current.status == "draft" and view.current.review == flags


def test_edit_verify_save_and_reload_with_the_loader(view, qtbot, tmp_path):
    view.select(2)
    view.stem.setPlainText(view.stem.toPlainText().replace("LLaMA-65B", "LLaMA 65B"))
    assert view.toggle_verified()
    view.select(21)
    view.key.setText("blockwise load | accumulate tile")  # spacing only: same printed key
    view.explanation.setPlainText("Inductor 默认走 cuBLAS。")
    assert view.toggle_verified() and view.current.status == "ok"
    view.title_edit.setText("导入的试卷")
    stages = []
    view._saver.sig_progress.connect(lambda stage, done, total: stages.append(stage))
    with qtbot.waitSignal(view.sig_saved, timeout=20000) as saved:
        assert view.save() is not None
        assert not view.save_button.isEnabled()  # the window runs on while it writes
    paper = saved.args[0]
    assert paper.title == "导入的试卷" and len(paper.questions) == 34
    assert {"write", "validate", "move"} <= set(stages)
    assert "Saved" in view.message.text() and view.save_button.isEnabled()
    problems = []
    loaded = load_paper(tmp_path / "papers" / view.paper.id, problems)
    assert not problems
    q2, q21 = loaded.question(2), loaded.question(21)
    assert q2.status == "ok" and "LLaMA 65B" in q2.stem and not q2.review
    assert q21.status == "ok" and q21.answer == [["blockwise load"], ["accumulate tile"]]
    assert loaded.question(3).status == "draft" and loaded.question(3).review
    assert loaded.question(34).truncated
    view.select(3)
    with qtbot.waitSignal(view.sig_saved, timeout=20000):  # a second save replaces it
        view.save()


def test_reopen_a_draft_pack_and_save_it_in_place(qtbot, tmp_path):
    from question_db.interchange.pack import write_pack

    papers = tmp_path / "papers"
    write_pack(read_text_paper(next(SEEDS.glob("001_*.txt"))).paper, papers / "d1")
    v = ImportReviewView.from_pack(papers / "d1")
    qtbot.addWidget(v)
    try:
        assert "opened from a pack" in v.source.toPlainText()
        assert v.left_out.isHidden()  # a pack carries no import warnings
        v.select(4)
        assert v.toggle_verified() and v.current.status == "ok"
        with qtbot.waitSignal(v.sig_saved, timeout=20000) as saved:
            v.save()  # the pack it came from: replaced in place
        assert saved.args[0].question(4).status == "ok"
        assert load_paper(papers / "d1", []).question(4).status == "ok"
        assert sorted(p.name for p in papers.iterdir()) == ["d1"]  # no staging left
    finally:
        v.shutdown()


def test_what_the_importer_left_out_is_shown_by_name(qtbot, tmp_path):
    """A Moodle file with a question type we cannot carry: the screen names the file, the
    question and the field, and says where the source text went (this format has none)."""
    from pathlib import Path

    from question_db.interchange.importers import import_file

    sample = Path(__file__).resolve().parents[1] / "docs/screenshots/data/moodle_quiz.xml"
    result = import_file(sample)
    v = ImportReviewView.from_result(result, tmp_path / "papers")
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    text = v.left_out.text()
    assert v.left_out.isVisible() and "moodle_quiz.xml" in text
    assert "#6 并行策略" in text and "matching" in text and "type" in text
    assert "no printed source" in v.source.toPlainText()
    v.shutdown()


def test_the_seeds_truncation_is_named_above_the_review(view):
    text = view.left_out.text()
    assert view.left_out.isVisible()
    assert "000_88fc5b147273d5d1.txt · question 34 · cut off: " in text
    assert "the source is cut off here" in text  # the importer's own words: where


def test_warnings_read_without_the_developer_format(qtbot, tmp_path):
    """Issue 30.5: pasted text's warnings name no "<pasted text>" and no ":-:" field
    syntax; an export's name each question as 000/21, not its installed file's path."""
    from desktop.views.problem_text import problem_text
    from question_db.interchange.importers import import_pasted
    from question_db.model import Problem

    seed = (Path(__file__).parent / "data" / "seeds" / "000_88fc5b147273d5d1.txt")
    result = import_pasted(seed.read_text(encoding="utf-8"))
    assert result.warnings
    v = ImportReviewView.from_result(result, tmp_path / "papers")
    qtbot.addWidget(v)
    text = v.left_out.text()
    assert "&lt;pasted text&gt;" not in text and "<pasted text>" not in text
    assert ":-:" not in text and "question 34" in text
    v.shutdown()
    exported = Problem("/usr/lib/python3/site-packages/question_db/papers/000/paper.toml",
                       "000/21", "blank_points", "GIFT: one blank's points")
    assert problem_text(exported) == "000/21 · points per blank: GIFT: one blank's points"
    assert problem_text(Problem("x.txt", "-", "points", "m")) == \
        "x.txt · the whole paper · points: m"


def test_the_review_says_where_each_key_was_printed(qtbot, tmp_path):
    from question_db.interchange.text_import import import_text
    from test_import_layouts import EN_MARKDOWN, WEB_APPENDIX

    for text, number, where in ((WEB_APPENDIX, 4, "printed: B,D (in the answer appendix)"),
                                (EN_MARKDOWN, 2, "printed: A,C (next to the question)")):
        v = ImportReviewView.from_result(import_text(text, paper_id="t"), tmp_path / "p")
        qtbot.addWidget(v)
        v.select(number)
        assert v.printed_key.text() == where
        v.shutdown()


def test_review_flags_read_as_words_not_identifiers(view):
    """Issue 30.5: a flag said "no_key [answer]: …"; its kind and field are named in the
    UI's language, and every kind the importers raise has a name."""
    import re as regex

    from desktop.views.problem_text import flag_names

    core = Path(__file__).resolve().parents[1] / "question_db"
    kinds = set()
    for source in core.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        kinds |= set(regex.findall(r'\b(?:ReviewFlag|Finding|Note)\(\s*"(\w+)"', text))
        kinds |= set(regex.findall(r'^\s*\("([a-z]+_[a-z_]+)", _', text, regex.M))  # code.py
    assert len(kinds) >= 15
    assert sorted(kinds - set(flag_names())) == []
    shown = []
    for row in range(view.question_list.count()):
        view.question_list.setCurrentRow(row)
        shown += [view.flags.item(i).text() for i in range(view.flags.count())]
    assert shown  # the seed has flags
    heads = [line.split(":", 1)[0] for line in shown]
    assert not [h for h in heads if regex.search(r"\b[a-z]+_[a-z_]+\b", h)], heads


def test_a_chinese_ui_shows_the_flags_why_and_the_warnings_in_chinese(qapp, qtbot, tmp_path):
    """Issue 30.5: the kind was named in Chinese but the why and the warnings stayed the
    core's English; they come from its catalogue (question_db.interchange.message_catalogue),
    the quoted source text inside them as printed."""
    from test_gui_widgets import chinese_ui

    result = read_text_paper(next(SEEDS.glob("000_*.txt")))
    with chinese_ui(qapp):
        v = ImportReviewView.from_result(result, tmp_path / "papers")
        qtbot.addWidget(v)
        v.show()
        qtbot.waitExposed(v)
        v.select(3)
        flag = v.current.review[0]
        assert flag.kind == "lost_math" and flag.why.startswith("“?” stands for")
        context = flag.why.rsplit("(in “", 1)[1].rstrip("”)")
        shown = v.flags.item(0).text()
        assert shown.startswith("丢失的公式")
        assert "“?”代表提取时丢失的字符或数学符号" in shown and f"见“{context}”" in shown
        assert "stands for" not in shown and v.flags.item(0).toolTip() in shown
        v.flags.setCurrentRow(0)
        assert v.message.text().startswith("丢失的公式: “?”代表提取时丢失的字符")
        warnings = v.left_out.text()
        assert "原文在此处截断：…self.mlp = nn.Sequential(" in warnings
        assert "the source is cut off here" not in warnings
        v.select(34)  # the seed's code does not compile: what stops verifying, in Chinese
        assert not v.toggle_verified() and "代码无法编译（第 " in v.message.text()
        v.shutdown()
