"""Before the QApplication: is there a display, and can Qt's platform plugin use it?

Without one, Qt prints a misleading hint (it blames ``xcb-cursor0`` when ``libxcb-icccm4``
and ``libxcb-keysyms1`` are what a fresh Debian lacks) and aborts with SIGABRT, a core dump
instead of a message. ``launch.main`` asks here first and exits 1 with a clear message.

What is checked, for each platform Qt would try (``QT_QPA_PLATFORM``'s list, else what Qt 6
picks from ``DISPLAY``, ``WAYLAND_DISPLAY`` and ``XDG_SESSION_TYPE``): the plugin exists;
for xcb, the system libraries it needs (the exact install command for Debian/Ubuntu and
Fedora) and a real connection to the X server (libxcb's ``xcb_connect``, as Qt makes it);
for wayland, a connection to the compositor's socket. One platform that passes is enough:
Qt falls back along its list (issue 28, item 10: an unreachable X server, a dead Wayland
socket, a missing plugin all aborted). Linux only: on macOS and Windows Qt's own platform
plugins need nothing extra. Stdlib and PySide6.QtCore only (QtCore needs no display).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Mapping

__all__ = ["PACKAGES", "startup_problem", "display_problem", "missing_libraries",
           "install_commands", "main_guard", "candidate_platforms", "platform_problem"]

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


def candidate_platforms(env: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, in order, without their ``:arguments``: the
    ``QT_QPA_PLATFORM`` list, else Qt 6's own choice on Linux (wayland in a Wayland
    session, xcb when DISPLAY is set, xcb as the built-in default)."""
    requested = [name.split(":")[0].strip() for name in
                 env.get("QT_QPA_PLATFORM", "").split(";")]
    if any(requested):
        return [name for name in requested if name]
    names = []
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE") == "wayland":
        names.append("wayland")
    names.append("xcb")
    return names


