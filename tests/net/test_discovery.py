"""LAN discovery: the TXT format, its defences against strangers' records, and real zeroconf
traffic between peers (and a ``hedgerow tables`` process) over multicast on the loopback.

The network tests need IPv4 multicast on 127.0.0.1.  Linux usually delivers it even when
``lo`` lacks the MULTICAST flag; where it does not, they skip, naming the fix
(``ip link set lo multicast on``, as root).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hedgerow.core.errors import HedgerowError
from hedgerow.net import discovery, discoverysettings
from hedgerow.net.discovery import (
    SERVICE_TYPE,
    Announcer,
    BadTableAd,
    Browser,
    TableAd,
    browse,
    decode_txt,
    encode_txt,
    find_table,
)

LOOPBACK = "127.0.0.1"
WAIT = 10.0  # seconds: the most any single wait for the network may take


def make_ad(name: str = "Sunday garden", **changes: object) -> TableAd:
    fields: dict[str, object] = dict(
        name=name, game="petals", variants=("short", "wild"), free_seats=2, seats=4,
        protocol=1, host_key="rQ:9s{Hc&x%v7y=Wn1<b3p.E-Q]oLkZ^z>2aT!0#", host=LOOPBACK,
        port=47001,
    )
    fields.update(changes)
    return TableAd(**fields)  # type: ignore[arg-type]


def txt_bytes(ad: TableAd) -> dict[bytes, bytes | None]:
    """The TXT record of ``ad`` as zeroconf hands it to a browser."""
    return {k.encode(): v.encode() for k, v in encode_txt(ad).items()}


# --------------------------------------------------------------------------- TXT format


@pytest.mark.parametrize("ad", [
    make_ad(),
    make_ad("Ünïcødé 🌸 garden", variants=(), free_seats=0, seats=1, protocol=0),
    make_ad("x" * 63, host_key="ab" * 32, seats=7, free_seats=7, protocol=65535),
    make_ad(deck="sealed"),
    make_ad(deck="open", variants=()),
])
def test_txt_round_trip(ad: TableAd) -> None:
    txt = encode_txt(ad)
    keys = {"proto", "game", "variants", "free", "seats", "name", "key"}
    assert set(txt) == (keys | {"deck"} if ad.deck is not None else keys)
    assert txt["variants"] == ",".join(ad.variants)
    assert decode_txt(txt_bytes(ad), host=ad.host, port=ad.port) == ad


def test_the_deck_is_announced_and_a_record_that_does_not_say_is_still_listed() -> None:
    sealed = txt_bytes(make_ad(deck="sealed"))
    assert sealed[b"deck"] == b"sealed"
    assert decode_txt(sealed, host=LOOPBACK, port=47001).to_json()["deck"] == "sealed"
    for absent in (None, b""):  # an earlier host's record, or one with nothing in it
        props = txt_bytes(make_ad())
        props[b"deck"] = absent
        assert decode_txt(props, host=LOOPBACK, port=47001).deck is None
    # a later kind of deck is shown as it is announced
    props = {**sealed, b"deck": b"sealed-zk2"}
    assert decode_txt(props, host=LOOPBACK, port=47001).deck == "sealed-zk2"


def test_unknown_txt_keys_are_ignored_and_variants_may_be_absent() -> None:
    props = txt_bytes(make_ad(variants=()))
    del props[b"variants"]
    props[b"future"] = b"whatever"
    props[b"flag"] = None
    assert decode_txt(props, host=LOOPBACK, port=47001) == make_ad(variants=())


REQUIRED = ["proto", "game", "free", "seats", "name", "key"]


@pytest.mark.parametrize("key", REQUIRED)
def test_missing_or_valueless_keys_are_malformed(key: str) -> None:
    props = txt_bytes(make_ad())
    del props[key.encode()]
    with pytest.raises(BadTableAd, match="missing"):
        decode_txt(props, host=LOOPBACK, port=47001)
    props[key.encode()] = None
    with pytest.raises(BadTableAd, match="without a value"):
        decode_txt(props, host=LOOPBACK, port=47001)


@pytest.mark.parametrize(("key", "value"), [
    ("free", b"lots"), ("free", b"-1"), ("free", b"+1"), ("free", b" 1"), ("free", b"1.0"),
    ("free", "\u0663".encode()),  # ARABIC-INDIC DIGIT THREE: int() would accept it
    ("free", b"5"),  # more free seats than seats
    ("seats", b"0"), ("seats", b"256"), ("seats", b"99999999999999999999"),
    ("proto", b""), ("proto", b"0x1"), ("proto", b"65536"),
    ("name", b""), ("name", b"\xff\xfe"), ("name", b"x" * 64),
    ("name", b"\x1b[2Jgotcha"), ("name", "\u009b31m".encode()), ("name", "\u202egiF".encode()),
    ("game", b""), ("game", b"pet\x00als"),
    ("variants", b"short,,wild"), ("variants", b","),
    ("key", b""), ("key", b"has space"), ("key", "k\u00e9y".encode()),
    ("deck", b"SEALED"), ("deck", b"se aled"), ("deck", b"x" * 17), ("deck", b"\x1b[2J"),
    ("deck", b"-open"),
])
def test_malformed_values_are_refused(key: str, value: bytes) -> None:
    props = txt_bytes(make_ad())
    props[key.encode()] = value
    with pytest.raises(BadTableAd):
        decode_txt(props, host=LOOPBACK, port=47001)


_txt_keys = st.sampled_from([b"proto", b"game", b"variants", b"free", b"seats", b"name", b"key",
                             b"deck", b"other"]) | st.binary(max_size=8)
_txt_values = st.none() | st.binary(max_size=80) | st.sampled_from(
    [b"0", b"1", b"4", b"7", b"petals", b"a,b", b"Table", b"k" * 40, b"sealed", b"open"])


@given(st.dictionaries(_txt_keys, _txt_values, max_size=10), st.integers(1, 65535))
def test_any_txt_record_decodes_or_is_refused_cleanly(props: dict[bytes, bytes | None],
                                                      port: int) -> None:
    try:
        ad = decode_txt(props, host=LOOPBACK, port=port)
    except BadTableAd:
        return
    assert decode_txt(txt_bytes(ad), host=LOOPBACK, port=port) == ad


def test_table_ad_checks_its_fields_and_formats_its_address() -> None:
    assert make_ad().address == "127.0.0.1:47001"
    assert make_ad(host="fd00::2", port=5).address == "[fd00::2]:5"
    for bad in (dict(name=""), dict(free_seats=5), dict(seats=0), dict(port=0),
                dict(variants=["a"]), dict(variants=("a,b",)), dict(host_key="a b"),
                dict(protocol=True), dict(name="a\nb")):
        with pytest.raises(HedgerowError):
            make_ad(**bad)
    too_long = make_ad(variants=tuple(f"variant{i}" for i in range(40)))
    with pytest.raises(BadTableAd, match="longer than 255 bytes"):
        encode_txt(too_long)


def test_tables_sort_by_name_then_address() -> None:
    ads = [make_ad("beta", port=2), make_ad("Alpha", port=9), make_ad("beta", port=1),
           make_ad("alpha", port=3)]
    ordered = sorted(ads, key=TableAd.sort_key)
    assert [(a.name, a.port) for a in ordered] == [("Alpha", 9), ("alpha", 3), ("beta", 1),
                                                   ("beta", 2)]


def test_instance_labels_fit_one_dns_label_and_stay_distinct() -> None:
    long_names = ["ü" * 31 + "x", "ü" * 31 + "y"]  # 63 bytes each, equal for the first 62
    labels = [discovery._instance_label(make_ad(n)) for n in long_names]
    assert all(len(label.encode()) <= 55 for label in labels)
    assert labels[0] != labels[1]
    assert discovery._instance_label(make_ad(port=1)) != discovery._instance_label(make_ad())
    assert "." not in discovery._instance_label(make_ad("a.b.c"))


# --------------------------------------------------------------------------- settings


def test_interfaces_come_from_the_argument_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(discoverysettings.ENV_INTERFACES, raising=False)
    assert discoverysettings.resolve_interfaces() is None
    monkeypatch.setenv(discoverysettings.ENV_INTERFACES, "127.0.0.1, 192.0.2.7")
    assert discoverysettings.resolve_interfaces() == ["127.0.0.1", "192.0.2.7"]
    assert discoverysettings.resolve_interfaces(["10.0.0.1"]) == ["10.0.0.1"]
    monkeypatch.setenv(discoverysettings.ENV_INTERFACES, "eth0")
    with pytest.raises(HedgerowError, match="HEDGEROW_DISCOVERY_INTERFACES: 'eth0'"):
        discoverysettings.resolve_interfaces()


@pytest.mark.parametrize(("value", "off"), [("1", True), ("yes", True), ("TRUE", True),
                                            ("0", False), ("", False)])
def test_no_discovery_switch(monkeypatch: pytest.MonkeyPatch, value: str, off: bool) -> None:
    monkeypatch.setenv(discoverysettings.ENV_DISABLE, value)
    assert discoverysettings.discovery_disabled() is off


@pytest.mark.parametrize(("bind", "off"), [("0.0.0.0", "1"), ("127.0.0.1", "")])
def test_a_host_that_will_not_announce_never_imports_zeroconf(bind: str, off: str) -> None:
    """The settings are read before zeroconf is loaded: a host with discovery off, or on
    the loopback (``hedgerow play``'s table) where discovery is not confined to it, does
    not pay for the import."""
    import subprocess

    code = ("import asyncio, sys, types\n"
            "from hedgerow.net import launch\n"
            f"peer = types.SimpleNamespace(endpoint='tcp://{bind}:5999')\n"
            f"asyncio.run(launch._announce(peer, 'quiet table', '{bind}'))\n"
            "print('zeroconf' in sys.modules)\n")
    env = {**os.environ, discoverysettings.ENV_DISABLE: off}
    env.pop(discoverysettings.ENV_INTERFACES, None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"


def test_with_discovery_off_nothing_is_sent_or_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(discoverysettings.ENV_DISABLE, "1")

    async def scenario() -> None:
        async with Announcer() as announcer:
            assert await announcer.start(make_ad()) is False
            assert not announcer.announcing and announcer.ad == make_ad()
            await announcer.update(make_ad(free_seats=1))
            async with Browser() as browser:
                assert browser.tables() == []
            assert await browse(0.01) == []
            with pytest.raises(HedgerowError, match="HOST:PORT"):
                await find_table("Sunday garden")
            with pytest.raises(HedgerowError, match="timeout"):
                await browse(0)

    asyncio.run(asyncio.wait_for(scenario(), WAIT))


# --------------------------------------------------------------------------- on the network


def _loopback_multicast_problem() -> str | None:
    """Why IPv4 multicast on 127.0.0.1 does not work here, or None if it does."""
    group = "224.0.0.251"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as rx, \
                socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            rx.bind(("", 0))
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                          socket.inet_aton(group) + socket.inet_aton(LOOPBACK))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(LOOPBACK))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            tx.sendto(b"hedgerow-probe", (group, rx.getsockname()[1]))
            rx.settimeout(2.0)
            if rx.recv(64) != b"hedgerow-probe":
                return "a multicast probe on 127.0.0.1 came back garbled"
    except OSError as exc:
        return f"multicast on 127.0.0.1 failed ({exc})"
    return None


@pytest.fixture
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discovery restricted to 127.0.0.1; skips when loopback multicast is unavailable."""
    problem = _loopback_multicast_problem()
    if problem is not None:
        pytest.skip(f"{problem}; as root, `ip link set lo multicast on` enables it")
    monkeypatch.setenv(discoverysettings.ENV_INTERFACES, LOOPBACK)
    monkeypatch.delenv(discoverysettings.ENV_DISABLE, raising=False)


def unique(prefix: str) -> str:
    """A table name no concurrent test run on this machine uses."""
    return f"{prefix} {uuid.uuid4().hex[:8]}"


async def until(browser: Browser, condition: Callable[[list[TableAd]], bool]) -> None:
    """Wait (at most `WAIT` seconds) until ``condition(browser.tables())`` holds."""
    changed = asyncio.Event()
    unsubscribe = browser.on_change(lambda _tables: changed.set())
    try:
        async with asyncio.timeout(WAIT):
            while not condition(browser.tables()):
                changed.clear()
                await changed.wait()
    finally:
        unsubscribe()


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 4 * WAIT))


