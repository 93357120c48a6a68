"""Helpers shared by the report tests: examples, text extraction, an organisation's PKI."""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID
from pypdf import PdfReader

from app import api

REPORT_DATE = dt.date(2026, 11, 30)
PASSPHRASE = "correct horse battery staple"


@dataclass(frozen=True)
class Sized:
    scenario: dict
    result: object


def sized(name: str) -> Sized:
    data = api.example(name)
    return Sized(data, api.size(api.load_scenario(data)))


def pages_text(pdf: bytes) -> list[str]:
    """The text of every page, extracted with pypdf."""
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


@dataclass(frozen=True)
class OrgPki:
    ca_pem: Path
    signer_p12: Path
    ca_certificate: x509.Certificate


def _name(common: str, org: str = "Example Bank AG") -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, org)])


def _usage(**flags) -> x509.KeyUsage:
    names = ("digital_signature", "content_commitment", "key_encipherment",
             "data_encipherment", "key_agreement", "key_cert_sign", "crl_sign",
             "encipher_only", "decipher_only")
    return x509.KeyUsage(**{name: flags.get(name, False) for name in names})


def make_org_pki(folder: Path) -> OrgPki:
    """A root CA and a signer certificate it issued (nonRepudiation set), as PKCS#12."""
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (x509.CertificateBuilder().subject_name(_name("Example Bank Root CA"))
               .issuer_name(_name("Example Bank Root CA")).public_key(ca_key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - dt.timedelta(days=1))
               .not_valid_after(now + dt.timedelta(days=3650))
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
               .add_extension(_usage(key_cert_sign=True, crl_sign=True), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                              critical=False)
               .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(_name("Erika Mustermann"))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=365))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_usage(digital_signature=True, content_commitment=True),
                           critical=True)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    ca_pem = folder / "org-root.pem"
    ca_pem.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    p12 = folder / "erika.p12"
    p12.write_bytes(pkcs12.serialize_key_and_certificates(
        b"erika", key, cert, [ca_cert],
        serialization.BestAvailableEncryption(PASSPHRASE.encode())))
    return OrgPki(ca_pem, p12, ca_cert)
