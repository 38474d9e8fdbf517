"""Answer keys printed away from their questions: at the end of a part
(``本大题答案：1.B 2.D …``, ``Answers to Part A: 1. B 2. D``) or in an appendix after the
last question (``参考答案及解析`` / ``Answer key``: grids ``1-5 BDACB``, lines ``1、BDE``,
one part heading per part again, explanations numbered again). Each key is matched back to
its question by part and printed number; one that cannot be matched is left unset.
"""
from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field

from . import segment as sg

__all__ = ["KeyTable", "split_answer_appendix", "cut_part_keys"]

_APPENDIX = re.compile(
    r"(?:参考答案(?:及解析|与解析|和解析|详解)?|答案(?:及|与|和)?(?:解析|详解)|答案汇总|标准答案|答案部分|"
    r"答案(?=\s*[：:]?\s*(?:[一二三四五六七八九十]\s*[、.．]|1\s*[.．、)）:：-]))|"
    r"(?<![A-Za-z])(?:Answer\s*[Kk]ey|ANSWER\s*KEY|Answers(?:\s*(?:and|&|with)\s*"
    r"[Ee]xplanations?)?|ANSWERS|Solutions|SOLUTIONS|Key\s*to\s*(?:the\s*)?[Qq]uestions))"
    r"(?![A-Za-z])[ \t]*[：:]?")
# a grid: "1-5 BDACB", "1～5：B D A C B"; the damaged "15BDACB" is tried separately
_RANGE = re.compile(r"(?<!\d)(\d{1,3})\s*[-–—~～至]\s*(\d{1,3})\s*[：:.．、]?\s*"
                    r"((?:[A-H]\s?){1,40})(?![a-z])")
_GLUED_RANGE = re.compile(r"(?<![\d.])(\d{2,6})((?:[A-H]){2,40})(?![a-z])")
# a per-part block: the marker, then at least two "N.KEY" entries of letters or true/false
_SHORT_KEY = r"(?:[A-H]{1,8}|[a-h]|[√×✓✗TF对错]|True|False|正确|错误)"
_ENTRY = rf"(\d{{1,3}})\s*[.．、:：)]?\s*[（(]?({_SHORT_KEY})[)）]?(?![A-Za-z\u4e00-\u9fff])"
_PART_MARKER = re.compile(
    r"(?P<scope>本(?:大|部分|节)?题|本部分|本节|第[一二三四五六七八九十]+(?:部分|大题))?(?:参考)?答案"
    r"(?:及解析|与解析)?\s*[：:]?|"
    r"(?<![A-Za-z])(?:Answers?|Key)\s*(?P<en>(?:to|for)\s*(?:this\s*)?(?:(?:Part|Section)\s*"
    r"[A-H1-9IVX]{0,4})?)?\s*[:：]")


@dataclass
class KeyTable:
    """Keys by part: ``parts[i]`` maps a printed number to its key text (``explanations``
    likewise). One part when the keys are numbered through the paper."""

    kind: str  # "appendix" or "part"
    start: int = 0
    parts: list[dict[int, str]] = field(default_factory=list)
    explanations: list[dict[int, str]] = field(default_factory=list)
    part_numerals: list[int] = field(default_factory=list)  # the part headings' numbers

    def lookup(self, part: int, printed: int, number: int, *, renumbered: bool
               ) -> tuple[str, str] | None:
        """(key, explanation) of the question numbered ``printed`` in part ``part`` (its
        heading's number; 0 before any heading), ``number`` through the paper.
        ``renumbered``: the paper's numbering restarts in every part."""
        if not self.parts:
            return None
        if self.part_numerals:  # headed: the part of the same number
            index = self._part_index(part)
            if index is None:
                return None
            found = self.entry(index, printed)
            return found or (None if renumbered else self.entry(index, number))
        if not renumbered:  # keys numbered through the paper (a list in an answer may
            for index in range(len(self.parts)):  # have started a spurious second run)
                if found := self.entry(index, number):
                    return found
            return None
        index = part - 1 if part >= 1 else 0  # runs numbered again, one per part
        return self.entry(index, printed) if index < len(self.parts) else None

    def entry(self, index: int, n: int) -> tuple[str, str] | None:
        """(key, explanation) numbered ``n`` in part ``index`` (0-based), if printed."""
        table, notes = self.parts[index], self.explanations[index]
        if n not in table and n not in notes:
            return None
        return table.get(n, ""), notes.get(n, "")

    def _part_index(self, part: int) -> int | None:
        if self.part_numerals and part in self.part_numerals:
            return self.part_numerals.index(part)
        if 1 <= part <= len(self.parts):
            return part - 1
        return None


