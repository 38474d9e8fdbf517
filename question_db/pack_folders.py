"""A pack folder on disk while it is written: its lock, the names of a write in progress,
and finishing a write that a crash or a kill -9 interrupted.

``interchange.pack.write_pack`` builds a pack in ``.NAME.<random>.partial`` beside its
target ``NAME`` (the same file system, so moving it is a rename). Replacing renames the old
``NAME`` to ``.NAME.replaced``, the new one to ``NAME``, then removes ``.NAME.replaced``.
The bank loader never reads a dot-folder (``bank.paper_folders``), and a process killed
between two of those steps leaves them behind: ``finish_interrupted_writes`` (at the app's
start, and before the next import into the same folder) puts the old pack back when
``NAME`` is missing and removes the rest.

Each of those steps runs under ``.NAME.lock`` (``pack_lock``), so two imports, or an import
and a start-up clean-up, never work on the same folder at once: an advisory ``flock``
(``msvcrt.locking`` on Windows) that the kernel drops when its holder dies, so the lock of a
process killed with -9 is taken over at once, with nothing to time out. The file holds the
holder's pid, for the message the other process shows. Core only: no Qt, stdlib only.
"""
from __future__ import annotations

import logging
import os
import re
import shutil
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["PackLocked", "pack_lock", "lock_path", "new_staging_folder", "aside_path",
           "finish_interrupted_write", "finish_interrupted_writes"]

log = logging.getLogger(__name__)

_STAGING_SUFFIX = ".partial"
_ASIDE_SUFFIX = ".replaced"
_LOCK_SUFFIX = ".lock"
# What a write leaves beside NAME: ".NAME.<8 random characters>.partial" (hex digits;
# ``tempfile``'s alphabet in older versions), ".NAME.replaced", ".NAME.lock" (NAME may
# itself hold dots: the suffix decides).
_LEFTOVER = re.compile(r"\.(.+)\.(?:[a-z0-9_]{8}\.partial|replaced|lock)")


class PackLocked(Exception):
    """Another process is writing (or cleaning up) this pack folder right now."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        holder = f"process {pid}" if pid else "another process"
        super().__init__(f"{folder}: {holder} is writing this pack right now; try again "
                         f"when it has finished")
        self.folder = folder
        self.pid = pid


def lock_path(folder: Path) -> Path:
    """The lock file of pack folder ``folder``: beside it, since the folder itself is
    renamed away and replaced while the lock is held."""
    return folder.with_name(f".{folder.name}{_LOCK_SUFFIX}")


def new_staging_folder(folder: Path) -> Path:
    """A new empty ``.NAME.<random>.partial`` beside ``folder``, where its pack is written.

    Made with mode 0o777 less the umask, as ``mkdir`` makes a folder: ``tempfile.mkdtemp``
    makes it 0o700, and the pack folder it becomes kept that whatever the umask.
    """
    for _ in range(100):
        # os.urandom, not secrets: secrets imports hashlib and hmac (~6 ms) before the first
        # paint (bench launch_to_library; this module is imported at launch)
        staging = folder.with_name(f".{folder.name}.{os.urandom(4).hex()}{_STAGING_SUFFIX}")
        try:
            staging.mkdir(0o777)
        except FileExistsError:
            continue
        return staging
    raise FileExistsError(f"{folder.parent}: no free temporary name for {folder.name}")


def aside_path(folder: Path) -> Path:
    """Where the old pack waits while its replacement is moved in."""
    return folder.with_name(f".{folder.name}{_ASIDE_SUFFIX}")


# --- the lock ----------------------------------------------------------------------------
if os.name == "posix":
    import fcntl

    def _try_lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError when held
else:  # pragma: no cover - Windows
    import msvcrt

    def _try_lock(fd: int) -> None:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            raise BlockingIOError(*exc.args) from exc


def _holder_pid(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:  # gone meanwhile, or locked against reading (Windows)
        return None
    return int(text) if text.isdigit() else None


def _acquire(path: Path, folder: Path) -> int | None:
    """The locked descriptor of ``path``; ``PackLocked`` when a live process holds it;
    None where the file system has no locks (then the write goes ahead unlocked)."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            _try_lock(fd)
        except BlockingIOError:
            os.close(fd)
            raise PackLocked(folder, _holder_pid(path)) from None
        except OSError as exc:  # ENOLCK, EOPNOTSUPP: a file system without locks
            os.close(fd)
            log.warning("no lock on %s (%s): writing the pack without one", path, exc)
            return None
        # The holder before us removes the file as it lets go: if that happened after we
        # opened it, we hold a lock nobody else can find; take the file at the path instead.
        try:
            current = os.stat(path)
        except FileNotFoundError:
            current = None
        if current is not None and os.path.samestat(os.fstat(fd), current):
            try:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode("ascii"))
            except OSError as exc:  # a full disk: an inode was free, a block for the pid not
                path.unlink(missing_ok=True)  # ours, and still locked: as pack_lock lets go
                os.close(fd)
                if exc.filename is None:
                    exc.filename = str(path)
                raise
            return fd
        os.close(fd)


