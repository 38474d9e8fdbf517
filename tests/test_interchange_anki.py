"""Anki export: the package read back (sqlite3 + zipfile) keeps every field, tag and guid;
Anki itself (the ``anki`` package, a test dependency) imports it, sees no duplicates when
it is imported twice, and updates an edited question in place."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import dataclasses

import pytest

from question_db.bank import load_bank
from question_db.interchange.anki import CARD_LABELS, note_guid, read_apkg, write_apkg
from question_db.interchange.markup import canonical_markdown, html_to_markdown
from question_db.interchange.writing import has_key

NOTETYPES = {1_733_400_001: "examdesk choice", 1_733_400_002: "examdesk cloze",
             1_733_400_003: "examdesk answer", 1_733_400_004: "examdesk code"}


def md(html: str) -> str:
    """A field back as Markdown, code fences without their language (Pygments drops it)."""
    return re.sub(r"^```[\w+-]+$", "```", html_to_markdown(html), flags=re.M)


def want(markdown: str) -> str:
    return re.sub(r"^```[\w+-]+$", "```", canonical_markdown(markdown), flags=re.M)


def expected_kind(q) -> str:
    if q.type in ("single_choice", "multiple_choice"):
        return "examdesk choice"
    if q.type == "fill_blank":
        return "examdesk cloze" if has_key(q) else "examdesk answer"
    return "examdesk code" if q.type == "programming" else "examdesk answer"


def file_mtime(q) -> int:
    paths = [q.source_file, q.verify]
    if q.code:
        paths += [q.code.reference, q.code.starter, q.code.seed, q.code.check, *q.code.wrong]
    return int(max(os.stat(p).st_mtime for p in paths if p))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    bank = load_bank()
    # the two exam papers (65 questions; every kind of question); the drills are code
    # questions like 000/34 and would only add more of the same
    bank.papers = [p for p in bank.papers if p.id in ("000", "001")]
    out = tmp_path_factory.mktemp("anki") / "examdesk.apkg"
    warnings = write_apkg(bank.papers, out)
    return bank, read_apkg(out), warnings


def test_package_keeps_every_field_tag_and_guid(exported):
    bank, package, _ = exported
    notes = {n.guid: n for n in package.notes}
    assert len(notes) == len(package.notes) == len(bank.all_questions()) == 65
    assert package.notetypes == NOTETYPES  # fixed ids: a new id would be a new note type
    for paper in bank.papers:
        for q in paper.questions:
            note = notes[note_guid(q.id)]
            f = note.fields
            assert note.notetype == expected_kind(q), q.id
            assert note.deck == f"examdesk::{paper.title}"
            assert set(note.tags) == {t.replace(" ", "_") for t in q.topics} | {
                f"type::{q.type}", f"status::{q.status}", f"paper::{q.paper_id}"}
            assert all(" " not in t for t in note.tags)
            assert note.modified == file_mtime(q), q.id
            status = CARD_LABELS["zh"]["status"][q.status]  # both papers are Chinese
            assert (f["Id"], f["Paper"], f["Status"], f["Note"]) == (q.id, paper.title,
                                                                     status, "")
            assert md(f["Explanation"]) == want(q.explanation), q.id
            assert md(f["Errata"]) == want(q.errata), q.id
            if note.notetype == "examdesk cloze":
                for i, variants in enumerate(q.answer):
                    assert f"{{{{c{i + 1}::" in f["Text"]
                    assert all(v in html_to_markdown(f["Answers"]) for v in variants)
                assert note.cards == len(q.answer)
                continue
            assert md(f["Stem"]) == want(q.stem), q.id
            if note.notetype == "examdesk choice":
                options = md(f["Options"])
                for letter, text in q.options.items():
                    assert f"**{letter}.**" in options and want(text) in options
                key = f["Answer"]
                if not has_key(q):
                    assert key.startswith("本题无正确答案")
                elif q.type == "single_choice":
                    assert key.startswith(q.answer) and all(a in key for a in q.also_accept)
                else:
                    assert key.startswith("".join(q.answer))
            elif note.notetype == "examdesk code":
                assert md(f["Reference"]) == f"```\n{q.code.read('reference').rstrip()}\n```"
                assert md(f["Starter"]) == f"```\n{q.code.read('starter').rstrip()}\n```"
                assert all(f"[{r.points:g} pt" in f["Rubric"] and r.text in md(f["Rubric"])
                           for r in q.rubric)
            else:
                for part in q.parts:
                    assert f"{part.value:.15g}" in f["Answer"] and f"± {part.tolerance:.15g}" \
                        in f["Answer"]
                if q.type in ("short_answer", "system_design"):
                    assert md(f["Answer"]) == want(q.answer)
                if q.type == "calculation":
                    assert want(q.reference_answer) in md(f["Answer"])
                assert all(f"[{r.points:g} pt" in f["Rubric"] and r.text in md(f["Rubric"])
                           for r in q.rubric)


def test_void_questions_are_exported_with_their_explanation_and_tagged(exported):
    bank, package, _ = exported
    notes = {n.guid: n for n in package.notes}
    void = [q for q in bank.all_questions() if q.status == "void"]
    assert void
    for q in void:
        note = notes[note_guid(q.id)]
        assert "status::void" in note.tags and note.fields["Explanation"]


def test_guids_and_deck_ids_are_stable_across_releases():
    # pinned: a changed formula would duplicate every learner's notes on the next import
    assert note_guid("000/1") == "oQ<a3k+*m>" and note_guid("001/31") == "pzisEU(!%H"


def test_learner_notes_fill_the_note_field_and_count_as_changes(tmp_path):
    bank = load_bank()
    q = bank.question("000/1")
    later = file_mtime(q) + 100
    out = tmp_path / "n.apkg"
    write_apkg([bank.paper("000")], out, notes={q.id: "my <note>\n& more"},
               note_times={q.id: later})
    notes = {n.guid: n for n in read_apkg(out).notes}
    note = notes[note_guid(q.id)]
    assert note.fields["Note"] == "my &lt;note&gt;<br>&amp; more"
    assert note.modified == later
    other = notes[note_guid("000/2")]
    assert other.fields["Note"] == "" and other.modified == file_mtime(bank.question("000/2"))


def test_anki_imports_twice_without_duplicates_and_updates_an_edit_in_place(pack_copy,
                                                                            tmp_path):
    from anki.collection import Collection, ImportAnkiPackageRequest
    from anki.import_export_pb2 import ImportAnkiPackageOptions

    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        def import_(papers, name):
            path = tmp_path / name
            write_apkg(papers, path)
            request = ImportAnkiPackageRequest(
                package_path=str(path), options=ImportAnkiPackageOptions(with_scheduling=False))
            return col.import_anki_package(request).log

        bank = load_bank([pack_copy / "000", pack_copy / "001"], include_bundled=False)
        first = import_(bank.papers, "first.apkg")
        assert (len(first.new), len(first.updated), len(first.duplicate)) == (65, 0, 0)
        assert not (first.conflicting or first.missing_notetype or first.empty_first_field)
        cards = col.card_count()
        assert col.note_count() == 65 and cards == 70  # one card per cloze blank
        again = import_(bank.papers, "again.apkg")
        assert (len(again.new), len(again.updated), len(again.duplicate)) == (0, 0, 65)
        assert col.note_count() == 65 and col.card_count() == cards

        edited = pack_copy / "001" / "q03.toml"
        note_id = col.find_notes('"Id:001/3"')
        assert len(note_id) == 1
        edited.write_text(edited.read_text("utf-8").replace("主要目的", "首要目的"), "utf-8")
        newer = time.time() + 60  # edited after the first export, whatever the clock says
        os.utime(edited, (newer, newer))
        bank = load_bank([pack_copy / "000", pack_copy / "001"], include_bundled=False)
        update = import_(bank.papers, "edited.apkg")
        assert (len(update.new), len(update.updated), len(update.duplicate)) == (0, 1, 64)
        assert col.note_count() == 65 and col.card_count() == cards
        assert col.find_notes('"Id:001/3"') == note_id  # the same note, updated in place
        assert "首要目的" in col.get_note(note_id[0])["Stem"]
        decks = {d.name for d in col.decks.all_names_and_ids()}
        assert {"examdesk", "examdesk::2025年人工智能工程师认证考试试卷",
                "examdesk::（2025校招）人工智能工程师招聘笔试试题"} <= decks
    finally:
        col.close()


def _anki_import(col, path):
    from anki.collection import ImportAnkiPackageRequest
    from anki.import_export_pb2 import ImportAnkiPackageOptions

    request = ImportAnkiPackageRequest(package_path=str(path),
                                       options=ImportAnkiPackageOptions(with_scheduling=False))
    log = col.import_anki_package(request).log
    return {k: len(getattr(log, k)) for k in ("new", "updated", "duplicate", "conflicting")}


def test_card_labels_are_in_the_decks_language(tmp_path):
    """Issue 30 item 5: a Chinese paper's cards say 勘误 / 我的笔记 / 评分要点 / 参考解答,
    an English paper's Errata / My note / Rubric / Reference solution, each language in
    note types of its own (a note type holds its templates)."""
    from anki.collection import Collection

    bank = load_bank()
    chinese = bank.paper("001")
    english = dataclasses.replace(bank.paper("000"), language="en")
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        path = tmp_path / "both.apkg"
        write_apkg([chinese, english], path, notes={"001/1": "记住", "000/1": "remember"})
        assert _anki_import(col, path)["new"] == len(chinese.questions) + len(english.questions)

        def back(question_id):
            note = col.get_note(col.find_notes(f'"Id:{question_id}"')[0])
            return note.note_type()["name"], note.cards()[0].answer()

        zh_errata = next(q.id for q in chinese.questions if q.errata)
        name, html = back(zh_errata)
        assert name == "examdesk choice" and "勘误" in html and "Errata" not in html
        name, html = back("001/1")
        assert "我的笔记" in html and "My note" not in html
        en_errata = next(q.id for q in english.questions if q.errata)
        name, html = back(en_errata)
        assert name.endswith("(English)") and "Errata" in html and "勘误" not in html
        code_zh = next(q.id for q in chinese.questions if q.type == "programming")
        assert "参考解答" in back(code_zh)[1] and "评分要点" in back(code_zh)[1]
        code_en = next(q.id for q in english.questions if q.type == "programming")
        assert "Reference solution" in back(code_en)[1]
    finally:
        col.close()


def test_a_deck_from_the_last_release_takes_the_chinese_labels_in_place(tmp_path):
    """A learner's collection already holds notes from an export with English labels
    (the sample file was written by the release before this change): a new export updates
    the note types' templates, with no conflict, no duplicate and every note kept."""
    from anki.collection import Collection

    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        before = Path(__file__).parent / "data" / "anki" / "examdesk-2026-11-001-sample.apkg"
        assert _anki_import(col, before)["new"] == 4
        ids = sorted(col.find_notes(""))
        old = col.get_note(col.find_notes('"Id:001/1"')[0]).cards()[0].answer()
        assert "Errata" in old and "勘误" not in old
        bank = load_bank()
        sample = dataclasses.replace(bank.paper("001"),
                                     questions=tuple(bank.paper("001").questions[:4]))
        write_apkg([sample], tmp_path / "now.apkg")
        log = _anki_import(col, tmp_path / "now.apkg")
        assert log["conflicting"] == log["new"] == 0
        assert sorted(col.find_notes("")) == ids
        now = col.get_note(col.find_notes('"Id:001/1"')[0]).cards()[0].answer()
        assert "勘误" in now and "Errata" not in now
    finally:
        col.close()


