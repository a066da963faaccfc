"""The 够级 rules engine: standard library only."""
