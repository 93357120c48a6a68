"""A plain CSV for any other load generator: one row per load level.

Header (case and surrounding spaces ignored; comma or semicolon separated):

- the load: ``concurrency`` (users) or ``request_rate`` (requests/s), one of them per row;
- ``ttft_ms`` or ``ttft_s``: mean time to first token;
- ``itl_ms`` or ``itl_s``: mean inter-token latency;
- ``output_tokens_per_s``: aggregate output rate;
- optional: ``prompt_tokens``, ``output_tokens`` (mean lengths; the scenario's when absent),
  ``tokens_per_s_per_user``, ``completed``, ``failed``.

Lines starting with ``#`` are comments.
"""

from __future__ import annotations

import csv
import io
import math

from app.domain.measurements import MeasuredPoint
from app.i18n import msg
from app.measurements.formats import Format
from app.measurements.formats.common import MS, load_of, make_point
from app.measurements.reading import FileProblem, ResultFile

FORMAT = Format(id="csv", tool="CSV", file="concurrency, ttft_ms, itl_ms, output_tokens_per_s",
                source="AI Sizer's plain format (docs/METHOD.md, 'Reading the results')")
REQUIRED = (("concurrency", "request_rate"), ("ttft_ms", "ttft_s"), ("itl_ms", "itl_s"),
            ("output_tokens_per_s",))
OPTIONAL = ("prompt_tokens", "output_tokens", "tokens_per_s_per_user", "completed", "failed")


def content_lines(text: str) -> list[str]:
    """The lines that are not blank and not comments (``#``)."""
    return [line for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def header_of(text: str) -> list[str] | None:
    lines = content_lines(text)
    first = lines[0] if lines else ""
    if first.lstrip().startswith(("{", "[")):
        return None
    delimiter = ";" if first.count(";") > first.count(",") else ","
    return [cell.strip().lower() for cell in next(csv.reader([first], delimiter=delimiter))]


def matches(text: str) -> bool:
    header = header_of(text)
    return header is not None and bool({"concurrency", "request_rate"} & set(header))


def rows_of(text: str) -> tuple[list[str], list[list[str]]]:
    lines = content_lines(text)
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    rows = [row for row in reader if any(cell.strip() for cell in row)]
    return [cell.strip().lower() for cell in rows[0]], rows[1:]


def cell_number(row: dict, name: str, file: ResultFile, line: int) -> float | None:
    text = (row.get(name) or "").strip()
    if not text:
        return None
    try:
        value = float(text.replace(",", ".")) if text.count(",") == 1 and "." not in text \
            else float(text)
    except ValueError:
        raise FileProblem(msg("'{file}' (CSV), row {line:,}: '{column}' is '{value}', not a "
                              "number", file=file.name, line=line, column=name,
                              value=text[:40])) from None
    if not math.isfinite(value) or value < 0:
        raise FileProblem(msg("'{file}' (CSV), row {line:,}: '{column}' is '{value}'; it must "
                              "be a number of at least 0", file=file.name, line=line,
                              column=name, value=text[:40]))
    return value


def first_of(row: dict, names: tuple[str, ...], file: ResultFile, line: int
             ) -> tuple[str, float | None]:
    for name in names:
        value = cell_number(row, name, file, line)
        if value is not None:
            return name, value
    return names[0], None


def row_point(row: dict, line: int, file: ResultFile, lengths: tuple[float, float]
              ) -> MeasuredPoint:
    values = {}
    for names in REQUIRED:
        name, value = first_of(row, names, file, line)
        if value is None:
            raise FileProblem(msg("'{file}' (CSV), row {line:,}: no value for '{column}'",
                                  file=file.name, line=line, column=" or ".join(names)))
        values[names[0]] = (name, value)
    extra = {name: cell_number(row, name, file, line) for name in OPTIONAL}
    load_name, load = values["concurrency"]
    ttft_name, ttft = values["ttft_ms"]
    itl_name, itl = values["itl_ms"]
    concurrency = load if load_name == "concurrency" else None
    rate = load if load_name == "request_rate" else None
    label = f"row {line}: " + (f"concurrency {load:g}" if concurrency else f"{load:g}/s")
    return make_point(
        file, "CSV", label, **load_of(concurrency, rate),
        prompt_tokens=extra["prompt_tokens"] or lengths[0],
        output_tokens=extra["output_tokens"] if extra["output_tokens"] is not None
        else lengths[1],
        ttft_s=ttft * (MS if ttft_name.endswith("_ms") else 1.0),
        itl_s=itl * (MS if itl_name.endswith("_ms") else 1.0),
        output_tokens_per_s=values["output_tokens_per_s"][1],
        tokens_per_s_per_user=extra["tokens_per_s_per_user"],
        completed=None if extra["completed"] is None else int(extra["completed"]),
        failed=None if extra["failed"] is None else int(extra["failed"]))


def points(file: ResultFile, lengths: tuple[float, float]) -> list[MeasuredPoint]:
    header, rows = rows_of(file.text)
    missing = [" or ".join(names) for names in REQUIRED if not set(names) & set(header)]
    if missing:
        raise FileProblem(msg("'{file}' (CSV) lacks the column '{column}'", file=file.name,
                              column=missing[0]))
    if not rows:
        raise FileProblem(msg("'{file}' (CSV) has a header but no rows", file=file.name))
    found = []
    for offset, cells in enumerate(rows):
        if len(cells) != len(header):
            raise FileProblem(msg("'{file}' (CSV), row {line:,} has {cells:,} cells, the "
                                  "header {columns:,} (is the file cut off?)", file=file.name,
                                  line=offset + 1, cells=len(cells), columns=len(header)))
        found.append(row_point(dict(zip(header, cells, strict=True)), offset + 1, file,
                               lengths))
    return found
