"""packaging/winpe.py against pefile (an independent PE parser) and objdump, on real Windows
binaries that every virtual environment carries (pip's distlib launchers) and on synthetic
ones (pe_fixtures.py); and the launchers the Windows build makes from them."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from pathlib import Path

import build_windows
import pefile
import pytest
import winpe
from pe_fixtures import make_pe

ROOT = Path(__file__).resolve().parents[2]
ICON = (ROOT / "packaging" / "icons" / "aisizer.ico").read_bytes()


def distlib_launcher(name: str) -> bytes:
    import pip

    path = Path(pip.__file__).parent / "_vendor" / "distlib" / name
    if not path.is_file():
        pytest.skip(f"this pip has no {name}")
    return path.read_bytes()


@pytest.fixture(scope="module", params=["t64.exe", "w64.exe"])
def launcher_template(request) -> bytes:
    return distlib_launcher(request.param)


def pefile_imports(data: bytes) -> tuple[list[str], list[str]]:
    parsed = pefile.PE(data=data)
    normal = [e.dll.decode() for e in getattr(parsed, "DIRECTORY_ENTRY_IMPORT", [])]
    delayed = [e.dll.decode() for e in getattr(parsed, "DIRECTORY_ENTRY_DELAY_IMPORT", [])]
    return normal, delayed


def test_imports_of_the_distlib_launchers_match_pefile(launcher_template):
    ours = winpe.parse(launcher_template)
    assert (ours.imports, ours.delay_imports) == pefile_imports(launcher_template)
    assert ours.machine == "x86_64" and not ours.is_dll
    assert "KERNEL32.dll" in ours.imports


@pytest.mark.parametrize(("imports", "delayed"), [
    (["KERNEL32.dll"], []),
    (["python313.dll", "VCRUNTIME140.dll", "api-ms-win-crt-runtime-l1-1-0.dll"], ["d3d12.dll"]),
    ([], ["dwmapi.dll", "UxTheme.dll"]),
])
def test_imports_of_synthetic_files_match_pefile(imports, delayed):
    data = make_pe(imports, delayed)
    ours = winpe.parse(data)
    assert (ours.imports, ours.delay_imports) == pefile_imports(data) == (imports, delayed)
    assert ours.all_imports == list(dict.fromkeys(imports + delayed))
    assert all(ours.functions[name] == ["DoIt"] for name in imports + delayed)


def test_objdump_reads_the_same_imports(tmp_path):
    objdump = shutil.which("objdump")
    if objdump is None:
        pytest.skip("objdump (binutils) is not installed")
    path = tmp_path / "x.dll"
    path.write_bytes(make_pe(["KERNEL32.dll", "Qt6Core.dll"]))
    out = subprocess.run([objdump, "-p", str(path)], capture_output=True, text=True).stdout
    assert [line.split(":")[1].strip() for line in out.splitlines()
            if "DLL Name:" in line] == ["KERNEL32.dll", "Qt6Core.dll"]


def test_not_a_pe_file_is_a_clear_error(tmp_path):
    path = tmp_path / "broken.dll"
    path.write_bytes(b"MZ" + b"\0" * 100)
    with pytest.raises(winpe.PEError, match="broken.dll"):
        winpe.read(path)
    with pytest.raises(winpe.PEError, match="no MZ header"):
        winpe.parse(b"ELF")


def test_checksum_is_the_one_pefile_computes():
    data = make_pe(["KERNEL32.dll"])
    parsed = pefile.PE(data=data)
    assert winpe.checksum(data, winpe.parse(data).optional_header_offset + 64) == \
        parsed.generate_checksum()


def test_rebrand_sets_icon_and_version_and_keeps_the_manifest(launcher_template):
    before = winpe.parse(launcher_template)
    version = winpe.version_resource("1.2.3", {"FileDescription": "AI Sizer test",
                                               "ProductName": "AI Sizer"})
    data = winpe.rebrand(launcher_template, ICON, version)
    after = winpe.parse(data)
    assert after.manifest() == before.manifest() and "asInvoker" in after.manifest()
    parsed = pefile.PE(data=data)
    assert parsed.OPTIONAL_HEADER.CheckSum == parsed.generate_checksum()
    strings = {k.decode(): v.decode() for info in parsed.FileInfo[0]
               if info.Key == b"StringFileInfo"
               for table in info.StringTable for k, v in table.entries.items()}
    assert strings["FileDescription"] == "AI Sizer test"
    assert strings["ProductVersion"] == "1.2.3"
    fixed = parsed.VS_FIXEDFILEINFO[0]
    assert (fixed.FileVersionMS, fixed.FileVersionLS) == ((1 << 16) | 2, 3 << 16)
    icons = [r for r in after.resources if r.type == winpe.RT_ICON]
    group = next(r for r in after.resources if r.type == winpe.RT_GROUP_ICON)
    count = int.from_bytes(ICON[4:6], "little")
    assert len(icons) == count == int.from_bytes(group.data[4:6], "little")
    # Each image is the .ico's image, byte for byte.
    for i, icon in enumerate(sorted(icons, key=lambda r: r.name)):
        size, at = (int.from_bytes(ICON[6 + 16 * i + 8:6 + 16 * i + 12], "little"),
                    int.from_bytes(ICON[6 + 16 * i + 12:6 + 16 * i + 16], "little"))
        assert icon.data == ICON[at:at + size]
    # pefile sees the new section and the resource directory pointing into it.
    assert parsed.sections[-1].Name.rstrip(b"\0") == b".rsrc2"
    resource_dir = parsed.OPTIONAL_HEADER.DATA_DIRECTORY[2]
    assert resource_dir.VirtualAddress == parsed.sections[-1].VirtualAddress


def test_a_signed_or_extended_file_is_not_rebranded(launcher_template):
    with pytest.raises(winpe.PEError, match="appended"):
        winpe.rebrand(launcher_template + b"#!python.exe\n" * 64, ICON)


def test_the_launcher_is_exe_then_shebang_then_zip(launcher_template):
    data = build_windows.launcher(launcher_template, "python.exe", "aisizer.exe", "AI Sizer",
                                  ICON)
    archive = zipfile.ZipFile(io.BytesIO(data))
    main = archive.read("__main__.py").decode("utf-8")
    assert "from aisizer_launcher import main" in main
    assert "pycache_prefix" in main
    start = data.rindex(b"PK\x03\x04")  # the only member: __main__.py
    image = data[:data.rindex(b"#!", 0, start)]
    assert winpe.parse(image).resources  # the PE image ends where the shebang starts
    # distlib's launcher resolves <launcher_dir>\ against the folder of the .exe.
    assert data[len(image):start] == b"#!<launcher_dir>\\lib\\python\\python.exe -X utf8\n"
    assert winpe.parse(data).manifest() == winpe.parse(launcher_template).manifest()


def test_signing_keeps_the_launcher_script_readable(tmp_path, launcher_template):
    """osslsigncode appends the signature after the zip; Python and the launcher still find
    the archive (they search the end of the file for it)."""
    if shutil.which("osslsigncode") is None:
        pytest.skip("osslsigncode is not installed (Debian: apt-get install osslsigncode)")
    pkcs12 = tmp_path / "test-signing.p12"
    pkcs12.write_bytes(self_signed_code_signing_pkcs12("secret"))
    exe = tmp_path / "aisizer.exe"
    exe.write_bytes(build_windows.launcher(launcher_template, "python.exe", "aisizer.exe",
                                           "AI Sizer", ICON))
    unsigned = exe.read_bytes()
    build_windows.sign(exe, (pkcs12, "secret"))
    signed = exe.read_bytes()
    assert len(signed) > len(unsigned)
    assert zipfile.ZipFile(exe).read("__main__.py")
    out = subprocess.run(["osslsigncode", "verify", "-in", str(exe)], capture_output=True,
                         text=True)
    text = out.stdout + out.stderr
    current = [line.split(":")[1].strip() for line in text.splitlines()
               if line.startswith("Current message digest")]
    calculated = [line.split(":")[1].strip() for line in text.splitlines()
                  if line.startswith("Calculated message digest")]
    assert current and current == calculated
    assert "AI Sizer signing test" in text


def self_signed_code_signing_pkcs12(password: str) -> bytes:
    import datetime as dt

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import pkcs12
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "AI Sizer signing test")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), False)
            .sign(key, hashes.SHA256()))
    return pkcs12.serialize_key_and_certificates(
        b"test", key, cert, None, serialization.BestAvailableEncryption(password.encode()))
