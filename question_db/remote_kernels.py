"""A kernel on another machine (a GPU box) reached over SSH: no Qt here.

The engine is a small jupyter_client kernel provisioner (``SshProvisioner``, a
``KernelProvisionerBase``: the same extension point as the app's own early kernel) driving the
system OpenSSH client. Chosen over ``gateway_provisioners.DistributedProvisioner`` (see
bench/RESULTS.md for the numbers): that one needs its launcher scripts and pycryptodomex
installed on the remote, makes the remote connect *back* to the laptop (fails behind NAT),
uses paramiko (no ``~/.ssh/config`` aliases, one global port, unknown host keys only
refused) and launches "local" whenever the host is 127.0.0.1.

How a remote kernel runs:
1. ``ssh host <python> -u -c <supervisor>``: the supervisor (``_SUPERVISOR``, sent as code;
   the remote needs only Python with ipykernel) reads the session key from stdin, writes a
   connection file (tcp, 127.0.0.1, free ports) in a private temp folder, starts
   ``ipykernel_launcher`` in its own session and prints the connection info on stdout: the
   connection info comes back over the same SSH connection. It then obeys lines on stdin
   (``signal N``, ``kill``), reports ``exited`` with the return code, and kills the kernel and
   everything it started (process group, plus orphans it adopted as a Linux subreaper) when
   stdin closes: a lost connection or a shutdown never leaves a kernel behind.
2. ``ssh -N -L <local>:127.0.0.1:<remote port>`` × 5: the tunnel. Locally the five channels are
   ipc sockets in the private runtime folder (POSIX; no TCP port on the laptop) or loopback
   ports (Windows). The local names and the key stay the same across restarts, so the
   console's client keeps working.
3. A tunnel that ends while the supervisor lives is a *lost connection* (the kernel still
   runs: ``reopen_tunnel``); a supervisor that ends without ``exited`` is a lost connection
   whose kernel was stopped with it; ``exited`` is a kernel death.

Host keys: every ssh runs with ``StrictHostKeyChecking=yes`` and ``BatchMode=yes``; an
unknown host raises ``HostKeyUnknown`` carrying the fingerprints (``scan_host_keys``); the
caller shows them, and ``trust_host_keys`` adds them to examdesk's own known-hosts file. A
changed key is refused, never offered.
"""
from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

__all__ = ["SSH_PREFIX", "SshTarget", "RemoteProbe", "SshError", "HostKeyUnknown",
           "HostKeyChanged", "HostRecord", "ssh_command", "probe_remote", "parse_probe",
           "scan_host_keys", "trust_host_keys", "known_hosts_file", "ssh_provisioner_class",
           "ssh_provisioner", "start_remote_kernel", "remember_host", "hosts_from_json",
           "hosts_to_json"]

SSH_PREFIX = "ssh:"
CONNECT_TIMEOUT_S = 10
START_TIMEOUT_S = 60.0  # the remote's python start + ipykernel import on a cold disk
TUNNEL_TIMEOUT_S = 20.0
STOP_WAIT_S = 3.0
CHANNELS = ("shell", "iopub", "stdin", "control", "hb")


@dataclass(frozen=True)
class SshTarget:
    """Where the remote kernel runs. ``host`` may be an ``~/.ssh/config`` alias; empty
    ``user``/``port``/``identity_file`` leave ssh's own configuration in charge."""

    host: str
    python: str = "python3"
    user: str = ""
    port: int = 0
    identity_file: str = ""

    @property
    def label(self) -> str:
        where = f"{self.user}@{self.host}" if self.user else self.host
        return f"{where}:{self.port}" if self.port else where

    def to_key(self) -> str:
        """A ``KernelChoice`` key that carries the whole target (no secrets in it)."""
        return SSH_PREFIX + json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_key(cls, key: str) -> "SshTarget":
        data = json.loads(key[len(SSH_PREFIX):])
        return cls(host=str(data["host"]), python=str(data.get("python") or "python3"),
                   user=str(data.get("user") or ""), port=int(data.get("port") or 0),
                   identity_file=str(data.get("identity_file") or ""))


