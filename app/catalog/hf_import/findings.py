"""What an import finds out along the way, and the error that stops it.

Every problem is a :class:`ModelImportError` whose message names the file, the field and
the value; reading a JSON file turns each failure into one such sentence.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from app import reading
from app.domain import safe_json
from app.domain.problems import composed, verbatim
from app.i18n import Message, msg


class ModelImportError(ValueError):
    """A model folder (or the user catalog) that cannot be used; the message says why.

    ``message`` keeps the sentence as a Message for the window's language; ``str()`` is the
    English sentence.
    """

    def __init__(self, message: str | Message):
        self.message = composed(message) if isinstance(message, Message) else verbatim(message)
        super().__init__(self.message.text())


@dataclasses.dataclass
class Findings:
    """What an import found out along the way (shared by the readers of every file)."""

    warnings: list[Message] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    derived: list[str] = dataclasses.field(default_factory=list)
    files_read: list[str] = dataclasses.field(default_factory=list)

    def warn(self, message: Message) -> None:
        """Add a warning (its string parameters are names and values, shown as given)."""
        self.warnings.append(composed(message))


MAX_JSON_BYTES = 64 * 2**20
"""The largest JSON file of a model folder read [B] (a config.json is a few KB, a
safetensors index a few MB)."""


def json_file(path: Path) -> Any:
    """The JSON in ``path``: a regular file of at most MAX_JSON_BYTES, nested within
    :data:`app.domain.safe_json.MAX_DEPTH`. Raises OSError or ValueError (not UTF-8, not
    JSON, beyond the bounds, not a regular file)."""
    data = reading.regular_file_bytes(path, MAX_JSON_BYTES, "a JSON file of a model folder")
    return safe_json.loads(data.decode("utf-8"))


def read_json_object(path: Path) -> dict:
    """A JSON file holding an object; every failure is one readable sentence."""
    try:
        data = json_file(path)
    except (reading.NotARegularFile, reading.TooLarge) as exc:
        raise ModelImportError(str(exc)) from None
    except safe_json.JsonLimitError as exc:
        raise ModelImportError(composed(msg("{file} in {folder} is refused: {reason}.",
                                            file=path.name, folder=str(path.parent),
                                            reason=exc.message))) from None
    except UnicodeDecodeError:
        raise ModelImportError(msg("{file} in {folder} is not UTF-8 text.", file=path.name,
                                   folder=str(path.parent))) from None
    except OSError as exc:
        raise cannot(False, path, exc) from None
    except json.JSONDecodeError as exc:
        raise ModelImportError(msg(
            "{file} in {folder} is not valid JSON: {error} at line {line} column {column}.",
            file=path.name, folder=str(path.parent), error=exc.msg, line=exc.lineno,
            column=exc.colno)) from None
    if not isinstance(data, dict):
        raise ModelImportError(msg("{file} in {folder} must hold a JSON object, not {kind}.",
                                   file=path.name, folder=str(path.parent),
                                   kind=type(data).__name__))
    return data


def cannot(writing: bool, path: Path, exc: OSError) -> ModelImportError:
    """Reading or writing ``path`` failed; the operating system's reason is given as it is."""
    reason = str(exc.strerror or exc)
    if writing:
        return ModelImportError(msg("cannot write {path}: {reason}.", path=str(path),
                                    reason=reason))
    return ModelImportError(msg("cannot read {path}: {reason}.", path=str(path), reason=reason))
