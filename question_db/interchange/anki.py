"""Anki decks: export the bank as an ``.apkg`` (genanki), and read one back.

One note type per kind of question, with fixed ids, so notes exported again land in the
same note types (the full table is in ``docs/interchange.md``):

- ``examdesk choice`` (single/multiple choice): stem and options A–D on the front; key,
  explanation and errata on the back;
- ``examdesk cloze`` (fill-in with a key): one cloze per blank, the accepted variants on
  the back;
- ``examdesk answer`` (calculation, short answer, system design, a fill-in without a key):
  the reference answer (numeric parts as a table), rubric, explanation, errata;
- ``examdesk code`` (programming): starter code on the front, the reference solution on
  the back, both highlighted.

Each note's ``guid`` comes from the question id, so importing a new export updates the
notes already in a collection instead of adding copies; each note's modification time is
the newest modification time of the question's files (TOML, code, verify snippet) or of
the learner's note on it, because Anki only applies an update that is newer than what it
has. One sub-deck per paper: ``examdesk::<paper title>``. Tags: the topics (spaces become
``_``), ``type::<type>``, ``status::<status>``, ``paper::<paper id>``. Fields are HTML
(``markup.markdown_to_html``): text escaped, code in ``<pre>`` highlighted with Pygments
(CSS in the note type, light and night mode), formulas kept as written.
"""
from __future__ import annotations

import hashlib
import html
import itertools
import json
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from ..model import BLANK_MARK, Paper, Problem, Question
from .feedback import points_text
from .markup import markdown_to_html
from ..atomic_file import atomic_path
from .writing import dropped, has_key, media_file, question_mtime
from .zip_limits import ZipLimits, copy_member, open_zip, read_member

__all__ = ["FORMAT", "DECK_ROOT", "MODEL_IDS", "MODEL_IDS_BY_LANGUAGE", "CARD_LABELS",
           "card_language", "FIELDS", "deck_id", "note_guid", "tag",
           "tags_for", "highlight", "build_package", "write_apkg", "AnkiNote", "AnkiPackage",
           "read_apkg", "APKG_LIMITS"]

FORMAT = "apkg"
DECK_ROOT = "examdesk"
# Fixed forever: a note type with another id is another note type to Anki.
MODEL_IDS = {"choice": 1_733_400_001, "cloze": 1_733_400_002, "answer": 1_733_400_003,
             "code": 1_733_400_004}
_COMMON = ["Note", "Id", "Paper", "Status"]
FIELDS = {
    "choice": ["Stem", "Options", "Answer", "Explanation", "Errata", *_COMMON],
    "cloze": ["Text", "Answers", "Explanation", "Errata", *_COMMON],
    "answer": ["Stem", "Answer", "Rubric", "Explanation", "Errata", *_COMMON],
    "code": ["Stem", "Starter", "Reference", "Rubric", "Explanation", "Errata", *_COMMON],
}
_META = '<div class="meta">{{Paper}} · {{Id}} · {{Status}}</div>'
# The labels a card shows, in its deck's language (the paper's). A note type holds its
# templates, so each language has its own note types (``MODEL_IDS_BY_LANGUAGE``). Chinese
# keeps the ids of the first release (every bundled paper is Chinese): Anki takes the newer
# templates of a note type it has, so those decks update in place with Chinese labels.
CARD_LABELS = {
    "en": {"errata": "Errata", "note": "My note", "rubric": "Rubric", "starter": "Starter",
           "reference": "Reference solution",
           "no_key": "No correct answer (void): see the explanation.",
           "also": "also accepted: {}", "status": {}},
    "zh": {"errata": "勘误", "note": "我的笔记", "rubric": "评分要点", "starter": "初始代码",
           "reference": "参考解答", "no_key": "本题无正确答案（作废）：见解析。",
           "also": "也接受：{}",
           "status": {"ok": "已核对", "corrected": "已更正", "void": "作废", "disputed": "有争议",
                      "draft": "草稿"}},
}
MODEL_IDS_BY_LANGUAGE = {"zh": MODEL_IDS,
                         "en": {kind: mid + 100 for kind, mid in MODEL_IDS.items()}}
