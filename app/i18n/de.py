"""German texts, keyed by the English template (filled in by the translation work)."""

MESSAGES: dict[str, str] = {}
