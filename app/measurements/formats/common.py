"""What every format does with a run once it has read its figures: one MeasuredPoint."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from app.domain.measurements import MeasuredPoint
from app.i18n import msg
from app.measurements.reading import FileProblem, ResultFile

MS = 1e-3


def make_point(file: ResultFile, tool: str, label: str, **figures: Any) -> MeasuredPoint:
    """A point with the file's name and hash; FileProblem names what does not validate."""
    try:
        return MeasuredPoint(tool=tool, source_file=file.name, source_sha256=file.sha256,
                             label=label, **figures)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "run"
        raise FileProblem(msg("'{file}' ({tool}), {label}: {field} {problem}", file=file.name,
                              tool=tool, label=label or "run", field=where,
                              problem=first["msg"])) from None


def only_documents(documents: list[Any], kind: type) -> bool:
    return bool(documents) and all(isinstance(d, kind) for d in documents)


def load_of(concurrency: float | None, rate: float | None) -> dict[str, Any]:
    """The load fields: a request rate when one was set, else the concurrency."""
    if rate is not None:
        return {"load": "request_rate", "request_rate": rate, "concurrency": concurrency}
    return {"load": "concurrency", "concurrency": concurrency}
