"""The window's language: every visible text goes through :func:`t`.

Texts are keyed by their English wording (``app.i18n``); the German catalog is
``app/i18n/locale/de/LC_MESSAGES/aisizer.po``. Qt's own dialogs (file dialogs, standard
buttons) use Qt's qtbase translations, installed by :func:`set_language`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.i18n import LANGUAGES, Message, tr

_state = {"lang": "en"}
_translators: list[QTranslator] = []  # kept alive: Qt does not own installed translators


def t(text: str, *, msgctxt: str | None = None, **params: Any) -> str:
    """``text`` in the window's language (in the gettext context ``msgctxt``, for a word that
    means different things in different places), with ``params`` filled in."""
    return tr(text, _state["lang"], msgctxt=msgctxt, **params)


def render(message: Message | None) -> str:
    """An engine message in the window's language."""
    return message.text(_state["lang"]) if message is not None else ""


def language() -> str:
    return _state["lang"]


def system_language() -> str:
    """The system locale's language when we have it, else English."""
    name = QLocale.system().name().split("_")[0]
    return name if name in LANGUAGES else "en"


def set_language(lang: str) -> None:
    """Switch every later :func:`t` and Qt's standard dialogs to ``lang``."""
    if lang not in LANGUAGES:
        raise ValueError(f"language '{lang}' is not available; choose one of {list(LANGUAGES)}")
    _state["lang"] = lang
    app = QCoreApplication.instance()
    if app is None:
        return
    for translator in _translators:
        app.removeTranslator(translator)
    _translators.clear()
    if lang != "en":
        translator = QTranslator()
        folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if translator.load(f"qtbase_{lang}", folder):
            app.installTranslator(translator)
            _translators.append(translator)
