"""Assemble a ``DraftPaper`` from a damaged paper's text.

Order: simplify (t2s, glosses out), hide code blocks behind placeholders, find the
skeleton (``segment``), then per question: the type (section header first, then shape),
points (inline ``（8分）``, then the header's rule), the printed key, and every field's
text repaired by ``prose`` (code by ``code``), collecting a ``ReviewFlag`` per repair made
or doubt found. Every question is a draft: ``seed_answer`` and ``answer`` are the printed
key (``answer`` is None when nothing was printed).
"""
from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field

from ...model import BLANK_MARK, Problem, ReviewFlag
from ..pack import DraftPaper, DraftQuestion, DraftSection, ImportResult
from . import keys
from .bare_code import fence_bare_code
from . import segment as sg
from .code import CodeResult, repair_block, split_language
from .code_lexer import NAME, lex
from .prose import Note, repair_compile_calls, repair_prose, to_simplified

SECTION_TYPES = (
    (r"多选|多项选择|不定项|(?i:multiple[- ]?(?:answer|response|select)|select all|"
     r"multi[- ]?select|choose all|one or more)", "multiple_choice"),
    (r"单选|单项选择|(?i:single[- ]?(?:answer|choice|select)|choose one|one answer)",
     "single_choice"),
    (r"判断|是非|(?i:true\s*(?:/|or|-|and)\s*false|true-false|\bT/F\b)", "true_false"),
    (r"填空|(?i:fill[- ]?in|blanks?\b|completion|cloze)", "fill_blank"),
    (r"编程|程序|代码|算法|上机|实现题|(?i:coding|programming|\bcode\b|implementation)",
     "programming"),
    (r"计算|推导|证明|(?i:calculation|computation|derivation|numerical|problems? solving)",
     "calculation"),
    (r"系统设计|架构设计|方案设计|设计题|(?i:system design|design)", "system_design"),
    (r"简答|问答|论述|分析|案例|阅读|应用|名词解释|(?i:short[- ]?answer|essay|open[- ]ended|"
     r"discussion|written|long answer|questions? and answers?)", "short_answer"),
    (r"选择|(?i:multiple[- ]?choice|\bchoice\b|\bMCQs?\b)", "choice"),
)
TYPE_NAMES = {"single_choice": "单选题", "multiple_choice": "多选题", "fill_blank": "填空题",
              "calculation": "计算题", "short_answer": "简答题", "system_design": "系统设计题",
              "programming": "编程题"}
TYPE_NAMES_EN = {"single_choice": "Single choice", "multiple_choice": "Multiple choice",
                 "fill_blank": "Fill in the blanks", "calculation": "Calculation",
                 "short_answer": "Short answer", "system_design": "System design",
                 "programming": "Programming"}
DEFAULT_POINTS = {"single_choice": 2, "multiple_choice": 3, "fill_blank": 2,
                  "calculation": 10, "short_answer": 10, "system_design": 20,
                  "programming": 20}
MINUTES = {"single_choice": 1.5, "multiple_choice": 2.5, "fill_blank": 2, "short_answer": 10,
           "system_design": 30}  # calculation and programming: 1 minute per point
TRUE_WORDS = ("正确", "对", "是", "√", "✓", "✔", "T", "True", "Y")
FALSE_WORDS = ("错误", "错", "否", "×", "✗", "✘", "F", "False", "N")
# What an imported draft says where the source said nothing, in the paper's language.
SELF_MARKED = {"zh": "对照原卷答案自评（导入草稿：评分要点尚未由人整理）",
               "en": "Mark yourself against the source's answer (imported draft: no grader "
                     "has split it into points yet)"}
NO_ANSWER = {"zh": "（原卷未给出答案）", "en": "(the source gives no answer)"}
_FENCE = re.compile(r"```(.*?)(```|$)", re.S)
_INLINE = re.compile(r"`([^`\n]{1,200})`")
_NOT_INLINE = re.compile(r"答案|解析|[，。：；？！]|\d[.．、][\u4e00-\u9fff]")
_BLANK = re.compile(r"_{3,}|(?<![A-Za-z0-9_.])[（(]\s{0,3}[)）]")  # not a call: f()
_CODE_START = re.compile(r"(?<![A-Za-z0-9_])(?:import\s?[A-Za-z_]|from\s?[\w.]+\s?import|"
                         r"def\s?\w+\(|class\s?\w+[(:]|@\w+(?:\.\w+)*\(?\)?def)")
_TERMINAL = tuple("。！？.!?）)」”’】]》…;；")


class NoQuestions(ValueError):
    """The text cannot be imported as one paper (it holds no numbered questions, or more
    than one paper, or is too large); ``str()`` names the file and says why. The readers
    turn it into ``UnreadableInput``."""


