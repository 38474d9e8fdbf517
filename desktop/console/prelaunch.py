"""Start the app's own kernel process first thing, before Qt and the window are built, and
hand it to the console's manager through a jupyter_client kernel provisioner.

The kernel needs ~2 s to start and import torch, the window ~0.4 s to appear: spawning the
process at launch overlaps the two (bench: launch_to_console_with_torch). Spawning here
needs only the standard library (jupyter_client and qtconsole cost ~0.5 s of imports).

Adoption goes through jupyter_client's public extension point for "how a kernel process
comes to be", the kernel provisioner (``jupyter_client.provisioning``, since 7.0):
``EarlyKernelProvisioner`` is a ``LocalProvisioner`` whose first launch takes the running
process instead of spawning one; every later launch (a restart) is LocalProvisioner's own.
Interrupt, restart, death detection and shutdown are then jupyter_client's unchanged code
working on ``provisioner.process``.

How it is attached: the provisioner is set on the manager instance
(``km.provisioner = EarlyKernelProvisioner(...)``, see ``early_provisioner``) before
``start_kernel()``. ``KernelManager.provisioner`` is a public attribute, and the manager
only asks ``KernelProvisionerFactory`` for a provisioner when it has none (that is how it
keeps one across restarts). This works with qtconsole's ``QtKernelManager`` as it is,
with no subclass and no private member. The documented alternative, an entry point in
the ``jupyter_client.kernel_provisioners`` group named by ``metadata.kernel_provisioner``
in kernel.json, was rejected as more fragile here: entry points exist only in an installed
distribution (examdesk run from a source checkout, or a stale editable install, would fail
to start its kernel with ``ModuleNotFoundError``), and the factory builds the provisioner
from kernel.json config, so the live ``Popen`` to adopt would have to reach it through a
global.

The connection file the early kernel reads is never rewritten (that could race the kernel
reading it): the provisioner loads it into the manager (``load_connection_file``) and returns
the same connection info from ``launch_kernel``; jupyter_client's
``_reconcile_connection_info`` then finds the file equal and leaves it. The provisioner
removes that file at the final cleanup (the manager removes only files it wrote).

POSIX only: on Windows jupyter_client passes the kernel an interrupt event handle at
launch, so there the kernel is launched by the manager as before.
"""
from __future__ import annotations

import functools
import json
import logging
import os
import signal
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from question_db import kernels

log = logging.getLogger(__name__)
_PORTS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")
# The console imports torch as soon as the kernel answers (KernelSession's probe). Started
# here, on a thread of the kernel once ipykernel itself is loaded (exec_lines run last in
# its start-up), the import overlaps the window's start-up and the kernel still answers
# (and shows its prompt) at once; the probe's own import then only waits for it to finish.
# The learner's namespace gets no new names; a broken torch is reported by the probe.
_PRELOAD_CELL = """def _examdesk_preload():
    try:
        torch = __import__('torch')
        # Without a GPU, Triton kernels can only run in its interpreter, and the switch
        # must be set before triton is first imported (by the learner or by torch.compile).
        if not torch.cuda.is_available() and 'triton' not in __import__('sys').modules:
            __import__('os').environ.setdefault('TRITON_INTERPRET', '1')
    except Exception:
        pass
__import__('threading').Thread(target=_examdesk_preload, name='examdesk-preload-torch',
                               daemon=True).start()
del _examdesk_preload"""
PRELOAD_TORCH = f"--IPKernelApp.exec_lines={_PRELOAD_CELL}"


@dataclass
class Prelaunched:
    """A kernel process started from the app kernelspec, not yet owned by a manager."""

    process: subprocess.Popen
    cmd: list[str]  # the kernelspec's command (what a manager would run), without the preload
    connection_file: Path
    log_path: Path
    adopted: bool = False  # a manager owns the process now
    discarded: bool = False

    def alive(self) -> bool:
        return self.process.poll() is None

    def discard(self, *, keep_files: bool = False) -> None:
        """Kill it (its whole process group, as the manager would) and remove its files;
        nothing once a manager adopted it. ``keep_files``: a manager that took over the
        connection file (and log) launches its own kernel on them. Idempotent."""
        if self.adopted or self.discarded:
            return
        self.discarded = True
        if self.alive() and not kernels.stop_reaper(self.process):
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                self.process.kill()
        self.process.wait()
        if self.process.stdin is not None:
            self.process.stdin.close()
        if not keep_files:
            kernels.remove_file(self.connection_file)
            kernels.remove_log(self.log_path)
            _remove_sockets(self.connection_file)


def _remove_sockets(connection_file: Path) -> None:
    """The ipc socket files the kernel bound (``<ip>-<port>``, named in its connection file,
    and its IOPub pipe's)."""
    try:
        info = json.loads(Path(connection_file).read_text())
    except (OSError, ValueError):
        return
    if info.get("transport") == "ipc":
        for name in _PORTS:
            kernels.remove_file(f"{info['ip']}-{info[name]}")
        kernels.remove_pipe_socket(info["ip"])