@contextmanager
def pack_lock(folder: Path | str) -> Iterator[None]:
    """Hold pack folder ``folder``'s lock for the block, without waiting: ``PackLocked``
    (naming the holder's pid) when another live process holds it. The lock of a dead
    process is free (the kernel dropped it with the process) and simply taken."""
    folder = Path(folder)
    path = lock_path(folder)
    fd = _acquire(path, folder)
    try:
        yield
    finally:
        if fd is not None:
            try:
                path.unlink()  # while still locked: see _acquire for who might wait
            except OSError:  # Windows cannot remove an open file: it stays, unlocked
                pass
            os.close(fd)


# --- leftovers ---------------------------------------------------------------------------
def _remove(path: Path) -> None:
    """Remove a leftover of ours: a folder we wrote, or a link that stood for the pack (the
    link only, never what it points to)."""
    info = path.lstat()
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(path)
    else:
        path.unlink()


def finish_interrupted_write(folder: Path) -> list[str]:
    """For pack folder ``folder``, with its lock held by the caller: put ``.NAME.replaced``
    back when ``NAME`` is missing (killed between the two renames of a replace: the old
    pack is the one the learner had), then remove every ``.NAME.*.partial`` and any
    ``.NAME.replaced`` left. Returns one line per thing done (for the log)."""
    done: list[str] = []
    aside = aside_path(folder)
    if os.path.lexists(aside) and not os.path.lexists(folder):
        os.replace(aside, folder)
        done.append(f"{folder}: restored from {aside.name} (a replace was interrupted)")
    prefix = f".{folder.name}."
    for entry in sorted(os.listdir(folder.parent)):
        if entry.startswith(prefix) and entry.endswith(_STAGING_SUFFIX) and \
                _LEFTOVER.fullmatch(entry):
            _remove(folder.parent / entry)
            done.append(f"{folder}: removed {entry} (an unfinished write)")
    if os.path.lexists(aside):
        _remove(aside)
        done.append(f"{folder}: removed {aside.name} (the pack it replaced)")
    return done


def finish_interrupted_writes(root: Path | str) -> list[str]:
    """In ``root`` (a folder of packs), for every pack with leftovers of a write that did
    not finish: ``finish_interrupted_write`` under its lock. A pack another process is
    writing now is left alone (its files are not leftovers). A scan of ``root`` when there
    is nothing to do. Returns one line per thing done, also logged."""
    root = Path(root)
    try:
        entries = os.listdir(root)
    except OSError:
        return []
    names = {m.group(1) for entry in entries if (m := _LEFTOVER.fullmatch(entry))}
    done: list[str] = []
    for name in sorted(names):
        folder = root / name
        try:
            with pack_lock(folder):
                done += finish_interrupted_write(folder)
        except PackLocked:
            continue
        except OSError as exc:  # a read-only folder: the loader skips dot-folders anyway
            done.append(f"{folder}: could not finish an interrupted write: {exc}")
    for line in done:
        log.warning("%s", line)
    return done
