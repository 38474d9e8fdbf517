"""The theme derives readable colours from the palette and follows palette changes."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from desktop.theme import AA_CONTRAST, Role, apply_theme_choice, contrast, theme

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
