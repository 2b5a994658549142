"""Nothing of another seat's choice reaches a peer before every commitment is in.

Three real peers (CURVE sockets on 127.0.0.1, in one process) play Flourish, whose turns
are simultaneous steps: every seat plants one card and passes two, in secret.  Two seats
choose; the third holds back.  Until it commits, no peer — not the one holding back, nor
the two that chose — holds another seat's choice: no reveal in any peer's step round, the
table and every view still at the step's starting state, no entry of the step in any log.
Then the third seat chooses, every seat reveals, and the step is applied whole, the same on
every peer.  Played at a sealed table (the default) and an open one: at the sealed table an
entry names each hidden card by its token, the card its author chose.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hedgerow.core.game import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealed import Sealed, plain, token_of
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.logfile import read_log
from hedgerow.net.peer import Peer

WAIT = 20.0


async def flourish_table(players: int, *, open_deck: bool = False) -> list[Peer]:
    """A host and ``players - 1`` joiners at a Flourish table, seated."""
    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("flourish", (), players)
    host = await host_table(ruleset, players, identity=generate(), seat_name="host",
                            announce=False, open_deck=open_deck)
    peers = [host]
    for i in range(players - 1):
        peers.append(await join_table(host.address, identity=generate(),
                                      plugins=PluginHost(autoload=False),
                                      seat_name=f"joiner{i + 1}"))
    return peers


def same_choice(entry: Action, chosen: Action) -> bool:
    """``entry`` (as logged) is the action ``chosen`` (as its author's peer offered it): each
    sealed card the token of the card chosen, every other value the same."""
    if entry.kind != chosen.kind or [n for n, _ in entry.args] != [n for n, _ in chosen.args]:
        return False
    return all(token_of(c) == e if isinstance(e, Sealed) else e == plain(c)
               for (_, e), (_, c) in zip(entry.args, chosen.args, strict=True))


@pytest.mark.parametrize("open_deck", [False, True], ids=["sealed", "open"])
def test_no_choice_is_seen_before_every_seat_has_committed(open_deck: bool) -> None:
    async def main() -> None:
        peers = await flourish_table(3, open_deck=open_deck)
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready and p.active_seats(), WAIT)
            start = peers[0].index  # the step starts after the deal
            views: dict[int, Any] = {p.seat: p.view() for p in peers}
            late = next(p for p in peers if p.seat == 2)
            early = [p for p in peers if p is not late]
            chosen = {}
            for p in early:
                # (what a client is handed is plain; the table's own list remembers tokens)
                chosen[p.seat] = p.ctx.table.legal_actions(p.seat)[0]
                assert await p.submit(p.legal_actions()[0]) is None
            # every peer holds both commitments, the late one's included...
            for p in peers:
                assert await p.wait_until(
                    lambda p=p: p.sync.step is not None
                    and {0, 1} <= set(p.sync.step.commits), WAIT)
            await asyncio.sleep(0.5)  # ...and time for any reveal sent too early to arrive
            for p in peers:
                step = p.sync.step
                assert step is not None and not step.all_committed
                assert step.reveals == {}, (p.seat, step.reveals)  # nobody revealed
                assert p.index == start  # nothing of the step applied...
                assert p.view() == views[p.seat]  # ...nor shown
                log = read_log(p.log_path())
                assert len(log.entries) == start  # ...nor logged
            late_choice = late.ctx.table.legal_actions(late.seat)[0]
            assert await late.submit(late.legal_actions()[0]) is None
            for p in peers:
                assert await p.wait_until(lambda p=p: p.index >= start + 3, WAIT)
            chosen[2] = late_choice
            for p in peers:
                step_entries = p.entries()[start:start + 3]
                assert [e.seat for e in step_entries] == [0, 1, 2]
                for e in step_entries:
                    assert same_choice(e.action, chosen[e.seat]), (e.action, chosen[e.seat])
                assert any(isinstance(v, Sealed) for e in step_entries
                           for _, v in e.action.args) is not open_deck
            assert len({p.state_hash() for p in peers}) == 1
        finally:
            for p in peers:
                await p.close()

    asyncio.run(asyncio.wait_for(main(), WAIT * 3))
