"""The kernel's launcher on Linux: runs the kernel as its child and kills, when the kernel
ends, every process the kernel's code started (issue 28, item 9).

Learner code can start processes that leave the kernel's process group
(``subprocess.Popen(..., start_new_session=True)``, a daemon that calls ``os.setsid``):
killing the group at a restart misses them, and when their parent dies they are reparented
to init and run on, holding memory or a GPU. This launcher is a child subreaper
(``prctl(PR_SET_CHILD_SUBREAPER)``): such orphans are reparented to it instead, so it can
find them all (its descendants in /proc) and kill them:

- when the kernel exits or is killed (a restart kills the kernel's process group, which does
  not hold the launcher's orphans), then it exits the way the kernel did (same status or
  signal), so jupyter_client's death detection and our death explanation see the kernel;
- on SIGUSR1 (``kernels.stop_reaper``: what a manager's kill asks for first), at once;
- when examdesk itself is gone (killed with -9: the launcher's parent changes).

It also caps the kernel's log: the kernel writes its stdout and stderr into a pipe that
the launcher copies into the log file examdesk gave it, which never grows past
``LOG_CAP_BYTES``; full, it becomes ``<log>.1`` and a new log starts (issue 28, item 12: a
kernel printing without end, or made to print, must not fill the disk).

It records its pid, the kernel's, examdesk's (each with its start time) and a random token
the kernel's environment carries (inherited by everything it starts) in ``--record``; if
the launcher itself was killed, the next examdesk finds that record and kills what carries
the token (``kernels.sweep_stale_files``), never a pid reused since.

Run as ``python -I -S kernel_reaper.py --record FILE -- kernel argv...``: standard library
only (ctypes, /proc), so no site-packages and no examdesk install is needed.
"""
from __future__ import annotations

import json
import os
import select
import signal
import stat
import sys
import time
from pathlib import Path
from typing import Iterator

__all__ = ["TOKEN_VARIABLE", "RECORD_SUFFIX", "LOG_CAP_BYTES", "ROTATED_SUFFIX", "start_time", "read_record", "examdesk_alive",
           "kill_recorded", "main"]

TOKEN_VARIABLE = "EXAMDESK_KERNEL_TOKEN"
RECORD_SUFFIX = ".pids"
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_SIGNALS = (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1)
_KILL_DEADLINE_S = 5.0  # a descendant in uninterruptible sleep must not keep us forever
_PARENT_POLL_S = 1.0
LOG_CAP_BYTES = 5 * 2**20  # per file; with the one rotation, at most twice that on disk
ROTATED_SUFFIX = ".1"
_CHUNK = 1 << 16


# --- /proc ---------------------------------------------------------------------------------

def _stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name (which may hold spaces and parentheses):
    field 3 (state) is index 0."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot): with the pid, it names one process
    (a pid is reused, its start time is not). None: no such process."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields is not None and len(fields) > 19 else None


def _processes() -> Iterator[int]:
    for name in os.listdir("/proc"):
        if name.isdigit():
            yield int(name)


