"""Screenshot of a programming question with the console and its check results:

    xvfb-run -s "-screen 0 1400x900x24" python docs/screenshots/take_console.py [--lang zh_CN]

A real kernel runs one of the bank's one-bug solutions (001/29, scale by d_k) so the panel
shows which property failed and by how much.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from desktop.app import build_app, prepare_application  # noqa: E402
from desktop.config import Options  # noqa: E402
from desktop.views.practice import PracticeView  # noqa: E402
from question_db.bank import load_bank  # noqa: E402
from take import grab, spin  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="zh_CN")
    args = parser.parse_args()
    options = Options(data_dir=Path(tempfile.mkdtemp(prefix="examdesk-shot-")), lang=args.lang)
    app = prepare_application(sys.argv[1:1], options)
    bank = load_bank()
    running = build_app(options, settings=QSettings(
        str(options.data_dir / "s.ini"), QSettings.Format.IniFormat), bank=bank)
    window, console = running.window, running.console
    window.resize(1400, 900)
    spin(app, lambda: window.console_available, timeout=120)
    window.open_practice("001")
    spin(app, lambda: isinstance(window.screen_view, PracticeView))
    view = window.screen_view
    question = bank.question("001/29")
    view.go_to(view.questions.index(question))
    answer = view.programming_answer("001/29")
    wrong = next(p for p in question.code.wrong if p.stem.endswith("scale_dk"))
    answer.editor.setPlainText(wrong.read_text(encoding="utf-8"))
    answer.check_button.click()
    spin(app, lambda: not console.checks.running and console.panel.table.topLevelItemCount() > 3,
         timeout=180)
    grab(window, "console.png")
    window.close()
    running.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
