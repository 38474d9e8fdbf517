"""`question-db import` and `export` when the output cannot be written, and Moodle files
whose embedded images have names no file system takes (issue 28, item 7).

Each fault is real: a path under a regular file (ENOTDIR), a folder name longer than the
file system allows, a file size limit (RLIMIT_FSIZE: EFBIG), a folder the user cannot write
(EACCES; not as root, whom permission bits do not stop), and, where the tests run as root, a
read-only tmpfs (EROFS) and a 64 KiB tmpfs filled up (ENOSPC). Each ends with a message that
names the path and the reason, a non-zero exit, and the pack or export that was there before
unchanged byte for byte.
"""
from __future__ import annotations

import base64
import contextlib
import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

import pytest

from conftest import REPO
from pack_write_driver import draft
from question_db.interchange.drafts import DraftCollector
from question_db.interchange.moodle import read_moodle_xml
from question_db.interchange.pack import PackInvalid, write_pack

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def run_cli(*args: object, file_size_limit: int | None = None
            ) -> subprocess.CompletedProcess:
    def limit() -> None:  # in the child: EFBIG instead of SIGXFSZ past the limit
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return subprocess.run([sys.executable, "-m", "question_db", *map(str, args)],
                          capture_output=True, text=True, cwd=REPO, timeout=120,
                          preexec_fn=limit if file_size_limit is not None else None)


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def moodle_xml(image_name: str, data: bytes = PNG, *, old_style: bool = False) -> str:
    """Two questions; the first shows an image embedded under ``image_name``."""
    encoded = base64.b64encode(data).decode("ascii")
    quoted = image_name.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    if old_style:  # Moodle 1.9: <image> + <image_base64>
        first = (f"<questiontext format='html'><text>Which flag?</text></questiontext>"
                 f"<image>{quoted}</image><image_base64>{encoded}</image_base64>")
    else:
        first = (f"<questiontext format='html'><text><![CDATA[<p>Which flag?</p><p><img "
                 f"src=\"@@PLUGINFILE@@/{quote(image_name)}\" alt=\"a flag\"></p>]]></text>"
                 f"<file name=\"{quoted}\" path=\"/\" encoding=\"base64\">{encoded}</file>"
                 f"</questiontext>")
    return (f"<?xml version='1.0' encoding='UTF-8'?>\n<quiz>\n"
            f"<question type='multichoice'><name><text>Flag</text></name>{first}"
            f"<single>true</single><answer fraction='0'><text>Red</text></answer>"
            f"<answer fraction='100'><text>Blue</text></answer></question>\n"
            f"<question type='multichoice'><name><text>Two</text></name>"
            f"<questiontext format='html'><text>Second?</text></questiontext>"
            f"<single>true</single><answer fraction='100'><text>Yes</text></answer>"
            f"<answer fraction='0'><text>No</text></answer></question>\n</quiz>\n")


@pytest.fixture
def quiz(tmp_path) -> Path:
    """A Moodle file with a 64 KiB image: more than the small disks below hold."""
    path = tmp_path / "input" / "quiz.xml"
    path.parent.mkdir()
    path.write_text(moodle_xml("flag.png", PNG + os.urandom(64 << 10)), encoding="utf-8")
    return path


def assert_refused(proc: subprocess.CompletedProcess, out: Path, reason: str) -> None:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert f"question-db import: {out}: cannot write the pack: {reason}" in proc.stderr, \
        proc.stderr
    assert "nothing was written" in proc.stderr


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``path`` for the block (root only)."""
    if not IS_ROOT:
        pytest.skip("mounting a tmpfs needs root (the read-only and full-disk cases)")
    path.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs",
                           str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def fill(folder: Path) -> None:
    """Fill the disk holding ``folder`` until it refuses another byte."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while os.write(fd, bytes(512)):
            pass
    except OSError as exc:
        assert exc.errno == errno.ENOSPC, exc
    finally:
        os.close(fd)


# --- the output folder ----------------------------------------------------------------------
@pytest.mark.parametrize("under", ["notes.txt/pack", "notes.txt/deeper/pack"])
def test_out_under_a_regular_file(tmp_path, quiz, under):
    """Regression: FileExistsError / NotADirectoryError tracebacks from the parent mkdir."""
    (tmp_path / "notes.txt").write_text("my notes\n")
    out = tmp_path / under
    proc = run_cli("import", quiz, "--out", out)
    assert_refused(proc, out, f"{tmp_path / 'notes.txt'} is a file, not a folder")
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
    assert listing(tmp_path) == ["input", "notes.txt"]


