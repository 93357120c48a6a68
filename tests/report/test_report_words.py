"""The report speaks the reader's words: no scenario paths or catalog field names
(``vllm.eta_mem``, ``visible_memory_gib``, ``factor_overrides``) in its text. The formula
table's symbols (eta_mem is the memory efficiency in t_gemm) are symbols, explained in its
legend, not paths."""

from __future__ import annotations

import re

import pytest
from report_helpers import pages_text

#: A JSON path or a catalog field name: words joined by dots or underscores.
INTERNAL = re.compile(r"\b(?:vllm|sglang|targets|workload|hardware)\.[a-z_]+|"
                      r"\b(?:visible_memory_gib|bf16_tflops|fp8_tflops|scale_up_gb_s|"
                      r"factor_overrides|gpus_per_replica|max_context_tokens)\b")


@pytest.mark.parametrize("fixture", ["report_en", "report_de"])
def test_the_report_names_no_internal_path(request, fixture):
    text = " ".join(" ".join(page.split()) for page in pages_text(request.getfixturevalue(fixture)))
    assert INTERNAL.findall(text) == []
