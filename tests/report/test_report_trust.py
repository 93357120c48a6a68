"""What a report's signature decides beyond the verdict: pinning, using its scenario, bounds.

- ``verify --pin`` keeps the signing certificate in the configuration folder's trust/: the
  report, and later reports from that signer, verify as trusted without a CA; a wrong
  fingerprint, a modified or a forged report is not pinned;
- ``aisizer size REPORT.pdf`` (and ``report``) refuse the scenario of a signed report modified
  after signing, unless ``--accept-modified`` (then a warning says so); an intact or unsigned
  report's scenario is used;
- verify reads a report with bounds: a 300 MB file is refused from its size within seconds,
  a FIFO is refused without blocking.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from report_helpers import REPORT_DATE

from app.cli import main
from app.report import identity, verify
from app.report.attachments import MAX_REPORT_BYTES
from app.report.export import build_report


@pytest.fixture
def signed_file(tmp_path, signed_report):
    path = tmp_path / "signed.pdf"
    path.write_bytes(signed_report)
    return path


@pytest.fixture
def modified_file(tmp_path, signed_report):
    path = tmp_path / "modified.pdf"
    path.write_bytes(signed_report + b"\n% appended\n")
    return path


# ----------------------------------------------------------------------------- pinning


def test_pin_with_the_fingerprint_then_trusted(signed_file, self_signed, user_config_dir,
                                               capsys, worked, catalog, tmp_path):
    assert main(["verify", str(signed_file)]) == 1
    capsys.readouterr()
    spoken = identity.grouped(self_signed[0].fingerprint).lower()  # as a person types it
    assert main(["verify", str(signed_file), "--pin", spoken]) == 0
    out = capsys.readouterr().out
    assert "valid and trusted" in out and "pinned" in out
    (pinned,) = (user_config_dir / "trust").iterdir()
    assert pinned.name.startswith("pinned-") and pinned.suffix == ".pem"
    # a later report from the same signer is trusted without --trust
    later = tmp_path / "later.pdf"
    later.write_bytes(build_report(worked.scenario, worked.result, lang="de", catalog=catalog,
                                   report_date=REPORT_DATE, identity=self_signed[0]))
    assert main(["verify", str(later)]) == 0
    assert "valid and trusted" in capsys.readouterr().out


def test_pin_refuses_another_fingerprint(signed_file, user_config_dir, capsys):
    other = " ".join(["ABCD"] * 16)
    assert main(["verify", str(signed_file), "--pin", other]) == 2
    err = capsys.readouterr().err
    assert "not pinned" in err and "ABCD ABCD" in err
    assert not (user_config_dir / "trust").exists()
    assert main(["verify", str(signed_file), "--pin", "12:34"]) == 2
    assert "64 hexadecimal digits" in capsys.readouterr().err


def test_pin_refuses_a_modified_report(modified_file, user_config_dir, capsys):
    assert main(["verify", str(modified_file), "--pin"]) == 2
    assert "cannot be pinned" in capsys.readouterr().err
    assert not (user_config_dir / "trust").exists()


def test_pin_of_an_organisation_signer_trusts_its_reports(worked, catalog, org_pki,
                                                          user_config_dir, tmp_path):
    from report_helpers import PASSPHRASE

    imported = identity.import_pkcs12(org_pki.signer_p12, PASSPHRASE, tmp_path / "id.p12")
    pdf = build_report(worked.scenario, worked.result, catalog=catalog,
                       report_date=REPORT_DATE, identity=imported)
    outcome = verify.verify_bytes(pdf, verify.trust_anchors())
    assert outcome.status == verify.INTACT_UNTRUSTED
    verify.pin(outcome, imported.fingerprint)
    assert verify.verify_bytes(pdf, verify.trust_anchors()).trusted


# ----------------------------------------------------------------------------- its scenario


def test_size_refuses_a_report_modified_after_signing(modified_file, capsys):
    assert main(["size", str(modified_file)]) == 2
    err = capsys.readouterr().err
    assert "modified after signing" in err and "--accept-modified" in err


def test_size_accepts_a_modified_report_when_asked_and_warns(modified_file, capsys):
    assert main(["size", str(modified_file), "--accept-modified"]) == 0
    captured = capsys.readouterr()
    assert "warning" in captured.err and "may not be what was signed" in captured.err
    assert captured.out


def test_size_uses_an_intact_or_unsigned_report(signed_file, tmp_path, report_en, capsys):
    assert main(["size", str(signed_file)]) == 0
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(report_en)
    assert main(["size", str(plain)]) == 0
    assert capsys.readouterr().err == ""


def test_report_command_refuses_a_modified_report(modified_file, tmp_path, capsys):
    out = tmp_path / "again.pdf"
    assert main(["report", str(modified_file), "-o", str(out), "--no-sign"]) == 2
    assert not out.exists()
    assert "modified after signing" in capsys.readouterr().err


# ----------------------------------------------------------------------------- bounds


def test_a_300_mb_file_is_refused_from_its_size(tmp_path):
    path = tmp_path / "huge.pdf"
    with path.open("wb") as stream:  # sparse: no 300 MB written to the test disk
        stream.write(b"%PDF-1.7\n")
        stream.truncate(300_000_000)
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "app", "verify", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "300.0 MB" in run.stderr and f"{MAX_REPORT_BYTES / 1e6:.1f} MB" in run.stderr
    assert "Traceback" not in run.stderr
    assert time.monotonic() - started < 60  # the start of Python, not the reading
    with pytest.raises(verify.ReportFileError, match="300.0 MB"):
        verify.verify_file(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "report.pdf"
    os.mkfifo(fifo)
    assert main(["verify", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err
