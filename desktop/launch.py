"""``examdesk`` / ``python -m desktop``: the entry point, kept light on purpose.

It first checks that a window can open at all (``preflight``: a display, Qt's xcb
libraries), then starts what can run beside the window's start before the rest of the app is
imported: the bank cache's key (a stat of every paper file, in a child process:
``question_db/bank_fingerprint.py``, bench: launch_to_library_5000) and the console's kernel
(``console/prelaunch.py``: its ~2 s start, Python, ipykernel, torch; bench:
launch_to_console_with_torch); then it hands over to ``app.run``.
"""
from __future__ import annotations

import sys

from PySide6.QtCore import QSettings

from .config import Keys, name_application, parse_args
from .idle_gc import pause_for_startup, resume_after_startup


def main(argv: list[str] | None = None) -> int:
    """The examdesk GUI entry point."""
    pause_for_startup()  # until the library is painted (app.build_app resumes it)
    try:
        return _launch(argv)
    finally:
        resume_after_startup()  # a launch that ended before the library was painted


def _launch(argv: list[str] | None) -> int:
    options, qt_args = parse_args(sys.argv[1:] if argv is None else argv)
    from .preflight import main_guard

    refused = main_guard()  # no display, or Qt's xcb libraries missing: say so, exit 1
    if refused is not None:  # (instead of Qt's SIGABRT and core dump)
        return refused
    from question_db.bank_cache import prefetch_fingerprint
    from question_db.paths import data_dir, installed_paper_roots

    bank_key = prefetch_fingerprint(installed_paper_roots(data_dir(options.data_dir)))
    prelaunched = None
    if not options.no_kernel:
        from question_db.kernels import APP_KERNEL

        name_application()
        chosen = str(QSettings().value(Keys.KERNEL, APP_KERNEL) or APP_KERNEL)
        if chosen == APP_KERNEL:  # another kernel (a kernelspec, a connection file) is not ours
            from .console.prelaunch import prelaunch_app_kernel

            prelaunched = prelaunch_app_kernel()
    from .app import run

    try:
        return run(options, qt_args, prelaunched, bank_key)
    finally:
        bank_key.close()


if __name__ == "__main__":
    raise SystemExit(main())
