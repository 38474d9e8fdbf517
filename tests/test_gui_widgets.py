"""Widgets on their own: code editor, answer widgets, DbOps, start-up (Markdown rendering:
test_markdown.py)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QTextCursor

from desktop import pyside_workarounds
from desktop.db import DbOps
from desktop.views.answer_widgets import (
    CalculationAnswer,
    ChoiceAnswer,
    FillBlankAnswer,
    ProgrammingAnswer,
    make_answer_widget,
)
from desktop.views.code_editor import CodeEditor
from gui_fixtures import bundled_bank, launch, no_leaked_qt_objects  # noqa: F401
from question_db.grading import grade_answer, response_answered
from question_db.responses import BlanksResponse, ChoiceResponse
from question_db.store_worker import StoreWorker

pytestmark = pytest.mark.gui
REPO = Path(__file__).resolve().parents[1]


# --- PySide6 emit refcount bug (see desktop/pyside_workarounds.py) ------------------------
class _Emitter(QObject):
    sig = Signal(object)


def test_signal_emit_keeps_true_alive():
    """Regression: PySide6 6.12.0 emit() returned True without a reference; 3.11 aborted."""
    emitter = _Emitter()
    before = sys.getrefcount(True)
    for _ in range(500):
        emitter.sig.emit(1)
    assert sys.getrefcount(True) >= before


def test_void_calls_keep_none_alive():
    """Regression: PySide6 6.12.0 void methods returned None without a reference; a fresh
    3.11 process aborted ("none_dealloc") after ~5,000 QLabel.setText calls."""
    code = ("import sys\n"
            "from PySide6.QtWidgets import QApplication, QLabel\n"
            "app = QApplication(sys.argv[:1])\n"
            "import desktop\n"
            "label = QLabel()\n"
            "for _ in range(50_000):\n"
            "    label.setText('x')\n"
            "    label.setVisible(False)\n"
            "print('alive')\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and "alive" in result.stdout, result.stderr[-2000:]


# --- code editor ---------------------------------------------------------------------------
@pytest.fixture
def editor(qtbot):
    widget = CodeEditor()
    qtbot.addWidget(widget)
    widget.show()
    widget.setFocus()
    return widget


def test_tab_inserts_four_spaces_and_shift_tab_dedents(qtbot, editor):
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    qtbot.keyClicks(editor, "x = 1")
    assert editor.toPlainText() == "    x = 1"
    qtbot.keyClick(editor, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert editor.toPlainText() == "x = 1"


def test_enter_keeps_indent_and_indents_after_colon(qtbot, editor):
    qtbot.keyClicks(editor, "def f(x):")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "return x")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert editor.toPlainText() == "def f(x):\n    return x\n    "


def test_indent_selection_is_one_undo_step(qtbot, editor):
    editor.setPlainText("a = 1\nb = 2\n")
    cursor = editor.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(len("a = 1\nb"), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "    a = 1\n    b = 2\n"
    editor.undo()
    assert editor.toPlainText() == "a = 1\nb = 2\n"


def test_highlighter_colours_a_string_across_lines(qtbot, editor):
    editor.setPlainText('x = 1\ns = """\nstill a string\n"""\ny = 2\n')
    string_line = editor.document().findBlockByNumber(2)
    plain_line = editor.document().findBlockByNumber(4)
    string_colours = {r.format.foreground().color().name() for r in string_line.layout().formats()}
    assert string_colours, "the middle line of a triple-quoted string got no format"
    plain = {r.format.foreground().color().name() for r in plain_line.layout().formats()
             if r.start == 0}
    assert plain.isdisjoint(string_colours)  # `y` after the string is not coloured as one
    # Opening a string on line 1 recolours the lines below it.
    cursor = editor.textCursor()
    cursor.setPosition(len("x = 1"))
    cursor.insertText(' + """')
    assert editor.document().findBlockByNumber(4).layout().formats()


# --- answer widgets ------------------------------------------------------------------------
def question(qid: str):
    return bundled_bank().question(qid)


def test_every_question_gets_a_widget_whose_empty_response_is_unanswered(qtbot):
    for q in bundled_bank().all_questions():
        widget = make_answer_widget(q)
        qtbot.addWidget(widget)
        assert not widget.is_answered(), q.id
        assert not response_answered(q, widget.response()), q.id
        grade_answer(q, widget.response())  # every shape is one grading accepts


def test_fill_blank_has_one_field_per_blank_and_round_trips(qtbot):
    q = next(q for q in bundled_bank().all_questions()
             if q.type == "fill_blank" and q.blank_count > 1 and q.scored)
    widget = FillBlankAnswer(q)
    qtbot.addWidget(widget)
    assert len(widget.edits) == q.blank_count
    answers = BlanksResponse(tuple(variants[0] for variants in q.answer))
    widget.set_response(answers)
    assert widget.response() == answers
    assert grade_answer(q, widget.response()).verdict == "correct"


