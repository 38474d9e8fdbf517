"""Screenshot of the import review screen on a real import of seed paper 000 (needs a
display; under Xvfb):

    xvfb-run -s "-screen 0 1400x900x24" python docs/screenshots/take_import_review.py \
        [--size 1400x900] [--question 34] [--out import_review.png]

The widget is standalone (not yet wired into the main window), so it is shown on its own.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))

from desktop.app import apply_ui_font, install_translations  # noqa: E402
from desktop.views.import_review import ImportReviewView  # noqa: E402
from question_db.interchange.importers import import_file  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="1400x900")
    parser.add_argument("--question", type=int, default=34)
    parser.add_argument("--lang", default="zh_CN")
    parser.add_argument("--out", default=str(HERE / "import_review.png"))
    args = parser.parse_args()
    width, height = map(int, args.size.split("x"))
    app = QApplication(sys.argv[:1])
    install_translations(app, args.lang)
    apply_ui_font(app)
    seed = next((REPO / "tests" / "data" / "seeds").glob("000_*.txt"))
    result = import_file(seed)
    view = ImportReviewView.from_result(result, Path(tempfile.mkdtemp()) / "papers")
    view.resize(width, height)
    view.show()
    view.select(args.question)
    if view.flags.count():
        view.flags.setCurrentRow(0)
    end = time.monotonic() + 1.0
    while time.monotonic() < end:  # let layouts settle and fonts load
        app.processEvents()
        time.sleep(0.02)
    view.grab().save(args.out)
    print("saved", args.out)
    view.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
