"""Check a report's signature offline and say one of five things.

- ``valid_and_trusted``: the signature is intact, covers the whole file, and the signer's
  certificate chains to a trust anchor the user gave (``--trust`` files, or certificates in
  ``<config dir>/trust/``, where ``verify --pin`` and the dialog's "Pin this signer" put the
  signing certificate of a report whose fingerprint the user has checked);
- ``intact_untrusted``: intact and covering the whole file, but no trust anchor vouches for
  the signer (e.g. a self-signed identity nobody imported or pinned);
- ``modified``: anything changed after signing: a byte inside the signed range, a removed
  attachment, an incremental update or bytes appended after the signature (pyHanko's
  ``bottom_line`` stays True for appended bytes, so whole-file coverage is required too), or
  a signature value (CMS) that is not exactly what was signed: padding changed, a certificate
  duplicated, attributes added (:func:`app.report.signed_form.cms_problem`);
- ``forged``: the signature is intact, but a fingerprint printed on the pages is not the
  signing certificate's: an impostor certificate made to look like the signer's;
- ``not_signed``: a readable PDF without a signature, whatever signature block its pages
  show.

The fingerprint that counts is the signing certificate's (:attr:`Verification.fingerprint`,
read aloud in groups of four); the one printed on the page is only a claim.

A file that is not a readable PDF, is not a regular file or is larger than
:data:`MAX_REPORT_BYTES` raises :class:`ReportFileError` (exit status 2 on the command line).
Every check builds a fresh ValidationContext with fetching disabled: no network, no state kept
between checks.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path

from asn1crypto import x509 as asn1_x509
from cryptography import x509
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

from app import atomic, paths
from app.report import attachments, signed_form
from app.report.attachments import MAX_REPORT_BYTES, ReportFileError, read_report
from app.report.identity import (
    IdentityError,
    fingerprint,
    grouped,
    read_certificates,
    subject_field,
)

for _name in ("pyhanko", "pyhanko_certvalidator"):
    logging.getLogger(_name).addHandler(logging.NullHandler())

VALID_AND_TRUSTED = "valid_and_trusted"
INTACT_UNTRUSTED = "intact_untrusted"
MODIFIED = "modified"
FORGED = "forged"
NOT_SIGNED = "not_signed"
SUMMARIES = {
    VALID_AND_TRUSTED: "valid and trusted",
    INTACT_UNTRUSTED: "intact but signer not trusted",
    MODIFIED: "modified after signing",
    FORGED: "forged: the fingerprint printed in the report is not the signer's",
    NOT_SIGNED: "not signed",
}
# what the reader is told about the fingerprint printed on the page (CLI and dialog)
PRINTED_CLAIM = ("The fingerprint printed in the report is only a claim: it must match this "
                 "one, and this one must match the fingerprint the signer gives you by phone "
                 "or letter.")
TRUST_FOLDER = "trust"
PINNED_PREFIX = "pinned-"

__all__ = ["MAX_REPORT_BYTES", "PinError", "ReportFileError", "Verification", "pin",
           "read_report", "trust_anchors", "verify_bytes", "verify_file"]


class PinError(ValueError):
    """A signer cannot be pinned (one readable sentence)."""


@dataclass(frozen=True)
class Verification:
    """The outcome of a check, with who signed and when."""

    status: str
    detail: str
    signer: str = ""
    organisation: str = ""
    email: str = ""
    signing_time: str = ""
    fingerprint: str = ""
    trust_anchor: str = ""
    coverage: str = ""
    attachments: list[str] = field(default_factory=list)
    printed_fingerprints: list[str] = field(default_factory=list)
    file_sha256: str = ""
    certificate: bytes = field(default=b"", repr=False, compare=False)  # DER, for pinning

    @property
    def summary(self) -> str:
        return SUMMARIES[self.status]

    @property
    def trusted(self) -> bool:
        return self.status == VALID_AND_TRUSTED

    @property
    def fingerprint_groups(self) -> str:
        """The signing certificate's fingerprint in groups of four, to read aloud."""
        return grouped(self.fingerprint)

    @property
    def printed_matches(self) -> bool | None:
        """Whether the fingerprints printed on the pages are the signer's (None: none)."""
        if not self.printed_fingerprints or not self.fingerprint:
            return None
        return all(found == self.fingerprint for found in self.printed_fingerprints)

    def to_json(self) -> dict:
        fields = {key: value for key, value in asdict(self).items()
                  if key not in ("status", "certificate")}
        return {"status": self.status, "summary": self.summary,
                "fingerprint_groups": self.fingerprint_groups,
                "printed_fingerprint_matches": self.printed_matches, **fields}


