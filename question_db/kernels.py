"""Kernel provisioning shared by the headless runner and the desktop console.

No Qt here: the desktop passes ``QtKernelManager`` / ``QtKernelClient`` (subclasses of
jupyter_client's) through the same functions.

Kernel kinds, one constructor each (as Spyder's ``KernelHandler`` factories):
- ``APP_KERNEL`` (default): this Python, via an app-owned kernelspec (argv =
  ``sys.executable kernel_boot.py -f {connection_file}``: ipykernel_launcher with nothing
  bound to TCP), so a user's
  ``~/.local/share/jupyter/kernels/python3`` cannot hijack it: ``start_managed_kernel``.
- any installed Jupyter kernelspec by name (e.g. a conda env with CUDA torch): the same
  ``start_managed_kernel(name)``.
- an existing kernel via its connection file (``connect:/path/kernel-123.json``, e.g. one
  on a remote GPU box reached through an ssh tunnel): ``connect_client``.
Checks never need examdesk inside the kernel's environment: the harness travels as code
(``checks/runner.py``).

Files (connection files, ipc sockets, kernel logs, the app kernelspec) live in
``runtime_dir()``: a folder only this user can enter, checked on every use, because what it
holds is a secret (the connection key lets anyone run code in the kernel) and code (the
kernelspec's argv is what gets executed). Transport: ipc on POSIX (no TCP port, and
ipykernel 7 warns about unencrypted TCP), TCP on Windows, where zmq has no ipc.

On Linux every kernel we start runs under ``kernel_reaper.py``, a child subreaper that
kills whatever the kernel's code started when the kernel ends, even processes that left its
process group (``ReapingProvisioner``); its record lets the next launch kill what a killed
examdesk's kernel left (``sweep_stale_files``).
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import re
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import kernel_reaper

__all__ = ["APP_KERNEL", "CONNECT_PREFIX", "TRANSPORT", "SHUTDOWN_WAIT_S", "RUNTIME_FOLDER",
           "KernelChoice", "runtime_dir", "sweep_stale_files", "new_log_file",
           "new_connection_file", "new_ipc_address", "remove_file", "app_kernelspec_dir",
           "kernel_spec_manager", "available_kernels", "configure_manager",
           "start_managed_kernel", "connect_client", "shutdown_kernel", "kill_process_group",
           "close_thread_event_loop", "tail", "USES_REAPER", "reaped_command",
           "reaper_record", "stop_reaper", "reaping_provisioner_class", "reaping_provisioner",
           "KERNEL_BOOT", "remove_log", "remove_pipe_socket"]

log = logging.getLogger(__name__)

APP_KERNEL = "examdesk-python"
CONNECT_PREFIX = "connect:"
TRANSPORT = "ipc" if os.name == "posix" else "tcp"
SHUTDOWN_WAIT_S = 4.0  # finish_shutdown: half waiting for a polite exit, half after SIGTERM
RUNTIME_FOLDER = "examdesk"
# A unix socket path has at most 107 bytes; ours end in "/ipc-<pid>-<12 hex>-<port>".
_MAX_RUNTIME_PATH = 75
# The subreaper needs prctl and /proc (kernel_reaper.py); elsewhere the kernel's process
# group is all we can kill.
USES_REAPER = sys.platform.startswith("linux")
REAPER_SCRIPT = Path(kernel_reaper.__file__)
# The app kernel's entry point: ipykernel_launcher with its IOPub pipe on ipc, not TCP.
KERNEL_BOOT = REAPER_SCRIPT.with_name("kernel_boot.py")
REAPER_STOP_S = 2.0  # what a kill waits for the reaper to have killed everything


@dataclass(frozen=True)
class KernelChoice:
    """What the learner picked in the kernel menu."""

    key: str  # APP_KERNEL, a kernelspec name, or "connect:<file>"
    label: str

    @property
    def connection_file(self) -> str | None:
        return self.key[len(CONNECT_PREFIX):] if self.key.startswith(CONNECT_PREFIX) else None


# --- the runtime folder ------------------------------------------------------------------

_checked: set[str] = set()  # folders already found private in this process (and swept)
_refused: set[str] = set()  # folders found unusable in this process (said once, in the log)
_fallback: Path | None = None


def runtime_dir() -> Path:
    """The private folder for connection files, ipc sockets, kernel logs and the kernelspec.

    ``$XDG_RUNTIME_DIR/examdesk`` where the session has one (Linux: a per-user tmpfs),
    else ``<jupyter_runtime_dir()>/examdesk`` (``$JUPYTER_RUNTIME_DIR`` or the user's
    Jupyter data folder). A folder that is a symlink, is not owned by this user or could be
    written by others is never used (see ``_private``); last resort: a fresh ``mkdtemp``
    folder for this process. Files left by an examdesk that no longer runs are removed on
    first use.
    """
    global _fallback
    for candidate in _runtime_candidates():
        key = str(candidate)
        if key in _refused:
            continue
        if key in _checked and candidate.is_dir():
            return candidate
        if _private(candidate):
            _checked.add(key)
            sweep_stale_files(candidate)
            return candidate
        _refused.add(key)
    if _fallback is None or not _fallback.is_dir():
        _fallback = Path(tempfile.mkdtemp(prefix="examdesk-"))  # 0o700, a name nobody knew
        log.warning("kernel files go to %s for this run only", _fallback)
    return _fallback


def _runtime_candidates() -> list[Path]:
    candidates = []
    xdg = os.environ.get("XDG_RUNTIME_DIR", "").strip()
    if xdg and os.name == "posix" and sys.platform != "darwin":
        candidates.append(Path(xdg) / RUNTIME_FOLDER)
    try:
        from jupyter_core.paths import jupyter_runtime_dir  # ~25 ms: only when needed

        candidates.append(Path(jupyter_runtime_dir()) / RUNTIME_FOLDER)
    except Exception as exc:  # a broken jupyter_core must not stop the console
        log.warning("no Jupyter runtime folder (%s)", exc)
    return candidates


def _private(path: Path) -> bool:
    """Create ``path`` (0o700) or check the one there: ours, a real folder, closed to others.

    One another user owns, or a symlink, is refused (and logged). One of ours that others
    could write to (an older examdesk, a umask of 0) may hold files planted by someone else:
    it is moved aside, kept for inspection, and a fresh one is made. One that others could
    only read is closed (chmod 0o700).
    """
    if len(str(path)) > _MAX_RUNTIME_PATH:
        log.warning("not using %s for kernel files: the path is too long for ipc sockets",
                    path)
        return False
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.mkdir(mode=0o700, exist_ok=True)
        info = path.lstat()
    except OSError as exc:
        log.warning("cannot use %s for kernel files: %s", path, exc)
        return False
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        log.warning("not using %s for kernel files: it is not a folder (a symlink?)", path)
        return False
    if os.name != "posix":  # Windows: the profile folder's ACLs keep others out
        return True
    if info.st_uid != os.getuid():
        log.warning("not using %s for kernel files: it belongs to user id %s, not to you "
                    "(%s); someone may have created it to read your kernels' keys",
                    path, info.st_uid, os.getuid())
        return False
    if info.st_mode & 0o022:
        aside = path.with_name(f"{path.name}.untrusted-{uuid.uuid4().hex[:8]}")
        log.warning("%s could be written by other users (mode %o): moved to %s, and a new "
                    "private folder is used", path, stat.S_IMODE(info.st_mode), aside)
        try:
            path.rename(aside)
            path.mkdir(mode=0o700)
            info = path.lstat()
        except OSError as exc:
            log.warning("cannot replace %s: %s", path, exc)
            return False
        return info.st_uid == os.getuid() and not info.st_mode & 0o077
    if info.st_mode & 0o077:
        try:
            path.chmod(0o700)
        except OSError as exc:
            log.warning("cannot close %s to other users: %s", path, exc)
            return False
    return True


# Our file names carry the pid of the examdesk (or question-db) process that made them.
_OWNED_NAME = re.compile(r"(?:kernel|ipc)-(\d+)-[0-9a-f]{12}"
                         r"(?:\.json|\.log(?:\.1)?|-\d+|\.pids(?:\.tmp)?)")


def _file_stem() -> str:
    return f"{os.getpid()}-{uuid.uuid4().hex[:12]}"


def sweep_stale_files(folder: Path) -> int:
    """Remove connection files, ipc sockets and logs whose examdesk process is gone (killed,
    crashed: its kernel exited by itself, the files stayed). Returns how many."""
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        match = _OWNED_NAME.fullmatch(name)
        if match is None:
            continue
        if name.endswith(kernel_reaper.RECORD_SUFFIX):
            if not _kill_what_a_dead_examdesk_left(folder / name):
                continue
        elif _pid_alive(int(match.group(1))):
            continue
        try:
            (folder / name).unlink()
            removed += 1
        except OSError:
            pass
    return removed


def _kill_what_a_dead_examdesk_left(record_path: Path) -> bool:
    """A kernel launcher's record (``kernel_reaper``): when the examdesk that started it is
    gone (its pid ended, or now names a process started later), kill what its kernel left
    and say the record may go. False: that examdesk still runs."""
    record = kernel_reaper.read_record(record_path)
    if record is None:  # half written or damaged: keep it while its examdesk may run
        match = _OWNED_NAME.fullmatch(record_path.name)
        return match is not None and not _pid_alive(int(match.group(1)))
    if kernel_reaper.examdesk_alive(record):
        return False
    killed = kernel_reaper.kill_recorded(record)
    if killed:
        log.warning("killed %d process(es) left by the kernel of examdesk %s, which is no "
                    "longer running (%s)", killed, record["examdesk"]["pid"], record_path)
    return True


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True  # no cheap, reliable probe: keep the files
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, another user's
        return True
    return True


def new_log_file() -> Path:
    """An empty kernel log (stdout + stderr of the kernel process), readable only by us."""
    path = runtime_dir() / f"kernel-{_file_stem()}.log"
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    return path


def remove_log(path: Path | str | None) -> None:
    """A kernel log and its rotated part (``<log>.1``: the reaper caps the log)."""
    if path is not None:
        remove_file(path)
        remove_file(f"{path}{kernel_reaper.ROTATED_SUFFIX}")


def new_connection_file() -> Path:
    """A name for a connection file (jupyter_client writes it 0o600)."""
    return runtime_dir() / f"kernel-{_file_stem()}.json"


def new_ipc_address() -> str:
    """The ``ip`` of an ipc-transport kernel: its sockets are ``<ip>-<port>`` files."""
    return str(runtime_dir() / f"ipc-{_file_stem()}")


def remove_file(path: Path | str | None) -> None:
    if path is not None:
        try:
            Path(path).unlink(missing_ok=True)
        except OSError:
            pass


def remove_pipe_socket(ip: str | None) -> None:
    """The ipc socket of the kernel's IOPub pipe (``kernel_boot``); zmq removes it when the
    kernel exits normally, a killed kernel leaves it."""
    if ip:
        from . import kernel_boot

        remove_file(f"{ip}{kernel_boot.PIPE_SUFFIX}")


# --- kernelspecs ---------------------------------------------------------------------------

def app_kernelspec_dir() -> Path:
    """Write (idempotently) the app-owned kernelspec for this interpreter."""
    root = runtime_dir() / "kernels"
    spec_dir = root / APP_KERNEL
    spec_dir.mkdir(parents=True, exist_ok=True)
    spec = {
        # ipykernel_launcher, with nothing bound to TCP (kernel_boot.py)
        "argv": [sys.executable, str(KERNEL_BOOT), "-f", "{connection_file}"],
        "display_name": f"examdesk (Python {sys.version.split()[0]})",
        "language": "python",
        "interrupt_mode": "signal",
        # debugpy's "frozen modules" warning would greet the learner after every restart
        "env": {"PYTHONUNBUFFERED": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"},
    }
    text = json.dumps(spec, indent=1)
    target = spec_dir / "kernel.json"
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
    return root


def kernel_spec_manager():
    """A KernelSpecManager that sees the app's own spec first, then the installed ones."""
    from jupyter_client.kernelspec import KernelSpecManager

    ksm = KernelSpecManager()
    ksm.kernel_dirs = [str(app_kernelspec_dir())] + list(ksm.kernel_dirs)
    return ksm


