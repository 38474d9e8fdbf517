"""Before the QApplication: is there a display, and can Qt's xcb platform plugin load?

Without either, Qt prints a misleading hint (it blames ``xcb-cursor0`` when
``libxcb-icccm4`` and ``libxcb-keysyms1`` are what a fresh Debian lacks) and aborts with
SIGABRT, a core dump instead of a message. ``launch.main`` asks here first and exits with
a clear message and the exact install command (Debian/Ubuntu and Fedora). Linux only: on
macOS and Windows Qt's own platform plugins need nothing extra. Stdlib and PySide6.QtCore
only (QtCore needs no display).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Mapping

__all__ = ["PACKAGES", "startup_problem", "display_problem", "missing_libraries",
           "install_commands", "main_guard"]

# soname: (Debian/Ubuntu package, Fedora package) — what Qt's xcb plugin and QtGui link.
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
}
_MISSING = re.compile(r"(lib[\w.+-]+\.so[\w.]*): cannot open shared object file")


def install_commands(sonames: list[str]) -> str:
    """The install lines for the packages that ship ``sonames``."""
    known = [s for s in sonames if s in PACKAGES]
    debian = sorted({PACKAGES[s][0] for s in known})
    fedora = sorted({PACKAGES[s][1] for s in known})
    lines = []
    if debian:
        lines.append("  Debian/Ubuntu:  sudo apt install " + " ".join(debian))
        lines.append("  Fedora:         sudo dnf install " + " ".join(fedora))
    unknown = [s for s in sonames if s not in PACKAGES]
    if unknown:
        lines.append("  (also missing, package unknown to examdesk: " + ", ".join(unknown) + ")")
    return "\n".join(lines)


def _loads(path_or_name: str) -> str | None:
    """None if the library loads, else the loader's message."""
    import ctypes  # only where a display is needed (not offscreen: bench, tests)

    try:
        ctypes.CDLL(path_or_name)
    except OSError as exc:
        return str(exc)
    return None


def xcb_plugin_path(env: Mapping[str, str] | None = None) -> Path | None:
    """The xcb platform plugin Qt will load: from ``QT_QPA_PLATFORM_PLUGIN_PATH`` when set
    (Qt's own variable), else PySide6's plugins folder."""
    env = os.environ if env is None else env
    folder = env.get("QT_QPA_PLATFORM_PLUGIN_PATH")
    if not folder:
        try:
            from PySide6.QtCore import QLibraryInfo
        except ImportError:
            return None
        folder = str(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
                     / "platforms")
    plugin = Path(folder) / "libqxcb.so"
    return plugin if plugin.exists() else None


def missing_libraries(plugin: Path | None) -> list[str]:
    """The shared libraries Qt's xcb plugin (and QtGui) cannot find, by soname; [] if the
    plugin loads. Loading it here is what ``QApplication`` would do a moment later."""
    if plugin is None:
        return []
    error = _loads(str(plugin))
    if error is None:
        return []
    # The loader names only the first library it missed: probe the known ones for the rest.
    first = _MISSING.search(error)
    missing = [first.group(1)] if first else []
    missing += [name for name in PACKAGES if name not in missing and _loads(name) is not None]
    return missing or [error]


def _uses_xcb(env: Mapping[str, str]) -> bool:
    platform = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if platform:
        return platform == "xcb"
    wayland = bool(env.get("WAYLAND_DISPLAY")) and env.get("XDG_SESSION_TYPE") == "wayland"
    return not wayland  # Qt picks wayland in a wayland session, else xcb


def display_problem(env: Mapping[str, str]) -> str | None:
    """No display for the platform Qt will use: what to do about it."""
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip()
    if platform and platform not in ("xcb", "wayland"):
        return None  # offscreen, vnc, eglfs…: no display server needed
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return ("examdesk needs a graphical display, but none was found (DISPLAY and "
            "WAYLAND_DISPLAY are not set).\n"
            "- On a desktop: start examdesk from the desktop session (its terminal or menu).\n"
            "- Over SSH: connect with `ssh -X` (X forwarding), or run it on your own machine.\n"
            "- On a server without a screen: run it under a virtual display:\n"
            "    xvfb-run -s \"-screen 0 1400x900x24\" examdesk\n"
            "  Debian/Ubuntu:  sudo apt install xvfb\n"
            "  Fedora:         sudo dnf install xorg-x11-server-Xvfb")


def startup_problem(env: Mapping[str, str] | None = None,
                    platform: str | None = None) -> str | None:
    """Why the GUI cannot start here, as a message for the terminal; None if it can."""
    env = os.environ if env is None else env
    if (platform or sys.platform) != "linux":
        return None
    problem = display_problem(env)
    if problem is not None:
        return problem
    if not _uses_xcb(env):
        return None
    missing = missing_libraries(xcb_plugin_path(env))
    if not missing:
        return None
    return ("examdesk cannot open its window: Qt's X11 (xcb) platform plugin needs system "
            "libraries that are not installed:\n  " + ", ".join(missing) + "\n"
            "Install them, then start examdesk again:\n" + install_commands(missing))


def main_guard() -> int | None:
    """For the entry point: print the problem and return exit code 1, or None to go on."""
    problem = startup_problem()
    if problem is None:
        return None
    print(problem, file=sys.stderr, flush=True)
    return 1
