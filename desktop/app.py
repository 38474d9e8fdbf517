"""``examdesk``: the one composition root (``build_app``) and the start-up order.

``build_app`` wires the store worker, ``DbOps``, the window, the recovery notices and the
console, exactly as a learner's launch does; the app (``run``), the GUI tests, the fault
driver, the screenshot scripts and the benchmarks all build examdesk through it, so what is
tested is what ships.

1. QApplication, names for QSettings, translation, a UI font with CJK fallbacks.
2. One examdesk per data folder (``single_instance``): a second launch brings the first
   window forward and exits.
3. The store worker thread opens the progress database with recovery (never on the UI
   thread): a damaged, too-new or unwritable file still starts the app, and what happened
   is shown in a non-blocking message (``views/storage_notice.py``).
4. The bank comes from its on-disk cache when no paper file changed (``bank_cache``), so
   the first paint already shows the papers; otherwise the window is shown first and the
   bank is parsed beside the store thread. Once it is in, an unfinished exam is offered
   for resume (remaining time from its wall-clock deadline).
"""
from __future__ import annotations

import gc
import logging
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import (QCoreApplication, QEvent, QLibraryInfo, QLocale, QObject, QSettings,
                            QTimer, QTranslator)
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from question_db.bank_cache import cached_bank, load_and_cache_bank
from question_db.bank_fingerprint import KeyPrefetch
from question_db.changes import Changes
from question_db.model import Bank
from question_db.paths import bank_cache_dir, data_dir, installed_paper_roots
from question_db.store_worker import StoreWorker, progress_worker

from .config import (RESTART_PROPERTY, Keys, Options, first_launch_language, name_application,
                     parse_args, ui_language)
from .crash_reporting import install_crash_reporting
from .theme import THEME_CHOICES, apply_theme_choice
from .db import DbOps
from .idle_gc import IdleCollector, resume_after_startup
from .main_window import MainWindow
from .single_instance import SingleInstance, ask_owner_to_activate
from .views.storage_notice import StartupNotices

if TYPE_CHECKING:
    from question_db.recovery import Notice
    from question_db.store import ProgressStore

    from .console.prelaunch import Prelaunched

log = logging.getLogger(__name__)
# Latin text keeps the platform's UI font; Chinese falls back through these, in order.
STARTUP_SETTLED_MS = 5000  # the first reads, the search index and the bank's decoding done
CJK_FAMILIES = ["Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC",
                "WenQuanYi Micro Hei"]


def resource_dir() -> Path:
    """resources/ in a checkout, or the installed ``examdesk_resources`` package."""
    # The checkout this code runs from comes first: an editable install maps
    # examdesk_resources to the checkout it was made from, which may be another worktree.
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file() and (checkout / "resources").is_dir():
        return checkout / "resources"
    try:
        import examdesk_resources  # installed layout (pyproject's package-dir)

        return Path(examdesk_resources.__file__).parent
    except ImportError:
        return checkout / "resources"


def apply_ui_font(app: QApplication) -> list[str]:
    """Give the UI font CJK fallbacks so Chinese never renders as boxes."""
    font = app.font()
    families = [font.family()] + [f for f in CJK_FAMILIES if f != font.family()]
    font.setFamilies(families)
    app.setFont(font)
    return families


def install_translations(app: QApplication, language: str | None = None) -> list[QTranslator]:
    """examdesk's own translation (and Qt's, for standard buttons) for the UI language; the
    default QLocale follows it, so dates (weekday names) read in the same language."""
    locale = QLocale(language) if language else QLocale.system()
    QLocale.setDefault(locale)
    installed = []
    sources = [("examdesk", str(resource_dir() / "translations")),
               ("qtbase", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))]
    for name, folder in sources:
        translator = QTranslator(app)
        if translator.load(locale, name, "_", folder):
            app.installTranslator(translator)
            installed.append(translator)
    return installed


def recovery_notices_job(store: ProgressStore, db: DbOps) -> list[Notice]:
    """What ``recovery.open_progress`` had to tell (the worker's ``ready`` result)."""
    return list(db.worker.ready.result() or [])


def _rss_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _FirstPaint(QObject):
    """Calls ``callback`` once, one event-loop turn after ``widget`` was first painted (or
    after ``FALLBACK_MS``, should no paint come: a hidden or minimised window)."""

    FALLBACK_MS = 1500

    def __init__(self, widget: QWidget, callback: Callable[[], Any]) -> None:
        super().__init__(widget)
        self.callback: Callable[[], Any] | None = callback
        widget.installEventFilter(self)
        QTimer.singleShot(self.FALLBACK_MS, self, self._fire)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self, self._fire)
        return False

    def _fire(self) -> None:
        callback, self.callback = self.callback, None
        if callback is not None:
            callback()


