"""Workarounds for bugs in the PySide6 release we run on; each says how it was found.

``SignalInstance.emit`` leaks a reference *downwards*: PySide6 6.12.0 returns ``True``
without a new reference, so every ``.emit()`` from Python lowers ``True``'s refcount by
one. On Python 3.12+ ``True`` is immortal and nothing happens; on 3.10/3.11 the
interpreter aborts with "Fatal Python error: bool_dealloc: deallocating True or False"
after a few thousand emits (one per keystroke while typing an answer). Found in this
project (tests/test_gui_widgets.py::test_signal_emit_keeps_true_alive reproduces it).
The fix is probed, not version-matched: it is installed only when one emit really drops
the count, and it puts back exactly the missing reference.

The same build returns ``None`` from every void method (``QLabel.setText``,
``QGraphicsItem.setPos``, …) and ``True`` from ``SignalInstance.disconnect`` without a
reference. On 3.11 a fresh process aborts with "none_dealloc: deallocating None" after about
5,000 ``setText`` calls; pyqtgraph (the dashboard) makes hundreds per chart. Found in this
project by the dashboard (docs/screenshots/take.py aborted at exit;
tests/test_gui_widgets.py::test_void_calls_keep_none_alive). Too many methods to patch one by
one, so when a void call really drops the count, ``None``, ``True`` and ``False`` get a
reference count no session can drain: what Python 3.12 does for them (PEP 683, immortal
objects). They are never freed in any case; freeing one is the fatal error.
"""
from __future__ import annotations

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
        import ctypes  # only when the bug is there (its import costs ~4 ms at start-up)

        ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))  # undo the probe's own damage
    return dropped


IMMORTAL_REFS = 1 << 40  # one leaked reference per Qt call: out of reach of any session
_immortalized = False


def void_call_drops_a_reference_to_none() -> bool:
    """Whether a void Qt method returns ``None`` without a reference in this build."""
    probe = _Probe()
    before = sys.getrefcount(None)
    probe.setObjectName("probe")
    dropped = sys.getrefcount(None) < before
    if dropped:
        import ctypes

        ctypes.pythonapi.Py_IncRef(ctypes.py_object(None))  # undo the probe's own damage
    return dropped


def immortalize_singletons() -> bool:
    """Give None/True/False a count no leak can drain, if void calls leak. Idempotent."""
    global _immortalized
    if _immortalized:
        return True
    # 3.12+ has immortal singletons; a debug build (Py_TRACE_REFS) lays objects out
    # differently, so the count is not at the object's address there.
    if sys.version_info >= (3, 12) or hasattr(sys, "gettotalrefcount"):
        return False
    if not void_call_drops_a_reference_to_none():
        return False
    import ctypes

    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += IMMORTAL_REFS
    _immortalized = True
    return True


def install() -> bool:
    """Patch ``SignalInstance.emit`` if (and only if) the bug is present, and keep the
    singletons alive if void calls leak. Idempotent."""
    global _installed
    immortalize_singletons()
    if _installed:
        return True
    if not emit_drops_a_reference_to_true():
        return False
    import ctypes

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
