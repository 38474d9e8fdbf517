"""Anki export: the package read back (sqlite3 + zipfile) keeps every field, tag and guid;
Anki itself (the ``anki`` package, a test dependency) imports it, sees no duplicates when
it is imported twice, and updates an edited question in place."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from question_db.bank import load_bank
from question_db.interchange.anki import note_guid, read_apkg, write_apkg
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
            assert (f["Id"], f["Paper"], f["Status"], f["Note"]) == (q.id, paper.title,
                                                                     q.status, "")
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
                    assert key.startswith("No correct answer")
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