def test_calculation_fields_with_units_grade_like_the_key(qtbot):
    q = question("001/26")
    widget = CalculationAnswer(q)
    qtbot.addWidget(widget)
    assert len(widget.values) == len(q.parts)
    for edit, part in zip(widget.values, q.parts):
        edit.setText(f"{part.value:.6g}")
    widget.show_rubric()
    for box in widget.rubric.boxes:
        box.setChecked(True)
    assert grade_answer(q, widget.response()).verdict == "correct"


def test_choice_answer_keys_and_locking(qtbot):
    widget = ChoiceAnswer(question("000/16"))
    qtbot.addWidget(widget)
    changes = []
    widget.sig_changed.connect(lambda: changes.append(1))
    assert widget.handle_key(Qt.Key.Key_A, "a") and widget.handle_key(Qt.Key.Key_3, "3")
    assert widget.response() == ChoiceResponse(("A", "C")) and len(changes) == 2
    widget.set_locked(True)
    widget.handle_key(Qt.Key.Key_B, "b")
    assert widget.response() == ChoiceResponse(("A", "C"))


def test_programming_widget_buttons_disabled_until_console_then_emit(qtbot, tmp_path):
    from question_db.model import CodeFiles, Question, RubricItem

    starter = tmp_path / "starter.py"
    starter.write_text("def solve():\n    pass\n", encoding="utf-8")
    q = Question(id="t/1", paper_id="t", number=1, type="programming", points=10, stem="x",
                 status="ok", answer="", seed_answer="",
                 rubric=(RubricItem("checks", 8, auto=True), RubricItem("FLOPs", 2)),
                 code=CodeFiles(reference=starter, starter=starter))
    widget = ProgrammingAnswer(q)
    qtbot.addWidget(widget)
    assert widget.code() == "def solve():\n    pass\n"
    assert not widget.check_button.isEnabled() and widget.check_button.toolTip()
    widget.set_console_available(True)
    with qtbot.waitSignal(widget.sig_check_requested) as blocker:
        qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert blocker.args == ["t/1", widget.code()]
    with qtbot.waitSignal(widget.sig_run_requested) as blocker:
        qtbot.mouseClick(widget.run_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [widget.code()]
    assert grade_answer(q, widget.response()).verdict == "pending"  # not checked yet
    widget.set_checks([{"name": "a", "passed": True, "required": True}])
    assert widget.response().checks[0]["passed"]
    assert grade_answer(q, widget.response()).points == 8  # the auto item, from the check


# --- DbOps ---------------------------------------------------------------------------------
def test_db_ops_delivers_results_on_the_ui_thread_and_shows_errors(qtbot, tmp_path):
    import threading

    worker = StoreWorker(tmp_path / "p.sqlite3")
    db = DbOps(worker)
    try:
        threads = []
        with qtbot.waitSignal(db.sig_idle):
            db.run(lambda store: store.path.name,
                   on_done=lambda name: threads.append((name, threading.current_thread())))
        assert threads == [("p.sqlite3", threading.main_thread())]
        with qtbot.waitSignal(db.sig_error) as blocker:
            db.run(lambda store: store.session(999))
        assert "KeyError" in blocker.args[0] and "999" in blocker.args[0]
    finally:
        assert worker.close()
        db.deleteLater()


# --- the entry point -----------------------------------------------------------------------
def test_examdesk_main_starts_loads_the_bank_and_quits(tmp_path):
    code = ("import sys\n"
            "from PySide6.QtCore import QTimer\n"
            "from PySide6.QtWidgets import QApplication\n"
            "app = QApplication(sys.argv[:1])\n"
            "from desktop.app import main\n"
            "def check():\n"
            "    w = [w for w in app.topLevelWidgets() if w.objectName() == 'main_window'][0]\n"
            "    if w.library.cards:\n"
            "        print('papers', len(w.library.cards), flush=True)\n"
            "        w.close()\n"
            "    else:\n"
            "        QTimer.singleShot(50, check)\n"
            "QTimer.singleShot(0, check)\n"
            "sys.exit(main(['--data-dir', sys.argv[1]]))\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path),
           "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path / "data")], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "papers 3" in result.stdout  # 000, 001 and the drills pack
    assert (tmp_path / "data" / "progress.sqlite3").exists()


def test_workaround_module_probe_is_safe_to_call_twice():
    pyside_workarounds.install()
    assert pyside_workarounds.install() in (True, False)


@contextmanager
def chinese_ui(qapp) -> Iterator[list]:
    """The zh_CN translators (yielded) and default QLocale for the block, then what was
    before: a default locale left at zh_CN changes how later tests shape CJK text (Qt's
    PDF writer then maps most CJK glyphs to no Unicode at all)."""
    from PySide6.QtCore import QLocale

    from desktop.app import install_translations

    before = QLocale()
    translators = install_translations(qapp, "zh_CN")
    try:
        yield translators
    finally:
        for translator in translators:
            qapp.removeTranslator(translator)
            translator.deleteLater()
        QLocale.setDefault(before)


def test_chinese_translation_ships_and_covers_base_class_strings(qapp):
    from PySide6.QtCore import QCoreApplication

    with chinese_ui(qapp) as translators:
        assert translators, "resources/translations/examdesk_zh_CN.qm did not load"
        # This checkout's .qm (the one beside the .ts checked below), not an installed copy.
        assert Path(translators[0].filePath()) == (
            REPO / "resources" / "translations" / "examdesk_zh_CN.qm")
        assert QCoreApplication.translate("PaperSessionView", "Previous") == "上一题"
        assert QCoreApplication.translate("", "Question %1") == "第 %1 题"
        assert QCoreApplication.translate("ExamView", "Submit exam…") == "交卷…"
        # The core's storage messages (QT_TRANSLATE_NOOP in question_db/messages.py), with
        # their {placeholders} kept through the translation.
        from question_db.messages import render

        assert render("disk_full", {"path": "/d/progress.sqlite"},
                      QCoreApplication.translate).startswith("无法保存到 /d/progress.sqlite：")
        # Once written as tr() inside an f-string, which lupdate cannot see.
        from desktop.views.question_view import choice_legend

        assert "漏选" in choice_legend()
    ts = (REPO / "resources" / "translations" / "examdesk_zh_CN.ts").read_text("utf-8")
    assert 'type="unfinished"' not in ts


def test_time_used_names_its_units_in_both_languages(qapp):
    """Issue 30: "用时 2:25" read as hours or minutes alike."""
    from desktop.views.report import format_time_used

    assert [format_time_used(s) for s in (40, 145, 3900.4)] == ["40 s", "2 min 25 s",
                                                                 "1 h 05 min"]
    with chinese_ui(qapp):
        assert format_time_used(145) == "2 分 25 秒"
        assert format_time_used(3900) == "1 小时 05 分"


def test_check_results_show_no_terminal_colour_codes(qtbot):
    """Issue 30: code that fails at import reached the results with IPython's ANSI colours."""
    from IPython.core.ultratb import AutoFormattedTB

    from desktop.views.check_results import CheckResultsView

    try:
        exec(compile("import no_such_module_here", "<solution>", "exec"), {})
    except ImportError:
        frames = AutoFormattedTB(mode="Context").structured_traceback(
            *sys.exc_info())
    assert any("\x1b[" in frame for frame in frames)  # what ipykernel sends
    failed = {"passed": False, "required": True, "seconds": 0.0,
              "message": "\x1b[0;31mModuleNotFoundError\x1b[0m: No module named 'x'",
              "details": {"traceback": frames[-3:]}}
    view = CheckResultsView()
    qtbot.addWidget(view)
    view.show_results([{**failed, "name": "shape"}, {**failed, "name": "causal"}])
    texts = [view.summary.text()]
    items = [view.table.topLevelItem(i) for i in range(view.table.topLevelItemCount())]
    for item in items + [item.child(j) for item in items for j in range(item.childCount())]:
        texts += [item.text(c) for c in range(4)] + [item.toolTip(c) for c in range(4)]
    shown = "\n".join(texts)
    assert "no_such_module_here" in shown and "ModuleNotFoundError" in shown
    assert "\x1b" not in shown and "\\u001b" not in shown
    view.show_error("\x1b[0;31mNameError\x1b[0m: name 'f' is not defined")
    assert "\x1b" not in view.summary.text() and "NameError" in view.summary.text()


def test_qts_own_file_dialog_speaks_chinese_with_the_ui(qapp, qtbot):
    """Issue 30.5: Qt's file dialog (File ▸ Import paper…, Export) in the UI's language:
    qtbase's translation ships with PySide6 and is installed beside ours."""
    from PySide6.QtWidgets import QFileDialog, QLabel

    with chinese_ui(qapp) as translators:
        assert any("qtbase_zh_CN" in t.filePath() for t in translators)
        dialog = QFileDialog(None, "导入试卷")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        qtbot.addWidget(dialog)
        for mode in (QFileDialog.AcceptMode.AcceptOpen, QFileDialog.AcceptMode.AcceptSave):
            dialog.setAcceptMode(mode)
            labels = {label.text() for label in dialog.findChildren(QLabel)}
            assert {"查找范围(&L)：", "文件名称(&N)：", "文件类型(&T)："} <= labels
            english = [t for t in labels if re.search("[A-Za-z]{3}", t)]
            assert english == []  # what qtbase lacks comes from ours (desktop/qt_strings)


def test_the_kernel_chooser_names_the_apps_kernel_in_chinese(qapp, qtbot, tmp_path):
    """Issue 30.5: the console's kernel chooser in the UI's language (the core names the
    app's kernel in English, for the CLI)."""
    from PySide6.QtCore import QSettings

    from desktop.console.kernel_chooser import KernelChooser

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    with chinese_ui(qapp):
        chooser = KernelChooser(settings)
        qtbot.addWidget(chooser)
        chooser.load()
        assert chooser.itemText(0).startswith("examdesk（当前 Python，3.")
        assert chooser.itemText(chooser.count() - 1) != "Connect to existing kernel…"


def test_the_window_size_reaches_the_settings_file_without_a_clean_close(launch, tmp_path):
    """Issue 30.7: the size was saved only at a clean close; after a kill the next launch
    opened at the default size. A second after a resize it is in the file on disk."""
    from PySide6.QtCore import QSettings

    from desktop.config import Keys
    from desktop.main_window import GEOMETRY_SAVE_MS

    app = launch()
    app.window.resize(1111, 666)
    app.qtbot.wait(GEOMETRY_SAVE_MS + 300)
    on_disk = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    saved = on_disk.value(Keys.WINDOW_GEOMETRY)  # what a killed process leaves
    assert saved is not None and bytes(saved) == bytes(app.window.saveGeometry())
    app.window.resize(900, 600)  # and again, a second later, the new size
    app.qtbot.wait(GEOMETRY_SAVE_MS + 300)
    on_disk.sync()
    again = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    assert bytes(again.value(Keys.WINDOW_GEOMETRY)) == bytes(app.window.saveGeometry()) \
        != bytes(saved)


def test_choosing_another_language_offers_a_restart_that_keeps_everything(launch, qtbot,
                                                                          monkeypatch):
    """Issue 30.7: Chinese needed a restart the learner had to do by hand. Saving another
    interface language offers Restart now: the window closes the normal way (drafts saved,
    an exam keeps its clock) and examdesk starts again without a --lang that would force
    the old language."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.config import CHINESE
    from desktop.relaunch import RESTART_PROPERTY, relaunch_args

    app = launch()
    dialog = app.window.open_settings()
    dialog.language.setCurrentIndex(dialog.language.findData(CHINESE))
    seen = []

    def answer() -> None:
        box = next(b for b in app.window.findChildren(QMessageBox)
                   if b.objectName() == "restart_offer" and b.isVisible())
        seen.append(box.text())
        restart = next(b for b in box.buttons()
                       if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole)
        restart.click()

    QTimer.singleShot(50, answer)
    try:
        dialog.accept()
        assert seen and "Restart now?" in seen[0]
        assert QApplication.instance().property(RESTART_PROPERTY)
        assert not app.window.isVisible()
    finally:
        QApplication.instance().setProperty(RESTART_PROPERTY, False)
    assert relaunch_args(["--lang", "en", "--data-dir", "/d", "--lang=zh_CN", "-x"]) == [
        "--data-dir", "/d", "-x"]


def test_a_check_not_judged_here_reads_as_neither_pass_nor_fail(qtbot):
    """Issue 29: a Triton without block pointers cannot run the kernel; the rows say "?"
    and the summary counts them apart from failures, so the learner is not told it is wrong."""
    from desktop.views.check_results import CheckResultsView

    view = CheckResultsView()
    qtbot.addWidget(view)
    message = "Not judged: triton 3.9.0 has no block pointers"
    view.show_results([
        {"name": "ready", "passed": True, "required": True, "message": "ok"},
        {"name": "values", "passed": False, "required": True, "not_judged": True,
         "message": message},
        {"name": "strides", "passed": False, "required": True, "message": "2 elements differ"}])
    marks = {view.table.topLevelItem(i).text(1): view.table.topLevelItem(i).text(0)
             for i in range(view.table.topLevelItemCount())}
    assert marks == {"ready": "✓", "values": "?", "strides": "✗"}, marks
    summary = view.summary.text()
    assert "1 of 2 required checks passed" in summary, summary
    assert "1 check(s) not judged here" in summary, summary
    # the failure the learner can act on comes first, the not-judged row after it
    assert view.table.topLevelItem(0).text(1) == "strides"
