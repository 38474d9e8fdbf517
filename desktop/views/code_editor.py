"""A small Python editor: monospace, Pygments colours, 4-space indents, auto-indent."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QKeyEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QPlainTextEdit, QWidget
from pygments.lexers import PythonLexer
from pygments.styles import get_style_by_name

from ..theme import theme

INDENT = "    "
MONOSPACE_FAMILIES = ["JetBrains Mono", "Cascadia Mono", "Consolas", "Menlo", "DejaVu Sans Mono",
                      "Noto Sans Mono CJK SC", "Noto Sans Mono"]


class PygmentsHighlighter(QSyntaxHighlighter):
    """Highlights Python by lexing the whole document once per edit.

    A per-line lexer gets triple-quoted strings wrong. Lexing the whole text is ~4 ms for
    150 lines, so each block takes its spans from one cached lex, and its block state is a
    hash of the *next* block's spans: when an edit changes how later lines look (an opened
    string), the state changes and Qt keeps rehighlighting until the spans agree again.
    """

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._lexer = PythonLexer(stripnl=False, ensurenl=False)
        self._style = get_style_by_name(theme().pygments_style)
        self._formats: dict = {}
        theme().sig_changed.connect(self._restyle)
        self._text: str | None = None
        self._spans: list[list[tuple[int, int, QTextCharFormat]]] = []
        self._keys: list[int] = []

    def _restyle(self) -> None:
        """The palette changed (light/dark): the token colours follow."""
        self._style = get_style_by_name(theme().pygments_style)
        self._formats.clear()
        self._text = None  # re-lex: the cached spans hold the old formats
        self.rehighlight()

    def _format(self, token_type) -> QTextCharFormat | None:
        if token_type not in self._formats:
            style = self._style.style_for_token(token_type)
            fmt = None
            if style["color"] or style["bold"] or style["italic"]:
                fmt = QTextCharFormat()
                if style["color"]:
                    fmt.setForeground(QColor("#" + style["color"]))
                if style["bold"]:
                    fmt.setFontWeight(QFont.Weight.Bold)
                if style["italic"]:
                    fmt.setFontItalic(True)
            self._formats[token_type] = fmt
        return self._formats[token_type]

    def _relex(self, text: str) -> None:
        self._text = text
        starts = [0]
        for line in text.split("\n")[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        spans: list[list] = [[] for _ in starts]
        keys: list[list] = [[] for _ in starts]
        block = 0
        for pos, token_type, value in self._lexer.get_tokens_unprocessed(text):
            fmt = self._format(token_type)
            end = pos + len(value)
            while block + 1 < len(starts) and starts[block + 1] <= pos:
                block += 1
            b = block
            while fmt is not None and pos < end and b < len(starts):
                line_end = starts[b + 1] - 1 if b + 1 < len(starts) else len(text)
                stop = min(end, line_end)
                if stop > pos:
                    spans[b].append((pos - starts[b], stop - pos, fmt))
                    keys[b].append((pos - starts[b], stop - pos, str(token_type)))
                if end <= line_end:
                    break
                b += 1
                pos = starts[b] if b < len(starts) else end
        self._spans = spans
        self._keys = [hash(tuple(k)) & 0x3FFFFFFF for k in keys]

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt override)
        full = self.document().toPlainText()
        if full != self._text:
            self._relex(full)
        number = self.currentBlock().blockNumber()
        if number >= len(self._spans):
            return
        for start, length, fmt in self._spans[number]:
            self.setFormat(start, length, fmt)
        nxt = number + 1
        self.setCurrentBlockState(self._keys[nxt] if nxt < len(self._keys) else 0)


class CodeEditor(QPlainTextEdit):
    """Tab inserts 4 spaces, Shift+Tab dedents, Enter keeps (and after ':' adds) indent."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        font = QFont()  # only the family is set, so the size still follows the zoom
        font.setFamilies(MONOSPACE_FAMILIES + [QFontDatabase.systemFont(
            QFontDatabase.SystemFont.FixedFont).family()])
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setFixedPitch(True)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabChangesFocus(False)
        self._update_tab_stop()
        self.highlighter = PygmentsHighlighter(self.document())

    def _update_tab_stop(self) -> None:
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._update_tab_stop()

    # --- editing -------------------------------------------------------------------------
    def _selected_blocks(self) -> tuple[int, int]:
        cursor = self.textCursor()
        doc = self.document()
        first = doc.findBlock(cursor.selectionStart()).blockNumber()
        end_block = doc.findBlock(cursor.selectionEnd())
        last = end_block.blockNumber()
        ends_at_line_start = cursor.selectionEnd() == end_block.position()
        if cursor.hasSelection() and ends_at_line_start and last > first:
            last -= 1  # a selection ending at column 0 does not include that line
        return first, last

    def indent_selection(self) -> None:
        first, last = self._selected_blocks()
        cursor = self.textCursor()
        cursor.beginEditBlock()
        for number in range(first, last + 1):
            block = self.document().findBlockByNumber(number)
            edit = QTextCursor(block)
            edit.insertText(INDENT)
        cursor.endEditBlock()

    def dedent_selection(self) -> None:
        first, last = self._selected_blocks()
        cursor = self.textCursor()
        cursor.beginEditBlock()
        for number in range(first, last + 1):
            block = self.document().findBlockByNumber(number)
            text = block.text()
            width = len(text) - len(text.lstrip(" "))
            remove = min(width, len(INDENT)) if width else (1 if text.startswith("\t") else 0)
            if remove:
                edit = QTextCursor(block)
                edit.movePosition(QTextCursor.MoveOperation.Right,
                                  QTextCursor.MoveMode.KeepAnchor, remove)
                edit.removeSelectedText()
        cursor.endEditBlock()

    def _newline_with_indent(self) -> None:
        cursor = self.textCursor()
        line = cursor.block().text()[: cursor.positionInBlock()]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if line.rstrip().endswith(":"):
            indent += INDENT
        cursor.beginEditBlock()
        cursor.insertText("\n" + indent)
        cursor.endEditBlock()
        self.ensureCursorVisible()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        key, mods = event.key(), event.modifiers()
        plain = not (mods & ~Qt.KeyboardModifier.KeypadModifier)
        if key == Qt.Key.Key_Tab and plain:
            if self.textCursor().hasSelection():
                self.indent_selection()
            else:
                self.textCursor().insertText(INDENT)
            return
        if key == Qt.Key.Key_Backtab:
            self.dedent_selection()
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain:
            self._newline_with_indent()
            return
        super().keyPressEvent(event)
