"""Check results in the learner's language (issue 30.5): every check of the bundled suites
has its description in Chinese (``<paper>/i18n/checks_zh.toml``, question_db.checks.
catalogue), no entry names a check that is gone, and the results pane of a Chinese UI shows
them; the numbers a check reports stay as it wrote them."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from question_db.checks.catalogue import catalogue_path, descriptions

PAPERS = Path(__file__).resolve().parents[1] / "question_db" / "papers"
SUITES = sorted(PAPERS.glob("*/q*_check.py"))


def declared(suite: Path) -> dict[str, str]:
    """name -> English description of each ``@check(...)`` in ``suite``."""
    found = {}
    for node in ast.walk(ast.parse(suite.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for decorator in node.decorator_list:
            if (isinstance(decorator, ast.Call)
                    and getattr(decorator.func, "id", "") in ("check", "drill_check")
                    and decorator.args):
                name = ast.literal_eval(decorator.args[0])
                text = (ast.literal_eval(decorator.args[1]) if len(decorator.args) > 1
                        else ast.get_docstring(node) or "")
                found[name] = text
    return found


def test_the_bundled_suites_are_there():
    assert len(SUITES) >= 15 and sum(len(declared(s)) for s in SUITES) >= 100


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_check_has_its_chinese_description_and_nothing_else(suite):
    english = declared(suite)
    chinese = descriptions(suite, "zh_CN")
    assert catalogue_path(suite, "zh_CN").is_file()
    assert set(chinese) == set(english)
    for name, text in chinese.items():
        assert re.search(r"[\u4e00-\u9fff]", text), (name, text)  # translated
        # identifiers, shapes and figures of the English are kept as written
        for token in re.findall(r"\b(?:[A-Za-z_]+\w*\(\)|\w+_\w+|\d+(?:\.\d+)?)\b",
                                english[name]):
            assert token in text, (suite.stem, name, token, text)


def test_english_and_packs_without_a_catalogue_keep_the_suites_words(tmp_path):
    suite = SUITES[0]
    assert descriptions(suite, "en_US") == {} and descriptions(suite, "C") == {}
    assert descriptions(None, "zh_CN") == {}
    alone = tmp_path / "q01_check.py"
    alone.write_text("")
    assert descriptions(alone, "zh_CN") == {}
    (tmp_path / "i18n").mkdir()
    (tmp_path / "i18n" / "checks_zh.toml").write_text("[q01\nbroken", encoding="utf-8")
    assert descriptions(alone, "zh_CN") == {}  # unreadable: the English, not a crash
