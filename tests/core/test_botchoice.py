"""Choosing a bot by name and parameters (``name[:params]``): one parser, clear errors."""

from __future__ import annotations

import pytest

from hedgerow.core.botchoice import parse, resolve, resolve_list, split_list
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.plugins.bots.ismcts import parse_params

HOST = PluginHost(autoload=False)


def test_parse_splits_name_and_parameters() -> None:
    assert parse("greedy") == ("greedy", "")
    assert parse(" ismcts:1s ") == ("ismcts", "1s")
    assert parse("ismcts:2000,c=1.0") == ("ismcts", "2000,c=1.0")


def test_resolve_carries_the_parameters_to_the_bot() -> None:
    spec = resolve(HOST, "ismcts:250ms", "petals")
    assert spec.name == "ismcts" and spec.params == "250ms" and spec.label == "ismcts:250ms"
    assert resolve(HOST, "greedy", "petals").params == ""
    assert [s.label for s in resolve_list(HOST, "ismcts:1s, greedy,random", "petals")] == [
        "ismcts:1s", "greedy", "random"]


def test_a_list_keeps_each_bots_own_comma_separated_parameters() -> None:
    assert split_list("ismcts:2000,c=1.0,rollout=4,greedy") == ["ismcts:2000,c=1.0,rollout=4",
                                                                 "greedy"]
    assert split_list("greedy, ismcts:1s, c=0.5 ,random") == ["greedy", "ismcts:1s,c=0.5",
                                                              "random"]
    assert split_list("greedy,,random") == ["greedy", "", "random"]
    assert split_list("c=1,greedy") == ["c=1", "greedy"]  # no bot to belong to
    assert [s.params for s in resolve_list(HOST, "ismcts:300,top=2,greedy", "petals")] == [
        "300,top=2", ""]
    with pytest.raises(HedgerowError, match="unknown bot 'c=1'"):
        resolve_list(HOST, "c=1,greedy", "petals")


def test_ismcts_budgets() -> None:
    assert parse_params("").seconds == 1.0 and parse_params("").iterations is None
    assert parse_params("1s").seconds == 1.0
    assert parse_params("250ms").seconds == 0.25
    assert parse_params("2000").iterations == 2000 and parse_params("2000").seconds is None
    both = parse_params("500,c=0.3,rollout=-1,samples=0,nodes=100")
    assert (both.iterations, both.c, both.rollout, both.samples, both.nodes) == (
        500, 0.3, -1, 0, 100)


@pytest.mark.parametrize(("text", "message"), [
    ("deep", "unknown bot 'deep' for petals (choose from: greedy, ismcts, random)"),
    ("", "a bot choice needs a name"),
    (":1s", "a bot choice needs a name"),
    ("ismcts:", "bot 'ismcts': nothing after ':'"),
    ("greedy:3", "bot 'greedy': takes no parameters (got '3')"),
    ("random:fast", "bot 'random': takes no parameters"),
    ("ismcts:fast", "bot 'ismcts': bad budget 'fast': write iterations (2000) or a time"),
    ("ismcts:0", "bad budget '0'"),
    ("ismcts:-5s", "bad budget '-5s': a time between 1ms and 3600s"),
    ("ismcts:1s,2000", "two budgets"),
    ("ismcts:c=fast", "c='fast' is not a number"),
    ("ismcts:rollout=-2", "rollout='-2' must be at least -1"),
    ("ismcts:depth=3", "unknown parameter 'depth'"),
    ("ismcts:1s,,c=1", "empty parameter"),
])
def test_bad_choices_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(HedgerowError) as caught:
        resolve(HOST, text, "petals")
    assert message in str(caught.value)
    assert caught.value.code in ("bad_bot", "unknown_bot")
    if "budget" in message:  # one short line: what the bot takes is in hedgerow games
        assert str(caught.value).endswith("(hedgerow games lists the parameters it takes)")
        assert len(str(caught.value)) < 160


def test_an_empty_list_is_refused() -> None:
    with pytest.raises(HedgerowError, match="--bots needs at least one bot name"):
        resolve_list(HOST, " , ", "petals")