MAX_CHARS = 10_000_000  # ~10 MB of text: a paper is far smaller; above it, a message
_TITLE_WORDS = re.compile(r"试卷|试题|考试|测试|笔试|真题|模拟|练习|[Ee]xam|[Tt]est\b|[Pp]aper|[Qq]uiz")


_PAPER_WORDS = re.compile(r"试卷|试题(?!解析)|练习|题库|真题|模拟|考试|笔试|[Ee]xam\b|[Qq]uiz\b")


def _second_paper(text: str) -> tuple[int, str] | None:
    """Where a second paper starts in one file, after the first paper's questions: a title
    line, then numbering from 1 again (a first part heading or the first question itself).
    (position, title)"""
    candidates = sg.find_candidates(text)
    positions = [c.pos for c in candidates]
    starts = [h.start for h in sg.first_headings(text) if h.numeral == 1]
    # well-placed "1"s with a "2" of their style after them: numbering that starts over
    restarts: set[int] = set()
    for i, c in enumerate(candidates):
        if "\n" in text and c.number == 1 and c.quality >= 1 and any(
                d.number == 2 and d.style == c.style for d in candidates[i + 1:i + 40]):
            restarts.add(_tag_start(text, c.pos))
    starts = sorted(set(starts) | restarts)
    for at in starts[1:]:
        if bisect.bisect_left(positions, at) - bisect.bisect_left(positions, starts[0]) < 2:
            continue  # no questions between the two starts
        window = text[max(0, at - 160):at].rstrip()
        if at in restarts:  # no heading: the paper's own title on one of the two lines above
            lines = [ln.strip() for ln in window.split("\n") if ln.strip()][-2:]
            words = _PAPER_WORDS
        else:
            lines = [ln.strip() for ln in re.split(r"[\n。！？]", window) if ln.strip()][-1:]
            words = _TITLE_WORDS
        for line in lines:
            if words.search(line) and not sg.ANSWER.search(line) and \
                    not sg.EXPLANATION.search(line) and len(line) <= 60 and \
                    not line.endswith(("。", "；", ";", "：", ":")):
                return text.rfind(line, 0, at), line
    return None


def _tag_start(text: str, pos: int) -> int:
    """Where a question's line starts, its type tag (【单选题】) included."""
    line = text.rfind("\n", max(0, pos - 24), pos) + 1
    return line if line and not text[line:pos].strip(" \t【】[]〔〕单多选择判断填空题") else pos


@dataclass
class _Code:
    language: str
    raw: str
    closed: bool
    inline: bool = False
    result: CodeResult | None = None


@dataclass
class _Field:
    text: str
    flags: list[ReviewFlag] = field(default_factory=list)
    code: list[CodeResult] = field(default_factory=list)


class _Builder:
    def __init__(self, text: str, *, name: str):
        self.name = name
        self.codes: list[_Code] = []
        self.warnings: list[Problem] = []
        text = sg.normalise(to_simplified(text))
        # a run-on extraction lost its spaces too (they are put back between Chinese and
        # Latin text, as the bank writes it); a clean copy keeps its spacing as printed
        self.run_on = text.count("\n") < 3
        if not self.run_on:  # code printed as bare lines: fenced, then repaired
            text = fence_bare_code(text)
        self.text = _plain(self._protect(text))
        self.language = _language(self.text)
        self.vocabulary = self._code_vocabulary()

    # --- code blocks behind placeholders ---------------------------------------------------
    def _protect(self, text: str) -> str:
        def fence(m: re.Match) -> str:
            lang, code = split_language(m[1])
            self.codes.append(_Code(lang, code, closed=bool(m[2])))
            return self._placeholder(len(self.codes) - 1)

        text = _FENCE.sub(fence, text)

        def inline(m: re.Match) -> str:
            if _NOT_INLINE.search(m[1]):  # a stray backtick paired across prose
                return m.group(0)
            self.codes.append(_Code("", m[1], closed=True, inline=True))
            return self._placeholder(len(self.codes) - 1)

        return _INLINE.sub(inline, text)

    def fence_unfenced_code(self, answer: str, flags: list[ReviewFlag]) -> str:
        """A programming answer printed without ``` fences: the code is taken from its
        first ``import``/``from``/``def``/``class``/``@`` to the end of the answer."""
        m = _CODE_START.search(answer)
        if not m:
            return answer
        self.codes.append(_Code("python", answer[m.start():], closed=True))
        self.vocabulary.update(t.text for t in lex(answer[m.start():]) if t.kind == NAME)
        flags.append(ReviewFlag("code_boundary", answer[m.start():m.start() + 40],
                                "the code had no ``` fence: it was taken from here to the end "
                                "of the answer; check where it really ends", "answer"))
        return answer[:m.start()] + self._placeholder(len(self.codes) - 1)

    @staticmethod
    def _placeholder(index: int) -> str:
        return f"\ue000{chr(0xE100 + index)}\ue001"

    def _code_vocabulary(self) -> Counter:
        """Names in all of the paper's code: a name glued in one block may be attested in
        another (``config`` in the FSDP block of the same answer)."""
        names: Counter = Counter()
        for code in self.codes:
            names.update(t.text for t in lex(code.raw) if t.kind == NAME)
        return names

    def restore_source(self, text: str) -> str:
        def put(m: re.Match) -> str:
            code = self.codes[ord(m[1]) - 0xE100]
            if code.inline:
                return f"`{code.raw}`"
            return f"```{code.language}{code.raw}" + ("```" if code.closed else "")
        return sg.PLACEHOLDER.sub(put, text)

    # --- fields -----------------------------------------------------------------------------
    def field(self, text: str, name: str) -> _Field:
        """Repaired Markdown of one field, with its flags and code blocks."""
        out = _Field("")
        parts: list[str] = []
        last = 0
        for m in sg.PLACEHOLDER.finditer(text):
            parts.append(self._prose(text[last:m.start()], name, out))
            parts.append(self._code(self.codes[ord(m[1]) - 0xE100], name, out))
            last = m.end()
        parts.append(self._prose(text[last:], name, out))
        out.text = "".join(parts).strip()
        return out

    def _prose(self, text: str, name: str, out: _Field) -> str:
        if not text:
            return ""
        fixed, notes = repair_prose(text, spacing=self.run_on)
        out.flags += [_flag(n, name) for n in notes]
        return re.sub(r"\n{3,}", "\n\n", fixed)

    def _code(self, code: _Code, name: str, out: _Field) -> str:
        if code.inline:
            fixed, notes = repair_compile_calls(code.raw)
            out.flags += [_flag(n, name) for n in notes]
            return f"`{fixed}`"
        if code.result is None:
            code.result = repair_block(code.language, code.raw, vocabulary=self.vocabulary)
        result = code.result
        out.code.append(result)
        where = f"{name}.code"
        out.flags += [ReviewFlag(f.kind, f.text, f.why, where) for f in result.findings]
        lang = result.language or code.language
        return f"\n\n```{lang}\n{result.text}```\n\n"


