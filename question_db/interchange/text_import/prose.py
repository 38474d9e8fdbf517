"""Rule-based repair of prose damaged by web extraction (no code here; see ``code.py``).

What is repaired, because a rule can do it without guessing:

- Traditional -> Simplified (OpenCC t2s) and inserted pinyin glosses such as ``认(rèn)证``.
  A gloss needs a tone mark, so ``f(x)``, ``RMSNorm(dim)`` and ``pile(model)`` stay.
- ``pile(`` -> ``torch.compile(``: the extractor drops ``torch.com`` as if it were a web
  address; only a call (or a lone code span) is repaired, elsewhere it is flagged.
- hyphens lost from well-known technical terms (``LBFGS`` -> ``L-BFGS``, ``ZeRO3`` ->
  ``ZeRO-3``) and from ``torch.compile`` mode names; every repair is flagged.
- a half-width comma or semicolon next to a Chinese character becomes full-width, and a
  space separates Chinese from Latin text (how the bank writes it).

What is only flagged: a ``?`` where a character or a math symbol was lost, a broken gloss
(``?fù)``), a digit after ``)`` that was probably a superscript, ``pile`` outside a call.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

TONED = "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ"
_SYLLABLE = rf"(?=[a-zü{TONED}]*[{TONED}])[a-zü{TONED}]{{1,7}}"
GLOSS = re.compile(rf"[(（]{_SYLLABLE}[)）]")
# "?fù)": a character the extractor could not encode, followed by what is left of its gloss
BROKEN_GLOSS = re.compile(rf"\?({_SYLLABLE})[)）]")
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{CJK}]")
# a code span: `...` (the repairs below never touch the inside except where they say so)
CODE_SPAN = re.compile(r"`[^`\n]*`")

# Well-known terms whose hyphen extraction drops (compared letter-for-letter, case kept).
HYPHENATED_TERMS = (
    "L-BFGS", "Q-Former", "Q-learning", "Q-Learning", "DPM-Solver", "DPM-Solver++",
    "Classifier-Free", "classifier-free", "Weight-Only", "weight-only", "Low-Rank", "low-rank",
    "Meta-RL", "sim-to-real", "Sim-to-Real", "end-to-end", "End-to-End", "state-of-the-art",
    "skip-connect", "skip-connection", "skip-connections", "reduce-overhead", "max-autotune",
    "max-autotune-no-cudagraphs", "all-reduce", "All-Reduce", "all-gather", "All-Gather",
    "reduce-scatter", "Reduce-Scatter", "all-to-all", "All-to-All", "Ring-AllReduce",
    "in-batch", "in-context", "In-Context", "zero-shot", "Zero-Shot", "few-shot", "Few-Shot",
    "one-shot", "Chain-of-Thought", "chain-of-thought", "Mixture-of-Experts",
    "mixture-of-experts", "Multi-Head", "Multi-Query", "Grouped-Query", "Sliding-Window",
    "self-attention", "Self-Attention", "cross-attention", "Cross-Attention",
    "cross-entropy", "Cross-Entropy", "encoder-decoder", "Encoder-Decoder", "decoder-only",
    "Decoder-Only", "encoder-only", "Encoder-Only", "dual-encoder", "Dual-Encoder",
    "two-tower", "Two-Tower", "pre-norm", "Pre-norm", "Pre-Norm", "post-norm", "Post-norm",
    "Post-Norm", "Pre-LN", "Post-LN", "per-channel", "Per-channel", "Per-Channel",
    "per-tensor", "Per-tensor", "per-token", "Per-token", "per-group", "Per-group",
    "mixed-precision", "half-precision", "bf16-mixed", "Top-k", "top-k", "Top-p", "top-p",
    "k-means", "K-Means", "t-SNE", "n-gram", "N-gram", "Bag-of-Words", "Actor-Critic",
    "actor-critic", "off-policy", "on-policy", "model-free", "model-based", "Model-Based",
    "Model-Free", "RL-based", "rule-based", "Kullback-Leibler", "Jensen-Shannon",
    "Gumbel-Softmax", "Newton-Raphson", "Gauss-Newton", "Levenberg-Marquardt", "warm-up",
    "Warm-up", "out-of-distribution", "Out-of-Distribution", "long-tail", "cold-start",
    "real-time", "Real-Time", "key-value", "Key-Value", "text-to-image", "Text-to-Image",
    "image-to-image", "speech-to-text", "Vision-Language", "vision-language",
    "Sequence-to-Sequence", "sequence-to-sequence", "Retrieval-Augmented",
    "retrieval-augmented", "Non-Maximum", "non-linear", "auto-regressive", "Auto-regressive",
    "non-autoregressive", "Bi-LSTM", "Bi-GRU", "ε-greedy", "epsilon-greedy", "Monte-Carlo",
    "ROUGE-L", "F1-score", "Top-1", "Top-5", "v-parameterization", "v-prediction",
    "x-axis", "y-axis", "zero-conv", "Leaky-ReLU", "ControlNet-Canny", "Stable-Baselines",
    "copy-on-write", "human-in-the-loop", "Human-in-the-Loop", "flash-attn",
)
# "X-level", "X-wise", ...: a compound of an ordinary word and one of these
_COMPOUND_SUFFIXES = ("level", "based", "aware", "agnostic", "specific", "free",
                      "only", "shot", "tuned", "guided", "conditioned", "efficient", "bound")
_COMPOUND_HEADS = ("token", "sentence", "word", "character", "operation", "op", "layer",
                   "channel", "tensor", "group", "block", "instance", "pixel", "patch",
                   "frame", "segment", "document", "sequence", "batch", "node", "graph",
                   "edge", "element", "point", "head", "feature", "sample", "class", "image",
                   "object", "region", "step", "epoch", "iteration", "task", "model",
                   "memory", "compute", "IO", "hardware", "rule", "RL", "prompt", "context",
                   "retrieval", "reward", "weight", "decoder", "encoder", "text", "zero",
                   "few", "one", "instruction", "domain", "query")
# versioned and sized model names: BLIP2 -> BLIP-2, ZeRO3 -> ZeRO-3, LLaMA65B -> LLaMA-65B
_VERSIONED = re.compile(
    r"(?<![A-Za-z])(ZeRO|BLIP|FlashAttention|GPT|DALL·E|PaLM|ERNIE|GLM|Gemini|SDXL|YOLO)"
    r"(\d+(?:\.\d+)?)(?![\d.]*\d)(?![A-Za-z]*[a-z])")
_SIZED = re.compile(
    r"(?<![A-Za-z])(LLaMA|Llama|ChatGLM|Baichuan|InternLM|Qwen|Mistral|Falcon|BLOOM|OPT|"
    r"Vicuna|Alpaca|Yi|DeepSeek|Gemma|MPT|Pythia|GPT-J|GPT-NeoX|Mixtral|Phi)"
    r"(\d+(?:\.\d+)?[BMK]|\d+x\d+B)(?![A-Za-z0-9])")
# torch.compile's mode names (the only values it accepts), written without their hyphens
_COMPILE_MODES = {"reduceoverhead": "reduce-overhead", "maxautotune": "max-autotune",
                  "maxautotunenocudagraphs": "max-autotune-no-cudagraphs"}
_COMPILE_MODE = re.compile(r"""(mode\s*=\s*["'])(reduceoverhead|maxautotunenocudagraphs|"""
                           r"""maxautotune)(["'])""")
# pile( / `pile`: torch.compile with "torch.com" cut out; not preceded by a letter or a dot
_PILE_CALL = re.compile(r"(?<![A-Za-z0-9_.])pile(?=\s*\()")
_PILE_SPAN = re.compile(r"`pile`")
_PILE_WORD = re.compile(r"(?<![A-Za-z_.])pile(?![A-Za-z0-9_])")
_LOST = re.compile(r"[?\ufffd]+")  # U+FFFD: a PDF glyph without a character map
_QUESTION_MARK = re.compile(r"\?(?=\s|$|[\"'”’)\]*]|\ue000)")
_SUPERSCRIPT = re.compile(r"(?:\)|\|\|)([23])(?=[=+\-×*/，,。）);；]|$|[^\w.])")


@dataclass(frozen=True)
class Note:
    """One repair made or one place flagged, to become a ``ReviewFlag`` on its field."""

    kind: str
    text: str
    why: str


@lru_cache(maxsize=1)
def _t2s():
    import opencc  # deferred: the converter is only needed when importing

    return opencc.OpenCC("t2s")


def strip_glosses(text: str) -> str:
    """Remove tone-marked pinyin glosses: ``认(rèn)证`` -> ``认证``."""
    return GLOSS.sub("", text)


def to_simplified(text: str) -> str:
    """Glosses out, then OpenCC t2s (the safe mechanical part of the seed repair)."""
    return _t2s().convert(strip_glosses(text))


def repair_compile_calls(text: str) -> tuple[str, list[Note]]:
    """``pile(`` -> ``torch.compile(`` and `` `pile` `` -> `` `torch.compile` ``; a lone
    ``pile`` elsewhere is flagged, not changed (the context does not prove it)."""
    notes: list[Note] = []
    text = _PILE_CALL.sub("torch.compile", text)
    text = _PILE_SPAN.sub("`torch.compile`", text)
    for m in _PILE_WORD.finditer(text):
        notes.append(Note("lost_name", "pile",
                          "“pile” is probably `torch.compile` (the extractor cuts “torch.com” "
                          "out as if it were a web address); not a call, so left as printed "
                          f"(in “{_context(text, m.start(), m.end())}”)"))
    for m in _COMPILE_MODE.finditer(text):
        notes.append(Note("restored_hyphen", f"mode={m[1][-1]}{_COMPILE_MODES[m[2]]}{m[3]}",
                          f"torch.compile mode “{m[2]}” written with its hyphens (the only "
                          f"spelling torch.compile accepts)"))
    text = _COMPILE_MODE.sub(lambda m: m[1] + _COMPILE_MODES[m[2]] + m[3], text)
    return text, notes


@lru_cache(maxsize=1)
def _term_pattern() -> tuple[re.Pattern, dict[str, str]]:
    canon: dict[str, str] = {}
    for term in HYPHENATED_TERMS:
        canon.setdefault(term.replace("-", "").casefold(), term)
    for head in _COMPOUND_HEADS:
        for tail in _COMPOUND_SUFFIXES:
            canon.setdefault((head + tail).casefold(), f"{head}-{tail}")
    return re.compile(f"(?i)(?:{_trie_regex(sorted(canon))})"), canon


def _trie_regex(words: list[str]) -> str:
    """One alternation as a prefix tree (``re`` tries alternatives one by one: ~600 flat
    alternatives cost 100 ms per paper, the tree 5 ms). Longest match first."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        end = "" in node
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if end else body

    return build(trie)


def _boundary_ok(text: str, start: int, end: int) -> bool:
    word = text[start:end]
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if before.isascii() and before.isalpha():
        # CamelCase boundary: "8WeightOnly", "INT8WeightOnly" ok; "xskipconnect" not
        if not (word[0].isupper() and before.islower()):
            return False
    if after.isascii() and after.isalnum():
        if word[-1].isdigit() and after.isdigit():
            return False
        if word[-1].islower() and after.islower() and not word.casefold().endswith(
                _COMPOUND_SUFFIXES):
            return False
    return True


_WORD_CHAR = re.compile(r"[A-Za-z0-9_]")


def _in_identifier(text: str, start: int, end: int) -> bool:
    """Inside code written in prose (``attn_op_type=MemoryEfficientAttention…``): the word
    around the match has an underscore, or follows ``=``/``.``, or is called."""
    a, b = start, end
    while a and _WORD_CHAR.match(text[a - 1]):
        a -= 1
    while b < len(text) and _WORD_CHAR.match(text[b]):
        b += 1
    before = text[a - 1] if a else ""
    after = text[b] if b < len(text) else ""
    return "_" in text[a:b] or before in "=._" and before != "" or after in "(=_" and after != ""


def restore_hyphens(text: str) -> tuple[str, list[Note]]:
    """Put back the hyphen of known terms written without it (outside code spans)."""
    pattern, canon = _term_pattern()
    restored: list[str] = []

    def fix_plain(chunk: str) -> str:
        out, last = [], 0
        for m in pattern.finditer(chunk):
            found = m.group(0)
            term = canon[found.casefold()]
            if "-" not in term or not _boundary_ok(chunk, m.start(), m.end()) or \
                    _in_identifier(chunk, m.start(), m.end()):
                continue
            fixed = _with_hyphens(found, term)
            out.append(chunk[last:m.start()] + fixed)
            last = m.end()
            restored.append(fixed)
        out.append(chunk[last:])
        chunk = "".join(out)
        for rx in (_VERSIONED, _SIZED):
            chunk, n = rx.subn(lambda m: _note_version(m, restored), chunk)
        return chunk

    text = _outside_code(text, fix_plain)
    notes = [Note("restored_hyphen", ", ".join(dict.fromkeys(restored)),
                  "hyphen put back in well-known term(s) the extraction glued together")] \
        if restored else []
    return text, notes


def _note_version(m: re.Match, restored: list[str]) -> str:
    fixed = f"{m[1]}-{m[2]}"
    restored.append(fixed)
    return fixed


def _with_hyphens(found: str, term: str) -> str:
    """``found`` (as printed, any case) with hyphens where ``term`` has them."""
    out, i = [], 0
    for ch in term:
        if ch == "-":
            out.append("-")
        else:
            out.append(found[i])
            i += 1
    return "".join(out)


def _outside_code(text: str, fn) -> str:
    out, last = [], 0
    for m in CODE_SPAN.finditer(text):
        out.append(fn(text[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(fn(text[last:]))
    return "".join(out)


_HALF_PUNCT = re.compile(rf"(?<=[{CJK}])[,;](?!\d)|[,;](?=[{CJK}])")
_CJK_LATIN = re.compile(rf"([{CJK}])([A-Za-z0-9`$(\[])|([A-Za-z0-9`%)\]])([{CJK}])")


def chinese_punctuation(text: str) -> str:
    """``eta=0.0,均匀`` -> ``eta=0.0，均匀``: half-width , ; touching a Chinese character."""
    return _outside_code(text, lambda s: _HALF_PUNCT.sub(
        lambda m: "，" if m.group(0) == "," else "；", s))


def space_cjk_latin(text: str) -> str:
    """``在PyTorch2.0中`` -> ``在 PyTorch2.0 中`` (outside code spans; spans get spaced)."""
    def pad(m: re.Match) -> str:
        return f"{m[1]} {m[2]}" if m[1] else f"{m[3]} {m[4]}"
    # twice: a one-letter run between two Chinese characters overlaps both sides
    return _CJK_LATIN.sub(pad, _CJK_LATIN.sub(pad, text))


def find_lost_characters(text: str) -> tuple[str, list[Note]]:
    """Flag every ``?`` (the extractor's replacement for a character or math symbol it
    could not encode; a real question mark in Chinese prose is ``？``) and drop the remains
    of a broken gloss after it (``?fù)`` -> ``?``), keeping the ``?`` in place."""
    notes: list[Note] = []
    broken = [m[1] for m in BROKEN_GLOSS.finditer(text)]
    text = BROKEN_GLOSS.sub("?", text)
    spans: list[list[int]] = []
    for m in _LOST.finditer(text):
        if _QUESTION_MARK.match(text, m.start()) and m.start() and \
                re.match(r"[A-Za-z0-9)\]\"'`*]", text[m.start() - 1]):
            continue  # "What is the rank?" ends an English sentence: nothing was lost
        if spans and m.start() - spans[-1][1] <= 6:
            spans[-1][1] = m.end()
        else:
            spans.append([m.start(), m.end()])
    for start, end in spans:
        if "\ufffd" in text[start:end]:
            notes.append(Note("lost_character", text[start:end],
                              "“\ufffd” stands for characters the PDF's font could not map "
                              f"to text; restore them from the printed paper (in "
                              f"“{_context(text, start, end)}”)"))
            continue
        why = ("“?” stands for a character or math symbol (−, ², √, ∂, ½ …) the extraction "
               f"lost; restore it from the context (in “{_context(text, start, end)}”)")
        notes.append(Note("lost_math", text[start:end], why))
    if broken:
        notes.append(Note("lost_character", "?" + ")?".join(broken) + ")",
                          f"a character was lost with its pinyin gloss ({', '.join(broken)}); "
                          f"the gloss remains were removed"))
    for m in _SUPERSCRIPT.finditer(text):
        notes.append(Note("lost_math", m.group(0),
                          f"a “{m[1]}” right after “)” or “||” is probably a lost superscript "
                          f"({'²' if m[1] == '2' else '³'}) (in “"
                          f"{_context(text, m.start(), m.end())}”)"))
    return text, notes


def has_cjk(text: str) -> bool:
    return bool(_CJK_CHAR.search(text))


def _context(text: str, start: int, end: int, width: int = 12) -> str:
    return text[max(0, start - width):end + width].replace("\n", " ")


def repair_prose(text: str, *, spacing: bool = True) -> tuple[str, list[Note]]:
    """Every prose rule above, in order, on already-simplified text."""
    notes: list[Note] = []
    text, found = repair_compile_calls(text)
    notes += found
    text, found = restore_hyphens(text)
    notes += found
    text, found = find_lost_characters(text)
    notes += found
    text = chinese_punctuation(text)
    if spacing:
        text = space_cjk_latin(text)
    return text, notes
