"""Check a report's signature offline and say one of four things.

- ``valid_and_trusted``: the signature is intact, covers the whole file, and the signer's
  certificate chains to a trust anchor the user gave (``--trust`` files, or certificates in
  ``<config dir>/trust/``);
- ``intact_untrusted``: intact and covering the whole file, but no trust anchor vouches for
  the signer (e.g. a self-signed identity nobody imported);
- ``modified``: anything changed after signing: a byte inside the signed range, a removed
  attachment, an incremental update or bytes appended after the signature (pyHanko's
  ``bottom_line`` stays True for appended bytes, so whole-file coverage is required too);
- ``not_signed``: a readable PDF without a signature.

A file that is not a readable PDF raises :class:`ReportFileError` (exit status 2 on the
command line). Every check builds a fresh ValidationContext with fetching disabled: no
network, no state kept between checks.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path

from asn1crypto import x509 as asn1_x509
from cryptography import x509
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

from app import paths
from app.report import attachments
from app.report.attachments import ReportFileError
from app.report.identity import IdentityError, fingerprint, read_certificates, subject_field

for _name in ("pyhanko", "pyhanko_certvalidator"):
    logging.getLogger(_name).addHandler(logging.NullHandler())

VALID_AND_TRUSTED = "valid_and_trusted"
INTACT_UNTRUSTED = "intact_untrusted"
MODIFIED = "modified"
NOT_SIGNED = "not_signed"
SUMMARIES = {
    VALID_AND_TRUSTED: "valid and trusted",
    INTACT_UNTRUSTED: "intact but signer not trusted",
    MODIFIED: "modified after signing",
    NOT_SIGNED: "not signed",
}
TRUST_FOLDER = "trust"

__all__ = ["ReportFileError", "Verification", "trust_anchors", "verify_bytes", "verify_file"]


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

    @property
    def summary(self) -> str:
        return SUMMARIES[self.status]

    @property
    def trusted(self) -> bool:
        return self.status == VALID_AND_TRUSTED

    def to_json(self) -> dict:
        return {"status": self.status, "summary": self.summary, **{
            key: value for key, value in asdict(self).items() if key != "status"}}


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
            "fingerprint": fingerprint(crypto_cert)}


def _time(value: dt.datetime | None) -> str:
    if value is None:
        return ""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _looks_signed(data: bytes) -> bool:
    return b"/ByteRange" in data and b"/Sig" in data


def verify_bytes(data: bytes, trust: list[x509.Certificate], source: str = "file"
                 ) -> Verification:
    """Check the signature(s) of a PDF held in memory against ``trust``."""
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
    return outcome


def _identity_of(outcome: Verification) -> dict:
    return {key: getattr(outcome, key) for key in
            ("signer", "organisation", "email", "signing_time", "fingerprint")}


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
    if status.trusted:
        anchor = status.validation_path[0].subject.human_friendly if status.validation_path \
            else ""
        return Verification(VALID_AND_TRUSTED, "the signature covers the whole file and the "
                            "signer is trusted", trust_anchor=anchor, **common)
    return Verification(INTACT_UNTRUSTED, "the file is unchanged since signing, but no trust "
                        "anchor vouches for the signer's certificate", **common)


def verify_file(path: Path, trust_files: list[Path] | None = None) -> Verification:
    """Check the report at ``path`` (ReportFileError / IdentityError when unreadable)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ReportFileError(f"cannot read '{path}': {exc.strerror}") from None
    return verify_bytes(data, trust_anchors(trust_files), str(path))
