"""The simulated LAN itself: hosts in their own namespaces find each other by real
multicast, reach only each other, and the fault proxy carries their connections."""

from __future__ import annotations

import json
import sys

import pytest
from e2e.helpers import PeerProcess, peer_env
from reliability.lan import Host, Lan, run_in

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


def _discovering(plugins: str = "toygames") -> dict[str, str]:
    env = peer_env(plugins=plugins)
    env.pop("HEDGEROW_NO_DISCOVERY")  # discovery on: that is the point
    return env


def _tables(host: Host, env: dict[str, str]) -> list[dict[str, object]]:
    """``hedgerow tables --json`` on ``host``."""
    listed = run_in(host, [sys.executable, "-m", "hedgerow.clients.cli", "tables", "--json",
                           "--timeout", "3"], env=env)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    return list(json.loads(listed.stdout))


def test_a_host_with_no_route_at_all_announces_its_own_address_and_is_joined_by_name() -> None:
    # Neither host has a default route nor a multicast route: the address comes from the
    # interface that has one (not 127.0.0.1), the table is announced on it, and the joiner,
    # routeless too, is reached at its own address.
    with Lan(2) as lan:
        for i in (0, 1):
            lan.drop_route(i, "default")
            lan.drop_route(i, "224.0.0.0/4")
        host = PeerProcess(["host", "posy", "--players", "2", "--table", "no route",
                            "--json", "--bot", "random"], _discovering(), lan[0].prefix())
        try:
            address = host.wait_event("open")["address"]
            assert address.startswith(f"{lan[0].address}:"), address
            joiner = PeerProcess(["join", "no route", "--json", "--bot", "random"],
                                 _discovering(), lan[1].prefix())
            results = [p.finish(timeout=60) for p in (host, joiner)]
            assert [code for code, _ in results] == [0, 0], [host.stderr, joiner.stderr]
            assert len({r["state_hash"] for _, r in results if r}) == 1
            for peer in (host, joiner):
                assert "loopback" not in peer.stderr, peer.stderr
        finally:
            host.stop()


def test_a_host_with_only_loopback_says_so() -> None:
    with Lan(1) as lan:
        run_in(lan[0], ["ip", "addr", "flush", "dev", "eth0"])
        host = PeerProcess(["host", "posy", "--players", "2", "--table", "alone", "--json",
                            "--bot", "random"], _discovering(), lan[0].prefix())
        try:
            address = host.wait_event("open")["address"]
            assert address.startswith("127.0.0.1:"), address
            host.stop()
            host.finish()
            assert ("this machine has no network address but loopback (is it connected to a "
                    "network?): only programs on this machine can reach it") in host.stderr
            assert ("table 'alone' is not announced on the LAN: this machine has no network "
                    "address but loopback") in host.stderr
        finally:
            host.stop()


def test_a_host_on_two_subnets_is_found_on_each_at_its_address_there() -> None:
    # Host 0 is on both subnets; host 1 only on the first, host 2 only on the second (no
    # router between them).  Each sees the table at host 0's address on its own subnet,
    # and the one on the second subnet joins it by name.
    with Lan(3, subnets=2, on=[(0, 1), (0,), (1,)]) as lan:
        host = PeerProcess(["host", "posy", "--players", "2", "--table", "two nets",
                            "--json", "--bot", "random", "-v"], _discovering(), lan[0].prefix())
        try:
            port = host.wait_event("open")["address"].split("/")[0].rsplit(":", 1)[1]
            # One announcement per interface, each with that interface's own address.
            # (logged once the announcement is on the air, which may come after "open")
            both = (f"({lan[0].addresses[0]}; {lan[0].addresses[1]})",
                    f"({lan[0].addresses[1]}; {lan[0].addresses[0]})")
            host.wait_stderr(lambda err: any(b in err for b in both))
            for i, expected in ((1, lan[0].addresses[0]), (2, lan[0].addresses[1])):
                seen = [t for t in _tables(lan[i], _discovering()) if t["name"] == "two nets"]
                assert [t["address"] for t in seen] == [f"{expected}:{port}"], (i, seen)
            joiner = PeerProcess(["join", "two nets", "--json", "--bot", "random"],
                                 _discovering(), lan[2].prefix())
            results = [p.finish(timeout=60) for p in (host, joiner)]
            assert [code for code, _ in results] == [0, 0], [host.stderr, joiner.stderr]
            assert len({r["state_hash"] for _, r in results if r}) == 1
        finally:
            host.stop()
