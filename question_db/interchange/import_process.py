"""An importer run in a child process, so a file that blows up cannot take the caller down
(issue 28, item 3: the desktop ran importers on a thread of the window's process, where a
zip bomb or a pathological PDF could take all its memory).

``import_file_isolated`` / ``import_pasted_isolated`` run ``importers.import_file`` /
``import_pasted`` in a fresh interpreter (``python -c``: nothing of the caller's Qt state,
threads or ``__main__`` is copied or imported again) whose address space is capped on
Linux (``RLIMIT_AS``), and bring the ``ImportResult`` back through a file in a private
temporary folder. An importer's own refusal (``UnreadableInput`` …) comes back as
``ImportRefused`` with the same text; a child that ran out of memory, was killed, crashed
or overran its time is ``ImporterFailed``, whose text names the input and what happened.
A caller's ``cancel`` event stops the child at once (``ImportCancelled``).
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from .pack import ImportResult

__all__ = ["MEMORY_LIMIT_BYTES", "TIMEOUT_S", "ImportRefused", "ImporterFailed",
           "ImportCancelled", "import_file_isolated", "import_pasted_isolated", "child_main"]

# Address space, not resident memory: the interpreter and the importers' libraries take
# ~50 MiB of it before reading anything (measured: a .docx paper peaks at 42 MiB);
# pdfminer on a long PDF takes a few hundred MiB more.
MEMORY_LIMIT_BYTES = 2 * 2**30
TIMEOUT_S = 300.0
_PARENT_POLL_S = 1.0
_CANCEL_POLL_S = 0.05  # how soon a cancel stops the child: below what a person notices
# The child: the request and the parent's sys.path from argv[1], the result to argv[2].
_CHILD_CODE = ("import pickle, sys\n"
               "with open(sys.argv[1], 'rb') as f:\n"
               "    request = pickle.load(f)\n"
               "sys.path[:0] = request['path']\n"
               "from question_db.interchange.import_process import child_main\n"
               "child_main(request, sys.argv[2])\n")


class ImportRefused(ValueError):
    """The importer refused the input (damaged, oversized, not a paper): ``str()`` is its
    message, naming the file and the reason."""


class ImporterFailed(RuntimeError):
    """The importer's process ended without an answer; ``str()`` says how, naming the input."""


class ImportCancelled(RuntimeError):
    """The caller cancelled the import; the child was stopped and nothing was written."""


def import_file_isolated(path: Path | str, *, memory_limit: int = MEMORY_LIMIT_BYTES,
                         timeout: float = TIMEOUT_S,
                         cancel: threading.Event | None = None) -> ImportResult:
    """``importers.import_file(path)`` in a child process."""
    return _run("import_file", Path(path), str(path), memory_limit, timeout, cancel)


def import_pasted_isolated(text: str, *, memory_limit: int = MEMORY_LIMIT_BYTES,
                           timeout: float = TIMEOUT_S,
                           cancel: threading.Event | None = None) -> ImportResult:
    """``importers.import_pasted(text)`` in a child process."""
    return _run("import_pasted", text, "the pasted text", memory_limit, timeout, cancel)


def _wait(child: subprocess.Popen, what: str, timeout: float,
          cancel: threading.Event | None) -> None:
    """Until the child ends; ``ImportCancelled`` / ``ImporterFailed`` when cancelled or
    late (the caller kills the child)."""
    if cancel is None:
        try:
            child.wait(timeout)
        except subprocess.TimeoutExpired:
            raise ImporterFailed(f"{what}: the importer did not finish within "
                                 f"{timeout:.0f} s and was stopped") from None
        return
    deadline = time.monotonic() + timeout
    while child.poll() is None:
        if cancel.wait(_CANCEL_POLL_S):
            raise ImportCancelled(f"{what}: import cancelled; nothing was written")
        if time.monotonic() > deadline:
            raise ImporterFailed(f"{what}: the importer did not finish within "
                                 f"{timeout:.0f} s and was stopped")


