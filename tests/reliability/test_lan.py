"""The simulated LAN itself: hosts in their own namespaces find each other by real
multicast, reach only each other, and the fault proxy carries their connections."""

from __future__ import annotations

import sys

import pytest
from e2e.helpers import PeerProcess, peer_env
from reliability.lan import Lan, run_in

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("lan_ok")]


def test_a_table_is_found_by_multicast_across_hosts_and_played_through_the_proxy() -> None:
    with Lan(2) as lan:
        lan.proxy(0)
        lan.proxy(1)
        env0, env1 = peer_env(plugins="toygames"), peer_env(plugins="toygames")
        for env in (env0, env1):
            env.pop("HEDGEROW_NO_DISCOVERY")  # discovery on: that is the point
        host = PeerProcess(["host", "posy", "--players", "2", "--table", "lan test",
                            "--json", "--bot", "random"],
                           env0, lan[0].prefix())
        try:
            address = host.wait_event("open")["address"]
            assert address.startswith(f"{lan[0].address}:")  # the host's own LAN address
            listed = run_in(lan[1], [sys.executable, "-m", "hedgerow.clients.cli", "tables",
                                     "--timeout", "3"], env=env1)
            assert "lan test" in listed.stdout, listed.stdout + listed.stderr
            joiner = PeerProcess(["join", "lan test", "--json", "--bot", "random"],
                                 env1, lan[1].prefix())
            results = [p.finish(timeout=60) for p in (host, joiner)]
            assert [code for code, _ in results] == [0, 0]
            assert len({r["state_hash"] for _, r in results if r}) == 1
            stats = [lan.tell_proxy(i, "stats") for i in (0, 1)]
            assert all("bytes=0 " not in s for s in stats), stats  # both links went through
        finally:
            host.stop()


def test_a_host_reaches_nothing_but_the_lan() -> None:
    with Lan(1) as lan:
        gone = run_in(lan[0], [sys.executable, "-c", "import socket; s = socket.socket(); "
                               "s.settimeout(2); s.connect(('192.0.2.1', 9))"])
        assert gone.returncode != 0  # no route out of the namespace's bridge