def split_answer_appendix(text: str) -> tuple[str, KeyTable | None]:
    """The questions, and the appendix of keys printed after them (None when there is
    none: keys inline, per part, or absent)."""
    for m in _APPENDIX.finditer(text):
        if m.start() < 0.1 * len(text):
            continue  # an appendix follows the questions (its explanations may be long)
        if not _heading_like(text, m):
            continue
        before = text[:m.start()]
        if len(sg.ANSWER.findall(before)) >= 2:
            return text, None  # keys are printed inline
        table = parse_keys(text[m.end():], kind="appendix")
        table.start = m.start()
        numbers = {c.number for c in sg.find_candidates(before)}
        keyed = {n for part in table.parts for n in part}
        if len(keyed) >= 2 and len(keyed & numbers) >= 0.8 * len(keyed) and \
                len(keyed) >= 0.5 * len(_question_numbers(before) or keyed):
            return before, table
    return text, None


def _heading_like(text: str, m: re.Match) -> bool:
    """The appendix title stands alone: at a line start (or after the last question's
    sentence end in run-on text) and followed by a part heading, a number or a line end."""
    before = text[m.start() - 1] if m.start() else "\n"
    after = text[m.end():m.end() + 12].lstrip(" \t：:")
    if not (before in "\n#*>" or before in sg._SENTENCE_END or before.isspace()
            or "\u4e00" <= before <= "\u9fff"):
        return False
    return not after or after[0] in "\n一二三四五六七八九十第" or after[0].isdigit() or \
        after.startswith(("Part", "PART", "Section", "SECTION", "(", "（", "Q"))


_NOTES_HEAD = re.compile(r"^[ \t#*]*(?:Explanations?|EXPLANATIONS?|Rationales?|Solutions? explained|"
                        r"答案解析|解析|详解|试题解析)[ \t*]*[:：]?[ \t]*$", re.M)


