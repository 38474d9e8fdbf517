"""`question-db import` end to end, as a subprocess (the entry point's code path), then
`validate` and `export --format json` on the draft it wrote."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from conftest import REPO
from test_import_seeds import SEEDS


def run(*args):
    return subprocess.run([sys.executable, "-m", "question_db", *map(str, args)],
                          capture_output=True, text=True, cwd=REPO)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    root = tmp_path_factory.mktemp("packs")
    seed = next(SEEDS.glob("000_*.txt"))
    proc = run("import", seed, "--out", root / "draft", "--id", "mine")
    return root, proc


def test_import_prints_a_summary(imported):
    root, proc = imported
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"as 'mine' into {root / 'draft'}" in out and "(read as utf-8)" in out
    assert "questions: 34 (single_choice 15, fill_blank 10, multiple_choice 5, " \
           "short_answer 3, programming 1), 125 points, all status=draft" in out
    assert "code blocks not compiling: 1" in out  # q34's `3dim` (flagged)
    assert "deleted_operator" in out and "lost_math" in out
    assert "truncated: question 34 (cut after …self.mlp = nn.Sequential()" in out


def test_validate_and_export_accept_the_draft(imported):
    root, _ = imported
    proc = run("--papers", root, "validate", root / "draft")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 paper(s), 34 question(s), 0 problem(s)" in proc.stderr
    proc = run("--papers", root, "export", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    paper = next(p for p in json.loads(proc.stdout)["papers"] if p["id"] == "mine")
    last = paper["questions"][-1]
    assert last["truncated"] is True and last["truncated_at"] == "self.mlp = nn.Sequential("
    assert {f["kind"] for f in last["review"]} >= {"deleted_operator", "truncated"}
    assert paper["questions"][0]["seed_answer"] == "A" == paper["questions"][0]["answer"]


def test_existing_pack_is_kept_unless_replace(imported, tmp_path):
    root, _ = imported
    seed = next(SEEDS.glob("001_*.txt"))
    before = sorted(p.name for p in (root / "draft").iterdir())
    proc = run("import", seed, "--out", root / "draft")
    assert proc.returncode == 2 and "already exists" in proc.stderr
    assert "nothing was written" in proc.stderr
    assert sorted(p.name for p in (root / "draft").iterdir()) == before
    proc = run("import", seed, "--out", root / "draft", "--replace", "--title", "第二套")
    assert proc.returncode == 0, proc.stderr
    assert "imported '第二套'" in proc.stdout
    assert len(list((root / "draft").glob("q*.toml"))) == 31


@pytest.mark.parametrize("content,message", [
    (b"", "is empty"),
    (b"\x00\x00\x00\x01 binary" * 50, "looks like a binary file"),
    ("只有说明文字，没有任何题号。".encode(), "no numbered questions found"),
    (b"\x81\x30\x81\xff\x80\x80", "is neither UTF-8 nor GB18030"),
])
def test_unreadable_input_exits_nonzero_and_writes_nothing(tmp_path, content, message):
    path = tmp_path / "in.txt"
    path.write_bytes(content)
    proc = run("import", path, "--out", tmp_path / "out")
    assert proc.returncode == 2
    assert f"question-db import: {path}: " in proc.stderr and message in proc.stderr
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["in.txt"]  # no staging folder left


def test_format_not_available_is_a_clear_error(tmp_path):
    path = tmp_path / "quiz.xml"
    path.write_text("<quiz></quiz>", encoding="utf-8")
    proc = run("import", path, "--out", tmp_path / "out", "--format", "moodle-xml")
    if importlib.util.find_spec("question_db.interchange.moodle") is None:
        assert proc.returncode == 2 and "moodle-xml importer is not available" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert (proc.returncode == 0) == (tmp_path / "out").exists()  # a pack or nothing
