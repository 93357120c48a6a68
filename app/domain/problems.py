"""Problems with the user's input as Messages, so the window can show them in its language.

The command line and the JSON contract keep the English sentences (``Message.text()``); the
window renders the same Messages in German. Three pieces:

- :class:`Composed`: a Message whose string parameters are shown as given (field paths, ids,
  the value the user typed: never looked up in the catalog) and whose Message parameters are
  rendered in the same language (a purpose, what is wrong);
- :class:`Problem`: "field: what is wrong (got value)". The field is the JSON path
  (``workload.concurrent_users``) in every language: it is what the scenario file, the
  command line and the window's field lookup use, and the window shows the message right
  under the field's label anyway;
- :func:`detail`: what pydantic found wrong with one value, as a Message whose English equals
  pydantic's own text for the error types a user can trigger. A validator that refuses a value
  raises :class:`RuleError` with its Message.

No Qt and no I/O here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from app.i18n import Message, fill, msg


class Composed(Message):
    """A Message whose Message parameters are rendered in the same language (a list of
    Messages as one text, joined by "; ").

    String parameters are shown as they are (names, paths, values the user gave), unlike a
    plain Message, which translates a string parameter that happens to be a catalog key.
    """

    def text(self, lang: str = "en") -> str:
        return fill(self.template, lang, self.params, translate_strings=False)


def composed(message: Message) -> Message:
    """``message`` (made with ``msg``, which marks its template for translation) as Composed;
    a Composed or a Problem, which render their parts themselves, as it is."""
    if type(message) is not Message:
        return message
    return Composed(template=message.template, params=dict(message.params))


def verbatim(text: str) -> Message:
    """A sentence without a translation (an operating system's error text, a catalog's
    message), shown as it is in every language."""
    return Message(template=text.replace("{", "{{").replace("}", "}}"))


class Problem(Message):
    """One problem: the field (a JSON path; empty when it is about no one field), what is
    wrong, and the value given (``echo``; None when there was none)."""

    template: str = ""
    field: str = ""
    detail: Message
    echo: Message | None = None

    def text(self, lang: str = "en") -> str:
        detail = self.detail.text(lang)
        where = f"{self.field}: {detail}" if self.field else detail
        return f"{where} {self.echo.text(lang)}" if self.echo is not None else where

    def at_the_field(self, lang: str = "en") -> str:
        """The problem as the window shows it under its field: what is wrong and the value
        given, without the field path (the field's label stands right above it), and without
        the value when that is a whole group of fields (a JSON object or list no one field
        shows)."""
        detail = self.detail.text(lang)
        if self.echo is None or self.echoes_a_group:
            return detail
        return f"{detail} {self.echo.text(lang)}"

    @property
    def echoes_a_group(self) -> bool:
        """The value given is shown as a JSON object or list (:func:`problem`'s ``shown``)."""
        value = self.echo.params.get("value") if self.echo is not None else None
        return isinstance(value, str) and value.startswith(("{", "["))


def problem(field: str, detail: Message, given: Any = ..., shown: str | None = None) -> Problem:
    """A :class:`Problem`; ``given`` (when passed) is echoed as ``(got value)``, ``shown``
    being its text when the value is not a plain number (JSON or a quoted string)."""
    if given is ...:
        return Problem(field=field, detail=composed(detail))
    plain = shown is None or _plain_number(given) and shown == format(given, "")
    value = given if plain else shown  # a number is shown in the language's notation
    return Problem(field=field, detail=composed(detail),
                   echo=composed(msg("(got {value})", value=value)))


def _plain_number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, int):  # math.isfinite of an int beyond the float range overflows
        return abs(value) < 10**15
    return math.isfinite(value)


class RuleError(ValueError):
    """A validator's refusal kept as a Message; ``str()`` is its English sentence."""

    def __init__(self, message: Message):
        self.message = composed(message)
        super().__init__(self.message.text())


def either(alternatives: list[Message]) -> Message:
    """One Message for alternatives a value fits none of: "a or b or c"."""
    joined = alternatives[0]
    for alternative in alternatives[1:]:
        joined = composed(msg("{first} or {second}", first=joined, second=alternative))
    return joined


def bound(value: Any) -> Any:
    """A limit as pydantic writes it: a whole float as an integer (1e12 -> 1000000000000)."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return value


def _expected(ctx: dict) -> Message:
    """A literal's allowed values ("'none', 'n+1' or '2n'") with a translatable "or"."""
    expected = str(ctx.get("expected", ""))
    head, sep, last = expected.rpartition(" or ")
    if sep:
        return msg("Input should be {choices} or {last}", choices=head, last=last)
    return msg("Input should be {expected}", expected=expected)


def _length(ctx: dict, key: str) -> Message:
    n = ctx.get(key)
    if key == "min_length":
        return (msg("String should have at least {n} character", n=n) if n == 1
                else msg("String should have at least {n} characters", n=n))
    return (msg("String should have at most {n} character", n=n) if n == 1
            else msg("String should have at most {n} characters", n=n))


# pydantic error type -> what is wrong, from the error's context. The English texts are
# pydantic's own (pydantic-core 2), so the command line reads as before.
PYDANTIC_TYPES: dict[str, Callable[[dict], Message]] = {
    "missing": lambda c: msg("Field required"),
    "extra_forbidden": lambda c: msg("Extra inputs are not permitted"),
    "int_parsing": lambda c: msg(
        "Input should be a valid integer, unable to parse string as an integer"),
    "int_type": lambda c: msg("Input should be a valid integer"),
    "int_from_float": lambda c: msg(
        "Input should be a valid integer, got a number with a fractional part"),
    "float_parsing": lambda c: msg(
        "Input should be a valid number, unable to parse string as a number"),
    "float_type": lambda c: msg("Input should be a valid number"),
    "finite_number": lambda c: msg("Input should be a finite number"),
    "greater_than": lambda c: msg("Input should be greater than {gt}", gt=bound(c.get("gt"))),
    "greater_than_equal": lambda c: msg("Input should be greater than or equal to {ge}",
                                        ge=bound(c.get("ge"))),
    "less_than_equal": lambda c: msg("Input should be less than or equal to {le}",
                                     le=bound(c.get("le"))),
    "literal_error": _expected,
    "string_type": lambda c: msg("Input should be a valid string"),
    "string_too_short": lambda c: _length(c, "min_length"),
    "string_too_long": lambda c: _length(c, "max_length"),
    "bool_parsing": lambda c: msg("Input should be a valid boolean, unable to interpret input"),
    "bool_type": lambda c: msg("Input should be a valid boolean"),
    "dict_type": lambda c: msg("Input should be a valid dictionary"),
    "list_type": lambda c: msg("Input should be a valid list"),
    "model_type": lambda c: msg("Input should be a valid dictionary or instance of {name}",
                                name=c.get("class_name", "")),
}


def detail(item: dict) -> Message:
    """What is wrong with one value, from one item of ``ValidationError.errors()``.

    A :class:`RuleError` gives its own Message; an error type without a translation keeps
    pydantic's English text.
    """
    ctx = item.get("ctx") or {}
    error = ctx.get("error")
    if item["type"] == "value_error" and isinstance(error, RuleError):
        return error.message
    make = PYDANTIC_TYPES.get(item["type"])
    if make is not None:
        return composed(make(ctx))
    return verbatim(item["msg"].removeprefix("Value error, "))
