"""``tr()`` for module-level UI strings (outside any QObject)."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def tr(text: str) -> str:
    # Module-level tr() calls land in lupdate's empty context; look them up there.
    return QCoreApplication.translate("", text)
