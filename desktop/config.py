"""Names, command-line arguments and settings keys of the desktop app.

A leaf module (PySide6 only): ``launch`` reads it before anything else is imported, and the
app, the window, the views and the console read the same names from here, so none of them
imports another only for a constant.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QSettings

__all__ = ["ORGANIZATION", "APPLICATION", "Options", "parse_args", "name_application",
           "Keys", "ENGLISH", "CHINESE", "ui_language", "first_launch_language"]

ORGANIZATION = APPLICATION = "examdesk"


RESTART_PROPERTY = "examdesk_restart"  # on the QApplication: run() relaunches at exit


class Keys:
    """QSettings keys (the learner's window, view and console choices)."""

    KERNEL = "console/kernel"  # the remembered kernel choice (console/kernel_chooser.py)
    WINDOW_GEOMETRY = "window/geometry"
    WINDOW_STATE = "window/state"  # dock sizes and places
    ZOOM = "view/zoom"
    LAST_PAPER = "library/last_paper"
    EXAM_SPLITTER = "exam/splitter"
    PRACTICE_SPLITTER = "practice/splitter"  # question | navigator
    MOCK_EXAM_LAST = "study/mock_exam_template"  # the template the dialog opened last
    WORKSPACE_SPLITTER = "workspace/splitter"  # problem | code, on programming questions
    # editor / check results, per kind of code question (+ "/checked" or "/self_marked":
    # results matter on one, a question without a check suite has none to show)
    WORKSPACE_RESULTS_SPLITTER = "workspace/results_splitter"
    WORKSPACE_PROBLEM_HIDDEN = "workspace/problem_hidden"  # the editor has the page's width
    CONSOLE_OPEN = "console/open"  # + "/<kind>": open (or a thin bar) on code/verify/other
    CONSOLE_HEIGHT = "console/height"  # + "/<kind>": the height the learner chose
    UI_LANGUAGE = "ui/language"  # "en" or "zh_CN"; unset until chosen (first launch)
    QUESTION_SCRIPT = "ui/question_script"  # "hans" (as written) or "hant" (OpenCC s2tw)
    THEME = "ui/theme"  # "system", "light" or "dark" (desktop/theme.py)


@dataclass(frozen=True)
class Options:
    """What a launch was asked for (``parse_args``; tests and scripts build one directly)."""

    data_dir: Path | None = None
    lang: str | None = None
    no_kernel: bool = False
    bench_ready: bool = False
    theme: str | None = None  # "system", "light", "dark"; None: as chosen in Settings


def parse_args(argv: list[str]) -> tuple[Options, list[str]]:
    """examdesk's own options, and the rest (for Qt)."""
    parser = argparse.ArgumentParser(prog="examdesk", description="Offline exam practice.")
    parser.add_argument("--data-dir", help="where progress and extra papers live (default: "
                                           "$EXAMDESK_DATA_DIR or the platform's data dir)")
    parser.add_argument("--lang", help="UI language, e.g. zh_CN or en (default: the system's)")
    parser.add_argument("--theme", choices=("system", "light", "dark"),
                        help="colours for this launch (default: as chosen in Settings)")
    parser.add_argument("--no-kernel", action="store_true",
                        help="do not start the Python console (code checks unavailable)")
    parser.add_argument("--bench-ready", action="store_true", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    return Options(data_dir=Path(args.data_dir) if args.data_dir else None, lang=args.lang,
                   no_kernel=args.no_kernel, bench_ready=args.bench_ready,
                   theme=args.theme), rest


def name_application() -> None:
    """QSettings' location comes from these names; set them before any QSettings()."""
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)


ENGLISH, CHINESE = "en", "zh_CN"  # the UI languages examdesk ships


def _system_is_chinese() -> bool:
    return QLocale.system().language() == QLocale.Language.Chinese


def ui_language(settings: QSettings, asked: str | None = None) -> str | None:
    """The UI language to start in: ``--lang``, else the one chosen in Settings, else
    简体中文 on a Chinese system; None: the system's (English on most others)."""
    if asked:
        return asked
    chosen = settings.value(Keys.UI_LANGUAGE)
    if chosen in (ENGLISH, CHINESE):
        return str(chosen)
    return CHINESE if _system_is_chinese() else None


def first_launch_language(settings: QSettings) -> bool:
    """True when the UI language is settled: chosen before, or 简体中文 chosen (and kept)
    now because the system is Chinese. False once, on a first launch elsewhere: the app
    offers the choice (``views.settings_dialog.offer_language``)."""
    if settings.value(Keys.UI_LANGUAGE) in (ENGLISH, CHINESE):
        return True
    if _system_is_chinese():
        settings.setValue(Keys.UI_LANGUAGE, CHINESE)
        return True
    return False
