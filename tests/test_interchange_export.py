"""``question-db export --format json|apkg|moodle-xml|gift --out FILE [PAPER_ID…]``: each
format's file, warnings on stderr as file:question:field, paper selection, and exports
written whole or not at all."""
from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys
import zipfile

import pytest

from question_db.cli import main
from question_db.interchange.anki import read_apkg
from question_db.interchange.exporters import EXPORT_FORMATS, export_papers
from question_db.interchange.gift import read_gift
from question_db.interchange.moodle import read_moodle_xml
from question_db.atomic_file import atomic_path
from question_db.bank import load_bank

WARNING = re.compile(r"^(?P<file>[^:]+\.toml):(?P<q>\d{3}/\d+):(?P<field>[\w.\[\]]+): "
                     r"(?P<fmt>apkg|moodle-xml|gift): .+$")


@pytest.mark.parametrize("fmt", ["apkg", "moodle-xml", "gift", "json"])
def test_each_format_writes_a_file_its_reader_understands(fmt, tmp_path, capsys):
    out = tmp_path / f"export.{fmt}"
    assert main(["export", "--format", fmt, "--out", str(out), "000", "001"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"wrote 65 question(s) from 2 paper(s) to {out} ({fmt};")
    warnings = err[:-1]
    assert all(WARNING.match(line) for line in warnings), warnings[:3]
    if fmt == "apkg":
        assert len(read_apkg(out).notes) == 65
    elif fmt == "moodle-xml":
        assert len(read_moodle_xml(out).paper.questions) == 57  # 8 void ones: descriptions
    elif fmt == "gift":
        assert len(read_gift(out).paper.questions) == 57
    else:
        assert [p["id"] for p in json.loads(out.read_text("utf-8"))["papers"]] == ["000", "001"]
        assert not warnings


def test_selected_papers_only(tmp_path, capsys):
    out = tmp_path / "one.xml"
    assert main(["export", "--format", "moodle-xml", "--out", str(out), "001"]) == 0
    assert "from 1 paper(s)" in capsys.readouterr().err
    assert len(read_moodle_xml(out).paper.questions) == 31


def test_unknown_paper_and_missing_out_are_refused(tmp_path, capsys):
    assert main(["export", "--format", "gift", "--out", str(tmp_path / "x"), "009"]) == 2
    assert "no paper '009' (known: 000, 001, drills)" in capsys.readouterr().err
    assert main(["export", "--format", "apkg"]) == 2
    assert "--format apkg needs --out FILE" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_installed_command_path(tmp_path):
    out = tmp_path / "deck.apkg"
    proc = subprocess.run([sys.executable, "-m", "question_db", "export", "--format", "apkg",
                           "--out", str(out), "000"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert any(WARNING.match(line) for line in proc.stderr.splitlines())
    assert {n.deck for n in read_apkg(out).notes} == {"examdesk::2025年人工智能工程师认证考试试卷"}


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_a_failure_mid_write_never_replaces_a_good_export(fmt, tmp_path, monkeypatch):
    papers = load_bank().papers
    out = tmp_path / "export.file"
    out.write_bytes(b"the good export")

    def fail_halfway(self, data):  # the disk fills up half-way through the file
        with open(self, "wb") as fh:
            fh.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    def fail_in_zip(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "write_bytes", fail_halfway)
    monkeypatch.setattr(zipfile.ZipFile, "writestr", fail_in_zip)
    with pytest.raises(OSError):
        export_papers(fmt, papers, out)
    assert out.read_bytes() == b"the good export"
    assert [p.name for p in tmp_path.iterdir()] == ["export.file"]  # no partial file left


def test_atomic_path_replaces_only_on_success(tmp_path):
    out = tmp_path / "f.txt"
    with atomic_path(out) as partial:
        partial.write_text("new", "utf-8")
        assert not out.exists()
    assert out.read_text("utf-8") == "new" and oct(out.stat().st_mode & 0o777) == "0o644"
    with pytest.raises(RuntimeError):
        with atomic_path(out) as partial:
            partial.write_text("half", "utf-8")
            raise RuntimeError("boom")
    assert out.read_text("utf-8") == "new" and len(list(tmp_path.iterdir())) == 1