def available_kernels() -> list[KernelChoice]:
    """The app's own kernel first, then every installed kernelspec."""
    choices = [KernelChoice(APP_KERNEL, f"examdesk (this Python, {sys.version.split()[0]})")]
    try:
        specs = kernel_spec_manager().get_all_specs()
    except Exception:  # a broken kernelspec folder must not break the menu
        specs = {}
    for name, info in sorted(specs.items()):
        if name == APP_KERNEL:
            continue
        display = info.get("spec", {}).get("display_name", name)
        choices.append(KernelChoice(name, f"{display} [{name}]"))
    return choices


# --- the constructors, one per kind -------------------------------------------------------

def configure_manager(km, kernel_name: str = APP_KERNEL) -> None:
    """Point ``km`` at the chosen kernelspec, with its files in ``runtime_dir()``."""
    km.kernel_spec_manager = kernel_spec_manager()
    km.kernel_name = kernel_name
    km.transport = TRANSPORT
    if TRANSPORT == "ipc":
        km.ip = new_ipc_address()
    km.connection_file = str(new_connection_file())


# --- the reaper (Linux) -------------------------------------------------------------------

def reaper_record(connection_file: Path | str) -> Path:
    """Where the launcher of the kernel on ``connection_file`` records its processes."""
    return Path(connection_file).with_suffix(kernel_reaper.RECORD_SUFFIX)


