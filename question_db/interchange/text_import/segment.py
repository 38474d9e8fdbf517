"""Find the structure of a paper in one run-on string: title, section headers with their
scoring rules, question numbers, options, the printed key and its explanation.

Question numbers are the hard part: ``答案：T/225.在RLHF中`` is question 24's key ``T/2``
followed by question 25, and ``12829.`` is ``128`` + ``29.``. Every ``N.`` (or ``N、``) is a
candidate; the chain 1, 2, 3, … through them is chosen by dynamic programming, preferring
candidates after sentence ends or line breaks and, when the paper prints keys, a chain where
every question holds exactly one ``答案：``. Numbering that restarts at each section header
is followed too (and renumbered).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

CN_NUMERALS = "一二三四五六七八九十"
_FULLWIDTH = {c: chr(c - 0xFEE0) for c in list(range(0xFF10, 0xFF1A)) +
              list(range(0xFF21, 0xFF3B)) + list(range(0xFF41, 0xFF5B))}
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)

ANSWER = re.compile(r"(?:参考|正确|标准)?答案(?:与解析|及解析|和解析|解析)?\s*[：:]|"
                    r"【(?:参考)?答案(?:与解析)?】")
EXPLANATION = re.compile(r"(?:答案)?解析\s*[：:]|【(?:答案)?解析】")
_NUMBER_RUN = re.compile(r"(\d+)\s*([.．、])(?!\d)")
_NUMBER_WORD = re.compile(r"第\s*(\d{1,3})\s*题\s*[.．、:：]?")
_HEADER = re.compile(
    rf"(?:第\s*)?([{CN_NUMERALS}]{{1,3}})\s*(?:[、.．]|部分\s*[：:、]?)\s*"
    r"(?P<name>[^\n（(、，。：:；;]{0,16}?(?:题|题型|部分))"
    r"\s*(?:[（(](?P<rule>[^）)\n]{0,80})[）)])?")
_TYPE_WORDS = re.compile(r"选择|选题|填空|判断|简答|问答|论述|计算|推导|编程|程序|代码|设计|"
                         r"分析|综合|应用|案例|算法|实操|实践|证明|阅读")
_INLINE_POINTS = re.compile(r"^\s*[（(]\s*(\d+(?:\.\d+)?)\s*分\s*[)）]\s*")
_SENTENCE_END = set("。！？；）)」”’】]》.!?;:：")
PLACEHOLDER = re.compile("\ue000(.)\ue001")


@dataclass
class SectionHead:
    start: int
    end: int
    numeral: int
    title: str  # as printed: "一、单项选择题"
    name: str  # "单项选择题"
    rule: str = ""  # inside the brackets: "每题2分，共30分"


@dataclass
class Candidate:
    number: int
    pos: int  # where the number starts
    body: int  # where the question text starts
    quality: float


@dataclass
class RawQuestion:
    number: int  # as printed (before renumbering)
    start: int
    end: int
    section: int  # index into the headers, -1 before the first
    text: str  # the body: after "N." up to the next question or header
    inline_points: float | None = None
    stem: str = ""
    options: dict[str, str] | None = None
    marker: str = ""  # the answer marker as printed ("答案：", "答案与解析：", "")
    answer: str = ""  # the printed key / answer text
    explanation: str = ""


@dataclass
class Skeleton:
    title: str
    preamble: str
    headers: list[SectionHead]
    questions: list[RawQuestion]
    renumbered: bool = False
    has_answers: bool = False
    notes: list[str] = field(default_factory=list)


_PAGE_MARK = re.compile(r"第\s*\d+\s*页\s*[，,/／]?\s*共\s*\d+\s*页")


def normalise(text: str) -> str:
    """Full-width digits and letters to ASCII, invisible characters out, NBSP to space,
    page marks of a printed original ("第2页共8页") out."""
    text = text.translate(_FULLWIDTH).translate(_INVISIBLE).replace("\u00a0", " ")
    return _PAGE_MARK.sub("", text)


def cn_numeral(text: str) -> int:
    values = {c: i + 1 for i, c in enumerate(CN_NUMERALS)}
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + values.get(text[1:], 0)
    if text.endswith("十"):
        return values.get(text[0], 0) * 10
    if "十" in text:
        a, b = text.split("十", 1)
        return values.get(a, 0) * 10 + values.get(b, 0)
    return values.get(text, 0)


def find_headers(text: str, candidates: list[Candidate]) -> list[SectionHead]:
    """Section headers in order (一、二、三…), each followed by a question number."""
    starts = sorted(c.pos for c in candidates)
    heads: list[SectionHead] = []
    for m in _HEADER.finditer(text):
        name = m["name"].strip()
        if not (_TYPE_WORDS.search(name) or name.endswith("题")):
            continue
        numeral = cn_numeral(m[1])
        if numeral != (heads[-1].numeral + 1 if heads else 1):
            continue
        k = bisect_left(starts, m.end())
        if k >= len(starts) or len(text[m.end():starts[k]].strip()) > 40:
            continue
        title_end = m.end("name")
        heads.append(SectionHead(m.start(), m.end(), numeral,
                                 re.sub(r"\s+", "", text[m.start():title_end]), name,
                                 (m["rule"] or "").strip()))
    return heads


_NUMBER_THEN_DIGIT = re.compile(r"(\d+)\s*([.．、])(?=\d)")


def find_candidates(text: str, *, keys: bool = False) -> list[Candidate]:
    """Every ``N.`` / ``N、`` / ``第N题`` that may start a question. ``keys``: a list of
    printed keys, where ``22.2×(HB)`` is key 22 starting with a digit (worse quality)."""
    out: list[Candidate] = []
    runs = list(_NUMBER_RUN.finditer(text)) + (list(_NUMBER_THEN_DIGIT.finditer(text))
                                               if keys else [])
    for m in runs:
        digits, start = m[1], m.start(1)
        for k in range(len(digits)):
            if digits[k] == "0" or len(digits) - k > 3:
                continue
            pos = start + k
            quality = _quality(text, pos, m.end(), preceded_by_digit=k > 0)
            out.append(Candidate(int(digits[k:]), pos, m.end(),
                                 quality - (1.5 if m.re is _NUMBER_THEN_DIGIT else 0)))
    for m in _NUMBER_WORD.finditer(text):
        out.append(Candidate(int(m[1]), m.start(), m.end(), _quality(text, m.start(), m.end(),
                                                                     preceded_by_digit=False)
                             + 1))
    out.sort(key=lambda c: c.pos)
    return out


def _quality(text: str, pos: int, body: int, *, preceded_by_digit: bool) -> float:
    before = text[pos - 1] if pos else "\n"
    after = text[body] if body < len(text) else ""
    score = 0.0
    if preceded_by_digit:
        score -= 1
    elif before in "\n\r":
        score += 3
    elif before.isspace():
        score += 1.5
    elif before in _SENTENCE_END:
        score += 1
    elif before == ".":
        score -= 5
    if after.isspace() or (after and not after.isascii()) or after.isalpha() or after in "(（`":
        score += 0.5
    if not after or after in ")）%":
        score -= 3
    return score


def choose_chain(text: str, candidates: list[Candidate], headers: list[SectionHead],
                 *, min_length: int = 2) -> tuple[list[Candidate], bool]:
    """The best chain 1, 2, 3 … (a restart at 1 is allowed right after a section header);
    returns it and whether numbering restarted."""
    marks = [m.start() for m in ANSWER.finditer(text)]
    has_answers = len(marks) >= 2
    head_pos = [h.end for h in headers]
    by_number: dict[int, list[int]] = {}
    for c in candidates:
        by_number.setdefault(c.number, []).append(c.pos)

    def count(a: int, b: int, positions: list[int]) -> int:
        return bisect_left(positions, b) - bisect_left(positions, a)

    def seg(a: Candidate, b: Candidate) -> float:
        if b.pos - a.body < min_length:
            return -20
        if not has_answers:
            return 0
        k = count(a.body, b.pos, marks)
        return 3 if k == 1 else -5 if k == 0 else -3 * (k - 1)

    def final(c: Candidate) -> float:
        if not has_answers:
            return 0
        k = count(c.body, len(text), marks)
        if k == 0:
            # "答案：架构：1.接入层…2.推理层…" at the end: "2." continues a list inside the
            # last answer, not a question (a "1." sits between that answer's key and it)
            before = bisect_left(marks, c.pos) - 1
            if before >= 0 and count(marks[before], c.pos, by_number.get(c.number - 1, [])):
                return -8
            return 0
        return 3 if k == 1 else -3 * (k - 1)

    first_header = headers[0].start if headers else 0
    best: list[float] = []
    back: list[int] = []
    seen: dict[int, list[int]] = {}  # number -> indices so far: only N-1 precedes N
    for i, c in enumerate(candidates):
        score, prev = float("-inf"), -1
        if c.pos >= first_header:  # a chain may start here (best at 1: an excerpt may not)
            score = c.quality + 4 - (0 if c.number == 1 else 6)
        preds = range(i) if c.number == 1 else seen.get(c.number - 1, [])
        for j in preds:
            p = candidates[j]
            if best[j] == float("-inf") or p.body > c.pos:
                continue
            follows = p.number + 1 == c.number
            # numbering that starts again at 1 right after a section header
            restart = c.number == 1 and c.quality >= 0 and \
                count(p.body, c.pos + 1, head_pos) > 0
            if not (follows or restart):
                continue
            s = best[j] + seg(p, c) + c.quality + 4 - (2 if restart else 0)
            # ties go to the later predecessor: "…解析：1.甲对；2.乙错。2.下列…" — the list item
            # "2." and the question "2." score alike, and the question comes last
            if s >= score:
                score, prev = s, j
        best.append(score)
        back.append(prev)
        seen.setdefault(c.number, []).append(i)
    if not candidates or max(best, default=float("-inf")) == float("-inf"):
        return [], False
    end = max(range(len(candidates)), key=lambda i: best[i] + final(candidates[i]))
    chain: list[Candidate] = []
    while end >= 0:
        chain.append(candidates[end])
        end = back[end]
    chain.reverse()
    restarted = any(b.number <= a.number for a, b in zip(chain, chain[1:]))
    return chain, restarted


def skeleton(text: str) -> Skeleton:
    """Split a (normalised, simplified) paper into its parts."""
    candidates = find_candidates(text)
    headers = find_headers(text, candidates)
    chain, restarted = choose_chain(text, candidates, headers)
    has_answers = len(ANSWER.findall(text)) >= 2
    first = min([chain[0].pos] if chain else [len(text)] +
                ([headers[0].start] if headers else []))
    if headers and chain:
        first = min(first, headers[0].start)
    preamble = text[:first].strip()
    title, _, rest = preamble.partition("\n")
    questions: list[RawQuestion] = []
    for k, c in enumerate(chain):
        end = chain[k + 1].pos if k + 1 < len(chain) else len(text)
        section = max((i for i, h in enumerate(headers) if h.start < c.pos), default=-1)
        # a header inside the body belongs to the next section
        for h in headers:
            if c.body <= h.start < end:
                end = h.start
                break
        number = k + 1 if restarted else c.number
        questions.append(RawQuestion(number, c.pos, end, section, text[c.body:end]))
    return Skeleton(clean_title(title), rest.strip(), headers, questions, restarted,
                    has_answers)


def clean_title(title: str) -> str:
    """The paper's name without "及答案" / "（含答案）" and the like."""
    title = title.strip().strip("#*").strip()
    title = re.sub(r"[（(]?(?:附|含|带)?(?:参考)?答案(?:及|与)?(?:解析|详解)?[）)]?$", "", title)
    return re.sub(r"(?:及|与|和)$", "", title.strip()).strip()