def _plugin_folders(env: Mapping[str, str]) -> list[Path]:
    """Where Qt looks for platform plugins: ``QT_QPA_PLATFORM_PLUGIN_PATH``, then
    ``<each QT_PLUGIN_PATH entry>/platforms`` and PySide6's own plugins folder."""
    folders = [Path(env["QT_QPA_PLATFORM_PLUGIN_PATH"])] \
        if env.get("QT_QPA_PLATFORM_PLUGIN_PATH") else []
    folders += [Path(entry) / "platforms"
                for entry in env.get("QT_PLUGIN_PATH", "").split(os.pathsep) if entry]
    try:
        from PySide6.QtCore import QLibraryInfo
    except ImportError:
        return folders
    folders.append(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms")
    return folders


def installed_platforms(env: Mapping[str, str]) -> list[str]:
    """Every platform name the installed plugins provide (their metadata keys: one plugin
    may serve several, as libqwayland.so serves wayland-egl)."""
    from PySide6.QtCore import QPluginLoader

    names: set[str] = set()
    for folder in _plugin_folders(env):
        for plugin in sorted(folder.glob("*.so")) if folder.is_dir() else []:
            keys = QPluginLoader(str(plugin)).metaData().get("MetaData", {}).get("Keys", [])
            names.update(str(key) for key in keys)
    return sorted(names)


def _plugin_installed(name: str, env: Mapping[str, str]) -> bool:
    if any((folder / f"libq{name}.so").exists() for folder in _plugin_folders(env)):
        return True  # the usual case, without reading any plugin's metadata
    return name in installed_platforms(env)


def _xcb_connect_error(display: str) -> int | None:
    """libxcb's error code for a connection to ``display`` (0: it works), as Qt's xcb
    plugin connects; None when libxcb cannot be loaded (the library check says why)."""
    import ctypes

    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return None
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return int(xcb.xcb_connection_has_error(connection))
    finally:
        xcb.xcb_disconnect(connection)  # also frees the error object xcb_connect returned


_XCB_ERRORS = {5: "DISPLAY is not a valid display name",
               6: "that display has no such screen"}


def _xcb_problem(env: Mapping[str, str]) -> str | None:
    display = env.get("DISPLAY", "")
    if not display:
        return "X11 (xcb): DISPLAY is not set"
    missing = missing_libraries(xcb_plugin_path(env))
    if missing:
        return ("X11 (xcb): Qt's xcb platform plugin needs system libraries that are not "
                "installed:\n  " + ", ".join(missing) + "\n"
                "Install them, then start examdesk again:\n" + install_commands(missing))
    error = _xcb_connect_error(display)
    if not error:
        return None
    why = _XCB_ERRORS.get(error, "no X server answers there, or it refused this user "
                                 "(check DISPLAY and XAUTHORITY; over SSH, X forwarding "
                                 "may have ended)")
    return f"X11 (xcb): cannot connect to the X display {display!r} (DISPLAY): {why}"


def _wayland_socket(env: Mapping[str, str]) -> tuple[str, Path | None]:
    """The socket libwayland-client connects to, and the name it was given by."""
    name = env.get("WAYLAND_DISPLAY") or "wayland-0"
    if os.path.isabs(name):
        return name, Path(name)
    runtime = env.get("XDG_RUNTIME_DIR")
    return name, (Path(runtime) / name if runtime else None)


def _wayland_problem(env: Mapping[str, str]) -> str | None:
    if env.get("WAYLAND_SOCKET"):
        return None  # an inherited, already connected socket: nothing to check here
    import socket

    name, path = _wayland_socket(env)
    if path is None:
        return (f"Wayland: the display {name!r} cannot be found: XDG_RUNTIME_DIR is not set")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(2.0)
    try:
        probe.connect(str(path))
    except FileNotFoundError:
        return f"Wayland: the display {name!r} does not exist ({path} is missing)"
    except ConnectionRefusedError:
        return (f"Wayland: nothing answers on the display {name!r} ({path}: connection "
                f"refused; the compositor has exited)")
    except OSError as exc:
        return f"Wayland: cannot connect to the display {name!r} ({path}: {exc.strerror or exc})"
    finally:
        probe.close()
    return None


def platform_problem(name: str, env: Mapping[str, str]) -> str | None:
    """Why Qt's platform ``name`` cannot start here (one line or a short paragraph);
    None when it can, as far as can be told without starting Qt."""
    if not _plugin_installed(name, env):
        available = ", ".join(installed_platforms(env)) or "none"
        return (f"the Qt platform plugin {name!r} is not installed (installed: {available})")
    if name == "xcb":
        return _xcb_problem(env)
    if name.startswith("wayland"):
        return _wayland_problem(env)
    return None  # offscreen, minimal, vnc, eglfs…: no display server to reach


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


_WHAT_TO_DO = ("- On a desktop: start examdesk from the desktop session (its terminal or "
               "menu).\n"
               "- Over SSH: connect with `ssh -X` (X forwarding), or run it on your own "
               "machine.\n"
               "- On a server without a screen: xvfb-run -s \"-screen 0 1400x900x24\" examdesk")


def startup_problem(env: Mapping[str, str] | None = None,
                    platform: str | None = None) -> str | None:
    """Why the GUI cannot start here, as a message for the terminal; None if it can."""
    env = os.environ if env is None else env
    if (platform or sys.platform) != "linux":
        return None
    problem = display_problem(env)
    if problem is not None:
        return problem
    reasons = []
    for name in candidate_platforms(env):
        reason = platform_problem(name, env)
        if reason is None:
            return None  # Qt falls back along its list: one that works is enough
        reasons.append(reason)
    requested = bool(env.get("QT_QPA_PLATFORM", "").strip())
    text = "examdesk cannot open its window: " + (
        f"QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']!r} names no platform that can start here"
        if requested else "no display it can use was found") + ":\n"
    text += "\n".join("  " + reason.replace("\n", "\n  ") for reason in reasons)
    if requested:
        text += "\nUnset QT_QPA_PLATFORM, or set it to an installed platform that can start."
    elif not any("not installed" in reason for reason in reasons):
        text += "\nWhat to do:\n" + _WHAT_TO_DO
    return text


def main_guard() -> int | None:
    """For the entry point: print the problem and return exit code 1, or None to go on."""
    problem = startup_problem()
    if problem is None:
        return None
    print(problem, file=sys.stderr, flush=True)
    return 1
