"""The local signing identity: create, import, show; passphrases; atomic files."""

from __future__ import annotations

import json
import os
import stat

import pytest
from cryptography import x509
from cryptography.x509.oid import NameOID
from report_helpers import PASSPHRASE

from app.cli import main
from app.report import identity


def test_created_identity_has_name_organisation_email_and_signer_key_usage(self_signed):
    made, path = self_signed
    cert = made.certificate
    assert made.name == "Jörg Müller"
    assert made.organisation == "Muster GmbH" and made.email == "joerg@example.org"
    usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
    assert usage.digital_signature and usage.content_commitment  # nonRepudiation
    assert not usage.key_cert_sign
    assert cert.issuer == cert.subject  # self-signed
    assert len(made.fingerprint) == 32 * 3 - 1 and made.fingerprint.count(":") == 31
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert identity.read_certificates(path.with_suffix(".pem"))[0] == cert


def test_load_with_the_right_passphrase(self_signed):
    made, path = self_signed
    loaded = identity.load(path, PASSPHRASE)
    assert loaded.fingerprint == made.fingerprint


def test_wrong_passphrase_is_one_sentence(self_signed):
    with pytest.raises(identity.IdentityError) as caught:
        identity.load(self_signed[1], "wrong")
    text = str(caught.value)
    assert "passphrase is wrong" in text and "\n" not in text


def test_import_organisation_identity_keeps_its_chain(org_pki, tmp_path):
    target = tmp_path / "identity.p12"
    imported = identity.import_pkcs12(org_pki.signer_p12, PASSPHRASE, target)
    reloaded = identity.load(target, PASSPHRASE)
    assert reloaded.chain == (org_pki.ca_certificate,)
    assert imported.certificate.issuer == org_pki.ca_certificate.subject
    pem = identity.read_certificates(target.with_suffix(".pem"))
    assert pem == [imported.certificate, org_pki.ca_certificate]


def test_cli_create_show_and_refuse_to_overwrite(user_config_dir, tmp_path, capsys):
    secret = tmp_path / "pass.txt"
    secret.write_text("s3cret passphrase\n", encoding="utf-8")
    args = ["identity", "create", "--name", "Ana Silva", "--organisation", "Integrator SA",
            "--email", "ana@example.com", "--passphrase-file", str(secret)]
    assert main(args) == 0
    created = capsys.readouterr().out
    assert (user_config_dir / "identity.p12").is_file()
    assert identity.load(None, "s3cret passphrase").name == "Ana Silva"
    assert main(["identity", "show", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["sha256_fingerprint"] in created
    assert "CN=Ana Silva" in shown["subject"]
    assert main(args) == 2
    assert "already exists" in capsys.readouterr().err
    assert not [p for p in user_config_dir.iterdir() if p.name.endswith(".part")]


def test_cli_import_with_a_wrong_passphrase_writes_nothing(user_config_dir, org_pki,
                                                           monkeypatch, capsys):
    monkeypatch.setenv("AISIZER_SIGNING_PASSPHRASE", "not it")
    assert main(["identity", "import", str(org_pki.signer_p12)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "passphrase is wrong" in err and "Traceback" not in err
    assert list(user_config_dir.iterdir()) == []
    monkeypatch.setenv("AISIZER_SIGNING_PASSPHRASE", PASSPHRASE)
    assert main(["identity", "import", str(org_pki.signer_p12)]) == 0
    assert "1 chain certificate" in capsys.readouterr().out


def test_passphrase_asked_on_the_terminal(user_config_dir, monkeypatch, capsys):
    answers = iter(["typed passphrase", "typed passphrase"])
    monkeypatch.delenv("AISIZER_SIGNING_PASSPHRASE", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    assert main(["identity", "create", "--name", "Tty User"]) == 0
    assert identity.load(None, "typed passphrase").name == "Tty User"
    cert = identity.read_certificates(user_config_dir / "identity.pem")[0]
    assert not cert.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)


def test_no_passphrase_without_a_terminal_is_one_sentence(user_config_dir, monkeypatch,
                                                          capsys):
    monkeypatch.delenv("AISIZER_SIGNING_PASSPHRASE", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["identity", "create", "--name", "Script"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--passphrase-file" in err


def test_atomic_write_replaces_and_cleans_up(tmp_path):
    target = tmp_path / "file.bin"
    identity.write_atomically(target, b"one")
    identity.write_atomically(target, b"two")
    assert target.read_bytes() == b"two"
    assert os.listdir(tmp_path) == ["file.bin"]
