"""Translations shared by the engine's sentences, the command line, the window and the report.

Texts are keyed by their English template (as gettext does); :class:`Message` keeps a template
and its parameters so that a sentence the engine wrote can be shown in any language later.
Numbers are formatted for the language: German uses a decimal comma and a point (or thin
space) between thousands. No Qt here: the report and the command line use it too.
"""

from __future__ import annotations

import string
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.i18n import de, de_report

LANGUAGES = {"en": "English", "de": "Deutsch"}
CATALOGS: dict[str, dict[str, str]] = {"en": {}, "de": {**de.MESSAGES, **de_report.MESSAGES}}
PERCENT_DE = "\u00a0%"  # a no-break space keeps the number and its % on one line


def translate(text: str, lang: str = "en") -> str:
    """``text`` in ``lang`` (the English text itself when there is no translation)."""
    return CATALOGS.get(lang, {}).get(text, text)


def localise_number(formatted: str, lang: str) -> str:
    """Swap decimal and thousands separators of a formatted number for ``lang``."""
    if lang != "de":
        return formatted
    return formatted.replace(",", "\0").replace(".", ",").replace("\0", ".")


class _Formatter(string.Formatter):
    """Numbers in the language's notation, Messages (or a list of them, joined by "; ")
    rendered in the language, strings translated when the catalog has them (unless
    ``translate_strings`` is off: names, paths and values a user gave stay as given)."""

    def __init__(self, lang: str, translate_strings: bool = True):
        super().__init__()
        self.lang, self.translate_strings = lang, translate_strings

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Message):
            return value.text(self.lang)
        if isinstance(value, list | tuple) and value and all(
                isinstance(item, Message) for item in value):
            return "; ".join(item.text(self.lang) for item in value)
        text = super().format_field(value, format_spec)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.lang == "de" and format_spec.endswith("%"):
                text = text[:-1] + PERCENT_DE  # German writes a space before %: 12 %
            return localise_number(text, self.lang)
        if isinstance(value, str) and self.translate_strings:
            return translate(value, self.lang)
        return text


def fill(template: str, lang: str, params: dict[str, Any], translate_strings: bool = True
         ) -> str:
    """``template`` translated into ``lang`` and filled in by the language's rules (see
    :class:`_Formatter`); :func:`tr` without its English shortcut."""
    return _Formatter(lang, translate_strings).format(translate(template, lang), **params)


def tr(template: str, lang: str = "en", **params: Any) -> str:
    """Translate ``template`` and fill in ``params`` with numbers formatted for ``lang``.

    String parameters are translated too when the catalog has them (units, format names).
    English needs neither (``str.format`` gives the same text, several times faster: a
    Step 3 search writes some three hundred reasons).
    """
    if lang == "en":
        return template.format(**params)
    return fill(template, lang, params)


class Message(BaseModel):
    """A sentence kept as template and parameters, rendered in any language."""

    model_config = ConfigDict(frozen=True)

    template: str
    params: dict[str, Any] = Field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        return tr(self.template, lang, **self.params)


def msg(template: str, **params: Any) -> Message:
    """Shorthand for a :class:`Message`."""
    return Message(template=template, params=params)


def plural(count: float, one: Message, many: Message, **params: Any) -> Message:
    """``one`` when ``count`` is 1, else ``many``, with ``params`` added to its own.

    Both forms are written out at the call site as ``msg("literal")``, so that the translation
    scan (tests/test_translations.py) finds both keys and each language words its singular and
    its plural itself: ``plural(n, msg("{n:,} replica"), msg("{n:,} replicas"), n=n)``. A
    float count is taken as shown without decimals (``{users:,.0f}``: 1.2 users read "1").
    Either form may itself be a ``plural(...)`` when a sentence has two counts.
    """
    chosen = one if round(count) == 1 else many
    return Message(template=chosen.template, params={**chosen.params, **params})