def parse_keys(text: str, *, kind: str, expect: set[int] | None = None,
               restart: bool = True) -> KeyTable:
    """Keys (and explanations) of an appendix or a part's key block, by part. ``expect``:
    the numbers of the questions the keys belong to (a list inside an answer is not);
    ``restart``: numbering may start again without a heading. An ``Explanations`` /
    ``解析`` heading on its own line starts the explanations, numbered like the keys."""
    notes_head = _NOTES_HEAD.search(text)
    if notes_head and text[:notes_head.start()].strip():
        table = parse_keys(text[:notes_head.start()], kind=kind, expect=expect,
                           restart=restart)
        numbers = {n for part in table.parts for n in part}
        notes = parse_keys(text[notes_head.end():], kind=kind, expect=numbers or expect,
                           restart=len(table.parts) > 1 and restart)
        for index, part in enumerate(notes.parts):  # entries there are explanations
            target = min(index, len(table.explanations) - 1) if table.explanations else -1
            if target < 0:
                break
            for number, entry in part.items():
                table.explanations[target].setdefault(number, entry)
        return table
    text, grids = _table_grids(text)  # (position, keys) of every grid

    def take_range(m: re.Match) -> str:
        first, last, letters = int(m[1]), int(m[2]), re.sub(r"\s", "", m[3])
        if last - first + 1 == len(letters):
            grids.append((m.start(), {first + i: c for i, c in enumerate(letters)}))
            return " " * (m.end() - m.start())
        return m.group(0)

    text = _RANGE.sub(take_range, text)
    text = _GLUED_RANGE.sub(lambda m: _glued(m, grids), text)
    candidates = sg.find_candidates(text, keys=True)
    if expect:
        for c in candidates:
            c.quality += 2 if c.number in expect else -8
    headers = sg.find_headers(text, candidates)
    # numbering starts again at every part heading, and at any "1" of the same style (the
    # explanations of a part, numbered again after its keys)
    placed = 1 if "\n" in text.strip() else 0  # run-on text places no number well
    styles = Counter(c.style for c in candidates if c.quality >= placed)
    main = styles.most_common(1)[0][0] if styles else ""  # the entries' own numbering
    cuts = [c.pos for c in candidates if c.number == 1 and c.quality >= placed
            and c.style == main] if restart else []
    chain, _ = sg.choose_chain(text, candidates, headers, min_length=1, restarts=cuts)
    if cuts:  # numbered through after all? then a "1." list inside an answer is no restart
        through, _ = sg.choose_chain(text, candidates, headers, min_length=1)
        if len(through) >= 0.9 * len(chain):
            chain = through
    table = KeyTable(kind)
    head_starts = [h.start for h in headers]
    # runs: a new one at each restart of the numbering
    runs: list[list[tuple[int, str, int]]] = []
    for k, c in enumerate(chain):
        end = chain[k + 1].pos if k + 1 < len(chain) else len(text)
        for h in headers:
            if c.body <= h.start < end:
                end = h.start
                break
        entry = re.sub(rf"[{sg.CN_NUMERALS}]{{1,3}}\s*[、.．]\s*$", "", text[c.body:end].strip())
        if not runs or c.number <= runs[-1][-1][0] or (headers and bisect.bisect_right(
                head_starts, c.pos) != bisect.bisect_right(head_starts, runs[-1][-1][2])):
            runs.append([])
        runs[-1].append((c.number, entry.strip(), c.pos))
    # each run belongs to the part heading before it; a second run of a part explains
    parts: dict[int, tuple[dict[int, str], dict[int, str]]] = {}
    order: list[int] = []

    def part_of(pos: int) -> int:
        return bisect.bisect_right(head_starts, pos) - 1 if headers else -1

    for run in runs:
        part = part_of(run[0][2]) if headers else len(order)
        if part not in parts:
            parts[part] = ({}, {})
            order.append(part)
        keys, notes = parts[part]
        for number, entry, _ in run:
            key, note = _key_and_note(entry)
            if number in keys and not note:
                note, key = key, ""  # the explanations, numbered again
            if key and number not in keys:
                keys[number] = key
            if note:
                notes[number] = note
    for pos, grid in grids:
        part = part_of(pos) if headers else (order[0] if order else 0)
        if part not in parts:
            parts[part] = ({}, {})
            order.append(part)
        parts[part][0].update(grid)  # a grid's letters are unambiguous: they win
    order.sort()
    for part in order:
        keys, notes = parts[part]
        table.parts.append(keys)
        table.explanations.append(notes)
        table.part_numerals.append(headers[part].numeral if headers and part >= 0 else 0)
    if headers and any(n == 0 for n in table.part_numerals):
        keep = [i for i, n in enumerate(table.part_numerals) if n or table.parts[i]]
        table.parts = [table.parts[i] for i in keep]
        table.explanations = [table.explanations[i] for i in keep]
        table.part_numerals = [table.part_numerals[i] for i in keep]
    if not headers:
        table.part_numerals = []
    return table


def _glued(m: re.Match, grids: list[tuple[int, dict[int, str]]]) -> str:
    """``15BDACB`` (a grid whose dash was lost): 1–5; ``610ACDBA``: 6–10."""
    digits, letters = m[1], m[2]
    for cut in range(1, len(digits)):
        first, last = int(digits[:cut]), int(digits[cut:])
        if digits[cut] != "0" and last - first + 1 == len(letters) and first >= 1:
            grids.append((m.start(), {first + i: c for i, c in enumerate(letters)}))
            return " " * (m.end() - m.start())
    return m.group(0)


def _key_and_note(entry: str) -> tuple[str, str]:
    em = sg.EXPLANATION.search(entry)
    if em:
        key, note = entry[:em.start()], entry[em.end():]
    else:
        key, note = entry, ""
    key = sg.ANSWER.sub("", key, count=1) if sg.ANSWER.match(key.strip()) else key
    return key.strip(" \t\n;；,，"), note.strip()


_TABLE_ROW = re.compile(r"^[ \t]*\|?(.+?)\|?[ \t]*$")


def _table_grids(text: str) -> tuple[str, list[tuple[int, dict[int, str]]]]:
    """A key table (``题号 | 1 | 2 | 3`` over ``答案 | B | D | A``): its keys by number, and
    the text with the two rows blanked (positions hold)."""
    lines = text.split("\n")
    grids: list[tuple[int, dict[int, str]]] = []
    pos = 0
    for i, line in enumerate(lines):
        cells = _cells(line)
        nxt = _cells(lines[i + 1]) if i + 1 < len(lines) else []
        numbers = [c for c in cells if c.isdigit()]
        if len(numbers) >= 2 and len(nxt) == len(cells) and len(numbers) >= len(cells) - 1:
            keys = {int(n): k for n, k in zip(cells, nxt) if n.isdigit() and k}
            if keys:
                grids.append((pos, keys))
                lines[i] = " " * len(line)
                lines[i + 1] = " " * len(lines[i + 1])
        pos += len(line) + 1
    _column_grids(lines, grids)
    return "\n".join(lines), grids


