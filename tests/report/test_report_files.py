"""Attachments, reproducibility, fonts, and `aisizer report` as a command.

- the scenario and result attached to a report come back equal to the input;
- `aisizer size REPORT.pdf` restores the scenario from a report;
- the same scenario gives the same unsigned bytes (reportlab invariant mode);
- every font is an embedded DejaVu subset (pdffonts);
- a wrong passphrase is one sentence, exit status 2, and no file is left behind.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from report_helpers import PASSPHRASE, REPORT_DATE

from app.cli import main
from app.domain.scenario import Scenario
from app.report import attachments
from app.report.export import build_report, scenario_json
from app.report.identity import grouped


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_attached_scenario_and_result_round_trip(tmp_path, report_en, worked):
    files = attachments.read_attachments(write(tmp_path, "r.pdf", report_en))
    assert json.loads(files["scenario.json"]) == worked.scenario
    assert json.loads(files["result.json"]) == worked.result.model_dump(mode="json")
    assert attachments.scenario_from_report(tmp_path / "r.pdf") == worked.scenario


def test_signed_report_round_trips_too(tmp_path, signed_report, worked):
    path = write(tmp_path, "s.pdf", signed_report)
    assert attachments.scenario_from_report(path) == worked.scenario


def test_a_scenario_model_is_attached_whole():
    model = Scenario.model_validate({"model": "llama-3-8b", "name": "Tiny"})
    restored = json.loads(scenario_json(model))
    assert Scenario.model_validate(restored) == model


def test_size_restores_the_scenario_from_a_report(tmp_path, report_en, worked, capsys):
    path = write(tmp_path, "r.pdf", report_en)
    assert main(["size", str(path), "--json"]) == 0
    restored = json.loads(capsys.readouterr().out)
    assert restored["inputs"]["name"] == worked.scenario["name"]
    assert restored["memory"] == worked.result.model_dump(mode="json")["memory"]


def test_size_of_a_pdf_without_a_scenario_is_one_sentence(tmp_path, capsys):
    path = write(tmp_path, "other.pdf", b"%PDF-1.4\nnot really\n")
    assert main(["size", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "other.pdf" in err


def test_same_scenario_gives_identical_unsigned_bytes(report_en, worked, catalog):
    again = build_report(worked.scenario, worked.result, lang="en", catalog=catalog,
                         report_date=REPORT_DATE)
    assert again == report_en


needs_pdffonts = pytest.mark.skipif(shutil.which("pdffonts") is None,
                                    reason="pdffonts (Debian package poppler-utils) is not "
                                           "installed")


def fonts(path) -> list[tuple[str, str, str]]:
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True,
                         timeout=60).stdout.splitlines()[2:]
    return [(line.split()[0], line.split()[-5], line.split()[-4]) for line in out]


@needs_pdffonts
@pytest.mark.parametrize("which", ["report_en", "report_de", "signed_report"])
def test_only_embedded_dejavu_subsets(tmp_path, request, which):
    listed = fonts(write(tmp_path, f"{which}.pdf", request.getfixturevalue(which)))
    assert {name.split("+", 1)[1] for name, _, _ in listed} == {"DejaVuSans", "DejaVuSans-Bold"}
    for name, embedded, subset in listed:
        assert "+" in name and embedded == "yes" and subset == "yes", name


def test_cli_report_writes_an_unsigned_report(tmp_path, capsys):
    out = tmp_path / "out.pdf"
    assert main(["report", "--example", "small-chat", "-o", str(out), "--paper", "letter"]) == 0
    assert "not signed" in capsys.readouterr().out
    assert out.read_bytes().startswith(b"%PDF-")
    assert list(tmp_path.iterdir()) == [out]


def test_cli_report_signs_with_a_passphrase_file(tmp_path, self_signed, capsys):
    secret = write(tmp_path, "pass.txt", (PASSPHRASE + "\n").encode())
    out = tmp_path / "signed.pdf"
    assert main(["report", "--example", "small-chat", "-o", str(out), "--sign",
                 str(self_signed[1]), "--passphrase-file", str(secret), "--lang", "de"]) == 0
    assert grouped(self_signed[0].fingerprint) in capsys.readouterr().out  # groups of four (#14)
    assert main(["verify", str(out), "--trust", str(self_signed[1].with_suffix(".pem"))]) == 0


def test_cli_wrong_passphrase_is_one_sentence_and_leaves_no_file(tmp_path, self_signed,
                                                                 monkeypatch, capsys):
    monkeypatch.setenv("AISIZER_SIGNING_PASSPHRASE", "wrong passphrase")
    out = tmp_path / "out.pdf"
    assert main(["report", "--example", "worked-example", "-o", str(out), "--sign",
                 str(self_signed[1])]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "passphrase is wrong" in captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    assert list(tmp_path.iterdir()) == []


def test_cli_report_invalid_scenario_exits_two(tmp_path, capsys):
    bad = write(tmp_path, "bad.json", b'{"model": "no-such-model"}')
    assert main(["report", str(bad), "-o", str(tmp_path / "x.pdf")]) == 2
    assert "no-such-model" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()
