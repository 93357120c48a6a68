"""Verification only, never shipped: give Wine's ucrtbase.dll the trivial C99 complex-number
accessors it leaves unimplemented (Wine 10.0: crealf, cimagf, cimag, creall, cimagl are
stubs that abort), so that numpy 2 can be imported under Wine. Patches the file in place
(keeps a .orig copy); run inside the throw-away Wine chroot (packaging/wine/run.sh).

x64 Microsoft ABI: _Fcomplex (two floats, 8 bytes) arrives by value in RCX, _Dcomplex and
_Lcomplex (long double is double) by reference in RCX; the result goes in XMM0.
"""

import shutil
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import winpe  # noqa: E402

CODE = {
    "crealf": "660f6ec1c3",              # movd xmm0, ecx; ret
    "cimagf": "48c1e920660f6ec1c3",      # shr rcx, 32; movd xmm0, ecx; ret
    "creall": "f20f1001c3",              # movsd xmm0, [rcx]; ret
    "cimag": "f20f104108c3",             # movsd xmm0, [rcx+8]; ret
    "cimagl": "f20f104108c3",
}
STUB_PREFIX = bytes.fromhex("4883ec28488d0d")  # sub rsp, 28h; lea rcx, [rip+...] (winebuild)


def exports(data: bytes, pe: winpe.PE) -> dict[str, int]:
    def offset(rva):
        return winpe._rva_to_offset(pe.sections, rva, pe.size_of_headers)

    rva, _size = pe.directories[0]
    fields = struct.unpack_from("<IIHHIIIIIII", data, offset(rva))
    n_names, functions, names, ordinals = fields[7], fields[8], fields[9], fields[10]
    found = {}
    for i in range(n_names):
        name_rva = struct.unpack_from("<I", data, offset(names) + 4 * i)[0]
        name = winpe._cstring(data, offset(name_rva))
        ordinal = struct.unpack_from("<H", data, offset(ordinals) + 2 * i)[0]
        found[name] = offset(struct.unpack_from("<I", data, offset(functions) + 4 * ordinal)[0])
    return found


def main(path: str) -> int:
    target = Path(path)
    data = bytearray(target.read_bytes())
    pe = winpe.parse(bytes(data))
    table = exports(bytes(data), pe)
    patched = []
    for name, code in CODE.items():
        at = table[name]
        if data[at:at + len(STUB_PREFIX)] != STUB_PREFIX:
            print(f"{name}: not a Wine stub here, left as it is")
            continue
        data[at:at + len(code) // 2] = bytes.fromhex(code)
        patched.append(name)
    if patched:
        backup = target.with_name(target.name + ".orig")
        if not backup.exists():
            shutil.copy2(target, backup)
        target.write_bytes(bytes(data))
    print(f"{target}: implemented {', '.join(patched) or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
