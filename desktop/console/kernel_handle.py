"""One kernel the console uses, and one constructor per kind of kernel (as Spyder's
``KernelHandler`` factories): the app's own kernelspec (this Python, possibly the process
spawned at launch), an installed kernelspec, a kernel on a GPU box over SSH, or an existing
kernel's connection file.

qtconsole is imported only when a kernel is made (it costs ~0.3 s; the window is up by then).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from question_db import kernels, remote_kernels
from question_db.kernels import KernelChoice

from .prelaunch import Prelaunched, early_provisioner


@dataclass
class KernelHandle:
    """The manager (None for a kernel someone else owns), the client (channels not yet
    started) and the log of one kernel; ``KernelSession`` holds it from start to shutdown."""

    client: Any  # qtconsole.client.QtKernelClient
    manager: Any | None = None  # qtconsole.manager.QtKernelManager
    log_path: Path | None = None  # the kernel's stdout + stderr (own kernels only)
    adopted_early: bool = False  # the process spawned at launch (prelaunch.py)

    @property
    def owns_kernel(self) -> bool:
        return self.manager is not None

    @property
    def pgid(self) -> int | None:
        """The kernel's process group (read live: a restart changes it)."""
        return getattr(getattr(self.manager, "provisioner", None), "pgid", None)

    def kill(self) -> None:
        """Kill the kernel and everything it started now: the reaper first (it also kills
        what left the process group), then the group."""
        provisioner = getattr(self.manager, "provisioner", None)
        if hasattr(provisioner, "kill_now"):  # a remote kernel: its supervisor kills it
            provisioner.kill_now()
            return
        kernels.stop_reaper(getattr(provisioner, "process", None))
        kernels.kill_process_group(self.pgid)


def own_kernel(prelaunched: Prelaunched | None = None) -> KernelHandle:
    """The app's kernelspec (argv: this ``sys.executable kernel_boot.py``); adopts
    ``prelaunched`` (spawned at launch) through a kernel provisioner when it still runs."""
    from qtconsole.manager import QtKernelManager

    early = prelaunched
    if early is not None and not early.alive():  # died before adoption: launch afresh
        early.discard()
        early = None
    try:
        # autorestart off: death is shown, never silently restarted
        km, log_path = kernels.start_managed_kernel(
            kernels.APP_KERNEL, QtKernelManager, autorestart=False,
            log_path=early.log_path if early is not None else None,
            provisioner=early_provisioner(early) if early is not None else None)
    except BaseException:
        if early is not None:  # no manager took it: it must not outlive the failure
            early.discard()
        raise
    adopted = early is not None and early.adopted
    if early is not None and not adopted:  # the manager launched its own on the same files
        early.discard(keep_files=True)
    return KernelHandle(km.client(), km, log_path, adopted)


def installed_kernel(name: str) -> KernelHandle:
    """An installed kernelspec by name (e.g. a conda env with CUDA torch)."""
    from qtconsole.manager import QtKernelManager

    km, log_path = kernels.start_managed_kernel(name, QtKernelManager, autorestart=False)
    return KernelHandle(km.client(), km, log_path)


def existing_kernel(connection_file: str) -> KernelHandle:
    """A kernel someone else runs (``jupyter kernel``, a remote GPU box through an ssh
    tunnel): only a client; shutdown leaves the kernel running."""
    from qtconsole.client import QtKernelClient

    return KernelHandle(kernels.connect_client(connection_file, QtKernelClient))


def remote_kernel(target: remote_kernels.SshTarget) -> KernelHandle:
    """A kernel on a GPU box over SSH (question_db/remote_kernels.py): ours to interrupt,
    restart and shut down like a local one; its log is its stderr, streamed over ssh."""
    from qtconsole.manager import QtKernelManager

    km, log_path = remote_kernels.start_remote_kernel(target, QtKernelManager,
                                                      autorestart=False)
    return KernelHandle(km.client(), km, log_path)


def make_kernel(choice: KernelChoice, prelaunched: Prelaunched | None = None) -> KernelHandle:
    """The constructor for ``choice``'s kind; ``prelaunched`` is used only by the app's own
    kernel (callers discard it for any other choice)."""
    if choice.key.startswith(remote_kernels.SSH_PREFIX):
        return remote_kernel(remote_kernels.SshTarget.from_key(choice.key))
    if choice.connection_file:
        return existing_kernel(choice.connection_file)
    if choice.key == kernels.APP_KERNEL:
        return own_kernel(prelaunched)
    return installed_kernel(choice.key)