_EMPHASIS = re.compile(r"\*\*(?=\S)([^\n]+?)(?<=\S)\*\*")
_HEADING_MARK = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.M)
_QUOTE_MARK = re.compile(r"^[ \t]{0,3}>[ \t]?", re.M)


# ("参考答案" alone heads an appendix; "Answers" and "Answer key" too: not these)
_BARE_ANSWER = re.compile(r"^[ \t]*(?:(?:Show|View|Reveal|Click for)\s+(?:the\s+)?)?"
                          r"(?:[Aa]nswer|[Ss]olution)[ \t]*\n|"
                          r"^[ \t]*(?:查看|显示|点击查看)(?:答案|解析)[ \t]*\n", re.M)
# a question bank's metadata lines: not part of the explanation they follow
_METADATA = re.compile(r"^[ \t]*(?:难度|难易程度|知识点|考点|来源|题型|Difficulty|Topic|Source)"
                       r"[ \t]*[:：][^\n]*$|^[ \t]*[⬆↑^]?\s*(?:Back to top|返回顶部|回到顶部)[ \t]*$",
                       re.M | re.I)


def _language(text: str) -> str:
    """``zh-Hans`` when Chinese carries the paper (even a tenth of its letters: a Chinese
    paper is full of English terms), else ``en``."""
    sample = sg.PLACEHOLDER.sub("", text[:200_000])
    cjk = sum(1 for ch in sample if "\u4e00" <= ch <= "\u9fff")
    latin = sum(1 for ch in sample if ch.isascii() and ch.isalpha())
    return "zh-Hans" if cjk >= 0.1 * (cjk + latin) else "en"


def _answer_label(m: re.Match) -> str:
    """A bare "Show answer" line is the answer's label, unless a label follows anyway."""
    after = m.string[m.end():m.end() + 80].lstrip()
    return "\n" if sg.ANSWER.match(after) else "Answer:\n"


def _plain(text: str) -> str:
    """Markdown's emphasis, heading and quote marks out of the prose (code is already
    behind placeholders): ``### Question 1`` and ``**Answer:** (c)`` read as printed; a
    line that is only "Answer" (a ``<details>`` summary) is the answer label; a bank's
    难度 / 知识点 lines are dropped."""
    text = _EMPHASIS.sub(r"\1", text)
    text = _BARE_ANSWER.sub(_answer_label, text)
    text = _METADATA.sub("", text)
    text = _HEADING_MARK.sub("", text)
    return _QUOTE_MARK.sub("", text)


def _flag(note: Note, name: str) -> ReviewFlag:
    return ReviewFlag(note.kind, note.text, note.why, name)


def section_type(name: str) -> str:
    for pattern, qtype in SECTION_TYPES:
        if re.search(pattern, name):
            return qtype
    return ""


