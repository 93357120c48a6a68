"""Shared, session-scoped reports and identities (a report takes about a second to build).

Identities are kept in pytest's temporary folders, never in the configuration folder, so
that ``aisizer report`` in other tests does not find a configured identity and sign.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from report_helpers import PASSPHRASE, REPORT_DATE, OrgPki, Sized, make_org_pki, sized

from app.catalog import default_catalog
from app.report import identity
from app.report.export import build_report


@pytest.fixture(scope="session")
def worked() -> Sized:
    return sized("worked-example")


@pytest.fixture(scope="session")
def catalog():
    return default_catalog()


@pytest.fixture(scope="session")
def report_en(worked, catalog) -> bytes:
    return build_report(worked.scenario, worked.result, lang="en", catalog=catalog,
                        report_date=REPORT_DATE)


@pytest.fixture(scope="session")
def report_de(worked, catalog) -> bytes:
    return build_report(worked.scenario, worked.result, lang="de", catalog=catalog,
                        report_date=REPORT_DATE)


@pytest.fixture(scope="session")
def self_signed(tmp_path_factory) -> tuple[identity.Identity, Path]:
    """A self-signed identity created the way `aisizer identity create` does."""
    path = tmp_path_factory.mktemp("identity") / "identity.p12"
    made = identity.create("Jörg Müller", "Muster GmbH", "joerg@example.org", PASSPHRASE, path)
    return made, path


@pytest.fixture(scope="session")
def signed_report(worked, catalog, self_signed) -> bytes:
    return build_report(worked.scenario, worked.result, lang="en", catalog=catalog,
                        report_date=REPORT_DATE, identity=self_signed[0])


@pytest.fixture(scope="session")
def org_pki(tmp_path_factory) -> OrgPki:
    return make_org_pki(tmp_path_factory.mktemp("org-pki"))
