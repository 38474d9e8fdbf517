"""Where examdesk keeps the learner's data (platformdirs; overridable)."""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ENV_DATA_DIR", "BUNDLED_PAPERS", "PROGRESS_FILE", "CACHE_DIR",
           "SEARCH_INDEX_FILE", "data_dir", "user_papers_dir", "bank_cache_dir",
           "installed_paper_roots", "progress_path", "search_index_path"]

ENV_DATA_DIR = "EXAMDESK_DATA_DIR"
BUNDLED_PAPERS = Path(__file__).parent / "papers"  # the papers shipped with examdesk
PROGRESS_FILE = "progress.sqlite3"
CACHE_DIR = "cache"  # copies that can be rebuilt from the bank: the bank cache, the index
SEARCH_INDEX_FILE = "search.sqlite3"


def data_dir(override: str | os.PathLike | None = None) -> Path:
    """``override`` (--data-dir) > $EXAMDESK_DATA_DIR > the platform's user data dir."""
    if override:
        return Path(override).expanduser()
    if os.environ.get(ENV_DATA_DIR):
        return Path(os.environ[ENV_DATA_DIR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("examdesk", appauthor=False))


def user_papers_dir(base: Path) -> Path:
    """Extra question packs the learner installed."""
    return base / "papers"


def bank_cache_dir(data_dir: Path) -> Path:
    """The parsed bank's cache (``bank_cache.py``), and other caches derived from the bank."""
    return Path(data_dir) / "cache"


def installed_paper_roots(data_dir: Path) -> list[Path]:
    """The folders of packs beside the bundled papers (the learner's ``papers/``, if any)."""
    papers = user_papers_dir(Path(data_dir))
    return [papers] if papers.is_dir() else []


def progress_path(data_dir: Path) -> Path:
    """The progress database in a data folder."""
    return Path(data_dir) / PROGRESS_FILE


def search_index_path(data_dir: Path) -> Path:
    """The search index of a data folder: a cache, rebuilt whenever it is missing."""
    return Path(data_dir) / CACHE_DIR / SEARCH_INDEX_FILE
