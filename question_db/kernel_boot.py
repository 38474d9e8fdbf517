"""The app kernel's entry point: ``ipykernel_launcher`` with nothing bound to TCP (issue 28,
item 12).

With the ipc transport the kernel's five channels are socket files in the private runtime
folder, but ipykernel also binds a PULL socket on ``tcp://127.0.0.1:<random port>`` (its
IOPub "pipe", for the output of forked child processes) and prints every message it cannot
authenticate to the kernel's stderr: any local user could connect and fill the disk with
our kernel's log (82 MB in 9 s). Here that pipe is an ipc socket beside the channels
(``<ip>-0``, in the folder only we can enter) before ipykernel starts; on tcp (Windows), or
for an ipykernel without those two methods, nothing is changed.

Run by path (``python kernel_boot.py -f {connection_file}``): it removes its own folder from
``sys.path`` first, so the learner's ``import bank`` never finds examdesk's modules.
"""
import sys

if __name__ == "__main__":
    del sys.path[0]  # this file's folder (question_db/), put there by ``python kernel_boot.py``

import json  # noqa: E402 - after the sys.path fix on purpose
import os  # noqa: E402
import runpy  # noqa: E402

PIPE_SUFFIX = "-0"  # after the channels' "<ip>-1" … "<ip>-5"


def _connection_info(argv: list[str]) -> dict:
    try:
        with open(argv[argv.index("-f") + 1]) as fh:
            return json.load(fh)
    except (ValueError, IndexError, OSError):
        return {}


def private_pipe(endpoint: str) -> bool:
    """Make ipykernel's IOPub pipe bind and connect to ``endpoint`` instead of a random
    TCP port on 127.0.0.1 (``IOPubThread._setup_pipe_in``/``_setup_pipe_out`` of ipykernel
    6.25-7.4, with only the address changed). False: not patched."""
    try:
        import zmq
        from ipykernel import iostream
    except ImportError:
        return False
    thread = getattr(iostream, "IOPubThread", None)
    if not all(hasattr(thread, name) for name in ("_setup_pipe_in", "_setup_pipe_out",
                                                   "_handle_pipe_msg")):
        return False

    def _setup_pipe_in(self):
        self._pipe_uuid = os.urandom(16)  # authenticates the pipe's messages
        pipe_in = self.socket.context.socket(zmq.PULL)
        pipe_in.linger = 0
        try:
            pipe_in.bind(endpoint)
        except zmq.ZMQError as exc:
            print(f"examdesk: output of forked subprocesses is unavailable ({exc})",
                  file=sys.__stderr__)
            self._pipe_flag = False
            pipe_in.close()
            return
        self._pipe_in = iostream.ZMQStream(pipe_in, self.io_loop)
        self._pipe_in.on_recv(self._handle_pipe_msg)

    def _setup_pipe_out(self):
        ctx = zmq.Context()  # a new one: this runs in a forked child
        pipe_out = ctx.socket(zmq.PUSH)
        pipe_out.linger = 3000
        pipe_out.connect(endpoint)
        return ctx, pipe_out

    thread._setup_pipe_in = _setup_pipe_in
    thread._setup_pipe_out = _setup_pipe_out
    return True


def main() -> None:
    info = _connection_info(sys.argv)
    if info.get("transport") == "ipc" and info.get("ip"):
        private_pipe("ipc://" + info["ip"] + PIPE_SUFFIX)
    runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
