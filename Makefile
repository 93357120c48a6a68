# AI Sizer: set-up, run and test.
#
#   make run    set everything up, then open the desktop app with the built-in example
#   make test   set everything up, then ruff, import contracts and the test suite (headless,
#               one pytest-xdist worker per core), all but the tests marked `bundle`
#   make test-bundle  set everything up, install PyInstaller into .venv, then the tests marked
#               `bundle`: build the offline bundle from scratch and run its selftest offline
#   make package  set everything up, install PyInstaller into .venv, build the offline bundle
#                 (dist/aisizer/, dist/aisizer-<version>-<os>-<arch>.tar.gz and its .sha256)
#   make package-windows  build the Windows x86-64 folder on this machine (no Windows needed):
#                 dist/aisizer-<version>-windows-x86_64.zip and its .sha256 (README, "Windows")
#   make windows-wine     then run that folder's selftest under Wine 10 in a Debian 13 chroot
#                 (root, debootstrap, network to Debian's mirror; slow the first time)
#   make windows-lock     re-resolve packaging/windows-requirements.in into the hash-locked
#                 packaging/windows-requirements.txt the Windows build installs from
#
# Set-up is idempotent and quick when nothing changed:
#   1. system packages: python3-venv (only while .venv does not exist yet) and the libraries Qt
#      needs to run (checked with dpkg-query). Missing ones are installed with apt-get when
#      running as root; otherwise one message names them and the command stops.
#   2. .venv is created with `python3 -m venv` when it does not exist.
#   3. `pip install -e ".[test]"` runs when pyproject.toml is newer than .venv/.installed.
#   4. the translations (app/i18n/locale/<lang>/LC_MESSAGES/aisizer.po) are compiled to .mo
#      when a .po changed (app/i18n/po.py, standard library only; the .mo are not in git).
#
#   make translations  after changing texts in the code: extract the template, merge it into
#                      every .po (new texts empty, reworded ones fuzzy), compile (README,
#                      "Translations")
#
# Needs GNU make (Debian's `make`) and Python 3.11 or newer.

SHELL := /bin/sh
.SHELLFLAGS := -eu -c
.ONESHELL:
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Debian packages Qt needs to run (offscreen and on a desktop), see docs/ECOSYSTEM.md.
QT_RUNTIME_PKGS := libglib2.0-0 libgl1 libegl1 libfontconfig1 libfreetype6 libdbus-1-3 \
                   libxkbcommon0
# The same as shared libraries, checked with ldconfig where there is no dpkg.
QT_RUNTIME_LIBS := libglib-2.0.so.0 libGL.so.1 libEGL.so.1 libfontconfig.so.1 \
                   libfreetype.so.6 libdbus-1.so.3 libxkbcommon.so.0

# Tools the tests use besides Python: pdffonts and pdftoppm check the PDF report's fonts and
# render its pages; osslsigncode signs a Windows launcher, objdump reads its import table and
# makensis builds a small installer (tests/packaging). Only `make test` installs them
# (target-specific, inherited by set-up).
TEST_PKGS := poppler-utils osslsigncode binutils nsis
EXTRA_PKGS :=
test: EXTRA_PKGS := $(TEST_PKGS)
# A window on an X11 desktop needs Qt's xcb platform libraries (ECOSYSTEM.md).
RUN_PKGS := libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 \
            libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0
run: EXTRA_PKGS := $(RUN_PKGS)

# Extra arguments: `make run ARGS=my-scenario.json`, `make test PYTEST_ARGS="-x tests/engine"`.
ARGS ?=
PYTEST_ARGS ?=
# pytest-xdist worker processes for `make test`: one per core (`auto`); tests of one module stay
# in one worker (--dist loadscope), so a module's shared window or report is built once.
# `make test PYTEST_WORKERS=0` runs everything in this process (a debugger, -x stops at once).
PYTEST_WORKERS ?= auto

.PHONY: help run test lint setup system-deps mo translations clean distclean calibration \
        cross-validation \
        bench package package-tools package-windows windows-lock windows-wine test-bundle