class SshError(RuntimeError):
    """ssh failed; ``message`` is what ssh said (its last stderr lines)."""


class HostKeyUnknown(SshError):
    """The host is not in any known-hosts file: ``fingerprints`` to show, ``key_lines`` to
    trust (``trust_host_keys``) once the learner said yes."""

    def __init__(self, message: str, fingerprints: list[str], key_lines: list[str]):
        super().__init__(message)
        self.fingerprints = fingerprints
        self.key_lines = key_lines


class HostKeyChanged(SshError):
    """The host's key differs from the known one: refused (it may be an attack)."""


def known_hosts_file() -> Path:
    """examdesk's own known-hosts file (keys the learner accepted in examdesk); ssh reads the
    user's ``~/.ssh/known_hosts`` too."""
    from .paths import data_dir

    return data_dir() / "ssh_known_hosts"


def ssh_command(target: SshTarget, *, known_hosts: Path | None = None,
                extra: list[str] | None = None, remote: str | None = None) -> list[str]:
    """The OpenSSH command line for ``target``: batch mode (no prompts: keys come from the
    agent or the config), host keys checked strictly, dead links noticed within ~15 s."""
    ssh = shutil.which("ssh") or "ssh"
    files = ["~/.ssh/known_hosts", "~/.ssh/known_hosts2"]
    if known_hosts is None:
        known_hosts = known_hosts_file()
    files.append(str(known_hosts))
    cmd = [ssh, "-T", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
           "-o", "UserKnownHostsFile=" + " ".join(files),
           "-o", f"ConnectTimeout={CONNECT_TIMEOUT_S}", "-o", "ServerAliveInterval=5",
           "-o", "ServerAliveCountMax=3", "-o", "LogLevel=ERROR"]
    if target.port:
        cmd += ["-p", str(target.port)]
    if target.user:
        cmd += ["-l", target.user]
    if target.identity_file:
        cmd += ["-i", os.path.expanduser(target.identity_file), "-o", "IdentitiesOnly=yes"]
    cmd += list(extra or [])
    cmd += ["--", target.host]
    if remote is not None:
        cmd.append(remote)
    return cmd


def _python_command(python: str, code: str) -> str:
    """``python -u -c <code>`` as one remote shell word list: the code base64-encoded, so
    no quoting of the login shell (sh, bash, zsh, fish, csh) can alter it."""
    encoded = base64.b64encode(code.encode()).decode()
    exe = python if re.fullmatch(r"[\w./~+-]+", python) else "'" + python.replace("'", "") + "'"
    return f'{exe} -u -c "import base64;exec(base64.b64decode(\'{encoded}\'))"'


def _raise_for_ssh(target: SshTarget, returncode: int, stderr: str,
                   known_hosts: Path | None) -> None:
    text = stderr.strip()
    if "IDENTIFICATION HAS CHANGED" in text or "Host key for" in text and "has changed" in text:
        raise HostKeyChanged(text)
    if "Host key verification failed" in text or "No ED25519 host key is known" in text \
            or re.search(r"No \S+ host key is known", text):
        prints, lines = scan_host_keys(target)
        raise HostKeyUnknown(text, prints, lines)
    raise SshError(text or f"ssh exited with status {returncode}")


# --- host keys ----------------------------------------------------------------------------

def _resolved(target: SshTarget) -> tuple[str, int, str]:
    """(hostname, port, known-hosts name) as ssh resolves ``target`` (``ssh -G``: aliases,
    ``HostKeyAlias``)."""
    cmd = ssh_command(target, extra=["-G"])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout
    conf = {}
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        conf.setdefault(key.lower(), value.strip())
    hostname = conf.get("hostname", target.host)
    port = int(conf.get("port", target.port or 22))
    alias = conf.get("hostkeyalias", "")
    name = alias or (hostname if port == 22 else f"[{hostname}]:{port}")
    return hostname, port, name


def scan_host_keys(target: SshTarget) -> tuple[list[str], list[str]]:
    """(fingerprints as ``ssh-keygen -l`` prints them, known-hosts lines) of the host's
    keys, fetched with ``ssh-keyscan``; nothing is trusted here."""
    hostname, port, name = _resolved(target)
    scan = subprocess.run([shutil.which("ssh-keyscan") or "ssh-keyscan", "-T", "5", "-p",
                           str(port), hostname], capture_output=True, text=True, timeout=20)
    lines = []
    for line in scan.stdout.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) >= 3:
            lines.append(" ".join([name] + parts[1:]))
    prints = []
    if lines:
        listed = subprocess.run([shutil.which("ssh-keygen") or "ssh-keygen", "-l", "-f", "-"],
                                input="\n".join(lines) + "\n", capture_output=True, text=True,
                                timeout=10)
        prints = [line for line in listed.stdout.splitlines() if line.strip()]
    return prints, lines


def trust_host_keys(key_lines: list[str], known_hosts: Path | None = None) -> Path:
    """Add ``key_lines`` (from ``HostKeyUnknown``) to examdesk's known-hosts file."""
    path = known_hosts or known_hosts_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a") as out:
        for line in key_lines:
            out.write(line.rstrip("\n") + "\n")
    return path


# --- the probe (Test connection) ----------------------------------------------------------

_PROBE = r"""
import json, sys
info = {"python": sys.version.split()[0], "executable": sys.executable}
try:
    import ipykernel
    info["ipykernel"] = ipykernel.__version__
except Exception as exc:
    info["ipykernel"] = None
try:
    import torch
    info["torch"] = torch.__version__
    devices = []
    if torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            free, total = torch.cuda.mem_get_info(i)
            devices.append({"name": torch.cuda.get_device_name(i), "free": free,
                            "total": total})
    info["cuda"] = devices
except Exception as exc:
    info["torch"] = None
    info["cuda"] = []
    info["torch_error"] = f"{type(exc).__name__}: {exc}"
print("EXAMDESK-PROBE " + json.dumps(info))
"""


@dataclass(frozen=True)
class RemoteProbe:
    """What ``probe_remote`` found on the remote Python."""

    python: str
    executable: str
    ipykernel: str | None
    torch: str | None
    cuda: list[dict] = field(default_factory=list)  # name, free, total (bytes)
    seconds: float = 0.0

    @property
    def gpu_summary(self) -> str:
        """e.g. ``2× NVIDIA H100 80GB HBM3 (79.1 GiB free)``, or '' without CUDA."""
        if not self.cuda:
            return ""
        names = sorted({d["name"] for d in self.cuda})
        free = sum(int(d.get("free", 0)) for d in self.cuda) / 2 ** 30
        return f"{len(self.cuda)}× {', '.join(names)} ({free:.1f} GiB free)"


def parse_probe(stdout: str, seconds: float = 0.0) -> RemoteProbe:
    """The probe's JSON line out of whatever the login shell printed around it."""
    for line in stdout.splitlines():
        if line.startswith("EXAMDESK-PROBE "):
            data = json.loads(line[len("EXAMDESK-PROBE "):])
            return RemoteProbe(python=str(data.get("python", "")),
                               executable=str(data.get("executable", "")),
                               ipykernel=data.get("ipykernel"), torch=data.get("torch"),
                               cuda=list(data.get("cuda") or []), seconds=seconds)
    raise SshError("the remote Python printed no probe result:\n" + stdout[-500:])


