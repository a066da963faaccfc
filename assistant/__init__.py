"""The assistant people see: the FastAPI dashboard, OBS overlay, records, speech, the CLI."""
