"""Hedgerow's .proto sources and the modules protoc generates from them (``hedgerow_pb2``).

Nothing here is written by hand besides this docstring: edit ``hedgerow.proto`` and run
``python scripts/gen_proto.py``.  Only ``hedgerow.net.codec`` imports the generated code.
"""
