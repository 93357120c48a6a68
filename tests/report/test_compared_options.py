"""Compared options: pinned configurations appear beside the report's own sizing."""

import json

from pypdf import PdfReader

from app import api
from app.cli import main
from app.report.export import build_report


def text_of(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "r.pdf"
    path.write_bytes(pdf)
    return " ".join(page.extract_text() for page in PdfReader(path).pages)


def sized(name, **changes):
    data = api.example(name)
    data.update(changes)
    return data, api.size(api.load_scenario(data))


def test_compared_options_section_lists_every_option(tmp_path):
    data, result = sized("worked-example")
    _, other = sized("worked-example", hardware={"gpu": "h200-sxm", "tensor_parallel": 2})
    pdf = build_report(data, result, compared=[("B: H200 option", other)])
    text = text_of(pdf, tmp_path)
    assert "Compared options" in text and "B: H200 option" in text
    assert "2 x NVIDIA H200 SXM 141GB" in text
    assert "2 x NVIDIA RTX PRO 6000 Blackwell Server Edition" in text
    assert "h200-sxm" not in text and "rtx-pro-6000-bse" not in text  # names, not ids


def test_no_section_without_pinned_options(tmp_path):
    data, result = sized("worked-example")
    assert "Compared options" not in text_of(build_report(data, result), tmp_path)


def test_german_heading(tmp_path):
    data, result = sized("small-chat")
    _, other = sized("small-chat", hardware={"gpu": "l4"})
    text = text_of(build_report(data, result, lang="de", compared=[("B", other)]), tmp_path)
    assert "Verglichene Optionen" in text


def test_cli_compare_option(tmp_path, capsys):
    other = tmp_path / "other.json"
    data = api.example("small-chat")
    data["hardware"] = {"gpu": "l4"}
    other.write_text(json.dumps(data))
    out = tmp_path / "report.pdf"
    assert main(["report", "--example", "small-chat", "-o", str(out), "--no-sign",
                 "--compare", str(other)]) == 0
    assert "Compared options" in text_of(out.read_bytes(), tmp_path)
    assert main(["report", "--example", "small-chat", "-o", str(out), "--no-sign",
                 *sum((["--compare", str(other)] for _ in range(4)), [])]) == 2
