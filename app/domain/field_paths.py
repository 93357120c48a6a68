"""Dotted field paths of a scenario: ``workload.concurrent_users``.

A field has one name everywhere: in the scenario file, on the command line
(``--set workload.concurrent_users=64``), in a problem (``Problem.field``) and in the window,
whose fields edit the scenario by it. This module reads and writes a scenario dict by that
name and makes it from a validation error's location. No Qt and no I/O here.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

#: pydantic's tags for the member of a union an error is about (``int``, ``literal['max']``,
#: ``function-after[...]``): not part of the field's name.
TYPE_TAGS = {"int", "str", "float", "bool", "list", "dict", "ModelSpec", "none"}


class FieldPathError(ValueError):
    """A path that names no field: an empty part (``workload..users``), or a part that holds a
    value where the path needs a group of fields (``key``)."""

    def __init__(self, dotted: str, key: str | None = None):
        self.dotted, self.key = dotted, key
        what = f"'{key}' is not a group of fields" if key else "not a field path"
        super().__init__(f"{dotted}: {what}")


def parts(dotted: str) -> list[str]:
    """The keys of ``dotted``, outermost first (FieldPathError for an empty one)."""
    keys = dotted.split(".")
    if not all(keys):
        raise FieldPathError(dotted)
    return keys


def value_at(data: dict, dotted: str) -> Any:
    """The value at ``dotted`` in a scenario dict (None when absent)."""
    node: Any = data
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def set_value(data: dict, dotted: str, value: Any, *, none_removes: bool = False) -> dict:
    """Put ``value`` at ``dotted`` in ``data``, which is changed and returned.

    Groups on the way that are missing or None are created. ``none_removes``: a None value
    removes the field (the scenario's default applies again) instead of being stored.

    Raises
    ------
    FieldPathError
        When the path has an empty part, or a part on the way holds a value, not a group.
    """
    keys = parts(dotted)
    node = data
    for key in keys[:-1]:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):
            raise FieldPathError(dotted, key)
        node = child
    if value is None and none_removes:
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = value
    return data


def with_value(data: dict, dotted: str, value: Any) -> dict:
    """A copy of ``data`` with ``value`` at ``dotted``; None removes the field (an edit that
    clears a field goes back to its default)."""
    return set_value(copy.deepcopy(data), dotted, value, none_removes=True)


def path_of(location: Iterable[Any]) -> str:
    """The dotted path of a validation error's location, without pydantic's union tags
    (``("workload", "concurrent_users", "int")`` -> ``workload.concurrent_users``)."""
    keys = [str(part) for part in location]
    while keys and (keys[-1] in TYPE_TAGS or keys[-1].startswith(("literal[", "function-"))):
        keys.pop()
    return ".".join(key for key in keys if not key.startswith(("function-", "literal[")))


def covers(field: str, path: str) -> bool:
    """Whether a problem about ``field`` concerns the field at ``path``: the same field, a
    group that holds it (a rule across a group's fields), or a field inside it."""
    if not field:
        return False
    return field == path or path.startswith(f"{field}.") or field.startswith(f"{path}.")