@dataclass
class Rule:
    per_question: float | None = None
    per_blank: float | None = None
    total: float | None = None
    mc_rule: str | None = None


def parse_rule(text: str) -> Rule:
    """``每题2分，共30分``, ``每空2分``, ``共35分``, ``多选少选均不得分``, ``少选得1分``,
    ``2 points each``, ``5 marks each, 20 marks total``, ``Total: 30 points``."""
    rule = Rule()
    unit = r"\s*(?:分|points?|pts?\.?|marks?)"
    if m := (re.search(r"每(?:小|道)?题\s*(?:各)?\s*(\d+(?:\.\d+)?)\s*分", text) or
             re.search(r"(\d+(?:\.\d+)?)\s*分\s*[/每]\s*(?:小|道)?题", text) or
             re.search(rf"(\d+(?:\.\d+)?){unit}\s*(?:each|per question|/\s*question|apiece)",
                       text, re.I) or
             re.search(rf"(?:each|per question)[^0-9,;]{{0,20}}?(\d+(?:\.\d+)?){unit}",
                       text, re.I)):
        rule.per_question = float(m[1])
    if m := (re.search(r"每空\s*(\d+(?:\.\d+)?)\s*分", text) or
             re.search(rf"(\d+(?:\.\d+)?){unit}\s*(?:per|each|/)\s*blank", text, re.I)):
        rule.per_blank = float(m[1])
    if m := (re.search(r"(?:共|总|满分|合计)\s*(?:计)?\s*(\d+(?:\.\d+)?)\s*分", text) or
             re.search(rf"(\d+(?:\.\d+)?){unit}\s*(?:in\s*)?total", text, re.I) or
             re.search(rf"total(?:\s*of)?\s*[:：]?\s*(\d+(?:\.\d+)?){unit}", text, re.I)):
        rule.total = float(m[1])
    elif rule.per_question is None and rule.per_blank is None and (
            m := re.fullmatch(rf"\s*(\d+(?:\.\d+)?){unit}\s*", text, re.I) or
            re.search(rf"^\s*[（(\[]?\s*(\d+(?:\.\d+)?){unit}\s*[)）\]]?\s*$", text, re.I)):
        rule.total = float(m[1])
    if re.search(r"(?:少选|漏选|部分选对|选对部分)[^，。,;；]*?得\s*(?:\d|部分|一半|相应)", text) or \
            re.search(r"partial (?:credit|marks)", text, re.I):
        rule.mc_rule = "partial"
    elif re.search(r"(?:多选|少选|漏选|错选)[^。;；]*?(?:均|都|即)?不(?:得|给)分", text) or \
            re.search(r"all[- ]or[- ]nothing|no partial", text, re.I):
        rule.mc_rule = "all_or_nothing"
    return rule


def _header_rule(head: sg.SectionHead) -> Rule:
    """Points from a heading's brackets (``（15分）``); the multiple-choice rule may also
    sit in its name (``多选题，少选得1分``)."""
    rule = parse_rule(head.rule)
    if rule.mc_rule is None:
        rule.mc_rule = parse_rule(head.name).mc_rule
    return rule


