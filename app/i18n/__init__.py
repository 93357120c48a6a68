"""Translations shared by the engine's sentences, the command line, the window and the report.

Texts are keyed by their English template: the English of every text is its gettext msgid,
and each other language is a gettext catalog (``app/i18n/locale/<lang>/LC_MESSAGES/
aisizer.po``, compiled to ``.mo``, loaded by :mod:`app.i18n.translations`). A
:class:`Message` keeps a template and its parameters, so that a sentence the engine wrote can
be shown in any language later; :func:`plural` gives it both forms and the count
(``ngettext``), and ``msgctxt`` a context for a word that means different things in different
places (``pgettext``). Numbers are formatted for the language: German uses a decimal comma and
a point (or thin space) between thousands. No Qt here: the report and the command line use it
too. README, "Translations", says how to extract, translate and compile.
"""

from __future__ import annotations

import math
import re
import string
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.i18n.translations import catalog

LANGUAGES = {"en": "English", "de": "Deutsch"}
PERCENT_DE = "\u00a0%"  # a no-break space keeps the number and its % on one line


def translate(text: str, lang: str = "en", msgctxt: str | None = None) -> str:
    """``text`` in ``lang`` (the English text itself when there is no translation), in the
    gettext context ``msgctxt`` when given."""
    if lang == "en" or not text or lang not in LANGUAGES:
        return text  # gettext("") would be the catalog's header
    if msgctxt is None:
        return catalog(lang).gettext(text)
    return catalog(lang).pgettext(msgctxt, text)


def translate_plural(one: str, many: str, count: int, lang: str = "en",
                     msgctxt: str | None = None) -> str:
    """The form of ``one``/``many`` that ``lang`` uses for ``count`` (``ngettext``)."""
    if lang == "en" or lang not in LANGUAGES:
        return one if count == 1 else many
    if msgctxt is None:
        return catalog(lang).ngettext(one, many, count)
    return catalog(lang).npgettext(msgctxt, one, many, count)


def localise_number(formatted: str, lang: str) -> str:
    """Swap decimal and thousands separators of a formatted number for ``lang``."""
    if lang != "de":
        return formatted
    return formatted.replace(",", "\0").replace(".", ",").replace("\0", ".")


_EXPONENT = re.compile(r"\de[+-]\d")


def plain_general(value: Any, format_spec: str) -> str:
    """``value`` formatted by ``format_spec``, rewritten without an exponent if it had one.

    Prose never reads "1e+12 users": a large number is written out with thousands separators
    (1,000,000,000,000), a tiny one with the decimals its significant digits need. Returns ''
    when the plain format has no exponent (or ``value`` is not a finite float).
    """
    if not isinstance(value, float) or value != value or abs(value) == float("inf"):
        return ""
    text = format(value, format_spec)
    if not _EXPONENT.search(text):
        return ""
    if abs(value) >= 1:
        return format(value, ",.0f")
    spec = format_spec.rstrip("gGeE")
    digits = spec.split(".")[-1] if "." in spec else ""
    significant = int(digits) if digits.isdigit() and int(digits) > 0 else 6
    decimals = min(significant - 1 - math.floor(math.log10(abs(value))), 20)
    return format(value, f".{decimals}f").rstrip("0").rstrip(".")


def _english(template: str, params: dict[str, Any]) -> str | None:
    """``template`` filled by ``str.format`` (fast), or None when the formatter is needed: a
    Message parameter, or a number ``str.format`` wrote with an exponent."""
    if any(isinstance(v, Message) for v in params.values()):
        return None
    text = template.format(**params)
    if _EXPONENT.search(text) and any(isinstance(v, float) for v in params.values()):
        return None
    return text


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
        text = plain_general(value, format_spec) or super().format_field(value, format_spec)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.lang == "de" and format_spec.endswith("%"):
                text = text[:-1] + PERCENT_DE  # German writes a space before %: 12 %
            return localise_number(text, self.lang)
        if isinstance(value, str) and self.translate_strings:
            return translate(value, self.lang)
        return text


def fill(template: str, lang: str, params: dict[str, Any], translate_strings: bool = True,
         msgctxt: str | None = None) -> str:
    """``template`` translated into ``lang`` and filled in by the language's rules (see
    :class:`_Formatter`); :func:`tr` without its English shortcut."""
    return _Formatter(lang, translate_strings).format(translate(template, lang, msgctxt),
                                                      **params)


def tr(template: str, lang: str = "en", *, msgctxt: str | None = None, **params: Any) -> str:
    """Translate ``template`` (in the context ``msgctxt``) and fill in ``params`` with numbers
    formatted for ``lang``.

    String parameters are translated too when the catalog has them (units, format names).
    English needs neither (``str.format`` gives the same text, several times faster: a
    Step 3 search writes some three hundred reasons).
    """
    if lang == "en" and (text := _english(template, params)) is not None:
        return text
    return fill(template, lang, params, msgctxt=msgctxt)


class Message(BaseModel):
    """A sentence kept as template and parameters, rendered in any language.

    ``template`` is the English (the msgid; for a plural, the form English uses for the
    count). The gettext context and a plural's two forms and count are kept for rendering
    only: the JSON of a message is its template and parameters (CONTRACT.md).
    """

    model_config = ConfigDict(frozen=True)

    template: str
    params: dict[str, Any] = Field(default_factory=dict)
    msgctxt: str | None = Field(default=None, exclude=True)
    forms: tuple[str, str] | None = Field(default=None, exclude=True)  # msgid, msgid_plural
    count: int | None = Field(default=None, exclude=True)

    def translated(self, lang: str) -> str:
        """The template in ``lang``, not yet filled in."""
        if self.forms is not None:
            return translate_plural(*self.forms, self.count, lang, self.msgctxt)
        return translate(self.template, lang, self.msgctxt)

    def text(self, lang: str = "en") -> str:
        if lang == "en" and (text := _english(self.template, self.params)) is not None:
            return text
        return _Formatter(lang).format(self.translated(lang), **self.params)


def msg(template: str, msgctxt: str | None = None, **params: Any) -> Message:
    """Shorthand for a :class:`Message` (``msgctxt``: its gettext context)."""
    return Message(template=template, params=params, msgctxt=msgctxt)


def plural(count: float, one: Message, many: Message, **params: Any) -> Message:
    """``one`` when ``count`` is 1, else ``many``, with ``params`` added to its own.

    Both forms are written out at the call site as ``msg("literal")``, so that the extractor
    (app/i18n/extract.py) makes them one gettext plural entry and each language words its
    singular and its plural itself, as many forms as it has (``ngettext``):
    ``plural(n, msg("{n:,} replica"), msg("{n:,} replicas"), n=n)``. A float count is taken
    as shown without decimals (``{users:,.0f}``: 1.2 users read "1"). Either form may itself
    be a ``plural(...)`` when a sentence has two counts: the form chosen keeps its own entry.
    """
    shown = int(round(count))
    chosen = one if shown == 1 else many
    merged = {**chosen.params, **params}
    if one.forms is not None or many.forms is not None:  # two counts: the inner plural decides
        return chosen.model_copy(update={"params": merged})
    return Message(template=chosen.template, params=merged, msgctxt=one.msgctxt,
                   forms=(one.template, many.template), count=shown)
