"""JSON text read within bounds: nesting depth and the length of an integer.

The standard library's ``json.loads`` raises RecursionError on an array nested a thousand
levels deep, and ValueError (not JSONDecodeError) on an integer of more than 4,300 digits
(``sys.get_int_max_str_digits()``); a structure nested a few hundred levels deep loads, and
then makes pydantic or any recursive reader fail. Every file the program reads as JSON
(scenario, model config, safetensors header, bundle manifest, report attachment) goes
through :func:`loads`, which refuses all three with one sentence (:class:`JsonLimitError`).

No I/O here: the callers read the bytes (within their own size limits) and name the file.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from app.i18n import Message, msg

MAX_DEPTH = 64
"""Objects and lists inside each other [levels]; the deepest file the program writes (a
scenario with a model spec) nests 5 levels."""


class JsonLimitError(ValueError):
    """JSON text beyond the bounds; ``message`` says which, as a Message without the file."""

    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.text())


def too_deep() -> JsonLimitError:
    return JsonLimitError(msg(
        "it nests objects and lists more than {depth} levels deep, which no file of this "
        "program does", depth=MAX_DEPTH))


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, refusing nesting beyond ``max_depth`` and over-long integers.

    Raises json.JSONDecodeError for text that is not JSON (as ``json.loads`` does),
    JsonLimitError for JSON beyond the bounds, UnicodeDecodeError for bytes that are not
    UTF-8.
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise too_deep() from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string ..."
        if "digits" not in str(exc):
            raise
        raise JsonLimitError(msg(
            "it holds an integer of more than {digits:,} digits, more than any field allows",
            digits=sys.get_int_max_str_digits())) from None
    if depth(data, max_depth) > max_depth:
        raise too_deep()
    return data


def depth(data: Any, limit: int = MAX_DEPTH) -> int:
    """Levels of objects and lists in ``data`` (a scalar is 0), counted without recursion
    and only up to ``limit + 1``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        stack.extend((child, level) for child in children
                     if isinstance(child, (dict, list)))
    return deepest
