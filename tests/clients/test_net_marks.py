"""Over the network, a seat whose choice for a simultaneous step is in (committed, not yet
revealed) is no longer marked as the one the table waits for (`net.seat.still_to_act`)."""

from __future__ import annotations

import asyncio

from appdriver import running, screen_text

from hedgerow.clients.app.render import players
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.seat import still_to_act


class _Seat:
    def __init__(self, active: tuple[int, ...], chosen: tuple[int, ...]) -> None:
        self._active = active
        self._chosen = chosen

    def active_seats(self) -> tuple[int, ...]:
        return self._active

    def chosen_seats(self) -> tuple[int, ...]:
        return self._chosen


def test_still_to_act_leaves_out_the_seats_whose_choice_is_in() -> None:
    assert still_to_act(_Seat((0, 1, 2), (1,))) == (0, 2)  # type: ignore[arg-type]
    assert still_to_act(_Seat((0, 1, 2), ())) == (0, 1, 2)  # type: ignore[arg-type]
    assert still_to_act(_Seat((1,), (1,))) == (1,)  # type: ignore[arg-type]  # a lone turn


def test_a_bot_peer_that_chose_in_a_flourish_step_loses_its_turn_mark() -> None:
    from hedgerow.clients.spawn import spawn_bot_peers, stop_processes
    from hedgerow.net.launch import host_table

    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("flourish", players=2)

    async def main() -> None:
        peer = await host_table(ruleset, 2, seat_name="Ann", seed=5, announce=False)
        procs = spawn_bot_peers(peer.address, ["random"], delay=0)
        try:
            async with running(peer, plugins) as d:
                s = d.state
                # Our turn in a simultaneous step that the bot has already chosen for.
                await d.until(lambda: s.my_turn and len(peer.active_seats()) == 2
                              and s.active == (0,), timeout=30,
                              what="the bot's choice to be in while ours is not")
                assert peer.sync.committed() == (1,)
                rows = screen_text(players(s, 32)).split("\n")[1:]
                marked = [r for r in rows if r.startswith("▶")]
                assert len(marked) == 1 and "Ann" in marked[0], rows
                d.press("q", "y")
                await asyncio.wait_for(d.task, 5)
        finally:
            await peer.close()
            stop_processes(procs)

    asyncio.run(main())
