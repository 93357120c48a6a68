"""Edits of an exported catalog bundle's members for the refusal and fuzz tests."""

from __future__ import annotations

import hashlib
import json


def with_gpu_field(members: dict[str, bytes], field: str, value: str) -> dict[str, bytes]:
    """``members`` with the first ``field = ...`` line of the built-in gpus.toml set to
    ``value`` (TOML text), and the manifest's SHA-256 of that file updated to match."""
    members = dict(members)
    name = next(n for n in members if n.startswith("builtin") and n.endswith("gpus.toml"))
    lines = members[name].decode("utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(f"{field} ="))
    lines[index] = f"{field} = {value}"
    members[name] = ("\n".join(lines) + "\n").encode("utf-8")
    manifest = json.loads(members["manifest.json"])
    for entry in manifest["files"]:
        if entry["path"] == name:
            entry["sha256"] = hashlib.sha256(members[name]).hexdigest()
    members["manifest.json"] = json.dumps(manifest).encode()
    return members
