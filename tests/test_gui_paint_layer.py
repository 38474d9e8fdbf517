"""Text layers (desktop/views/paint_layer): a widget that copies its last paint must show
exactly what it would paint itself, and never an old picture after its text, selection,
palette or size changed. Real widgets, offscreen, compared pixel by pixel."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from desktop.views import paint_layer
from desktop.views.code_editor import CodeEditor
from desktop.views.flow_text import FlowText
from desktop.views.navigator import Navigator, navigator_groups
from desktop.views.paint_layer import LayeredLabel
from question_db.bank import load_bank

pytestmark = pytest.mark.gui

STEM = ("<p>实现 <code>RoPEMultiHeadAttention(nn.Module)</code>：给定 <b>q, k</b> 的形状 "
        "(B, H, S, D)，在 <i>D</i> 维上成对旋转。Rotary embeddings rotate each pair of "
        "channels by an angle that grows with the position.</p><pre>def forward(self, x):\n"
        "    return x</pre>")
OTHER = "<p>A different stem: <b>ZeRO-1</b> shards Adam's m and v across ranks.</p>"
CODE = "import torch\n\n\ndef rope(x: torch.Tensor) -> torch.Tensor:\n    return x * 2\n"


def picture(widget: QWidget) -> QImage:
    return widget.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)


def max_difference(a: QImage, b: QImage) -> int:
    """The largest difference of one colour channel between two same-sized images."""
    assert a.size() == b.size()
    return max(abs(x - y) for x, y in zip(bytes(a.constBits()), bytes(b.constBits())))


_ALIVE: list[QWidget] = []  # qtbot closes its widgets at teardown but does not keep them


@pytest.fixture(autouse=True)
def _release_windows(monkeypatch):
    # Every paint is worth a layer here: which small widget paints in under 0.15 ms
    # depends on the machine's speed at the moment (tested on its own below).
    monkeypatch.setattr(paint_layer, "MIN_PAINT_SECONDS", 0.0)
    yield
    _ALIVE.clear()


def shown(qtbot, *widgets: QWidget, width: int = 420) -> QWidget:
    holder = QWidget()
    _ALIVE.append(holder)
    layout = QVBoxLayout(holder)
    for w in widgets:
        layout.addWidget(w)
    holder.resize(width, 160 * len(widgets))
    qtbot.addWidget(holder)
    holder.show()
    qtbot.waitExposed(holder)
    return holder


def settle(qtbot, *widgets: QWidget) -> None:
    """The idle turns that take the layers of ``widgets`` after their real paint."""
    qtbot.wait(10)
    for widget in widgets:
        qtbot.waitUntil(lambda w=widget: w.layer.filled, timeout=3000)


def test_a_layered_label_copies_what_a_plain_label_paints(qtbot):
    plain, layered = QLabel(STEM), LayeredLabel(STEM)
    for label in (plain, layered):
        label.setWordWrap(True)
    shown(qtbot, plain, layered)
    settle(qtbot, layered)
    hits = layered.layer.hits
    copy = picture(layered)
    assert layered.layer.hits > hits  # this picture came from the layer
    assert max_difference(copy, picture(plain)) <= 2  # rounding of the alpha blend only


def test_a_changed_text_is_painted_again_not_copied(qtbot):
    layered = LayeredLabel(STEM)
    layered.setWordWrap(True)
    fresh = QLabel(OTHER)
    fresh.setWordWrap(True)
    shown(qtbot, layered, fresh)
    settle(qtbot, layered)
    before = picture(layered)
    layered.setText(OTHER)
    after = picture(layered)
    assert max_difference(after, before) > 50
    assert max_difference(after, picture(fresh)) <= 2


def test_a_selection_and_a_palette_change_are_never_served_from_the_layer(qtbot):
    text = FlowText(STEM)
    shown(qtbot, text)
    settle(qtbot, text)
    unselected = picture(text.viewport())
    cursor = text.textCursor()
    cursor.select(cursor.SelectionType.Document)
    text.setTextCursor(cursor)
    selected = picture(text.viewport())
    assert max_difference(selected, unselected) > 50  # the highlight is drawn
    cursor.clearSelection()
    text.setTextCursor(cursor)
    assert max_difference(picture(text.viewport()), unselected) <= 2
    palette = text.palette()
    palette.setColor(QPalette.ColorRole.Text, QColor("#d00000"))
    text.setPalette(palette)
    assert max_difference(picture(text.viewport()), unselected) > 50  # red now


def test_a_parents_palette_or_font_change_is_never_served_from_the_layer(qtbot):
    # The key holds no palette or font: their changes arrive as events and drop the layer.
    label = LayeredLabel(STEM)
    label.setWordWrap(True)
    holder = shown(qtbot, label)
    settle(qtbot, label)
    before = picture(label)
    palette = holder.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#d00000"))
    holder.setPalette(palette)
    assert not label.layer.filled  # dropped by the PaletteChange it received
    red = picture(label)
    assert max_difference(red, before) > 50
    settle(qtbot, label)
    font = holder.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    holder.setFont(font)
    assert not label.layer.filled
    assert picture(label) != red


def test_the_editor_shows_an_edit_made_while_it_was_not_focused(qtbot):
    editor, fresh = CodeEditor(), CodeEditor()
    editor.setPlainText(CODE)
    fresh.setPlainText(CODE.replace("x * 2", "x.float() @ weight"))
    holder = shown(qtbot, editor, fresh, width=520)
    holder.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    holder.setFocus()  # the learner is on the page, not typing: no cursor to blink
    editor.clearFocus()
    fresh.clearFocus()
    editor.viewport().update()
    settle(qtbot, editor)
    assert not editor.hasFocus()
    before = picture(editor.viewport())
    editor.setPlainText(fresh.toPlainText())  # e.g. "Reset to starter", a restored attempt
    settle(qtbot, editor, fresh)
    after = picture(editor.viewport())
    assert max_difference(after, before) > 50
    assert max_difference(after, picture(fresh.viewport())) <= 2


def test_a_widget_that_paints_quickly_keeps_no_layer(qtbot, monkeypatch):
    monkeypatch.setattr(paint_layer, "MIN_PAINT_SECONDS", 10.0)  # every paint is "quick"
    layered = LayeredLabel(STEM)
    shown(qtbot, layered)
    qtbot.wait(50)
    assert not layered.layer.filled and layered.layer.hits == 0
    picture(layered)
    assert layered.layer.hits == 0  # painted the real way, not tried again


def test_layers_stay_within_their_budget(qtbot, monkeypatch):
    monkeypatch.setattr(paint_layer, "BUDGET_BYTES", 600_000)
    labels = [LayeredLabel(STEM) for _ in range(8)]
    for label in labels:
        label.setWordWrap(True)
    shown(qtbot, *labels, width=600)
    # Every label's idle fill has run (in any order: the budget keeps the newest ones).
    qtbot.waitUntil(lambda: paint_layer.layer_bytes() > 0
                    and not any(label.layer._schedule_fill.pending for label in labels),
                    timeout=3000)
    assert 0 < paint_layer.layer_bytes() <= 600_000
    assert not labels[0].layer.filled or not labels[-1].layer.filled  # the oldest went


def test_the_navigator_moves_its_outline_without_redrawing_its_cells(qtbot):
    paper = load_bank().paper("000")
    questions = paper.questions[:12]
    nav = Navigator(questions, navigator_groups(questions, {paper.id: paper}),
                    papers={paper.id: paper})
    shown(qtbot, nav, width=260)
    nav.set_current(0)
    at_first = picture(nav)
    nav.set_current(5)
    at_sixth = picture(nav)
    nav.set_current(0)
    assert max_difference(picture(nav), at_first) == 0  # back exactly as it was
    cell = nav.cell_rect(5).adjusted(-3, -3, 3, 3)
    assert max_difference(at_sixth.copy(cell), at_first.copy(cell)) > 50  # outline drawn


def test_a_scroll_bar_copies_its_paint_until_it_moves_or_the_pointer_is_on_it(qtbot):
    from PySide6.QtWidgets import QPlainTextEdit

    text = "\n".join(f"line {i} " + "x" * (i % 90) for i in range(300))
    layered, plain = QPlainTextEdit(), QPlainTextEdit()
    for editor in (layered, plain):
        editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        editor.setPlainText(text)
    paint_layer.layer_scroll_area(layered)
    shown(qtbot, layered, plain)
    bar, twin = layered.verticalScrollBar(), plain.verticalScrollBar()
    layer = bar.findChild(paint_layer.PaintLayer)
    bar.update()
    qtbot.waitUntil(lambda: layer.filled, timeout=3000)
    hits = layer.hits
    assert max_difference(picture(bar), picture(twin)) <= 2
    assert layer.hits > hits  # that picture was the copy
    for value in (40, 120):  # moved: painted again, like the plain bar at the same place
        bar.setValue(value)
        twin.setValue(value)
        assert max_difference(picture(bar), picture(twin)) <= 2
    qtbot.waitUntil(lambda: layer.filled, timeout=3000)  # taken again at idle
    bar.setAttribute(Qt.WidgetAttribute.WA_UnderMouse, True)  # hover highlights: real paint
    hits = layer.hits
    picture(bar)
    assert layer.hits == hits


def test_a_blank_and_a_framed_box_copy_what_they_paint_and_follow_each_edit(qtbot):
    from PySide6.QtWidgets import QLineEdit, QScrollArea

    layered, plain = QLineEdit(), QLineEdit()
    box, plain_box = QScrollArea(), QScrollArea()
    for edit in (layered, plain):
        edit.setPlaceholderText("Blank 1")
    paint_layer.layer_line_edit(layered)
    paint_layer.layer_scroll_area(box)
    holder = shown(qtbot, layered, plain, box, plain_box)
    holder.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    holder.setFocus()
    edit_layer = layered.findChild(paint_layer.PaintLayer)
    box_layer = box.findChild(paint_layer.PaintLayer, "",  # the frame's, not a bar's
                              Qt.FindChildOption.FindDirectChildrenOnly)
    for widget in (layered, box):
        widget.update()
    qtbot.waitUntil(lambda: edit_layer.filled and box_layer.filled, timeout=3000)
    hits = edit_layer.hits, box_layer.hits
    assert max_difference(picture(layered), picture(plain)) <= 2
    assert max_difference(picture(box), picture(plain_box)) <= 2
    assert edit_layer.hits > hits[0] and box_layer.hits > hits[1]  # those were copies
    for text in ("x = x.float()", "y = y.float()"):  # typed (same length): new text, not the copy
        layered.setText(text)
        plain.setText(text)
        picture(layered)  # the real paint of the new text; the layer is taken again at idle
        qtbot.waitUntil(lambda: edit_layer.filled, timeout=3000)
        hits = edit_layer.hits
        assert max_difference(picture(layered), picture(plain)) <= 2
        assert edit_layer.hits > hits
    layered.setFocus()  # typing in it: its blinking cursor is always the real paint
    qtbot.waitUntil(layered.hasFocus, timeout=3000)
    hits = edit_layer.hits
    picture(layered)
    assert edit_layer.hits == hits
