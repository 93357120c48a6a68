"""Sign a report: PAdES baseline B-B with pyHanko, offline.

The attachments and the signature go into one incremental update, so the signature covers
the scenario and result JSON. The visible signature block is drawn by reportlab on the last
page (:class:`app.report.document.SignatureBlock`); the signature field is placed over it
with an empty appearance, so the block shows in every viewer and the field makes it
clickable. B-T and above need a time-stamp server and are out of reach on an air-gapped
site; the signing time is the signer's clock, stated in the signature and in the block.
"""

from __future__ import annotations

import datetime as dt
import logging

from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from cryptography.hazmat.primitives import serialization
from pyhanko.sign import fields, signers
from pyhanko.sign.fields import SigFieldSpec
from pyhanko.stamp import StaticStampStyle
from pyhanko_certvalidator.registry import SimpleCertificateStore

from app.report import attachments
from app.report.document import SignatureBox
from app.report.identity import Identity

FIELD_NAME = "AISizerSignature"
# Room for the CMS signature (DER bytes): an RSA-4096 signature with a chain of a few
# certificates fits with margin; reserving it skips pyHanko's dummy signing pass.
SIGNATURE_BYTES = 16384
logging.getLogger("pyhanko").addHandler(logging.NullHandler())


def asn1_certificate(certificate) -> asn1_x509.Certificate:
    return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))


def pdf_signer(identity: Identity) -> signers.SimpleSigner:
    """pyHanko's signer for a loaded identity (key, certificate, chain)."""
    key = asn1_keys.PrivateKeyInfo.load(identity.key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    certificate = asn1_certificate(identity.certificate)
    # pyHanko adds the signing certificate to the registry's in the CMS (a set of asn1crypto
    # objects, which compare by identity): the registry holds the chain alone, each once, so
    # that the signature carries every certificate exactly once (verify calls a duplicate a
    # modification).
    chain: list[asn1_x509.Certificate] = []
    for cert in identity.chain:
        der = asn1_certificate(cert)
        if der.dump() != certificate.dump() and all(der.dump() != c.dump() for c in chain):
            chain.append(der)
    return signers.SimpleSigner(signing_cert=certificate, signing_key=key,
                                cert_registry=SimpleCertificateStore.from_certs(chain))


class TimedPdfSigner(signers.PdfSigner):
    """A PdfSigner that signs at a given time (the one printed in the visible block)."""

    def __init__(self, *args, signing_time: dt.datetime, **kwargs):
        super().__init__(*args, **kwargs)
        self.signing_time = signing_time

    def init_signing_session(self, pdf_out, existing_fields_only=False):
        session = super().init_signing_session(pdf_out, existing_fields_only)
        session.system_time = self.signing_time
        return session


def sign(pdf: bytes, files: dict[str, bytes], identity: Identity, place: SignatureBox,
         signing_time: dt.datetime, reason: str = "AI Sizer sizing report") -> bytes:
    """``pdf`` with ``files`` attached and a PAdES B-B signature in the same update."""
    writer = attachments.open_writer(pdf, files, signing_time)
    meta = signers.PdfSignatureMetadata(
        field_name=FIELD_NAME, subfilter=fields.SigSeedSubFilter.PADES, md_algorithm="sha256",
        reason=reason, name=identity.name or None)
    field = SigFieldSpec(FIELD_NAME, on_page=place.page, box=place.box)
    blank = StaticStampStyle(border_width=0)  # empty appearance: the block is on the page
    signer = TimedPdfSigner(meta, pdf_signer(identity), new_field_spec=field, stamp_style=blank,
                            signing_time=signing_time)
    return signer.sign_pdf(writer, bytes_reserved=SIGNATURE_BYTES).getvalue()
