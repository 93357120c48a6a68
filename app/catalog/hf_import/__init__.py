"""Import a local Hugging Face model folder as a catalog model, and save it to the user catalog.

What is read, and nothing else (no weights are loaded, the network is never used):

- ``config.json``: the architecture (``model_type``, layer count, widths, heads, MoE, MLA,
  sliding-window layout). Multimodal configs are read through their ``text_config``.
- ``model.safetensors.index.json`` (``metadata.total_size``), or else the header of every
  ``*.safetensors`` file: the bytes of the weights on disk.
- ``config.json`` ``quantization_config`` or NVIDIA ModelOpt's ``hf_quant_config.json``, or
  else ``torch_dtype``: the precision the weights ship in, as one of AI Sizer's precision ids.

``read_model_folder`` returns an :class:`ImportedModel`; ``save_to_user_catalog`` writes its
``spec`` into ``<user catalog folder>/models.toml``. Every problem is a
:class:`ModelImportError` whose message names the file, the field and the value.

One module per concern: :mod:`.fields` (typed config.json fields), :mod:`.architectures` (a
builder per model_type), :mod:`.quantisation` (quantization_config and the like),
:mod:`.safetensors` (the weights on disk), :mod:`.findings` (warnings, notes and the error),
:mod:`.folder` (one folder into one entry) and :mod:`.user_catalog` (saving it); the TOML
text is written by :mod:`app.catalog.toml_writer`.
"""

from __future__ import annotations

from app.catalog.hf_import.architectures import SUPPORTED_MODEL_TYPES
from app.catalog.hf_import.findings import ModelImportError
from app.catalog.hf_import.folder import ImportedModel, read_model_folder, slugify
from app.catalog.hf_import.safetensors import safetensors_tensor_bytes
from app.catalog.hf_import.user_catalog import save_to_user_catalog

__all__ = ["SUPPORTED_MODEL_TYPES", "ImportedModel", "ModelImportError", "read_model_folder",
           "safetensors_tensor_bytes", "save_to_user_catalog", "slugify"]
