"""Kernel provisioning shared by the headless runner and the desktop console.

No Qt here: the desktop passes a ``QtKernelManager`` (a ``KernelManager``
subclass) through the same functions.

Kernel choices:
- ``APP_KERNEL`` (default): this Python, via an app-owned kernelspec, so a user's
  ``~/.local/share/jupyter/kernels/python3`` cannot hijack it.
- any installed Jupyter kernelspec by name (e.g. a conda env with CUDA torch).
- an existing kernel via its connection file (``connect:/path/kernel-123.json``).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

APP_KERNEL = "examdesk-python"
CONNECT_PREFIX = "connect:"


@dataclass(frozen=True)
class KernelChoice:
    """What the learner picked in the kernel menu."""

    key: str  # APP_KERNEL, a kernelspec name, or "connect:<file>"
    label: str

    @property
    def connection_file(self) -> str | None:
        return self.key[len(CONNECT_PREFIX):] if self.key.startswith(CONNECT_PREFIX) else None


def runtime_dir() -> Path:
    """Private folder for connection files, ipc sockets and kernel logs."""
    path = Path(tempfile.gettempdir()) / f"examdesk-{os.getuid() if hasattr(os, 'getuid') else 'u'}"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def app_kernelspec_dir() -> Path:
    """Write (idempotently) the app-owned kernelspec for this interpreter."""
    root = runtime_dir() / "kernels"
    spec_dir = root / APP_KERNEL
    spec_dir.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"examdesk (Python {sys.version.split()[0]})",
        "language": "python",
        "interrupt_mode": "signal",
        # debugpy's "frozen modules" warning would greet the learner after every restart
        "env": {"PYTHONUNBUFFERED": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"},
    }
    text = json.dumps(spec, indent=1)
    target = spec_dir / "kernel.json"
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
    return root


def kernel_spec_manager():
    """A KernelSpecManager that sees the app's own spec first, then the installed ones."""
    from jupyter_client.kernelspec import KernelSpecManager

    ksm = KernelSpecManager()
    ksm.kernel_dirs = [str(app_kernelspec_dir())] + list(ksm.kernel_dirs)
    return ksm


def available_kernels() -> list[KernelChoice]:
    """The app's own kernel first, then every installed kernelspec."""
    choices = [KernelChoice(APP_KERNEL, f"examdesk (this Python, {sys.version.split()[0]})")]
    try:
        specs = kernel_spec_manager().get_all_specs()
    except Exception:  # a broken kernelspec folder must not break the menu
        specs = {}
    for name, info in sorted(specs.items()):
        if name == APP_KERNEL:
            continue
        display = info.get("spec", {}).get("display_name", name)
        choices.append(KernelChoice(name, f"{display} [{name}]"))
    return choices


def configure_manager(km, kernel_name: str = APP_KERNEL) -> None:
    """Point ``km`` at the chosen kernelspec; ipc transport on POSIX (no TCP warning)."""
    km.kernel_spec_manager = kernel_spec_manager()
    km.kernel_name = kernel_name
    if os.name == "posix":
        km.transport = "ipc"
        km.ip = str(runtime_dir() / f"ipc-{uuid.uuid4().hex[:12]}")
    km.connection_file = str(runtime_dir() / f"kernel-{uuid.uuid4().hex[:12]}.json")


def kernel_log_path() -> Path:
    return runtime_dir() / f"kernel-{uuid.uuid4().hex[:12]}.log"


def tail(path: Path | None, lines: int = 20) -> str:
    """Last ``lines`` lines of a kernel's stderr log, for death explanations."""
    if path is None or not Path(path).exists():
        return ""
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - 64 * 1024))
        text = fh.read().decode("utf-8", "replace")
    return "\n".join(text.splitlines()[-lines:])
