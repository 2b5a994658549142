"""A simulated LAN for reliability tests: hosts as Linux network namespaces on one bridge.

`Lan(hosts=n)` makes one *switch* namespace holding a bridge and ``n`` host namespaces, each
joined to the bridge by a veth pair and given the address ``10.77.0.<i+1>/24`` (host ``i``).
Each host namespace has its own loopback, a default route and a multicast route on its
``eth0``, so zeroconf discovery works across hosts by real multicast on the bridge, and a
peer can reach nothing but the other hosts of this LAN: the namespaces have no link to the
machine's own network.  Names carry the test process's id and a counter, so parallel test
workers each get their own LAN.

Several subnets: ``Lan(hosts=n, subnets=k, on=[...])`` makes ``k`` bridges, subnet ``j`` being
``10.77.<j>.0/24``; ``on[i]`` lists the subnets host ``i`` is on (default: subnet 0), each
through its own interface (``eth0``, ``eth1``... in that order), where its address is
``10.77.<j>.<i+1>``.  No router joins the subnets, and such a LAN gives its hosts no default
route (a default route on the link would make every address look on-link, and Linux
answers ARP for any of its addresses on any link, so a host would reach another subnet's
address of a two-subnet host through the wrong wire); the multicast route is on the first
interface.  ``drop_route(i, "default")`` takes a route away from a host.

Faults the kernel gives us:

* ``partition(i)`` / ``heal(i)``: host ``i``'s port on the bridge goes down / up (its TCP
  connections stall, then recover or time out, exactly as an unplugged cable);
* ``limit_rate(i, "1mbit")``: a token-bucket filter (``tc tbf``) on host ``i``'s link
  (``both=True``: each way).

This kernel has no ``netem``, so delay, jitter, stalls and connection cuts come from
`hedgerow_tests.reliability.faultproxy`: `Lan.proxy(i, ...)` starts it inside host ``i`` and
an nftables rule sends every TCP connection the host opens to another host through it,
transparently (the peer dials the real address; nothing in Hedgerow knows about the proxy).

Everything needs root, ``ip`` (iproute2), ``tc`` and ``nft`` (nftables); `lan_available`
says whether this machine has them, and the tests skip with its reason when not.
`Lan.close` (also on ``with`` exit and at interpreter exit) deletes every namespace it made.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

_COUNTER = itertools.count()
SUBNET = "10.77.0"
PROXY_PORT = 7777  # where the fault proxy listens inside a host namespace
PROXY_MARK = 0x77  # the proxy's own outgoing connections carry this mark (not redirected)


def _run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=check, timeout=20)


def lan_available() -> str | None:
    """None when this machine can build a `Lan`; otherwise why not (a skip reason)."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux only"
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "tc", "nft"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed (iproute2 / nftables)"
    name = f"hrprobe{os.getpid()}"
    made = _run("ip", "netns", "add", name, check=False)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    _run("ip", "netns", "del", name, check=False)
    return None


@dataclass
class Host:
    """One host of the LAN: a namespace with an address on each of its subnets."""

    index: int
    netns: str
    address: str  # on its first subnet
    port_on_switch: str  # the veth end of its first interface, on the bridge
    addresses: tuple[str, ...] = ()  # one per interface (eth0, eth1...)
    proxy: subprocess.Popen[bytes] | None = None
    control: Path | None = None  # the fault proxy's control socket

    def prefix(self) -> list[str]:
        """The command prefix that runs a program on this host."""
        return ["ip", "netns", "exec", self.netns]