_MODEL_SUFFIX = {"zh": "", "en": " (English)"}
# When the note types' templates last changed (2026-12-04, the labels in the deck's
# language). A note type is written at least this new: Anki takes a note type's templates
# only from a package whose note type is newer than its own.
TEMPLATES_CHANGED = 1_796_342_400


def card_language(language: str) -> str:
    """The card-label language of a paper written in ``language`` (``zh-Hans``, ``en``…)."""
    return "zh" if language.lower().startswith("zh") else "en"


def _templates(lang: str) -> dict[str, tuple[str, str]]:
    label = CARD_LABELS[lang]
    back_common = ("{{#Explanation}}<div class=\"explanation\">{{Explanation}}</div>"
                   "{{/Explanation}}"
                   f"{{{{#Errata}}}}<div class=\"errata\"><div class=\"label\">{label['errata']}"
                   "</div>{{Errata}}</div>{{/Errata}}"
                   f"{{{{#Note}}}}<div class=\"note\"><div class=\"label\">{label['note']}</div>"
                   "{{Note}}</div>{{/Note}}")
    rubric = (f'{{{{#Rubric}}}}<div class="rubric"><div class="label">{label["rubric"]}</div>'
              '{{Rubric}}</div>{{/Rubric}}')
    return {
        "choice": (_META + '<div class="stem">{{Stem}}</div><div class="options">{{Options}}'
                   '</div>',
                   '{{FrontSide}}<hr id="answer"><div class="key">{{Answer}}</div>'
                   + back_common),
        "cloze": (_META + '<div class="stem">{{cloze:Text}}</div>',
                  _META + '<div class="stem">{{cloze:Text}}</div><hr id="answer">'
                  '{{#Answers}}<div class="key">{{Answers}}</div>{{/Answers}}' + back_common),
        "answer": (_META + '<div class="stem">{{Stem}}</div>',
                   '{{FrontSide}}<hr id="answer"><div class="key">{{Answer}}</div>' + rubric
                   + back_common),
        "code": (_META + '<div class="stem">{{Stem}}</div>{{#Starter}}<div class="label">'
                 f'{label["starter"]}</div>{{{{Starter}}}}{{{{/Starter}}}}',
                 f'{{{{FrontSide}}}}<hr id="answer"><div class="label">{label["reference"]}'
                 '</div>{{Reference}}' + rubric + back_common),
    }


_CSS = """
.card { font-family: "Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei",
  "PingFang SC", sans-serif; font-size: 18px; text-align: left; line-height: 1.5;
  color: #1f1f1f; background: #fff; }
.nightMode.card, .night_mode.card { color: #e8e8e8; background: #1e1e1e; }
.meta { font-size: 12px; color: #888; margin-bottom: 8px; }
.label { font-weight: bold; margin-top: 12px; }
.options .option { margin: 4px 0; }
.key { font-weight: bold; }
.errata { border-left: 4px solid #d9822b; padding-left: 8px; margin-top: 12px; }
.note { border-left: 4px solid #4a90d9; padding-left: 8px; margin-top: 12px; }
table { border-collapse: collapse; } td, th { border: 1px solid #bbb; padding: 2px 6px; }
pre { white-space: pre-wrap; padding: 8px; border-radius: 4px; }
code { font-family: "JetBrains Mono", "DejaVu Sans Mono", Consolas, monospace; }
.cloze { font-weight: bold; color: #1a5fb4; }
"""


def deck_id(paper_id: str) -> int:
    """A stable deck id per paper (Anki matches decks on import by id, then name)."""
    digest = hashlib.sha1(f"examdesk deck {paper_id}".encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:4], "big") % (1 << 30)


def note_guid(question_id: str) -> str:
    """The note's guid: the same question, the same note, in every export."""
    import genanki

    return genanki.guid_for("examdesk", question_id)


def tag(text: str) -> str:
    """An Anki tag (Anki splits tags at spaces)."""
    return "_".join(text.replace('"', "").split())


def tags_for(question: Question) -> list[str]:
    topics = [tag(t) for t in question.topics if tag(t)]
    return sorted(set(topics)) + [f"type::{question.type}", f"status::{question.status}",
                                  f"paper::{tag(question.paper_id)}"]