def split_question(q: RawQuestion) -> None:
    """Fill ``stem``, ``marker``, ``answer``, ``explanation`` and ``inline_points``."""
    body = q.text
    m = _INLINE_POINTS.match(body)
    if m:
        q.inline_points = float(m[1])
        body = body[m.end():]
    am = ANSWER.search(body)
    if am:
        q.stem, q.marker, rest = body[:am.start()], am.group(0), body[am.end():]
        em = EXPLANATION.search(rest) if "解析" not in q.marker else None
        if em:
            q.answer, q.explanation = rest[:em.start()], rest[em.end():]
        else:
            q.answer = rest
    else:
        em = EXPLANATION.search(body)
        if em:
            q.stem, q.explanation = body[:em.start()], body[em.end():]
        else:
            q.stem = body
    q.stem, q.answer, q.explanation = q.stem.strip(), q.answer.strip(), q.explanation.strip()


_OPTION_SEPS = ".．、:：)）"


def find_options(stem: str) -> tuple[str, dict[str, str]] | None:
    """``…比？A.xxxB.yyyC.zzz`` -> (stem, {A: xxx, B: yyy, C: zzz}); None without at least
    A and B. Options may also be written (A) … or A、…."""
    best: tuple[int, float, int, list[tuple[str, int, int]]] | None = None
    for m in re.finditer(r"(?<![A-Za-z0-9_])[（(]?A\s*([.．、:：)）])", stem):
        sep = m[1]
        paren = m.group(0).startswith(("(", "（"))
        marks = [("A", m.start(), m.end())]
        pos = m.end()
        for letter in "BCDEFGH":
            pattern = (r"[（(]" if paren else "") + letter + r"\s*" + re.escape(sep)
            nm = re.compile(pattern).search(stem, pos)
            if not nm:
                break
            marks.append((letter, nm.start(), nm.end()))
            pos = nm.end()
        if len(marks) < 2:
            continue
        before = stem[m.start() - 1] if m.start() else "\n"
        bonus = 1.0 if before in _SENTENCE_END or before.isspace() or before in "）)" else 0.0
        key = (len(marks), bonus, -m.start(), marks)
        if best is None or key[:3] > best[:3]:
            best = key
    if best is None:
        return None
    marks = best[3]
    options = {}
    for k, (letter, _, end) in enumerate(marks):
        stop = marks[k + 1][1] if k + 1 < len(marks) else len(stem)
        options[letter] = stem[end:stop].strip()
    return stem[:marks[0][1]].strip(), options


