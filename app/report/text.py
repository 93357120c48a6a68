"""Words and numbers of the report in the reader's language.

Every sentence of the report is an English template translated through :mod:`app.i18n`
(German texts in ``app/i18n/locale/de/LC_MESSAGES/aisizer.po``); numbers are formatted for the
language.
Sentences the engine wrote come as :class:`app.i18n.Message` and are rendered with
``Message.text(lang)``. Units are converted here, at the edge: GB = 10^9 B, GiB = 2^30 B.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from app.i18n import Message, localise_number, plain_general, tr, translate

GB = 1e9
GIB = 2**30
KW = 1e3


def t(lang: str, template: str, *, msgctxt: str | None = None, **params: Any) -> str:
    """``template`` in ``lang`` (in the gettext context ``msgctxt``) with ``params`` filled in
    (numbers formatted for ``lang``)."""
    return tr(template, lang, msgctxt=msgctxt, **params)


def word(lang: str, text: str) -> str:
    """A single word or label from the catalog (format names, verdicts)."""
    return translate(text, lang)


def num(value: float | int | None, spec: str, lang: str, missing: str = "–") -> str:
    """``value`` formatted with ``spec`` (e.g. ``",.1f"``) and the language's separators."""
    if value is None:
        return missing
    return localise_number(plain_general(value, spec) or format(value, spec), lang)


def gb(value_bytes: float, lang: str, spec: str = ",.1f") -> str:
    return f"{num(value_bytes / GB, spec, lang)} GB"


def gib(value_bytes: float, lang: str, spec: str = ",.1f") -> str:
    return f"{num(value_bytes / GIB, spec, lang)} GiB"


MS_BELOW_S = 0.1  # a time under 0.1 s reads in ms


def time_unit(values_s) -> str:
    """The one unit for a column (or row) of times: 'ms' when every one is under 0.1 s."""
    shown = [v for v in values_s if v is not None and v == v]
    return "ms" if shown and max(shown) < MS_BELOW_S else "s"


def seconds(value_s: float, lang: str, unit: str | None = None) -> str:
    """A time in ms (under 0.1 s) or s; ``unit`` ('ms' or 's') fixes it for a whole column."""
    unit = unit or time_unit([value_s])
    if unit == "ms":
        return f"{num(value_s * 1e3, ',.1f', lang)} ms"
    if value_s < 0.01:
        return f"{num(value_s, ',.3f', lang)} s"
    if value_s < 10:
        return f"{num(value_s, ',.2f', lang)} s"
    return f"{num(value_s, ',.0f', lang)} s"


def seconds_band(value_s: float, low_s: float, high_s: float, lang: str,
                 unit: str | None = None) -> str:
    """'1.40 s (1.16–2.15 s)': the band in the unit of the expected value (or ``unit``)."""
    unit = unit or time_unit([value_s])
    if unit == "ms":
        spec, scale = ",.1f", 1e3
    else:
        spec, scale = (",.3f" if value_s < 0.01 else ",.2f"), 1.0
    return (f"{num(value_s * scale, spec, lang)} {unit} ({num(low_s * scale, spec, lang)}–"
            f"{num(high_s * scale, spec, lang)} {unit})")


SI_PREFIXES = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
SI_UNITS = ("B", "B/s", "FLOP/s", "W")


def quantity(value, unit: str, lang: str) -> tuple[str, str]:
    """A value and its unit for a table: large bytes, rates and watts with an SI prefix."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value), unit
    if unit == "s" and 0 < abs(value) < 1:
        return (num(value * 1e6, ",.4g", lang), "µs") if abs(value) < 1e-3 else \
            (num(value * 1e3, ",.4g", lang), "ms")
    if unit in SI_UNITS and abs(value) >= 1e4:
        for factor, prefix in SI_PREFIXES:
            if abs(value) >= factor:
                return num(value / factor, ",.4g", lang), prefix + unit
    if isinstance(value, int) or float(value).is_integer():
        return num(value, ",.0f", lang), unit
    return num(value, ",.4g", lang), unit


def usd(value: float | None, lang: str) -> str:
    if value is None:
        return t(lang, "no price in the catalog")
    return f"USD {num(value, ',.0f', lang)}"


def yes_no(flag: bool, lang: str) -> str:
    return t(lang, "yes") if flag else t(lang, "no")


def met(flag: bool, lang: str) -> str:
    return t(lang, "met") if flag else t(lang, "missed")


def message(item: Message | None, fallback: str, lang: str) -> str:
    """An engine sentence in ``lang``, or its English text when it has no template."""
    return item.text(lang) if item is not None else fallback


def messages(items: list[Message], fallback: list[str], lang: str) -> list[str]:
    if items:
        return [item.text(lang) for item in items]
    return list(fallback)


def markup(text: str) -> str:
    """``text`` made safe for a reportlab Paragraph (which reads a little XML)."""
    return escape(str(text))


ENGINE_NAMES = {"vllm": "vLLM", "tensorrt-llm": "TensorRT-LLM", "sglang": "SGLang",
                "llama.cpp": "llama.cpp", "generic": "generic engine"}


def precision(text: str | None) -> str:
    """A number format as a reader sees it: 'int4-awq' -> 'INT4-AWQ'."""
    return str(text or "–").upper()


def engine(engine_id: str, lang: str) -> str:
    if engine_id == "generic":
        return t(lang, "generic engine")
    return ENGINE_NAMES.get(engine_id, engine_id)