@lru_cache(maxsize=1)
def _highlight_css() -> str:
    from pygments.formatters import HtmlFormatter

    light = HtmlFormatter(style="default").get_style_defs(".highlight")
    dark = HtmlFormatter(style="monokai").get_style_defs(
        [".nightMode .highlight", ".night_mode .highlight"])
    return light + "\n" + dark


def highlight(code: str, language: str = "python") -> str:
    """A code block as Pygments HTML (classes styled by the note type's CSS)."""
    from pygments import highlight as render
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = (PythonLexer() if language in ("", "python", "py", "python3")
                 else get_lexer_by_name(language))
    except ClassNotFound:
        return f"<pre><code>{html.escape(code, quote=False)}</code></pre>"
    return render(code, lexer, HtmlFormatter(cssclass="highlight"))


@lru_cache(maxsize=1)
def _model_type():
    import genanki

    class Model(genanki.Model):
        """A note type dated by its templates, so a deck exported again updates them."""

        def to_json(self, timestamp: float, deck_id):
            return {**super().to_json(timestamp, deck_id),
                    "mod": max(int(timestamp), TEMPLATES_CHANGED)}

    return Model


@lru_cache(maxsize=None)
def _model(kind: str, lang: str = "zh"):
    import genanki

    qfmt, afmt = _templates(lang)[kind]
    return _model_type()(
        MODEL_IDS_BY_LANGUAGE[lang][kind], f"examdesk {kind}{_MODEL_SUFFIX[lang]}",
        fields=[{"name": f} for f in FIELDS[kind]],
        templates=[{"name": "Card", "qfmt": qfmt, "afmt": afmt}], css=_CSS + _highlight_css(),
        model_type=genanki.Model.CLOZE if kind == "cloze" else genanki.Model.FRONT_BACK)


def _kind(q: Question) -> str:
    if q.type in ("single_choice", "multiple_choice"):
        return "choice"
    if q.type == "fill_blank":
        return "cloze" if has_key(q) and all(v and v[0].strip() for v in q.answer) else "answer"
    return "code" if q.type == "programming" else "answer"


def _cloze_answer(text: str) -> str:
    """A cloze's text: HTML-escaped, and ``::``/``}}`` broken so Anki does not read them
    as the hint separator or the end of the cloze."""
    return html.escape(text, quote=False).replace("::", ":&#58;").replace("}}", "}&#125;")