def when_library_painted(window: MainWindow, callback: Callable[[], Any]) -> None:
    """``callback()`` one event-loop turn after the library first shows papers on screen."""
    def bank_shown(_bank: Bank | None = None) -> None:
        if _bank is not None:
            window.sig_bank_shown.disconnect(bank_shown)
        card = next(iter(window.library.cards.values()), window.library)
        _FirstPaint(card, callback)
    if window.bank_shown:
        if window.isVisible():  # painted already
            QTimer.singleShot(0, window, callback)
        else:
            bank_shown()
    else:
        window.sig_bank_shown.connect(bank_shown)


def report_bench_markers(window: MainWindow, console) -> None:
    """bench/run.py: print when the library is interactive and when the console is ready.

    Interactive = the first paper card has been painted and the event loop has turned once
    more (bench/run.py waits for the same on a bare ``QMainWindow``).
    """
    when_library_painted(window, lambda: print(f"LIBRARY_READY rss_mib={_rss_mib():.1f}",
                                               flush=True))
    if console is not None:
        def console_ready(env: dict) -> None:
            print(f"CONSOLE_READY kernel_rss_mib={env.get('rss_mib', float('nan'))} "
                  f"adopted={console.dock.session.adopted_early}", flush=True)
        console.dock.session.sig_ready.connect(console_ready)
        console.dock.session.sig_prompt_shown.connect(
            lambda: print("CONSOLE_PROMPT", flush=True))


@dataclass
class RunningApp:
    """What ``build_app`` built; ``shutdown()`` stops the kernel and the store thread."""

    window: MainWindow
    db: DbOps
    notices: StartupNotices
    console: Any = None  # console.wiring.ConsoleParts, unless --no-kernel
    collector: IdleCollector | None = None
    closed: bool = False

    def shutdown(self) -> None:
        """Stop the kernel (bounded) and the store thread; idempotent."""
        if self.closed:
            return
        self.closed = True
        if self.console is not None:
            self.console.shutdown()
        if not self.db.close():
            log.warning("the store worker did not stop in time; queued writes may still run")
        self.window.close_search_index()
        if self.collector is not None:  # a process that builds another app (tests) gets its
            self.collector.stop()  # frozen objects back into the collector's sight
            gc.unfreeze()


def build_app(options: Options, *, settings: QSettings | None = None,
              bank: Bank | None = None, prelaunched: Prelaunched | None = None,
              bank_key: KeyPrefetch | None = None,
              after_paint: Callable[[], Any] | None = None,
              wrap_worker: Callable[[StoreWorker], Any] | None = None) -> RunningApp:
    """Build examdesk on ``options.data_dir`` and show its window: the progress file opens
    (with recovery) on the store thread after the first paint; the bank comes from
    ``bank`` (tests, scripts), else its cache when current (its key: ``bank_key``, the
    launcher's prefetch, else computed here), else it is parsed after the first paint.

    The caller holds the data folder's instance lock (``run``) and runs the event loop;
    ``after_paint()`` runs one event-loop turn after the papers are on screen (the library
    is interactive first, as for the progress file); ``wrap_worker`` wraps the store
    worker (the fault driver watches its writes).
    """
    base = data_dir(options.data_dir)
    settings = settings if settings is not None else QSettings()
    from .views.question_script import set_question_script

    set_question_script(str(settings.value(Keys.QUESTION_SCRIPT, "") or ""))

    def open_worker() -> Any:
        # opens (or recovers) the file on its thread once released (after the first paint)
        worker = progress_worker(base, held=True)
        return wrap_worker(worker) if wrap_worker is not None else worker

    db = DbOps(open_worker)
    window = MainWindow(db, settings, data_dir=base)
    notices = StartupNotices(window, db, base)
    console = None
    if not options.no_kernel:
        from .console.wiring import attach_console

        console = attach_console(window, settings, data_dir=base, prelaunched=prelaunched)
    if options.bench_ready:
        report_bench_markers(window, console)
    # Once the papers are on screen: the console (qtconsole's imports in two event-loop
    # turns, then its widget; an early kernel process has been starting since launch), then
    # sqlite-utils (~0.3 s of imports, first needed by a write) on the store thread, so
    # neither delays the first paint nor competes with the other for the GIL.
    def import_sqlite_utils() -> None:
        db.run(lambda store: store.db)

    # Opening the progress file and the library's first reads wait until the library is
    # interactive (painted, and one more event-loop turn): on the store thread their
    # imports (the actions, FSRS, the store: ~0.2 s of CPU) would compete with the last
    # turn for the GIL. Scores and counts fill in right after; jobs queued meanwhile run
    # then (bench: launch_to_library).
    when_library_painted(window, lambda: QTimer.singleShot(0, window, db.release))
    if after_paint is not None:  # the caller's chores too (~22 ms: QtNetwork, the log)
        when_library_painted(window, lambda: QTimer.singleShot(0, window, after_paint))

    when_library_painted(window, import_sqlite_utils if console is None else
                         lambda: console.dock.start_after_imports(then=import_sqlite_utils))
    # Garbage collection at idle moments; what start-up built (modules, the bank, decoded
    # after the first paint) is frozen once start-up has settled: a full pass before the
    # library is interactive would delay it (~50 ms).
    collector = IdleCollector(window)
    when_library_painted(window, resume_after_startup)  # paused by the launcher
    QTimer.singleShot(STARTUP_SETTLED_MS, window, collector.freeze_startup)
    roots = installed_paper_roots(base)
    cache_dir = bank_cache_dir(base)
    if bank is None:
        if finish_interrupted_imports(roots):  # the launcher's key saw the files before
            bank_key = None
        bank = cached_bank(roots, cache_dir, bank_key)
    if bank is not None:
        window.set_bank(bank)  # before show(): the first paint has the papers
    window.show()

    def store_failed(error: BaseException) -> None:
        # Only an OSError from the OS itself gets here: recovery opens every damaged,
        # too-new or unwritable file (read-only at worst) and says so in a notice.
        QMessageBox.critical(window, "examdesk", QCoreApplication.translate(
            "App", "The progress database cannot be opened, so examdesk cannot save your work.")
            + f"\n\n{error}")
        QApplication.exit(1)

    def bank_loaded(bank: Bank) -> None:
        window.set_bank(bank)
        window.check_unfinished()

    def restored(_backup: Path) -> None:
        window.apply_changes(Changes(everything=True))
        window.check_unfinished()

    notices.sig_restored.connect(restored)

    def after_first_paint() -> None:
        db.run(recovery_notices_job, db, on_done=notices.show, on_error=store_failed)
        if bank is None:
            # Parsing needs no database: it runs beside the store thread, not queued
            # behind opening the file.
            db.run_beside(load_and_cache_bank, roots, cache_dir, on_done=bank_loaded)
        else:  # once the papers are painted: it imports the actions (~0.1 s)
            when_library_painted(window, window.check_unfinished)

    # After the first paint: the window appears before any file is parsed.
    QTimer.singleShot(0, window, after_first_paint)
    return RunningApp(window, db, notices, console, collector)


