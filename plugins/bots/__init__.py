"""Generic bots: strategies that play any game through its `GameDef` alone."""
