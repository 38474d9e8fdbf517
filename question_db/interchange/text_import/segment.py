"""Find the structure of a paper: title, part headings with their scoring rules, question
numbers, options, the printed key and its explanation. The text may keep its line breaks (a
clean copy, a reader's output) or have lost every one (the seeds' run-on extraction).

Question numbers are the hard part: ``答案：T/225.在RLHF中`` is question 24's key ``T/2``
followed by question 25, ``12829.`` is ``128`` + ``29.``, ``Stable Diffusion 1.x`` is no
question, and a ``(1)`` list inside a stem is not either. Every ``N.`` ``N、`` ``N)``
``(N)`` ``第N题`` ``Question N`` ``QN`` is a candidate with a numbering style; the chain
1, 2, 3, … through them is chosen by dynamic programming, preferring candidates at line
starts or after sentence ends, one numbering style throughout, and, when the paper prints
keys inline, a chain where every question holds exactly one key. Numbering restarts at 1
only right after a part heading (``一、…题`` ``第一部分`` ``Part A`` ``Section 2``).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

CN_NUMERALS = "一二三四五六七八九十"
_FULLWIDTH = {c: chr(c - 0xFEE0) for c in list(range(0xFF10, 0xFF1A)) +
              list(range(0xFF21, 0xFF3B)) + list(range(0xFF41, 0xFF5B))}
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)

ANSWER = re.compile(
    r"(?:参考|正确|标准)?答案(?:与解析|及解析|和解析|解析)?\s*[：:]|【(?:参考)?答案(?:与解析)?】|"
    r"(?<![A-Za-z])(?:[Cc]orrect\s*[Aa]nswers?|[Ss]uggested\s*[Aa]nswers?|[Mm]odel\s*[Aa]nswer"
    r"|Answers?|ANSWERS?|Ans\.?|Key|Solution)\s*[:：]")
EXPLANATION = re.compile(r"(?:答案|试题|题目|本题)?解析\s*[：:]|【(?:答案|试题)?解析】|"
                         r"(?<![A-Za-z])(?:Explanation|EXPLANATION|Rationale)\s*[:：]")
# "N." / "N、" (dot-style numbers; "1.x" and "3.5" are versions, not questions)
_NUMBER_RUN = re.compile(r"(\d+)\s*([.．](?!\d)|、)(?![xX](?![A-Za-z0-9]))")
_NUMBER_CLOSE = re.compile(r"(?<![(（\dA-Za-z_])(\d{1,3})\s*[)）](?![\d)）])")
_NUMBER_PAREN = re.compile(r"[（(]\s*(\d{1,3})\s*[)）]")
_NUMBER_WORD = re.compile(r"第\s*(\d{1,3})\s*题\s*[.．、:：]?")
_NUMBER_EN = re.compile(r"(?<![A-Za-z])(?:Question|QUESTION|Problem|PROBLEM|Exercise|Q)\s*"
                        r"(\d{1,3})(?!\d)\s*[.:：)]?")
# numbering styles: a chain keeps one (a "(1)" list inside a "1." paper is not questions)
_FAMILY = {"dot": "n", "dun": "n", "close": "close", "paren": "paren", "di": "di", "en": "en"}
# up to three bracket groups after a heading ("(select all that apply) (3 pts each)",
# "（共30分（8 + 10 + 12））"), one level of nesting; never a bare number "（16）"
_BRACKETS = (r"(?P<rule>(?:[ \t]*[（(\[](?![ \t]*\d{1,3}[ \t]*[）)\]])"
             r"(?:[^（()）\[\]\n]|[（(][^（()）\n]{0,80}[）)]){0,100}[）)\]]){1,3})?")
_HEADER = re.compile(
    rf"(?:第\s*)?([{CN_NUMERALS}]{{1,3}})\s*(?:[、.．]|部分\s*[：:、]?)\s*"
    r"(?P<name>[^\n（(、，。：:；;]{0,16}?(?:题|题型|部分))" + _BRACKETS)
# "第一部分 基础知识" / "第二大题": the name may be anything short
_HEADER_PART = re.compile(
    rf"第\s*([{CN_NUMERALS}]{{1,3}})\s*(?:部分|大题)\s*[：:、.．]?\s*"
    r"(?P<name>[^\n（(，。；;]{0,20}?)" + _BRACKETS + r"(?=\n|\s*第?\s*\d|$)")
_HEADER_EN = re.compile(
    r"(?<![A-Za-z])(?:Part|PART|Section|SECTION)\s*(?P<num>[A-H]|[IVX]{1,4}|\d{1,2})"
    r"(?![A-Za-z0-9])\s*[—–\-:.：]*\s*(?P<name>[^\n(（\[]{0,60}?)" + _BRACKETS +
    r"[ \t]*(?=\n|$|Q|Question|第?\s*\d)")
_GROUP = re.compile(r"[（(\[]((?:[^（()）\[\]]|[（(][^（()）]*[）)])*)[）)\]]")
_RULE_WORDS = re.compile(r"\d\s*(?:分|points?|pts?|marks?)|分|points?|marks?|每|共|total|each",
                         re.I)


_TYPE_WORDS = re.compile(r"选择|选题|填空|判断|简答|问答|论述|计算|推导|编程|程序|代码|设计|"
                         r"分析|综合|应用|案例|算法|实操|实践|证明|阅读")
_POINTS = (r"(?:本(?:小)?题|共|满分)?\s*(\d+(?:\.\d+)?)\s*(?:分|points?|pts?\.?|marks?)"
           r"(?:\s*each)?")
_INLINE_POINTS = re.compile(rf"^\s*[（(\[【]\s*{_POINTS}\s*[)）\]】]\s*|^\s*{_POINTS}\s*[:：.]?\s+",
                            re.I)
_TRAILING_POINTS = re.compile(rf"\s*[（(\[【]\s*{_POINTS}\s*[)）\]】]\s*$", re.I)
# a question bank's type tag right before a number: 【单选题】1、… / [多选题] 2. …
_TYPE_TAG = re.compile(r"[【\[〔]\s*([^】\]〕\n]{1,10}?题)\s*[】\]〕][ \t]*$")
_SENTENCE_END = set("。！？；）)」”’】]》.!?;:：")
PLACEHOLDER = re.compile("\ue000(.)\ue001")
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9,
          "X": 10}


@dataclass
class SectionHead:
    start: int
    end: int
    numeral: int
    title: str  # as printed: "一、单项选择题", "Part A — Multiple choice"
    name: str  # "单项选择题", "Multiple choice"
    rule: str = ""  # inside the brackets: "每题2分，共30分", "2 points each"


@dataclass
class Candidate:
    number: int
    pos: int  # where the number starts
    body: int  # where the question text starts
    quality: float
    style: str = "dot"


@dataclass
class RawQuestion:
    number: int  # in the paper (renumbered 1, 2, 3, … through it when parts restart)
    start: int
    end: int
    section: int  # index into the headers, -1 before the first
    text: str  # the body: after "N." up to the next question or header
    inline_points: float | None = None
    stem: str = ""
    options: dict[str, str] | None = None
    marker: str = ""  # the answer marker as printed ("答案：", "Answer:", "")
    answer: str = ""  # the printed key / answer text
    explanation: str = ""
    printed: int = 0  # the number as printed (restarting per part or not)
    tag: str = ""  # a type tag printed before the number: "【多选题】2、…" -> "多选题"
    key_source: str = ""  # "inline", "part" or "appendix"; "" when no key was found


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
    page marks of a printed original ("第2页共8页") out, line ends to ``\\n``."""
    text = text.translate(_FULLWIDTH).translate(_INVISIBLE).replace("\u00a0", " ")
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u3000", " ")
    return _PAGE_MARK.sub("", _drop_running_heads(text))


