"""File > Export report and Help > Verify report from the window."""

import pytest

from app.api import ScenarioError
from app.report import identity as identities
from app.report.verify import INTACT_UNTRUSTED, NOT_SIGNED, VALID_AND_TRUSTED
from app.ui.dialogs.report_dialogs import ExportDialog, IdentityDialog, VerifyDialog

PASS = "correct horse battery"


def test_unsigned_export_and_verify(qtbot, controller, tmp_path):
    dialog = ExportDialog(controller)
    qtbot.addWidget(dialog)
    path = tmp_path / "report.pdf"
    assert dialog.export_to(path, "en", "a4", False, "") == ""
    assert path.read_bytes().startswith(b"%PDF-")
    assert VerifyDialog.verify(path, []).status == NOT_SIGNED


def test_signed_export_is_intact_and_trusted_with_its_certificate(qtbot, controller, tmp_path):
    assert IdentityDialog.create_identity("Ada Analyst", "Bank", "ada@bank.example", PASS,
                                          PASS) == ""
    dialog = ExportDialog(controller)
    qtbot.addWidget(dialog)
    path = tmp_path / "signed.pdf"
    assert dialog.export_to(path, "de", "letter", True, PASS) == ""
    assert VerifyDialog.verify(path, []).status == INTACT_UNTRUSTED
    trusted = VerifyDialog.verify(path, [identities.certificate_path()])
    assert trusted.status == VALID_AND_TRUSTED
    assert trusted.signer == "Ada Analyst"


def test_wrong_passphrase_is_one_sentence_and_no_file(qtbot, controller, tmp_path):
    IdentityDialog.create_identity("Ada", "Bank", "ada@bank.example", PASS, PASS)
    dialog = ExportDialog(controller)
    qtbot.addWidget(dialog)
    path = tmp_path / "r.pdf"
    problem = dialog.export_to(path, "en", "a4", True, "wrong passphrase")
    assert "passphrase" in problem and "\n" not in problem
    assert not path.exists()


def test_identity_input_is_checked():
    assert IdentityDialog.create_identity("", "Org", "a@b", PASS, PASS)
    assert IdentityDialog.create_identity("A", "Org", "a@b", "short", "short")
    assert IdentityDialog.create_identity("A", "Org", "a@b", PASS, PASS + "x")


def test_open_the_scenario_a_report_carries(qtbot, controller, tmp_path):
    export = ExportDialog(controller)
    qtbot.addWidget(export)
    path = tmp_path / "report.pdf"
    controller.edit("workload.concurrent_users", 12)
    controller.recompute()
    export.export_to(path, "en", "a4", False, "")
    controller.new()
    verify = VerifyDialog(controller)
    qtbot.addWidget(verify)
    verify.path.setText(str(path))
    assert verify.open_scenario() == ""
    assert controller.scenario.workload.concurrent_users == 12


def test_a_file_that_is_not_a_report(qtbot, controller, tmp_path):
    bad = tmp_path / "x.pdf"
    bad.write_text("not a pdf")
    outcome = VerifyDialog.verify(bad, [])
    assert isinstance(outcome, str) or outcome.status != VALID_AND_TRUSTED


def test_export_includes_pinned_options(qtbot, controller, tmp_path):
    from pypdf import PdfReader

    from app.ui.pages.compare import ComparePage

    compare = ComparePage(controller)
    qtbot.addWidget(compare)
    controller.comparison.pin(controller.data, controller.catalog, "Option A")
    dialog = ExportDialog(controller)
    qtbot.addWidget(dialog)
    assert not dialog.include_pins.isChecked()  # pins go in only when ticked (issue 13)
    assert dialog.include_pins.text() == "Include the option pinned on the Compare page"
    unticked = tmp_path / "alone.pdf"
    assert dialog.export_to(unticked, "en", "a4", False, "") == ""
    text = " ".join(page.extract_text() for page in PdfReader(unticked).pages)
    assert "A: Option A" not in text
    dialog.include_pins.setChecked(True)
    path = tmp_path / "compared.pdf"
    assert dialog.export_to(path, "en", "a4", False, "") == ""
    text = " ".join(page.extract_text() for page in PdfReader(path).pages)
    assert "Compared options" in text and "A: Option A" in text


def test_opening_a_report_restores_its_scenario(qtbot, controller, tmp_path):
    export = ExportDialog(controller)
    qtbot.addWidget(export)
    controller.edit("workload.concurrent_users", 17)
    controller.recompute()
    path = tmp_path / "r.pdf"
    export.export_to(path, "en", "a4", False, "")
    controller.new()
    controller.open(path)
    assert controller.scenario.workload.concurrent_users == 17
    assert controller.path is None  # a report is not overwritten by Save


def test_verify_dialog_leads_with_the_fingerprint_and_pins(qtbot, controller, tmp_path):
    IdentityDialog.create_identity("Ada Analyst", "Bank", "ada@bank.example", PASS, PASS)
    signer = identities.load(None, PASS)
    export = ExportDialog(controller)
    qtbot.addWidget(export)
    path = tmp_path / "signed.pdf"
    assert export.export_to(path, "en", "a4", True, PASS) == ""
    for name in identities.certificate_path().parent.glob("identity.*"):
        name.unlink()  # the reader's machine: no identity, nothing trusted yet
    dialog = VerifyDialog(controller)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(path))
    dialog.check()
    shown = dialog.outcome.text()
    groups = identities.grouped(signer.fingerprint).split()
    assert shown.index(" ".join(groups[:8])) < shown.index("intact but signer not trusted")
    assert "only a claim" in shown
    assert dialog.pin_button.isEnabled()
    assert dialog.pin() == ""
    assert "valid and trusted" in dialog.outcome.text()
    assert not dialog.pin_button.isEnabled()


def test_a_modified_report_is_not_opened(qtbot, controller, tmp_path):
    IdentityDialog.create_identity("Ada Analyst", "Bank", "ada@bank.example", PASS, PASS)
    export = ExportDialog(controller)
    qtbot.addWidget(export)
    path = tmp_path / "signed.pdf"
    controller.edit("workload.concurrent_users", 12)
    controller.recompute()
    assert export.export_to(path, "en", "a4", True, PASS) == ""
    path.write_bytes(path.read_bytes() + b"\n% changed\n")
    controller.new()
    before = controller.scenario.workload.concurrent_users
    dialog = VerifyDialog(controller)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(path))
    problem = dialog.open_scenario()
    assert "modified after signing" in problem and "not opened" in problem
    assert controller.scenario.workload.concurrent_users == before
    with pytest.raises(ScenarioError, match="not opened"):
        controller.open(path)