def finish_interrupted_imports(roots: list[Path]) -> list[str]:
    """Finish the pack writes a kill or a crash interrupted in the learner's papers folders
    (``pack_folders``): one ``scandir`` each when there is nothing to do. Returns what was
    done."""
    from question_db.pack_folders import finish_interrupted_writes

    return [line for root in roots for line in finish_interrupted_writes(root)]


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
    """The GUI without an early kernel (``launch.main`` is the entry point)."""
    options, qt_args = parse_args(sys.argv[1:] if argv is None else argv)
    return run(options, qt_args)


def prepare_application(qt_args: list[str], options: Options) -> QApplication:
    """The QApplication with examdesk's names, icon, translation and CJK font fallbacks."""
    name_application()
    app = QApplication.instance() or QApplication([sys.argv[0], *qt_args])
    app.setApplicationDisplayName("examdesk")
    app.setWindowIcon(QIcon(str(resource_dir() / "icons" / "examdesk.svg")))
    install_translations(app, ui_language(QSettings(), options.lang))  # as chosen in Settings
    apply_ui_font(app)
    choice = options.theme or str(QSettings().value(Keys.THEME, "system") or "system")
    if choice != "system":  # the platform's own look costs nothing to keep
        apply_theme_choice(app, choice if choice in THEME_CHOICES else "system")
    return app


def run(options: Options, qt_args: list[str],
        prelaunched: Prelaunched | None = None, bank_key: KeyPrefetch | None = None) -> int:
    """Set up the application, take the data folder, run the window until it closes.

    ``prelaunched``: the app kernel's process, spawned by ``launch.main``; the console
    adopts it, and it is killed if examdesk exits before that. ``bank_key``: the bank
    cache's key, being computed since ``launch.main`` started.
    """
    reporter = install_crash_reporting(data_dir(options.data_dir))  # before anything can fail
    app = prepare_application(qt_args, options)
    base = data_dir(options.data_dir)
    instance = SingleInstance(base)
    try:
        if not instance.acquire():
            return refuse_second_launch(base, instance)
        try:
            # QtNetwork (~15 ms) is not needed for the first paint; a second launch retries
            settings = QSettings()
            ask_language = not options.lang and not first_launch_language(settings)

            def after_paint() -> None:
                instance.listen()
                reporter.open_log_soon()
                # a first launch on a system that is not Chinese: once, while the window is
                # up (a box left alone on screen would keep examdesk from quitting)
                if ask_language and running.window.isVisible():
                    from .views.settings_dialog import offer_language

                    offer_language(settings, running.window)
            running = build_app(replace(options, data_dir=base), settings=settings,
                                prelaunched=prelaunched, bank_key=bank_key,
                                after_paint=after_paint)
            instance.sig_activate_requested.connect(lambda: bring_to_front(running.window))
            code = app.exec()
            running.shutdown()
        finally:
            instance.release()
        if app.property(RESTART_PROPERTY):  # the learner chose another UI language
            from .relaunch import relaunch  # subprocess: not before the first paint

            relaunch(sys.argv[1:])
    finally:
        if prelaunched is not None:
            prelaunched.discard()  # no-op once the console adopted it
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
