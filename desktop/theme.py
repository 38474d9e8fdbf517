"""Semantic colours for every view, derived from the application palette.

Views never write a colour literal and never take a ``dark`` flag: they ask ``theme()`` for a
*role* (``Role.OK``, ``Role.ERROR``, ``Role.CODE_BG``…) when they build a label or HTML, and
re-render on ``Theme.sig_changed`` (the palette changed: the learner picked light/dark, or
the desktop switched). Text roles are tuned against the palette's base colour until they
reach WCAG AA contrast (4.5:1), so a dark palette gets light greens and reds instead of the
light theme's, and backgrounds are the base tinted towards the role's hue.

``apply_theme_choice(app, "system" | "light" | "dark")`` sets the palette (Fusion's, for light
and dark, so the result does not depend on the desktop) and the theme follows.
"""
from __future__ import annotations

from enum import Enum

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory

__all__ = ["Role", "Theme", "theme", "css", "apply_theme_choice", "THEME_CHOICES", "contrast",
           "series_colors"]

THEME_CHOICES = ("system", "light", "dark")
AA_CONTRAST = 4.5


class Role(str, Enum):
    TEXT = "text"
    MUTED = "muted"  # secondary text: meta lines, hints
    OK = "ok"  # correct, passed
    WARNING = "warning"  # partly correct, time warnings, unverified
    ERROR = "error"  # wrong, failed, not saved
    INFO = "info"  # pending, links, the current question
    FLAG = "flag"  # flagged questions
    CODE_BG = "code_bg"  # inline code and code blocks
    WARNING_BG = "warning_bg"  # errata boxes, time warnings, badges
    WARNING_BORDER = "warning_border"
    OK_BG = "ok_bg"
    ERROR_BG = "error_bg"
    INFO_BG = "info_bg"

    def __str__(self) -> str:
        return self.value


# Hue (degrees) and saturation (0..255) of each coloured role; lightness is derived.
_HUES = {Role.OK: (135, 170), Role.WARNING: (36, 230), Role.ERROR: (2, 200),
         Role.INFO: (212, 200), Role.FLAG: (24, 230)}
_BACKGROUNDS = {Role.WARNING_BG: Role.WARNING, Role.OK_BG: Role.OK, Role.ERROR_BG: Role.ERROR,
                Role.INFO_BG: Role.INFO}


def _luminance(c: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF())
            + 0.0722 * channel(c.blueF()))


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


def _readable(hue: int, saturation: int, base: QColor, dark: bool) -> QColor:
    """The role's hue at the lightness nearest the middle that reads on ``base``."""
    steps = range(140, 256, 4) if dark else range(120, -1, -4)
    color = QColor.fromHsl(hue, saturation, steps[0])
    for lightness in steps:
        color = QColor.fromHsl(hue, saturation, lightness)
        if contrast(color, base) >= AA_CONTRAST:
            break
    return color


class Theme(QObject):
    """The current palette's colours by role; ``sig_changed`` when the palette changes."""

    sig_changed = Signal()
    """The palette changed: views rebuild what they coloured."""

    def __init__(self, app: QGuiApplication) -> None:
        super().__init__(app)
        self._colors: dict[Role, QColor] = {}
        self.dark = False
        self._recompute(app.palette())
        # The signal, not an event filter on the application: a filter would run Python for
        # every event of the app (thousands at start-up; bench: launch_to_library).
        app.paletteChanged.connect(self._palette_changed)

    def _palette_changed(self, palette: QPalette) -> None:
        self._recompute(palette)
        self.sig_changed.emit()

    def _recompute(self, palette: QPalette) -> None:
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        self.dark = palette.color(QPalette.ColorRole.Window).lightness() < 128
        colors = {Role.TEXT: text, Role.MUTED: _mix(text, base, 0.42)}
        if contrast(colors[Role.MUTED], base) < AA_CONTRAST:
            colors[Role.MUTED] = _mix(text, base, 0.30)
        for role, (hue, saturation) in _HUES.items():
            colors[role] = _readable(hue, saturation, base, self.dark)
        colors[Role.CODE_BG] = _mix(base, text, 0.10 if self.dark else 0.06)
        for role, hue_role in _BACKGROUNDS.items():
            colors[role] = _mix(base, colors[hue_role], 0.22 if self.dark else 0.12)
        colors[Role.WARNING_BORDER] = _mix(base, colors[Role.WARNING], 0.6)
        self._colors = colors

    def color(self, role: Role) -> QColor:
        return QColor(self._colors[role])

    def css(self, role: Role) -> str:
        """``#rrggbb`` for HTML and style sheets."""
        return self._colors[role].name()

    @property
    def pygments_style(self) -> str:
        """A Pygments style that reads on this palette's code background."""
        return "monokai" if self.dark else "default"


_THEME: Theme | None = None