@pytest.mark.timeout(60)
def test_two_peers_discover_each_others_tables(loopback_only: None) -> None:
    from zeroconf.asyncio import AsyncZeroconf

    # The longest name allowed (63 bytes, most of them two-byte letters) must still fit the
    # DNS labels of the announcement.
    ad_a = make_ad(unique("Alice " + "ü" * 24), host="0.0.0.0", port=47101, host_key="a" * 40)
    assert len(ad_a.name.encode()) == 63
    ad_b = make_ad(unique("Bob"), port=47102, host_key="b" * 64, variants=())

    async def scenario() -> None:
        # Each peer shares one zeroconf instance between its announcer and its browser.
        zc_a, zc_b = AsyncZeroconf(interfaces=[LOOPBACK]), AsyncZeroconf(interfaces=[LOOPBACK])
        ann_a, ann_b = Announcer(zeroconf=zc_a), Announcer(zeroconf=zc_b)
        br_a, br_b = Browser(zeroconf=zc_a), Browser(zeroconf=zc_b)
        changes: list[list[TableAd]] = []
        br_a.on_change(changes.append)
        try:
            await br_a.start()
            await br_b.start()
            assert await asyncio.gather(ann_a.start(ad_a), ann_b.start(ad_b)) == [True, True]
            seen_by_a = await br_a.wait_for(lambda t: t.name == ad_b.name, WAIT)
            seen_by_b = await br_b.wait_for(lambda t: t.name == ad_a.name, WAIT)
            assert seen_by_a == ad_b
            # A wildcard host is announced as the address of the interface in use.
            assert seen_by_b == make_ad(ad_a.name, host=LOOPBACK, port=47101, host_key="a" * 40)
            assert changes and any(ad_b in tables for tables in changes)

            await ann_b.update(make_ad(ad_b.name, port=47102, host_key="b" * 64, variants=(),
                                       free_seats=1))
            updated = await br_a.wait_for(
                lambda t: t.name == ad_b.name and t.free_seats == 1, WAIT)
            assert updated is not None and updated.seats == 4

            await ann_b.close()
            await until(br_a, lambda tables: all(t.name != ad_b.name for t in tables))
            names = [t.name for t in br_a.tables()]
            assert ad_a.name in names and ad_b.name not in names
            assert br_a.tables() == sorted(br_a.tables(), key=TableAd.sort_key)
        finally:
            for closing in (ann_a, ann_b, br_a, br_b):
                await closing.close()
            await zc_a.async_close()
            await zc_b.async_close()

    run(scenario)