class _Fields:
    """Renders one question's fields; collects the media files its images need."""

    def __init__(self, paper: Paper, q: Question, media: dict[str, Path],
                 warnings: list[Problem]):
        self.paper, self.q, self.media, self.warnings = paper, q, media, warnings
        self.lang = card_language(paper.language)
        self.labels = CARD_LABELS[self.lang]

    def image_src(self, src: str) -> str | None:
        path = media_file(self.paper, src)
        if path is None:
            if "://" in src:
                return src
            self.warnings.append(dropped(self.q, "stem", FORMAT,
                                         f"image {src!r} not found in the pack; dropped"))
            return None
        name = "examdesk-" + tag(self.paper.id) + "-" + "-".join(
            path.relative_to(self.paper.folder.resolve()).parts)
        self.media[name] = path
        return name

    def html(self, markdown: str) -> str:
        return markdown_to_html(markdown, image_src=self.image_src, highlight=highlight) \
            if markdown else ""

    def options(self) -> str:
        return "".join(f'<div class="option"><b>{k}.</b> {self.html(v)}</div>'
                       for k, v in (self.q.options or {}).items())

    def rubric(self) -> str:
        if not self.q.rubric:
            return ""
        items = "".join(f"<li>[{points_text(r.points)} pt{', auto' if r.auto else ''}] "
                        f"{html.escape(r.text, quote=False)}</li>" for r in self.q.rubric)
        return f"<ul>{items}</ul>"

    def key(self) -> str:
        q = self.q
        if not has_key(q):
            return self.labels["no_key"]
        also = self.labels["also"]
        if q.type == "single_choice":
            others = ", ".join(q.also_accept)
            return f"{q.answer}" + (f" ({also.format(others)})" if others else "")
        if q.type == "multiple_choice":
            others = "; ".join("".join(a) for a in q.also_accept)
            return "".join(q.answer) + (f" ({also.format(others)})" if others else "")
        if q.type == "fill_blank":
            return self.variants()
        if q.type == "calculation":
            rows = "".join(
                f"<tr><td>{html.escape(p.label, quote=False)}</td><td>{p.value:.15g}</td>"
                f"<td>± {p.tolerance:.15g}</td><td>{html.escape(p.unit, quote=False)}</td>"
                f"<td>{points_text(p.points)} pt</td></tr>" for p in q.parts)
            table = f"<table>{rows}</table>" if rows else ""
            return table + self.html(q.reference_answer)
        return self.html(q.answer or "")

    def variants(self) -> str:
        return "<br>".join(f"({i + 1}) " + " / ".join(html.escape(v, quote=False) for v in vs)
                           for i, vs in enumerate(self.q.answer or []))

    def cloze_text(self) -> str:
        counter = iter(range(len(self.q.answer)))
        stem = BLANK_MARK.sub(lambda m: f"\ue000{next(counter)}\ue001", self.q.stem)
        out = self.html(stem)
        for i, variants in enumerate(self.q.answer):
            cloze = f"{{{{c{i + 1}::{_cloze_answer(variants[0])}}}}}"
            out = out.replace(f"\ue000{i}\ue001", cloze)
        return out

    def values(self, kind: str, note: str) -> list[str]:
        q = self.q
        status = self.labels["status"].get(q.status, q.status)  # shown; the tag keeps the value
        common = [note, html.escape(q.id), html.escape(self.paper.title), status]
        explanation, errata = self.html(q.explanation), self.html(q.errata)
        if kind == "choice":
            return [self.html(q.stem), self.options(), self.key(), explanation, errata, *common]
        if kind == "cloze":
            return [self.cloze_text(), self.variants(), explanation, errata, *common]
        if kind == "code":
            code = q.code
            starter = highlight(code.read("starter").rstrip()) if code and code.starter else ""
            reference = code.read("reference") or code.read("seed") if code else ""
            if code and (code.check or code.wrong):
                self.warnings.append(dropped(q, "code.check", FORMAT,
                                             "the check suite is not exported (run it in "
                                             "examdesk)"))
            return [self.html(q.stem), starter, highlight(reference.rstrip()) if reference
                    else "", self.rubric(), explanation, errata, *common]
        return [self.html(q.stem), self.key(), self.rubric(), explanation, errata, *common]


def _note_html(text: str) -> str:
    return html.escape(text, quote=False).replace("\n", "<br>")


def build_package(papers: list[Paper], *, notes: Mapping[str, str] | None = None,
                  note_times: Mapping[str, float] | None = None):
    """The genanki package for ``papers``, its timestamp and the warnings.

    ``notes`` maps a question id to the learner's own note (plain text) for the ``Note``
    field; ``note_times`` to when that note last changed (seconds since the epoch), so an
    edited note also counts as a newer version of the card.
    """
    import genanki

    notes, note_times = notes or {}, note_times or {}
    warnings: list[Problem] = []
    media: dict[str, Path] = {}
    decks = []
    newest = 0
    for paper in papers:
        deck = genanki.Deck(deck_id(paper.id), f"{DECK_ROOT}::{paper.title}",
                            description=html.escape(f"{paper.title} ({paper.id}), "
                                                    f"{len(paper.questions)} questions"))
        for q in paper.questions:
            kind = _kind(q)
            if q.type == "fill_blank" and kind == "answer":
                warnings.append(dropped(q, "answer", FORMAT, "no key to make a cloze of: "
                                                             "exported as a plain card"))
            mtime = int(max(question_mtime(q), note_times.get(q.id, 0.0)))
            newest = max(newest, mtime)
            note = _note_html(notes.get(q.id, ""))
            rendered = _Fields(paper, q, media, warnings)
            fields = rendered.values(kind, note)
            deck.add_note(_note_type()(model=_model(kind, rendered.lang), fields=fields,
                                       guid=note_guid(q.id), tags=tags_for(q), mtime=mtime))
        decks.append(deck)
    return genanki.Package(decks), media, newest, warnings


@lru_cache(maxsize=1)
def _note_type():
    import genanki

    class Note(genanki.Note):
        """A note whose modification time is its question's, not the package's."""

        def __init__(self, *, mtime: int, **kwargs):
            super().__init__(**kwargs)
            self.mtime = mtime

        def write_to_db(self, cursor, timestamp, deck_id, id_gen):
            super().write_to_db(cursor, self.mtime or timestamp, deck_id, id_gen)

    return Note


