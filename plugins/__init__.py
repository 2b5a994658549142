"""Built-in plugins: the games, their variants and the bots that ship with Hedgerow.

Each is registered by the host from ``hedgerow.core.pluginhost.DEFAULT_PLUGINS`` through the same
hooks a third-party package uses; nothing here is special-cased.
"""