@pytest.mark.parametrize("length", [300, 240])
def test_out_folder_name_longer_than_the_file_system_allows(tmp_path, quiz, length):
    """Regression: an ENAMETOOLONG traceback from creating the lock file (300), or from the
    staging folder ``.NAME.<random>.partial`` whose name is 18 bytes longer (240)."""
    out = tmp_path / ("p" * length)
    proc = run_cli("import", quiz, "--out", out)
    assert_refused(proc, out, f"the folder name is {length} bytes long; at most 237 leave "
                              f"room for the temporary name it is written under first")
    assert listing(tmp_path) == ["input"]


def test_out_under_a_folder_name_longer_than_the_file_system_allows(tmp_path, quiz):
    out = tmp_path / ("q" * 300) / "pack"
    proc = run_cli("import", quiz, "--out", out)
    assert_refused(proc, out, f"the name {'q' * 40 + '…'!r} is 300 bytes long; the file "
                              f"system allows at most 255 (ENAMETOOLONG)")
    assert listing(tmp_path) == ["input"]


def test_a_file_size_limit_mid_write_keeps_the_old_pack(tmp_path, quiz):
    """EFBIG while writing the image: the staging folder goes, the old pack stays."""
    root = tmp_path / "papers"
    write_pack(draft("old", 30), root / "mine")
    before = tree(root / "mine")
    proc = run_cli("import", quiz, "--out", root / "mine", "--id", "mine", "--replace",
                   file_size_limit=16 << 10)
    assert_refused(proc, root / "mine", "a file is larger than the file size limit this "
                                          "process runs under (EFBIG; writing media/flag.png)")
    assert "the pack already at" in proc.stderr and "is unchanged" in proc.stderr
    assert tree(root / "mine") == before
    assert listing(root) == ["mine"]


def permission_bits_stop_us(folder: Path) -> bool:
    """Whether a 0o555 folder refuses this process a new file (not for root with
    CAP_DAC_OVERRIDE)."""
    probe = folder / "probe"
    probe.mkdir(0o555)
    probe.chmod(0o555)
    try:
        (probe / "x").touch()
    except PermissionError:
        return True
    finally:
        probe.chmod(0o755)
        shutil.rmtree(probe)
    return False


def test_a_folder_the_user_cannot_write(tmp_path, quiz):
    if not permission_bits_stop_us(tmp_path):
        pytest.skip("permission bits do not stop this process (root); the read-only mount "
                    "test covers a folder root cannot write")
    root = tmp_path / "papers"
    write_pack(draft("old", 3), root / "mine")
    before = tree(root / "mine")
    root.chmod(0o555)
    try:
        proc = run_cli("import", quiz, "--out", root / "mine", "--replace")
        assert_refused(proc, root / "mine", "permission denied")
        proc_new = run_cli("import", quiz, "--out", root / "new")
        assert_refused(proc_new, root / "new", "permission denied")
    finally:
        root.chmod(0o755)
    assert tree(root / "mine") == before and listing(root) == ["mine"]


def test_a_read_only_file_system(tmp_path, quiz):
    """Regression: an EROFS traceback from creating ``.NAME.lock``."""
    with tmpfs(tmp_path / "ro", "1m") as mnt:
        write_pack(draft("old", 3), mnt / "mine")
        before = tree(mnt / "mine")
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        for out, extra in [(mnt / "mine", ["--replace"]), (mnt / "new", []),
                           (mnt / "a" / "b" / "new", [])]:
            proc = run_cli("import", quiz, "--out", out, *extra)
            assert_refused(proc, out, "the file system is read-only (EROFS")
            assert (f"the pack already at {out} is unchanged" in proc.stderr) == \
                (out == mnt / "mine")
        assert tree(mnt / "mine") == before and listing(mnt) == ["mine"]


