"""The log file (question_db/logs.py): under the data folder, rotated, versions first."""
from __future__ import annotations

import logging
from importlib import metadata

import pytest

from question_db import logs


@pytest.fixture
def root_logger():
    """The root logger as it was: the handlers a test adds are removed and closed."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def test_the_log_starts_with_the_versions_then_what_came_before(tmp_path, root_logger):
    early = logs.collect_early_records()
    logging.getLogger("examdesk.test").info("before the file opened")
    handler = logs.start_file_log(tmp_path, early=early)
    logging.getLogger("examdesk.test").warning("after")
    handler.flush()
    lines = logs.log_file(tmp_path).read_text("utf-8").splitlines()
    assert logs.log_file(tmp_path) == tmp_path / "logs" / "examdesk.log"
    assert "examdesk started" in lines[0]
    for name in (f"examdesk {metadata.version('examdesk')}", "python 3.",
                 "torch (this environment)", "platform"):
        assert name in lines[0]
    assert lines[1].endswith("examdesk.test: before the file opened")
    assert lines[2].endswith("examdesk.test: after") and " WARNING " in lines[2]
    assert len(lines) == 3  # no record twice
    assert early.target is handler and not early.records  # it forwards from now on
    assert handler not in root_logger.handlers  # through early only: no line twice
    assert logs.start_file_log(tmp_path) is handler  # once per file


def test_the_log_rotates_at_its_size_limit(tmp_path, root_logger):
    handler = logs.start_file_log(tmp_path, max_bytes=2000, backups=2)
    writer = logging.getLogger("examdesk.test")
    for i in range(200):
        writer.info("line %03d %s", i, "x" * 40)
    handler.flush()
    folder = tmp_path / "logs"
    assert sorted(p.name for p in folder.iterdir()) == [
        "examdesk.log", "examdesk.log.1", "examdesk.log.2"]  # older ones dropped
    assert all(p.stat().st_size <= 2000 for p in folder.iterdir())
    assert "line 199" in (folder / "examdesk.log").read_text("utf-8")
    assert "line 000" not in "".join(p.read_text("utf-8") for p in folder.iterdir())


def test_an_unwritable_folder_means_no_log_file_not_an_error(tmp_path, root_logger):
    blocked = tmp_path / "a_file"
    blocked.write_text("x")
    assert logs.start_file_log(blocked) is None
