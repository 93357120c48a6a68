"""Shared fixtures for the window's tests (offscreen, isolated settings)."""

import pytest

from app.catalog.loader import load_catalog
from app.ui.controller import Controller


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(include_user=False)


@pytest.fixture
def controller(qtbot, catalog, user_config_dir):
    """A controller with the worked example sized."""
    ctrl = Controller(catalog)
    ctrl.recompute()
    return ctrl
