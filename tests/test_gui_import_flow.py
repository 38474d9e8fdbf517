"""File ▸ Import paper… end to end in the real window: a damaged seed is imported off the UI
thread, reviewed, saved into the data folder's papers/, and the library shows it."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop.views.import_screen import ImportScreen
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui
SEED = Path(__file__).parent / "data" / "seeds" / "001_5b9d8d0b41fe1c3c.txt"


def test_import_a_seed_review_save_and_practise_it(launch, tmp_path):
    app = launch()
    app.window.import_paper(SEED)
    screen = app.wait_screen(ImportScreen)
    review = screen.review
    assert review.paper.id == "001_5b9d8d0b41fe1c3c" and len(review.paper.questions) == 31
    with app.qtbot.waitSignal(review.sig_saved, timeout=30_000):
        review.save()
    pack = tmp_path / "papers" / "001_5b9d8d0b41fe1c3c"
    assert (pack / "paper.toml").is_file()
    app.qtbot.waitUntil(lambda: "001_5b9d8d0b41fe1c3c" in app.window.library.cards,
                        timeout=30_000)
    paper = app.window.bank.paper("001_5b9d8d0b41fe1c3c")
    assert all(q.status == "draft" for q in paper.questions)
    app.window.go_library()
    app.window.open_practice(paper.id)  # a draft pack is practisable like any paper
    from desktop.views.practice import PracticeView

    view = app.wait_screen(PracticeView)
    notice = view.pages[0].findChild(type(view.pages[0].verdict), "draft_notice")
    assert view.paper.id == paper.id and notice is not None and "Unverified" in notice.text()


def test_importing_a_binary_file_says_why_and_writes_nothing(launch, tmp_path):
    app = launch()
    junk = tmp_path / "photo.txt"
    junk.write_bytes(bytes(range(256)) * 8)
    app.window.import_paper(junk)
    app.qtbot.waitUntil(lambda: app.window.findChild(QMessageBox, "import_failed") is not None)
    box = app.window.findChild(QMessageBox, "import_failed")
    assert "photo.txt" in box.text() and "binary" in box.text()
    assert not (tmp_path / "papers").exists()


def test_a_chinese_ui_says_why_a_file_is_refused_in_chinese(launch, qapp, tmp_path):
    """Issue 30.5: the lead line was Chinese, the refusal under it the core's English; it
    comes from the core's catalogue (question_db.interchange.refusals), the file named."""
    from test_gui_widgets import chinese_ui

    junk = tmp_path / "photo.txt"
    junk.write_bytes(bytes(range(256)) * 8)
    with chinese_ui(qapp):
        app = launch()
        app.window.import_paper(junk)
        app.qtbot.waitUntil(lambda: app.window.findChild(QMessageBox, "import_failed")
                            is not None)
        text = app.window.findChild(QMessageBox, "import_failed").text()
    assert text == (f"无法导入此文件；没有写入任何内容。\n\n{junk}：看起来是二进制文件，不是文本"
                    "（.docx、.xml 或 .apkg 要按各自的格式导入）")
    assert not (tmp_path / "papers").exists()


def test_a_chinese_ui_says_why_a_pack_was_not_saved_in_chinese(launch, qapp, tmp_path):
    """The review's "Not saved: %1" with the pack's refusal (a file where the pack goes)."""
    from test_gui_widgets import chinese_ui

    with chinese_ui(qapp):
        app = launch()
        app.window.import_paper(SEED)
        review = app.wait_screen(ImportScreen).review
        target = review.target()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("my notes\n")
        review.save()
        app.qtbot.waitUntil(lambda: review.message.text().startswith("未保存："),
                            timeout=30_000)
        text = review.message.text()
    assert text == (f"未保存：{target}：已存在，是一个文件而不是 examdesk 题包（没有 paper.toml），"
                    "所以绝不会被替换；请为题包另选一个新文件夹")
    assert target.read_text() == "my notes\n"


def test_a_chinese_ui_says_why_an_export_failed_in_chinese(qapp, qtbot, tmp_path):
    """The export's failure box: the disk's reason, not an OSError naming a temporary file."""
    from desktop.views.bank_files import BankFiles
    from gui_fixtures import bundled_bank
    from test_gui_widgets import chinese_ui

    class Db:  # the store thread's run, here and now
        def run(self, action, *, on_done, on_error, **kwargs):
            try:
                on_done(action(None, **kwargs))
            except Exception as exc:  # noqa: BLE001 - what the store thread passes on
                on_error(exc)

    (tmp_path / "notes.txt").write_text("x")
    out = tmp_path / "notes.txt" / "000.gift.txt"
    window = QWidget()
    qtbot.addWidget(window)
    with chinese_ui(qapp):
        BankFiles(window, Db(), bundled_bank).export("gift", ["000"], out)
        box = window.findChild(QMessageBox, "export_failed")
        text = box.text()
        box.close()
    assert text == f"{out}：无法写入文件：{tmp_path / 'notes.txt'} 是文件，不是文件夹"


def test_import_pasted_gift_text(launch):
    app = launch()
    app.window.import_pasted("::Q1:: 2 + 2 = ? {=4 ~3 ~5}\n\n::Q2:: RoPE 只作用于 q 与 k。{T}\n")
    screen = app.wait_screen(ImportScreen)
    questions = screen.review.paper.questions
    assert [q.type for q in questions] == ["single_choice", "single_choice"]
    assert questions[0].answer is not None