@pytest.mark.timeout(60)
def test_a_strangers_malformed_record_is_skipped_with_a_log_line(
        loopback_only: None, caplog: pytest.LogCaptureFixture) -> None:
    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

    good = make_ad(unique("Good"), port=47201)
    stranger = unique("Stranger").replace(" ", "-")

    async def scenario() -> None:
        logged = asyncio.Event()
        loop = asyncio.get_running_loop()

        class Watch(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                if stranger in record.getMessage():
                    loop.call_soon_threadsafe(logged.set)

        watch = Watch(level=logging.WARNING)
        logging.getLogger(discovery.__name__).addHandler(watch)
        zc = AsyncZeroconf(interfaces=[LOOPBACK])
        bad = AsyncServiceInfo(
            SERVICE_TYPE, f"{stranger}.{SERVICE_TYPE}", port=47202, server=f"{stranger}.local.",
            parsed_addresses=[LOOPBACK],
            properties={"proto": "1", "game": "petals", "free": "lots", "seats": "4",
                        "name": "\x1b[2J", "key": "k" * 40},
        )
        try:
            async with Browser() as browser, Announcer() as announcer:
                await asyncio.gather(zc.async_register_service(bad), announcer.start(good))
                assert await browser.wait_for(lambda t: t.name == good.name, WAIT) == good
                await asyncio.wait_for(logged.wait(), WAIT)
                assert all(t.port != 47202 for t in browser.tables())
        finally:
            logging.getLogger(discovery.__name__).removeHandler(watch)
            await zc.async_close()

    with caplog.at_level(logging.WARNING, logger=discovery.__name__):
        run(scenario)
    assert any("malformed" in r.getMessage() and stranger in r.getMessage()
               for r in caplog.records)


@pytest.mark.timeout(60)
def test_find_table_by_name_and_the_error_lists_the_names_seen(loopback_only: None) -> None:
    ad = make_ad(unique("Find Me"), port=47301)

    async def scenario() -> None:
        async with Announcer() as announcer:
            await announcer.start(ad)
            assert await find_table(ad.name, timeout=WAIT) == ad
            assert await find_table(ad.name.upper(), timeout=WAIT) == ad
            with pytest.raises(HedgerowError) as err:
                await find_table("no such table", timeout=2.0)
            assert "no such table" in err.value.message and repr(ad.name) in err.value.message
            assert "HOST:PORT" in err.value.message

    run(scenario)


@pytest.mark.timeout(60)
def test_hedgerow_tables_lists_a_table_announced_by_another_process(loopback_only: None) -> None:
    ad = make_ad(unique("CLI"), port=47401, variants=("short",), free_seats=3)
    env = {**os.environ, discoverysettings.ENV_INTERFACES: LOOPBACK}

    async def hedgerow_tables(*args: str) -> tuple[int, str, str]:
        # The event loop must keep running while the command listens: our announcer answers.
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "hedgerow.clients.cli", "tables", *args, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), 2 * WAIT)
        assert proc.returncode is not None
        return proc.returncode, out.decode(), err.decode()

    async def scenario() -> None:
        async with Announcer() as announcer:
            await announcer.start(ad)
            # 2 s lets the command ask twice: mDNS answers the same record at most once a
            # second, so a concurrent browser's question can delay the answer to ours.
            code, out, err = await hedgerow_tables("--json", "--timeout", "2")
            assert code == 0, err
            listed = [t for t in json.loads(out) if t["name"] == ad.name]
            assert listed == [{**ad.to_json(), "address": "127.0.0.1:47401",
                               "join_address": f"127.0.0.1:47401/{ad.host_key}"}]

    run(scenario)


