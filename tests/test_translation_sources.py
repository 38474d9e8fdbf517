"""UI strings stay where lupdate can extract them (tools/update_translations.sh)."""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TRANSLATING = {"tr", "translate", "QT_TRANSLATE_NOOP"}


def _calls_inside_fstrings(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    func = inner.func
                    name = func.attr if isinstance(func, ast.Attribute) else getattr(
                        func, "id", None)
                    if name in TRANSLATING:
                        yield inner


def test_no_translation_call_inside_an_fstring():
    """lupdate skips the inside of string literals: a tr() in an f-string's braces is
    never extracted and stays English in the Chinese UI."""
    sources = sorted((REPO / "desktop").rglob("*.py"))
    assert sources
    found = [f"{path.relative_to(REPO)}:{call.lineno}: {ast.unparse(call)}"
             for path in sources
             for call in _calls_inside_fstrings(ast.parse(path.read_text("utf-8")))]
    assert not found, "move these tr() calls out of the f-string:\n" + "\n".join(found)


def test_the_guard_sees_a_tr_call_in_an_fstring():
    tree = ast.parse('label = f"✓ {tr(\'your pick, right\')}"')
    assert [ast.unparse(c) for c in _calls_inside_fstrings(tree)] == ["tr('your pick, right')"]
