"""Where the program's data lives: from source, installed, frozen by PyInstaller, or in the
Windows folder (the embeddable CPython with the app beside it, packaging/build_windows.py).

Every file the program ships (catalogs, resources, translations) is reached through this
module, so the same code works from a git checkout, from an installed wheel and from either
bundle. The user's own files (settings, user catalogs, crash logs, signing identity) live in
one configuration folder: ``~/.config/AISizer`` on Linux, ``%APPDATA%\\AISizer`` on Windows
(the roaming profile, so settings follow a user between the laptops of a domain),
``~/Library/Application Support/AISizer`` on macOS; ``AISIZER_CONFIG_DIR`` overrides it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

from app import APP_NAME


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
    """Icons, fonts, examples, calibration cases."""
    return root() / "resources"


def locale_dir() -> Path:
    """The translations: ``<lang>/LC_MESSAGES/aisizer.po`` and its compiled ``.mo``."""
    return root() / "app" / "i18n" / "locale"


def calibration_cases() -> Path:
    """The published measurements the method is calibrated against (JSON list of cases):
    the report's accuracy chapter, ``aisizer calibration`` and tests/validation read it."""
    return resources_dir() / "calibration" / "calibration_cases.json"


def calibration_case_files() -> list[Path]:
    """Every file of published measurements the calibration uses, in a fixed order: the
    first set (:func:`calibration_cases`), then ``calibration_cases_2.json`` and any later
    ``calibration_cases_*.json`` (same format, sources kept)."""
    folder = resources_dir() / "calibration"
    return [calibration_cases(), *sorted(folder.glob("calibration_cases_*.json"))]


def cross_validation_file() -> Path:
    """The cross-validated residuals per case and regime, precomputed by
    ``make cross-validation`` (``app.engine.cross_validation``)."""
    return resources_dir() / "calibration" / "cross_validation.json"


def installation() -> str:
    """How this copy runs: ``bundle`` (PyInstaller), ``windows folder`` (the embeddable
    Python, recognised by its ``._pth`` file) or ``source`` (a checkout or an installed
    package)."""
    if getattr(sys, "frozen", False):
        return "bundle"
    if any(Path(sys.executable).parent.glob("python3*._pth")):
        return "windows folder"
    return "source"


CONFIG_FOLDER = APP_NAME.replace(" ", "")  # "AISizer"


def config_dir() -> Path:
    """The user's configuration folder; ``AISIZER_CONFIG_DIR`` overrides it (tests, kiosks).

    No author level (``%APPDATA%\\AISizer``, not ``AISizer\\AISizer``; Linux and macOS have
    none anyway) and the roaming profile on Windows.
    """
    override = os.environ.get("AISIZER_CONFIG_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(CONFIG_FOLDER, appauthor=False, roaming=True))


def user_catalog_dir() -> Path:
    """The user's catalog folder, overlaid on the built-in catalogs."""
    return config_dir() / "catalogs"
