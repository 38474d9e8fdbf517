"""Start-up costs of PySide6 that do not buy anything here; each says how it was measured.

PySide6's import hook (``shibokensupport.feature``, for ``from __feature__ import …``) asks
of every module imported after it whether its source mentions "PySide6", with
``inspect.getsource``: ~0.15 ms a module through ``linecache`` and the tokenizer, 83
modules before the library is on screen (cProfile of a launch: 17 ms under the profiler).
The same question is answered by reading the file's bytes. Modules without a ``.py``
file keep PySide6's own answer.
"""
from __future__ import annotations

import sys


def install() -> bool:
    """Answer PySide6's "does this module use PySide6?" from the file's bytes; returns
    whether the hook was found (a PySide6 without it needs nothing)."""
    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if original is None or getattr(original, "examdesk_fast", False):
        return original is not None

    def mod_uses_pyside(module) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return original(module)
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return original(module)

    mod_uses_pyside.examdesk_fast = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = mod_uses_pyside  # type: ignore[union-attr]
    return True