def test_a_full_disk_mid_write_keeps_the_old_pack(tmp_path, quiz):
    with tmpfs(tmp_path / "small", "64k") as mnt:
        write_pack(draft("old", 3), mnt / "mine")
        before = tree(mnt / "mine")
        proc = run_cli("import", quiz, "--out", mnt / "mine", "--id", "mine", "--replace")
        assert_refused(proc, mnt / "mine", "the disk is full (ENOSPC")
        assert f"the pack already at {mnt / 'mine'} is unchanged" in proc.stderr
        assert tree(mnt / "mine") == before and listing(mnt) == ["mine"]
        proc = run_cli("import", quiz, "--out", mnt / "deeper" / "new")
        assert_refused(proc, mnt / "deeper" / "new", "the disk is full (ENOSPC")
        assert listing(mnt) == ["mine"]  # the parent it made for the pack is gone again


def test_a_disk_with_no_byte_left_leaves_no_lock_file(tmp_path, quiz):
    """Regression: the lock's pid could not be written: a traceback, and ``.mine.lock``
    left behind (an inode needs no free block; the pid does)."""
    with tmpfs(tmp_path / "small", "64k") as mnt:
        write_pack(draft("old", 3), mnt / "mine")
        before = tree(mnt / "mine")
        fill(mnt)
        proc = run_cli("import", quiz, "--out", mnt / "mine", "--replace")
        assert_refused(proc, mnt / "mine", "the disk is full (ENOSPC")
        assert tree(mnt / "mine") == before and listing(mnt) == ["filler", "mine"]


# --- export: a file written whole or not at all ---------------------------------------------
FORMATS = {"json": "json", "gift": "gift", "moodle-xml": "xml", "apkg": "apkg"}


@pytest.fixture
def bank(tmp_path) -> Path:
    root = tmp_path / "papers"
    write_pack(draft("old", 3), root / "mine")
    return root


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_under_a_regular_file(tmp_path, bank, fmt):
    (tmp_path / "notes.txt").write_text("my notes\n")
    out = tmp_path / "notes.txt" / f"mine.{FORMATS[fmt]}"
    proc = run_cli("--papers", bank, "export", "--format", fmt, "mine", "--out", out,
                   "--no-notes")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"question-db export: cannot write {out}: {tmp_path / 'notes.txt'} is a file, " \
           f"not a folder" in proc.stderr
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_to_a_full_or_read_only_disk_keeps_the_old_file(tmp_path, bank, fmt):
    name = f"mine.{FORMATS[fmt]}"
    with tmpfs(tmp_path / "small", "64k") as mnt:
        assert run_cli("--papers", bank, "export", "--format", fmt, "mine", "--out",
                       mnt / name, "--no-notes").returncode == 0
        before = (mnt / name).read_bytes()
        fill(mnt)
        proc = run_cli("--papers", bank, "export", "--format", fmt, "mine", "--out",
                       mnt / name, "--no-notes")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert f"question-db export: cannot write {mnt / name}: the disk is full (ENOSPC" \
               in proc.stderr
        assert "the file already there is unchanged" in proc.stderr
        assert (mnt / name).read_bytes() == before and listing(mnt) == ["filler", name]
        (mnt / "filler").unlink()
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        proc = run_cli("--papers", bank, "export", "--format", fmt, "mine", "--out",
                       mnt / name, "--no-notes")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert f"cannot write {mnt / name}: the file system is read-only (EROFS" \
               in proc.stderr
        assert (mnt / name).read_bytes() == before


# --- Moodle images whose names are no file name ---------------------------------------------
LONG = "a" * 300 + ".png"
LONG_CJK = "图" * 100 + ".png"  # 100 characters, 304 bytes


@pytest.mark.parametrize("name, saved, why", [
    (".", "media/image.png", "has no usable file name"),
    ("..", "media/image.png", "has no usable file name"),
    (".png", "media/image.png", "has no usable file name"),
    ("../../evil.png", "media/evil.png", "is a path, not a file name"),
    ("flag a.png", "media/flag_a.png", None),  # characters replaced: no warning, as before
    (LONG, "media/" + "a" * 96 + ".png", "is 304 bytes long, too long for a file name"),
    (LONG_CJK, "media/" + "图" * 32 + ".png", "is 304 bytes long, too long for a file name"),
    ("CON.png", "media/CON_.png", "is reserved on Windows"),
])
def test_moodle_image_names_become_safe_files(tmp_path, name, saved, why):
    """Regression: "." wrote the image as a file named ``media`` and linked ``media/``;
    ".." refused the whole paper with no question named; 300 characters: an ENAMETOOLONG
    traceback."""
    xml = tmp_path / "quiz.xml"
    xml.write_text(moodle_xml(name), encoding="utf-8")
    out = tmp_path / "pack"
    proc = run_cli("import", xml, "--out", out)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert (out / saved).read_bytes() == PNG
    assert tree(out)[saved] == PNG and [p for p in tree(out) if p.startswith("media")] == \
        [saved]
    assert f"![a flag]({saved})" in (out / "q01.toml").read_text(encoding="utf-8")
    assert listing(tmp_path) == ["pack", "quiz.xml"]
    warnings = [line for line in proc.stdout.splitlines() if "saved as" in line]
    if why is None:
        assert warnings == []
    else:
        shown = name if len(name) <= 40 else name[:40] + "…"
        assert warnings == [f"  {xml}:#1 Flag:questiontext: file {shown!r} {why}; "
                            f"saved as {saved}"], proc.stdout