def import_text(text: str, *, paper_id: str, title: str | None = None,
                source: str | None = None, encoding: str = "", name: str = "<text>"
                ) -> ImportResult:
    """A damaged paper's text -> an ``ImportResult`` (draft paper + warnings)."""
    if len(text) > MAX_CHARS:
        raise NoQuestions(f"{name}: {len(text) / 1e6:.1f} million characters is more than a "
                          f"paper holds (the limit is {MAX_CHARS / 1e6:.0f} million): split it")
    b = _Builder(text, name=name)
    if second := _second_paper(b.text):
        line = b.text.count("\n", 0, second[0]) + 1
        where = f"line {line}" if "\n" in b.text else f"character {second[0] + 1}"
        raise NoQuestions(f"{name}: holds more than one paper: a second one starts at "
                          f"{where} (“{b.restore_source(second[1])}”); save each paper in "
                          f"a file of its own and import them one by one")
    full = b.text
    b.text, appendix = keys.split_answer_appendix(b.text)
    appendix_text = full[len(b.text):] if appendix is not None else ""
    headers = sg.find_headers(b.text, sg.find_candidates(b.text))
    b.text, part_keys = keys.cut_part_keys(b.text, headers)
    sk = sg.skeleton(b.text)
    if not sk.questions:
        raise NoQuestions(f"{name}: no numbered questions found (expected “1.”, “1、”, "
                          f"“第1题” or “Question 1” before each question)")
    if sk.renumbered:
        b.warnings.append(Problem(name, "-", "number", "question numbers restart in each "
                                  "section; renumbered 1, 2, 3, … through the paper"))
    linked = {"part": 0, "appendix": 0}
    for raw in sk.questions:
        sg.split_question(raw)
        if not raw.marker:
            _link_key(raw, sk, part_keys, appendix, linked)
    if appendix is not None or part_keys:
        b.warnings.append(Problem(name, "-", "answer", f"keys printed away from their "
                                  f"questions: {linked['part']} from part key lists, "
                                  f"{linked['appendix']} from the answer appendix"))
    rules = [_header_rule(h) for h in sk.headers]
    questions: list[DraftQuestion] = []
    section_of: list[int] = []
    for raw in sk.questions:
        header = sk.headers[raw.section] if raw.section >= 0 else None
        rule = rules[raw.section] if raw.section >= 0 else Rule()
        kind = section_type(raw.tag) or (section_type(header.name) if header else "")
        q = _question(b, raw, kind, rule, sk)
        q.source_text = b.restore_source(b.text[raw.start:raw.end]).strip()
        if raw.key_source in ("part", "appendix") and raw.answer:
            # the key as printed away from the question, so the review shows it beside it
            q.source_text += f"\n\n⟶ {raw.printed}. {b.restore_source(raw.answer)[:400]}"
        questions.append(q)
        section_of.append(raw.section)
    _mark_truncation(b, sk, questions, appendix_text)
    if len(questions) >= 3 and not any(q.options or q.seed_answer or q.code
                                       for q in questions):
        # numbered notes read as questions: said before anything is saved, not guessed
        b.warnings.append(Problem(name, "-", "type", f"none of the {len(questions)} numbered "
                                  f"items has options, a printed answer or code: this looks "
                                  f"like notes or a list rather than a paper; check before "
                                  f"saving"))
    sections = _sections(b, sk, rules, questions, section_of)
    for q in questions:  # points are final only now (shared out of section totals)
        if q.rubric:
            q.rubric = [{"text": SELF_MARKED[_tongue(b.language)], "points": q.points}]
    paper_title = title or sk.title or paper_id
    duration, note = _duration(sk.preamble + " " + sk.title, questions, b.language)
    paper = DraftPaper(id=paper_id, title=paper_title, sections=sections, questions=questions,
                       duration_minutes=duration, duration_note=note, source=source,
                       language=b.language)
    return ImportResult(paper, b.warnings, encoding)


def _link_key(raw: sg.RawQuestion, sk: sg.Skeleton, part_keys: list[keys.KeyTable],
              appendix: keys.KeyTable | None, linked: dict[str, int]) -> None:
    """The key of a question printed without one inline: from its part's key list (the
    first after it in the same part), else from the appendix, by part and number."""
    part = sk.headers[raw.section].numeral if raw.section >= 0 else 0
    found = None
    for table in part_keys:
        if table.start >= raw.start and table.part_numerals[0] == part:
            found = table.entry(0, raw.printed) or table.entry(0, raw.number)
            if found:
                raw.key_source = "part"
                break
    if not found and appendix is not None:
        found = appendix.lookup(part, raw.printed, raw.number, renumbered=sk.renumbered)
        if found:
            raw.key_source = "appendix"
    if not found:
        return
    key, note = found
    raw.answer = key
    raw.marker = "（答案见卷末）" if raw.key_source == "appendix" else "（答案见本部分末）"
    if note and not raw.explanation:
        raw.explanation = note
    linked[raw.key_source] += 1


# --- one question ------------------------------------------------------------------------

def _question(b: _Builder, raw: sg.RawQuestion, header_type: str, rule: Rule,
              sk: sg.Skeleton) -> DraftQuestion:
    flags: list[ReviewFlag] = []
    found = sg.find_options(raw.stem)
    if found and _sub_parts(raw):
        found = None  # "(a) Compute … (b) Compute …" answered part by part: no options
    stem_text, options = (found if found else (raw.stem, None))
    stem_text, trailing = sg.trailing_points(stem_text)
    if raw.inline_points is None:
        raw.inline_points = trailing
    blanks = len(_BLANK.findall(raw.stem))
    qtype = header_type
    if qtype in ("single_choice", "multiple_choice", "choice", "true_false") and not options:
        if qtype == "true_false":
            options = {"A": "正确", "B": "错误"}
        else:
            qtype = "fill_blank" if blanks else "short_answer"
            flags.append(ReviewFlag("type", raw.stem[-30:], f"the section is a choice section "
                                    f"but no options A, B, … were found; imported as "
                                    f"{qtype}", "type"))
    if qtype == "true_false":
        qtype = "single_choice"
    if not qtype:
        qtype = _type_from_shape(raw, options, blanks, b)
    if qtype == "choice":
        keys, _, _ = sg.choice_key(raw.answer, "".join(options), single=False)
        qtype = "multiple_choice" if len(keys) > 1 else "single_choice"
    if qtype == "fill_blank" and not blanks and options:
        qtype = "single_choice"
    points = raw.inline_points if raw.inline_points is not None else _points(rule, qtype,
                                                                            blanks)
    if points is None and rule.total is None:
        points = DEFAULT_POINTS[qtype]
        b.warnings.append(Problem(b.name, str(raw.number), "points",
                                  f"no points printed; {points:g} assumed"))
    q = DraftQuestion(number=raw.number, type=qtype, points=points, stem="",
                      key_source=raw.key_source if raw.answer else "")
    stem_field = b.field(_blanks_to_underscores(stem_text) if qtype == "fill_blank"
                         else _drop_answer_brackets(stem_text), "stem")
    q.stem = stem_field.text or "（原卷题干缺失）"
    flags += stem_field.flags
    if options is not None:
        q.options = {}
        for letter, text in options.items():
            f = b.field(text, f"options.{letter}")
            q.options[letter] = f.text or "（空）"
            flags += f.flags
    if qtype == "programming" and not any(not b.codes[ord(m[1]) - 0xE100].inline for m in
                                          sg.PLACEHOLDER.finditer(raw.answer)):
        raw.answer = b.fence_unfenced_code(raw.answer, flags)
    answer_field = b.field(raw.answer, "answer")
    explanation = b.field(raw.explanation, "explanation")
    flags += explanation.flags
    q.explanation = explanation.text
    if qtype in ("single_choice", "multiple_choice"):
        _choice(q, raw, header_type, flags, b)
    elif qtype == "fill_blank":
        _fill(q, raw, answer_field, flags)
    else:
        flags += answer_field.flags
        _subjective(q, answer_field, flags, b.language)
    if not raw.marker and not raw.answer:
        flags.append(ReviewFlag("no_key", "", "the source prints no answer for this question",
                                "answer"))
    q.review = _dedupe(flags)
    return q