def test_exam_start_dialog_offers_to_score_unverified_questions(qtbot):
    """A paper with drafts asks whether they count; one that is all drafts starts ticked (it
    would have no score otherwise); a verified paper does not ask."""
    from dataclasses import replace

    from desktop.views.exam import StartExamDialog
    from gui_fixtures import bundled_bank
    from question_db.enums import Status

    paper = bundled_bank().paper("001")
    mixed = replace(paper, questions=tuple(replace(q, status=Status.DRAFT) if q.number < 3
                                           else q for q in paper.questions))
    every = replace(paper, questions=tuple(replace(q, status=Status.DRAFT)
                                           for q in paper.questions))
    for candidate, box_shown, ticked in ((paper, False, False), (mixed, True, False),
                                         (every, True, True)):
        dialog = StartExamDialog(candidate)
        qtbot.addWidget(dialog)
        assert (dialog.include_drafts_box is not None) is box_shown
        assert dialog.include_drafts() is ticked


# --- files that blow up (issue 28, item 3): the importer runs in a child process ------------

def _status_mib(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field}")


_baseline_mib = 0.0


def _reset_peak_memory() -> bool:
    """Start this process's resident-memory high-water mark (VmHWM) afresh (Linux 4.0+) and
    remember where it starts: after a whole suite the test process itself holds ~1 GiB."""
    global _baseline_mib
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    _baseline_mib = _status_mib("VmRSS")
    return True


def _peak_growth_mib() -> float:
    """How far the window's process grew since the reset (the bomb inflates to 2 GiB)."""
    return _status_mib("VmHWM") - _baseline_mib


def _import_and_wait_for_the_refusal(app, path: Path) -> str:
    app.window.import_paper(path)
    app.qtbot.waitUntil(lambda: app.window.findChild(QMessageBox, "import_failed")
                        is not None, timeout=60_000)
    box = app.window.findChild(QMessageBox, "import_failed")
    text = box.text()
    box.close()
    return text


def _survives(app) -> None:
    """The window is there and still imports (a paste goes through the child too)."""
    import shiboken6

    assert shiboken6.isValid(app.window) and app.window.isVisible()
    app.window.import_pasted("::Q1:: 2 + 2 = ? {=4 ~3 ~5}\n")
    assert app.wait_screen(ImportScreen).review.paper.questions


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="reads /proc (Linux)")
def test_a_zip_bomb_imported_in_the_window_is_refused_and_the_window_survives(launch,
                                                                            tmp_path):
    from bombs import GIB, write_zip_bomb

    bomb = write_zip_bomb(tmp_path / "paper.docx", "word/document.xml", 2 * GIB,
                          others={"[Content_Types].xml": b"<Types/>"})
    app = launch()
    assert _reset_peak_memory()
    text = _import_and_wait_for_the_refusal(app, bomb)
    assert "paper.docx" in text and "nothing was written" in text
    assert _peak_growth_mib() < 512  # the 2 GiB were never in the window's process
    _survives(app)
    assert not (tmp_path / "papers").exists()


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="reads /proc (Linux)")
def test_a_pdf_that_inflates_to_2_gib_blows_up_in_the_child_not_the_window(launch, tmp_path):
    """No importer caps what a PDF stream inflates to (pdfminer inflates it whole): the
    child process meets its memory limit, the window only hears about it."""
    from bombs import GIB, write_pdf_bomb

    bomb = write_pdf_bomb(tmp_path / "paper.pdf", 2 * GIB)
    app = launch()
    app.window.import_memory_limit = 768 * 2**20  # the default is 2 GiB; this is quicker
    assert _reset_peak_memory()
    text = _import_and_wait_for_the_refusal(app, bomb)
    assert "paper.pdf" in text and "nothing was written" in text
    assert "MemoryError" in text or "out of memory" in text
    assert _peak_growth_mib() < 512
    _survives(app)


def test_a_long_import_shows_progress_and_cancel_stops_it(launch, tmp_path):
    """Issue 28 item 8: a paper that takes a while to read shows what is read, for how long,
    and a Cancel that stops the importer's process: no review, nothing written, no child
    left, and the window imports the next paper."""
    import psutil

    from desktop.views.import_screen import ImportProgress

    big = tmp_path / "long.txt"
    big.write_text("".join(f"{i}. question {i}?\nA. yes\nB. no\n答案：A\n\n"
                           for i in range(1, 40_000)), encoding="utf-8")
    app = launch()
    app.window.import_paper(big)
    app.qtbot.waitUntil(lambda: (d := app.window.findChild(ImportProgress, "import_progress"))
                        is not None and d.isVisible(), timeout=10_000)
    dialog = app.window.findChild(ImportProgress, "import_progress")
    assert "long.txt" in dialog.label.text() and "MB" in dialog.label.text()
    assert "Cancel" in dialog.elapsed.text()
    me = psutil.Process()
    app.qtbot.waitUntil(lambda: bool(me.children()), timeout=10_000)
    dialog.reject()  # the Cancel button
    app.qtbot.waitUntil(lambda: me.children() == [], timeout=10_000)
    app.qtbot.wait(200)  # the waiter's answer reaches the window
    assert app.window.findChild(QMessageBox, "import_failed") is None
    assert not isinstance(app.window.screen_view, ImportScreen)
    assert not (tmp_path / "papers").exists()
    _survives(app)

