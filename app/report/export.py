"""Make a report: render, attach the scenario and result, sign, write atomically.

This is what ``aisizer report`` and File > Export report call. The report is made from the
scenario and the SizingResult alone; the UI's widgets are never read.

    from app.report.export import build_report, write_report
    pdf = build_report(scenario_dict, result, lang="de", paper="a4", identity=identity)
    write_report("report.pdf", pdf)
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

from cryptography.x509.oid import NameOID

from app.domain.catalog import Catalog
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.report import accuracy as accuracy_module
from app.report import attachments, document, signing
from app.report.accuracy import Accuracy
from app.report.context import Signer
from app.report.identity import Identity, write_atomically
from app.report.style import PAPER

LANGUAGES = ("en", "de")


def source_date() -> dt.datetime | None:
    """``SOURCE_DATE_EPOCH`` (reproducible builds; reportlab honours it too), if set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return dt.datetime.fromtimestamp(int(epoch), dt.UTC) if epoch.isdigit() else None


def default_date() -> dt.date:
    """Today, or the date of ``SOURCE_DATE_EPOCH`` when it is set."""
    fixed = source_date()
    return fixed.date() if fixed else dt.date.today()


def scenario_json(scenario: dict | Scenario) -> bytes:
    data: Any = (scenario.model_dump(mode="json") if isinstance(scenario, Scenario)
                 else scenario)
    return attachments.to_json(data)


def result_json(result: SizingResult) -> bytes:
    return attachments.to_json(result.model_dump(mode="json"))


def signer_of(identity: Identity, signing_time: dt.datetime) -> Signer:
    cert = identity.certificate
    if cert.issuer == cert.subject:
        issuer = "self-signed"
    else:
        issuer = issuer_name(cert) or cert.issuer.rfc4514_string()
    return Signer(identity.name, identity.organisation, identity.email, identity.fingerprint,
                  issuer, signing_time.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"))


def issuer_name(cert) -> str:
    values = cert.issuer.get_attributes_for_oid(NameOID.COMMON_NAME)
    organisation = cert.issuer.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)
    parts = [str(v[0].value) for v in (values, organisation) if v]
    return ", ".join(parts)


def build_report(scenario: dict | Scenario, result: SizingResult, *, lang: str = "en",
                 paper: str = "a4", identity: Identity | None = None,
                 accuracy: Accuracy | None = None, catalog: Catalog | None = None,
                 report_date: dt.date | None = None,
                 signing_time: dt.datetime | None = None,
                 compared: list | None = None) -> bytes:
    """The report PDF (signed when ``identity`` is given) as bytes.

    ``compared`` holds (name, SizingResult) pairs of options pinned for comparison.

    ``accuracy`` defaults to the calibration errors computed with ``catalog`` when the case
    file is at hand, else the figures recorded in docs/METHOD.md.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"--lang: '{lang}' is not available; choose one of "
                         f"{', '.join(LANGUAGES)}")
    if paper not in PAPER:
        raise ValueError(f"--paper: '{paper}' is not available; choose one of "
                         f"{', '.join(PAPER)}")
    accuracy = accuracy or accuracy_module.accuracy(catalog)
    report_date = report_date or default_date()
    date_text = report_date.isoformat()
    files = {attachments.SCENARIO: scenario_json(scenario),
             attachments.RESULT: result_json(result)}
    if identity is None:
        modified = source_date() or dt.datetime.combine(report_date, dt.time(), tzinfo=dt.UTC)
        pdf, _ = document.render(result, lang=lang, paper=paper, accuracy=accuracy,
                                 report_date=date_text, compared=compared, created=modified)
        return attachments.attach(pdf, files, modified)
    signing_time = (signing_time or dt.datetime.now(dt.UTC)).replace(microsecond=0)
    pdf, place = document.render(result, lang=lang, paper=paper, accuracy=accuracy,
                                 report_date=date_text, created=source_date(),
                                 signer=signer_of(identity, signing_time), compared=compared)
    assert place is not None  # the block is always drawn when a signer is given
    return signing.sign(pdf, files, identity, place, signing_time)


def write_report(path: str | Path, pdf: bytes) -> Path:
    """Write ``pdf`` atomically (a temporary file in the same folder, then replace)."""
    path = Path(path)
    write_atomically(path, pdf, mode=0o644)
    return path


__all__ = ["build_report", "default_date", "write_report"]