_SUB_PART = re.compile(r"[（(]\s*([a-h])\s*[)）]")


def _sub_parts(raw: sg.RawQuestion) -> bool:
    """Sub-questions (a), (b), … rather than options: the answer works through them in
    turn at length, instead of naming one."""
    labels = _SUB_PART.findall(raw.answer)
    return len(raw.answer) > 40 and labels[:2] == ["a", "b"] and \
        _SUB_PART.findall(raw.stem)[:2] == ["a", "b"]


def _type_from_shape(raw: sg.RawQuestion, options, blanks: int, b: _Builder) -> str:
    if options:
        return "choice"
    if blanks:
        return "fill_blank"
    codes = [b.codes[ord(m[1]) - 0xE100] for m in sg.PLACEHOLDER.finditer(raw.answer)]
    if any(not c.inline for c in codes) or re.search(r"实现|编写|写出.{0,6}代码", raw.stem):
        return "programming" if codes else "short_answer"
    return "short_answer"


def _points(rule: Rule, qtype: str, blanks: int) -> float | None:
    if rule.per_question is not None:
        return rule.per_question
    if rule.per_blank is not None and rule.total is None:
        return rule.per_blank * max(1, blanks)
    return None  # shared out from the section total later (None: unknown)


def _drop_answer_brackets(stem: str) -> str:
    """``……的是（ ）`` : the empty answer bracket of a choice stem is not a blank."""
    return re.sub(r"[（(]\s{0,3}[)）]\s*([。？?：:]?)\s*$", r"\1", stem.strip())


def _blanks_to_underscores(stem: str) -> str:
    """Every blank as ``________`` (the loader counts runs of 4+ underscores)."""
    return _BLANK.sub("________", stem)


def _choice(q: DraftQuestion, raw: sg.RawQuestion, header_type: str,
            flags: list[ReviewFlag], b: _Builder) -> None:
    letters = "".join(q.options or {})
    if header_type == "true_false" or (q.options == {"A": "正确", "B": "错误"}):
        key = _true_false_key(raw.answer)
        rest = raw.answer
    else:
        keys, rest, ambiguous = sg.choice_key(raw.answer, letters,
                                              single=q.type == "single_choice")
        if ambiguous:
            flags.append(ReviewFlag("key", raw.answer[:20], "several letters where one is "
                                    "expected; the first was taken", "answer"))
        key = (keys[0] if keys else None) if q.type == "single_choice" else (keys or None)
    if raw.answer and key is None:
        flags.append(ReviewFlag("key", raw.answer[:30], "the printed key is not among the "
                                "options; left unset", "answer"))
    q.answer = key
    q.seed_answer = key if key is not None else ""
    if rest.strip() and not q.explanation:
        extra = b.field(rest, "explanation")
        q.explanation = extra.text
        flags += extra.flags


def _true_false_key(answer: str) -> str | None:
    text = answer.strip()
    for word in sorted(TRUE_WORDS + FALSE_WORDS, key=len, reverse=True):
        if text.startswith(word):
            return "A" if word in TRUE_WORDS else "B"
    return None