def trust_folder() -> Path:
    """Trust anchors the user imported (PEM or DER files), read on every check."""
    return paths.config_dir() / TRUST_FOLDER


def trust_anchors(files: list[Path] | None = None, use_folder: bool = True
                  ) -> list[x509.Certificate]:
    """Certificates from ``files`` and the trust folder (IdentityError when unreadable)."""
    found: list[x509.Certificate] = []
    for path in files or []:
        found += read_certificates(Path(path))
    folder = trust_folder()
    if use_folder and folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() in (".pem", ".crt", ".cer", ".der"):
                try:
                    found += read_certificates(path)
                except IdentityError:
                    continue
    return found


def _asn1(certificate: x509.Certificate) -> asn1_x509.Certificate:
    from cryptography.hazmat.primitives.serialization import Encoding

    return asn1_x509.Certificate.load(certificate.public_bytes(Encoding.DER))


def _signer_fields(cert: asn1_x509.Certificate) -> dict[str, str]:
    crypto_cert = x509.load_der_x509_certificate(cert.dump())
    from cryptography.x509.oid import NameOID

    return {"signer": subject_field(crypto_cert, NameOID.COMMON_NAME),
            "organisation": subject_field(crypto_cert, NameOID.ORGANIZATION_NAME),
            "email": subject_field(crypto_cert, NameOID.EMAIL_ADDRESS),
            "fingerprint": fingerprint(crypto_cert), "certificate": cert.dump()}


def _time(value: dt.datetime | None) -> str:
    if value is None:
        return ""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _looks_signed(data: bytes) -> bool:
    return b"/ByteRange" in data and b"/Sig" in data


def _printed(data: bytes) -> list[str]:
    try:
        return signed_form.printed_fingerprints(data)
    except Exception:  # pypdf raises many types on odd page content: nothing printed to read
        return []


def verify_bytes(data: bytes, trust: list[x509.Certificate], source: str = "file"
                 ) -> Verification:
    """Check the signature(s) of a PDF held in memory against ``trust``."""
    digest = hashlib.sha256(data).hexdigest()
    outcome = _verify(data, trust, source)
    return Verification(**{**asdict(outcome), "file_sha256": digest})


def _verify(data: bytes, trust: list[x509.Certificate], source: str) -> Verification:
    try:
        reader = attachments.read_pdf(data, source, strict=True)
        signatures = reader.embedded_signatures
        files = sorted(attachments.attachments(reader))
    except ReportFileError:
        if data.startswith(b"%PDF") and _looks_signed(data):
            # A signed PDF that no longer parses was changed after signing.
            return Verification(MODIFIED, "the signed file is damaged and cannot be parsed")
        raise
    except Exception as exc:  # pyHanko raises several types on malformed signatures
        if _looks_signed(data):
            return Verification(MODIFIED, f"the signed file was changed and no longer reads "
                                f"correctly ({exc})")
        raise ReportFileError(f"'{source}' cannot be read as a PDF: {exc}") from None
    if not signatures:
        printed = _printed(data)
        if printed:
            return Verification(NOT_SIGNED, "the PDF carries no signature, although its pages "
                                "show a signature block with a fingerprint: that block is only "
                                "a picture of a signature", attachments=files,
                                printed_fingerprints=printed)
        return Verification(NOT_SIGNED, "the PDF carries no signature", attachments=files)
    roots = [_asn1(cert) for cert in trust]
    outcome = None
    for signature in signatures:
        outcome = _check_one(signature, roots, files)
        if outcome.status == MODIFIED:
            return outcome
    last = signatures[-1]
    if outcome is not None and last.coverage != SignatureCoverageLevel.ENTIRE_FILE:
        return Verification(MODIFIED, "the file was changed or extended after the signature "
                            "(the signature no longer covers the whole file)",
                            **_identity_of(outcome), attachments=files)
    assert outcome is not None
    printed = _printed(data)
    outcome = Verification(**{**asdict(outcome), "printed_fingerprints": printed})
    if outcome.printed_matches is False:
        rest = {key: value for key, value in asdict(outcome).items()
                if key not in ("status", "detail", "trust_anchor")}
        return Verification(FORGED, "the signature is intact, but the fingerprint printed in "
                            "the report is not the signing certificate's: another certificate "
                            "was made to look like the signer's", **rest)
    return outcome


def _identity_of(outcome: Verification) -> dict:
    return {key: getattr(outcome, key) for key in
            ("signer", "organisation", "email", "signing_time", "fingerprint", "certificate")}


