"""The local signing identity: a certificate and its key in a passphrase-protected PKCS#12.

``<config dir>/identity.p12`` holds the key, the certificate and (for an organisation's
identity) its chain; ``<config dir>/identity.pem`` holds the certificate and chain alone, so
that ``aisizer identity show`` needs no passphrase and the certificate can be handed to the
people who verify reports (``aisizer verify --trust identity.pem``). Both are written
atomically (temporary file, then replace).

A created identity is self-signed, with the person's name, organisation and email, and key
usage digitalSignature + nonRepudiation (what PAdES validators expect of a signer). The
SHA-256 fingerprint of the certificate is printed in every signed report, for a check by
phone or letter.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from app import atomic, paths

IDENTITY_FILE = "identity.p12"
CERTIFICATE_FILE = "identity.pem"
KEY_BITS = 3072  # RSA: accepted by every PAdES validator; NIST SP 800-57 strength 128 bit
VALID_DAYS = 3 * 365


class IdentityError(ValueError):
    """A signing identity cannot be created, read or used (one readable sentence)."""


@dataclass(frozen=True)
class Identity:
    """A loaded signing identity."""

    key: rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey
    certificate: x509.Certificate
    chain: tuple[x509.Certificate, ...] = ()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.certificate)

    @property
    def name(self) -> str:
        return subject_field(self.certificate, NameOID.COMMON_NAME)

    @property
    def organisation(self) -> str:
        return subject_field(self.certificate, NameOID.ORGANIZATION_NAME)

    @property
    def email(self) -> str:
        found = subject_field(self.certificate, NameOID.EMAIL_ADDRESS)
        if found:
            return found
        try:
            san = self.certificate.extensions.get_extension_for_class(
                x509.SubjectAlternativeName)
        except x509.ExtensionNotFound:
            return ""
        emails = san.value.get_values_for_type(x509.RFC822Name)
        return emails[0] if emails else ""


def identity_path() -> Path:
    """Where the user's signing identity lives."""
    return paths.config_dir() / IDENTITY_FILE


def certificate_path() -> Path:
    """The public certificate (and chain) of the user's signing identity, PEM."""
    return paths.config_dir() / CERTIFICATE_FILE


def fingerprint(certificate: x509.Certificate) -> str:
    """SHA-256 of the DER certificate as colon-separated hex pairs (AB:CD:...)."""
    digest = certificate.fingerprint(hashes.SHA256())
    return ":".join(f"{byte:02X}" for byte in digest)


def grouped(fingerprint_text: str) -> str:
    """A fingerprint (AB:CD:... or bare hex) in groups of four, easy to read aloud.

    ``AB:CD:EF:01:...`` becomes ``ABCD EF01 ...``: 16 groups for SHA-256.
    """
    digits = "".join(ch for ch in fingerprint_text.upper() if ch in "0123456789ABCDEF")
    return " ".join(digits[i:i + 4] for i in range(0, len(digits), 4))


def subject_field(certificate: x509.Certificate, oid: x509.ObjectIdentifier) -> str:
    values = certificate.subject.get_attributes_for_oid(oid)
    return str(values[0].value) if values else ""


