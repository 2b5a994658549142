"""Hedgerow's .proto sources and the modules protoc generates from them (``hedgerow_pb2``,
``board_pb2``).

Nothing here is written by hand besides this docstring: edit ``hedgerow.proto`` (tables) or
``board.proto`` (the shared leaderboard) and run ``python scripts/gen_proto.py``.  Only
``hedgerow.net.codec`` imports ``hedgerow_pb2``, and only ``hedgerow.net.boardwire``
``board_pb2``.
"""