def _column_grids(lines: list[str], grids: list[tuple[int, dict[int, str]]]) -> None:
    """A key table printed down the page (``题号 | 答案`` over ``1 | B``, ``2 | D``): two or
    more rows of a number and a key; read, then blanked in ``lines``."""
    pos, i = 0, 0
    starts = []
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    while i < len(lines):
        j, keys = i, {}
        while j < len(lines):
            cells = _cells(lines[j])
            if len(cells) == 2 and cells[0].isdigit() and cells[1]:
                keys[int(cells[0])] = cells[1]
                j += 1
            else:
                break
        if len(keys) >= 2:
            grids.append((starts[i], keys))
            for k in range(i, j):
                lines[k] = " " * len(lines[k])
            i = j
        else:
            i += 1


def _cells(line: str) -> list[str]:
    if "|" not in line:
        return []
    return [c.strip() for c in line.strip().strip("|").split("|")]


def cut_part_keys(text: str, headers: list[sg.SectionHead]) -> tuple[str, list[KeyTable]]:
    """Key blocks at the end of a part (a marker and two or more short keys, or a grid),
    blanked out of the text (same length, so positions hold) and returned with their
    part's ordinal as ``part_numerals``."""
    blocks: list[KeyTable] = []
    chars = list(text)
    entry = re.compile(_ENTRY)
    for m in _PART_MARKER.finditer(text):
        pos, entries = m.end(), {}
        last = 0
        while True:
            em = entry.match(text, pos) or re.compile(r"\s*" + _ENTRY).match(text, pos)
            rm = _RANGE.match(text, pos) or re.compile(r"\s*" + _RANGE.pattern).match(text, pos)
            if rm and int(rm[2]) - int(rm[1]) + 1 == len(re.sub(r"\s", "", rm[3])) and \
                    (not entries or int(rm[1]) == last + 1):
                letters = re.sub(r"\s", "", rm[3])
                entries.update({int(rm[1]) + i: c for i, c in enumerate(letters)})
                last, pos = int(rm[2]), rm.end()
                continue
            if em and (not entries or int(em[1]) == last + 1):
                entries[int(em[1])] = em[2]
                last, pos = int(em[1]), em.end()
                continue
            break
        part = bisect.bisect_right([h.start for h in headers], m.start())
        if len(entries) < 2 and (m["scope"] or m["en"]):
            # "本大题答案：" over a list of full answers: the part's keys, to its end
            stop = headers[part].start if part < len(headers) else len(text)
            begin = headers[part - 1].end if part else 0
            asked = _question_numbers(text[begin:m.start()])
            table = parse_keys(text[m.end():stop], kind="part", expect=asked)
            if table.parts and len(table.parts[0]) >= 1:
                merged: dict[int, str] = {}
                notes: dict[int, str] = {}
                for keys_, notes_ in zip(table.parts, table.explanations):
                    merged.update({k: v for k, v in keys_.items() if k not in merged})
                    notes.update({k: v for k, v in notes_.items() if k not in notes})
                entries, pos = merged, stop
                blocks.append(KeyTable("part", m.start(), [entries], [notes],
                                       [headers[part - 1].numeral if part else 0]))
                _blank(chars, m.start(), pos)
            continue
        if len(entries) < 2:
            continue
        table = KeyTable("part", m.start(), [entries], [{}],
                         [headers[part - 1].numeral if part else 0])
        blocks.append(table)
        _blank(chars, m.start(), pos)
    return "".join(chars), blocks


def _question_numbers(part: str) -> set[int]:
    """The numbers a part's questions most likely carry: the longest run n, n+1, … of
    well-placed numbers of one style, the higher one on a tie (sub-items ``(1)`` restart
    low; questions do not)."""
    best: list[int] = []
    runs: dict[str, list[int]] = {}  # style -> the run being extended
    for c in sg.find_candidates(part):
        if c.quality < 1:
            continue
        run = runs.setdefault(c.style, [])
        if run and c.number == run[-1] + 1:
            run.append(c.number)
        else:
            runs[c.style] = run = [c.number]
        if (len(run), run[-1]) > (len(best), best[-1] if best else 0):
            best = list(run)
    return set(best)


def _blank(chars: list[str], start: int, end: int) -> None:
    """Blank ``chars[start:end]`` out, keeping line breaks (positions hold)."""
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "
