"""A kernel on a "remote" GPU box over SSH (question_db/remote_kernels.py, issue 32).

A real OpenSSH server on 127.0.0.1 plays the remote: started here on a free port with a
throwaway host key and user key in tmp; the "remote" Python is this venv's. Skipped, with the
reason printed, where sshd is not installed (``apt-get install openssh-server``)."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from question_db import kernels, remote_kernels as rk
from question_db.checks.runner import KernelCheckRunner

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
pytestmark = pytest.mark.skipif(
    os.name != "posix" or not Path(SSHD).exists() or shutil.which("ssh") is None,
    reason="needs the OpenSSH server and client (apt-get install openssh-server "
           "openssh-client)")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


class LoopbackSshd:
    """sshd on 127.0.0.1:<port> accepting ``user_key`` for the current user."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = _free_port()
        self.host_key = folder / "host_key"
        self.user_key = folder / "user_key"
        for key in (self.host_key, self.user_key):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
                           check=True)
        (folder / "authorized_keys").write_text(Path(f"{self.user_key}.pub").read_text())
        config = folder / "sshd_config"
        config.write_text(
            f"Port {self.port}\nListenAddress 127.0.0.1\nHostKey {self.host_key}\n"
            f"AuthorizedKeysFile {folder / 'authorized_keys'}\nPidFile {folder / 'sshd.pid'}\n"
            "UsePAM no\nStrictModes no\nPermitRootLogin prohibit-password\n"
            "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
            "AllowTcpForwarding yes\nAllowStreamLocalForwarding yes\n")
        Path("/run/sshd").mkdir(exist_ok=True)  # privilege separation folder (Debian)
        # detached (sh exits at once): the "remote" is not a child of the tests, whose
        # leak check (conftest.no_leaks) wants no child process at all after a kernel test
        launched = subprocess.run(
            ["sh", "-c", 'setsid "$0" -D -e -f "$1" >"$2" 2>&1 </dev/null & echo $!',
             SSHD, str(config), str(folder / "sshd.log")],
            capture_output=True, text=True, check=True)
        self.process = psutil.Process(int(launched.stdout.strip()))
        if not wait_for(self._listening, 10):
            self.stop()
            raise RuntimeError("sshd did not start: " +
                               (folder / "sshd.log").read_text(errors="replace"))
        self.known_hosts = folder / "known_hosts"
        self.target = rk.SshTarget("127.0.0.1", python=sys.executable, port=self.port,
                                   identity_file=str(self.user_key))

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 0.2):
                return True
        except OSError:
            return False

    def trust(self) -> None:
        _, lines = rk.scan_host_keys(self.target)
        rk.trust_host_keys(lines, self.known_hosts)

    def sessions(self) -> list[psutil.Process]:
        """What runs under sshd: one process pair per connection, plus what they started."""
        try:
            return psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def stop(self) -> None:
        try:
            self.process.terminate()
            self.process.wait(5)
        except psutil.NoSuchProcess:
            pass


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    try:
        server = LoopbackSshd(tmp_path_factory.mktemp("sshd"))
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        print(f"SKIPPED remote kernel tests: {exc}")
        pytest.skip(f"sshd cannot run here: {exc}")
    yield server
    server.stop()


@pytest.fixture
def trusted(sshd):
    sshd.known_hosts.unlink(missing_ok=True)
    sshd.trust()
    return sshd


def _remote_kernels(sshd) -> list[psutil.Process]:
    found = []
    for process in sshd.sessions():
        try:
            if "ipykernel_launcher" in " ".join(process.cmdline()):
                found.append(process)
        except psutil.NoSuchProcess:
            pass
    return found


def _nothing_left(sshd) -> bool:
    return not sshd.sessions() and not [
        p for p in psutil.Process().children(recursive=True)
        if p.pid != sshd.process.pid and _is_ssh(p)]


def _is_ssh(process: psutil.Process) -> bool:
    try:
        return Path(process.exe()).name == "ssh"
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def _start(sshd):
    km, log_path = rk.start_remote_kernel(sshd.target, known_hosts=sshd.known_hosts)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc, log_path


def _stop(sshd, km, kc, log_path) -> None:
    kernels.shutdown_kernel(km, kc)
    kernels.remove_log(log_path)
    assert wait_for(lambda: _nothing_left(sshd)), [p.cmdline() for p in sshd.sessions()]


# --- host keys, probe, records: no kernel -------------------------------------------------

def test_an_unknown_host_is_refused_with_its_fingerprint_until_trusted(sshd):
    """StrictHostKeyChecking stays on: the first contact raises with the fingerprint to
    show; once trusted, the probe reports the remote Python, its torch and CUDA devices."""
    sshd.known_hosts.unlink(missing_ok=True)
    with pytest.raises(rk.HostKeyUnknown) as refused:
        rk.probe_remote(sshd.target, known_hosts=sshd.known_hosts)
    expected = subprocess.run(["ssh-keygen", "-l", "-f", f"{sshd.host_key}.pub"],
                              capture_output=True, text=True, check=True).stdout.split()[1]
    assert [p.split()[1] for p in refused.value.fingerprints] == [expected]
    assert not sshd.known_hosts.exists()
    rk.trust_host_keys(refused.value.key_lines, sshd.known_hosts)
    probe = rk.probe_remote(sshd.target, known_hosts=sshd.known_hosts)
    assert probe.executable == sys.executable and probe.ipykernel
    import torch

    assert probe.torch == torch.__version__
    assert probe.cuda == [] and probe.gpu_summary == ""


def test_a_changed_host_key_is_refused_and_never_offered(sshd, tmp_path):
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)],
                   check=True)
    fake = tmp_path / "known_hosts"
    fake.write_text(f"[127.0.0.1]:{sshd.port} " + " ".join(
        Path(f"{other}.pub").read_text().split()[:2]) + "\n")
    with pytest.raises(rk.HostKeyChanged):
        rk.probe_remote(sshd.target, known_hosts=fake)


def test_probe_output_is_found_among_login_banners_and_gpus_are_summarised():
    line = ('EXAMDESK-PROBE {"python": "3.12.1", "executable": "/opt/env/bin/python", '
            '"ipykernel": "6.29", "torch": "2.5.1+cu124", "cuda": ['
            '{"name": "NVIDIA H100", "free": 85899345920, "total": 85899345920},'
            '{"name": "NVIDIA H100", "free": 42949672960, "total": 85899345920}]}')
    probe = rk.parse_probe("Welcome to the lab!\n" + line + "\n")
    assert probe.torch == "2.5.1+cu124"
    assert probe.gpu_summary == "2× NVIDIA H100 (120.0 GiB free)"
    with pytest.raises(rk.SshError):
        rk.parse_probe("bash: python3: command not found\n")


def test_remembered_hosts_keep_no_secrets_and_the_latest_first():
    a = rk.HostRecord(rk.SshTarget("gpu-box", python="/opt/conda/bin/python"), "1× A100")
    b = rk.HostRecord(rk.SshTarget("lab", user="me", port=2222, identity_file="~/.ssh/lab"))
    records = rk.remember_host(rk.remember_host([], a), b)
    again = rk.remember_host(records, rk.HostRecord(a.target, "2× A100", 5.0))
    assert [r.target.host for r in again] == ["gpu-box", "lab"]
    restored = rk.hosts_from_json(rk.hosts_to_json(again))
    assert restored == again and restored[0].last_gpu == "2× A100"
    assert "BEGIN" not in rk.hosts_to_json(again)  # a key path, never a key
    assert rk.hosts_from_json("not json") == [] and rk.hosts_from_json('[{"x": 1}]') == []
    assert rk.SshTarget.from_key(b.target.to_key()) == b.target


# --- the remote kernel --------------------------------------------------------------------

@pytest.mark.kernel
@pytest.mark.slow
def test_a_remote_kernel_runs_code_and_a_check_and_leaves_nothing_on_either_side(
        trusted, tmp_path):
    from test_console import TOY_SOLUTION, toy_question

    km, kc, log_path = _start(trusted)
    try:
        reply = kc.execute_interactive("import os; x = os.getpid()", timeout=30)
        assert reply["content"]["status"] == "ok"
        assert [p.pid for p in _remote_kernels(trusted)], "the kernel runs under sshd"
        runner = KernelCheckRunner(kc, km.interrupt_kernel)
        suite = ("from _examdesk_harness import check\n"
                 "@check('answers')\n"
                 "def answers(ctx):\n"
                 "    ctx.expect(ctx.get('answer')() == 42, 'answer() must return 42')\n")
        report = runner.run_suite(toy_question(tmp_path, suite), TOY_SOLUTION, define=True)
        assert report.passed and [c["name"] for c in report.checks] == ["answers"]
        # interrupt reaches the remote kernel through the supervisor
        msg_id = kc.execute("import time; time.sleep(60)")
        time.sleep(0.5)
        km.interrupt_kernel()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            msg = kc.get_shell_msg(timeout=20)
            if msg["parent_header"].get("msg_id") == msg_id:
                break
        assert msg["content"]["ename"] == "KeyboardInterrupt"
        # restart: a fresh remote kernel, same local sockets, the client keeps working
        old = {p.pid for p in _remote_kernels(trusted)}
        km.restart_kernel(now=True)
        kc.wait_for_ready(timeout=60)
        assert kc.execute_interactive("y = 1", timeout=30)["content"]["status"] == "ok"
        assert not old & {p.pid for p in _remote_kernels(trusted)}
    finally:
        _stop(trusted, km, kc, log_path)
    assert not list(kernels.runtime_dir().glob("ipc-*")), "local sockets removed"
    assert not list(Path("/tmp").glob("examdesk-kernel-*")), "remote folder removed"


@pytest.mark.kernel
@pytest.mark.slow
def test_a_killed_tunnel_is_a_lost_connection_and_reconnecting_keeps_the_kernel(trusted):
    km, kc, log_path = _start(trusted)
    try:
        assert kc.execute_interactive("kept = 41", timeout=30)["content"]["status"] == "ok"
        provisioner = km.provisioner
        provisioner.tunnel.kill()
        provisioner.tunnel.wait(5)
        assert provisioner.connection_lost and provisioner.kernel_survived
        assert km.is_alive()  # the kernel itself did not die
        assert provisioner.reopen_tunnel()
        assert not provisioner.connection_lost
        reply = kc.execute_interactive("print(kept + 1)", timeout=30)
        assert reply["content"]["status"] == "ok"
    finally:
        _stop(trusted, km, kc, log_path)


@pytest.mark.kernel
@pytest.mark.slow
def test_a_lost_ssh_session_stops_the_remote_kernel_with_it(trusted):
    """The network goes: the supervisor's ssh ends; the remote kernel must not live on."""
    km, kc, log_path = _start(trusted)
    try:
        assert _remote_kernels(trusted)
        km.provisioner.ssh_process.kill()
        assert wait_for(lambda: km.provisioner.connection_lost)
        assert not km.provisioner.kernel_survived
        assert wait_for(lambda: not _remote_kernels(trusted))
    finally:
        _stop(trusted, km, kc, log_path)


@pytest.mark.kernel
@pytest.mark.slow
def test_a_remote_kernel_killed_on_the_remote_is_a_death_not_a_lost_connection(trusted):
    km, kc, log_path = _start(trusted)
    try:
        reply = kc.execute_interactive(
            "import subprocess, sys\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'],"
            " start_new_session=True)", timeout=30)
        assert reply["content"]["status"] == "ok"
        [kernel] = _remote_kernels(trusted)
        kernel.send_signal(signal.SIGKILL)
        assert wait_for(lambda: not km.is_alive())
        assert km.provisioner.returncode == -signal.SIGKILL
        assert not km.provisioner.connection_lost
        # the child that left the kernel's process group went with it (subreaper)
        assert wait_for(lambda: not [p for p in trusted.sessions()
                                     if "time.sleep(300)" in " ".join(p.cmdline())])
    finally:
        _stop(trusted, km, kc, log_path)
