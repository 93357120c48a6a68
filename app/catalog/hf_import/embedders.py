"""Sentence-transformers folders: an embedding model whatever its config.json says.

A folder with ``modules.json`` naming a Pooling module (or a ``1_Pooling/config.json``) holds
a model that returns vectors, not text (Qwen3-Embedding ships as ``Qwen3ForCausalLM`` weights
without an output head): it is imported with ``task = "embedding"`` and the vector width the
pooling config states (``word_embedding_dimension``).
"""

from __future__ import annotations

from pathlib import Path

from app.catalog.hf_import.findings import Findings, json_file

_POOLING = "sentence_transformers.models.Pooling"


def _pooling_config(folder: Path) -> Path | None:
    """The pooling module's config.json, from modules.json or the usual 1_Pooling folder."""
    modules = folder / "modules.json"
    paths = []
    if modules.is_file():
        try:
            entries = json_file(modules)
        except (OSError, ValueError):
            entries = []
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and entry.get("type") == _POOLING:
                paths.append(folder / str(entry.get("path", "")) / "config.json")
    paths.append(folder / "1_Pooling" / "config.json")
    return next((path for path in paths if path.is_file()), None)


def embedding_fields(folder: Path, report: Findings) -> dict:
    """``task`` and ``embedding_dim`` when the folder is a sentence-transformers model."""
    path = _pooling_config(folder)
    if path is None:
        return {}
    report.files_read.append(str(path.relative_to(folder)))
    try:
        pooling = json_file(path)
    except (OSError, ValueError):
        pooling = {}
    values: dict = {"task": "embedding"}
    width = pooling.get("word_embedding_dimension") if isinstance(pooling, dict) else None
    if isinstance(width, int) and not isinstance(width, bool) and width > 0:
        values["embedding_dim"] = width
    modes = [key.removeprefix("pooling_mode_") for key, on in
             (pooling.items() if isinstance(pooling, dict) else [])
             if key.startswith("pooling_mode_") and on is True]
    report.notes.append("sentence-transformers embedding model (pooling: "
                        f"{', '.join(modes) or 'unknown'}); no output head")
    return values