_PAGE_LINE = re.compile(r"\s*(?:第\s*\d+\s*页\s*[，,/／]?\s*(?:共\s*\d+\s*页)?|Page\s*\d+(?:\s*of\s*\d+)?"
                        r"|[-–—]?\s*\d{1,3}\s*[-–—]?|\d+\s*/\s*\d+)\s*", re.I)


def _drop_running_heads(text: str) -> str:
    """A printed paper copied page by page: the line beside each page mark that repeats
    (the running title, "《深度学习》期末考试试卷（A卷）") is page furniture, not a stem."""
    if text.count("\n") < 3 or "页" not in text and "age" not in text:
        return text
    lines = text.split("\n")
    marks = [i for i, ln in enumerate(lines) if ln.strip() and _PAGE_LINE.fullmatch(ln)
             and not ln.strip().isdigit()]
    if not marks:
        return text
    title = next((ln.strip() for ln in lines if ln.strip()), "")
    beside: dict[str, list[int]] = {}
    for i in marks:
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(lines) and not lines[j].strip():
                j += step  # blank lines between the mark and its neighbour
            if 0 <= j < len(lines) and j not in marks:
                beside.setdefault(lines[j].strip(), []).append(j)
    drop = {j for line, where in beside.items()
            if len(where) >= 2 or (len(line) >= 6 and line in title and where[0] > 0)
            for j in where}
    return "\n".join(ln for i, ln in enumerate(lines) if i not in drop)


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


