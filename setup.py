"""Build hook: every wheel carries the compiled translations (README, "Translations").

Everything else is declared in pyproject.toml. The ``.mo`` files are not in git: ``build_py``
compiles each ``app/i18n/locale/<lang>/LC_MESSAGES/aisizer.po`` into the build (for an
editable install, beside the ``.po``) with ``app/i18n/po.py``, which needs only the standard
library: it is imported from its own folder, before the program's dependencies are installed.
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
LOCALE = Path("app") / "i18n" / "locale"


class BuildPyWithTranslations(build_py):
    def run(self):
        super().run()
        sys.path.insert(0, str(ROOT / LOCALE.parent))  # app/i18n: po.py alone, not app
        import po as tools

        if getattr(self, "editable_mode", False):
            written = tools.compile_all(ROOT / LOCALE)
        else:
            written = tools.compile_all(ROOT / LOCALE, Path(self.build_lib) / LOCALE, force=True)
        for path in written:
            print(f"compiled {path}")


setup(cmdclass={"build_py": BuildPyWithTranslations})
