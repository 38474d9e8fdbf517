"""examdesk's log file: ``<data>/logs/examdesk.log``, rotated at 1 MiB, five old files kept.

The GUI is started from a launcher with no terminal, so its log must be a file the learner
can attach to a report. Opening it costs ~35 ms of imports (``logging.handlers``,
``importlib.metadata`` for the versions), which a GUI does after its first paint:
``EarlyRecords`` keeps what is logged before then and ``start_file_log`` writes it first.
Qt-free: the CLI uses the same file.
"""
from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

__all__ = ["LOG_DIR", "LOG_FILE", "MAX_BYTES", "BACKUP_COUNT", "FORMAT", "log_file",
           "EarlyRecords", "collect_early_records", "versions", "start_file_log"]

if TYPE_CHECKING:
    from logging.handlers import RotatingFileHandler

LOG_DIR = "logs"
LOG_FILE = "examdesk.log"
MAX_BYTES = 1024 * 1024
BACKUP_COUNT = 5
FORMAT = "%(asctime)s %(process)d %(threadName)s %(levelname)s %(name)s: %(message)s"

log = logging.getLogger(__name__)


def log_file(data_dir: Path) -> Path:
    """The current log file of a data folder (older ones are ``examdesk.log.1`` … ``.5``)."""
    return Path(data_dir) / LOG_DIR / LOG_FILE


class EarlyRecords(logging.Handler):
    """On the root logger from start-up: keeps the first ``limit`` records until the log file
    opens, then hands them over and forwards every later record to it (one handler all
    along, so no record is lost or doubled while another thread logs)."""

    def __init__(self, limit: int = 2000) -> None:
        super().__init__(logging.DEBUG)
        self.limit = limit
        self.records: list[logging.LogRecord] = []
        self.dropped = 0
        self.target: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:  # called under self.lock
        if self.target is not None:
            if record.levelno >= self.target.level:
                self.target.handle(record)
        elif len(self.records) < self.limit:
            self.records.append(record)
        else:
            self.dropped += 1

    def forward_to(self, target: logging.Handler) -> None:
        """Write the kept records to ``target`` now, and every later one as it comes."""
        with self.lock:  # a record logged meanwhile waits, then follows the kept ones
            self.target = target
            for record in self.records:
                if record.levelno >= target.level:
                    target.handle(record)
            self.records.clear()

    def close(self) -> None:
        with self.lock:
            if self.target is not None:
                self.target.close()
        super().close()


def collect_early_records(level: int = logging.INFO) -> EarlyRecords:
    """Start keeping records for ``start_file_log`` (the root logger, at ``level`` or below)."""
    early = EarlyRecords()
    root = logging.getLogger()
    if root.getEffectiveLevel() > level:
        root.setLevel(level)
    root.addHandler(early)
    return early


def versions() -> dict[str, str]:
    """What a bug report needs to know, read without importing torch (it may not even be
    the console's torch: a kernel can run in another environment)."""
    from importlib import metadata
    import platform

    found = {"examdesk": "", "python": platform.python_version(), "platform": platform.platform()}
    for name, dist in (("examdesk", "examdesk"), ("torch (this environment)", "torch")):
        try:
            found[name] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def start_file_log(data_dir: Path, *, extra_versions: Mapping[str, str] | None = None,
                   early: EarlyRecords | None = None, level: int = logging.INFO,
                   max_bytes: int = MAX_BYTES, backups: int = BACKUP_COUNT,
                   ) -> RotatingFileHandler | None:
    """Log to ``log_file(data_dir)`` from now on (the root logger, at ``level`` or below).

    Writes a first line with the versions (``versions()`` plus ``extra_versions``, e.g.
    Qt's), then the ``early`` records; ``early`` forwards to the file from then on.
    Idempotent per file. None, with a warning on the other handlers, when the folder
    cannot be written.
    """
    from logging.handlers import RotatingFileHandler

    path = log_file(data_dir)
    root = logging.getLogger()
    for handler in root.handlers:
        target = handler.target if isinstance(handler, EarlyRecords) else handler
        if isinstance(target, RotatingFileHandler) and \
                target.baseFilename == os.path.abspath(path):
            return target
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups,
                                      encoding="utf-8")
    except OSError as exc:
        log.warning("no log file in %s: %s", path.parent, exc)
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(level)
    if root.getEffectiveLevel() > level:
        root.setLevel(level)
    described = {**versions(), **(extra_versions or {})}
    handler.handle(log.makeRecord(
        log.name, logging.INFO, __file__, 0, "examdesk started (pid %d, %s): %s",
        (os.getpid(), " ".join(sys.argv[1:]) or "no arguments",
         ", ".join(f"{k} {v}" for k, v in described.items())), None))
    if early is not None and early in root.handlers:
        early.forward_to(handler)
        if early.dropped:
            log.warning("%d log records from before the log file opened were dropped",
                        early.dropped)
    else:
        root.addHandler(handler)
    return handler