def test_export_names_what_a_deck_cannot_carry(exported):
    bank, _, warnings = exported
    fields = {(w.question, w.field) for w in warnings}
    assert {(q.id, "code.check") for q in bank.all_questions()
            if q.type == "programming"} <= fields
    assert {(q.id, "answer") for q in bank.all_questions()
            if q.type == "fill_blank" and not has_key(q)} <= fields
    assert all(Path(w.file).suffix == ".toml" and w.message.startswith("apkg: ")
               for w in warnings)


def test_images_travel_as_anki_media(tmp_path):
    from roundtrip import image_pack

    png = b"\x89PNG\r\n\x1a\n" + bytes(range(30))
    paper = image_pack(tmp_path / "img", png)
    out = tmp_path / "img.apkg"
    assert write_apkg([paper], out) == []
    package = read_apkg(out)
    assert package.media == {"examdesk-img-media-flag.png": png}
    assert '<img src="examdesk-img-media-flag.png" alt="flag">' in package.notes[0].fields["Stem"]


# --- a deck that would blow up (issue 28, item 3) -------------------------------------------

def test_a_deck_whose_collection_inflates_to_2_gib_is_refused_before_reading(tmp_path):
    from bombs import GIB, write_zip_bomb

    from question_db.interchange.encoding import UnreadableInput

    bomb = write_zip_bomb(tmp_path / "bomb.apkg", "collection.anki2", 2 * GIB,
                          others={"media": b"{}"})
    assert bomb.stat().st_size < 3 * 2**20
    started = time.monotonic()
    with pytest.raises(UnreadableInput) as refused:
        read_apkg(bomb)
    assert time.monotonic() - started < 2.0  # the directory was read, not the entry
    message = str(refused.value)
    assert str(bomb) in message and "'collection.anki2'" in message
    assert "2,048 MiB" in message and "zip bomb" in message


def test_a_deck_with_more_entries_than_allowed_is_refused(tmp_path):
    import zipfile

    from question_db.interchange.encoding import UnreadableInput
    from question_db.interchange.zip_limits import ZipLimits, open_zip, read_member

    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for i in range(5):
            zf.writestr(str(i), b"x" * 100)
    with pytest.raises(UnreadableInput, match="holds 5 entries; a test archive may hold 4"):
        open_zip(path, ZipLimits("a test archive", entries=4, entry_bytes=1000,
                                 total_bytes=10_000))
    with pytest.raises(UnreadableInput, match="would expand to"):
        open_zip(path, ZipLimits("a test archive", entries=9, entry_bytes=1000,
                                 total_bytes=400))
    with open_zip(path, ZipLimits("a test archive", 9, 1000, 10_000)) as zf:
        with pytest.raises(UnreadableInput, match="larger than"):
            read_member(zf, "0", 99)  # even when the header is believed, reads stop
        assert read_member(zf, "0", 100) == b"x" * 100
