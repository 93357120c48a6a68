"""File > Export test plan: the load test of the sizing, as a folder of scripts and a README."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from app import APP_NAME, api
from app.testplan import write_plan
from app.ui import files
from app.ui.controller import Controller
from app.ui.text import language, render, t


def export_test_plan(parent: QWidget, controller: Controller,
                     folder: Path | None = None) -> list[Path]:
    """Ask for a folder (unless ``folder`` is given) and write the test plan into it.

    Files of an earlier plan in the folder are replaced only when the user agrees. Returns
    the files written (none when cancelled or refused).
    """
    if folder is None:
        chosen = QFileDialog.getExistingDirectory(parent, t("Export test plan into folder"),
                                                  files.last_folder())
        if not chosen:
            return []
        folder = Path(chosen)
    try:
        plan_files = api.test_plan_files(controller.scenario, language(), controller.catalog)
    except api.ScenarioError as exc:
        QMessageBox.warning(parent, APP_NAME, "\n".join(render(m) for m in exc.messages))
        return []
    present = [name for name in plan_files if (folder / name).exists()]
    if present and QMessageBox.question(
            parent, APP_NAME, t("{folder} already holds {names}. Replace them?",
                                folder=str(folder), names=", ".join(present))
    ) != QMessageBox.StandardButton.Yes:
        return []
    try:
        return write_plan(folder, plan_files)
    except OSError as exc:
        QMessageBox.critical(parent, APP_NAME, t("Cannot write into {folder}: {reason}",
                                                 folder=str(folder),
                                                 reason=exc.strerror or str(exc)))
        return []
