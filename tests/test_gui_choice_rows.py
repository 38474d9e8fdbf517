"""Choice options read as one line each (issue 30.4): the letter and the text on one
baseline, the indicator and the verdict mark centred on the text's first line, and
nothing moves or re-wraps when the verdict is shown. The bundled papers' options are
Chinese (drawn in the CJK fallback font, taller than a Latin line) and English."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QWidget

from desktop.views.answer_widgets import ChoiceAnswer, first_line_height
from desktop.views.practice import PracticeView
from gui_fixtures import launch, no_leaked_qt_objects  # noqa: F401

pytestmark = pytest.mark.gui


def plain(html: str) -> str:
    document = QTextDocument()
    document.setHtml(html)
    return document.toPlainText()


def geometries(root: QWidget) -> dict[str, tuple]:
    """Where every widget under ``root`` is, by its path of object names and indexes."""
    places = {}
    for i, widget in enumerate(root.findChildren(QWidget)):
        name = widget.objectName() or f"{type(widget).__name__}#{i}"
        places[name] = (widget.mapTo(root, widget.rect().topLeft()).toTuple(),
                        widget.size().toTuple())
    return places


@pytest.mark.parametrize("size", [(1024, 700), (1400, 900)])
def test_letter_text_indicator_and_mark_share_one_line_and_stay_put(launch, size):
    app = launch()
    app.window.resize(*size)
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    app.wait_idle()
    for index in (0, 16):  # a single choice, a multiple choice (check boxes)
        view.go_to(index)
        app.wait_idle()
        answer = view.current_page().answer
        assert isinstance(answer, ChoiceAnswer) and len(answer.labels) >= 4
        for letter, label in answer.labels.items():
            assert plain(label.text()).startswith(f"{letter}.")  # one run, one baseline
            line = first_line_height(label.text(), label.font())
            centre = label.geometry().top() + line / 2
            for other in (answer.buttons[letter], answer.marks[letter]):
                assert abs(other.geometry().center().y() + 0.5 - centre) <= 1, letter
        page = view.current_page()
        before = geometries(answer), answer.mapTo(page, answer.rect().topLeft())
        answer.select("B")
        view.submit_current()
        app.wait_idle()
        assert any(answer.mark_of(letter) for letter in answer.labels)  # the verdict shows
        after = geometries(answer), answer.mapTo(page, answer.rect().topLeft())
        moved = {name: (before[0][name], place) for name, place in after[0].items()
                 if before[0].get(name) != place}
        assert after[1] == before[1]
        assert moved == {}


def test_a_click_on_the_text_picks_the_option(launch):
    app = launch()
    app.window.open_practice("000")
    view = app.wait_screen(PracticeView)
    answer = view.current_page().answer
    label = answer.labels["C"]
    app.qtbot.mouseClick(label, Qt.MouseButton.LeftButton, pos=label.rect().center())
    assert answer.response().picked == ("C",)
    assert answer.buttons["C"].accessibleName() == "C"
