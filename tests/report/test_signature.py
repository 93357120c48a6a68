"""Signing and verification: pyHanko's own validation, and each of the four verdicts.

- a signed report validates with pyHanko (intact, valid, PAdES subfilter, whole file covered);
- untrusted: the self-signed signer without --trust; trusted with --trust on its certificate,
  and an organisation's CA-issued signer trusted with --trust on the CA;
- modified: a flipped byte inside the signed range, a removed attachment (incremental update
  and full rewrite), bytes appended after the signature;
- not signed: a report made without an identity;
- unreadable: not a PDF (exit status 2).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext
from pypdf import PdfReader, PdfWriter
from report_helpers import PASSPHRASE, REPORT_DATE

from app.cli import main
from app.report import identity, verify
from app.report.export import build_report
from app.report.verify import INTACT_UNTRUSTED, MODIFIED, NOT_SIGNED, VALID_AND_TRUSTED


@pytest.fixture(scope="module")
def self_cert(self_signed):
    return self_signed[0].certificate


def status_of(pdf: bytes, trust=()) -> str:
    return verify.verify_bytes(pdf, list(trust)).status


# ----------------------------------------------------------------------------- valid


def test_pyhanko_validates_the_signature_over_the_whole_file(signed_report, self_cert):
    from app.report.signing import asn1_certificate

    reader = PdfFileReader(io.BytesIO(signed_report))
    (signature,) = reader.embedded_signatures
    context = ValidationContext(trust_roots=[asn1_certificate(self_cert)], allow_fetching=False)
    status = validate_pdf_signature(signature, context)
    assert status.intact and status.valid and status.trusted and status.bottom_line
    assert status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    assert signature.sig_object["/SubFilter"] == "/ETSI.CAdES.detached"  # PAdES
    assert status.signing_cert.subject.native["common_name"] == "Jörg Müller"


def test_attachments_are_inside_the_signed_revision(signed_report):
    reader = PdfFileReader(io.BytesIO(signed_report))
    (signature,) = reader.embedded_signatures
    signed = reader.get_historical_resolver(signature.signed_revision)
    names = signed.root["/Names"]["/EmbeddedFiles"]["/Names"]
    assert {str(names[i]) for i in range(0, len(names), 2)} == {"scenario.json", "result.json"}


def test_visible_block_on_the_last_page_under_the_field(signed_report, self_cert):
    reader = PdfReader(io.BytesIO(signed_report))
    last = reader.pages[-1]
    text = " ".join((last.extract_text() or "").split())
    assert "Digitally signed (PAdES baseline B-B)" in text
    groups = identity.grouped(identity.fingerprint(self_cert)).split()  # read aloud in 4s
    assert " ".join(groups[:8]) in text and " ".join(groups[8:]) in text
    widgets = [a.get_object() for a in last.get("/Annots", [])]
    assert [w["/FT"] for w in widgets] == ["/Sig"]


def test_untrusted_self_signed_then_trusted_with_its_certificate(signed_report, self_cert):
    untrusted = verify.verify_bytes(signed_report, [])
    assert untrusted.status == INTACT_UNTRUSTED
    assert untrusted.signer == "Jörg Müller" and untrusted.organisation == "Muster GmbH"
    assert untrusted.fingerprint == identity.fingerprint(self_cert)
    assert untrusted.signing_time.endswith("UTC")
    assert status_of(signed_report, [self_cert]) == VALID_AND_TRUSTED


def test_organisation_ca_issued_signer(worked, catalog, org_pki, tmp_path):
    imported = identity.import_pkcs12(org_pki.signer_p12, PASSPHRASE, tmp_path / "id.p12")
    assert len(imported.chain) == 1
    pdf = build_report(worked.scenario, worked.result, catalog=catalog,
                       report_date=REPORT_DATE, identity=imported)
    assert status_of(pdf) == INTACT_UNTRUSTED
    outcome = verify.verify_bytes(pdf, [org_pki.ca_certificate])
    assert outcome.status == VALID_AND_TRUSTED
    assert "Example Bank Root CA" in outcome.trust_anchor
    assert outcome.signer == "Erika Mustermann"


# ----------------------------------------------------------------------------- tampering


def flip(data: bytes, offset: int) -> bytes:
    return data[:offset] + bytes([data[offset] ^ 0x01]) + data[offset + 1:]


def test_flipped_byte_in_page_content_is_detected(signed_report, self_cert):
    start = signed_report.index(b"stream\n", 2000) + 200  # inside the first page stream
    assert status_of(flip(signed_report, start), [self_cert]) == MODIFIED


def test_flipped_byte_in_attachment_is_detected(signed_report, self_cert):
    reader = PdfFileReader(io.BytesIO(signed_report))
    (signature,) = reader.embedded_signatures
    first, length, _, _ = signature.sig_object["/ByteRange"]
    offset = signed_report.rindex(b"/EmbeddedFile", 0, first + length)
    offset = signed_report.index(b"stream", offset) + 40
    assert status_of(flip(signed_report, offset), [self_cert]) == MODIFIED


@pytest.mark.parametrize("where", [0.05, 0.25, 0.5, 0.75, 0.95])
def test_flipped_byte_anywhere_in_the_signed_range_is_detected(signed_report, self_cert,
                                                                where):
    reader = PdfFileReader(io.BytesIO(signed_report))
    (signature,) = reader.embedded_signatures
    first, length, second, second_length = signature.sig_object["/ByteRange"]
    offset = int(length * where)  # header, page streams, fonts, xref, attachments
    assert status_of(flip(signed_report, offset), [self_cert]) == MODIFIED
    after = second + int(second_length * where)  # after the signature value, still signed
    assert status_of(flip(signed_report, after), [self_cert]) == MODIFIED


def test_removed_attachment_in_an_update_is_detected(signed_report, self_cert):
    writer = IncrementalPdfFileWriter(io.BytesIO(signed_report))
    names = writer.root["/Names"]
    del names["/EmbeddedFiles"]
    writer.update_container(names)
    out = io.BytesIO()
    writer.write(out)
    outcome = verify.verify_bytes(out.getvalue(), [self_cert])
    assert outcome.status == MODIFIED
    assert outcome.attachments == []


def test_removed_attachment_in_a_rewrite_is_detected(signed_report, self_cert):
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(signed_report)))
    del writer.root_object["/Names"]
    out = io.BytesIO()
    writer.write(out)
    assert status_of(out.getvalue(), [self_cert]) == MODIFIED


def test_bytes_appended_after_the_signature_are_detected(signed_report, self_cert):
    assert status_of(signed_report + b"\n% appended\n", [self_cert]) == MODIFIED
    assert status_of(signed_report + b"\x00" * 16, [self_cert]) == MODIFIED


def test_metadata_changed_in_a_later_update_is_detected(signed_report, self_cert):
    writer = IncrementalPdfFileWriter(io.BytesIO(signed_report))
    info = writer.trailer["/Info"].get_object()
    info["/Title"] = generic.TextStringObject("Another title")
    writer.update_container(info)
    out = io.BytesIO()
    writer.write(out)
    assert status_of(out.getvalue(), [self_cert]) == MODIFIED


# ----------------------------------------------------------------------------- not signed


def test_unsigned_report_is_not_signed(report_en):
    outcome = verify.verify_bytes(report_en, [])
    assert outcome.status == NOT_SIGNED
    assert outcome.attachments == ["result.json", "scenario.json"]


def test_not_a_pdf_is_unreadable():
    with pytest.raises(verify.ReportFileError):
        verify.verify_bytes(b"this is text", [])


# ----------------------------------------------------------------------------- command line


@pytest.fixture
def files(tmp_path, signed_report, report_en, self_signed):
    signed = tmp_path / "signed.pdf"
    signed.write_bytes(signed_report)
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(report_en)
    tampered = tmp_path / "tampered.pdf"
    tampered.write_bytes(signed_report + b"\n")
    return {"signed": signed, "plain": plain, "tampered": tampered,
            "cert": self_signed[1].with_suffix(".pem"), "text": tmp_path / "notes.txt"}


def test_verify_exit_statuses(files, capsys):
    files["text"].write_text("not a pdf", encoding="utf-8")
    assert main(["verify", str(files["signed"]), "--trust", str(files["cert"])]) == 0
    assert "valid and trusted" in capsys.readouterr().out
    assert main(["verify", str(files["signed"])]) == 1
    assert "intact but signer not trusted" in capsys.readouterr().out
    assert main(["verify", str(files["tampered"]), "--trust", str(files["cert"])]) == 1
    assert "modified after signing" in capsys.readouterr().out
    assert main(["verify", str(files["plain"])]) == 1
    assert "not signed" in capsys.readouterr().out
    assert main(["verify", str(files["text"])]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert main(["verify", str(files["text"].with_name("missing.pdf"))]) == 2


def test_verify_json(files, capsys):
    assert main(["verify", str(files["signed"]), "--trust", str(files["cert"]), "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["status"] == "valid_and_trusted"
    assert outcome["summary"] == "valid and trusted"
    assert outcome["signer"] == "Jörg Müller"
    assert outcome["coverage"] == "ENTIRE_FILE"
    assert len(outcome["fingerprint"]) == 95


def test_trust_anchors_from_the_configuration_folder(files, user_config_dir, capsys):
    trust = user_config_dir / "trust"
    trust.mkdir()
    (trust / "colleague.pem").write_bytes(files["cert"].read_bytes())
    assert main(["verify", str(files["signed"])]) == 0
    assert "valid and trusted" in capsys.readouterr().out


def test_verify_as_a_process_exits_one_without_a_trace(files):
    run = subprocess.run([sys.executable, "-m", "app", "verify", str(files["tampered"])],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert "modified after signing" in run.stdout
    assert "Traceback" not in run.stderr and run.stderr == ""
