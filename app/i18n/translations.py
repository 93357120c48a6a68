"""The compiled gettext catalogs, loaded once per language with :mod:`gettext`.

Each language other than English has ``<lang>/LC_MESSAGES/aisizer.po`` under
:func:`app.paths.locale_dir`, compiled to ``aisizer.mo`` beside it when the program is set up
or built (``make setup``, ``pip install``, the PyInstaller bundle; README, "Translations").
A ``.mo`` that is missing or older than its ``.po`` never means English: where the ``.po``
is at hand (a checkout) it is compiled in memory and a :class:`StaleTranslations` warning
says so (the test suite turns it into an error); where neither is, loading the language
raises :class:`TranslationsMissing`.
"""

from __future__ import annotations

import gettext
import io
import warnings
from functools import cache
from pathlib import Path

from app import paths
from app.i18n import po


class TranslationsMissing(RuntimeError):
    """A language the program offers has no catalog: the installation is incomplete."""


class StaleTranslations(UserWarning):
    """The compiled catalog is missing or older than its ``.po``; the ``.po`` was used."""


def catalog_files(lang: str, locale_dir: Path | None = None) -> tuple[Path, Path]:
    """The ``.po`` and ``.mo`` of ``lang``."""
    folder = (locale_dir or paths.locale_dir()) / lang / "LC_MESSAGES"
    return folder / f"{po.DOMAIN}.po", folder / f"{po.DOMAIN}.mo"


def _read_mo(mo: Path) -> gettext.GNUTranslations | None:
    try:
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise TranslationsMissing(f"{mo} cannot be read ({exc}); compile it again with "
                                  "`make translations`") from None


def load(lang: str, locale_dir: Path | None = None) -> gettext.GNUTranslations:
    """The catalog of ``lang``: its ``.mo``, or its ``.po`` compiled in memory when the
    ``.mo`` is missing or stale (with a warning)."""
    source, compiled = catalog_files(lang, locale_dir)
    translations = _read_mo(compiled)
    if not source.is_file():
        if translations is None:
            raise TranslationsMissing(
                f"The translations for '{lang}' are missing: {compiled} was not found. The "
                "installation is incomplete; reinstall AI Sizer or rebuild the bundle.")
        return translations
    data = source.read_bytes()
    if translations is not None and \
            translations.info().get(po.SOURCE_HASH_FIELD.lower()) == po.source_hash(data):
        return translations
    state = "missing" if translations is None else "out of date"
    warnings.warn(StaleTranslations(
        f"{compiled} is {state}; using {source} compiled in memory. Compile it with "
        "`make translations` (or `python app/i18n/po.py compile`)."), stacklevel=3)
    try:
        mo = po.mo_bytes(po.parse(data.decode("utf-8"), str(source)), po.source_hash(data))
    except po.PoError as exc:
        raise TranslationsMissing(f"{source} cannot be read: {exc}") from None
    return gettext.GNUTranslations(io.BytesIO(mo))


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The loaded catalog of ``lang`` (English needs none: its texts are the msgids)."""
    if lang == "en":
        return gettext.NullTranslations()
    return load(lang)
