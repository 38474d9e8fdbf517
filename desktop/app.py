"""``examdesk``: start-up order and application-wide settings.

1. QApplication, names for QSettings, translation, a UI font with CJK fallbacks.
2. One examdesk per data folder (``single_instance``): a second launch brings the first
   window forward and exits.
3. The store worker thread opens the progress database with recovery (never on the UI
   thread): a damaged, too-new or unwritable file still starts the app, and what happened
   is shown in a non-blocking message (``views/storage_notice.py``).
4. The window is shown first; then the bank loads on the store thread and, once it is in,
   an unfinished exam is offered for resume (remaining time from its wall-clock deadline).
"""
from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTimer, QTranslator
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from question_db import recovery
from question_db.bank import load_bank
from question_db.model import Bank
from question_db.paths import data_dir, user_papers_dir
from question_db.recovery import Notice
from question_db.store import ProgressStore, StoreWorker

from .db import DbOps
from .main_window import MainWindow
from .single_instance import SingleInstance, ask_owner_to_activate
from .views.storage_notice import StartupNotices

log = logging.getLogger(__name__)
ORGANIZATION = APPLICATION = "examdesk"
DATABASE_FILE = recovery.PROGRESS_FILE
# Latin text keeps the platform's UI font; Chinese falls back through these, in order.
CJK_FAMILIES = ["Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC",
                "WenQuanYi Micro Hei"]


def resource_dir() -> Path:
    """resources/ in a checkout, or the installed ``examdesk_resources`` package."""
    try:
        import examdesk_resources  # installed layout (pyproject's package-dir)

        return Path(examdesk_resources.__file__).parent
    except ImportError:
        return Path(__file__).resolve().parents[1] / "resources"


def apply_ui_font(app: QApplication) -> list[str]:
    """Give the UI font CJK fallbacks so Chinese never renders as boxes."""
    font = app.font()
    families = [font.family()] + [f for f in CJK_FAMILIES if f != font.family()]
    font.setFamilies(families)
    app.setFont(font)
    return families


def install_translations(app: QApplication, language: str | None = None) -> list[QTranslator]:
    """examdesk's own translation (and Qt's, for standard buttons) for the UI language."""
    locale = QLocale(language) if language else QLocale.system()
    installed = []
    sources = [("examdesk", str(resource_dir() / "translations")),
               ("qtbase", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))]
    for name, folder in sources:
        translator = QTranslator(app)
        if translator.load(locale, name, "_", folder):
            app.installTranslator(translator)
            installed.append(translator)
    return installed


