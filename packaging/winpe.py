"""Windows PE files (.exe, .dll, .pyd) read and edited with the standard library only.

What the Windows build needs on Linux, and no more:

- :func:`read` parses the headers, sections, import table, delay-load import table and the
  resource tree of a 32- or 64-bit PE file;
- :func:`rebrand` gives an executable an icon (``RT_GROUP_ICON`` and ``RT_ICON`` from an
  ``.ico`` file) and a version resource (what Explorer and the Task Manager show) by writing
  a new resource section at the end of the image that holds every resource the file had (its
  manifest above all) plus the new ones; the old section stays, unused;
- :func:`checksum` is the PE checksum the optional header carries.

Layout references: Microsoft, "PE Format" (learn.microsoft.com/windows/win32/debug/pe-format),
sections "Optional Header Data Directories", "The .idata Section", "Delay-Load Import Tables",
"The .rsrc Section"; "Icons in Win32" (the ``GRPICONDIR`` layout of ``RT_GROUP_ICON``).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

# Data directory indexes (PE Format, "Optional Header Data Directories").
DIR_IMPORT = 1
DIR_RESOURCE = 2
DIR_SECURITY = 4
DIR_DELAY_IMPORT = 13

RT_ICON = 3
RT_GROUP_ICON = 14
RT_VERSION = 16
RT_MANIFEST = 24

MACHINES = {0x14C: "x86", 0x8664: "x86_64", 0xAA64: "arm64"}
SUBSYSTEMS = {2: "windows", 3: "console"}


class PEError(ValueError):
    """Not a PE file, or one whose tables point outside the file."""


@dataclass
class Section:
    name: str
    virtual_address: int
    virtual_size: int
    raw_offset: int
    raw_size: int
    header_offset: int  # where this section's 40-byte header is in the file


@dataclass
class Resource:
    """One leaf of the resource tree: type / name / language -> data."""

    type: int | str
    name: int | str
    language: int
    data: bytes
    codepage: int = 0


@dataclass
class PE:
    path: Path | None
    machine: str
    is_dll: bool
    subsystem: str
    image_base: int
    section_alignment: int
    file_alignment: int
    size_of_headers: int
    optional_header_offset: int
    data_directory_offset: int
    directories: list[tuple[int, int]]
    sections: list[Section]
    imports: list[str] = field(default_factory=list)
    delay_imports: list[str] = field(default_factory=list)
    # DLL -> the functions imported from it by name (ordinals as "#n"), both tables.
    functions: dict[str, list[str]] = field(default_factory=dict)
    resources: list[Resource] = field(default_factory=list)

    @property
    def all_imports(self) -> list[str]:
        """Every DLL this file names, load-time imports first, then delay-load ones."""
        seen: dict[str, None] = {}
        for name in self.imports + self.delay_imports:
            seen.setdefault(name, None)
        return list(seen)

    def manifest(self) -> str | None:
        """The embedded application manifest (``RT_MANIFEST``), if any."""
        for res in self.resources:
            if res.type == RT_MANIFEST:
                return res.data.decode("utf-8", errors="replace")
        return None


def _u16(data: bytes, offset: int) -> int:
    return struct.unpack_from("<H", data, offset)[0]


def _u32(data: bytes, offset: int) -> int:
    return struct.unpack_from("<I", data, offset)[0]


def _align(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def _rva_to_offset(sections: list[Section], rva: int, size_of_headers: int) -> int:
    if rva < size_of_headers:
        return rva
    for sec in sections:
        span = max(sec.virtual_size, sec.raw_size)
        if sec.virtual_address <= rva < sec.virtual_address + span:
            delta = rva - sec.virtual_address
            if delta >= sec.raw_size:
                raise PEError(f"RVA {rva:#x} lies in the uninitialised part of {sec.name}")
            return sec.raw_offset + delta
    raise PEError(f"RVA {rva:#x} is in no section")


def _cstring(data: bytes, offset: int, limit: int = 4096) -> str:
    end = data.find(b"\0", offset, offset + limit)
    if end < 0:
        raise PEError(f"unterminated name at {offset:#x}")
    return data[offset:end].decode("ascii", errors="replace")


def parse(data: bytes, path: Path | None = None) -> PE:
    """Parse ``data`` (the bytes of a PE file)."""
    if len(data) < 0x40 or data[:2] != b"MZ":
        raise PEError("no MZ header")
    pe_offset = _u32(data, 0x3C)
    if data[pe_offset:pe_offset + 4] != b"PE\0\0":
        raise PEError("no PE signature")
    coff = pe_offset + 4
    machine, n_sections = struct.unpack_from("<HH", data, coff)
    size_optional, characteristics = struct.unpack_from("<HH", data, coff + 16)
    optional = coff + 20
    magic = _u16(data, optional)
    if magic == 0x20B:  # PE32+
        image_base = struct.unpack_from("<Q", data, optional + 24)[0]
        dirs_at, count_at = optional + 112, optional + 108
    elif magic == 0x10B:  # PE32
        image_base = _u32(data, optional + 28)
        dirs_at, count_at = optional + 96, optional + 92
    else:
        raise PEError(f"unknown optional header magic {magic:#x}")
    section_alignment, file_alignment = struct.unpack_from("<II", data, optional + 32)
    size_of_headers = _u32(data, optional + 60)
    subsystem = _u16(data, optional + 68)
    n_dirs = min(_u32(data, count_at), 16)
    directories = [struct.unpack_from("<II", data, dirs_at + 8 * i) for i in range(n_dirs)]
    directories += [(0, 0)] * (16 - n_dirs)
    sections = []
    table = optional + size_optional
    for i in range(n_sections):
        at = table + 40 * i
        name = data[at:at + 8].rstrip(b"\0").decode("ascii", errors="replace")
        vsize, va, raw_size, raw_offset = struct.unpack_from("<IIII", data, at + 8)
        sections.append(Section(name, va, vsize, raw_offset, raw_size, at))
    pe = PE(path, MACHINES.get(machine, f"{machine:#x}"), bool(characteristics & 0x2000),
            SUBSYSTEMS.get(subsystem, str(subsystem)), image_base, section_alignment,
            file_alignment, size_of_headers, optional, dirs_at, directories, sections)

    def offset(rva: int) -> int:
        return _rva_to_offset(sections, rva, size_of_headers)

    rva, size = directories[DIR_IMPORT]
    if rva and size:
        at = offset(rva)
        while True:
            original_thunk, _stamp, _chain, name_rva, first_thunk = \
                struct.unpack_from("<IIIII", data, at)
            if not (original_thunk or name_rva or first_thunk):
                break
            dll = _cstring(data, offset(name_rva))
            pe.imports.append(dll)
            pe.functions.setdefault(dll, []).extend(
                _thunk_names(data, original_thunk or first_thunk, offset, magic == 0x20B))
            at += 20
    rva, size = directories[DIR_DELAY_IMPORT]
    if rva and size:
        at = offset(rva)
        while True:
            attributes, name_rva, _handle, _iat, names_rva = struct.unpack_from("<IIIII", data,
                                                                                  at)
            if not name_rva:
                break
            if not attributes & 1:  # Visual C++ 6 style: virtual addresses, not RVAs
                name_rva -= image_base
                names_rva -= image_base
            dll = _cstring(data, offset(name_rva))
            pe.delay_imports.append(dll)
            pe.functions.setdefault(dll, []).extend(
                _thunk_names(data, names_rva, offset, magic == 0x20B))
            at += 32
    rva, size = directories[DIR_RESOURCE]
    if rva and size:
        pe.resources = _read_resources(data, offset(rva), offset)
    return pe


def _thunk_names(data: bytes, rva: int, offset, wide: bool) -> list[str]:
    """The names an import lookup table lists (``#n`` for an import by ordinal)."""
    if not rva:
        return []
    size, flag = (8, 1 << 63) if wide else (4, 1 << 31)
    names = []
    at = offset(rva)
    while True:
        (entry,) = struct.unpack_from("<Q" if wide else "<I", data, at)
        if not entry:
            return names
        if entry & flag:
            names.append(f"#{entry & 0xFFFF}")
        else:
            names.append(_cstring(data, offset(entry & 0x7FFFFFFF) + 2))
        at += size


def read(path: Path) -> PE:
    path = Path(path)
    try:
        return parse(path.read_bytes(), path)
    except (struct.error, IndexError) as exc:
        raise PEError(f"{path}: truncated or damaged PE file ({exc})") from None
    except PEError as exc:
        raise PEError(f"{path}: {exc}") from None


# --------------------------------------------------------------------------- resources


def _read_resources(data: bytes, base: int, offset) -> list[Resource]:
    def entry_name(value: int) -> int | str:
        if value & 0x80000000:
            at = base + (value & 0x7FFFFFFF)
            length = _u16(data, at)
            return data[at + 2:at + 2 + 2 * length].decode("utf-16-le")
        return value

    def entries(at: int) -> list[tuple[int | str, int]]:
        named, ids = struct.unpack_from("<HH", data, at + 12)
        found = []
        for i in range(named + ids):
            name, target = struct.unpack_from("<II", data, at + 16 + 8 * i)
            found.append((entry_name(name), target))
        return found

    found = []
    for rtype, t_target in entries(base):
        if not t_target & 0x80000000:
            continue
        for name, n_target in entries(base + (t_target & 0x7FFFFFFF)):
            if not n_target & 0x80000000:
                continue
            for lang, l_target in entries(base + (n_target & 0x7FFFFFFF)):
                if l_target & 0x80000000 or not isinstance(lang, int):
                    continue
                data_rva, size, codepage, _ = struct.unpack_from("<IIII", data, base + l_target)
                start = offset(data_rva)
                found.append(Resource(rtype, name, lang, data[start:start + size], codepage))
    return found


def _sort_key(key: int | str) -> tuple[int, int | str]:
    # Named entries come first, in case-insensitive order; then IDs, ascending (PE Format).
    return (0, key.upper()) if isinstance(key, str) else (1, key)


def build_resource_section(resources: list[Resource], section_rva: int) -> bytes:
    """The bytes of a ``.rsrc`` section at ``section_rva`` holding ``resources``."""
    tree: dict = {}
    for res in resources:
        tree.setdefault(res.type, {}).setdefault(res.name, {})[res.language] = res
    # Layout: all directories (with their entries), then the name strings, then the data
    # entries, then the data itself (each aligned to 8 bytes).
    directories: list[tuple[dict, int]] = []  # (subtree, level)

    def collect(node: dict, level: int) -> None:
        directories.append((node, level))
        if level < 2:
            for key in sorted(node, key=_sort_key):
                collect(node[key], level + 1)

    collect(tree, 0)
    dir_offsets: dict[int, int] = {}
    position = 0
    for node, _level in directories:
        dir_offsets[id(node)] = position
        position += 16 + 8 * len(node)
    strings: dict[str, int] = {}
    for node, _level in directories:
        for key in node:
            if isinstance(key, str) and key not in strings:
                strings[key] = position
                position += 2 + 2 * len(key)
    position = _align(position, 8)
    leaves = [leaf for node, level in directories if level == 2 for leaf in
              (node[k] for k in sorted(node, key=_sort_key))]
    entry_offsets = {}
    for leaf in leaves:
        entry_offsets[id(leaf)] = position
        position += 16
    data_offsets = {}
    for leaf in leaves:
        position = _align(position, 8)
        data_offsets[id(leaf)] = position
        position += len(leaf.data)
    out = bytearray(_align(position, 8))
    for node, level in directories:
        at = dir_offsets[id(node)]
        keys = sorted(node, key=_sort_key)
        named = sum(isinstance(k, str) for k in keys)
        struct.pack_into("<IIHHHH", out, at, 0, 0, 4, 0, named, len(keys) - named)
        for i, key in enumerate(keys):
            name = (0x80000000 | strings[key]) if isinstance(key, str) else key
            child = node[key]
            target = (entry_offsets[id(child)] if level == 2
                      else 0x80000000 | dir_offsets[id(child)])
            struct.pack_into("<II", out, at + 16 + 8 * i, name, target)
    for text, at in strings.items():
        encoded = text.encode("utf-16-le")
        struct.pack_into("<H", out, at, len(text))
        out[at + 2:at + 2 + len(encoded)] = encoded
    for leaf in leaves:
        struct.pack_into("<IIII", out, entry_offsets[id(leaf)],
                         section_rva + data_offsets[id(leaf)], len(leaf.data), leaf.codepage, 0)
        at = data_offsets[id(leaf)]
        out[at:at + len(leaf.data)] = leaf.data
    return bytes(out)


def icon_resources(ico: bytes, group_name: int | str = 1, first_id: int = 1,
                   language: int = 0) -> list[Resource]:
    """``RT_ICON`` images and their ``RT_GROUP_ICON`` directory from an ``.ico`` file."""
    reserved, kind, count = struct.unpack_from("<HHH", ico, 0)
    if reserved != 0 or kind != 1 or count == 0:
        raise PEError("not an .ico file (ICONDIR header)")
    group = bytearray(struct.pack("<HHH", 0, 1, count))
    images = []
    for i in range(count):
        width, height, colours, res, planes, bits, size, at = \
            struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i)
        if at + size > len(ico):
            raise PEError(f"icon image {i} lies outside the .ico file")
        images.append(Resource(RT_ICON, first_id + i, language, ico[at:at + size]))
        group += struct.pack("<BBBBHHIH", width, height, colours, res, planes, bits, size,
                             first_id + i)
    return [Resource(RT_GROUP_ICON, group_name, language, bytes(group)), *images]