def reaped_command(cmd: list[str], connection_file: Path | str) -> list[str]:
    """``cmd`` run under the reaper (Linux), or ``cmd`` itself elsewhere."""
    if not USES_REAPER:
        return list(cmd)
    return [sys.executable, "-I", "-S", str(REAPER_SCRIPT), "--record",
            str(reaper_record(connection_file)), "--", *cmd]


def stop_reaper(process: subprocess.Popen | None, wait_s: float = REAPER_STOP_S) -> bool:
    """Ask a kernel's launcher to kill the kernel and everything below it now, and wait for
    it to exit. A SIGKILL of the process group would kill the launcher with the kernel, and
    the processes that left the group would be orphaned to init instead of killed. True when
    it has exited."""
    if process is None or process.poll() is not None:
        return True
    if not USES_REAPER:  # no reaper to ask: the caller kills the group
        return False
    try:
        process.send_signal(signal.SIGUSR1)
    except OSError:
        return True
    deadline = time.monotonic() + wait_s
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return process.poll() is not None


@functools.cache
def reaping_provisioner_class() -> type:
    """``ReapingProvisioner`` (built on first use: jupyter_client is imported late)."""
    from jupyter_client.provisioning import LocalProvisioner

    class ReapingProvisioner(LocalProvisioner):
        """jupyter_client's ``LocalProvisioner``, with the kernel run under the reaper and a
        kill that lets the reaper kill first (then the group, as before)."""

        async def launch_kernel(self, cmd: list[str], **kwargs: Any):
            return await super().launch_kernel(
                reaped_command(cmd, self.parent.connection_file), **kwargs)

        async def kill(self, restart: bool = False) -> None:
            process = self.process
            if USES_REAPER and process is not None and process.poll() is None:
                process.send_signal(signal.SIGUSR1)
                deadline = time.monotonic() + REAPER_STOP_S
                while process.poll() is None and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
            await super().kill(restart=restart)

        async def cleanup(self, restart: bool = False) -> None:
            await super().cleanup(restart=restart)
            if not restart and self.parent is not None and self.parent.transport == "ipc":
                remove_pipe_socket(self.parent.ip)  # jupyter_client removes only the five

    return ReapingProvisioner


