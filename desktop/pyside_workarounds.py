"""Workarounds for bugs in the PySide6 release we run on; each says how it was found.

``SignalInstance.emit`` leaks a reference *downwards*: PySide6 6.12.0 returns ``True``
without a new reference, so every ``.emit()`` from Python lowers ``True``'s refcount by
one. On Python 3.12+ ``True`` is immortal and nothing happens; on 3.10/3.11 the
interpreter aborts with "Fatal Python error: bool_dealloc: deallocating True or False"
after a few thousand emits (one per keystroke while typing an answer). Found in this
project (tests/test_gui_widgets.py::test_signal_emit_keeps_true_alive reproduces it).
The fix is probed, not version-matched: it is installed only when one emit really drops
the count, and it puts back exactly the missing reference.
"""
from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal, SignalInstance

_installed = False


class _Probe(QObject):
    sig_probe = Signal()


def emit_drops_a_reference_to_true() -> bool:
    """Whether this PySide6 build has the emit refcount bug."""
    probe = _Probe()
    before = sys.getrefcount(True)
    result = probe.sig_probe.emit()
    del result
    dropped = sys.getrefcount(True) < before
    if dropped:
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))  # undo the probe's own damage
    return dropped


def install() -> bool:
    """Patch ``SignalInstance.emit`` if (and only if) the bug is present. Idempotent."""
    global _installed
    if _installed:
        return True
    if not emit_drops_a_reference_to_true():
        return False
    original = SignalInstance.emit
    incref = ctypes.pythonapi.Py_IncRef
    incref.argtypes = [ctypes.py_object]
    incref.restype = None

    def emit(self, *args):
        result = original(self, *args)
        if result is True:
            incref(result)  # the reference PySide6 should have returned
        return result

    SignalInstance.emit = emit
    _installed = True
    return True