def checksum(data: bytes, checksum_offset: int) -> int:
    """The PE image checksum (the algorithm of imagehlp's CheckSumMappedFile)."""
    padded = data + b"\0" * (len(data) % 2)
    total = 0
    for (word,) in struct.iter_unpack("<H", padded):
        total += word
        total = (total & 0xFFFF) + (total >> 16)
    # The checksum field itself counts as zero.
    for at in (checksum_offset, checksum_offset + 2):
        total -= _u16(padded, at)
        if total < 0:
            total += 0xFFFF
        total = (total & 0xFFFF) + (total >> 16)
    total = (total & 0xFFFF) + (total >> 16)
    return (total + len(data)) & 0xFFFFFFFF


def with_resources(data: bytes, resources: list[Resource]) -> bytes:
    """``data`` (a PE file without appended data or signature) with a new resource section
    holding ``resources``; the section is added after the last one."""
    pe = parse(data)
    if pe.directories[DIR_SECURITY] != (0, 0):
        raise PEError("the file is signed; sign it again after changing its resources")
    last = max(pe.sections, key=lambda s: s.raw_offset + s.raw_size)
    end_of_image = last.raw_offset + last.raw_size
    if len(data) > _align(end_of_image, pe.file_alignment):
        raise PEError("the file has data appended after its last section")
    table_end = pe.sections[-1].header_offset + 40
    if table_end + 40 > pe.size_of_headers:
        raise PEError("no room in the headers for another section")
    top = max(pe.sections, key=lambda s: s.virtual_address + s.virtual_size)
    rva = _align(top.virtual_address + max(top.virtual_size, top.raw_size),
                 pe.section_alignment)
    body = build_resource_section(resources, rva)
    raw_offset = _align(len(data), pe.file_alignment)
    raw = body + b"\0" * (_align(len(body), pe.file_alignment) - len(body))
    out = bytearray(data + b"\0" * (raw_offset - len(data)) + raw)
    struct.pack_into("<8sIIIIIIHHI", out, table_end, b".rsrc2", len(body), rva, len(raw),
                     raw_offset, 0, 0, 0, 0, 0x40000040)  # initialised data, readable
    coff = pe.optional_header_offset - 20
    struct.pack_into("<H", out, coff + 2, len(pe.sections) + 1)
    optional = pe.optional_header_offset
    struct.pack_into("<I", out, optional + 56, _align(rva + len(body), pe.section_alignment))
    initialised = _u32(out, optional + 8)
    struct.pack_into("<I", out, optional + 8, initialised + len(raw))
    struct.pack_into("<II", out, pe.data_directory_offset + 8 * DIR_RESOURCE, rva, len(body))
    struct.pack_into("<I", out, optional + 64, checksum(bytes(out), optional + 64))
    return bytes(out)