def reaping_provisioner(km) -> Any:
    """For ``start_managed_kernel(provisioner=...)``: the default provisioner."""
    return reaping_provisioner_class()(kernel_id=km.kernel_id, kernel_spec=km.kernel_spec,
                                       parent=km)


def start_managed_kernel(kernel_name: str = APP_KERNEL, manager_class: type | None = None, *,
                         log_path: Path | None = None,
                         provisioner: Callable[[Any], Any] | None = None,
                         **traits: Any) -> tuple[Any, Path]:
    """Launch the app's kernel (``APP_KERNEL``) or an installed kernelspec; returns the
    manager (``manager_class``, default ``KernelManager``) and the kernel's log file.

    ``provisioner(km)``: a kernel provisioner for this manager (jupyter_client's public
    extension point; the desktop's adopts the kernel spawned at launch; default: a
    ``ReapingProvisioner``). ``log_path``: an existing log to append to (default: a new one).
    Nothing is left behind on failure.
    """
    if manager_class is None:
        from jupyter_client import KernelManager as manager_class
    km = manager_class(**traits)
    configure_manager(km, kernel_name)
    km.kernel_id = str(uuid.uuid4())
    km.provisioner = (provisioner or reaping_provisioner)(km)
    log_path = log_path or new_log_file()
    try:
        with open(log_path, "ab") as out:  # the child keeps its own descriptor
            km.start_kernel(stdout=out, stderr=out)
    except BaseException:
        try:
            km.cleanup_resources()  # the connection file it may have written
        finally:
            remove_log(log_path)
        raise
    return km, log_path


