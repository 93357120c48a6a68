"""The tamper suite: forgeries pyHanko's verdict alone lets through (issue #14).

- impostor: a certificate with the genuine signer's subject, serial and key identifier (its
  own key), whose report prints the genuine fingerprint: "forged", never the genuine verdict;
- the CMS signature value changed outside the signed bytes: the zero padding, a duplicated
  certificate, an added unsigned attribute, a non-canonical length: "modified";
- a report carries its signer's certificate once;
- a stripped signature (the revision before signing, or a rewrite without the field): "not
  signed", and the detail says the signature block on the page is only a picture;
- a printed fingerprint is read in both forms (colon pairs, groups of four), in both languages;
- what the reader is shown leads with the signing certificate's own fingerprint.

``TAMPER_CASES`` lists each forgery with the verdict it must get; ``test_tamper_figures``
prints the tally (cases, caught) for the issue's note.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from asn1crypto import cms
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from pyhanko.pdf_utils.reader import PdfFileReader
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, NameObject
from report_helpers import REPORT_DATE

from app.cli import main
from app.report import export, identity, signed_form, verify
from app.report.context import Signer
from app.report.export import build_report
from app.report.verify import FORGED, INTACT_UNTRUSTED, MODIFIED, NOT_SIGNED

# ----------------------------------------------------------------------------- helpers


def signature_of(pdf: bytes):
    (signature,) = PdfFileReader(io.BytesIO(pdf)).embedded_signatures
    return signature


def contents_of(pdf: bytes) -> bytes:
    """The raw /Contents bytes (CMS DER, then zero padding)."""
    return bytes(signature_of(pdf).sig_object["/Contents"])


def with_contents(pdf: bytes, raw: bytes) -> bytes:
    """``pdf`` with the /Contents hex string replaced (same width; outside the signed range)."""
    _, start, end, _ = signature_of(pdf).sig_object["/ByteRange"]
    gap = pdf[start:end]
    assert gap[:1] == b"<" and gap[-1:] == b">"
    width = len(gap) - 2
    text = raw.hex().upper().encode()
    assert len(text) <= width
    return pdf[:start] + b"<" + text + b"0" * (width - len(text)) + b">" + pdf[end:]


def cms_der(pdf: bytes) -> bytes:
    raw = contents_of(pdf)
    return raw[:len(cms.ContentInfo.load(raw).dump())]


def impostor_of(genuine: x509.Certificate) -> identity.Identity:
    """Another key in a certificate copying the genuine one's subject, serial and extensions
    (so its subject key identifier too)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    builder = (x509.CertificateBuilder().subject_name(genuine.subject)
               .issuer_name(genuine.issuer).public_key(key.public_key())
               .serial_number(genuine.serial_number)
               .not_valid_before(genuine.not_valid_before_utc)
               .not_valid_after(genuine.not_valid_after_utc))
    for extension in genuine.extensions:
        builder = builder.add_extension(extension.value, extension.critical)
    return identity.Identity(key, builder.sign(key, hashes.SHA256()))


@pytest.fixture(scope="module")
def genuine(self_signed):
    return self_signed[0]


@pytest.fixture(scope="module")
def impostor_report(worked, catalog, genuine):
    """A report signed by the impostor, printing the genuine signer's fingerprint."""
    fake = impostor_of(genuine.certificate)
    real_signer_of = export.signer_of

    def printed_as_genuine(ident, signing_time) -> Signer:
        made = real_signer_of(ident, signing_time)
        return Signer(made.name, made.organisation, made.email, genuine.fingerprint,
                      made.issuer, made.signing_time)

    export.signer_of = printed_as_genuine
    try:
        pdf = build_report(worked.scenario, worked.result, catalog=catalog,
                           report_date=REPORT_DATE, identity=fake)
    finally:
        export.signer_of = real_signer_of
    return pdf, fake


def padding_changed(pdf: bytes) -> bytes:
    raw = bytearray(contents_of(pdf))
    raw[len(cms_der(pdf)) + 100] = 0x41
    return with_contents(pdf, bytes(raw))


def certificate_duplicated(pdf: bytes) -> bytes:
    info = cms.ContentInfo.load(cms_der(pdf))
    signed = info["content"]
    certificates = list(signed["certificates"])
    copy = cms.CertificateChoices.load(certificates[0].dump())
    signed["certificates"] = cms.CertificateSet([*certificates, copy])
    return with_contents(pdf, info.dump(force=True))