def test_moodle_old_style_image_named_dot(tmp_path):
    xml = tmp_path / "old.xml"
    xml.write_text(moodle_xml(".", old_style=True), encoding="utf-8")
    result = read_moodle_xml(xml)
    assert result.paper.media == {"media/image.png": PNG}
    assert result.paper.questions[0].stem.endswith("![](media/image.png)")
    assert [str(w) for w in result.warnings] == [
        f"{xml}:#1 Flag:image: image '.' has no usable file name; saved as media/image.png"]


def test_two_cut_names_that_collide_keep_both_images(tmp_path):
    collector = DraftCollector(tmp_path / "q.xml")
    first = collector.add_media("b" * 200 + "1.png", b"one", question="#1", field_name="x")
    second = collector.add_media("b" * 200 + "2.png", b"two", question="#1", field_name="x")
    assert first != second and collector.media == {first: b"one", second: b"two"}
    assert all(len(Path(p).name.encode()) <= 100 + len("_2") for p in (first, second))


def test_a_name_windows_reserves_before_any_dot(tmp_path):
    collector = DraftCollector(tmp_path / "q.xml")
    assert collector.add_media("nul.tar.gz", b"x") == "media/nul_.tar.gz"
    assert collector.add_media("console.png", b"y") == "media/console.png"


@pytest.mark.parametrize("name", ["a\x00b.png", "a/b.png", "a\\b.png", "\x01.png"])
def test_names_with_separators_or_control_characters(tmp_path, name):
    collector = DraftCollector(tmp_path / "q.xml")
    path = collector.add_media(name, PNG, question="#1", field_name="stem")
    assert path.startswith("media/") and "/" not in path[len("media/"):]
    assert "\x00" not in path and "\\" not in path and "\x01" not in path


@pytest.mark.parametrize("key, message", [
    ("media/..", "'..' is not a file name"),
    ("media/.", "'.' is not a file name"),
    ("media/a\x00b.png", "holds a NUL character"),
    ("media/" + "x" * 300 + ".png", "is 304 bytes long; a file name may have at most 255"),
    ("../outside.png", "'..' is not a file name"),
    ("media/../q01.toml", "'..' is not a file name"),
    ("/tmp/abs.png", "is an absolute path"),
])
def test_write_pack_refuses_a_media_name_no_file_system_takes(tmp_path, key, message):
    """The writer checks every importer's names (not just Moodle's): before anything is
    written, naming the pack and the file."""
    root = tmp_path / "papers"
    write_pack(draft("old", 3), root / "mine")
    before = tree(root / "mine")
    paper = draft("new", 2)
    paper.media = {key: PNG}
    with pytest.raises(PackInvalid) as info:
        write_pack(paper, root / "mine", replace=True)
    (problem,) = info.value.problems
    assert problem.file == str(root / "mine") and problem.field == "media"
    assert message in problem.message
    assert tree(root / "mine") == before and listing(root) == ["mine"]


def test_pack_not_written_is_an_os_error_naming_the_pack(tmp_path):
    """What the GUI's save shows (``str``), and what code catching OSError still catches."""
    from question_db.interchange.pack import PackNotWritten

    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(PackNotWritten) as info:
        write_pack(draft("new", 2), tmp_path / "notes.txt" / "pack")
    assert isinstance(info.value, OSError) and info.value.errno is not None
    assert str(info.value) == (f"{tmp_path / 'notes.txt' / 'pack'}: cannot write the pack: "
                               f"{tmp_path / 'notes.txt'} is a file, not a folder")