def _run(function: str, argument: Any, what: str, memory_limit: int,
         timeout: float, cancel: threading.Event | None = None) -> ImportResult:
    with tempfile.TemporaryDirectory(prefix="examdesk-import-") as folder:
        request_path, result_path = Path(folder) / "request", Path(folder) / "result"
        with open(request_path, "wb") as fh:
            pickle.dump({"function": function, "argument": argument, "parent": os.getpid(),
                         "memory_limit": memory_limit,
                         "path": [p for p in sys.path if p]}, fh)
        child = subprocess.Popen([sys.executable, "-c", _CHILD_CODE, str(request_path),
                                  str(result_path)], stdin=subprocess.DEVNULL)
        try:
            _wait(child, what, timeout, cancel)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        if not result_path.exists():  # written last, by a rename: the child did not get there
            raise ImporterFailed(_how_it_ended(what, child.returncode))
        with open(result_path, "rb") as fh:
            status, payload = pickle.load(fh)
    if status == "ok":
        return payload
    if status == "memory":
        raise ImporterFailed(_out_of_memory(what, memory_limit))
    raise ImportRefused(payload)


def _size(size: int) -> str:
    return f"{size / 2**30:.1f} GiB" if size >= 2**30 else f"{size / 2**20:.0f} MiB"


def _out_of_memory(what: str, memory_limit: int) -> str:
    return (f"{what}: the importer ran out of memory (its limit is {_size(memory_limit)}); "
            f"the file is too large or damaged (a zip bomb?)")


def _how_it_ended(what: str, returncode: int | None) -> str:
    if returncode is not None and returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        if name == "SIGKILL":  # what the out-of-memory killer sends
            return (f"{what}: the importer was killed (SIGKILL), most likely for using too "
                    f"much memory; the file is too large or damaged (a zip bomb?)")
        return f"{what}: the importer crashed ({name}) while reading it"
    if returncode:
        return f"{what}: the importer stopped with exit status {returncode} while reading it"
    return f"{what}: the importer ended without an answer"


# --- in the child --------------------------------------------------------------------------

def _limit_memory(limit: int) -> None:
    """Cap this process's address space (Linux: RLIMIT_AS is what malloc and mmap obey;
    macOS does not enforce it)."""
    if not sys.platform.startswith("linux"):
        return
    import resource

    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        pass


def _exit_with_parent(parent: int) -> None:
    """The window that asked is gone (quit, killed): stop, rather than read on for nobody."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="examdesk-import-parent", daemon=True).start()


def _out_of_address_space(exc: ImportError) -> bool:
    text = str(exc).lower()
    return "failed to map segment" in text or "cannot allocate memory" in text


def child_main(request: dict, result_path: str) -> None:
    """Run the requested importer; write ("ok", result), ("error", text) or ("memory",
    None) to ``result_path`` (atomically: a child that dies leaves no result)."""
    _exit_with_parent(int(request["parent"]))
    from . import importers  # the code before the limit: the budget is the paper's

    _limit_memory(int(request["memory_limit"]))
    try:
        outcome: tuple = ("ok", getattr(importers, request["function"])(request["argument"]))
    except MemoryError:
        outcome = ("memory", None)  # what was built is dropped with the frame
    except ImportError as exc:
        # a reader's module (pdfminer, docx) loaded under the limit: its shared library
        # could not be mapped, which is the memory running out too
        outcome = (("memory", None) if _out_of_address_space(exc)
                   else ("error", str(exc) or type(exc).__name__))
    except BaseException as exc:  # noqa: BLE001 - every refusal goes back as text
        outcome = ("error", str(exc) or type(exc).__name__)
    partial = result_path + ".partial"
    try:
        with open(partial, "wb") as fh:
            pickle.dump(outcome, fh)
        os.replace(partial, result_path)
    except (MemoryError, OSError, pickle.PicklingError):
        os._exit(3)  # the parent reports a child that ended without an answer