def probe_remote(target: SshTarget, *, known_hosts: Path | None = None,
                 timeout: float = 60.0) -> RemoteProbe:
    """Log in and report the remote Python's versions, CUDA devices and free memory.
    Raises ``HostKeyUnknown`` / ``HostKeyChanged`` / ``SshError``."""
    started = time.monotonic()
    cmd = ssh_command(target, known_hosts=known_hosts,
                      remote=_python_command(target.python, _PROBE))
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise SshError(f"no answer from {target.label} within {timeout:.0f} s") from exc
    if done.returncode == 255:
        _raise_for_ssh(target, done.returncode, done.stderr, known_hosts)
    if done.returncode != 0:
        raise SshError(done.stderr.strip()[-800:] or
                       f"{target.python} exited with status {done.returncode}")
    return parse_probe(done.stdout, time.monotonic() - started)


# --- remembered hosts ---------------------------------------------------------------------

@dataclass(frozen=True)
class HostRecord:
    """A remembered remote (settings): the target and the GPU last seen; no secrets."""

    target: SshTarget
    last_gpu: str = ""
    last_seen: float = 0.0  # time.time() of the last successful probe or start

    def to_dict(self) -> dict:
        return {"target": asdict(self.target), "last_gpu": self.last_gpu,
                "last_seen": self.last_seen}

    @classmethod
    def from_dict(cls, data: dict) -> "HostRecord":
        target = SshTarget.from_key(SSH_PREFIX + json.dumps(data["target"]))
        return cls(target, str(data.get("last_gpu") or ""), float(data.get("last_seen") or 0))


def hosts_from_json(text: str) -> list[HostRecord]:
    """Records from the settings value; damaged entries are skipped."""
    try:
        items = json.loads(text or "[]")
    except ValueError:
        return []
    records = []
    for item in items if isinstance(items, list) else []:
        try:
            records.append(HostRecord.from_dict(item))
        except (KeyError, TypeError, ValueError):
            continue
    return records


def hosts_to_json(records: list[HostRecord]) -> str:
    return json.dumps([r.to_dict() for r in records], sort_keys=True)


def remember_host(records: list[HostRecord], record: HostRecord,
                  limit: int = 10) -> list[HostRecord]:
    """``record`` first, replacing the one for the same target; at most ``limit``."""
    rest = [r for r in records if r.target != record.target]
    return [record] + rest[:limit - 1]


# --- the remote supervisor ----------------------------------------------------------------

_SUPERVISOR = r"""
import json, os, signal, subprocess, sys, tempfile, threading, time
from jupyter_client.connect import write_connection_file
params = json.loads(sys.stdin.readline())
if sys.platform.startswith("linux"):
    try:
        import ctypes
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come here
    except Exception:
        pass
folder = tempfile.mkdtemp(prefix="examdesk-kernel-")
cf = os.path.join(folder, "kernel.json")
_, info = write_connection_file(cf, ip="127.0.0.1", transport="tcp",
                                key=params["key"].encode(),
                                signature_scheme=params["signature_scheme"])
env = dict(os.environ, PYTHONUNBUFFERED="1", PYDEVD_DISABLE_FILE_VALIDATION="1")
env.pop("JPY_PARENT_PID", None)
kernel = subprocess.Popen([sys.executable, "-m", "ipykernel_launcher", "-f", cf],
                          stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr,
                          start_new_session=True, env=env, cwd=params.get("cwd") or None)
lock = threading.Lock()
def say(**event):
    with lock:
        try:
            sys.stdout.write(json.dumps(event) + "\n")
            sys.stdout.flush()
        except Exception:
            pass
def children():
    found = []
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    stat = fh.read()
                if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                    found.append(int(name))
            except Exception:
                pass
    return found
def kill_all():
    try:
        os.killpg(kernel.pid, signal.SIGKILL)
    except OSError:
        pass
    for _ in range(50):
        left = children()
        if not left:
            break
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.waitpid(pid, os.WNOHANG)
            except OSError:
                pass
        time.sleep(0.02)
def finish(code):
    kill_all()
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    for name in names:
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass
    try:
        os.rmdir(folder)
    except OSError:
        pass
    os._exit(code)
say(event="started", pid=kernel.pid, connection={k: info[k] for k in (
    "shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")})
def commands():
    for line in sys.stdin:
        word = line.split()
        if not word:
            continue
        if word[0] == "signal":
            try:
                os.killpg(kernel.pid, int(word[1]))
            except OSError:
                pass
        elif word[0] == "kill":
            kill_all()
    # stdin closed: the connection is gone or examdesk shuts the kernel down
    if kernel.poll() is None:
        try:
            os.killpg(kernel.pid, signal.SIGTERM)
        except OSError:
            pass
        try:
            kernel.wait(2)
        except subprocess.TimeoutExpired:
            pass
    finish(0)
threading.Thread(target=commands, daemon=True).start()
code = kernel.wait()
say(event="exited", returncode=code)
kill_all()
for line in sys.stdin:  # wait for examdesk to hang up (it has read "exited")
    pass
finish(0)
"""