def _descendants(root: int) -> list[int]:
    """Every living process below ``root`` (zombies left out: they only need reaping)."""
    children: dict[int, list[int]] = {}
    for pid in _processes():
        fields = _stat_fields(pid)
        if fields is not None and fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(pid)
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _carries_token(pid: int, token: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return f"{TOKEN_VARIABLE}={token}".encode() in fh.read().split(b"\0")
    except OSError:
        return False


# --- the record -----------------------------------------------------------------------------

def _write_record(path: Path, record: dict) -> None:
    """Atomically, readable only by us (it names what the next examdesk may kill)."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(record, fh)
    os.replace(tmp, path)


def read_record(path: Path) -> dict | None:
    """A launcher's record, or None when it is unreadable (half written, not ours)."""
    try:
        record = json.loads(Path(path).read_text())
        for key in ("examdesk", "reaper", "kernel"):
            int(record[key]["pid"]), int(record[key]["start"])
        str(record["token"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return record


def _remove_own_record(path: Path, token: str) -> None:
    """A restart's next launcher writes the same file: remove it only while it is ours."""
    record = read_record(path)
    if record is not None and record["token"] == token:
        try:
            path.unlink()
        except OSError:
            pass


def _is(entry: dict) -> bool:
    """The recorded process still runs (same pid and start time)."""
    return start_time(int(entry["pid"])) == int(entry["start"])


def examdesk_alive(record: dict) -> bool:
    return _is(record["examdesk"])


def kill_recorded(record: dict) -> int:
    """Kill what a dead examdesk's kernel left: its launcher and kernel if they still run
    (pid and start time both match), and every process of ours started after the launcher
    that carries the kernel's token. Returns how many were killed."""
    killed = 0
    since = int(record["reaper"]["start"])
    for _ in range(3):  # a process may fork while we look: look again
        victims = {int(record[k]["pid"]) for k in ("reaper", "kernel") if _is(record[k])}
        for pid in _processes():
            if pid in victims or pid == os.getpid():
                continue
            started = start_time(pid)
            if started is not None and started >= since and _carries_token(pid, record["token"]):
                victims.add(pid)
        if not victims:
            break
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        time.sleep(0.02)
    return killed


# --- the launcher ----------------------------------------------------------------------------

def _prctl(option: int, value: int) -> bool:
    import ctypes  # here: examdesk imports this module before its first paint

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class _CappedLog:
    """The kernel's stdout and stderr, through a pipe, into the log file examdesk opened for
    them, never more than ``LOG_CAP_BYTES`` in it: full, it is renamed ``<log>.1``
    (replacing the previous one) and a new one is started."""

    def __init__(self, path: str, size: int) -> None:
        self.path = path
        self.size = size
        self.fd = os.dup(1)  # non-inheritable: the kernel only ever gets the pipe
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)

    @classmethod
    def attach(cls) -> "_CappedLog | None":
        """When our stdout and stderr are one regular file (the log examdesk opened), else
        None: the kernel then writes to them directly (a terminal, a pipe, /dev/null)."""
        try:
            out, err = os.fstat(1), os.fstat(2)
            path = os.readlink("/proc/self/fd/1")
        except OSError:
            return None
        if not stat.S_ISREG(out.st_mode) or (out.st_dev, out.st_ino) != (err.st_dev,
                                                                      err.st_ino):
            return None
        if not os.path.isabs(path) or not os.path.exists(path):  # "… (deleted)"
            return None
        return cls(path, out.st_size)

    def give_to_child(self) -> None:
        """In the forked kernel: its stdout and stderr are the pipe."""
        os.dup2(self.write_fd, 1)
        os.dup2(self.write_fd, 2)

    def close_writer(self) -> None:
        """In the launcher after the fork: end of file once the kernel's tree closes it."""
        os.close(self.write_fd)

    def pump(self, most: int = 64) -> bool:
        """Copy what the pipe holds now, at most ``most`` chunks (a kernel printing without
        end must not keep us from signals); False at end of file (no writer is left)."""
        for _ in range(most):
            try:
                chunk = os.read(self.read_fd, _CHUNK)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self.write(chunk)
        return True

    def write(self, data: bytes) -> None:
        if self.size and self.size + len(data) > LOG_CAP_BYTES:
            self._rotate()
        view = memoryview(data)
        try:
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
                self.size += written
        except OSError:  # a full disk: the output is dropped; the kernel never blocks on it
            pass

    def _rotate(self) -> None:
        try:
            os.replace(self.path, self.path + ROTATED_SUFFIX)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND
                         | os.O_CLOEXEC, 0o600)
        except OSError:  # cannot rename here: start this file again rather than grow it
            try:
                os.ftruncate(self.fd, 0)
            except OSError:
                pass
            self.size = 0
            return
        os.close(self.fd)
        self.fd, self.size = fd, 0


def _spawn(argv: list[str], env: dict[str, str], log: _CappedLog | None) -> int:
    """fork + exec, so the child dies with us (PDEATHSIG: we are single-threaded, so the
    thread that forked it is the process)."""
    me = os.getpid()
    pid = os.fork()
    if pid:
        if log is not None:
            log.close_writer()
        return pid
    try:
        if log is not None:
            log.give_to_child()
        for signum in (signal.SIGPIPE, signal.SIGXFSZ):  # Python ignores them; exec keeps that
            signal.signal(signum, signal.SIG_DFL)
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != me:  # we died between the fork and the prctl
            os._exit(1)
        os.execvpe(argv[0], argv, env)
    except BaseException as exc:  # noqa: BLE001 - in the child: say why, never return
        os.write(2, f"examdesk: cannot start the kernel {argv[0]}: {exc}\n".encode())
    os._exit(127)


def _reap() -> dict[int, int]:
    """Wait statuses of the children that ended (none block)."""
    ended = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended[pid] = status


def _kill_descendants() -> None:
    """SIGKILL everything below us until nothing is left: orphans of killed processes come
    to us (subreaper), so the loop ends when we have no child at all."""
    deadline = time.monotonic() + _KILL_DEADLINE_S
    while time.monotonic() < deadline:
        for pid in _descendants(os.getpid()):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap()
        try:
            os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        time.sleep(0.005)


def _exit_like(status: int) -> None:
    """Exit as the kernel did: its exit code, or death by its signal (no core file of ours)."""
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        _prctl(_PR_SET_DUMPABLE, 0)
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        except (ImportError, ValueError, OSError):
            pass
        if signum not in (signal.SIGKILL, signal.SIGSTOP):  # those cannot be caught
            signal.signal(signum, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
        os.kill(os.getpid(), signum)
        os._exit(128 + signum)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


class _Wakeups:
    """Signals as bytes on a pipe (``signal.set_wakeup_fd``), so one ``select`` waits for
    them and for examdesk's exit."""

    def __init__(self) -> None:
        self.read_fd, write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        os.set_blocking(write_fd, False)
        signal.set_wakeup_fd(write_fd)
        for signum in _SIGNALS:
            signal.signal(signum, lambda *_: None)  # the C handler writes the wakeup byte

    def signals(self) -> list[int]:
        try:
            return list(os.read(self.read_fd, 512))
        except BlockingIOError:
            return []


def _parent_fd(parent: int) -> int | None:
    """A pidfd that becomes readable when examdesk exits (Linux 5.3+), else None (polled)."""
    try:
        return os.pidfd_open(parent)
    except (AttributeError, OSError):
        return None


def supervise(kernel: int, parent: int, wakeups: _Wakeups, log: _CappedLog | None) -> int:
    """Until the kernel ends (its wait status) or we must kill it (SIGKILL's status); the
    kernel's output is copied into its log meanwhile."""
    parent_fd = _parent_fd(parent)
    watched = [wakeups.read_fd] + ([parent_fd] if parent_fd is not None else [])
    if log is not None:
        watched.append(log.read_fd)
    killed = int(signal.SIGKILL)  # the wait status of a process SIGKILL ended
    while True:
        ready, _, _ = select.select(watched, [], [], _PARENT_POLL_S)
        if log is not None and log.read_fd in ready and not log.pump():
            watched.remove(log.read_fd)  # every writer closed it; the kernel may run on
        for signum in wakeups.signals():
            if signum == signal.SIGUSR1:
                return killed
            if signum in (signal.SIGTERM, signal.SIGHUP):
                # Sent to our group, the kernel has it already; sent to us alone, pass it on.
                # SIGINT is not passed on: an interrupt is always sent to the group, and a
                # second one would interrupt the kernel's handling of the first.
                try:
                    os.kill(kernel, signal.SIGTERM)
                except OSError:
                    pass
        ended = _reap()
        if kernel in ended:
            return ended[kernel]
        if (parent_fd is not None and parent_fd in ready) or os.getppid() != parent:
            return killed  # examdesk is gone: nothing may outlive it


def _arguments(argv: list[str]) -> tuple[Path, list[str]]:
    if len(argv) < 4 or argv[0] != "--record" or argv[2] != "--":
        raise SystemExit("usage: kernel_reaper.py --record FILE -- KERNEL ARGV...")
    return Path(argv[1]), argv[3:]


def main(argv: list[str]) -> None:
    record_path, command = _arguments(argv)
    # jupyter_client and prelaunch set JPY_PARENT_PID to examdesk's pid; the kernel's own
    # parent poller (ipykernel) watches us instead, and we watch examdesk.
    parent = int(os.environ.get("JPY_PARENT_PID") or os.getppid())
    if os.getppid() != parent:  # examdesk died before we got here
        os._exit(1)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    wakeups = _Wakeups()
    log = _CappedLog.attach()
    token = os.urandom(16).hex()
    env = dict(os.environ, JPY_PARENT_PID=str(os.getpid()), **{TOKEN_VARIABLE: token})
    kernel = _spawn(command, env, log)
    record = {"examdesk": {"pid": parent, "start": start_time(parent) or 0},
              "reaper": {"pid": os.getpid(), "start": start_time(os.getpid()) or 0},
              "kernel": {"pid": kernel, "start": start_time(kernel) or 0},
              "token": token}
    try:
        _write_record(record_path, record)
    except OSError as exc:  # the kernel still runs; only the next launch's sweep is lost
        os.write(2, f"examdesk: cannot write {record_path}: {exc}\n".encode())
    status = supervise(kernel, parent, wakeups, log)
    try:
        os.kill(kernel, signal.SIGKILL)  # first: it is what holds the memory
    except OSError:
        pass
    _kill_descendants()
    if log is not None:  # its last words (a crash report) are in the log before we exit
        log.pump(most=LOG_CAP_BYTES // _CHUNK)
    _remove_own_record(record_path, token)
    _exit_like(status)


if __name__ == "__main__":
    main(sys.argv[1:])
