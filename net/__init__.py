"""Hedgerow's peers: the wire codec, the log file, table sync and discovery.

``hedgerow.net.codec`` turns envelopes and log records into bytes and back (the only user
of the generated protobuf code); ``hedgerow.net.logfile`` writes and reads the action log.
Importing this package imports nothing else, so it costs nothing when only the codec is used.
"""