@dataclass
class Lan:
    """``hosts`` namespaces on one bridge; see the module docstring."""

    hosts: int
    subnets: int = 1
    on: Sequence[Sequence[int]] | None = None  # the subnets of each host (default: [0])
    members: list[Host] = field(default_factory=list)
    switch: str = ""
    _closed: bool = False

    def __post_init__(self) -> None:
        tag = f"hr{os.getpid()}x{next(_COUNTER)}"
        self.switch = f"{tag}sw"
        self._tmp = Path(tempfile.mkdtemp(prefix="hedgerow-lan-"))
        atexit.register(self.close)
        try:
            self._build(tag)
        except BaseException:
            self.close()
            raise

    def _build(self, tag: str) -> None:
        _run("ip", "netns", "add", self.switch)
        for j in range(self.subnets):
            _run("ip", "-n", self.switch, "link", "add", f"br{j}", "type", "bridge")
            _run("ip", "-n", self.switch, "link", "set", f"br{j}", "up")
        on = [list(nets) for nets in self.on] if self.on is not None else \
            [[0] for _ in range(self.hosts)]
        for i in range(self.hosts):
            ns = f"{tag}h{i}"
            _run("ip", "netns", "add", ns)
            _run("ip", "-n", ns, "link", "set", "lo", "up")
            addresses = []
            for n, j in enumerate(on[i]):
                port, end, dev = f"p{i}s{j}", f"e{i}s{j}", f"eth{n}"
                # created in the switch namespace under private names, then one end moved
                _run("ip", "-n", self.switch, "link", "add", port, "type", "veth",
                     "peer", "name", end)
                _run("ip", "-n", self.switch, "link", "set", end, "netns", ns)
                _run("ip", "-n", ns, "link", "set", end, "name", dev)
                _run("ip", "-n", self.switch, "link", "set", port, "master", f"br{j}", "up")
                address = f"{SUBNET.rsplit('.', 1)[0]}.{j}.{i + 1}"
                _run("ip", "-n", ns, "addr", "add", f"{address}/24", "dev", dev)
                _run("ip", "-n", ns, "link", "set", dev, "up")
                addresses.append(address)
            if self.subnets == 1:
                _run("ip", "-n", ns, "route", "add", "default", "dev", "eth0")
            _run("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
            self.members.append(Host(i, ns, addresses[0], f"p{i}s{on[i][0]}",
                                     tuple(addresses)))

    def drop_route(self, index: int, prefix: str) -> None:
        """Take the route to ``prefix`` (``default``, ``224.0.0.0/4``) from host ``index``."""
        _run("ip", "-n", self.members[index].netns, "route", "del", prefix)

    def __enter__(self) -> Lan:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getitem__(self, index: int) -> Host:
        return self.members[index]

    # -- faults the kernel gives -------------------------------------------------------------

    def partition(self, index: int) -> None:
        """Unplug host ``index``: its port on the bridge goes down."""
        _run("ip", "-n", self.switch, "link", "set", self.members[index].port_on_switch, "down")

    def heal(self, index: int) -> None:
        """Plug host ``index`` back in."""
        _run("ip", "-n", self.switch, "link", "set", self.members[index].port_on_switch, "up")

    def limit_rate(self, index: int, rate: str = "1mbit", *, both: bool = False) -> None:
        """A token bucket on host ``index``'s outgoing link (``tc tbf``); with ``both``, on its
        incoming link too (the bridge's port towards it)."""
        shape = ("tbf", "rate", rate, "burst", "32kbit", "latency", "400ms")
        _run("ip", "netns", "exec", self.members[index].netns, "tc", "qdisc", "replace",
             "dev", "eth0", "root", *shape)
        if both:
            _run("ip", "netns", "exec", self.switch, "tc", "qdisc", "replace", "dev",
                 self.members[index].port_on_switch, "root", *shape)

    # -- the fault proxy ---------------------------------------------------------------------

    def proxy(self, index: int, *, delay_ms: float = 0.0, jitter_ms: float = 0.0,
              seed: int = 0) -> Host:
        """Start the fault proxy in host ``index`` and send the host's outgoing TCP to the
        other hosts through it (`faultproxy`); returns the host (its ``control`` socket)."""
        host = self.members[index]
        control = self._tmp / f"proxy{index}.sock"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent),
                                             env.get("PYTHONPATH", "")])
        host.proxy = subprocess.Popen(
            [*host.prefix(), sys.executable, "-m", "faultproxy", "--port", str(PROXY_PORT),
             "--mark", str(PROXY_MARK), "--control", str(control), "--delay", str(delay_ms),
             "--jitter", str(jitter_ms), "--seed", str(seed)],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert host.proxy.stdout is not None
        ready = host.proxy.stdout.readline()  # the proxy prints "ready" once it listens
        if b"ready" not in ready:
            raise RuntimeError(f"the fault proxy did not start: {host.proxy.stderr.read()!r}"
                               if host.proxy.stderr else "the fault proxy did not start")
        host.control = control
        rules = (
            "add table ip hedgerow_lan\n"
            "add chain ip hedgerow_lan out { type nat hook output priority -100; }\n"
            f"add rule ip hedgerow_lan out ip daddr {SUBNET}.0/24 meta l4proto tcp "
            f"meta mark != {PROXY_MARK} redirect to :{PROXY_PORT}\n"
        )
        subprocess.run([*host.prefix(), "nft", "-f", "-"], input=rules, text=True,
                       check=True, capture_output=True, timeout=20)
        return host

    def tell_proxy(self, index: int, command: str) -> str:
        """Send one command to host ``index``'s proxy (`faultproxy` lists them); its answer."""
        import socket

        host = self.members[index]
        if host.control is None:
            raise RuntimeError(f"host {index} runs no fault proxy")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(10)
            sock.connect(str(host.control))
            sock.sendall(command.encode() + b"\n")
            return sock.makefile().readline().strip()

    # -- clean-up ----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the proxies and delete every namespace (idempotent)."""
        if self._closed:
            return
        self._closed = True
        for host in self.members:
            if host.proxy is not None and host.proxy.poll() is None:
                host.proxy.kill()
                host.proxy.wait()
        for ns in [h.netns for h in self.members] + [self.switch]:
            _run("ip", "netns", "del", ns, check=False)
        shutil.rmtree(self._tmp, ignore_errors=True)


def run_in(host: Host, args: Sequence[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a command to completion on ``host``."""
    return subprocess.run([*host.prefix(), *args], capture_output=True, text=True,
                          check=False, timeout=60, **kwargs)  # type: ignore[call-overload]
