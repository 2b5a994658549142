"""Who joins a table, and whether its host name resolves (`hedgerow.clients.joining`)."""

from __future__ import annotations

import asyncio

import pytest

from hedgerow.clients.joining import check_resolves, choose_identity
from hedgerow.core.datadir import keys_dir
from hedgerow.core.errors import HedgerowError
from hedgerow.net.keys import generate, load_identity, player_key_path


def test_a_table_of_someone_else_is_joined_with_the_users_own_key() -> None:
    joiner = choose_identity(generate().public, seat_name="ann")
    assert joiner.key_file is None and joiner.seat_name == "ann" and joiner.note is None


def test_a_table_of_ones_own_key_is_joined_as_the_next_free_local_player() -> None:
    own = load_identity().public
    second = choose_identity(own, seat_name="ann")
    assert second.key_file == str(keys_dir() / "local" / "player-2.key_secret")
    assert second.seat_name == "ann (2)"
    assert second.note is not None and "hosted with your own identity" in second.note
    # Player 2's key is held by this process now (its lock): the next terminal gets player 3.
    third = choose_identity(own, seat_name="ann", name_given=True)
    assert third.key_file is not None and third.key_file.endswith("player-3.key_secret")
    assert third.seat_name == "ann"
    keys = {load_identity(k).public for k in (second.key_file, third.key_file)}
    assert len(keys) == 2 and own not in keys


def test_as_name_keeps_a_key_per_player_and_names_the_seat() -> None:
    joiner = choose_identity(generate().public, seat_name="someone", as_name="bob")
    assert joiner.key_file == str(player_key_path("bob")) and joiner.seat_name == "bob"
    again = choose_identity(generate().public, seat_name="someone", as_name="bob")
    assert load_identity(again.key_file).public == load_identity(joiner.key_file).public
    with pytest.raises(HedgerowError, match="hosted as 'bob'"):
        choose_identity(load_identity(joiner.key_file).public, seat_name="x", as_name="bob")


@pytest.mark.parametrize("name", ["../evil", "", "a b", "x" * 33, "-dash"])
def test_as_refuses_a_name_that_cannot_be_a_file_name(name: str) -> None:
    with pytest.raises(HedgerowError, match="--as takes a short name"):
        player_key_path(name)


def test_a_key_file_that_is_the_tables_own_key_is_refused() -> None:
    own = load_identity()
    assert own.path is not None
    with pytest.raises(HedgerowError, match="is the identity this table is hosted with"):
        choose_identity(own.public, seat_name="ann", key_file=str(own.path))


def test_a_host_name_that_does_not_resolve_is_said_at_once() -> None:
    with pytest.raises(HedgerowError, match=r"'nosuch\.invalid' did not resolve"):
        asyncio.run(check_resolves("nosuch.invalid"))
    asyncio.run(check_resolves("127.0.0.1"))
