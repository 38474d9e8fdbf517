"""Question switch latency over every question in the bank (run by bench/run.py).

Ours: ``PaperSessionView.go_to(i)`` on a practice screen, then a synchronous repaint, two
laps over every question, after the screen has had the idle time it uses to build the
pages (what a learner reading the first question gives it).
Baseline, the floor for putting that text on screen: ``QLabel.setText`` of the same
pre-rendered stem HTML plus the same repaint. Prints one JSON line.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel  # noqa: E402

import desktop  # noqa: E402,F401 - installs the PySide6 workaround
from desktop.app import build_app  # noqa: E402
from desktop.config import Options  # noqa: E402
from desktop.views.markdown_html import markdown_to_html  # noqa: E402
from desktop.views.question_view import stem_markdown  # noqa: E402
from question_db.bank import load_bank  # noqa: E402


def wait_for(app: QApplication, predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("practice screen did not open")
        app.processEvents()
        time.sleep(0.002)


def main() -> int:
    app = QApplication([])
    bank = load_bank()
    tmp = Path(tempfile.mkdtemp(prefix="examdesk-switch-"))
    running = build_app(Options(data_dir=tmp, no_kernel=True),
                        settings=QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat),
                        bank=bank)
    window = running.window
    window.resize(1200, 800)
    first, again, base = [], [], []
    label = QLabel()
    label.setWordWrap(True)
    label.resize(1100, 600)
    label.show()
    for paper in bank.papers:
        window.open_practice(paper.id)
        wait_for(app, lambda: window.screen_view is not None
                 and getattr(window.screen_view, "paper", None) is paper)
        view = window.screen_view
        # A learner reads the first question for a while: idle time builds the other pages.
        wait_for(app, lambda: len(view.pages) == len(view.questions))
        for laps, sink in ((1, first), (2, again)):
            for i in range(len(paper.questions)):
                target = (i + 1) % len(paper.questions) if laps == 1 else i
                t = time.perf_counter()
                view.go_to(target)
                view.repaint()
                sink.append((time.perf_counter() - t) * 1000)
        for q in paper.questions:
            html = markdown_to_html(stem_markdown(q))
            t = time.perf_counter()
            label.setText(html)
            label.repaint()
            base.append((time.perf_counter() - t) * 1000)
        window.go_library()
    window.close()
    running.shutdown()
    ours = first + again

    def pct(values, q):
        values = sorted(values)
        return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]

    print(json.dumps({
        "n": len(ours), "p50_ms": statistics.median(ours), "p95_ms": pct(ours, 0.95),
        "max_ms": max(ours), "first_visit_p95_ms": pct(first, 0.95),
        "revisit_p50_ms": statistics.median(again), "revisit_p95_ms": pct(again, 0.95),
        "baseline_p50_ms": statistics.median(base), "baseline_p95_ms": pct(base, 0.95),
        "baseline_max_ms": max(base)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