def _fill(q: DraftQuestion, raw: sg.RawQuestion, answer: _Field,
          flags: list[ReviewFlag]) -> None:
    blanks = len(BLANK_MARK.findall(q.stem))
    flags += answer.flags
    text = answer.text
    if not text:
        q.answer, q.seed_answer = None, ""
        return
    parts = sg.split_blanks(text, blanks) if blanks else None
    if parts is None:
        q.answer, q.seed_answer = None, [text]
        flags.append(ReviewFlag("blank_count", text[:60],
                                f"the stem has {blanks} blank(s) but the printed key could "
                                f"not be split into as many parts; not scored until fixed",
                                "answer"))
        return
    q.seed_answer = parts
    q.answer = [_variants(p) for p in parts]


def _variants(printed: str) -> list[str]:
    """The printed blank first, then what it offers in brackets: ``X（或Y）`` -> X, Y."""
    out = [printed]
    m = re.fullmatch(r"(.+?)\s*[（(](.+)[)）]", printed)
    if m:
        out.append(m[1].strip())
        alt = re.sub(r"^(?:或|或者|也可|亦可)\s*", "", m[2].strip())
        if alt != m[2].strip():
            out.append(alt)
    return list(dict.fromkeys(v for v in out if v))


def _subjective(q: DraftQuestion, answer: _Field, flags: list[ReviewFlag],
                language: str) -> None:
    text = answer.text
    q.seed_answer = text
    q.rubric = [{"text": SELF_MARKED[_tongue(language)], "points": q.points}]
    if q.type == "calculation":
        q.reference_answer = text or NO_ANSWER[_tongue(language)]
    elif q.type == "programming":
        python = [c for c in answer.code if c.language == "python"]
        if python:
            q.code = {"seed": "\n\n".join(c.text.rstrip("\n") for c in python) + "\n"}
        else:
            q.code = {"starter": "# 原卷没有给出代码\n"}
            flags.append(ReviewFlag("no_code", text[:40], "no Python code was found in the "
                                    "printed answer", "code"))
    else:
        q.answer = text or None


# --- paper level -------------------------------------------------------------------------

def _mark_truncation(b: _Builder, sk: sg.Skeleton, questions: list[DraftQuestion],
                     appendix_text: str) -> None:
    """The source stops mid-answer: an unclosed code block, open brackets, or no final
    punctuation where the end is not a complete key. The end looked at is the document's:
    the appendix when the keys are printed there, else the last question."""
    if not questions:
        return
    raw, q = sk.questions[-1], questions[-1]
    tail = (appendix_text or b.text[raw.start:raw.end]).rstrip()
    codes = [b.codes[ord(m[1]) - 0xE100] for m in sg.PLACEHOLDER.finditer(tail)]
    open_code = next((c for c in codes if not c.closed), None)
    visible = sg.PLACEHOLDER.sub("", tail).rstrip()
    where = ""
    if open_code is not None:
        result = open_code.result
        where = (result.findings and next((f.text for f in result.findings
                                            if f.kind == "truncated"), "")) if result else ""
        where = where or open_code.raw.strip()[-40:]
    elif not appendix_text and q.type in ("single_choice", "multiple_choice", "fill_blank") \
            and q.answer is not None:
        return
    elif tail.endswith("\ue001") or visible.endswith(_TERMINAL) and _balanced(visible):
        return
    elif _ends_with_key(visible):
        return
    else:
        where = visible[-40:]
    q.truncated = True
    q.truncated_at = where.strip()
    q.review.append(ReviewFlag("truncated", q.truncated_at,
                               "the source ends inside this question; what follows the cut "
                               "is missing", "stem" if not raw.marker else "answer"))
    b.warnings.append(Problem(b.name, str(q.number), "truncated",
                              f"the source is cut off here: …{q.truncated_at}"))


_LAST_KEY = re.compile(r"(?:答案|解析|Answer|Explanation|Solution)[^\n]{0,4}[:：]\s*[^\n，。,.]{1,8}$|"
                       r"(?:^|\n)[^\n]{0,40}(?:答案|Answer|Key|\d)[^\n]{0,12}[:：.、)\s]\s*"
                       r"[（(]?[A-Ha-h](?:\s*[,，、]?\s*[（(]?[A-Ha-h][)）]?)*[)）]?\s*$|"
                       r"(?<!\d)\d{1,3}\s*[.、:：)]\s*[^\n\d，,：:；;。]{1,20}$")


def _ends_with_key(visible: str) -> bool:
    """The document ends on a key (``答案：B``, ``Answer: (a), (c)``, ``30、trial``), which
    needs no final punctuation."""
    return bool(_LAST_KEY.search(visible[-200:]))


def _balanced(text: str) -> bool:
    tail = text[-300:]
    return tail.count("（") <= tail.count("）") and tail.count("(") <= tail.count(")")


_BREAKDOWN = re.compile(r"\d+(?:\.\d+)?(?:\s*[+＋]\s*\d+(?:\.\d+)?)+")


