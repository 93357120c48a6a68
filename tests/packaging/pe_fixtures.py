"""Small, valid PE32+ files for the Windows build's tests, written from the PE format spec
(learn.microsoft.com/windows/win32/debug/pe-format): one ``.idata`` section with an import
table and a delay-load import table, each DLL importing one function by name.

``pefile`` (an independent parser) reads them in tests/packaging/test_winpe.py, so they are
not only what our own parser expects.
"""

from __future__ import annotations

import struct

FILE_ALIGN = 0x200
SECTION_ALIGN = 0x1000
SECTION_RVA = 0x1000
MACHINES = {"x86_64": 0x8664, "x86": 0x14C}


def _align(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def make_pe(imports: list[str] = (), delay_imports: list[str] = (), dll: bool = True,
            machine: str = "x86_64", function: str = "DoIt") -> bytes:
    """A PE32+ image (64-bit; ``machine`` only sets the COFF machine field)."""
    imports, delay_imports = list(imports), list(delay_imports)
    body = bytearray()

    def place(data: bytes, align: int = 8) -> int:
        body.extend(b"\0" * (-len(body) % align))
        at = len(body)
        body.extend(data)
        return SECTION_RVA + at

    # Import descriptors first (fixed size), filled in once the names are placed.
    import_dir = place(b"\0" * 20 * (len(imports) + 1))
    delay_dir = place(b"\0" * 32 * (len(delay_imports) + 1))
    hint_name = place(struct.pack("<H", 0) + function.encode("ascii") + b"\0", 2)

    def thunks() -> int:
        return place(struct.pack("<QQ", hint_name, 0))

    for i, name in enumerate(imports):
        name_rva = place(name.encode("ascii") + b"\0", 2)
        lookup, address = thunks(), thunks()
        struct.pack_into("<IIIII", body, import_dir - SECTION_RVA + 20 * i, lookup, 0, 0,
                         name_rva, address)
    for i, name in enumerate(delay_imports):
        name_rva = place(name.encode("ascii") + b"\0", 2)
        handle = place(b"\0" * 8)
        lookup, address = thunks(), thunks()
        struct.pack_into("<IIIIIIII", body, delay_dir - SECTION_RVA + 32 * i, 1, name_rva,
                         handle, address, lookup, 0, 0, 0)
    raw = bytes(body) + b"\0" * (_align(len(body), FILE_ALIGN) - len(body))
    size_of_image = SECTION_RVA + _align(len(body), SECTION_ALIGN)

    header = bytearray(FILE_ALIGN)
    header[0:2] = b"MZ"
    struct.pack_into("<I", header, 0x3C, 0x40)
    header[0x40:0x44] = b"PE\0\0"
    coff = 0x44
    characteristics = 0x0022 | (0x2000 if dll else 0)  # executable, large address aware
    struct.pack_into("<HHIIIHH", header, coff, MACHINES[machine], 1, 0, 0, 0, 240,
                     characteristics)
    optional = coff + 20
    struct.pack_into("<HBBIIIII", header, optional, 0x20B, 14, 0, 0, len(raw), 0, 0,
                     SECTION_RVA)
    struct.pack_into("<QII", header, optional + 24, 0x180000000, SECTION_ALIGN, FILE_ALIGN)
    struct.pack_into("<HHHHHHI", header, optional + 40, 6, 0, 0, 0, 6, 0, 0)
    struct.pack_into("<IIIHH", header, optional + 56, size_of_image, FILE_ALIGN, 0,
                     3 if not dll else 2, 0x160)
    struct.pack_into("<QQQQII", header, optional + 72, 0x100000, 0x1000, 0x100000, 0x1000, 0,
                     16)
    directories = optional + 112
    if imports:
        struct.pack_into("<II", header, directories + 8 * 1, import_dir,
                         20 * (len(imports) + 1))
    if delay_imports:
        struct.pack_into("<II", header, directories + 8 * 13, delay_dir,
                         32 * (len(delay_imports) + 1))
    section = optional + 240
    struct.pack_into("<8sIIIIIIHHI", header, section, b".idata", len(body), SECTION_RVA,
                     len(raw), FILE_ALIGN, 0, 0, 0, 0, 0xC0000040)
    return bytes(header) + raw
