"""Result files of load generators read into measured operating points (no Qt).

:func:`import_files` reads ``vllm bench serve --save-result`` JSON, SGLang ``bench_serving``
JSONL, AIPerf and GenAI-Perf profile exports, guidellm reports, ``llama-bench -o json`` and a
plain CSV (``formats``), and returns every point of every file, or raises
:class:`MeasurementError` with one sentence per file that cannot be read: nothing is
imported half. The formats were taken from the tools' own code (``formats.FORMATS`` names
the repository, file and commit of each).
"""

from app.measurements.importer import ImportOutcome, MeasurementError, import_files

__all__ = ["ImportOutcome", "MeasurementError", "import_files"]
