"""Pydantic models only: scenarios, catalog entries and results. No Qt, no I/O."""
