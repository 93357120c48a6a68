"""The bytes of the weights on disk: the safetensors index's total_size, or the headers."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from app import reading
from app.catalog.hf_import.findings import Findings, json_file
from app.domain import safe_json
from app.i18n import msg

_INDEX_FILES = ("model.safetensors.index.json", "pytorch_model.bin.index.json")
_MAX_HEADER_BYTES = 100_000_000  # the safetensors format's own limit


def safetensors_tensor_bytes(path: Path) -> int:
    """Bytes of all tensors in one ``.safetensors`` file, read from its header only [B].

    The file starts with an 8-byte little-endian header length, then a JSON object that
    maps each tensor name to ``{"dtype", "shape", "data_offsets": [begin, end]}``; the tensor
    occupies ``end - begin`` bytes. ``__metadata__`` is skipped. Raises ValueError for a file
    that does not follow this layout.
    """
    with path.open("rb") as handle:
        prefix = handle.read(8)
        if len(prefix) != 8:
            raise ValueError("it is shorter than the 8-byte header length")
        (length,) = struct.unpack("<Q", prefix)
        if length > min(_MAX_HEADER_BYTES, path.stat().st_size - 8):
            raise ValueError(f"its header length {length} does not fit the file")
        try:
            header = safe_json.loads(handle.read(length))
        except UnicodeDecodeError:
            raise ValueError("its header is not UTF-8 text") from None
    if not isinstance(header, dict):
        raise ValueError("its header is not a JSON object")
    return sum(
        _tensor_bytes(name, entry) for name, entry in header.items() if name != "__metadata__"
    )


def _tensor_bytes(name: str, entry: Any) -> int:
    offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
    valid = (
        isinstance(offsets, list)
        and len(offsets) == 2
        and all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)
        and 0 <= offsets[0] <= offsets[1]
    )
    if not valid:
        raise ValueError(f"tensor {name} has no valid data_offsets ({offsets!r})")
    return offsets[1] - offsets[0]


def _index_total(path: Path, report: Findings) -> int | None:
    try:
        total = json_file(path)["metadata"]["total_size"]
        total = total if isinstance(total, int) else int(float(total))
        if total < 0:
            raise ValueError(f"total_size is {total}")
    except (OSError, ValueError, KeyError, TypeError, OverflowError) as exc:
        report.warn(msg(
            "{file} has no usable metadata.total_size ({error}); summing the safetensors "
            "headers instead.", file=path.name, error=str(exc)))
        return None
    report.files_read.append(path.name)
    return total


def _safetensors_files(folder: Path, report: Findings) -> list[Path]:
    found = sorted(folder.glob("*.safetensors"))
    files = [path for path in found if reading.is_regular_file(path)]
    for path in found:
        if path not in files:  # a FIFO would block the read, a device never end
            report.warn(msg("{file} is not a regular file (a pipe, a device or a folder); it "
                            "was not read.", file=path.name))
    consolidated = [p for p in files if p.name.startswith("consolidated")]
    if consolidated and len(consolidated) < len(files):
        report.notes.append("consolidated*.safetensors (Mistral format copy) not counted")
        files = [p for p in files if p not in consolidated]
    return files


def weights_bytes(folder: Path, report: Findings) -> int | None:
    """Bytes of the weights on disk: index total_size, else the sum of safetensors headers."""
    for name in _INDEX_FILES:
        if (folder / name).is_file():
            total = _index_total(folder / name, report)
            if total is not None:
                return total
    files = _safetensors_files(folder, report)
    if not files:
        report.warn(msg(
            "No safetensors index or *.safetensors files in the folder; "
            "weights_bytes_on_disk is unknown."))
        return None
    try:
        total = sum(safetensors_tensor_bytes(path) for path in files)
    except (OSError, ValueError) as exc:
        report.warn(msg(
            "A safetensors file could not be read ({error}); weights_bytes_on_disk is unknown.",
            error=str(exc)))
        return None
    report.files_read.append(f"{len(files)} safetensors header(s)")
    return total