def _check_one(signature, roots, files) -> Verification:
    context = ValidationContext(trust_roots=roots, allow_fetching=False)
    try:
        status = validate_pdf_signature(signature, context)
    except Exception as exc:  # SignatureValidationError and parse errors alike: not intact
        return Verification(MODIFIED, f"the signature cannot be validated: {exc}",
                            attachments=files)
    who = _signer_fields(status.signing_cert) if status.signing_cert is not None else {}
    common = {**who, "signing_time": _time(status.signer_reported_dt),
              "coverage": status.coverage.name if status.coverage else "",
              "attachments": files}
    if not (status.intact and status.valid):
        return Verification(MODIFIED, "the signed bytes do not match the signature", **common)
    if status.coverage != SignatureCoverageLevel.ENTIRE_FILE:
        return Verification(MODIFIED, "the file was changed or extended after the signature "
                            "(the signature no longer covers the whole file)", **common)
    problem = signed_form.cms_problem(signature)
    if problem:
        return Verification(MODIFIED, problem, **common)
    if status.trusted:
        anchor = status.validation_path[0].subject.human_friendly if status.validation_path \
            else ""
        return Verification(VALID_AND_TRUSTED, "the signature covers the whole file and the "
                            "signer is trusted", trust_anchor=anchor, **common)
    return Verification(INTACT_UNTRUSTED, "the file is unchanged since signing, but no trust "
                        "anchor vouches for the signer's certificate", **common)


def verify_file(path: Path, trust_files: list[Path] | None = None) -> Verification:
    """Check the report at ``path`` (ReportFileError / IdentityError when unreadable)."""
    data = read_report(Path(path))
    return verify_bytes(data, trust_anchors(trust_files), str(path))


class ModifiedReportError(ReportFileError):
    """A signed report changed after signing (or forged): its attachment is not used."""

    def __init__(self, path: Path, outcome: Verification):
        super().__init__(f"'{path}' is {outcome.summary} ({outcome.detail}); the scenario "
                         "attached to it is not used")
        self.outcome = outcome


def checked_scenario(path: Path, accept_modified: bool = False
                     ) -> tuple[dict, Verification]:
    """The scenario a report carries, and the report's verification.

    A signed report that was modified after signing, or forged, gets ModifiedReportError
    unless ``accept_modified``: its attachment is not what the signer signed. An unsigned
    report's scenario is used (nothing claims otherwise); ReportFileError when unreadable.
    """
    data = read_report(Path(path))
    outcome = verify_bytes(data, trust_anchors(), str(path))
    if outcome.status in (MODIFIED, FORGED) and not accept_modified:
        raise ModifiedReportError(Path(path), outcome)
    return attachments.scenario_from_bytes(data, Path(path)), outcome


def normalised_fingerprint(text: str) -> str:
    """A fingerprint as the user types it (groups, colons, lower case) as AB:CD:... pairs."""
    digits = "".join(ch for ch in text.upper() if not ch.isspace() and ch != ":")
    if len(digits) != 64 or any(ch not in "0123456789ABCDEF" for ch in digits):
        raise PinError(f"--pin: '{text}' is not a SHA-256 fingerprint; give 64 hexadecimal "
                       "digits (spaces and colons may separate them)")
    return ":".join(digits[i:i + 2] for i in range(0, 64, 2))


def pin(outcome: Verification, expected: str | None = None) -> Path:
    """Keep the signing certificate of a verified report in the trust folder.

    Later reports signed with that certificate then verify as trusted. Only an intact report
    whose printed fingerprint (if any) is the signer's can be pinned; with ``expected`` (the
    fingerprint the signer gave by phone or letter) it must be that certificate's too.
    Returns the file written (PinError with a sentence otherwise).
    """
    if outcome.status not in (INTACT_UNTRUSTED, VALID_AND_TRUSTED) or not outcome.certificate:
        raise PinError(f"the signer cannot be pinned: the report is {outcome.summary}")
    if expected is not None and normalised_fingerprint(expected) != outcome.fingerprint:
        raise PinError(f"not pinned: the fingerprint you gave ({grouped(expected)}) is not "
                       f"the signing certificate's ({outcome.fingerprint_groups})")
    from cryptography.hazmat.primitives.serialization import Encoding

    certificate = x509.load_der_x509_certificate(outcome.certificate)
    digits = outcome.fingerprint.replace(":", "")
    path = trust_folder() / f"{PINNED_PREFIX}{digits[:16].lower()}.pem"
    atomic.write_bytes(path, certificate.public_bytes(Encoding.PEM), 0o644)
    return path
