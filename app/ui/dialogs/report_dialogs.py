"""File > Export report, the signing identity, and Help > Verify report.

The PDF is built from the controller's scenario and result alone (app.report), never from
widgets. The work is in plain methods (``export_to``, ``create_identity``, ``verify``) that the
tests call; the dialogs only collect the inputs.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.api import ScenarioError
from app.i18n import LANGUAGES, msg, plural
from app.report import identity as identities
from app.report.export import build_report, write_report
from app.report.identity import IdentityError
from app.report.verify import (
    INTACT_UNTRUSTED,
    NOT_SIGNED,
    PRINTED_CLAIM,
    PinError,
    ReportFileError,
    Verification,
    pin,
    verify_file,
)
from app.ui.controller import Controller, scenario_of_report
from app.ui.text import language, render, t

ERROR_STYLE = "color: #c62828;"


def password_field() -> QLineEdit:
    field = QLineEdit()
    field.setEchoMode(QLineEdit.EchoMode.Password)
    return field


class IdentityDialog(QDialog):
    """Create the local signing identity (self-signed certificate + passphrase)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(t("Create signing identity"))
        self.name, self.organisation, self.email = QLineEdit(), QLineEdit(), QLineEdit()
        self.passphrase, self.repeat = password_field(), password_field()
        self.message = QLabel(wordWrap=True)
        self.message.setStyleSheet(ERROR_STYLE)
        form = QFormLayout(self)
        for label, widget in ((t("Name"), self.name), (t("Organisation"), self.organisation),
                              (t("Email"), self.email), (t("Passphrase"), self.passphrase),
                              (t("Repeat passphrase"), self.repeat)):
            form.addRow(label, widget)
        form.addRow(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.create)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def create(self) -> None:
        problem = self.create_identity(self.name.text(), self.organisation.text(),
                                       self.email.text(), self.passphrase.text(),
                                       self.repeat.text())
        if problem:
            self.message.setText(problem)
        else:
            self.accept()

    @staticmethod
    def create_identity(name: str, organisation: str, email: str, passphrase: str,
                        repeat: str) -> str:
        """Create and store the identity; returns a problem sentence or ''."""
        if not name.strip() or not organisation.strip() or "@" not in email:
            return t("Enter a name, an organisation and an email address.")
        if len(passphrase) < 8:
            return t("The passphrase needs at least 8 characters.")
        if passphrase != repeat:
            return t("The two passphrases differ.")
        identities.create(name.strip(), organisation.strip(), email.strip(), passphrase)
        return ""