help:
	@echo "make run     set up .venv and open the desktop app with the worked example (ARGS=scenario.json)"
	@echo "make calibration  cross-validated error per group, then predicted against measured per case"
	@echo "make cross-validation  rewrite resources/calibration/cross_validation.json (residuals per case)"
	@echo "make bench   engine speed benchmark"
	@echo "make test    set up .venv, then ruff, lint-imports and pytest (headless; all but the bundle build)"
	@echo "make test-bundle  install PyInstaller, build the offline bundle, run its selftest offline"
	@echo "make lint    ruff and lint-imports only"
	@echo "make translations  extract the texts, merge them into each .po, compile the .mo"
	@echo "make package  build the offline bundle: dist/aisizer/ and a .tar.gz with its .sha256"
	@echo "make package-windows  build the Windows zip here: dist/aisizer-<version>-windows-x86_64.zip"
	@echo "make windows-wine  run the Windows folder's selftest under Wine (Debian 13 chroot, root)"
	@echo "make windows-lock  refresh the hash-locked packaging/windows-requirements.txt"
	@echo "make clean   remove caches and build output; make distclean also removes .venv"

# The desktop app with the built-in worked example (ARGS=scenario.json opens a file instead).
# Without ARGS the built-in worked example opens, unsaved (without a file or --example the app
# offers its start page).
run: setup
	@exec $(BIN)/aisizer gui $(or $(ARGS),--example worked-example)

calibration: setup
	@$(BIN)/aisizer calibration

# The cross-validated residuals per case and regime the program ships (expected ranges are
# built from them); tests/validation/test_cross_validated_targets.py checks that the file is current.
cross-validation: setup
	@$(BIN)/aisizer calibration --write resources/calibration/cross_validation.json >/dev/null
	@echo "wrote resources/calibration/cross_validation.json"
	@$(BIN)/python tests/validation/plot_cross_validation.py

bench: setup
	@$(BIN)/python tests/benchmarks/bench_engine.py

# Runs all three checks even when one fails, so one run shows every problem; fails if any did.
# The tests marked `bundle` (the PyInstaller build, minutes) are left out: `make test-bundle`.
# A `-m` in PYTEST_ARGS replaces the marker expression.
test: setup
	@failed=""
	echo "==> ruff check app tests packaging"
	$(BIN)/ruff check app tests packaging || failed="$$failed ruff"
	echo "==> lint-imports"
	$(BIN)/lint-imports || failed="$$failed lint-imports"
	echo "==> pytest (QT_QPA_PLATFORM=offscreen, slow tests included, bundle build left out, -n $(PYTEST_WORKERS))"
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m "not bundle" \
	    -n $(PYTEST_WORKERS) --dist loadscope $(PYTEST_ARGS) \
	    || failed="$$failed pytest"
	if [ -n "$$failed" ]; then echo "make test: FAILED:$$failed" >&2; exit 1; fi
	echo "make test: all checks passed"

# The offline bundle built from scratch by PyInstaller into a temporary folder, its selftest
# run in a network namespace, its size, contents and start-up (tests/packaging/
# test_bundle_build.py, the tests marked `bundle`). Installs the build tools like `make package`.
test-bundle: package-tools
	@echo "==> pytest -m bundle (QT_QPA_PLATFORM=offscreen)"
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m bundle $(PYTEST_ARGS)

# The offline bundle (packaging/build.py; README, "Offline bundle"). PyInstaller is a build
# tool only: it is installed into .venv here. tzdata is the time zone database pyHanko needs
# where the system has none (Windows, minimal Linux images); the bundle must carry it.
# Extra arguments: `make package PACKAGE_ARGS=--measure` (selftest and start-up time too).
PACKAGE_REQS := pyinstaller>=6.10,<7 tzdata>=2024.1
PACKAGE_ARGS ?=

package: package-tools
	@$(BIN)/python packaging/build.py $(PACKAGE_ARGS)

package-tools: setup
	@if ! $(BIN)/python -c 'import PyInstaller, tzdata' >/dev/null 2>&1; then
	    echo "==> installing the build tools into $(VENV): $(PACKAGE_REQS)"
	    $(BIN)/python -m pip install --disable-pip-version-check $(foreach r,$(PACKAGE_REQS),'$(r)')
	fi

# The Windows folder and zip, assembled here from the embeddable CPython and win_amd64 wheels
# (packaging/build_windows.py; README, "Windows"). Downloads go to build/windows/downloads once.
# osslsigncode checks python.exe's Authenticode signature (and signs, when a certificate is
# configured: AISIZER_SIGN_PKCS12, AISIZER_SIGN_PASSWORD). Extra arguments:
# `make package-windows WINDOWS_ARGS=--installer` (NSIS installer too).
WINDOWS_ARGS ?=
package-windows: EXTRA_PKGS := osslsigncode
package-windows: setup
	@$(BIN)/python packaging/build_windows.py $(WINDOWS_ARGS)

