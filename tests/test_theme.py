"""The theme derives readable colours from the palette and follows palette changes."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from desktop.theme import AA_CONTRAST, Role, apply_theme_choice, contrast, theme
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui
TEXT_ROLES = (Role.TEXT, Role.MUTED, Role.OK, Role.WARNING, Role.ERROR, Role.INFO, Role.FLAG)


@pytest.fixture
def restore_palette(qapp):
    style, palette = qapp.style().name(), QApplication.palette()
    yield qapp
    apply_theme_choice(qapp, "light")
    qapp.setPalette(palette)


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_every_text_role_reads_on_the_base_and_on_its_tinted_background(restore_palette, choice):
    apply_theme_choice(restore_palette, choice)
    t = theme()
    assert t.dark == (choice == "dark")
    base = QApplication.palette().color(QPalette.ColorRole.Base)
    for role in TEXT_ROLES:
        assert contrast(t.color(role), base) >= AA_CONTRAST, (choice, role)
    for text, background in ((Role.WARNING, Role.WARNING_BG), (Role.OK, Role.OK_BG),
                             (Role.ERROR, Role.ERROR_BG), (Role.TEXT, Role.CODE_BG),
                             (Role.TEXT, Role.WARNING_BG)):
        assert contrast(t.color(text), t.color(background)) >= 3.0, (choice, text, background)
    assert t.css(Role.CODE_BG) != base.name()  # code stands out from the page


def test_a_palette_change_recomputes_and_signals(restore_palette, qtbot):
    apply_theme_choice(restore_palette, "light")
    t = theme()
    light_ok = t.css(Role.OK)
    with qtbot.waitSignal(t.sig_changed, timeout=2000):
        apply_theme_choice(restore_palette, "dark")
    assert t.dark and t.css(Role.OK) != light_ok
    assert t.pygments_style == "monokai"


def test_unknown_choice_is_refused(qapp):
    with pytest.raises(ValueError, match="theme must be one of"):
        apply_theme_choice(qapp, "sepia")


def test_switching_to_dark_re_renders_the_open_practice_screen(launch, restore_palette):
    """Settings ▸ Theme ▸ Dark while a question is answered: the pages are rebuilt in the
    dark roles, the verdict and the typed answer are still there, the library follows."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    from desktop.config import Keys
    from desktop.views.practice import PracticeView
    from desktop.views.settings_dialog import SettingsDialog

    app = launch()
    apply_theme_choice(restore_palette, "light")
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    app.qtbot.keyClick(view, Qt.Key.Key_A)
    app.qtbot.keyClick(view, Qt.Key.Key_Return)
    app.wait_idle()
    light_ok = theme().css(Role.OK)
    assert light_ok in view.pages[0].verdict.text()
    dialog = SettingsDialog(app.settings, app.window)
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.accept()
    assert app.settings.value(Keys.THEME) == "dark" and theme().dark
    page = view.pages[view.current]
    assert page.question.id == "000/1" and page.feedback.isVisible()  # rebuilt, still revealed
    assert theme().css(Role.OK) in page.verdict.text() and light_ok not in page.verdict.text()
    card = app.window.library.cards["000"]
    meta = card.findChild(QLabel, "paper_meta")
    assert meta.palette().color(QPalette.ColorRole.WindowText) == theme().color(Role.MUTED)


def test_dark_theme_code_editor_uses_a_dark_pygments_style(qtbot, restore_palette):
    from desktop.views.code_editor import CodeEditor

    apply_theme_choice(restore_palette, "light")
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText("def f():\n    return 1\n")
    light = editor.highlighter._style.__name__
    apply_theme_choice(restore_palette, "dark")
    assert editor.highlighter._style.__name__ != light


@pytest.mark.parametrize("kind", ["radio", "check"])
@pytest.mark.parametrize("enabled", [True, False])
def test_unchecked_options_are_visible_on_the_dark_page(restore_palette, qtbot, kind, enabled):
    """Issue 30.7: an unchecked radio button or check box in the dark theme has a rim that
    stands out from the page (Fusion's own was the page colour darkened: ~3 levels)."""
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QCheckBox, QRadioButton, QStyle, QStyleOptionButton

    app = QApplication.instance()
    apply_theme_choice(app, "dark")
    button = QRadioButton() if kind == "radio" else QCheckBox()
    button.setEnabled(enabled)
    qtbot.addWidget(button)
    button.resize(button.sizeHint())
    image = button.grab().toImage()
    option = QStyleOptionButton()
    option.initFrom(button)
    element = (QStyle.SubElement.SE_RadioButtonIndicator if kind == "radio"
               else QStyle.SubElement.SE_CheckBoxIndicator)
    rect = button.style().subElementRect(element, option, button)
    page = QColor(image.pixel(image.width() - 1, image.height() - 1))  # beside it
    darkest_rim = max(abs(QColor(image.pixel(x, rect.center().y())).lightness()
                          - page.lightness()) for x in range(rect.left(), rect.center().x()))
    assert darkest_rim >= (60 if enabled else 25), (kind, enabled, darkest_rim)
