"""``examdesk`` / ``python -m desktop``: the entry point, kept light on purpose.

It first checks that a window can open at all (``preflight``: a display, Qt's xcb
libraries), then spawns the console's kernel (``console/prelaunch.py``) before the rest of the app is
imported, so the kernel's ~2 s start (Python, ipykernel, torch) runs beside the window's
(bench: launch_to_console_with_torch); then it hands over to ``app.run``.
"""
from __future__ import annotations

import sys

from PySide6.QtCore import QSettings

from .config import Keys, name_application, parse_args


def main(argv: list[str] | None = None) -> int:
    """The examdesk GUI entry point."""
    options, qt_args = parse_args(sys.argv[1:] if argv is None else argv)
    from .preflight import main_guard

    refused = main_guard()  # no display, or Qt's xcb libraries missing: say so, exit 1
    if refused is not None:  # (instead of Qt's SIGABRT and core dump)
        return refused
    prelaunched = None
    if not options.no_kernel:
        from question_db.kernels import APP_KERNEL

        name_application()
        chosen = str(QSettings().value(Keys.KERNEL, APP_KERNEL) or APP_KERNEL)
        if chosen == APP_KERNEL:  # another kernel (a kernelspec, a connection file) is not ours
            from .console.prelaunch import prelaunch_app_kernel

            prelaunched = prelaunch_app_kernel()
    from .app import run

    return run(options, qt_args, prelaunched)


if __name__ == "__main__":
    raise SystemExit(main())
