"""Writing TOML: the data tomllib reads, as text (tomllib reads only).

Nested dicts become ``[a.b]`` tables, lists arrays and dicts inside lists inline tables.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    out = []
    for char in text:
        code = ord(char)
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:  # lone surrogate (undecodable file name)
            out.append("\ufffd")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_key(key: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise (``"llama-3.1-8b"``)."""
    return key if _BARE_KEY.match(key) else toml_string(key)


def _toml_float(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value)


def toml_value(value: Any) -> str:
    """One TOML value: string, bool, number, date/time, array or inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _toml_float(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"cannot write {type(value).__name__} {value!r} to TOML")


def _key_values(table: dict) -> list[str]:
    return [
        f"{toml_key(str(k))} = {toml_value(v)}" for k, v in table.items() if not isinstance(v, dict)
    ]


def _write_table(lines: list[str], path: list[str], table: dict) -> None:
    lines += ["", "[" + ".".join(toml_key(part) for part in path) + "]", *_key_values(table)]
    for key, value in table.items():
        if isinstance(value, dict):
            _write_table(lines, [*path, str(key)], value)


def dumps_toml(data: dict) -> str:
    """``data`` (as tomllib reads it) as TOML text; nested dicts become ``[a.b]`` tables."""
    lines = _key_values(data)
    for key, value in data.items():
        if isinstance(value, dict):
            _write_table(lines, [str(key)], value)
    return "\n".join(lines).lstrip("\n") + "\n"
