"""Predicted against measured, per metric group: the plots in docs/METHOD.md, "Cross-validation".

Run from the repository root (``make cross-validation`` runs it after writing the residuals)::

    .venv/bin/python tests/validation/plot_cross_validation.py

Reads resources/calibration/cross_validation.json and writes
docs/images/cross-validation-<metric>.svg: each case's measurement (x) against the prediction
of the model fitted without the case's engine (dots) and fitted on every case (grey rings), on
log axes, with the line of perfect prediction and the lines of a factor of 2.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Circle, Drawing, Line, String
from reportlab.lib import colors

from app import paths

OUT = paths.root() / "docs" / "images"
TITLES = {"throughput": "Throughput [tokens/s]",
          "decode": "Decode: ITL, TPOT, e2e [ms] or tokens/s",
          "ttft": "TTFT [ms] (prefill rate: tokens/s)"}
SIZE, MARGIN = 360.0, 48.0


def scaled(value: float, low: float, high: float) -> float:
    share = (math.log10(value) - math.log10(low)) / (math.log10(high) - math.log10(low))
    return MARGIN + share * (SIZE - 1.5 * MARGIN)


def plot(records: list[dict], metric: str) -> Drawing:
    mine = [r for r in records if r["regime"]["metric_group"] == metric]
    values = [v for r in mine for v in (r["measured"], r["fitted"], r["left_out"]["engine"])]
    low = 10 ** math.floor(math.log10(min(values)))
    high = 10 ** math.ceil(math.log10(max(values)))
    drawing = Drawing(SIZE, SIZE)
    for factor, dash in ((1.0, None), (2.0, (3, 3)), (0.5, (3, 3))):
        # y = factor * x across the square: from where it enters to where it leaves
        x0, x1 = (low, high / factor) if factor >= 1 else (low / factor, high)
        line = Line(scaled(x0, low, high), scaled(x0 * factor, low, high),
                    scaled(x1, low, high), scaled(x1 * factor, low, high),
                    strokeColor=colors.grey, strokeWidth=0.6)
        if dash:
            line.strokeDashArray = dash
        drawing.add(line)
    for record in mine:
        x = scaled(record["measured"], low, high)
        drawing.add(Circle(x, scaled(record["fitted"], low, high), 2.4, fillColor=None,
                           strokeColor=colors.lightgrey, strokeWidth=0.6))
        drawing.add(Circle(x, scaled(record["left_out"]["engine"], low, high), 1.8,
                           fillColor=colors.HexColor("#1f5fa8"), strokeColor=None))
    decade = low
    while decade <= high:
        at = scaled(decade, low, high)
        drawing.add(String(at, MARGIN - 14, f"{decade:g}", fontSize=7, textAnchor="middle"))
        drawing.add(String(MARGIN - 4, at - 2, f"{decade:g}", fontSize=7, textAnchor="end"))
        decade *= 10
    drawing.add(Line(MARGIN, MARGIN, SIZE - MARGIN / 2, MARGIN, strokeColor=colors.black))
    drawing.add(Line(MARGIN, MARGIN, MARGIN, SIZE - MARGIN / 2, strokeColor=colors.black))
    drawing.add(String(SIZE / 2, 12, "measured", fontSize=8, textAnchor="middle"))
    drawing.add(String(MARGIN + 4, SIZE - MARGIN / 2 - 10, "predicted", fontSize=8))
    drawing.add(String(MARGIN, SIZE - 14, f"{TITLES[metric]}, {len(mine)} cases: dots = "
                       "engine left out, rings = in-sample; dashed = x2", fontSize=7))
    return drawing


def main() -> None:
    doc = json.loads(paths.cross_validation_file().read_text(encoding="utf-8"))
    OUT.mkdir(parents=True, exist_ok=True)
    for metric in TITLES:
        target = OUT / f"cross-validation-{metric}.svg"
        renderSVG.drawToFile(plot(doc["residuals"], metric), str(target))
        print(f"wrote {Path(target).relative_to(paths.root())}")


if __name__ == "__main__":
    main()
