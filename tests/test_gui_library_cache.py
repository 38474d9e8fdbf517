"""A launch from the bank cache: the library's cards show each paper's questions, points and
errata before any question is decoded (question_db/bank_cache.py, model.LazyQuestions)."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

import gui_fixtures
from desktop.main_window import MainWindow
from question_db.bank import load_bank
from question_db.bank_cache import load_and_cache_bank
from question_db.model import LazyQuestions
from question_db.paths import bank_cache_dir, installed_paper_roots

pytestmark = pytest.mark.gui
launch = gui_fixtures.launch  # the fixture (an assignment: nothing for pyflakes to flag)


def test_the_library_paints_from_the_cache_without_decoding_questions(launch, tmp_path,
                                                                      monkeypatch):
    data = tmp_path / "data"
    load_and_cache_bank(installed_paper_roots(data), bank_cache_dir(data))
    monkeypatch.setattr(gui_fixtures, "bundled_bank", lambda: None)  # build_app reads the cache
    decoded_at_first_paint: dict[str, bool] = {}
    real_set_bank = MainWindow.set_bank

    def set_bank(window, bank):
        real_set_bank(window, bank)  # builds the first cards
        for paper in bank.papers:
            assert type(paper.questions) is LazyQuestions
            decoded_at_first_paint[paper.id] = paper.questions.decoded

    monkeypatch.setattr(MainWindow, "set_bank", set_bank)
    app = launch(data)
    assert decoded_at_first_paint == {"000": False, "001": False, "drills": False}
    fresh = load_bank()
    for paper in fresh.papers:
        meta = app.window.library.cards[paper.id].findChild(QLabel, "paper_meta").text()
        errata = sum(1 for q in paper.questions if q.errata)
        assert meta.startswith(f"{len(paper.questions)} questions · "), meta
        assert f"· {errata} with errata" in meta
    card = app.window.library.cards["000"].findChild(QLabel, "paper_meta").text()
    assert "125 (108 scored: void questions are not) points" in card
    assert app.window.bank == fresh  # the questions, once asked for, are the parsed ones


def test_the_other_cards_are_built_after_the_first_ones_are_painted(launch, qtbot):
    from dataclasses import replace

    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    from desktop.views.library import LibraryView, PaperCard
    from question_db.model import Bank

    app = launch()
    paper = app.window.bank.paper("000")
    bank = Bank(papers=[replace(paper, id=f"copy{i:02d}", title=f"Copy {i}") for i in range(20)])
    library = LibraryView(app.db)
    qtbot.addWidget(library)
    library.resize(900, 700)
    library.set_bank(bank)
    eager = len(library.cards)
    assert 1 < eager == library.cards_that_fill_the_window() < 20
    # Before the window is on screen nothing more is built: a zero timer would run before
    # the first paint.
    qtbot.wait(50)
    assert len(library.cards) == eager and not library._build_timer.isActive()
    squeezed = []  # every paint of a card while the others are added: never cut short

    class Paints(QObject):
        def eventFilter(self, watched, event):  # noqa: N802 - Qt's
            if event.type() == QEvent.Type.Paint and isinstance(watched, PaperCard):
                short = watched.minimumSizeHint().height() - watched.height()
                if short > 0:
                    squeezed.append((watched.paper.id, short))
            return False

    paints = Paints()
    QApplication.instance().installEventFilter(paints)
    try:
        library.show()
        qtbot.waitUntil(lambda: len(library.cards) == 20, timeout=5000)
        qtbot.wait(50)
    finally:
        QApplication.instance().removeEventFilter(paints)
    assert not squeezed, squeezed
    assert list(library.cards) == [p.id for p in bank.papers]  # in bank order
    # The first paint had the window full: the cards built before it reach past its bottom
    # edge (and not by more than a card).
    qtbot.waitUntil(lambda: library.cards["copy00"].height()
                    >= library.cards["copy00"].minimumSizeHint().height())  # laid out
    step = library.cards["copy01"].y() - library.cards["copy00"].y()
    assert step > 0 and eager * step >= library.height() > (eager - 2) * step
    library.set_bank(Bank(papers=bank.papers[:12]))  # once painted, a new bank builds at once
    qtbot.waitUntil(lambda: len(library.cards) == 12, timeout=5000)
    library.close()


def test_the_card_of_the_paper_opened_last_has_the_info_border(launch, qtbot):
    from PySide6.QtGui import QColor

    from desktop.theme import Role, theme
    from desktop.views.library import PaperCard

    app = launch()
    library = app.window.library
    library.set_bank(app.window.bank, last_paper="001")
    library.build_all_cards()
    app.window.go_library()
    qtbot.waitUntil(lambda: library.cards["001"].isVisible())
    assert [c.highlighted for c in library.cards.values()] == [False, True, False]
    assert not any(c.styleSheet() for c in library.findChildren(PaperCard))  # painted, no sheet

    def border(card) -> QColor:  # the left edge, halfway down (the line is 1 px wide)
        image = card.grab().toImage()
        return image.pixelColor(0, image.height() // 2)

    info, mid = theme().color(Role.INFO), library.cards["000"].palette().mid().color()

    def near(a: QColor, b: QColor) -> bool:
        return max(abs(a.red() - b.red()), abs(a.green() - b.green()),
                   abs(a.blue() - b.blue())) <= 60  # anti-aliased over the background

    assert near(border(library.cards["001"]), info) and not near(border(library.cards["001"]), mid)
    assert near(border(library.cards["000"]), mid)


def test_a_start_after_an_import_killed_mid_swap_restores_the_pack(launch, tmp_path,
                                                                   monkeypatch):
    """Regression (issue 28, item 2): a replace killed between its two renames left no
    ``papers/mine`` and the old pack in ``.mine.replaced``; the next start puts it back
    (``app.finish_interrupted_imports``) before the bank is read, and leaves nothing else."""
    from pack_write_driver import draft
    from question_db.interchange.pack import write_pack
    from test_faults_pack_write import kill_when_paused

    data = tmp_path / "data"
    papers = data / "papers"
    write_pack(draft("old", 30), papers / "mine")
    load_and_cache_bank(installed_paper_roots(data), bank_cache_dir(data))  # a cache to miss
    kill_when_paused(papers, "--pause-in-swap")
    assert not (papers / "mine").exists()
    monkeypatch.setattr(gui_fixtures, "bundled_bank", lambda: None)  # a real start's bank
    app = launch(data)
    app.qtbot.waitUntil(lambda: app.window.bank is not None
                        and any(p.id == "mine" for p in app.window.bank.papers),
                        timeout=10_000)
    assert app.window.bank.paper("mine").title == "old"
    assert len(app.window.bank.paper("mine").questions) == 30
    assert sorted(p.name for p in papers.iterdir()) == ["mine"]