_KEY_RUN = re.compile(r"\s*([A-H](?:\s*[、,，;；/和及与]?\s*[A-H])*)")


def choice_key(answer: str, letters: str, *, single: bool) -> tuple[list[str], str, bool]:
    """Letters of a printed choice key, the rest of the text, and whether it was ambiguous
    (several letters glued together for a single-choice question)."""
    m = _KEY_RUN.match(answer)
    if not m:
        return [], answer, False
    run = m[1]
    keys: list[str] = []
    for ch in run:
        if ch in "ABCDEFGH":
            if ch not in letters:
                break
            if ch not in keys:
                keys.append(ch)
    separated = bool(re.search(r"[、,，;；/和及与\s]", run.strip()))
    rest = answer[m.end():].lstrip(" ：:。.；;，,")
    if single:
        if len(keys) > 1 and not separated:
            return keys[:1], answer[answer.index(keys[0]) + 1:].lstrip(" ：:。.；;，,"), True
        return keys, rest, len(keys) > 1
    return sorted(keys), rest, False


def split_blanks(answer: str, blanks: int) -> list[str] | None:
    """The printed key of a fill-in split into ``blanks`` parts (None if it cannot be)."""
    text = answer.strip().rstrip("。.")
    if blanks <= 1:
        return [text] if text else None
    numbered = [p.strip(" ；;，,") for p in re.split(r"[（(]\s*\d+\s*[)）]|[①②③④⑤⑥⑦⑧⑨]", text)]
    numbered = [p for p in numbered if p]
    if len(numbered) == blanks:
        return numbered
    for sep in ("；", ";", "，", ",", "、", "/"):
        parts = _split_top_level(text, sep)
        if len(parts) == blanks and all(parts):
            return parts
    parts = text.split()
    return parts if len(parts) == blanks else None