def write_atomically(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then replace."""
    atomic.write_bytes(path, data, mode)


def self_signed_certificate(key, name: str, organisation: str, email: str,
                            now: dt.datetime | None = None,
                            days: int = VALID_DAYS) -> x509.Certificate:
    """A self-signed signer certificate (digitalSignature + nonRepudiation)."""
    if not name.strip():
        raise IdentityError("identity: a name is needed for the certificate")
    attributes = [x509.NameAttribute(NameOID.COMMON_NAME, name.strip())]
    if organisation.strip():
        attributes.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, organisation.strip()))
    if email.strip():
        attributes.append(x509.NameAttribute(NameOID.EMAIL_ADDRESS, email.strip()))
    subject = x509.Name(attributes)
    now = now or dt.datetime.now(dt.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(digital_signature=True, content_commitment=True,
                          key_encipherment=False, data_encipherment=False,
                          key_agreement=False, key_cert_sign=False, crl_sign=False,
                          encipher_only=False, decipher_only=False),
            critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                       critical=False)
    )
    if email.strip():
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.RFC822Name(email.strip())]), critical=False)
    return builder.sign(key, hashes.SHA256())


def serialise(identity: Identity, passphrase: str) -> bytes:
    """The identity as PKCS#12 bytes encrypted with ``passphrase``."""
    if not passphrase:
        raise IdentityError("identity: an empty passphrase would leave the key unprotected")
    return pkcs12.serialize_key_and_certificates(
        identity.name.encode("utf-8") or b"signing identity", identity.key,
        identity.certificate, list(identity.chain) or None,
        serialization.BestAvailableEncryption(passphrase.encode("utf-8")))


def certificates_pem(identity: Identity) -> bytes:
    return b"".join(cert.public_bytes(serialization.Encoding.PEM)
                    for cert in (identity.certificate, *identity.chain))


def save(identity: Identity, passphrase: str, path: Path | None = None) -> Path:
    """Store ``identity`` (PKCS#12, and the certificate as PEM beside it); returns the path."""
    path = path or identity_path()
    data = serialise(identity, passphrase)
    write_atomically(path, data)
    write_atomically(path.with_suffix(".pem"), certificates_pem(identity), mode=0o644)
    return path


def create(name: str, organisation: str, email: str, passphrase: str,
           path: Path | None = None) -> Identity:
    """Create a self-signed identity and store it at ``path`` (default: the config folder)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    identity = Identity(key, self_signed_certificate(key, name, organisation, email))
    save(identity, passphrase, path)
    return identity


def parse(data: bytes, passphrase: str, source: str = "identity") -> Identity:
    """Read PKCS#12 bytes (IdentityError with one sentence when that fails)."""
    try:
        key, certificate, chain = pkcs12.load_key_and_certificates(
            data, passphrase.encode("utf-8") if passphrase else None)
    except (ValueError, TypeError):
        raise IdentityError(f"cannot open the signing identity '{source}': the passphrase is "
                            "wrong or the file is not a PKCS#12 identity") from None
    if key is None or certificate is None:
        raise IdentityError(f"the signing identity '{source}' holds no private key and "
                            "certificate")
    if not isinstance(key, rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey):
        raise IdentityError(f"the signing identity '{source}' uses a key type that cannot "
                            "sign PAdES reports (use RSA or ECDSA)")
    return Identity(key, certificate, tuple(chain or ()))


def load(path: Path | None, passphrase: str) -> Identity:
    """Load the identity at ``path`` (default: the config folder)."""
    path = Path(path) if path else identity_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise IdentityError(f"no signing identity at '{path}'; create one with "
                            "'aisizer identity create'") from None
    except OSError as exc:
        raise IdentityError(f"cannot read the signing identity '{path}': "
                            f"{exc.strerror}") from None
    return parse(data, passphrase, str(path))


def import_pkcs12(source: Path, passphrase: str, path: Path | None = None) -> Identity:
    """Import an organisation's PKCS#12 (key, certificate and chain) as the local identity.

    It is stored under the same passphrase it came with.
    """
    identity = load(Path(source), passphrase)
    save(identity, passphrase, path)
    return identity


def usage_problems(certificate: x509.Certificate) -> list[str]:
    """Why PAdES verifiers with the default policy would refuse this signer certificate."""
    try:
        usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        return []
    problems = []
    if not usage.content_commitment:
        problems.append("the certificate's key usage lacks nonRepudiation (content "
                        "commitment); verifiers with the default PAdES policy will not accept "
                        "its signatures")
    if not usage.digital_signature and not usage.content_commitment:
        problems.append("the certificate's key usage does not allow signing")
    return problems


def read_certificates(path: Path) -> list[x509.Certificate]:
    """Certificates from a PEM (one or more) or DER file (IdentityError when unreadable)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise IdentityError(f"cannot read certificate file '{path}': {exc.strerror}") from None
    try:
        if b"-----BEGIN CERTIFICATE-----" in data:
            return x509.load_pem_x509_certificates(data)
        return [x509.load_der_x509_certificate(data)]
    except ValueError:
        raise IdentityError(f"'{path}' is not a certificate (PEM or DER)") from None


def describe(certificate: x509.Certificate) -> dict[str, str]:
    """What ``identity show`` prints about a certificate."""
    return {
        "subject": certificate.subject.rfc4514_string(),
        "issuer": certificate.issuer.rfc4514_string(),
        "valid_from": certificate.not_valid_before_utc.isoformat(),
        "valid_until": certificate.not_valid_after_utc.isoformat(),
        "sha256_fingerprint": fingerprint(certificate),
    }
