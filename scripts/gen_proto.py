#!/usr/bin/env python
"""Regenerate ``proto/*_pb2.py`` and ``proto/*_pb2.pyi`` from ``proto/*.proto``.

Usage: ``python scripts/gen_proto.py [--out DIR]`` (default: the ``proto/`` folder itself).

Each ``proto/NAME.proto`` is compiled as ``hedgerow/proto/NAME.proto`` so that the generated
code registers under that unique name in protobuf's descriptor pool and, should one .proto
ever import another (``import "hedgerow/proto/other.proto";``), the generated Python
imports ``from hedgerow.proto import other_pb2``, which is where the package lives.

The generated files are committed; ``tests/net/test_proto_fresh.py`` regenerates them into a
temporary folder and fails when they differ.  Use the grpcio-tools version pinned in
pyproject.toml: the protoc it bundles decides the protobuf runtime floor (the generated code
refuses to load on an older runtime).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PACKAGE_PATH = Path("hedgerow", "proto")


def generate(out_dir: Path, proto_dir: Path = PROTO_DIR) -> list[Path]:
    """Compile every ``*.proto`` in ``proto_dir`` into ``out_dir``; the files written."""
    sources = sorted(proto_dir.glob("*.proto"))
    if not sources:
        raise SystemExit(f"no .proto files in {proto_dir}")
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        src_root = Path(tmp, "src")
        gen_root = Path(tmp, "gen")
        (src_root / PACKAGE_PATH).mkdir(parents=True)
        gen_root.mkdir()
        for source in sources:
            shutil.copyfile(source, src_root / PACKAGE_PATH / source.name)
        command = [
            sys.executable, "-m", "grpc_tools.protoc",
            f"--proto_path={src_root}",
            f"--python_out={gen_root}",
            f"--pyi_out={gen_root}",
            *(str(PACKAGE_PATH / s.name) for s in sources),
        ]
        subprocess.run(command, check=True)
        out_dir.mkdir(parents=True, exist_ok=True)
        for produced in sorted((gen_root / PACKAGE_PATH).iterdir()):
            target = out_dir / produced.name
            shutil.copyfile(produced, target)
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROTO_DIR,
                        help="where to write the generated modules (default: proto/)")
    args = parser.parse_args(argv)
    for path in generate(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
