"""Numbers as numbers: the base of every model a user's file fills (scenario, catalog entry,
measured point).

JSON has ``true`` and ``false``, and pydantic's lax mode takes them as the integers 1 and 0
(``"concurrent_users": true`` would size one user); it also takes ``NaN`` and ``Infinity``
(which ``json.loads`` reads) and an exponent beyond the float range (``1e999`` is inf) as
floats. :class:`Numbers` refuses both, naming the field: a number field takes a number, a
float field a finite one.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from app.domain.problems import RuleError
from app.i18n import msg


def _leaves(annotation: Any) -> set[Any]:
    """The plain types an annotation is made of (``int | None`` -> {int, NoneType};
    ``dict[str, float]`` -> its value type)."""
    origin = typing.get_origin(annotation)
    if origin is None:
        return {annotation}
    if origin is typing.Literal:
        return {type(value) for value in typing.get_args(annotation)}
    args = typing.get_args(annotation)
    if origin in (dict, typing.Dict):  # noqa: UP006 (the typing alias, as annotations give it)
        args = args[1:]
    if origin is typing.Annotated:
        args = args[:1]
    found: set[Any] = set()
    for arg in args:
        found |= _leaves(arg)
    return found


def wants_number(annotation: Any) -> bool:
    """The field takes numbers (int or float) and never a boolean."""
    leaves = _leaves(annotation)
    return bool(leaves & {int, float}) and bool not in leaves


def _holds_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, dict):
        return any(isinstance(item, bool) for item in value.values())
    if isinstance(value, list):
        return any(isinstance(item, bool) for item in value)
    return False


class Numbers(BaseModel):
    """Refuses ``true``/``false`` for a number and a non-finite float, in every field."""

    model_config = ConfigDict(allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _no_boolean_for_a_number(cls, value: Any, info: ValidationInfo) -> Any:
        if _holds_bool(value) and info.field_name is not None:
            field = cls.model_fields.get(info.field_name)
            if field is not None and wants_number(field.annotation):
                raise RuleError(msg("must be a number, not true or false"))
        return value

