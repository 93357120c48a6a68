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


def test_the_german_report_is_german_in_its_tables(report_de):
    text = " ".join(" ".join(page.split()) for page in pages_text(report_de))
    assert "Speicherklasse 'gut'" in text and "'good'" not in text  # the storage class
    assert "quantisierbare Matrizen" in text  # the formula table's words
    assert "L Schichten, h verborgene Dimension" in text  # its legend
    assert "front-end and storage" not in text  # racks and networks name the network
    assert "(Front-End und Speicher)" in text
    assert "beim Kaltstart geladene Gewichte" in text  # the storage table's purpose
    assert "weights loaded at cold start" not in text
