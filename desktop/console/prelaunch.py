"""Start the app's own kernel process first thing, before Qt and the window are built.

The kernel needs ~2 s to start and import torch, the window ~0.4 s to appear: spawning the
process at launch overlaps the two (bench: launch_to_console_with_torch). Spawning here
needs only the standard library (jupyter_client and qtconsole cost ~0.5 s of imports);
``KernelSession`` later hands the process to a ``QtKernelManager`` that adopts it instead
of launching another (``adopting_manager``), so interrupt, restart, death detection and
shutdown work exactly as for a kernel it launched itself. Restarts launch normally.

POSIX only: on Windows jupyter_client passes the kernel an interrupt event handle at
launch, so there the kernel is launched by the manager as before.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

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
        __import__('torch')
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
        if self.alive():
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                self.process.kill()
        self.process.wait()
        if self.process.stdin is not None:
            self.process.stdin.close()
        if not keep_files:
            for path in (self.connection_file, self.log_path):
                path.unlink(missing_ok=True)


def prelaunch_app_kernel() -> Prelaunched | None:
    """Spawn the app kernel as ``KernelManager.start_kernel`` would; None where it cannot
    (Windows) or when something fails (the console then launches it the usual way)."""
    if os.name != "posix":
        return None
    try:
        spec_file = kernels.app_kernelspec_dir() / kernels.APP_KERNEL / "kernel.json"
        spec = json.loads(spec_file.read_text())
        runtime = kernels.runtime_dir()
        connection_file = runtime / f"kernel-{uuid.uuid4().hex[:12]}.json"
        # ipc transport, as kernels.configure_manager sets: sockets are <ip>-<port> files
        info = {name: port for port, name in enumerate(_PORTS, start=1)}
        info.update(ip=str(runtime / f"ipc-{uuid.uuid4().hex[:12]}"), key=str(uuid.uuid4()),
                    transport="ipc", signature_scheme="hmac-sha256",
                    kernel_name=kernels.APP_KERNEL)
        fd = os.open(connection_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(info, f, indent=1)
        cmd = [arg.replace("{connection_file}", str(connection_file)) for arg in spec["argv"]]
        # jupyter_client's environment: ours + the spec's, the parent pid (the kernel exits
        # when examdesk dies), never PYTHONEXECUTABLE
        env = {**os.environ, **spec.get("env", {}), "JPY_PARENT_PID": str(os.getpid())}
        env.pop("PYTHONEXECUTABLE", None)
        log_path = kernels.kernel_log_path()
        with open(log_path, "wb") as out:
            process = subprocess.Popen([*cmd, PRELOAD_TORCH], stdin=subprocess.PIPE,
                                       stdout=out, stderr=out, env=env, start_new_session=True)
    except (OSError, ValueError, KeyError) as exc:
        log.warning("could not start the kernel early (%s); the console will start it", exc)
        return None
    return Prelaunched(process, cmd, connection_file, log_path)


def adopting_manager(prelaunched: Prelaunched, **traits):
    """A ``QtKernelManager`` whose first ``start_kernel()`` adopts ``prelaunched``.

    Call ``kernels.configure_manager(km)`` and then ``adopt_connection(km)`` before
    ``start_kernel``. If the command the manager would run differs from the one that was
    spawned (the kernelspec changed meanwhile), the early process is discarded and a new
    one launched normally.
    """
    from qtconsole.manager import QtKernelManager

    class AdoptingKernelManager(QtKernelManager):
        async def _async_launch_kernel(self, kernel_cmd: list[str], **kw) -> None:
            pending, self._prelaunched = self._prelaunched, None
            if pending is None:
                return await super()._async_launch_kernel(kernel_cmd, **kw)
            if kernel_cmd != pending.cmd or not pending.alive():
                log.warning("the early kernel does not match %s; launching a new one",
                            kernel_cmd)
                pending.discard(keep_files=True)  # the new kernel reads the same file
                return await super()._async_launch_kernel(kernel_cmd, **kw)
            pending.adopted = True
            provisioner = self.provisioner
            provisioner.process = pending.process
            provisioner.pid = pending.process.pid
            provisioner.pgid = os.getpgid(pending.process.pid)  # start_new_session: own group
            provisioner.cwd = Path.cwd()
            self._reconcile_connection_info(provisioner.connection_info)

    km = AdoptingKernelManager(**traits)
    km._prelaunched = prelaunched
    return km


def adopt_connection(km, prelaunched: Prelaunched) -> None:
    """Point the manager at the connection file the early kernel is reading."""
    km.connection_file = str(prelaunched.connection_file)
    km.load_connection_file()
    # Already on disk with these values: rewriting it could race the kernel reading it.
    km._connection_file_written = True

