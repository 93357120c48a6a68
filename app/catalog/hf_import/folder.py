"""Reading a model folder: config.json, the precision and the weights into one catalog entry."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

from pydantic import ValidationError

from app.catalog.hf_import.architectures import architecture
from app.catalog.hf_import.embedders import embedding_fields
from app.catalog.hf_import.fields import CONFIG_KEY_OF
from app.catalog.hf_import.findings import Findings, ModelImportError, read_json_object
from app.catalog.hf_import.quantisation import experts_only, shipped_precision
from app.catalog.hf_import.safetensors import weights_bytes
from app.domain.catalog import ModelSpec
from app.domain.problems import Problem, detail
from app.i18n import Message, msg


@dataclasses.dataclass(frozen=True)
class ImportedModel:
    """What a model folder holds, ready to be saved as a catalog entry.

    Attributes
    ----------
    spec : the architecture as a catalog model entry.
    weights_bytes_on_disk : bytes of all weight tensors [B], None when no weights were found.
    quantization : precision id the weights ship in (bf16, fp8, int4-awq, ...), None if unknown.
    kv_cache_quantization : KV-cache precision the checkpoint was calibrated for, if it says.
    warnings : plain sentences about what was assumed, ignored or not understood (English).
    files_read : names of the files in the folder that were read.
    warning_messages : the warnings as Messages, for the window's language.
    """

    spec: ModelSpec
    weights_bytes_on_disk: int | None
    quantization: str | None
    kv_cache_quantization: str | None = None
    warnings: list[str] = dataclasses.field(default_factory=list)
    files_read: list[str] = dataclasses.field(default_factory=list)
    warning_messages: list[Message] = dataclasses.field(default_factory=list)


_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._+-]*$")


def slugify(text: str) -> str:
    """A catalog id from a name: lower case, runs of other characters become one ``-``."""
    slug = re.sub(r"[^a-z0-9._+-]+", "-", text.lower())
    return re.sub(r"-{2,}", "-", slug).strip("-._+")


def _display_name(folder: Path, config: dict) -> str:
    """Folder name; ``org/name`` for a Hugging Face cache snapshot folder."""
    parent = folder.parent
    if parent.name == "snapshots" and parent.parent.name.startswith("models--"):
        return parent.parent.name.removeprefix("models--").replace("--", "/")
    if folder.name:
        return folder.name
    fallback = config.get("_name_or_path")
    return str(fallback) if isinstance(fallback, str) and fallback else "imported model"


def _entry_id(name: str, model_id: str | None) -> str:
    if model_id is None:
        model_id = slugify(name.rsplit("/", 1)[-1])
        if not model_id:
            raise ModelImportError(msg("cannot make a catalog id from the name '{name}'; give "
                                       "one.", name=name))
    if not _ID_PATTERN.match(model_id):
        raise ModelImportError(msg(
            "model id '{model_id}' is not valid: use lower-case letters, digits and . _ + -, "
            "starting with a letter or digit.", model_id=model_id))
    return model_id


def _read_config(folder: Path) -> dict:
    if not folder.exists():
        raise ModelImportError(msg("model folder {folder} does not exist.", folder=str(folder)))
    if not folder.is_dir():
        raise ModelImportError(msg("{folder} is not a folder; give the folder that holds "
                                   "config.json.", folder=str(folder)))
    path = folder / "config.json"
    if not path.is_file():
        if any(folder.glob("*.gguf")):
            raise ModelImportError(msg("no config.json in {folder}; a Hugging Face model folder "
                                       "needs one (GGUF files are not supported).",
                                       folder=str(folder)))
        raise ModelImportError(msg("no config.json in {folder}; a Hugging Face model folder "
                                   "needs one.", folder=str(folder)))
    return read_json_object(path)


def _spec_error(exc: ValidationError) -> ModelImportError:
    """A pydantic error on ModelSpec as one sentence naming the config.json field."""
    parts = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"])
        if field:
            key = CONFIG_KEY_OF.get(field, field)
            named = key if key == field else f"{key} ({field})"
            given = repr(error.get("input"))
            given = given if len(given) <= 40 else f"{given[:37]}..."
            parts.append(Problem(field=f"{named} = {given}", detail=detail(error)))
        else:
            parts.append(detail(error))
    return ModelImportError(msg("config.json describes a model AI Sizer cannot use: {problems}.",
                                problems=parts))


def _notes(model_type: str, report: Findings) -> str:
    text = f"Imported from {', '.join(report.files_read)} (model_type {model_type})."
    if report.notes:
        text += " Details: " + "; ".join(report.notes) + "."
    return text


def read_model_folder(folder: Path, model_id: str | None = None) -> ImportedModel:
    """Read a local Hugging Face model folder into a catalog model entry.

    Parameters
    ----------
    folder : the folder that holds config.json (and the weights, optionally).
    model_id : catalog id to give the entry; default: a slug of the folder name.

    Raises
    ------
    ModelImportError
        Missing folder or config.json, invalid JSON, an unsupported model_type, or a
        missing or invalid field (the message names the file, the field and the value).
    """
    folder = Path(folder).expanduser().resolve()
    config = _read_config(folder)
    report = Findings(files_read=["config.json"])
    values = architecture(config, report)
    if values.get("task", "generation") != "reranking":
        values |= embedding_fields(folder, report)
    quantization, kv_quantization = shipped_precision(config, folder, report)
    if quantization and experts_only(config):
        values["native_quantised"] = "experts-only"
    weights = weights_bytes(folder, report)
    name = _display_name(folder, config)
    values |= {
        "id": _entry_id(name, model_id),
        "name": name,
        "as_of": dt.date.today(),
        "source": f"local model folder {folder} (config.json)",
        "native_precision": quantization or "bf16",
        "published_params": None,
        "derived": sorted(set(report.derived)),
        "notes": _notes(values["family"], report),
    }
    try:
        spec = ModelSpec.model_validate(values)
    except ValidationError as exc:
        raise _spec_error(exc) from None
    return ImportedModel(
        spec, weights, quantization, kv_quantization, [w.text() for w in report.warnings],
        report.files_read, report.warnings
    )
