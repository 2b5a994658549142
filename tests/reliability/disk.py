"""A small disk for reliability tests: a tmpfs of a few hundred KiB that a test can fill.

`SmallDisk(size_kib)` mounts a fresh tmpfs (``mount -t tmpfs -o size=...``) on a temporary
folder; ``fill()`` writes a filler file until the disk refuses another byte (``ENOSPC``),
``free()`` removes it.  A peer given the disk (or a folder on it) as ``HEDGEROW_HOME`` sees a
real full disk: every write the kernel refuses, the way a full partition refuses it.
Mounting needs root; `disk_available` says whether this machine can, and the tests skip
with its reason when not.  `SmallDisk.close` (also on ``with`` exit and at interpreter exit)
unmounts it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def disk_available() -> str | None:
    """None when this machine can mount a small tmpfs; otherwise why not (a skip reason)."""
    if not sys.platform.startswith("linux"):
        return "tmpfs mounts are Linux only"
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root"
    if shutil.which("mount") is None or shutil.which("umount") is None:
        return "`mount` is not installed"
    try:
        with SmallDisk(64):
            pass
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"cannot mount a tmpfs: {exc}"
    return None


class SmallDisk:
    """A tmpfs of ``size_kib`` KiB mounted at ``path``; see the module docstring."""

    def __init__(self, size_kib: int) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="hedgerow-disk-"))
        self._mounted = False
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=0755", "tmpfs",
                        str(self.path)], check=True, capture_output=True, timeout=20)
        self._mounted = True
        atexit.register(self.close)
        self.filler = self.path / "filler"

    def __enter__(self) -> SmallDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def fill(self) -> None:
        """Write to the disk until it is full: the next write anywhere on it fails."""
        with open(self.filler, "ab", buffering=0) as f:
            for size in (64 * 1024, 1):  # then the last bytes of the last page
                try:
                    while f.write(bytes(size)):
                        pass
                except OSError:
                    pass

    def free(self) -> None:
        """Give the space back."""
        self.filler.unlink(missing_ok=True)

    def close(self) -> None:
        """Unmount and remove the mount point (idempotent)."""
        if self._mounted:
            subprocess.run(["umount", "-l", str(self.path)], check=False, capture_output=True,
                           timeout=20)
            self._mounted = False
        shutil.rmtree(self.path, ignore_errors=True)