class ExportDialog(QDialog):
    """Choose file, language, paper and signing; then write the PDF atomically."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.setWindowTitle(t("Export report"))
        self.path = QLineEdit()
        browse = QPushButton(t("Choose…"))
        browse.clicked.connect(self.choose)
        self.lang = QComboBox()
        for code, name in LANGUAGES.items():
            self.lang.addItem(name, code)
        self.lang.setCurrentIndex(list(LANGUAGES).index(language()))
        self.paper = QComboBox()
        self.paper.addItem("A4", "a4")
        self.paper.addItem("Letter", "letter")
        pinned = len(getattr(controller, "comparison", None) or [])
        self.include_pins = QCheckBox(render(plural(
            pinned, msg("Include the option pinned on the Compare page"),
            msg("Include the {n} options pinned on the Compare page"), n=pinned)))
        self.include_pins.setVisible(pinned > 0)  # unticked: pins go in only when asked for
        self.sign = QCheckBox(t("Sign with my identity"))
        self.passphrase = password_field()
        self.new_identity = QPushButton(t("Create signing identity…"))
        self.new_identity.clicked.connect(self.create_identity)
        self.message = QLabel(wordWrap=True)
        self.message.setStyleSheet(ERROR_STYLE)
        form = QFormLayout(self)
        form.addRow(t("File"), self.path)
        form.addRow("", browse)
        form.addRow(t("Language"), self.lang)
        form.addRow(t("Paper"), self.paper)
        form.addRow("", self.include_pins)
        form.addRow("", self.sign)
        form.addRow(t("Passphrase"), self.passphrase)
        form.addRow("", self.new_identity)
        form.addRow(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.export)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.refresh_identity()

    def refresh_identity(self) -> None:
        has = identities.identity_path().is_file()
        self.sign.setEnabled(has)
        self.sign.setChecked(has)
        self.passphrase.setEnabled(has)

    def choose(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, t("Export report"), "report.pdf",
                                              "PDF (*.pdf)")
        if path:
            self.path.setText(path if path.endswith(".pdf") else path + ".pdf")

    def create_identity(self) -> None:
        if IdentityDialog(self).exec():
            self.refresh_identity()

    def export(self) -> None:
        problem = self.export_to(Path(self.path.text()), self.lang.currentData(),
                                 self.paper.currentData(), self.sign.isChecked(),
                                 self.passphrase.text())
        if problem:
            self.message.setText(problem)
        else:
            self.accept()

    def compared(self) -> list:
        """The options pinned on the Compare page, shown beside this sizing in the report
        when the user ticked them in."""
        comparison = getattr(self.controller, "comparison", None)
        if comparison is None or not self.include_pins.isChecked():
            return []
        return [(f"{comparison.letter(i)}: {option.name}", option.result)
                for i, option in enumerate(comparison.options)]

    def export_to(self, path: Path, lang: str, paper: str, sign: bool,
                  passphrase: str) -> str:
        """Write the report; returns a problem sentence or '' (no file on failure)."""
        if not str(path) or path.suffix.lower() != ".pdf":
            return t("Choose a file name ending in .pdf.")
        self.controller.wait_until_idle()  # the result of the scenario as it is, with levers
        if self.controller.stale:
            return t("An input is invalid, so the figures are an earlier input's: correct it "
                     "first, then export.")
        result = self.controller.result
        if result is None:
            return t("The scenario has no result to report yet.")
        try:
            signer = identities.load(None, passphrase) if sign else None
            pdf = build_report(self.controller.data, result, lang=lang, paper=paper,
                               identity=signer, catalog=self.controller.catalog,
                               compared=self.compared())
            write_report(path, pdf)
        except identities.IdentityError as exc:
            return str(exc)
        except OSError as exc:
            return t("Cannot write {path}: {reason}", path=str(path), reason=exc.strerror or exc)
        return ""


class VerifyDialog(QDialog):
    """Check a report's signature and say what it means; pin its signer; open its scenario.

    The outcome leads with the signing certificate's fingerprint in groups of four, the one
    to compare by phone or letter; the fingerprint printed in the report is only a claim.
    """

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.last: Verification | None = None
        self.setWindowTitle(t("Verify report"))
        self.path = QLineEdit()
        self.trust = QLineEdit()
        self.trust.setPlaceholderText(t("Trusted CA certificates (PEM), optional"))
        check = QPushButton(t("Verify"))
        check.clicked.connect(self.check)
        browse = QPushButton(t("Choose…"))
        browse.clicked.connect(self.choose)
        self.outcome = QLabel(wordWrap=True)
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pin_button = QPushButton(t("Pin this signer…"))
        self.pin_button.setToolTip(t("Trust reports signed with this certificate from now on, "
                                     "once you have compared its fingerprint with the "
                                     "signer's"))
        self.pin_button.clicked.connect(self.ask_pin)
        self.pin_button.setEnabled(False)
        self.open_button = QPushButton(t("Open its scenario"))
        self.open_button.clicked.connect(self.open_scenario)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        form.addRow(t("Report"), self.path)
        form.addRow("", browse)
        form.addRow(t("Trust"), self.trust)
        layout.addLayout(form)
        layout.addWidget(check)
        layout.addWidget(self.outcome)
        layout.addWidget(self.pin_button)
        layout.addWidget(self.open_button)

    def trust_files(self) -> list[Path]:
        return [Path(p) for p in self.trust.text().split(";") if p]

    def check(self) -> None:
        self.show_outcome(self.verify(Path(self.path.text()), self.trust_files()))

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, t("Verify report"), "", "PDF (*.pdf)")
        if path:
            self.path.setText(path)

    @staticmethod
    def verify(path: Path, trust: list[Path]) -> Verification | str:
        """The verification, or a sentence when the file cannot be read."""
        try:
            return verify_file(path, trust or None)
        except (ReportFileError, IdentityError, OSError) as exc:
            return str(exc)

    def show_outcome(self, outcome: Verification | str) -> None:
        self.last = outcome if isinstance(outcome, Verification) else None
        self.pin_button.setEnabled(self.last is not None
                                   and self.last.status == INTACT_UNTRUSTED)
        self.outcome.setText(outcome_html(outcome))

    def ask_pin(self) -> None:
        """Ask the user to compare the fingerprint, then pin (the button's action)."""
        if self.last is None:
            return
        answer = QMessageBox.question(self, t("Pin this signer"), t(
            "Trust every report signed with this certificate from now on?\n\n{fp}\n\n"
            "Pin it only if the signer {name} has given you this same fingerprint by phone or "
            "letter. The fingerprint printed in the report does not count.",
            fp=self.last.fingerprint_groups, name=self.last.signer or "–"))
        if answer == QMessageBox.StandardButton.Yes:
            self.pin()

    def pin(self) -> str:
        """Pin the signer of the last verified report; returns a problem sentence or ''."""
        if self.last is None:
            return t("Verify a report first.")
        try:
            pin(self.last)
        except (PinError, OSError) as exc:
            self.outcome.setText(str(exc))
            return str(exc)
        self.check()
        return ""

    def open_scenario(self) -> str:
        """Load the scenario the report carries; returns a problem sentence or ''.

        A signed report modified after signing is refused, as File > Open refuses it.
        """
        try:
            data = scenario_of_report(Path(self.path.text()))
            self.controller.load(data, None)
        except (ReportFileError, OSError, ScenarioError) as exc:
            text = "\n".join(exc.problems) if isinstance(exc, ScenarioError) else str(exc)
            self.outcome.setText(text)
            return text
        return ""


def outcome_html(outcome: Verification | str) -> str:
    """What the dialog shows: the fingerprint to read aloud first, then the verdict."""
    if isinstance(outcome, str):
        return html.escape(outcome)
    lines = []
    if outcome.fingerprint:
        groups = outcome.fingerprint_groups.split()
        lines += [t("Signing certificate's SHA-256 fingerprint:"),
                  f"<tt><big>{' '.join(groups[:8])}<br>{' '.join(groups[8:])}</big></tt>",
                  html.escape(t(PRINTED_CLAIM))]
        if outcome.printed_matches is False:
            lines.append("<b>" + html.escape(t(
                "The fingerprint printed in the report does not match it.")) + "</b>")
        elif outcome.printed_matches is None:
            lines.append(html.escape(t("The report's pages print no fingerprint to compare.")))
    elif outcome.status == NOT_SIGNED:
        lines.append(html.escape(t("This report is not signed, whatever its pages show.")))
    lines += [f"<b>{html.escape(t(outcome.summary))}</b>", html.escape(t(outcome.detail))]
    if outcome.signer:
        lines.append(html.escape(t("Signed by {name} ({organisation}) on {time}",
                                   name=outcome.signer, organisation=outcome.organisation,
                                   time=outcome.signing_time)))
    if outcome.trust_anchor:
        lines.append(html.escape(t("Trust anchor: {anchor}", anchor=outcome.trust_anchor)))
    return "<br>".join(lines)