def write_apkg(papers: list[Paper], out: Path | str, *, notes: Mapping[str, str] | None = None,
               note_times: Mapping[str, float] | None = None) -> list[Problem]:
    """Write ``papers`` as one Anki package (atomically); the warnings."""
    package, media, timestamp, warnings = build_package(papers, notes=notes,
                                                        note_times=note_times)
    with tempfile.TemporaryDirectory(prefix="examdesk-apkg-") as tmp:
        db_path = Path(tmp) / "collection.anki2"
        conn = sqlite3.connect(db_path)
        try:
            # genanki's own write_to_file leaves its temporary database behind
            package.write_to_db(conn.cursor(), timestamp, itertools.count(timestamp * 1000))
            conn.commit()
        finally:
            conn.close()
        with atomic_path(out) as partial:
            with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.write(db_path, "collection.anki2")
                names = sorted(media)
                zf.writestr("media", json.dumps({str(i): n for i, n in enumerate(names)}))
                for i, name in enumerate(names):
                    zf.write(media[name], str(i))
    return warnings


# --- reading a package back ---------------------------------------------------------------


@dataclass(frozen=True)
class AnkiNote:
    """One note of a package, as Anki stores it."""

    guid: str
    notetype: str
    fields: dict[str, str]
    tags: tuple[str, ...]
    modified: int
    deck: str
    cards: int


@dataclass(frozen=True)
class AnkiPackage:
    notes: list[AnkiNote]
    notetypes: dict[int, str]  # id -> name
    decks: dict[int, str]  # id -> name
    media: dict[str, bytes]  # name -> content


# What a deck read back may hold (issue 28, item 3: a zip bomb must be refused before it is
# inflated). Generous for real decks: Anki's own media limit is in the hundreds of MiB.
APKG_LIMITS = ZipLimits(kind="an Anki deck", entries=100_000, entry_bytes=512 * 2**20,
                        total_bytes=1024 * 2**20)
_MEDIA_MAP_BYTES = 16 * 2**20  # the JSON naming the media files


def read_apkg(path: Path | str) -> AnkiPackage:
    """What an ``.apkg`` in the legacy (``collection.anki2``/``.anki21``) layout holds.
    ``UnreadableInput`` (naming the file) for a damaged or oversized package."""
    with open_zip(path, APKG_LIMITS) as zf, tempfile.TemporaryDirectory() as tmp:
        names = set(zf.namelist())
        inner = next((n for n in ("collection.anki21", "collection.anki2") if n in names),
                     None)
        if inner is None:
            raise ValueError(f"{path}: no collection.anki2 (a newer Anki package format "
                             f"this reader does not know)")
        db = Path(tmp) / inner
        copy_member(zf, inner, db, APKG_LIMITS.entry_bytes)  # streamed, not held in memory
        media_map = json.loads(read_member(zf, "media", _MEDIA_MAP_BYTES)) \
            if "media" in names else {}
        media = {name: read_member(zf, idx, APKG_LIMITS.entry_bytes)
                 for idx, name in media_map.items()}
        conn = sqlite3.connect(db)
        try:
            models_json, decks_json = conn.execute("SELECT models, decks FROM col").fetchone()
            models = {int(k): v for k, v in json.loads(models_json).items()}
            decks = {int(k): v["name"] for k, v in json.loads(decks_json).items()}
            cards: dict[int, list[int]] = {}
            for nid, did in conn.execute("SELECT nid, did FROM cards"):
                cards.setdefault(nid, []).append(did)
            out = []
            for nid, guid, mid, mod, tags, flds in conn.execute(
                    "SELECT id, guid, mid, mod, tags, flds FROM notes ORDER BY id"):
                model = models[int(mid)]
                names_ = [f["name"] for f in sorted(model["flds"], key=lambda f: f["ord"])]
                values = flds.split("\x1f")
                dids = cards.get(nid, [])
                out.append(AnkiNote(guid, model["name"], dict(zip(names_, values)),
                                    tuple(tags.split()), mod,
                                    decks.get(dids[0], "") if dids else "", len(dids)))
        finally:
            conn.close()
    return AnkiPackage(out, {k: v["name"] for k, v in models.items()}, decks, media)