def theme() -> Theme:
    """The application's theme (made on first use, after the QApplication exists)."""
    global _THEME
    app = QGuiApplication.instance()
    if app is None:
        raise RuntimeError("theme() needs a QApplication")
    if _THEME is None or _THEME.parent() is not app:
        _THEME = Theme(app)
    return _THEME


def css(role: Role) -> str:
    """``theme().css(role)``: the role's colour as ``#rrggbb`` for HTML and style sheets."""
    return theme().css(role)


def series_colors(n: int) -> list[str]:
    """``n`` distinguishable chart colours, each readable on the current base."""
    t = theme()
    base = QGuiApplication.palette().color(QPalette.ColorRole.Base)
    hues = [(212 + i * 360 // max(n, 1) + (i % 2) * 17) % 360 for i in range(n)]
    return [_readable(h, 190, base, t.dark).name() for h in hues]


def _dark_palette() -> QPalette:
    p = QPalette()
    window, base = QColor(0x2b, 0x2d, 0x31), QColor(0x1e, 0x1f, 0x22)
    text = QColor(0xe6, 0xe6, 0xe6)
    roles = {
        QPalette.ColorRole.Window: window, QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base, QPalette.ColorRole.AlternateBase: window,
        QPalette.ColorRole.Text: text, QPalette.ColorRole.Button: QColor(0x3a, 0x3c, 0x41),
        QPalette.ColorRole.ButtonText: text, QPalette.ColorRole.ToolTipBase: window,
        QPalette.ColorRole.ToolTipText: text, QPalette.ColorRole.PlaceholderText:
            QColor(0x9a, 0x9a, 0x9a), QPalette.ColorRole.Highlight: QColor(0x3d, 0x7e, 0xd6),
        QPalette.ColorRole.HighlightedText: QColor(0xff, 0xff, 0xff),
        QPalette.ColorRole.Link: QColor(0x7a, 0xb7, 0xff), QPalette.ColorRole.BrightText:
            QColor(0xff, 0x6b, 0x6b), QPalette.ColorRole.Mid: QColor(0x55, 0x57, 0x5c),
        QPalette.ColorRole.Light: QColor(0x4a, 0x4c, 0x52), QPalette.ColorRole.Dark:
            QColor(0x18, 0x19, 0x1b), QPalette.ColorRole.Shadow: QColor(0, 0, 0),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText,
                 QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(0x80, 0x80, 0x80))
    return p


def apply_theme_choice(app: QApplication, choice: str) -> None:
    """Light or dark Fusion, or the platform's own style and palette (``system``)."""
    if choice not in THEME_CHOICES:
        raise ValueError(f"theme must be one of {THEME_CHOICES}, not {choice!r}")
    remember_platform_style(app)  # before the first choice replaces it
    if choice == "system":
        app.setStyle(QStyleFactory.create(_platform_style()))
        app.setPalette(app.style().standardPalette())
        return
    fusion = QStyleFactory.create("Fusion")
    app.setStyle(OutlinedIndicators(fusion) if choice == "dark" else fusion)
    app.setPalette(_dark_palette() if choice == "dark" else app.style().standardPalette())


class OutlinedIndicators(QProxyStyle):
    """Fusion, with a visible rim on radio buttons and check boxes. Fusion outlines them in
    the window colour darkened, which on a dark window is near black: on the dark palette
    an unchecked option was a dark disc on a dark page (issue 30.7)."""

    _KINDS = (QStyle.PrimitiveElement.PE_IndicatorRadioButton,
              QStyle.PrimitiveElement.PE_IndicatorCheckBox,
              QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck)

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802
        super().drawPrimitive(element, option, painter, widget)
        if element not in self._KINDS:
            return
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        rim = option.palette.color(QPalette.ColorGroup.Normal, QPalette.ColorRole.WindowText)
        rim.setAlphaF(0.55 if enabled else 0.3)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(rim, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        box = QRectF(option.rect).adjusted(1.5, 1.5, -1.5, -1.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            side = min(box.width(), box.height())
            box = QRectF(box.center().x() - side / 2, box.center().y() - side / 2, side, side)
            painter.drawEllipse(box)
        else:
            painter.drawRoundedRect(box, 2, 2)
        painter.restore()


_PLATFORM_STYLE: str | None = None


def remember_platform_style(app: QApplication) -> None:
    """The style Qt chose for this platform, kept for "system" (once; before any theme
    choice replaces it). Not at start-up when nothing replaces it: ``app.style()`` builds
    QStyle's Python enums, 17 ms before the first paint (bench: launch_to_library)."""
    global _PLATFORM_STYLE
    if _PLATFORM_STYLE is None:
        _PLATFORM_STYLE = app.style().name()


def _platform_style() -> str:
    return _PLATFORM_STYLE or "Fusion"