def test_hedgerow_tables_prints_one_aligned_row_per_table(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from hedgerow.clients.cli import main

    seen: list[float] = []

    async def fake_browse(timeout: float = 2.0) -> list[TableAd]:
        seen.append(timeout)
        return sorted([make_ad("Zinnia", variants=(), free_seats=0, port=9, deck="open"),
                       make_ad("aster", host="fd00::2", deck="sealed"),
                       make_ad("Old host", port=8)], key=TableAd.sort_key)

    monkeypatch.setattr(discovery, "browse", fake_browse)
    assert main(["tables", "--timeout", "0.25"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert seen == [0.25]
    assert lines[0].split() == ["NAME", "GAME", "VARIANTS", "DECK", "SEATS", "ADDRESS"]
    key = make_ad().host_key
    assert lines[1].split() == ["aster", "petals", "short,wild", "sealed", "2/4", "free",
                                f"[fd00::2]:47001/{key}"]
    assert lines[2].split() == ["Old", "host", "petals", "short,wild", "?", "2/4", "free",
                                f"127.0.0.1:8/{key}"]
    assert lines[3].split() == ["Zinnia", "petals", "-", "open", "0/4", "free",
                                f"127.0.0.1:9/{key}"]
    assert len({line.rindex(line.split()[-1]) for line in lines}) == 1  # addresses aligned
    deck_at = lines[0].index("DECK")  # the decks aligned under their heading
    assert [line[deck_at:].split()[0] for line in lines[1:]] == ["sealed", "?", "open"]

    async def nothing(timeout: float = 2.0) -> list[TableAd]:
        return []

    monkeypatch.setattr(discovery, "browse", nothing)
    assert main(["tables"]) == 0
    assert "No open tables seen" in capsys.readouterr().out
    assert main(["tables", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_hedgerow_tables_refuses_a_bad_timeout_and_honours_the_off_switch() -> None:
    import subprocess

    def hedgerow(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", *args],
                              capture_output=True, text=True, env={**os.environ, **env},
                              timeout=60)

    bad = hedgerow("tables", "--timeout", "0")
    assert bad.returncode == 2 and "--timeout" in bad.stderr
    off = hedgerow("tables", "--json", **{discoverysettings.ENV_DISABLE: "1"})
    assert off.returncode == 0 and json.loads(off.stdout) == []
    assert "HEDGEROW_NO_DISCOVERY" in off.stderr


def test_a_browser_dials_the_address_on_its_own_network(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # A table announced with several addresses (another implementation, or records of a
    # host on two subnets that reached us over both): the one on a network this machine is
    # on is dialled, else the first that is not loopback.  (This machine's interfaces are
    # the operating system's to tell; here they are given.)
    from hedgerow.net import address

    mine = [address.LocalAddress("eth1", "10.77.1.3", 24)]
    monkeypatch.setattr(address, "lan_addresses", lambda family=socket.AF_INET: (
        mine if family == socket.AF_INET else []))
    assert discovery._reachable(["10.77.0.1", "10.77.1.1"]) == "10.77.1.1"
    assert discovery._reachable(["127.0.0.1", "192.168.5.5"]) == "192.168.5.5"
    assert discovery._reachable(["127.0.0.1"]) == "127.0.0.1"


@pytest.mark.timeout(90)
def test_a_hosted_table_announces_its_deck(loopback_only: None,
                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    """`hedgerow host` announces a sealed table as ``deck=sealed``, one opened with
    ``--open-deck`` (or a dictated seed) as ``deck=open``: every listing shows it."""
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net.keys import generate
    from hedgerow.net.launch import host_table

    monkeypatch.setenv("HEDGEROW_HOME", str(tmp_path))
    ruleset = PluginHost().ruleset("petals", (), 2)
    names = {unique("Sealed"): "sealed", unique("Open"): "open", unique("Seeded"): "open"}

    async def scenario() -> None:
        (sealed, opened, seeded) = names
        peers = [
            await host_table(ruleset, 2, name=sealed, identity=generate()),
            await host_table(ruleset, 2, name=opened, identity=generate(), open_deck=True),
            await host_table(ruleset, 2, name=seeded, identity=generate(), seed=5),
        ]
        try:
            assert [p.sealed for p in peers] == [True, False, False]
            async with Browser() as browser:
                await until(browser, lambda ts: set(names) <= {t.name for t in ts})
                assert {t.name: t.deck for t in browser.tables() if t.name in names} == names
        finally:
            for p in peers:
                await p.close()

    run(scenario)
