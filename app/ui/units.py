"""Numbers as users read them: GB and GiB both shown and labelled, localised separators.

Every value the window shows with a unit is formatted here, in the window's language
(:func:`app.ui.text.language`): German uses a decimal comma and a point between thousands,
and names units and currencies its own way ('Tokens/s', '1.234 USD').
"""

from __future__ import annotations

from PySide6.QtCore import QLocale

from app.i18n import localise_number
from app.ui.text import language, t

GB = 1e9
GIB = 2**30
TB = 1e12
LOCALES = {"en": (QLocale.Language.English, QLocale.Country.UnitedStates),
           "de": (QLocale.Language.German, QLocale.Country.Germany)}


def number(value: float, spec: str = ",.1f") -> str:
    """``value`` formatted with ``spec`` for the window's language."""
    return localise_number(format(value, spec), language())


def number_locale(lang: str) -> QLocale:
    """The Qt locale whose separators match :func:`number` in ``lang`` (spin boxes)."""
    return QLocale(*LOCALES.get(lang, LOCALES["en"]))


def gb(value_bytes: float, digits: int = 1) -> str:
    """'12.3 GB' (1e9 B)."""
    return f"{number(value_bytes / GB, f',.{digits}f')} GB"


def gb_gib(value_bytes: float, digits: int = 1) -> str:
    """'12.3 GB (11.5 GiB)': both units, both labelled."""
    return f"{gb(value_bytes, digits)} ({number(value_bytes / GIB, f',.{digits}f')} GiB)"


def tb(value_bytes: float, digits: int = 2) -> str:
    """'1.23 TB' (1e12 B)."""
    return f"{number(value_bytes / TB, f',.{digits}f')} TB"


def seconds(value: float) -> str:
    """'850 ms' below one second [s], else '1.25 s'."""
    if value < 1:
        return f"{number(value * 1e3, ',.0f')} ms"
    return f"{number(value, ',.2f')} s"


def rate(value: float, unit: str | None = None) -> str:
    """'12.3 tokens/s' ('12,3 Tokens/s'), whole from 100 up [tokens/s].

    ``unit``, already in the window's language, replaces 'tokens/s' ('' for none).
    """
    unit = t("tokens/s") if unit is None else unit
    return f"{number(value, ',.1f' if value < 100 else ',.0f')} {unit}"


def watts(value: float) -> str:
    """'1.5 kW' [W]."""
    return f"{number(value / 1e3, ',.1f')} kW"


def usd(value: float | None, spec: str = ",.0f") -> str:
    """'USD 1,234' ('1.234 USD' in German) [USD]; 'n/a' when there is no price."""
    return t("n/a") if value is None else t("USD {amount}", amount=number(value, spec))


# Units written as words (assumption units): translated; symbols (s, GB, kW) are not.
UNIT_NAMES = ("sequences", "tokens", "tokens/s", "tokens/parameter", "pages", "parameters",
              "links", "chunks", "chunks/GPU", "checkpoints", "nodes", "bits", "bits/weight",
              "B/param", "B/token", "days", "years", "USD/kW/month", "requests/min")


def unit_text(unit: str) -> str:
    """A unit in the window's language (a unit written as a word translated)."""
    return t(unit) if unit in UNIT_NAMES else unit