windows-lock: setup
	@$(BIN)/python packaging/build_windows.py --lock

# The folder's selftest under Wine: needs root (debootstrap, chroot, unshare -n). The chroot
# (build/wine-trixie) is made once and reused.
windows-wine: package-windows
	@sh packaging/wine/run.sh build/windows/aisizer

lint: setup
	@$(BIN)/ruff check app tests packaging
	$(BIN)/lint-imports

setup: system-deps $(STAMP) mo

# The compiled translations: each .mo carries the SHA-256 of its .po, so this recompiles exactly
# the catalogs that changed (and fails, naming file and line, on a broken .po).
mo: system-deps
	@$(PYTHON) app/i18n/po.py compile

translations: setup
	@$(BIN)/python -m app.i18n.extract --update
	$(PYTHON) app/i18n/po.py compile

# Always runs (cheap); the targets below depend on it order-only, so it never forces a reinstall.
system-deps:
	@if ! command -v $(PYTHON) >/dev/null 2>&1; then
	    echo "AI Sizer needs Python 3.11 or newer, but '$(PYTHON)' was not found." >&2
	    echo "On Debian: apt-get install python3 python3-venv" >&2
	    exit 1
	fi
	if ! $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
	    echo "AI Sizer needs Python 3.11 or newer; '$(PYTHON)' is $$($(PYTHON) --version 2>&1)." >&2
	    echo "Run with a newer one: make $(MAKECMDGOALS) PYTHON=python3.12" >&2
	    exit 1
	fi
	missing=""
	if [ ! -f $(VENV)/pyvenv.cfg ] && ! $(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1; then
	    missing="python3-venv"
	fi
	if command -v dpkg-query >/dev/null 2>&1; then
	    for pkg in $(QT_RUNTIME_PKGS) $(EXTRA_PKGS); do
	        dpkg-query -W -f='$${Status}' "$$pkg" 2>/dev/null | grep -q 'install ok installed' \
	            || missing="$$missing $$pkg"
	    done
	else
	    ldconfig=$$(command -v ldconfig || echo /sbin/ldconfig)
	    if [ -x "$$ldconfig" ]; then
	        libs=$$("$$ldconfig" -p)
	        for lib in $(QT_RUNTIME_LIBS); do
	            case "$$libs" in
	                *"$$lib "*) ;;
	                *) echo "warning: $$lib not found; Qt may fail to start." >&2 ;;
	            esac
	        done
	    fi
	fi
	missing=$${missing# }
	[ -z "$$missing" ] && exit 0
	if [ "$$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	    echo "AI Sizer needs these Debian packages, which are not installed: $$missing" >&2
	    echo "Install them as root, then run this command again:" >&2
	    echo "    sudo apt-get update && sudo apt-get install -y $$missing" >&2
	    exit 1
	fi
	echo "==> installing system packages: $$missing"
	export DEBIAN_FRONTEND=noninteractive
	if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
	    apt-get update
	fi
	if ! apt-get install -y --no-install-recommends $$missing; then
	    apt-get update
	    apt-get install -y --no-install-recommends $$missing
	fi

$(VENV)/pyvenv.cfg: | system-deps
	@echo "==> creating $(VENV) with $$(command -v $(PYTHON)) ($$($(PYTHON) --version 2>&1))"
	if ! $(PYTHON) -m venv $(VENV); then
	    rm -rf $(VENV)
	    echo "Could not create $(VENV) with '$(PYTHON) -m venv'." >&2
	    exit 1
	fi

$(STAMP): pyproject.toml | $(VENV)/pyvenv.cfg
	@echo "==> installing AI Sizer and its test tools into $(VENV)"
	$(BIN)/python -m pip install --disable-pip-version-check -e ".[test]"
	touch $(STAMP)

clean:
	@rm -rf build dist *.egg-info .pytest_cache .ruff_cache .hypothesis .import_linter_cache \
	    docs/_build app/i18n/locale/*/LC_MESSAGES/*.mo app/i18n/locale/*.pot
	find app tests -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	@rm -rf $(VENV)