def unsigned_attribute_added(pdf: bytes) -> bytes:
    info = cms.ContentInfo.load(cms_der(pdf))
    signer = info["content"]["signer_infos"][0]
    when = cms.Time({"utc_time": dt.datetime(2026, 11, 30, tzinfo=dt.UTC)})
    signer["unsigned_attrs"] = cms.CMSAttributes([cms.CMSAttribute({
        "type": "signing_time", "values": [when]})])
    return with_contents(pdf, info.dump(force=True))


def long_form_length(pdf: bytes) -> bytes:
    """The same CMS with its outer length in a longer (non-DER) form: BER, not as signed."""
    der = cms_der(pdf)
    assert der[0] == 0x30 and der[1] == 0x82  # SEQUENCE, two length bytes
    return with_contents(pdf, b"\x30\x83\x00" + der[2:])


def stripped_to_first_revision(pdf: bytes) -> bytes:
    """The pages as rendered before the signing update: the block, no signature."""
    end = pdf.index(b"%%EOF") + len(b"%%EOF")
    return pdf[:end] + b"\n"


def rewritten_without_signature(pdf: bytes) -> bytes:
    """A rewrite with the signature field and widget removed, attachments kept."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    if "/AcroForm" in writer.root_object:
        del writer.root_object["/AcroForm"]
    for page in writer.pages:
        if "/Annots" in page:
            kept = [a for a in page["/Annots"] if a.get_object().get("/FT") != "/Sig"]
            page[NameObject("/Annots")] = ArrayObject(kept)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# ----------------------------------------------------------------------------- the cases


def test_impostor_certificate_is_forged(impostor_report, genuine):
    pdf, fake = impostor_report
    outcome = verify.verify_bytes(pdf, [])
    assert outcome.signer == genuine.name  # the copied subject reads the same...
    assert outcome.fingerprint == identity.fingerprint(fake.certificate)  # ...its key does not
    assert outcome.printed_fingerprints == [genuine.fingerprint]
    assert outcome.printed_matches is False
    assert outcome.status == FORGED
    assert not outcome.trusted


def test_impostor_is_forged_even_where_its_certificate_is_trusted(impostor_report):
    pdf, fake = impostor_report
    outcome = verify.verify_bytes(pdf, [fake.certificate])
    assert outcome.status == FORGED and not outcome.trusted


def test_impostor_cannot_be_pinned(impostor_report):
    pdf, _ = impostor_report
    with pytest.raises(verify.PinError, match="forged"):
        verify.pin(verify.verify_bytes(pdf, []))


def test_genuine_report_carries_its_certificate_once(signed_report, genuine):
    signed = cms.ContentInfo.load(cms_der(signed_report))["content"]
    dumps = [c.dump() for c in signed["certificates"]]
    assert len(dumps) == 1 and len(set(dumps)) == 1
    assert signed_form.cms_problem(signature_of(signed_report)) == ""
    outcome = verify.verify_bytes(signed_report, [])
    assert outcome.status == INTACT_UNTRUSTED
    assert outcome.printed_fingerprints == [genuine.fingerprint] and outcome.printed_matches


def test_organisation_signer_carries_certificate_and_chain_once(worked, catalog, org_pki,
                                                                tmp_path):
    from report_helpers import PASSPHRASE

    imported = identity.import_pkcs12(org_pki.signer_p12, PASSPHRASE, tmp_path / "id.p12")
    pdf = build_report(worked.scenario, worked.result, catalog=catalog,
                       report_date=REPORT_DATE, identity=imported)
    signed = cms.ContentInfo.load(cms_der(pdf))["content"]
    dumps = [c.dump() for c in signed["certificates"]]
    assert len(dumps) == 2 and len(set(dumps)) == 2  # signer and its CA, each once
    assert verify.verify_bytes(pdf, [org_pki.ca_certificate]).trusted


@pytest.mark.parametrize("tamper", [padding_changed, certificate_duplicated,
                                    unsigned_attribute_added, long_form_length])
def test_cms_changed_outside_the_signed_bytes_is_modified(signed_report, genuine, tamper):
    forged = tamper(signed_report)
    assert forged != signed_report
    outcome = verify.verify_bytes(forged, [genuine.certificate])
    assert outcome.status == MODIFIED, outcome.detail
    assert outcome.detail in signed_form.CMS_PROBLEMS.values()


@pytest.mark.parametrize("strip", [stripped_to_first_revision, rewritten_without_signature])
def test_stripped_signature_is_not_signed_however_it_looks(signed_report, genuine, strip):
    stripped = strip(signed_report)
    assert b"Digitally signed" in stripped or PdfReader(io.BytesIO(stripped)).pages
    outcome = verify.verify_bytes(stripped, [genuine.certificate])
    assert outcome.status == NOT_SIGNED
    assert outcome.printed_fingerprints == [genuine.fingerprint]
    assert "only a picture" in outcome.detail
    assert outcome.fingerprint == "" and not outcome.trusted


def test_stripped_report_on_the_command_line_says_not_signed(signed_report, tmp_path, capsys):
    path = tmp_path / "stripped.pdf"
    path.write_bytes(stripped_to_first_revision(signed_report))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Signing certificate: none. This report is not signed, whatever "
                          "its pages show.")
    assert "not signed" in out and "only a picture" in out


# ----------------------------------------------------------------------------- what is shown


def test_verify_leads_with_the_signing_certificate_fingerprint(impostor_report, tmp_path,
                                                               capsys, genuine):
    pdf, fake = impostor_report
    path = tmp_path / "impostor.pdf"
    path.write_bytes(pdf)
    assert main(["verify", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    groups = identity.grouped(identity.fingerprint(fake.certificate)).split()
    assert lines[0].startswith("Signing certificate SHA-256 fingerprint")
    assert lines[1].strip() == " ".join(groups[:8])
    assert lines[2].strip() == " ".join(groups[8:])
    assert "only a claim" in lines[3]
    assert "does NOT match" in lines[4]
    assert any(line.endswith("forged: the fingerprint printed in the report is not the "
                             "signer's") for line in lines)


def test_grouped_fingerprint():
    fp = ":".join(f"{i:02X}" for i in range(32))
    assert identity.grouped(fp) == ("0001 0203 0405 0607 0809 0A0B 0C0D 0E0F "
                                    "1011 1213 1415 1617 1819 1A1B 1C1D 1E1F")


def test_printed_fingerprints_in_both_forms():
    fp = ":".join(f"{i * 7 % 256:02X}" for i in range(32))
    two_lines = fp[:47] + "\n" + fp[48:]
    groups = identity.grouped(fp).split()
    four = " ".join(groups[:8]) + "\n" + " ".join(groups[8:])
    assert signed_form.fingerprints_in(f"SHA-256 fingerprint {two_lines} end") == [fp]
    assert signed_form.fingerprints_in(f"SHA-256-Fingerabdruck\n{four}\nSeite 3") == [fp]
    assert signed_form.fingerprints_in(fp) == [fp]
    # a table row of sixteen four-digit numbers is not a fingerprint
    assert signed_form.fingerprints_in(" ".join(["1234"] * 16)) == []
    assert signed_form.fingerprints_in(fp[:-3]) == []


def test_german_signed_report_prints_the_signer_fingerprint(worked, catalog, genuine):
    pdf = build_report(worked.scenario, worked.result, lang="de", catalog=catalog,
                       report_date=REPORT_DATE, identity=genuine)
    outcome = verify.verify_bytes(pdf, [])
    assert outcome.status == INTACT_UNTRUSTED
    assert outcome.printed_fingerprints == [genuine.fingerprint]


# ----------------------------------------------------------------------------- the tally

TAMPER_CASES = {
    "impostor certificate, genuine fingerprint printed": (None, FORGED),
    "padding after the signature value changed": (padding_changed, MODIFIED),
    "signer certificate duplicated in the CMS": (certificate_duplicated, MODIFIED),
    "unsigned attribute added to the CMS": (unsigned_attribute_added, MODIFIED),
    "CMS length re-encoded (BER)": (long_form_length, MODIFIED),
    "signature stripped (revision before signing)": (stripped_to_first_revision, NOT_SIGNED),
    "signature field removed in a rewrite": (rewritten_without_signature, NOT_SIGNED),
}


def test_tamper_figures(signed_report, impostor_report, genuine, capsys):
    caught = 0
    for name, (tamper, expected) in TAMPER_CASES.items():
        pdf = impostor_report[0] if tamper is None else tamper(signed_report)
        got = verify.verify_bytes(pdf, [genuine.certificate]).status
        caught += got == expected
        print(f"{name}: {got}")
    with capsys.disabled():
        print(f"\ntamper cases: {len(TAMPER_CASES)}, caught: {caught}")
    assert caught == len(TAMPER_CASES)
