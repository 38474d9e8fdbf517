"""The bank cache's key: a fingerprint of every file the loader would read.

One ``stat`` per file: 5,700 of them for 100 imported papers, 30–50 ms on the 2-core
machine the benchmarks run on, almost all of it in the system calls, on the UI thread
before the library can be shown. Threads do not help (the per-file Python work needs the
GIL: measured slower with 2–4 threads), a second process does: ``KeyPrefetch`` runs this
file as a script in a child process that the launcher starts before Qt's widget modules
and the app are imported (~200 ms of work), so the walk runs on another core meanwhile and
the window only reads 33 bytes from a pipe (bench: launch_to_library_5000).

Stdlib only, no package imports: the child runs it with ``python -I -S`` (no site, no
examdesk on the path), and the parent imports it without hashlib (OpenSSL, ~7 ms).
"""
from __future__ import annotations

import json
import os
import signal
import sys
from typing import Sequence

__all__ = ["fingerprint_files", "KeyPrefetch"]


def _files(root: str, out: list[str]) -> None:
    """``'path'|size|mtime`` of every file under ``root`` into ``out`` (strings, not tuples:
    5,000 tuples would wake the garbage collector). Symlinked folders are followed, as the
    loader follows them (each real folder once: a link cycle ends)."""
    stack = [root]
    seen = {os.path.realpath(root)}
    while stack:
        try:
            entries = os.scandir(stack.pop())
        except OSError:  # not a folder, or unreadable: the loader says what is wrong
            continue
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir():
                        if entry.is_symlink():
                            real = os.path.realpath(entry.path)
                            if real in seen:
                                continue
                            seen.add(real)
                        stack.append(entry.path)
                        continue
                    st = entry.stat()
                except OSError:  # vanished meanwhile, a dangling link: the parse will say
                    continue
                out.append(f"{entry.path!r}|{st.st_size}|{st.st_mtime_ns}")  # repr: one line


def fingerprint_files(header: str, sources: Sequence[str], roots: Sequence[str]) -> str:
    """32 hex digits that change whenever ``header`` does, or any of the ``sources`` files
    or any file under the ``roots`` is added, removed, renamed, resized or touched."""
    import hashlib  # here: a launch whose key came from the child never loads OpenSSL

    lines = [header]
    for source in sources:
        st = os.stat(source)
        lines.append(f"{source}|{st.st_size}|{st.st_mtime_ns}")
    for root in roots:
        files: list[str] = []
        _files(root, files)
        files.sort()
        lines.append(f"root {root!r}")
        lines += files
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()[:32]


class KeyPrefetch:
    """``fingerprint_files(*args)``, computed by a child process started at construction
    where the platform spawns one cheaply (``os.posix_spawn``: Linux, macOS; no
    ``subprocess`` import either), else (Windows, a frozen build, a failed spawn) in this
    process when first asked. ``key()`` waits for the child; whatever goes wrong in it, the
    key is computed here instead: a prefetch can make a launch slower, never wrong.

    The key is the files' state when the child walked them, a fraction of a second before
    the cache is read: the same race as walking and then reading, a little wider.
    """

    def __init__(self, header: str, sources: Sequence[str], roots: Sequence[str]) -> None:
        self.args = (header, list(sources), list(roots))
        self._pid: int | None = None
        self._fd: int | None = None
        self._key: str | None = None
        self.spawned = False  # whether a child process computes the key
        if hasattr(os, "posix_spawn") and not getattr(sys, "frozen", False):
            self._spawn()

    def _spawn(self) -> None:
        try:
            read, write = os.pipe()
        except OSError:  # out of file descriptors: computed here
            return
        try:
            self._pid = os.posix_spawn(
                sys.executable, [sys.executable, "-I", "-S", __file__, json.dumps(self.args)],
                os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, write, 1),
                                          (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
        except OSError:  # no interpreter to run (an unusual install): computed here
            os.close(read)
        else:
            self._fd, self.spawned = read, True
        finally:
            os.close(write)

    def key(self) -> str:
        """The fingerprint: the child's if it wrote one, else computed now."""
        if self._key is None:
            self._key = self._read_child() or fingerprint_files(*self.args)
        return self._key

    def _read_child(self) -> str | None:
        if self._fd is None:
            return None
        chunks = []
        try:
            while chunk := os.read(self._fd, 64):
                chunks.append(chunk)
        except OSError:
            chunks = []
        self._release(kill=False)  # the pipe's end: the child has written and is exiting
        text = b"".join(chunks).decode("ascii", "replace").strip()
        if len(text) == 32 and all(c in "0123456789abcdef" for c in text):
            return text
        return None

    def close(self) -> None:
        """Release the pipe and the child, key or not: a child still walking is killed (it
        holds nothing but the walk) and reaped, so no process is left behind."""
        self._release(kill=True)

    def _release(self, kill: bool) -> None:
        """Close the pipe and reap the child (first killed if ``kill`` and still running)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self._pid is None:
            return
        pid, self._pid = self._pid, None
        try:
            if kill:
                ended, _status = os.waitpid(pid, os.WNOHANG)
                if ended:
                    return
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass


def _main(argv: list[str]) -> int:
    header, sources, roots = json.loads(argv[1])
    sys.stdout.write(fingerprint_files(header, sources, roots) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv))