def _sections(b: _Builder, sk: sg.Skeleton, rules: list[Rule],
              questions: list[DraftQuestion], section_of: list[int]) -> list[DraftSection]:
    """One section per run of same-type questions under one header; points shared out
    from the header's total where no per-question points were printed."""
    groups: dict[int, list[int]] = {}
    for i, s in enumerate(section_of):
        groups.setdefault(s, []).append(i)
    for s, members in groups.items():
        rule = rules[s] if s >= 0 else Rule()
        unset = [i for i in members if questions[i].points is None]
        header = sk.headers[s] if s >= 0 else None
        sums = _BREAKDOWN.search(header.rule) if header else None
        parts = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", sums[0])] if sums else []
        if unset and len(parts) == len(unset):  # "共35分（10 + 10 + 15）": one a question
            for i, points in zip(unset, parts):
                questions[i].points = points
        elif unset and rule.total is not None:
            fixed = sum(questions[i].points for i in members if i not in unset
                        and questions[i].points is not None)
            share = (rule.total - fixed) / len(unset)
            for i in unset:
                questions[i].points = round(share, 4)
    out: list[DraftSection] = []
    k = 0
    while k < len(questions):
        s = section_of[k]
        j = k
        while j + 1 < len(questions) and section_of[j + 1] == s and \
                questions[j + 1].type == questions[k].type:
            j += 1
        run = questions[k:j + 1]
        header = sk.headers[s] if s >= 0 else None
        rule = rules[s] if s >= 0 else Rule()
        total = sum(q.points for q in run)
        notes = []
        members = groups[s]
        if rule.total is not None and len(members) == len(run) and \
                abs(sum(questions[i].points for i in members) - rule.total) > 0.005:
            notes.append(f"原卷标注共{rule.total:g}分，各题合计{total:g}分")
            b.warnings.append(Problem(b.name, "-", "points",
                                      f"{header.title if header else 'section'}: printed total "
                                      f"{rule.total:g}, questions add up to {total:g}"))
        if rule.per_blank is not None and rule.total is not None and header:
            blanks = sum(len(BLANK_MARK.findall(q.stem)) for q in run)
            if abs(blanks * rule.per_blank - rule.total) > 1e-6:
                notes.append(f"原卷“每空{rule.per_blank:g}分，共{rule.total:g}分”与空数（{blanks}）"
                             f"不符：按小题平分总分")
        if len(members) != len(run):
            notes.append("同一大题中题型不同，按题型分开")
        mc = rule.mc_rule
        if run[0].type == "multiple_choice" and mc is None:
            notes.append("原卷未说明多选题给分规则，暂按全对才得分")
        names = TYPE_NAMES if b.language.startswith("zh") else TYPE_NAMES_EN
        title = header.title if header else names[run[0].type]
        out.append(DraftSection(title=title, type=run[0].type, first=run[0].number,
                                last=run[-1].number, points=round(total, 4),
                                scoring=header.rule if header else "",
                                multiple_choice_rule=mc or "all_or_nothing",
                                note="；".join(notes)))
        k = j + 1
    return out


def _tongue(language: str) -> str:
    return "zh" if language.startswith("zh") else "en"


_STATED_MINUTES = re.compile(
    r"(?:考试)?(?:时间|时长)\s*[：:为]?\s*(\d{2,3})\s*分钟"
    r"|(?:time(?:\s+(?:allowed|limit))?|duration)\s*[:：]?\s*(\d{2,3})\s*min(?:ute)?s?\b"
    r"|\b(\d{2,3})\s*min(?:ute)?s?\s+(?:allowed|exam|paper|test)\b", re.I)


def _duration(text: str, questions: list[DraftQuestion], language: str) -> tuple[int, str]:
    zh = _tongue(language) == "zh"
    m = _STATED_MINUTES.search(text)
    if m:
        return (int(next(g for g in m.groups() if g)),
                "试卷注明的考试时长" if zh else "the duration the paper states")
    minutes = sum(q.points if q.type in ("calculation", "programming") else MINUTES[q.type]
                  for q in questions)
    rounded = max(10, int(-(-minutes // 10) * 10))
    if zh:
        return rounded, (f"试卷未注明考试时长，按题量估算约 {minutes:.0f} 分钟（单选 1.5、多选 2.5、"
                         f"填空 2、简答 10、系统设计 30 分钟/题，计算与编程 1 分钟/分），取 "
                         f"{rounded} 分钟。")
    return rounded, (f"The paper states no duration: about {minutes:.0f} minutes from its "
                     f"questions (single choice 1.5, multiple choice 2.5, fill-in 2, short "
                     f"answer 10, system design 30 minutes each; calculation and programming "
                     f"1 minute a point), rounded to {rounded}.")


def _dedupe(flags: list[ReviewFlag]) -> list[ReviewFlag]:
    seen, out = set(), []
    for f in flags:
        key = (f.kind, f.text, f.field)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
