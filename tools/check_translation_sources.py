"""Lists UI strings that lupdate did not extract into a .ts file.

lupdate's Python parser skips the inside of string literals, so a ``tr("…")`` written
inside an f-string's braces never reaches the translation file and stays English in the
app. This walks the same sources with Python's own parser, collects every ``tr()``,
``translate()`` and ``QT_TRANSLATE_NOOP()`` call with literal text, and reports those the
.ts lacks as ``file:line: [context] text``. Exit status 1 when any is missing.

Usage: python tools/check_translation_sources.py TS_FILE SOURCE.py...
"""
from __future__ import annotations

import ast
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def extracted(ts_file: Path) -> set[tuple[str, str]]:
    """(context, source text) of every message in ``ts_file``."""
    root = ET.parse(ts_file).getroot()
    return {(context.findtext("name") or "", message.findtext("source") or "")
            for context in root.iter("context") for message in context.iter("message")}


def marked(source: Path) -> list[tuple[int, str, str]]:
    """(line, context, text) of each literal translation call in ``source``, with the
    context lupdate gives it: the enclosing class for ``self.tr``, "" for a bare ``tr``."""
    found: list[tuple[int, str, str]] = []

    def literal(node: ast.expr) -> str | None:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def visit(node: ast.AST, cls: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                func = child.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                args = [literal(arg) for arg in child.args[:2]]
                if name == "tr" and args and args[0] is not None:
                    found.append((child.lineno, cls if isinstance(func, ast.Attribute) else "",
                                  args[0]))
                elif (name in ("translate", "QT_TRANSLATE_NOOP") and len(args) == 2
                      and None not in args):
                    found.append((child.lineno, args[0], args[1]))
            visit(child, child.name if isinstance(child, ast.ClassDef) else cls)

    visit(ast.parse(source.read_text("utf-8"), str(source)), "")
    return found


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    have = extracted(Path(argv[0]))
    missing = [f"{source}:{line}: [{context}] {text}"
               for source in map(Path, argv[1:])
               for line, context, text in marked(source) if (context, text) not in have]
    for entry in missing:
        print(entry)
    if missing:
        print(f"{len(missing)} UI string(s) are not in {argv[0]}: lupdate cannot see them "
              "(a tr() inside an f-string?). Move the tr() call out of the literal.",
              file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
