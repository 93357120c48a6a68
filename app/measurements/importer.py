"""Import result files: every file whole, or nothing.

:func:`import_files` reads each file, recognises its format from its content (not its name),
turns every run in it into a :class:`~app.domain.measurements.MeasuredPoint`, and returns
them all; when any file cannot be read it raises :class:`MeasurementError` with one sentence
per such file (naming the file and the field) and imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from app.domain.measurements import MeasuredPoint
from app.i18n import Message, msg
from app.measurements.formats import FORMATS, JSON_FORMATS, Format, aiperf, plain_csv
from app.measurements.reading import FileProblem, ResultFile, json_documents, read_file

MAX_FILES = 200


class MeasurementError(ValueError):
    """Files that cannot be imported: ``messages`` holds one sentence per problem."""

    def __init__(self, messages: list[Message]):
        self.messages = messages
        self.problems = [m.text() for m in messages]
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class ImportedFile:
    name: str
    sha256: str
    format: Format
    points: int


@dataclass(frozen=True)
class ImportOutcome:
    """Every point of every file, and what each file was."""

    points: list[MeasuredPoint]
    files: list[ImportedFile] = field(default_factory=list)


def known_formats() -> str:
    return "; ".join(f"{f.tool} {f.file}" for f in FORMATS)


def not_a_result(file: ResultFile) -> FileProblem:
    return FileProblem(msg("'{file}' is not a result file AI Sizer reads; it reads: {formats}",
                           file=file.name, formats=known_formats()))


def read_points(file: ResultFile, lengths: tuple[float, float]
                ) -> tuple[Format, list[MeasuredPoint]]:
    """The format of ``file`` and its points (FileProblem when it is none of them)."""
    if plain_csv.matches(file.text):
        return plain_csv.FORMAT, plain_csv.points(file, lengths)
    lines = plain_csv.content_lines(file.text)
    if not lines or not lines[0].lstrip().startswith(("{", "[")):
        raise not_a_result(file)
    documents = json_documents(file)
    for module in JSON_FORMATS:
        if module.matches(documents):
            found = module.points(documents, file)
            if module is aiperf:
                return aiperf.tool_of(documents[0]), found
            return module.FORMAT, found
    raise not_a_result(file)


def import_files(paths: Iterable[str | Path], lengths: tuple[float, float]
                 ) -> ImportOutcome:
    """Read every file in ``paths``; all of them or none.

    Parameters
    ----------
    paths : result files of load generators
    lengths : (prompt, output) tokens to assume for a CSV without those columns (the
        scenario's request shape)

    Raises
    ------
    MeasurementError
        One sentence per file that cannot be imported; nothing is imported then.
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise MeasurementError([msg("no result file given")])
    if len(paths) > MAX_FILES:
        raise MeasurementError([msg("{count:,} files at once; at most {limit:,}",
                                    count=len(paths), limit=MAX_FILES)])
    problems: list[Message] = []
    points: list[MeasuredPoint] = []
    files: list[ImportedFile] = []
    seen: dict[str, str] = {}
    for path in paths:
        try:
            file = read_file(path)
            if file.sha256 in seen:
                raise FileProblem(msg("'{file}' is the same file as '{other}' (same SHA-256)",
                                      file=file.name, other=seen[file.sha256]))
            seen[file.sha256] = file.name
            found_format, found = read_points(file, lengths)
        except FileProblem as problem:
            problems.append(problem.message)
            continue
        points += found
        files.append(ImportedFile(file.name, file.sha256, found_format, len(found)))
    if problems:
        raise MeasurementError(problems)
    return ImportOutcome(sorted(points, key=load_order), files)


LOAD_ORDER = {"single_stream": 0, "concurrency": 1, "request_rate": 2}


def load_order(point: MeasuredPoint) -> tuple:
    """Single streams, then closed loops by users, then request rates by rate."""
    return (LOAD_ORDER[point.load], point.concurrency or 0.0, point.request_rate or 0.0,
            point.source_file, point.label)