def recovery_notices_job(store: ProgressStore, worker: StoreWorker) -> list[Notice]:
    """What ``recovery.open_progress`` had to tell (the worker's ``ready`` result)."""
    return list(worker.ready.result() or [])


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(prog="examdesk", description="Offline exam practice.")
    parser.add_argument("--data-dir", help="where progress and extra papers live (default: "
                                           "$EXAMDESK_DATA_DIR or the platform's data dir)")
    parser.add_argument("--lang", help="UI language, e.g. zh_CN or en (default: the system's)")
    parser.add_argument("--no-kernel", action="store_true",
                        help="do not start the Python console (code checks unavailable)")
    parser.add_argument("--bench-ready", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_known_args(argv)


def _rss_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report_bench_markers(window: MainWindow, console) -> None:
    """bench/run.py: print when the library is interactive and when the console is ready."""
    def library_ready(_bank: Bank) -> None:
        # the bank is shown in the library by now; one more event-loop turn = interactive
        QTimer.singleShot(0, lambda: print(f"LIBRARY_READY rss_mib={_rss_mib():.1f}",
                                           flush=True))
    window.sig_bank_shown.connect(library_ready)
    if console is not None:
        def console_ready(env: dict) -> None:
            print(f"CONSOLE_READY kernel_rss_mib={env.get('rss_mib', float('nan'))}",
                  flush=True)
        console.dock.session.sig_ready.connect(console_ready)


@dataclass
class RunningApp:
    """What ``start_app`` built; ``shutdown()`` stops the kernel and the store thread."""

    window: MainWindow
    db: DbOps
    notices: StartupNotices
    console: Any = None  # console.wiring.ConsoleParts, unless --no-kernel

    def shutdown(self) -> None:
        if self.console is not None:
            self.console.shutdown()
        if not self.db.worker.close():
            log.warning("the store worker did not stop in time; queued writes may still run")


def start_app(app: QApplication, base: Path, args: argparse.Namespace,
              settings: QSettings | None = None) -> RunningApp:
    """Open the progress file (with recovery), show the window, then load the bank.

    The caller holds the data folder's instance lock and runs the event loop.
    """
    settings = settings if settings is not None else QSettings()
    worker = recovery.progress_worker(base)  # opens (or recovers) the file on its thread
    db = DbOps(worker)
    window = MainWindow(db, settings)
    notices = StartupNotices(window, db, base)
    console = None
    if not args.no_kernel:
        from .console.wiring import attach_console

        console = attach_console(window, settings, data_dir=base)
    if args.bench_ready:
        report_bench_markers(window, console)
    window.show()
    if console is not None:
        QTimer.singleShot(0, console.dock.start)  # the kernel starts after the first paint

    def store_failed(error: BaseException) -> None:
        # Only an OSError from the OS itself gets here: recovery opens every damaged,
        # too-new or unwritable file (read-only at worst) and says so in a notice.
        QMessageBox.critical(window, "examdesk", QCoreApplication.translate(
            "App", "The progress database cannot be opened, so examdesk cannot save your work.")
            + f"\n\n{error}")
        app.exit(1)

    def bank_loaded(bank: Bank) -> None:
        window.set_bank(bank)
        window.check_unfinished()

    def restored(_backup: Path) -> None:
        window.library.refresh()
        window.check_unfinished()

    notices.sig_restored.connect(restored)
    user_papers = user_papers_dir(base)
    roots = [user_papers] if user_papers.is_dir() else []

    def after_first_paint() -> None:
        # The bank needs no database: it loads beside the store thread, not queued behind
        # opening the file (sqlite-utils' import alone is ~0.3 s there).
        db.run_beside(load_bank, roots, on_done=bank_loaded)
        db.run(recovery_notices_job, worker, on_done=notices.show, on_error=store_failed)

    # After the first paint: the window appears before any file is parsed.
    QTimer.singleShot(0, window, after_first_paint)
    return RunningApp(window, db, notices, console)


def refuse_second_launch(base: Path, instance: SingleInstance) -> int:
    """Another examdesk owns ``base``: bring it forward (exit 0), or say it is stuck (1)."""
    if ask_owner_to_activate(base):
        log.info("examdesk is already running on %s: brought its window forward", base)
        return 0
    pid = instance.holder_pid()
    text = QCoreApplication.translate(
        "App", "examdesk is already running on the data folder %1 (process %2), but it does "
               "not answer. Close that examdesk window, or end the process if it is stuck, "
               "then start examdesk again. Your progress is safe: only one examdesk at a time "
               "may use a data folder.").replace("%1", str(base)).replace(
        "%2", str(pid) if pid else "?")
    print(text, file=sys.stderr, flush=True)
    QMessageBox.warning(None, "examdesk", text)
    return 1


def main(argv: list[str] | None = None) -> int:
    """The examdesk GUI entry point."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args, qt_args = parse_args(sys.argv[1:] if argv is None else argv)
    app = QApplication.instance() or QApplication([sys.argv[0], *qt_args])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("examdesk")
    app.setWindowIcon(QIcon(str(resource_dir() / "icons" / "examdesk.svg")))
    install_translations(app, args.lang)
    apply_ui_font(app)

    base = data_dir(args.data_dir)
    instance = SingleInstance(base)
    if not instance.acquire():
        return refuse_second_launch(base, instance)
    try:
        running = start_app(app, base, args)
        instance.sig_activate_requested.connect(lambda: bring_to_front(running.window))
        code = app.exec()
        running.shutdown()
    finally:
        instance.release()
    return code


def bring_to_front(window: MainWindow) -> None:
    """Another launch asked for this window: un-minimise, raise and focus it."""
    if window.isMinimized():
        window.showNormal()
    window.show()
    window.raise_()
    window.activateWindow()


if __name__ == "__main__":
    raise SystemExit(main())