def _split_top_level(text: str, sep: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{（【":
            depth += 1
        elif ch in ")]}）】":
            depth = max(0, depth - 1)
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


# "参考答案：一、1.A2.C3.B…" or "答案：1-5 ACBDA": the keys printed after all the questions
_APPENDIX = re.compile(rf"(?:参考答案|答案(?:及|与)?解析|答案汇总|标准答案|答案)\s*[：:]?\s*"
                       rf"(?:[{CN_NUMERALS}]{{1,3}}\s*[、.．][^\d]{{0,16}}?)?"
                       r"(?=1\s*(?:[.．、)）:：](?!\d)|[-–~～至]\s*\d))")
_KEY_RANGE = re.compile(r"(\d{1,3})\s*[-–~～至]\s*(\d{1,3})\s*[：:.．、]?\s*([A-H]+)")


def split_answer_appendix(text: str) -> tuple[str, dict[int, str]]:
    """Questions and, when the keys are printed together after them, the key text of each
    question number; ``(text, {})`` when the answers are inline (or absent)."""
    for m in _APPENDIX.finditer(text):
        before = text[:m.start()]
        if len(ANSWER.findall(before)) >= 2:
            return text, {}  # keys are printed inline
        if m.start() < 0.4 * len(text):
            continue  # an appendix follows the questions; this is a key inside one
        keys = _appendix_keys(text[m.end():])
        questions = {c.number for c in find_candidates(before)}
        if len(keys) >= 2 and len(set(keys) & questions) >= 0.8 * len(keys):
            return before, keys
    return text, {}


def _appendix_keys(text: str) -> dict[int, str]:
    ranges: dict[int, str] = {}
    for m in _KEY_RANGE.finditer(text):
        first, last, letters = int(m[1]), int(m[2]), m[3]
        if last - first + 1 == len(letters):
            ranges.update({first + i: letter for i, letter in enumerate(letters)})
    rest = _KEY_RANGE.sub(" ", text)
    candidates = find_candidates(rest, keys=True)
    headers = find_headers(rest, candidates)
    chain, _ = choose_chain(rest, candidates, headers, min_length=1)
    keys: dict[int, str] = {}
    for k, c in enumerate(chain):
        end = chain[k + 1].pos if k + 1 < len(chain) else len(rest)
        for h in headers:
            if c.body <= h.start < end:
                end = h.start
                break
        key = re.sub(rf"[{CN_NUMERALS}]{{1,3}}\s*[、.．]\s*$", "", rest[c.body:end].strip())
        keys[c.number] = key.strip()
    keys.update(ranges)
    return keys