def _ordinal(label: str) -> int:
    """A part's label as a number: 一 1, B 2, III 3, 4 4 (0 when it is none of these)."""
    if label.isdigit():
        return int(label)
    if label in _ROMAN:
        return _ROMAN[label]
    if len(label) == 1 and "A" <= label <= "H":
        return ord(label) - ord("A") + 1
    return cn_numeral(label)


def first_headings(text: str) -> list[SectionHead]:
    """Every heading that opens a paper's first part (一、…题 / 第一部分 / Part A / Part I /
    Section 1), wherever it is: a second one after questions starts a second paper."""
    out = []
    for pattern, kind in ((_HEADER, "cn"), (_HEADER_PART, "cn"), (_HEADER_EN, "en")):
        for m in pattern.finditer(text):
            label = m["num"] if kind == "en" else m[1]
            name = (m["name"] or "").strip()
            if pattern is _HEADER and not (_TYPE_WORDS.search(name) or name.endswith("题")):
                continue
            if _ordinal(label) == 1:
                out.append(SectionHead(m.start(), m.end(), 1, m.group(0).strip(), name))
    return sorted(out, key=lambda h: h.start)


def find_headers(text: str, candidates: list[Candidate]) -> list[SectionHead]:
    """Part headings in order (一、二、… / 第一部分 / Part A, B … / Section 1, 2 …), each
    followed closely by a question number; one numbering sequence for the paper."""
    starts = sorted(c.pos for c in candidates)
    found: list[tuple[int, int, int, str, str, str, int]] = []
    for pattern, kind in ((_HEADER, "cn"), (_HEADER_PART, "cn"), (_HEADER_EN, "en")):
        for m in pattern.finditer(text):
            label = m["num"] if kind == "en" else m[1]
            name = (m["name"] or "").strip(" \t—–-:：.")
            if pattern is _HEADER and not (_TYPE_WORDS.search(name) or name.endswith("题")):
                continue
            numeral = _ordinal(label)
            if numeral == 0:
                continue
            k = bisect_left(starts, m.end())
            gap = 40 if kind == "cn" else 240  # English parts often carry instructions
            if k >= len(starts) or len(text[m.end():starts[k]].strip()) > gap:
                continue
            title_end = m.end("name") if m["name"] else m.end("num" if kind == "en" else 1)
            title = text[m.start():title_end].strip()
            title = re.sub(r"\s+", "" if kind == "cn" else " ", title)
            rule, extra = _split_brackets(m["rule"] or "")
            name = (name + " " + extra).strip()
            found.append((m.start(), m.end(), numeral, title, name, rule,
                          0 if kind == "cn" else 1))
    found.sort()
    heads: list[SectionHead] = []
    family = None
    for start, end, numeral, title, name, rule, kind in found:
        if heads and start < heads[-1].end:
            continue  # two patterns matched the same heading
        if numeral != (heads[-1].numeral + 1 if heads else 1) or \
                (family is not None and kind != family):
            continue
        family = kind
        heads.append(SectionHead(start, end, numeral, title, name, rule))
    return heads


def _split_brackets(groups: str) -> tuple[str, str]:
    """A heading's bracket groups: the scoring rule (points) and the rest (a remark such as
    "select all that apply", which still says what the part is)."""
    rules, remarks = [], []
    for g in _GROUP.finditer(groups):
        (rules if _RULE_WORDS.search(g[1]) else remarks).append(g[1].strip())
    return "；".join(rules), " ".join(remarks)


_NUMBER_THEN_DIGIT = re.compile(r"(\d+)\s*([.．])(?=\d)")