def _version_node(key: str, value: bytes, children: list[bytes], text: bool) -> bytes:
    """One node of a VS_VERSIONINFO tree: header, key, value and children, each child on a
    32-bit boundary ("VS_VERSIONINFO structure", learn.microsoft.com)."""
    body = bytearray(6) + (key + "\0").encode("utf-16-le")
    body += b"\0" * (-len(body) % 4) + value
    for child in children:
        body += b"\0" * (-len(body) % 4) + child
    value_length = len(value) // 2 if text else len(value)
    struct.pack_into("<HHH", body, 0, len(body), value_length, 1 if text else 0)
    return bytes(body)


def version_resource(version: str, strings: dict[str, str]) -> bytes:
    """An ``RT_VERSION`` resource: ``version`` ("1.2.3") as file and product version, and
    ``strings`` (CompanyName, FileDescription, ProductName, ...) in US English, Unicode."""
    numbers = ([int(n) for n in re.findall(r"\d+", version)[:4]] + [0, 0, 0, 0])[:4]
    packed = ((numbers[0] << 16) | numbers[1], (numbers[2] << 16) | numbers[3])
    fixed = struct.pack("<13I", 0xFEEF04BD, 0x00010000, *packed, *packed, 0x3F, 0,
                        0x00040004, 1, 0, 0, 0)  # VOS_NT_WINDOWS32, VFT_APP
    table = [_version_node(key, (value + "\0").encode("utf-16-le"), [], True)
             for key, value in {"FileVersion": version, "ProductVersion": version,
                                **strings}.items()]
    string_info = _version_node("StringFileInfo", b"", [
        _version_node("040904B0", b"", table, True)], True)
    var_info = _version_node("VarFileInfo", b"", [
        _version_node("Translation", struct.pack("<HH", 0x0409, 0x04B0), [], False)], True)
    return _version_node("VS_VERSION_INFO", fixed, [string_info, var_info], False)


def rebrand(data: bytes, ico: bytes | None = None, version: bytes | None = None) -> bytes:
    """``data`` with its icons replaced by those of ``ico`` and its version resource by
    ``version`` (from :func:`version_resource`); every other resource is kept as it was."""
    pe = parse(data)
    replaced = {RT_ICON, RT_GROUP_ICON} if ico is not None else set()
    if version is not None:
        replaced.add(RT_VERSION)
    kept = [r for r in pe.resources if r.type not in replaced]
    added = []
    if ico is not None:
        groups = [r for r in pe.resources if r.type == RT_GROUP_ICON]
        name = min((g.name for g in groups), key=_sort_key) if groups else 1
        added += icon_resources(ico, name, 1, groups[0].language if groups else 0)
    if version is not None:
        old = [r for r in pe.resources if r.type == RT_VERSION]
        added.append(Resource(RT_VERSION, old[0].name if old else 1,
                              old[0].language if old else 0, version))
    return with_resources(data, kept + added)


__all__ = ["PE", "PEError", "Resource", "build_resource_section", "checksum",
           "icon_resources", "parse", "read", "rebrand", "version_resource", "with_resources"]
