"""File > Print report (Ctrl+P): the report as the Report page shows it, on a printer or into
a PDF file through the print dialog's "Print to file".

The signed PDF with the scenario attached stays File > Export report; printing is the quick
paper copy. The page is laid out by Qt's text engine from the same HTML the Report page shows,
so what is printed is what the user read.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QTextDocument
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from app.domain.result import SizingResult
from app.ui.text import t

MARGIN_MM = 15.0


def report_document(html: str) -> QTextDocument:
    document = QTextDocument()
    document.setHtml(html)
    return document


def print_html(html: str, printer: QPrinter) -> None:
    """Lay ``html`` out on the printer's pages, A4 with 15 mm margins unless the user chose
    otherwise in the dialog."""
    report_document(html).print_(printer)


def new_printer() -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                      QPageLayout.Orientation.Portrait,
                                      QMarginsF(*[MARGIN_MM] * 4), QPageLayout.Unit.Millimeter))
    printer.setDocName(t("AI Sizer report"))
    return printer


def print_to_pdf(html: str, path: Path) -> Path:
    """The printed report as a PDF file at ``path`` (what "Print to file" writes)."""
    printer = new_printer()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    print_html(html, printer)
    return path


def print_report(result: SizingResult | None, html: str, parent: QWidget) -> bool:
    """Ask for a printer and print; False when there is nothing to print or the user
    cancelled."""
    if result is None:
        QMessageBox.information(parent, t("Print report"), t(
            "There is no result to print yet: correct the marked fields first."))
        return False
    printer = new_printer()
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(t("Print report"))
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    print_html(html, printer)
    return True