def find_candidates(text: str, *, keys: bool = False) -> list[Candidate]:
    """Every number that may start a question. ``keys``: a list of printed keys, where
    ``22.2×(HB)`` is key 22 starting with a digit (worse quality)."""
    out: list[Candidate] = []
    runs = list(_NUMBER_RUN.finditer(text)) + (list(_NUMBER_THEN_DIGIT.finditer(text))
                                               if keys else [])
    for m in runs:
        digits, start = m[1], m.start(1)
        style = "dun" if m[2] == "、" else "dot"
        for k in range(len(digits)):
            if digits[k] == "0" or len(digits) - k > 3:
                continue
            pos = start + k
            quality = _quality(text, pos, m.end(), preceded_by_digit=k > 0)
            out.append(Candidate(int(digits[k:]), pos, m.end(),
                                 quality - (1.5 if m.re is _NUMBER_THEN_DIGIT else 0), style))
    for pattern, style, bonus in ((_NUMBER_WORD, "di", 1.0), (_NUMBER_EN, "en", 1.0),
                                  (_NUMBER_CLOSE, "close", -0.5),
                                  (_NUMBER_PAREN, "paren", -0.5)):
        for m in pattern.finditer(text):
            if style == "en" and m.group(0).startswith("Q") and not m.group(0).startswith(
                    ("Question", "QUESTION")) and text[m.end(1):m.end(1) + 1] not in ".:：) \n":
                continue  # "Q1" needs its own separator: "Q1." / "Q1 " / "Q1:"
            quality = _quality(text, m.start(), m.end(), preceded_by_digit=False) + bonus
            out.append(Candidate(int(m[1]), m.start(), m.end(), quality, style))
    out.sort(key=lambda c: (c.pos, -c.quality))
    return out


def _quality(text: str, pos: int, body: int, *, preceded_by_digit: bool) -> float:
    before = text[pos - 1] if pos else "\n"
    line_start = max(text.rfind("\n", max(0, pos - 120), pos) + 1, pos - 120)
    indent = text[line_start:pos]
    after = text[body] if body < len(text) else ""
    score = 0.0
    if preceded_by_digit:
        score -= 1
    elif before in "\n\r" or (pos and not indent.strip(" \t#>*-") and
                              indent.strip(" \t") in ("", "#", "##", "###", "####")):
        score += 3 if len(indent) < 2 or indent.lstrip(" \t") else 1.5  # indented: nested
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
                 *, min_length: int = 2, restarts: list[int] | None = None
                 ) -> tuple[list[Candidate], bool]:
    """The best chain 1, 2, 3 … (a restart at 1 is allowed right after a part heading,
    or after any of ``restarts``: positions where numbering may start again); returns it
    and whether numbering restarted."""
    marks = [m.start() for m in ANSWER.finditer(text)]
    has_answers = len(marks) >= 2
    parts = [h.end for h in headers]  # a part may number its own way
    head_pos = sorted(set(parts) | set(restarts or ()))
    by_number: dict[int, list[int]] = {}
    for c in candidates:
        by_number.setdefault(c.number, []).append(c.pos)

    def count(a: int, b: int, positions: list[int]) -> int:
        return bisect_left(positions, b) - bisect_left(positions, a)

    def seg(a: Candidate, b: Candidate) -> float:
        if b.pos - a.body < min_length:
            return -20
        style = 0 if a.style == b.style or count(a.body, b.pos + 1, parts) else \
            -2 if _FAMILY[a.style] == _FAMILY[b.style] else -30  # a part may number its own way
        if not has_answers:
            return style
        k = count(a.body, b.pos, marks)
        return style + (3 if k == 1 else -5 if k == 0 else -3 * (k - 1))

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
    positions = [c.pos for c in candidates]
    for i, c in enumerate(candidates):
        score, prev = float("-inf"), -1
        if c.pos >= first_header:  # a chain may start here (best at 1: an excerpt may not)
            score = c.quality + 4 - (0 if c.number == 1 else 6)
        preds = _restart_preds(positions, head_pos, c) if c.number == 1 else \
            seen.get(c.number - 1, [])[-_WINDOW:]
        for j in preds:
            p = candidates[j]
            if best[j] == float("-inf") or p.body > c.pos:
                continue
            follows = p.number + 1 == c.number
            # numbering that starts again at 1 right after a part heading
            restart = c.number == 1 and c.quality >= 0 and \
                p.style == c.style and \
                count(p.body, c.pos + 1, head_pos) > 0 and _just_after(text, head_pos, c)
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


