"""Installed distributions' entry points and versions, found without importing
`importlib.metadata`.

Importing `importlib.metadata` (it brings in the ``email``, ``csv`` and ``zipfile``
packages) was about 17 ms of CPU, a sixth of ``hedgerow games`` (bench/README.md,
"Start-up"), and it parses each distribution's metadata with the e-mail parser to learn two
header lines.  This module reads what it would read, the way it
would, for the common layout: every `sys.path` entry a folder (or missing) holding
``*.dist-info`` / ``*.egg-info`` folders, and no finder on `sys.meta_path` but the
standard path finder that answers for distributions.  It answers the same as
`importlib.metadata` there:

* the distributions in `sys.path` order, within a folder grouped by normalized name in
  the folder's listing order (``importlib.metadata.distributions()``);
* a group's entry points as ``entry_points.txt`` declares them (the same parser: ``[group]``
  headers, ``name = value`` lines, ``#`` comments), loaded as `EntryPoint.load` does (a
  value that names no module raises a `ValueError` saying so, either way);
* a distribution's ``Name`` and ``Version``: the first such header of ``METADATA`` (or
  ``PKG-INFO``), as the e-mail parser returns them.

Anything else on the path (a zip file, an ``.egg``, a custom finder that answers
``find_distributions``) hands the whole question to `importlib.metadata`, so the answer
never depends on which way it was found.  (The ``importlib_metadata`` backport, once
something imports it, puts its own finder on `sys.meta_path` and deletes the standard
one's ``find_distributions``; such a process is answered by `importlib.metadata`.)
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import import_module
from importlib.machinery import PathFinder
from typing import Any

_INFO_SUFFIXES = (".dist-info", ".egg-info")
# `importlib.metadata.EntryPoint.pattern`: module, optional :attr.attr, optional [extras]
_ENTRY_POINT = re.compile(
    r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$"
)


@dataclass(frozen=True, slots=True)
class Found:
    """One entry point of the group asked for, and the distribution that declares it."""

    name: str
    value: str
    distribution: str
    version: str
    _load: Callable[[], Any]

    def load(self) -> Any:
        """Import the module the entry point names and return its object (or the module)."""
        return self._load()


def normalize(name: str) -> str:
    """A distribution name as `importlib.metadata` compares them (PEP 503, ``_`` for ``-``)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def entry_points(group: str) -> Iterator[Found]:
    """Every entry point in ``group``, distribution by distribution, in path order.

    Names are not made unique here: a name declared by two distributions comes twice (the
    caller keeps the first, as ``importlib.metadata.distributions()`` would order them).
    """
    folders = _plain_path()
    if folders is None:
        return _entry_points_slow(group)
    return read_entry_points(group, folders)


def version(distribution: str) -> str | None:
    """The ``Version`` of the first installed ``distribution`` on the path, or None."""
    folders = _plain_path()
    if folders is None:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as slow_version

        try:
            return slow_version(distribution)
        except PackageNotFoundError:
            return None
    return read_version(distribution, folders)


def read_entry_points(group: str, folders: Iterable[str]) -> Iterator[Found]:
    """`entry_points` read from the distribution folders in ``folders`` (in that order)."""
    for info in _infos(folders):
        text = _read(info, "entry_points.txt")
        if not text or group not in text:
            continue
        pairs = [(n, v) for g, n, v in _sections(text) if g == group]
        if not pairs:
            continue
        headers = _headers(info)
        dist, version = headers.get("name", ""), headers.get("version", "")
        for name, value in pairs:
            yield Found(name, value, dist, version, _loader(value))


def read_version(distribution: str, folders: Iterable[str]) -> str | None:
    """`version` read from the distribution folders in ``folders`` (in that order)."""
    wanted = normalize(distribution)
    for folder in folders:
        for info in _listing(folder).get(wanted, ()):
            return _headers(info).get("version", "")
    return None


# -- the common layout ----------------------------------------------------------------------


def _plain_path() -> list[str] | None:
    """The folders of `sys.path` when only the standard path finder answers for
    distributions and every entry is a folder or absent; None when `importlib.metadata`
    must answer."""
    if PathFinder not in sys.meta_path or not hasattr(PathFinder, "find_distributions"):
        return None  # the importlib_metadata backport deletes it and answers instead
    for finder in sys.meta_path:
        if finder is not PathFinder and hasattr(finder, "find_distributions"):
            return None
    return path_folders()


def path_folders() -> list[str] | None:
    """The folders of `sys.path` (``.`` for the empty entry; missing ones left out), or
    None when an entry is something else (a zip file, an ``.egg``)."""
    folders: list[str] = []
    for entry in sys.path:
        if not isinstance(entry, str):
            return None
        folder = entry or "."
        if os.path.basename(folder).lower().endswith(".egg"):
            return None
        if os.path.isdir(folder):
            folders.append(folder)
        elif os.path.exists(folder):  # a zip file: importlib.metadata reads inside it
            return None
    return folders


def _listing(folder: str) -> dict[str, list[str]]:
    """The ``*.dist-info`` / ``*.egg-info`` entries of ``folder`` by normalized name, in
    the folder's listing order (importlib.metadata's ``Lookup``)."""
    found: dict[str, list[str]] = {}
    try:
        children = os.listdir(folder)
    except OSError:
        return found
    for child in children:
        low = child.lower()
        if low.endswith(_INFO_SUFFIXES):
            name = normalize(low.rpartition(".")[0].partition("-")[0])
            found.setdefault(name, []).append(os.path.join(folder, child))
    return found


def _infos(folders: Iterable[str]) -> Iterator[str]:
    for folder in folders:
        for paths in _listing(folder).values():
            yield from paths


def _read(info: str, filename: str) -> str | None:
    try:
        with open(os.path.join(info, filename), encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _sections(text: str) -> Iterator[tuple[str, str, str]]:
    """(group, name, value) for each entry of an ``entry_points.txt``."""
    group: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
            continue
        if group is not None:
            name, _, value = line.partition("=")
            yield group, name.strip(), value.strip()


def _headers(info: str) -> dict[str, str]:
    """The first ``Name`` and ``Version`` headers of the distribution's metadata."""
    text = _read(info, "METADATA") or _read(info, "PKG-INFO") or ""
    found: dict[str, str] = {}
    key: str | None = None
    for line in text.splitlines():
        if line[:1] in (" ", "\t"):  # a folded header goes on
            if key is not None:
                found[key] += "\n" + line
            continue
        head, colon, value = line.partition(":")
        if not colon:  # the blank line after the headers (or a line that is none)
            break
        key = head.strip().lower()
        if key in ("name", "version") and key not in found:
            found[key] = value.lstrip(" \t")
        else:
            key = None
        if len(found) == 2 and key is None:
            break
    return found


def _loader(value: str) -> Callable[[], Any]:
    def load() -> Any:
        match = _ENTRY_POINT.match(value)
        if match is None:
            raise ValueError(f"malformed entry point {value!r} (want module or module:attr)")
        obj: Any = import_module(match.group("module"))
        for attr in filter(None, (match.group("attr") or "").split(".")):
            obj = getattr(obj, attr)
        return obj

    return load


# -- anything else: importlib.metadata --------------------------------------------------------


def _entry_points_slow(group: str) -> Iterator[Found]:
    from importlib.metadata import distributions

    for dist in distributions():
        for ep in dist.entry_points:
            if ep.group == group:
                yield Found(ep.name, ep.value, dist.metadata["name"] or "", dist.version or "",
                            _loader(ep.value))
