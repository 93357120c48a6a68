"""Catalog bundles for air-gapped sites: `aisizer catalog export / import / restore / versions`.

A bundle is a zip with manifest.json (every file with its SHA-256 and catalog_version, the tool
version and the export date), the exporting site's built-in files (builtin/) and its user
catalog (overlay/). Import checks everything before it replaces anything; every refused bundle
leaves the user catalog exactly as it was. Run through ``app.cli.main`` with a fresh
configuration folder per test (``user_config_dir``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import stat
import zipfile
from pathlib import Path

import pytest

from app import __version__, paths
from app.catalog import bundle, load_catalog
from app.cli import main

NEW_GPU = """
[test-gpu-x]
name = "Test GPU X 96GB"
vendor = "nvidia"
family = "hopper"
memory_gb = 96
memory_bandwidth_gb_s = 4000
bf16_tflops = 1000
fp8_tflops = 2000
tdp_w = 700
scale_up = "nvlink"
scale_up_gb_s = 450
max_gpus_per_node = 8
form_factor = "sxm"
source = "bundle test"
as_of = 2026-01-15
"""

LOCAL_MODEL = """
[site-local-model]
name = "A model only this site has"
family = "llama"
layers = 4
hidden_size = 512
attention_heads = 8
kv_heads = 2
intermediate_size = 1024
vocab_size = 32000
max_context_tokens = 4096
source = "bundle test"
as_of = 2026-01-15
"""


@dataclasses.dataclass
class Run:
    code: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *args: object) -> Run:
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def write_user_file(name: str, body: str, version: str) -> Path:
    folder = paths.user_catalog_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f'catalog_version = "{version}"\n{body}', encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name -> bytes)."""
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def read_zip(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def write_zip(path: Path, members: dict[str, bytes], symlinks: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name)
            mode = stat.S_IFLNK | 0o777 if name in symlinks else stat.S_IFREG | 0o644
            info.external_attr = mode << 16
            archive.writestr(info, data)
    return path


def rehash(members: dict[str, bytes]) -> dict[str, bytes]:
    """``members`` with manifest.json's sha256 values made to match the files again."""
    manifest = json.loads(members["manifest.json"])
    for entry in manifest["files"]:
        if entry["path"] in members:
            entry["sha256"] = hashlib.sha256(members[entry["path"]]).hexdigest()
    return {**members, "manifest.json": json.dumps(manifest).encode()}


@pytest.fixture
def exported(tmp_path: Path, user_config_dir: Path, capsys) -> Path:
    """A bundle of the built-in catalogs plus a user overlay that adds test-gpu-x."""
    write_user_file("gpus.toml", NEW_GPU, "site-7")
    out = tmp_path / "catalogs.zip"
    result = run(capsys, "catalog", "export", out)
    assert result.code == 0, result.err
    # The receiving site starts from a clean configuration folder.
    for path in sorted(user_config_dir.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    bundle_loader_cache_clear()
    return out


def bundle_loader_cache_clear() -> None:
    from app.catalog import clear_cache

    clear_cache()


@pytest.fixture
def site_catalog(user_config_dir: Path) -> dict[str, bytes]:
    """The receiving site's own user catalog, which a refused import must leave alone."""
    write_user_file("models.toml", LOCAL_MODEL, "site-local")
    bundle_loader_cache_clear()
    return snapshot(paths.user_catalog_dir())


def whole_config(site_catalog: dict[str, bytes]) -> dict[str, bytes]:
    """The configuration folder holding just ``site_catalog``: no backup, no staging folder."""
    return {str(Path("catalogs") / name): data for name, data in site_catalog.items()}


# --------------------------------------------------------------------------- export


def test_export_writes_manifest_with_hashes_versions_tool_and_date(exported: Path):
    members = read_zip(exported)
    manifest = json.loads(members["manifest.json"])
    assert manifest["format"] == "aisizer-catalog-bundle"
    assert manifest["format_version"] == 1
    assert manifest["tool_version"] == __version__
    assert manifest["exported_at"].endswith("Z") and manifest["exported_at"][:2] == "20"
    listed = {entry["path"]: entry for entry in manifest["files"]}
    assert set(members) == set(listed) | {"manifest.json"}
    builtin_files = {p.name for p in bundle.catalog_files(paths.catalogs_dir())}
    assert {f"builtin/{name}" for name in builtin_files} <= set(listed)
    assert "overlay/gpus.toml" in listed
    for name, entry in listed.items():
        assert entry["sha256"] == hashlib.sha256(members[name]).hexdigest()
        assert entry["bytes"] == len(members[name])
    for name in builtin_files:  # the built-in files byte for byte
        assert members[f"builtin/{name}"] == (paths.catalogs_dir() / name).read_bytes()
    assert listed["overlay/gpus.toml"]["catalog_version"] == "site-7"
    assert manifest["catalog_versions"]["overlay"] == {"gpus.toml": "site-7"}
    assert listed["builtin/gpus.toml"]["catalog_version"] != "unversioned"


def test_export_prints_the_bundle_checksum(tmp_path, user_config_dir, capsys):
    out = tmp_path / "b.zip"
    result = run(capsys, "catalog", "export", out)
    assert result.code == 0, result.err
    assert hashlib.sha256(out.read_bytes()).hexdigest() in result.out


def test_export_refuses_an_invalid_user_catalog(tmp_path, user_config_dir, capsys):
    write_user_file("gpus.toml", NEW_GPU.replace("memory_gb = 96", "memory_gb = -96"), "bad")
    out = tmp_path / "b.zip"
    result = run(capsys, "catalog", "export", out)
    assert result.code == 2
    assert "test-gpu-x" in result.err and "memory_gb" in result.err
    assert not out.exists()


# --------------------------------------------------------------------------- import


def test_import_installs_builtin_with_overlay_merged(exported, site_catalog, user_config_dir,
                                                     capsys):
    result = run(capsys, "catalog", "import", exported)
    assert result.code == 0, result.err
    assert "restore" in result.out
    catalog = load_catalog()
    assert catalog.problems == []
    assert catalog.gpus["test-gpu-x"].memory_gb == 96  # from the overlay layer
    assert "h100-sxm" in catalog.gpus  # from the built-in layer
    installed = paths.user_catalog_dir()
    assert "test-gpu-x" in (installed / "gpus.toml").read_text(encoding="utf-8")
    builtin_version = load_catalog(include_user=False).versions["gpus"]
    assert catalog.versions["user:gpus"] == f"{builtin_version}+site-7"
    # A file in one layer only is installed byte for byte.
    assert (installed / "servers.toml").read_bytes() == \
        (paths.catalogs_dir() / "servers.toml").read_bytes()
    # The site's own entry is not in the bundle: the user is told, and a backup keeps it.
    assert "site-local-model" in result.err
    assert "site-local-model" not in catalog.models
    kept = bundle.backups()
    assert len(kept) == 1 and kept[0].reason == "import"
    assert snapshot(kept[0].path / "catalogs") == site_catalog


def test_sizing_records_the_imported_catalog_version(exported, user_config_dir, capsys):
    assert run(capsys, "catalog", "import", exported).code == 0
    result = run(capsys, "size", "--example", "worked-example", "--json")
    assert result.code == 0, result.err
    versions = json.loads(result.out)["catalog_versions"]
    assert versions["user:gpus"].endswith("+site-7")


def test_versions_shows_builtin_user_and_backups(exported, site_catalog, capsys):
    before = run(capsys, "catalog", "versions")
    assert before.code == 0
    assert "site-local" in before.out and "built-in" in before.out
    run(capsys, "catalog", "import", exported)
    after = run(capsys, "catalog", "versions", "--json")
    data = json.loads(after.out)
    builtin_version = data["builtin"]["files"]["gpus.toml"]
    assert data["user"]["files"]["gpus.toml"] == f"{builtin_version}+site-7"
    assert data["user"]["imported"]["source"] == exported.name
    assert data["user"]["imported"]["sha256"] == hashlib.sha256(exported.read_bytes()).hexdigest()
    assert [b["reason"] for b in data["backups"]] == ["import"]
    text = run(capsys, "catalog", "versions").out
    assert f"{builtin_version}+site-7" in text and exported.name in text


def test_restore_brings_back_the_previous_catalog(exported, site_catalog, user_config_dir,
                                                  capsys):
    run(capsys, "catalog", "import", exported)
    result = run(capsys, "catalog", "restore")
    assert result.code == 0, result.err
    assert snapshot(paths.user_catalog_dir()) == site_catalog
    assert "site-local-model" in load_catalog().models
    # The replaced (imported) catalog is kept too, but is not what a plain restore picks.
    assert [b.reason for b in bundle.backups()] == ["restore"]
    again = run(capsys, "catalog", "restore")
    assert again.code == 2 and "no earlier catalog" in again.err
    assert snapshot(paths.user_catalog_dir()) == site_catalog


def test_restore_after_the_first_import_returns_to_builtin_only(exported, user_config_dir,
                                                                capsys):
    assert not paths.user_catalog_dir().exists()
    run(capsys, "catalog", "import", exported)
    assert "test-gpu-x" in load_catalog().gpus
    result = run(capsys, "catalog", "restore")
    assert result.code == 0, result.err
    assert not paths.user_catalog_dir().exists()
    assert "test-gpu-x" not in load_catalog().gpus


def test_restore_steps_back_one_import_at_a_time(exported, site_catalog, tmp_path, capsys):
    run(capsys, "catalog", "import", exported)
    first_import = snapshot(paths.user_catalog_dir())
    second = rehash({**read_zip(exported)})
    run(capsys, "catalog", "import", write_zip(tmp_path / "second.zip", second))
    assert run(capsys, "catalog", "restore").code == 0
    assert snapshot(paths.user_catalog_dir()) == first_import
    assert run(capsys, "catalog", "restore").code == 0
    assert snapshot(paths.user_catalog_dir()) == site_catalog


def test_restore_a_named_backup_and_list(exported, site_catalog, capsys):
    run(capsys, "catalog", "import", exported)
    name = bundle.backups()[0].name
    listing = run(capsys, "catalog", "restore", "--list")
    assert name in listing.out
    assert run(capsys, "catalog", "restore", "no-such-backup").code == 2
    assert run(capsys, "catalog", "restore", name).code == 0
    assert snapshot(paths.user_catalog_dir()) == site_catalog


def test_restore_with_nothing_to_restore(user_config_dir, capsys):
    result = run(capsys, "catalog", "restore")
    assert result.code == 2
    assert "no earlier catalog" in result.err


# --------------------------------------------------------------------------- refusals


def tampered(members: dict[str, bytes]) -> dict[str, bytes]:
    data = members["builtin/gpus.toml"].replace(b"memory_gb = 80", b"memory_gb = 81", 1)
    assert data != members["builtin/gpus.toml"]
    return {**members, "builtin/gpus.toml": data}


def without_manifest(members: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v for k, v in members.items() if k != "manifest.json"}


def with_extra_file(members: dict[str, bytes]) -> dict[str, bytes]:
    return {**members, "builtin/run-me.sh": b"#!/bin/sh\nrm -rf ~\n"}


def with_traversal(members: dict[str, bytes]) -> dict[str, bytes]:
    return {**members, "builtin/../../../evil.toml": b'catalog_version = "x"\n'}


def with_listed_traversal(members: dict[str, bytes]) -> dict[str, bytes]:
    """The traversal entry is even listed in the manifest with a matching hash."""
    evil = b'catalog_version = "x"\n'
    manifest = json.loads(members["manifest.json"])
    manifest["files"].append({"path": "../gpus.toml", "sha256": hashlib.sha256(evil).hexdigest(),
                              "catalog_version": "x"})
    return {**members, "../gpus.toml": evil, "manifest.json": json.dumps(manifest).encode()}


def with_absolute_path(members: dict[str, bytes]) -> dict[str, bytes]:
    return {**members, "/tmp/aisizer-evil.toml": b"x = 1\n"}


def with_invalid_toml(members: dict[str, bytes]) -> dict[str, bytes]:
    return rehash({**members, "overlay/gpus.toml": b'catalog_version = "site-7"\n[broken\n'})


def with_invalid_entry(members: dict[str, bytes]) -> dict[str, bytes]:
    data = members["overlay/gpus.toml"].replace(b"memory_gb = 96", b"memory_gb = -96")
    return rehash({**members, "overlay/gpus.toml": data})


def with_missing_file(members: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v for k, v in members.items() if k != "builtin/models.toml"}


def with_wrong_format(members: dict[str, bytes]) -> dict[str, bytes]:
    manifest = json.loads(members["manifest.json"])
    manifest["format_version"] = 99
    return {**members, "manifest.json": json.dumps(manifest).encode()}


def with_version_mismatch(members: dict[str, bytes]) -> dict[str, bytes]:
    manifest = json.loads(members["manifest.json"])
    for entry in manifest["files"]:
        if entry["path"] == "overlay/gpus.toml":
            entry["catalog_version"] = "site-8"
    return {**members, "manifest.json": json.dumps(manifest).encode()}


def with_bad_manifest_json(members: dict[str, bytes]) -> dict[str, bytes]:
    return {**members, "manifest.json": b"{not json"}


REFUSALS = {
    "tampered file hash": (tampered, ["builtin/gpus.toml", "SHA-256", "does not match"]),
    "missing manifest": (without_manifest, ["manifest.json"]),
    "extra file": (with_extra_file, ["builtin/run-me.sh", "unexpected file"]),
    "path traversal": (with_traversal, ["evil.toml", "leaves its folder"]),
    "listed path traversal": (with_listed_traversal, ["../gpus.toml"]),
    "absolute path": (with_absolute_path, ["absolute path"]),
    "invalid TOML": (with_invalid_toml, ["overlay/gpus.toml", "not valid TOML"]),
    "invalid entry": (with_invalid_entry, ["overlay/gpus.toml [test-gpu-x] memory_gb",
                                           "greater than 0"]),
    "missing file": (with_missing_file, ["builtin/models.toml", "missing from the zip"]),
    "unsupported format": (with_wrong_format, ["format_version 99"]),
    "version mismatch": (with_version_mismatch, ["site-7", "site-8"]),
    "manifest not JSON": (with_bad_manifest_json, ["manifest.json", "not valid JSON"]),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_import_refuses_and_changes_nothing(case, exported, site_catalog, user_config_dir,
                                            tmp_path, capsys):
    change, fragments = REFUSALS[case]
    bad = write_zip(tmp_path / "bad.zip", change(read_zip(exported)))
    result = run(capsys, "catalog", "import", bad)
    assert result.code == 2, (result.out, result.err)
    assert result.out == ""
    assert "catalog import refused, nothing was changed" in result.err
    for fragment in fragments:
        assert fragment in result.err, (fragment, result.err)
    assert snapshot(user_config_dir) == whole_config(site_catalog)  # no backup, no staging
    assert not (tmp_path.parent / "evil.toml").exists()
    assert "site-local-model" in load_catalog().models


def test_import_refuses_a_symbolic_link(exported, site_catalog, user_config_dir, tmp_path,
                                        capsys):
    members = {**read_zip(exported), "overlay/models.toml": b"/etc/passwd"}
    bad = write_zip(tmp_path / "link.zip", members, symlinks=("overlay/models.toml",))
    result = run(capsys, "catalog", "import", bad)
    assert result.code == 2
    assert "symbolic link" in result.err
    assert snapshot(user_config_dir) == whole_config(site_catalog)


def test_import_refuses_a_file_that_is_not_a_zip(tmp_path, site_catalog, user_config_dir,
                                                 capsys):
    bad = tmp_path / "catalogs.zip"
    bad.write_text("hello", encoding="utf-8")
    result = run(capsys, "catalog", "import", bad)
    assert result.code == 2 and "not a zip file" in result.err
    missing = run(capsys, "catalog", "import", tmp_path / "absent.zip")
    assert missing.code == 2 and "cannot read" in missing.err
    assert snapshot(user_config_dir) == whole_config(site_catalog)


def test_every_problem_is_named_not_only_the_first(exported, site_catalog, tmp_path, capsys):
    members = tampered(with_extra_file(read_zip(exported)))
    result = run(capsys, "catalog", "import", write_zip(tmp_path / "bad.zip", members))
    assert result.code == 2
    assert "builtin/gpus.toml" in result.err and "builtin/run-me.sh" in result.err
    assert len(result.err.splitlines()) == 2


def test_read_bundle_accepts_folder_entries(exported, tmp_path):
    """A bundle re-zipped with `zip -r` carries folder entries; those are fine."""
    members = {"builtin/": b"", "overlay/": b"", **read_zip(exported)}
    checked = bundle.read_bundle(write_zip(tmp_path / "rezipped.zip", members))
    assert "builtin/gpus.toml" in checked.files


def test_the_existing_catalog_commands_still_work(user_config_dir, capsys):
    assert run(capsys, "catalog", "list", "gpus").code == 0
    assert run(capsys, "catalog", "show", "h100-sxm").code == 0


def test_merged_file_reads_back_identically(exported):
    checked = bundle.read_bundle(exported)
    merged = bundle.merged_files(checked)
    import tomllib

    gpus = tomllib.load(io.BytesIO(merged["gpus.toml"]))
    builtin = tomllib.load(io.BytesIO(checked.files["builtin/gpus.toml"]))
    assert {k for k in gpus if k != "catalog_version"} == \
        {k for k in builtin if k != "catalog_version"} | {"test-gpu-x"}
    for key, table in builtin.items():
        if key != "catalog_version":
            assert gpus[key] == table
