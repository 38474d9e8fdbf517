"""The import review screen's save (``ImportReviewView.save`` → ``write_pack`` on a worker)
when the target is not a pack (issue 28)."""
from __future__ import annotations

import pytest

from desktop.views.import_review import ImportReviewView
from pack_write_driver import draft

pytestmark = pytest.mark.gui


def test_saving_over_a_folder_that_is_not_a_pack_is_refused(qtbot, tmp_path):
    """Regression (issue 28, item 1), the GUI's save path: ``papers/<id>`` holding someone's
    files (no paper.toml) was offered as "Replace existing pack", and the second press
    removed it. Now every press says why not, and the folder is untouched."""
    target = tmp_path / "papers" / "mine"
    target.mkdir(parents=True)
    (target / "thesis.tex").write_text("\\chapter{One}\n")
    v = ImportReviewView(draft("new", 3), tmp_path / "papers")
    qtbot.addWidget(v)
    try:
        for _press in range(2):
            v.save()
            qtbot.waitUntil(lambda: v.save_button.isEnabled(), timeout=20000)
            assert f"{target}: already exists and is a folder that is not an examdesk " \
                   "pack" in v.message.text()
        assert [p.name for p in target.iterdir()] == ["thesis.tex"]
        assert sorted(p.name for p in target.parent.iterdir()) == ["mine"]
    finally:
        v.shutdown()