def _just_after(text: str, head_pos: list[int], c: Candidate) -> bool:
    """A part's first question follows its heading closely (its instructions at most)."""
    k = bisect_left(head_pos, c.pos + 1) - 1
    return k >= 0 and c.pos - head_pos[k] <= 2000 and \
        len(text[head_pos[k]:c.pos].strip()) <= 240


def _restart_preds(positions: list[int], head_pos: list[int], c: Candidate) -> range:
    """Predecessors of a "1" right after a part heading: the candidates just before that
    heading (a bounded window, so the search stays linear in the paper's length)."""
    k = bisect_left(head_pos, c.pos + 1) - 1
    if k < 0:
        return range(0)
    last = bisect_left(positions, head_pos[k])
    return range(max(0, last - _WINDOW), last)


_WINDOW = 300  # candidates looked back over; a question holds far fewer numbers than this


def skeleton(text: str) -> Skeleton:
    """Split a (normalised, simplified) paper into its parts."""
    candidates = find_candidates(text)
    headers = find_headers(text, candidates)
    chain, restarted = choose_chain(text, candidates, headers)
    has_answers = len(ANSWER.findall(text)) >= 2
    first = chain[0].pos if chain else len(text)
    if headers and chain:
        first = min(first, headers[0].start)
    preamble = text[:first].strip()
    title, _, rest = preamble.partition("\n")
    questions: list[RawQuestion] = []
    head_starts = [h.start for h in headers]
    tags = [_TYPE_TAG.search(text, max(0, c.pos - 24), c.pos) for c in chain]
    for k, c in enumerate(chain):
        end = chain[k + 1].pos if k + 1 < len(chain) else len(text)
        if k + 1 < len(chain) and tags[k + 1]:
            end = tags[k + 1].start()  # the next question's tag is not this one's text
        section = bisect_left(head_starts, c.pos) - 1
        # a heading inside the body belongs to the next part
        h = bisect_left(head_starts, c.body)
        if h < len(headers) and headers[h].start < end:
            end = headers[h].start
        number = k + 1 if restarted else c.number
        questions.append(RawQuestion(number, c.pos, end, section, text[c.body:end],
                                     printed=c.number, tag=tags[k][1] if tags[k] else ""))
    return Skeleton(clean_title(title), rest.strip(), headers, questions, restarted,
                    has_answers)


def clean_title(title: str) -> str:
    """The paper's name without "及答案" / "（含答案）" / "with answers" and the like."""
    title = title.strip().strip("#*").strip()
    title = re.sub(r"[（(]?(?:附|含|带)?(?:参考)?答案(?:及|与)?(?:解析|详解)?[）)]?$", "", title)
    title = re.sub(r"\s*[(\[]?\s*(?:with\s+)?(?:answers?|solutions?)(?:\s+(?:and|&)\s+"
                   r"explanations?)?\s*[)\]]?$", "", title, flags=re.I)
    return re.sub(r"(?:及|与|和)$", "", title.strip()).strip(" —–-:")


def split_question(q: RawQuestion) -> None:
    """Fill ``stem``, ``marker``, ``answer``, ``explanation`` and ``inline_points``."""
    body = q.text
    m = _INLINE_POINTS.match(body)
    if m:
        q.inline_points = float(m[1] or m[2])
        body = body[m.end():]
    am = ANSWER.search(body)
    if am:
        q.stem, q.marker, rest = body[:am.start()], am.group(0), body[am.end():]
        em = EXPLANATION.search(rest) if "解析" not in q.marker else None
        if em:
            q.answer, q.explanation = rest[:em.start()], rest[em.end():]
        else:
            q.answer = rest
        q.key_source = "inline"
    else:
        em = EXPLANATION.search(body)
        if em:
            q.stem, q.explanation = body[:em.start()], body[em.end():]
        else:
            q.stem = body
    q.stem, q.answer, q.explanation = (_tidy(q.stem), q.answer.strip(),
                                       _tidy(q.explanation))