def prelaunch_app_kernel() -> Prelaunched | None:
    """Spawn the app kernel as ``KernelManager.start_kernel`` would; None where it cannot
    (Windows) or when something fails (the console then launches it the usual way)."""
    if os.name != "posix":
        return None
    try:
        spec_file = kernels.app_kernelspec_dir() / kernels.APP_KERNEL / "kernel.json"
        spec = json.loads(spec_file.read_text())
        connection_file = kernels.new_connection_file()
        # ipc transport, as kernels.configure_manager sets: sockets are <ip>-<port> files
        info = {name: port for port, name in enumerate(_PORTS, start=1)}
        info.update(ip=kernels.new_ipc_address(), key=str(uuid.uuid4()), transport="ipc",
                    signature_scheme="hmac-sha256", kernel_name=kernels.APP_KERNEL)
        fd = os.open(connection_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(info, f, indent=1)
        cmd = [arg.replace("{connection_file}", str(connection_file)) for arg in spec["argv"]]
        # jupyter_client's environment: ours + the spec's, the parent pid (the kernel exits
        # when examdesk dies), never PYTHONEXECUTABLE
        env = {**os.environ, **spec.get("env", {}), "JPY_PARENT_PID": str(os.getpid())}
        env.pop("PYTHONEXECUTABLE", None)
        log_path = kernels.new_log_file()
        with open(log_path, "ab") as out:  # under the reaper, as every kernel we start
            process = subprocess.Popen(
                kernels.reaped_command([*cmd, PRELOAD_TORCH], connection_file),
                stdin=subprocess.PIPE, stdout=out, stderr=out, env=env, start_new_session=True)
    except (OSError, ValueError, KeyError) as exc:
        log.warning("could not start the kernel early (%s); the console will start it", exc)
        return None
    return Prelaunched(process, cmd, connection_file, log_path)


def early_provisioner(prelaunched: Prelaunched):
    """For ``kernels.start_managed_kernel(provisioner=...)``: given the manager, the
    provisioner that adopts ``prelaunched`` at its first launch."""
    def make(km):
        return early_provisioner_class()(prelaunched, kernel_id=km.kernel_id,
                                      kernel_spec=km.kernel_spec, parent=km)
    return make


@functools.cache
def early_provisioner_class() -> type:
    """``EarlyKernelProvisioner`` (built on first use: jupyter_client is not imported at
    launch)."""
    from jupyter_client.provisioning import KernelProvisionerBase

    class EarlyKernelProvisioner(kernels.reaping_provisioner_class()):
        """A ``ReapingProvisioner`` (a ``LocalProvisioner`` whose kernels run under the
        reaper) whose first launch adopts a kernel already running.

        If the command the manager would run differs from the one that was spawned (the
        kernelspec changed meanwhile), or the early process has died, the early process is
        discarded and this launch is LocalProvisioner's own, on the same connection file.
        """

        def __init__(self, prelaunched: Prelaunched, **kwargs: Any):
            super().__init__(**kwargs)
            self.early: Prelaunched | None = prelaunched  # until the first launch
            self._adopting: Prelaunched | None = None
            self._adopted_file: Path | None = None

        async def pre_launch(self, **kwargs: Any) -> dict[str, Any]:
            early, self.early = self.early, None
            if early is None:
                return await super().pre_launch(**kwargs)
            km = self.parent
            km.connection_file = str(early.connection_file)
            km.load_connection_file()  # ports, ipc address and key the early kernel uses
            extra = kwargs.pop("extra_arguments", [])
            cmd = km.format_kernel_cmd(extra_arguments=extra)
            if cmd != early.cmd or not early.alive():
                log.warning("the early kernel does not match %s (or has died); launching a "
                            "new one", cmd)
                early.discard(keep_files=True)  # the new kernel reads the same file
                return await super().pre_launch(extra_arguments=extra, **kwargs)
            kwargs.pop("transport_encryption", None)
            self._adopting = early
            self.connection_info = km.get_connection_info()
            # KernelProvisionerBase's: the environment only. LocalProvisioner's would
            # write the connection file again while the early kernel may be reading it.
            return await KernelProvisionerBase.pre_launch(self, cmd=cmd, **kwargs)

        async def launch_kernel(self, cmd: list[str], **kwargs: Any):
            early, self._adopting = self._adopting, None
            if early is None:
                return await super().launch_kernel(cmd, **kwargs)
            early.adopted = True
            self.process = early.process
            self.pid = early.process.pid
            try:
                self.pgid = os.getpgid(self.pid)  # start_new_session: its own group
            except OSError:
                self.pgid = None
            self.cwd = kwargs.get("cwd", Path.cwd())
            self._adopted_file = early.connection_file
            return self.connection_info

        async def cleanup(self, restart: bool = False) -> None:
            await super().cleanup(restart=restart)
            if not restart and self._adopted_file is not None:
                kernels.remove_file(self._adopted_file)  # the manager did not write it
                self._adopted_file = None

    return EarlyKernelProvisioner

