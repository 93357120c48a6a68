"""Where the program's data lives: from source, installed, or frozen by PyInstaller.

Every file the program ships (catalogs, resources, translations) is reached through this
module, so the same code works from a git checkout, from an installed wheel and from a
PyInstaller bundle.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

from app import APP_NAME, ORG_NAME


def root() -> Path:
    """The folder that holds ``catalogs/`` and ``resources/``."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parent.parent


def catalogs_dir() -> Path:
    """The built-in catalogs (TOML files)."""
    return root() / "catalogs"


def resources_dir() -> Path:
    """Icons, fonts, translations, examples."""
    return root() / "resources"


def locale_dir() -> Path:
    """The translations: ``<lang>/LC_MESSAGES/aisizer.po`` and its compiled ``.mo``."""
    return root() / "app" / "i18n" / "locale"


def config_dir() -> Path:
    """The user's configuration folder; ``AISIZER_CONFIG_DIR`` overrides it (tests, kiosks)."""
    override = os.environ.get("AISIZER_CONFIG_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_NAME.replace(" ", ""), ORG_NAME.replace(" ", "")))


def user_catalog_dir() -> Path:
    """The user's catalog folder, overlaid on the built-in catalogs."""
    return config_dir() / "catalogs"