def trailing_points(stem: str) -> tuple[str, float | None]:
    """``Explain why. [5 marks]`` -> (``Explain why.``, 5.0); points printed after a stem."""
    tm = _TRAILING_POINTS.search(stem)
    if not tm:
        return stem, None
    return stem[:tm.start()].rstrip(), float(tm[1])


def _tidy(text: str) -> str:
    """Trim a field and the list bullet or rule a layout left at its end."""
    return re.sub(r"(?:\n[ \t]*(?:[-*•_]{1,3}|---+)[ \t]*)+$", "", text.strip()).strip()


_OPTION_SEPS = ".．、:：)）"


def find_options(stem: str) -> tuple[str, dict[str, str]] | None:
    """``…比？A.xxxB.yyyC.zzz`` -> (stem, {A: xxx, B: yyy, C: zzz}); None without at least
    A and B. Options may also be written ``(A)`` ``A、`` ``A)`` ``(a)`` ``a)`` ``a.``, one a
    line, several on a line or as list items; the letters come back upper-case."""
    best: tuple[int, float, int, list[tuple[str, int, int]]] | None = None
    for first in "Aa":
        for m in re.finditer(rf"(?<![A-Za-z0-9_])[（(]?{first}\s*([.．、:：)）])", stem):
            sep = m[1]
            paren = m.group(0).startswith(("(", "（"))
            if paren and sep not in ")）":
                continue  # "(A." is no option
            marks = [("A", m.start(), m.end())]
            pos = m.end()
            letters = "BCDEFGH" if first == "A" else "bcdefgh"
            for letter in letters:
                guard = "" if first == "A" or paren else r"(?<![A-Za-z0-9_])"
                pattern = guard + (r"[（(]" if paren else "") + letter + r"\s*" + \
                    (r"[)）]" if paren else re.escape(sep))
                nm = re.compile(pattern).search(stem, pos)
                if not nm:
                    break
                marks.append((letter.upper(), nm.start(), nm.end()))
                pos = nm.end()
            if len(marks) < 2:
                continue
            before = stem[m.start() - 1] if m.start() else "\n"
            bonus = 1.0 if before in _SENTENCE_END or before.isspace() or before in "）)" \
                else 0.0
            key = (len(marks), bonus, -m.start(), marks)
            if best is None or key[:3] > best[:3]:
                best = key
    if best is None:
        return None
    marks = best[3]
    options = {}
    for k, (letter, _, end) in enumerate(marks):
        stop = marks[k + 1][1] if k + 1 < len(marks) else len(stem)
        options[letter] = _option_text(stem[end:stop])
    return _option_text(stem[:marks[0][1]]), options


def _option_text(text: str) -> str:
    """An option's text without the list bullet or the table bar of the next one."""
    return re.sub(r"[\s\-*•|]+$", "", text.strip()).strip()


_KEY_LETTER = r"(?:[（(]\s*[A-Ha-h]\s*[)）]|[A-H]+(?![A-Za-z])|[a-h](?![A-Za-z]))"
_KEY_RUN = re.compile(rf"\s*({_KEY_LETTER}(?:\s*(?:[、,，;；/&]|and|和|及|与)?\s*"
                      rf"{_KEY_LETTER})*)")


def choice_key(answer: str, letters: str, *, single: bool) -> tuple[list[str], str, bool]:
    """Letters of a printed choice key (``B`` ``BD`` ``B、D`` ``(b)`` ``(a), (c)``), the
    rest of the text, and whether it was ambiguous (several letters glued together for a
    single-choice question)."""
    m = _KEY_RUN.match(answer)
    if not m:
        return [], answer, False
    run = m[1]
    keys: list[str] = []
    for ch in re.sub(r"\band\b", " ", run):
        if ch.upper() in "ABCDEFGH" and ch.isalpha():
            letter = ch.upper()
            if letter not in letters:
                break
            if letter not in keys:
                keys.append(letter)
    separated = bool(re.search(r"[、,，;；/和及与&()（）\s]|and", run.strip()))
    rest = answer[m.end():].lstrip(" ：:。.；;，,")
    if single:
        if len(keys) > 1 and not separated:
            cut = answer.upper().index(keys[0]) + 1
            return keys[:1], answer[cut:].lstrip(" ：:。.；;，,"), True
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
