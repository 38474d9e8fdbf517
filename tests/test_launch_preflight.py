"""The real ``examdesk`` entry point where no window can open: a clear message and exit
code 1 instead of Qt's SIGABRT and core dump (issue 14, item 6).

Nothing is mocked: the entry point runs in a subprocess without a display; the missing
xcb library is a real one missing — a stand-in ``libqxcb.so`` built here with gcc against
a stub ``libxcb-icccm.so.4`` that is then deleted, loaded through Qt's own
``QT_QPA_PLATFORM_PLUGIN_PATH`` (this box has every real xcb library installed).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.preflight import install_commands, missing_libraries, startup_problem

REPO = Path(__file__).resolve().parents[1]


def entry_point() -> list[str]:
    """The installed ``examdesk`` script when the venv has it, else ``python -m desktop``
    (both run ``desktop.launch:main``)."""
    script = Path(sys.executable).with_name("examdesk")
    return [str(script)] if script.exists() else [sys.executable, "-m", "desktop"]


def run_examdesk(env_changes: dict[str, str | None], tmp_path: Path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update({k: v for k, v in env_changes.items() if v is not None})
    env["PYTHONPATH"] = str(REPO)  # this checkout's desktop package, not an installed one
    env["EXAMDESK_DATA_DIR"] = str(tmp_path / "data")
    return subprocess.run(entry_point(), env=env, capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)


@pytest.mark.skipif(sys.platform != "linux", reason="the check is for Linux displays")
def test_without_a_display_examdesk_says_so_and_exits_1(tmp_path):
    result = run_examdesk({}, tmp_path)
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert "needs a graphical display" in result.stderr
    assert "xvfb-run" in result.stderr and "sudo apt install xvfb" in result.stderr
    assert "Fedora" in result.stderr
    assert "could not connect to display" not in result.stderr  # Qt never got that far
    assert not (tmp_path / "data" / "progress.sqlite3").exists()


@pytest.fixture
def plugin_missing_icccm(tmp_path) -> Path:
    """A folder with a ``libqxcb.so`` that needs ``libxcb-icccm.so.4``, which is gone."""
    if shutil.which("gcc") is None:
        pytest.skip("building the stand-in plugin needs gcc")
    build = tmp_path / "build"
    build.mkdir()
    (build / "stub.c").write_text("int icccm_stub(void) { return 4; }\n")
    (build / "plugin.c").write_text("int icccm_stub(void);\n"
                                    "int use_icccm(void) { return icccm_stub(); }\n")
    # No soname and linked by path: the plugin needs exactly this file (this box has the
    # real libxcb-icccm.so.4, which a plain soname would find), and it is deleted below.
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", "libxcb-icccm.so.4", "stub.c"],
                   cwd=build, check=True)
    platforms = tmp_path / "platforms"
    platforms.mkdir()
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(platforms / "libqxcb.so"),
                    "plugin.c", str(build / "libxcb-icccm.so.4")], cwd=build, check=True)
    shutil.rmtree(build)  # the library the plugin needs is not installed
    return platforms


@pytest.mark.skipif(sys.platform != "linux", reason="xcb is the Linux platform plugin")
def test_a_missing_xcb_library_is_named_with_its_install_command(plugin_missing_icccm,
                                                                  tmp_path):
    assert missing_libraries(plugin_missing_icccm / "libqxcb.so") == ["libxcb-icccm.so.4"]
    env = {"DISPLAY": ":0", "QT_QPA_PLATFORM_PLUGIN_PATH": str(plugin_missing_icccm)}
    message = startup_problem(env, platform="linux")
    assert "libxcb-icccm.so.4" in message
    assert "sudo apt install libxcb-icccm4" in message
    assert "sudo dnf install xcb-util-wm" in message

    result = run_examdesk(env, tmp_path)  # the real entry point, before any QApplication
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert "sudo apt install libxcb-icccm4" in result.stderr
    assert "xcb-cursor0" not in result.stderr  # Qt's misleading hint is never reached


def test_no_check_where_no_display_server_is_needed():
    assert startup_problem({"QT_QPA_PLATFORM": "offscreen"}, platform="linux") is None
    assert startup_problem({}, platform="darwin") is None
    assert startup_problem({}, platform="win32") is None


def test_install_commands_name_both_distributions_once_per_package():
    text = install_commands(["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-shm.so.0",
                             "libxcb-sync.so.1"])
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1 libxcb-shm0 libxcb-sync1" in text
    assert "sudo dnf install libxcb xcb-util-keysyms xcb-util-wm" in text


# --- a display that is named but cannot be used (issue 28, item 10) ------------------------

def assert_refused_cleanly(result, tmp_path: Path, *phrases: str) -> None:
    """Exit 1 with a message, not Qt's abort (-6, a core dump)."""
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    for phrase in phrases:
        assert phrase in result.stderr, result.stderr
    assert "Aborted" not in result.stderr and "core dumped" not in result.stderr
    assert not list(tmp_path.glob("core*"))
    assert not (tmp_path / "data" / "progress.sqlite3").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="X11 displays are checked on Linux")
def test_an_unreachable_x_server_is_named_and_exits_1(tmp_path):
    display = next((n for n in range(87, 120)
                    if not Path(f"/tmp/.X11-unix/X{n}").exists()), None)
    if display is None:
        pytest.skip("every display :87-:119 has an X server socket here")
    result = run_examdesk({"DISPLAY": f":{display}"}, tmp_path)
    assert_refused_cleanly(result, tmp_path, f"cannot connect to the X display ':{display}'",
                           "xvfb-run")


@pytest.mark.skipif(sys.platform != "linux", reason="Wayland displays are checked on Linux")
def test_a_dead_wayland_socket_is_named_and_exits_1(tmp_path):
    """A compositor that exited leaves its socket file: connecting is refused."""
    import socket

    path = tmp_path / "wl-dead"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))  # bound, never listening, then closed: what a crash leaves
    dead.close()
    result = run_examdesk({"WAYLAND_DISPLAY": str(path), "XDG_SESSION_TYPE": "wayland",
                           "XDG_RUNTIME_DIR": str(tmp_path)}, tmp_path)
    assert_refused_cleanly(result, tmp_path, str(path), "connection refused",
                           "DISPLAY is not set")


@pytest.mark.skipif(sys.platform != "linux", reason="the check runs on Linux")
def test_a_missing_platform_plugin_is_named_and_exits_1(tmp_path):
    result = run_examdesk({"QT_QPA_PLATFORM": "nosuchplatform", "DISPLAY": ":0"}, tmp_path)
    assert_refused_cleanly(result, tmp_path, "'nosuchplatform' is not installed",
                           "offscreen", "Unset QT_QPA_PLATFORM")


def test_one_platform_that_can_start_is_enough():
    """Qt falls back along QT_QPA_PLATFORM's list: a missing first entry is no reason to
    refuse."""
    assert startup_problem({"QT_QPA_PLATFORM": "nosuchplatform;offscreen"},
                           platform="linux") is None
