"""The scenario and result JSON attached to the report, and reading them back.

reportlab cannot attach files, so they are added with pyHanko (``embed.embed_file``) in an
incremental update: the same update as the signature when the report is signed, so the
signature covers them. The update gets a document id derived from the content (pyHanko would
draw a random one), which keeps an unsigned report reproducible.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import stat
from pathlib import Path
from typing import Any

from pyhanko.pdf_utils import embed, generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader

from app.domain import safe_json

SCENARIO = "scenario.json"
RESULT = "result.json"
DESCRIPTIONS = {SCENARIO: "AI Sizer scenario (the input of this report)",
                RESULT: "AI Sizer result (every figure of this report)"}


# An AI Sizer report is well under 1 MB (the worked example: 137 kB signed). A file far
# larger is not one, and is refused from its size before it is read, so that verifying or
# opening any file stays within seconds and a bounded amount of memory.
MAX_REPORT_BYTES = 32_000_000
READ_CHUNK = 1024 * 1024


class ReportFileError(ValueError):
    """A file is not a readable PDF, or not a report with its scenario (one sentence)."""


class ReproducibleWriter(IncrementalPdfFileWriter):
    """An incremental writer with a reproducible document id and modification date.

    pyHanko draws the second half of the id at random and stamps /ModDate with the clock;
    here the id is a hash of the previous revision and the date is ``modified``.
    """

    modified: dt.datetime | None = None

    def _update_meta(self):
        super()._update_meta()
        info = self._info.get_object() if self._info is not None else None
        if self.modified is not None and info is not None and "/ModDate" in info:
            info["/ModDate"] = generic.pdf_date(self.modified)

    @classmethod
    def _handle_id(cls, prev):
        ids = super()._handle_id(prev)
        digest = hashlib.sha256(prev.stream.getvalue()).digest()[:16]
        return generic.ArrayObject([ids[0], generic.ByteStringObject(digest)])


def to_json(data: Any) -> bytes:
    """``data`` as JSON (UTF-8); ValueError for a NaN or infinite number, which JSON has
    not (the attachment must read back in any JSON reader)."""
    return (json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
            ).encode("utf-8")


def open_writer(pdf: bytes, files: dict[str, bytes],
                modified: dt.datetime) -> IncrementalPdfFileWriter:
    """An incremental update of ``pdf`` with ``files`` (name -> JSON bytes) attached."""
    writer = ReproducibleWriter(io.BytesIO(pdf))
    writer.modified = modified
    for name, data in files.items():
        stream = embed.EmbeddedFileObject.from_file_data(
            writer, data, mime_type="application/json",
            params=embed.EmbeddedFileParams(embed_size=True, embed_checksum=True))
        embed.embed_file(writer, embed.FileSpec(
            file_spec_string=name, file_name=name, embedded_data=stream,
            description=DESCRIPTIONS.get(name, name)))
    return writer


def attach(pdf: bytes, files: dict[str, bytes], modified: dt.datetime) -> bytes:
    """``pdf`` with ``files`` attached (unsigned); ``modified`` becomes its /ModDate."""
    writer = open_writer(pdf, files, modified)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def read_pdf(data: bytes, source: str = "file", strict: bool = False) -> PdfFileReader:
    """A pyHanko reader (strict for signature checks, lenient for reading attachments)."""
    if not data.startswith(b"%PDF"):
        raise ReportFileError(f"'{source}' is not a PDF file")
    try:
        reader = PdfFileReader(io.BytesIO(data), strict=strict)
        reader.root  # noqa: B018 - parses the catalog, so a broken file fails here
        return reader
    except (PdfError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise ReportFileError(f"'{source}' cannot be read as a PDF: {exc}") from None


def attachments(reader: PdfFileReader) -> dict[str, bytes]:
    """Every embedded file of the document (flat name tree, as the report writes it)."""
    try:
        names = reader.root["/Names"]["/EmbeddedFiles"]["/Names"]
    except KeyError:
        return {}
    found: dict[str, bytes] = {}
    for index in range(0, len(names) - 1, 2):
        spec = names[index + 1].get_object()
        try:
            stream = spec["/EF"]["/F"].get_object()
            found[str(names[index])] = stream.data
        except (KeyError, AttributeError):
            continue
    return found


def read_report(path: Path) -> bytes:
    """The bytes of the report at ``path``, read with bounds (ReportFileError otherwise).

    Only a regular file is read (a FIFO or device would block or never end), and only up to
    :data:`MAX_REPORT_BYTES`: a larger file is refused from its size, before it is read.
    """
    path = Path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ReportFileError(f"'{path}' is not a regular file; give a report PDF")
        if info.st_size > MAX_REPORT_BYTES:
            raise ReportFileError(_too_large(path, info.st_size))
        chunks, total = [], 0
        with path.open("rb") as stream:
            while chunk := stream.read(READ_CHUNK):
                total += len(chunk)
                if total > MAX_REPORT_BYTES:  # the file grew while it was read
                    raise ReportFileError(_too_large(path, total))
                chunks.append(chunk)
    except OSError as exc:
        raise ReportFileError(f"cannot read '{path}': {exc.strerror}") from None
    return b"".join(chunks)


def _too_large(path: Path, size: int) -> str:
    return (f"'{path}' is {size / 1e6:,.1f} MB; an AI Sizer report is far smaller, and files "
            f"over {MAX_REPORT_BYTES / 1e6:,.1f} MB are not checked")


def read_attachments(path: Path) -> dict[str, bytes]:
    return attachments(read_pdf(read_report(path), str(path)))


def scenario_from_report(path: Path) -> dict:
    """The scenario a report was made from (ReportFileError when it has none).

    This does not check the signature; :func:`app.report.verify.checked_scenario` does.
    """
    return scenario_from_bytes(read_report(path), Path(path))


def scenario_from_bytes(data: bytes, path: Path) -> dict:
    """The scenario attached to the report ``data`` read from ``path``."""
    files = attachments(read_pdf(data, str(path)))
    if SCENARIO not in files:
        raise ReportFileError(f"'{path}' has no attached {SCENARIO}; it is not an AI Sizer "
                              "report")
    try:
        scenario = safe_json.loads(files[SCENARIO].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ReportFileError(f"the {SCENARIO} attached to '{path}' is not valid JSON") from None
    except safe_json.JsonLimitError as exc:
        raise ReportFileError(f"the {SCENARIO} attached to '{path}' is refused: {exc}") from None
    if not isinstance(scenario, dict):
        raise ReportFileError(f"the {SCENARIO} attached to '{path}' is not a JSON object")
    return scenario


def is_pdf(path: Path) -> bool:
    """Whether ``path`` starts with the PDF header (reports open like scenario files)."""
    try:
        if not Path(path).is_file():  # a FIFO or device would block the read
            return False
        with Path(path).open("rb") as stream:
            return stream.read(5) == b"%PDF-"
    except OSError:
        return False
