"""Reading one result file: its bytes, its SHA-256, its JSON or CSV, and the problems.

Every problem is one sentence naming the file and, where it applies, the field
(:class:`FileProblem`); the importer collects them and refuses the whole import.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.i18n import Message, msg

MAX_BYTES = 256 * 2**20  # a detailed vLLM result with every generated text stays far below


class FileProblem(ValueError):
    """One file cannot be imported; ``message`` says why, naming the file and field."""

    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.text())


@dataclass(frozen=True)
class ResultFile:
    """A result file as read: name, SHA-256 and text."""

    path: Path
    sha256: str
    text: str

    @property
    def name(self) -> str:
        return self.path.name


def read_file(path: Path) -> ResultFile:
    """The file's text and hash (FileProblem when it cannot be read or is not text)."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise FileProblem(msg("'{file}' has {size:,} bytes, more than a result file of a "
                                  "load generator ({limit:,} at most)", file=path.name,
                                  size=size, limit=MAX_BYTES))
        data = path.read_bytes()
    except OSError as exc:
        raise FileProblem(msg("cannot read '{file}': {reason}", file=str(path),
                              reason=str(exc.strerror or exc))) from None
    if not data.strip():
        raise FileProblem(msg("'{file}' is empty", file=path.name))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileProblem(msg("'{file}' is not text (a result file is JSON, JSON Lines or "
                              "CSV)", file=path.name)) from None
    return ResultFile(path, hashlib.sha256(data).hexdigest(), text)


def cut_off(text: str, exc: json.JSONDecodeError) -> bool:
    """Whether a JSON text stops before it is complete (not merely wrong)."""
    end = text.rstrip()
    return exc.pos >= len(end) or not end.endswith(("}", "]"))


def _decode_error(file: ResultFile, text: str, exc: json.JSONDecodeError,
                  line_offset: int = 0) -> FileProblem:
    if cut_off(text, exc):
        return FileProblem(msg("'{file}' is cut off: its JSON ends at line {line:,} before it "
                               "is complete (was the benchmark interrupted, or the copy "
                               "incomplete?)", file=file.name, line=exc.lineno + line_offset))
    return FileProblem(msg("'{file}' is not valid JSON: {error} at line {line:,}, column "
                           "{column:,}", file=file.name, error=exc.msg,
                           line=exc.lineno + line_offset, column=exc.colno))


def json_documents(file: ResultFile) -> list[Any]:
    """The file as one JSON document, or as JSON Lines (one document per non-empty line).

    A file that is neither raises FileProblem; one whose last document stops short says it
    is cut off.
    """
    text = file.text
    try:
        return [json.loads(text)]
    except json.JSONDecodeError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines()) if line.strip()]
        if len(lines) < 2:
            raise _decode_error(file, text, whole) from None
        documents = []
        for number, line in lines:
            try:
                documents.append(json.loads(line))
            except json.JSONDecodeError as exc:
                last = number == lines[-1][0]
                if last and cut_off(line, exc):
                    raise FileProblem(msg("'{file}' is cut off: its last line ({line:,}) "
                                          "stops before the JSON is complete", file=file.name,
                                          line=number + 1)) from None
                if number == lines[0][0]:
                    raise _decode_error(file, text, whole) from None
                raise _decode_error(file, line, exc, number) from None
        return documents


def field(document: Any, path: str, file: ResultFile, tool: str) -> Any:
    """The value at the dotted ``path`` of ``document``; FileProblem names it when absent."""
    node = document
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node or node[key] is None:
            raise FileProblem(msg("'{file}' ({tool}) lacks the field '{field}'",
                                  file=file.name, tool=tool, field=path))
        node = node[key]
    return node


def optional(document: Any, path: str) -> Any:
    """The value at the dotted ``path``, or None."""
    node = document
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def number(value: Any, path: str, file: ResultFile, tool: str, positive: bool = True
           ) -> float:
    """``value`` as a finite number (FileProblem naming the field otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FileProblem(msg("'{file}' ({tool}): '{field}' is {value}, not a number",
                              file=file.name, tool=tool, field=path, value=repr(value)[:40]))
    if positive and value <= 0:
        raise FileProblem(msg("'{file}' ({tool}): '{field}' is {value}; it must be above 0 "
                              "(did every request fail?)", file=file.name, tool=tool,
                              field=path, value=repr(value)))
    return float(value)


def number_at(document: Any, path: str, file: ResultFile, tool: str,
              positive: bool = True) -> float:
    """The number at ``path`` (FileProblem when absent or not a number)."""
    return number(field(document, path, file, tool), path, file, tool, positive)


def rate_value(value: Any) -> float | None:
    """A request rate as the tools write it: a number, ``"inf"`` or Infinity (None)."""
    if isinstance(value, str) and value.strip().lower() in ("inf", "infinity"):
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value) if math.isfinite(value) and value > 0 else None
    return None
