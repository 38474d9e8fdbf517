"""Start examdesk again, once this instance has let go of its data folder (the UI language
is chosen at start-up: every screen is built translated; a restart is honest where a
half-retranslated window would not be)."""
from __future__ import annotations

import os
import subprocess
import sys

from .config import RESTART_PROPERTY

__all__ = ["RESTART_PROPERTY", "relaunch_args", "relaunch"]


def relaunch_args(argv: list[str]) -> list[str]:
    """``argv`` (examdesk's own arguments) without ``--lang``: the language just chosen in
    the settings applies, not the one the command line forced."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--lang":
            skip = True
        elif not arg.startswith("--lang="):
            out.append(arg)
    return out


def relaunch(argv: list[str]) -> subprocess.Popen:
    """A new examdesk process with ``argv``, detached from this one (which is exiting)."""
    command = [sys.executable, "-m", "desktop", *relaunch_args(argv)]
    if os.name == "nt":
        return subprocess.Popen(command, close_fds=True, creationflags=(
            subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.DETACHED_PROCESS))
    return subprocess.Popen(command, close_fds=True, start_new_session=True,
                            stdin=subprocess.DEVNULL)
