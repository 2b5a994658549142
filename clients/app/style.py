"""The seat client's colours.  Games colour their own drawing; these are the client's classes."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = Style.from_dict({
    "title": "bg:ansigreen fg:ansiblack",
    "title.fill": "bg:ansigreen",
    "title.turn": "bg:ansiyellow fg:ansiblack bold",
    "title.over": "bg:ansimagenta fg:ansiwhite bold",
    "title.halted": "bg:ansired fg:ansiwhite bold",
    "heading": "bold underline",
    "dim": "fg:ansibrightblack",
    "turn": "fg:ansiyellow bold",
    "link.you": "fg:ansicyan",
    "link.connected": "fg:ansigreen",
    "link.waiting": "fg:ansiyellow",
    "link.lost": "fg:ansired bold",
    "link.left": "fg:ansibrightblack",
    "link.bot": "fg:ansicyan",
    "log": "",
    "log.mine": "fg:ansicyan",
    "error": "fg:ansired bold",
    "message": "fg:ansiyellow bold",
    "prompt": "bold",
    "preview": "fg:ansigreen bold",
    "preview.mark": "fg:ansigreen bold",
    "menu": "",
    "menu.current": "reverse bold",
    # Targets in the game's drawing: what the step can select, the cursor, the free choice
    # (or a set being gathered), and what earlier steps chose.
    "target.option": "bg:#005f00",
    "target.cursor": "bg:ansiyellow fg:ansiblack bold",  # unmistakable, on a card or not
    "target.selected": "reverse bold",
    "target.chosen": "bg:#5f005f",
    "status": "bg:#303030 fg:#d0d0d0",
    "status.key": "bg:ansiwhite fg:ansiblack bold",
    "separator": "fg:ansibrightblack",
    "board.more": "bg:#303030 fg:ansiyellow bold",  # rows of the board out of sight
    "bar": "fg:ansicyan",
    "bar.best": "fg:ansiyellow",
    "bar.star": "fg:ansiyellow bold",
    "results.title": "bg:ansiyellow fg:ansiblack bold",
    "results.winner": "fg:ansiyellow bold",
    "results.out": "fg:ansired",
    "frame.border": "fg:ansigreen",
    "frame.label": "bold",
    "overlay": "bg:#202020",
})