def _local_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def ssh_provisioner_class() -> type:
    """``SshProvisioner`` (built on first use: jupyter_client is imported late)."""
    global _PROVISIONER
    if _PROVISIONER is not None:
        return _PROVISIONER
    from jupyter_client.provisioning import KernelProvisionerBase

    class SshProvisioner(KernelProvisionerBase):
        """Runs the kernel on ``target`` through the supervisor and forwards its channels;
        see the module docstring. ``target`` and ``known_hosts`` are set by
        ``ssh_provisioner``."""

        target: SshTarget
        known_hosts: Path | None = None

        def __init__(self, **kwargs: Any):
            super().__init__(**kwargs)
            self.ssh_process: subprocess.Popen | None = None  # the supervisor's ssh
            self.tunnel: subprocess.Popen | None = None
            self.remote_ports: dict[str, int] = {}
            self.local_ports: dict[str, int] = {}
            self.remote_pid: int | None = None
            self.returncode: int | None = None  # the kernel's, from the supervisor
            self._started = threading.Event()
            self._reader: threading.Thread | None = None
            self._log_path: str | None = None
            self._lock = threading.Lock()

        # -- state ---------------------------------------------------------------
        @property
        def has_process(self) -> bool:
            return self.ssh_process is not None

        @property
        def connection_lost(self) -> bool:
            """The link to the remote is gone (tunnel or supervisor) without the kernel
            having exited by itself."""
            if self.ssh_process is None or self.returncode is not None:
                return False
            return self.ssh_process.poll() is not None or not self.tunnel_alive

        @property
        def kernel_survived(self) -> bool:
            """The remote kernel still runs (only the tunnel is gone): reconnectable."""
            return (self.ssh_process is not None and self.ssh_process.poll() is None
                    and self.returncode is None)

        @property
        def tunnel_alive(self) -> bool:
            return self.tunnel is not None and self.tunnel.poll() is None

        async def poll(self) -> int | None:
            if self.ssh_process is None:
                return 0
            if self.returncode is not None:
                return self.returncode
            return self.ssh_process.poll()

        async def wait(self) -> int | None:
            while await self.poll() is None:
                await asyncio.sleep(0.05)
            return await self.poll()

        # -- signals -------------------------------------------------------------
        def _send(self, line: str) -> bool:
            process = self.ssh_process
            if process is None or process.stdin is None or process.poll() is not None:
                return False
            try:
                with self._lock:
                    process.stdin.write((line + "\n").encode())
                    process.stdin.flush()
                return True
            except (OSError, ValueError):
                return False

        async def send_signal(self, signum: int) -> None:
            self._send(f"signal {int(signum)}")

        async def kill(self, restart: bool = False) -> None:
            self.kill_now()

        async def terminate(self, restart: bool = False) -> None:
            self._send(f"signal {int(signal.SIGTERM)}")

        def kill_now(self, wait_s: float = STOP_WAIT_S) -> None:
            """Kill the remote kernel and everything it started, then hang up."""
            if self._send("kill"):
                deadline = time.monotonic() + wait_s
                while self.returncode is None and time.monotonic() < deadline \
                        and self.ssh_process.poll() is None:
                    time.sleep(0.02)
            self._hang_up(wait_s)

        def _hang_up(self, wait_s: float = STOP_WAIT_S) -> None:
            """Close the supervisor's stdin (it kills what is left and exits), stop the
            tunnel; SIGKILL the local ssh processes if they linger."""
            process = self.ssh_process
            if process is not None:
                try:
                    if process.stdin is not None:
                        process.stdin.close()
                except OSError:
                    pass
            for proc in (process, self.tunnel):
                if proc is None:
                    continue
                if proc is self.tunnel and proc.poll() is None:
                    proc.terminate()
                try:
                    proc.wait(wait_s)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(1)
            if self._reader is not None:
                self._reader.join(wait_s)

        # -- launch ----------------------------------------------------------------
        async def pre_launch(self, **kwargs: Any) -> dict[str, Any]:
            km = self.parent
            if not self.local_ports:  # fixed across restarts: the client keeps them
                if km.transport == "ipc":
                    self.local_ports = {name: i + 1 for i, name in enumerate(CHANNELS)}
                else:
                    km.ip = "127.0.0.1"
                    self.local_ports = {name: _local_port() for name in CHANNELS}
            for name, port in self.local_ports.items():
                setattr(km, f"{name}_port", port)
            kwargs.pop("extra_arguments", None)
            return await super().pre_launch(cmd=[], **kwargs)

        async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> dict:
            km = self.parent
            self.returncode = None
            self.remote_pid = None
            self._started.clear()
            stderr = kwargs.get("stderr")
            if getattr(stderr, "closed", False):  # a restart without a new log: the old one
                stderr = None
            log_name = getattr(stderr, "name", None)
            if isinstance(log_name, str):
                self._log_path = log_name
            remote = _python_command(self.target.python, _SUPERVISOR)
            command = ssh_command(self.target, known_hosts=self.known_hosts, remote=remote)
            reopened = None
            if stderr is None and self._log_path:
                stderr = reopened = open(self._log_path, "ab")
            try:
                self.ssh_process = subprocess.Popen(
                    command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=stderr if stderr is not None else subprocess.DEVNULL,
                    start_new_session=True)
            finally:
                if reopened is not None:
                    reopened.close()
            params = {"key": km.session.key.decode(),
                      "signature_scheme": km.session.signature_scheme}
            self._send(json.dumps(params))
            self._reader = threading.Thread(target=self._read_events, daemon=True,
                                            name="examdesk-ssh-events")
            self._reader.start()
            deadline = time.monotonic() + START_TIMEOUT_S
            while not self._started.is_set():
                if self.ssh_process.poll() is not None or self.returncode is not None:
                    code = self.ssh_process.poll()
                    self._hang_up(1)
                    raise SshError(f"the remote kernel did not start on {self.target.label} "
                                   f"(ssh status {code}); see the kernel log")
                if time.monotonic() > deadline:
                    self.kill_now(1)
                    raise SshError(f"the remote kernel did not start within "
                                   f"{START_TIMEOUT_S:.0f} s")
                await asyncio.sleep(0.01)
            try:
                self.open_tunnel()
            except Exception:
                self.kill_now(1)
                raise
            info = km.get_connection_info()
            info.update({f"{name}_port": port for name, port in self.local_ports.items()})
            return info

        def _read_events(self) -> None:
            process = self.ssh_process
            for raw in process.stdout:
                try:
                    event = json.loads(raw)
                except ValueError:
                    continue  # a login banner
                if event.get("event") == "started":
                    self.remote_ports = {k[:-5]: int(v)
                                         for k, v in event["connection"].items()}
                    self.remote_pid = int(event.get("pid", 0)) or None
                    self._started.set()
                elif event.get("event") == "exited":
                    self.returncode = int(event["returncode"])
            process.stdout.close()

        def _local_address(self, name: str) -> str:
            km = self.parent
            if km.transport == "ipc":
                return f"{km.ip}-{self.local_ports[name]}"
            return f"127.0.0.1:{self.local_ports[name]}"

        def open_tunnel(self) -> None:
            """Forward the five channels (again: ``reopen_tunnel``); returns once every
            local end accepts connections."""
            if self.tunnel is not None and self.tunnel.poll() is None:
                self.tunnel.terminate()
                self.tunnel.wait(STOP_WAIT_S)
            forwards = []
            for name in CHANNELS:
                forwards += ["-L", f"{self._local_address(name)}:127.0.0.1:"
                                   f"{self.remote_ports[name]}"]
            options = ["-N", "-o", "ExitOnForwardFailure=yes",
                       "-o", "StreamLocalBindUnlink=yes", "-o", "StreamLocalBindMask=0177",
                       *forwards]
            self.tunnel = subprocess.Popen(
                ssh_command(self.target, known_hosts=self.known_hosts, extra=options),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, start_new_session=True)
            deadline = time.monotonic() + TUNNEL_TIMEOUT_S
            while not all(self._accepts(name) for name in CHANNELS):
                if self.tunnel.poll() is not None:
                    message = self.tunnel.stderr.read().decode(errors="replace")
                    self.tunnel.stderr.close()
                    raise SshError("the tunnel did not open: " + message.strip())
                if time.monotonic() > deadline:
                    raise SshError("the tunnel did not open within "
                                   f"{TUNNEL_TIMEOUT_S:.0f} s")
                time.sleep(0.01)
            self.tunnel.stderr.close()

        def reopen_tunnel(self) -> bool:
            """After a lost tunnel: forward again to the same remote kernel. False when the
            kernel is gone (then only a restart helps)."""
            if not self.kernel_survived:
                return False
            self.open_tunnel()
            return True

        def _accepts(self, name: str) -> bool:
            km = self.parent
            if km.transport == "ipc":
                return os.path.exists(self._local_address(name))
            try:
                with socket.create_connection(("127.0.0.1", self.local_ports[name]), 0.2):
                    return True
            except OSError:
                return False

        async def cleanup(self, restart: bool = False) -> None:
            self._hang_up()
            if self.parent is not None and self.parent.transport == "ipc":
                for name in CHANNELS:
                    if name in self.local_ports:
                        try:
                            os.unlink(self._local_address(name))
                        except OSError:
                            pass
            if not restart:
                self.ssh_process = None
                self.tunnel = None

        async def get_provisioner_info(self) -> dict:
            info = await super().get_provisioner_info()
            info.update({"target": asdict(self.target), "remote_pid": self.remote_pid})
            return info

    _PROVISIONER = SshProvisioner
    return SshProvisioner


_PROVISIONER: type | None = None


def ssh_provisioner(target: SshTarget, known_hosts: Path | None = None) -> Callable[[Any], Any]:
    """For ``kernels.start_managed_kernel(provisioner=...)``."""
    def make(km):
        provisioner = ssh_provisioner_class()(kernel_id=km.kernel_id,
                                              kernel_spec=km.kernel_spec, parent=km)
        provisioner.target = target
        provisioner.known_hosts = known_hosts
        return provisioner
    return make


def start_remote_kernel(target: SshTarget, manager_class: type | None = None, *,
                        known_hosts: Path | None = None, **traits: Any) -> tuple[Any, Path]:
    """A manager whose kernel runs on ``target`` (started, tunnel open) and its local log
    (the supervisor's and the kernel's stderr, streamed over ssh)."""
    from . import kernels

    return kernels.start_managed_kernel(kernels.APP_KERNEL, manager_class,
                                        provisioner=ssh_provisioner(target, known_hosts),
                                        **traits)
