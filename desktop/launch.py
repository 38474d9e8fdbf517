"""``examdesk`` / ``python -m desktop``: the entry point, kept light on purpose.

It spawns the console's kernel (``console/prelaunch.py``) before the rest of the app is
imported, so the kernel's ~2 s start (Python, ipykernel, torch) runs beside the window's
(bench: launch_to_console_with_torch); then it hands over to ``app.run``.
"""
from __future__ import annotations

import argparse
import sys

from PySide6.QtCore import QCoreApplication, QSettings

ORGANIZATION = APPLICATION = "examdesk"
KERNEL_SETTING = "console/kernel"  # the remembered kernel choice (console/kernel_chooser.py)


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(prog="examdesk", description="Offline exam practice.")
    parser.add_argument("--data-dir", help="where progress and extra papers live (default: "
                                           "$EXAMDESK_DATA_DIR or the platform's data dir)")
    parser.add_argument("--lang", help="UI language, e.g. zh_CN or en (default: the system's)")
    parser.add_argument("--no-kernel", action="store_true",
                        help="do not start the Python console (code checks unavailable)")
    parser.add_argument("--bench-ready", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_known_args(argv)


def name_application() -> None:
    """QSettings' location comes from these names; set them before any QSettings()."""
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)


def main(argv: list[str] | None = None) -> int:
    """The examdesk GUI entry point."""
    args, qt_args = parse_args(sys.argv[1:] if argv is None else argv)
    prelaunched = None
    if not args.no_kernel:
        from question_db.kernels import APP_KERNEL

        name_application()
        chosen = str(QSettings().value(KERNEL_SETTING, APP_KERNEL) or APP_KERNEL)
        if chosen == APP_KERNEL:  # another kernel (a kernelspec, a connection file) is not ours
            from .console.prelaunch import prelaunch_app_kernel

            prelaunched = prelaunch_app_kernel()
    from .app import run

    return run(args, qt_args, prelaunched)


if __name__ == "__main__":
    raise SystemExit(main())
