"""`shown`: a peer's text made safe to show a person (a log line, a terminal, a screen).

Whatever another peer sends is hostile until proven otherwise: names and addresses are
refused at decode when they hold control characters (`hedgerow.net.wirerules`), but free
text (an ``Error`` message, a ``Leave`` reason, anything echoed from a refused message)
is shown through `shown`, which escapes every control character (a raw ESC would drive
the terminal, a NUL or BEL would too) and cuts the text to a length a line can hold.
"""

from __future__ import annotations

import unicodedata

#: What a shown text is cut to, in characters, unless the caller says otherwise.
SHOWN_LENGTH = 200
_CONTROL = ("Cc", "Cf", "Zl", "Zp")
_KEEP = frozenset("\u200d")  # the zero-width joiner inside emoji sequences


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str, limit: int | None = SHOWN_LENGTH) -> str:
    """``text`` with control characters escaped (``\\x1b``, ``\\x00``, ``\\u202e``), cut to
    ``limit`` characters (None: whole) with a final ``…`` when cut."""
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    if text.isprintable():
        return text
    return "".join(_escape(c) if unicodedata.category(c) in _CONTROL and c not in _KEEP
                   else c for c in text)
