"""Question switch latency over every question in the bank (run by bench/run.py).

Ours: ``PaperSessionView.go_to(i)`` on a practice screen, then a synchronous repaint, two
laps over every question, after the screen has had the idle time it uses to build the
pages (what a learner reading the first question gives it), and a few event-loop turns
between two switches (a learner reads each question for seconds). The practice screen has its
navigator, star and note panel.

``--big``: with the synthetic 100-paper / 5,000-question bank installed (bench/
synthetic_bank), over three of its papers' practice and a random practice set of 200
questions from every paper (a run: one session per paper, the navigator over 200 cells).
Baseline, the floor for putting that text on screen: ``QLabel.setText`` of the same
pre-rendered stem HTML plus the same repaint. Prints one JSON line.

``--against REV``: the A/B row. The same bench (with ``--big`` if given) on a checkout of
git revision ``REV`` and on this tree, alternated three times in one run; prints each
side's median p95/p99 (e.g. ``--against c12b16c``: with the paint caches issue 31
removed).
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QCoreApplication, QEvent, QSettings  # noqa: E402
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


FRAME: list[float] = []  # go_to + the layout and the paint of what it made dirty
CPU: list[float] = []  # the UI thread's CPU time of each timed switch (robust to a busy box)


def laps(app: QApplication, view, first: list, again: list) -> None:
    """Two laps over every question of the screen on top, after its pages are built."""
    n = len(view.questions)

    def reading() -> None:  # the idle time a learner gives between two questions
        # Event-loop turns run what a switch left for idle time, then the pages built
        # ahead.
        for _ in range(3):
            app.processEvents()
        wait_for(app, lambda: not view._prebuild_timer.isActive())

    reading()
    for i in range(n):  # what reaches the screen: the regions a switch made dirty
        t = time.perf_counter()
        view.go_to((i + 1) % n)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QCoreApplication.sendPostedEvents(view.window(), QEvent.Type.UpdateRequest)
        FRAME.append((time.perf_counter() - t) * 1000)
        reading()
    for lap, sink in ((1, first), (2, again)):
        for i in range(n):
            target = (i + 1) % n if lap == 1 else i
            t, cpu = time.perf_counter(), time.thread_time()
            view.go_to(target)
            view.repaint()
            sink.append((time.perf_counter() - t) * 1000)
            CPU.append((time.thread_time() - cpu) * 1000)
            reading()


def main() -> int:
    big = "--big" in sys.argv
    app = QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="examdesk-switch-"))
    if big:
        from bench.synthetic_bank import write_bank

        write_bank(tmp / "papers", papers=100)
        bank = load_bank([tmp / "papers"])
    else:
        bank = load_bank()
    running = build_app(Options(data_dir=tmp, no_kernel=True),
                        settings=QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat),
                        bank=bank)
    window = running.window
    window.resize(1200, 800)
    # Steady state: the search index is built once after a pack changes (seconds for
    # 5,000 questions, beside the store thread: bench scale's search_index_build); the
    # switches are measured after it, not against it for the GIL.
    index = window.search_index()
    index.refresh()
    wait_for(app, lambda: index.last_refresh is not None, timeout=300)
    first, again, base = [], [], []
    set_first, set_again = [], []  # --big: the practice set's run
    label = QLabel()
    label.setWordWrap(True)
    label.resize(1100, 600)
    label.show()
    papers = bank.papers[3:6] if big else bank.papers
    for paper in papers:
        window.open_practice(paper.id)
        wait_for(app, lambda: window.screen_view is not None
                 and getattr(window.screen_view, "paper", None) is paper)
        # A learner reads the first question for a while: idle time builds the other pages.
        laps(app, window.screen_view, first, again)
        for q in paper.questions:
            html = markdown_to_html(stem_markdown(q))
            t = time.perf_counter()
            label.setText(html)
            label.repaint()
            base.append((time.perf_counter() - t) * 1000)
        window.go_library()
    if big:
        from question_db.practice_sets import PracticeSetSpec

        window.start_practice_set(PracticeSetSpec(order="random", count=200, seed=5), "200")
        wait_for(app, lambda: window.screen_view is not None
                 and getattr(window.screen_view, "run", None) is not None)
        laps(app, window.screen_view, set_first, set_again)
        window.go_library()
    window.close()
    running.shutdown()
    papers_only = first + again
    ours = papers_only + set_first + set_again

    def pct(values, q):
        values = sorted(values)
        return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]

    print(json.dumps({
        "n": len(ours), "p50_ms": statistics.median(ours), "p95_ms": pct(ours, 0.95),
        "p99_ms": pct(ours, 0.99),
        "max_ms": max(ours), "first_visit_p95_ms": pct(first, 0.95),
        "revisit_p50_ms": statistics.median(again), "revisit_p95_ms": pct(again, 0.95),
        "baseline_p50_ms": statistics.median(base), "baseline_p95_ms": pct(base, 0.95),
        "baseline_max_ms": max(base), "papers_p95_ms": pct(papers_only, 0.95),
        "set_p95_ms": pct(set_first + set_again, 0.95) if set_first else None,
        "frame_p50_ms": statistics.median(FRAME), "frame_p95_ms": pct(FRAME, 0.95),
        "cpu_p50_ms": statistics.median(CPU), "cpu_p95_ms": pct(CPU, 0.95)}))
    return 0


def against(rev: str, big: bool) -> int:
    """This tree against revision ``rev``, alternated in one run (see the docstring)."""
    here = Path(__file__).resolve().parents[1]
    other = Path(tempfile.mkdtemp(prefix="examdesk-ab-")) / "tree"
    subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", str(other), rev],
                   check=True, capture_output=True)
    sides: dict[str, list[dict]] = {rev: [], "this tree": []}
    try:
        for _ in range(3):
            for name, tree in ((rev, other), ("this tree", here)):
                out = subprocess.run([sys.executable, "-m", "bench.question_switch",
                                      *(["--big"] if big else [])], cwd=tree,
                                     capture_output=True, text=True, timeout=900)
                if out.returncode:
                    raise SystemExit(f"{name}: the bench failed\n{out.stderr[-3000:]}")
                sides[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(other)],
                       capture_output=True)
    print(json.dumps({name: {key: statistics.median(run.get(key) or 0.0 for run in runs)
                             for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms")}
                      for name, runs in sides.items()}))
    return 0


if __name__ == "__main__":
    if "--against" in sys.argv:
        raise SystemExit(against(sys.argv[sys.argv.index("--against") + 1],
                                 "--big" in sys.argv))
    raise SystemExit(main())
