"""Screenshots of the Validation step and the report's "Predicted against measured" chapter.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/validation_shots.py

The measurements are the SAMPLE files of tests/measurements/fixtures/vllm (synthetic: AI
Sizer's own prediction for the small-chat example with the decode factors x0.85 and the
prefill factors x1.05), imported into the example in a throw-away configuration folder.
Writes validation-points.png, validation-charts.png, validation-fit.png and, when poppler's
pdftoppm is installed, report-measured.png next to this file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SAMPLES = sorted((ROOT / "tests" / "measurements" / "fixtures" / "vllm").glob("*.json"))


def scenario_with_samples(folder: Path) -> Path:
    from app import api
    from app.cli_measurements import save_into

    scenario = api.load_scenario(api.example("small-chat"))
    points = api.import_measurements(SAMPLES, scenario).points
    path = folder / "small-chat-measured.json"
    save_into(path, api.with_measurements(scenario, points))
    return path


def window_shots(scenario: Path) -> None:
    from PySide6.QtWidgets import QApplication

    from app.ui.app import SCREENSHOT_SIZE, application, make_window
    from app.ui.pages import row_of

    application()
    window = make_window(scenario)
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    window.controller.wait_until_idle()
    row = row_of("ValidationPage")
    window.go(row)
    QApplication.processEvents()
    bar = window.stack.widget(row).verticalScrollBar()
    for name, share in (("points", 0.0), ("charts", 0.42), ("fit", 1.0)):
        bar.setValue(int(bar.maximum() * share))
        QApplication.processEvents()
        window.grab().save(str(HERE / f"validation-{name}.png"))


def report_shot(scenario: Path, folder: Path) -> None:
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        print("pdftoppm not found: report-measured.png not made")
        return
    from app import api
    from app.catalog import default_catalog
    from app.report.export import build_report

    data = api._parse(scenario)
    pdf = build_report(data, api.size(api.load_scenario(data)), catalog=default_catalog())
    report = folder / "report.pdf"
    report.write_bytes(pdf)
    text = subprocess.run(["pdftotext", str(report), "-"], capture_output=True,
                          text=True).stdout
    pages = text.split("\f")
    page = next(i + 1 for i, p in enumerate(pages) if "Predicted against measured\n" in p
                and "Each point beside the prediction" in p)
    subprocess.run([pdftoppm, "-png", "-r", "60", "-f", str(page), "-l", str(page),
                    "-singlefile", str(report), str(HERE / "report-measured")], check=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["AISIZER_CONFIG_DIR"] = str(Path(folder) / "config")
        sys.path.insert(0, str(ROOT))
        scenario = scenario_with_samples(Path(folder))
        window_shots(scenario)
        report_shot(scenario, Path(folder))
    print(f"wrote the screenshots into {HERE}")


if __name__ == "__main__":
    main()