def connect_client(connection_file: str, client_class: type | None = None):
    """A client (channels not started) for a kernel someone else runs."""
    if client_class is None:
        from jupyter_client import BlockingKernelClient as client_class
    kc = client_class(connection_file=connection_file)
    kc.load_connection_file()
    return kc


# --- shutdown -----------------------------------------------------------------------------

def shutdown_kernel(km, kc, *, wait_s: float = SHUTDOWN_WAIT_S) -> None:
    """Idempotent and bounded (about ``wait_s`` at most, then SIGKILL): interrupt what runs,
    ask, stop the channels (their threads end while the kernel exits), wait, kill the process
    group (what the kernel spawned outlives it), remove the connection file and sockets.

    ``km`` None: a kernel we only connected to: the channels are stopped, it keeps running.
    Blocks: the desktop calls it on a worker thread.
    """
    provisioner = getattr(km, "provisioner", None)
    pgid = getattr(provisioner, "pgid", None)
    process = getattr(provisioner, "process", None)
    pipe_ip = km.ip if km is not None and km.transport == "ipc" else None
    if km is not None and km.has_kernel:
        try:
            km.interrupt_kernel()  # a busy kernel answers the shutdown request only when idle
            km.request_shutdown()
        except Exception:  # the process may be gone already
            pass
    if kc is not None and kc.channels_running:
        kc.stop_channels()
    if km is None:
        return
    try:
        if km.has_kernel:
            km.finish_shutdown(waittime=wait_s)  # then SIGTERM, then SIGKILL
    except Exception:
        try:
            km.shutdown_kernel(now=True)
        except Exception:
            pass
    finally:
        try:
            km.cleanup_resources()
        finally:
            stop_reaper(process)  # nothing to do unless the shutdown above failed
            kill_process_group(pgid)
            remove_pipe_socket(pipe_ip)


def kill_process_group(pgid: int | None) -> None:
    """SIGKILL what is left of a kernel's process group (jupyter_client starts kernels in a
    new session, so the group is the kernel's own)."""
    if pgid and hasattr(os, "killpg"):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:  # nothing left: the usual case
            pass


def close_thread_event_loop() -> None:
    """Close the asyncio loop jupyter_client's blocking calls made for this worker thread
    (``run_sync`` creates one per thread and never closes it: an epoll fd and a socket
    pair per thread otherwise)."""
    import asyncio

    try:
        loop = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        return
    if not loop.is_running() and not loop.is_closed():
        loop.close()
    asyncio.set_event_loop(None)


def tail(path: Path | None, lines: int = 20) -> str:
    """Last ``lines`` lines of a kernel's stderr log, for death explanations (from its
    rotated part too when the log was just started again)."""
    if path is None or not Path(path).exists():
        return ""
    want = 64 * 1024
    data = _last_bytes(path, want)
    if len(data) < want:
        data = _last_bytes(f"{path}{kernel_reaper.ROTATED_SUFFIX}", want - len(data)) + data
    return "\n".join(data.decode("utf-8", "replace").splitlines()[-lines:])


def _last_bytes(path: Path | str, count: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - count))
            return fh.read()
    except OSError:
        return b""
