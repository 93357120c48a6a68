"""Gettext catalogs with the standard library only: read and write ``.po``/``.pot``, check them
as ``msgfmt --check`` does, and compile them to ``.mo``.

The program loads the compiled ``.mo`` with :mod:`gettext`; this module is what builds it
(``make setup``, ``pip install``, ``packaging/aisizer.spec``) and what the translation tests
and ``python -m app.i18n.extract`` use, so neither GNU gettext nor Babel is needed. It imports
nothing from ``app``: setup.py and the PyInstaller spec load it by its path, before the
program's dependencies exist::

    python app/i18n/po.py compile       # every app/i18n/locale/*/LC_MESSAGES/*.po -> .mo
    python app/i18n/po.py check FILE.po  # the checks alone

Files are written the way ``msgcat --no-wrap --add-location=file`` writes them: one line per
string (a sentence stays searchable, as in the code), broken only after an embedded newline,
and source files without line numbers (code edits do not churn the catalog). A compiled
``.mo`` carries the SHA-256 of its ``.po`` in the header field ``X-PO-SHA256``, so that a
stale ``.mo`` is noticed without trusting file times.
"""

from __future__ import annotations

import gettext
import hashlib
import re
import string
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

DOMAIN = "aisizer"
SOURCE_HASH_FIELD = "X-PO-SHA256"
MO_MAGIC = 0x950412DE
PLURAL_PROBE = range(1001)  # counts the plural formula is checked and sampled over


class PoError(ValueError):
    """A catalog that cannot be read: names the file and line."""


@dataclass
class Entry:
    """One message of a catalog (the header is the entry whose msgid is empty)."""

    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr_plural: list[str] = field(default_factory=list)  # msgstr[0], msgstr[1], ...
    flags: list[str] = field(default_factory=list)  # fuzzy, python-brace-format
    locations: list[str] = field(default_factory=list)  # source files
    extracted: list[str] = field(default_factory=list)  # "#." notes for translators
    comments: list[str] = field(default_factory=list)  # "#" translator comments
    previous: str | None = None  # "#| msgid": the English a fuzzy entry was made for
    obsolete: bool = False
    line: int = 0  # where the entry starts in its file (for messages)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translations(self) -> list[str]:
        return self.msgstr_plural if self.msgid_plural is not None else [self.msgstr]

    @property
    def translated(self) -> bool:
        return bool(self.translations) and all(self.translations)


@dataclass
class Catalog:
    """A ``.po`` or ``.pot`` file: its header entry and its messages, in file order."""

    header: Entry = field(default_factory=lambda: Entry(""))
    entries: list[Entry] = field(default_factory=list)
    path: str = "<catalog>"

    def header_fields(self) -> dict[str, str]:
        fields = {}
        for line in self.header.msgstr.splitlines():
            name, sep, value = line.partition(":")
            if sep:
                fields[name.strip()] = value.strip()
        return fields

    def plural_forms(self) -> tuple[int, str]:
        """``nplurals`` and the ``plural`` expression of the Plural-Forms header."""
        text = self.header_fields().get("Plural-Forms", "")
        found = re.fullmatch(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*", text)
        if not found:
            raise PoError(f"{self.path}: the header has no valid Plural-Forms field "
                          f"(got {text!r}; German: 'nplurals=2; plural=(n != 1);')")
        return int(found.group(1)), found.group(2)


# --- reading ----------------------------------------------------------------------------------
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*)$')


def unquote(text: str, where: str) -> str:
    """The value of one quoted po string (``"..."``), escapes resolved."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, got {text!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        char = body[i]
        if char == '"':
            raise PoError(f"{where}: an unescaped quote inside {text!r}")
        if char != "\\":
            out.append(char)
            i += 1
            continue
        if i + 1 >= len(body):
            raise PoError(f"{where}: a backslash at the end of {text!r}")
        code = body[i + 1]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            i += 2
        elif code in "01234567":
            digits = re.match(r"[0-7]{1,3}", body[i + 1:]).group(0)
            out.append(chr(int(digits, 8)))
            i += 1 + len(digits)
        elif code == "x" and re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:]):
            digits = re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:]).group(0)
            out.append(chr(int(digits, 16)))
            i += 2 + len(digits)
        else:
            raise PoError(f"{where}: unknown escape \\{code} in {text!r}")
    return "".join(out)


class _Reader:
    """A line-by-line state machine over the po grammar."""

    def __init__(self, path: str):
        self.path = path
        self.entries: list[Entry] = []
        self.pending = Entry("")  # comments gathered for the next entry
        self.current: Entry | None = None
        self.target: tuple[str, int | None] | None = None  # the field continuation lines extend
        self.seen: set[str] = set()  # keywords of the current entry

    def where(self, number: int) -> str:
        return f"{self.path}:{number}"

    def finish(self) -> None:
        if self.current is not None:
            where = self.where(self.current.line)
            if not self.has_msgstr:
                raise PoError(f"{where}: entry without msgstr")
            if (self.current.msgid_plural is not None) != ("msgstr[0]" in self.seen):
                raise PoError(f"{where}: msgid_plural needs msgstr[0], msgstr[1], ...; a "
                              "singular msgid needs msgstr")
            self.entries.append(self.current)
        self.current, self.target, self.seen = None, None, set()

    @property
    def has_msgstr(self) -> bool:
        return any(label.startswith("msgstr") for label in self.seen)

    def comment(self, line: str, number: int) -> None:
        if self.current is not None and self.has_msgstr:
            self.finish()
        entry = self.pending
        kind, text = line[:2], line[2:].strip() if len(line) > 2 else ""
        if kind == "#,":
            entry.flags += [f.strip() for f in text.split(",") if f.strip()]
        elif kind == "#:":
            entry.locations += text.split()
        elif kind == "#.":
            entry.extracted.append(text)
        elif kind == "#|":
            found = re.match(r'msgid\s+(".*")$', text)
            if found:
                entry.previous = unquote(found.group(1), self.where(number))
            elif text.startswith('"') and entry.previous is not None:
                entry.previous += unquote(text, self.where(number))
        else:
            entry.comments.append(line[1:].removeprefix(" "))

    def keyword(self, name: str, index: str | None, value: str, number: int,
                obsolete: bool) -> None:
        where = self.where(number)
        if name in ("msgctxt", "msgid") and (self.current is None or self.has_msgstr):
            self.finish()
            self.current = self.pending
            self.current.line, self.current.obsolete = number, obsolete
            self.pending = Entry("")
        if self.current is None:
            raise PoError(f"{where}: {name} before msgid")
        label = name if index is None else f"msgstr[{index}]"
        if label in self.seen or (name == "msgctxt" and "msgid" in self.seen) or (
                name == "msgstr" and index is None and "msgstr[0]" in self.seen):
            raise PoError(f"{where}: {label} twice in one entry")
        if name.startswith("msgstr") and "msgid" not in self.seen:
            raise PoError(f"{where}: msgstr before msgid")
        self.seen.add(label)
        if index is not None:
            if int(index) != len(self.current.msgstr_plural):
                raise PoError(f"{where}: msgstr[{index}] out of order")
            self.current.msgstr_plural.append("")
        self.target = (name, None if index is None else int(index))
        self.extend(unquote(value, where))

    def extend(self, text: str) -> None:
        name, index = self.target
        entry = self.current
        if name == "msgstr" and index is not None:
            entry.msgstr_plural[index] += text
        elif name == "msgctxt":
            entry.msgctxt = (entry.msgctxt or "") + text
        elif name == "msgid_plural":
            entry.msgid_plural = (entry.msgid_plural or "") + text
        else:
            setattr(entry, name, getattr(entry, name) + text)

    def line(self, raw: str, number: int) -> None:
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if line.startswith("|"):
                line = "#" + line
        if not line:
            return
        if line.startswith("#"):
            self.comment(line, number)
            return
        found = _KEYWORD.match(line)
        if found:
            self.keyword(found.group(1).split("[")[0], found.group(2), found.group(3), number,
                         obsolete)
        elif line.startswith('"') and self.target is not None:
            self.extend(unquote(line, self.where(number)))
        else:
            raise PoError(f"{self.where(number)}: cannot read {raw.strip()!r}")


def parse(text: str, path: str = "<catalog>") -> Catalog:
    """The catalog in ``text`` (the contents of a ``.po`` or ``.pot`` file)."""
    reader = _Reader(path)
    for number, raw in enumerate(text.split("\n"), 1):  # not splitlines(): \x0c, \u2028...
        reader.line(raw.removesuffix("\r"), number)
    reader.finish()
    catalog = Catalog(path=path)
    for entry in reader.entries:
        if entry.msgid == "" and entry.msgctxt is None and not entry.obsolete:
            if catalog.header.line:
                raise PoError(f"{path}:{entry.line}: a second header entry")
            catalog.header = entry
        else:
            entry.msgstr_plural = entry.msgstr_plural if entry.msgid_plural is not None else []
            catalog.entries.append(entry)
    return catalog


def read(path: Path | str) -> Catalog:
    path = Path(path)
    return parse(path.read_text(encoding="utf-8"), str(path))


# --- writing ----------------------------------------------------------------------------------
_QUOTED = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a",
           "\b": "\\b", "\f": "\\f", "\v": "\\v"}


def quote(text: str) -> str:
    return '"' + "".join(_QUOTED.get(char, char) for char in text) + '"'


def _field(name: str, text: str) -> list[str]:
    """``name "text"``, broken after each embedded newline as msgcat --no-wrap does."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    if len(lines) <= 1:
        return [f"{name} {quote(text)}"]
    return [f'{name} ""'] + [quote(line) for line in lines]


def _locations(files: list[str], width: int = 79) -> list[str]:
    """``#:`` lines, as many files on each as fit in ``width`` columns (as GNU's tools wrap
    them even with --no-wrap)."""
    lines: list[str] = []
    for name in files:
        if lines and len(lines[-1]) + 1 + len(name) <= width:
            lines[-1] += " " + name
        else:
            lines.append("#: " + name)
    return lines


def format_entry(entry: Entry) -> str:
    lines = [f"# {c}".rstrip() for c in entry.comments]
    lines += [f"#. {c}".rstrip() for c in entry.extracted]
    lines += _locations(entry.locations)
    if entry.flags:
        lines.append("#, " + ", ".join(entry.flags))
    if entry.previous is not None:
        lines += ["#| " + line for line in _field("msgid", entry.previous)]
    body = []
    if entry.msgctxt is not None:
        body += _field("msgctxt", entry.msgctxt)
    body += _field("msgid", entry.msgid)
    if entry.msgid_plural is not None:
        body += _field("msgid_plural", entry.msgid_plural)
        forms = entry.msgstr_plural or ["", ""]
        for i, text in enumerate(forms):
            body += _field(f"msgstr[{i}]", text)
    else:
        body += _field("msgstr", entry.msgstr)
    if entry.obsolete:
        body = ["#~ " + line for line in body]
    return "\n".join(lines + body) + "\n"


def dumps(catalog: Catalog) -> str:
    return "\n".join(format_entry(e) for e in [catalog.header, *catalog.entries])


def write(catalog: Catalog, path: Path | str) -> None:
    """Write ``catalog`` to ``path`` (through a temporary file, then a rename)."""
    path = Path(path)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(dumps(catalog), encoding="utf-8", newline="\n")
    temporary.replace(path)


# --- checking ---------------------------------------------------------------------------------
def placeholders(text: str) -> set[tuple[str, str]]:
    """The ``{name:spec}`` fields of ``text`` (a conversion is kept with the name); raises
    ValueError for a text with unbalanced braces."""
    fields = set()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            fields.add((name + (f"!{conversion}" if conversion else ""), spec or ""))
    return fields


def _shown(fields: set[tuple[str, str]]) -> str:
    return ", ".join(sorted("{" + n + (f":{s}" if s else "") + "}" for n, s in fields)) or "none"


def plural_function(expression: str, where: str):
    try:
        return gettext.c2py(expression)
    except (ValueError, SyntaxError) as exc:
        raise PoError(f"{where}: the plural expression {expression!r} is invalid ({exc})") \
            from None


def _form_sources(entry: Entry, nplurals: int, choose) -> list[str]:
    """For each plural form, the English it must match: the singular for a form only the count
    1 takes (German form 0), else the plural."""
    sources = []
    for form in range(nplurals):
        counts = {n for n in PLURAL_PROBE if choose(n) == form}
        sources.append(entry.msgid if counts == {1} else entry.msgid_plural)
    return sources


def _check_format(english: str, translation: str, where: str) -> list[str]:
    try:
        wanted = placeholders(english)
    except ValueError as exc:
        return [f"{where}: the msgid is not a valid format string ({exc})"]
    try:
        found = placeholders(translation)
    except ValueError as exc:
        return [f"{where}: the translation is not a valid format string ({exc})"]
    if wanted != found:
        return [f"{where}: placeholders differ: msgid has {_shown(wanted)}, msgstr has "
                f"{_shown(found)}"]
    return []


def _check_newlines(english: str, translation: str, where: str) -> list[str]:
    problems = []
    if english.startswith("\n") != translation.startswith("\n"):
        problems.append(f"{where}: msgid and msgstr must both begin with a newline, or neither")
    if english.endswith("\n") != translation.endswith("\n"):
        problems.append(f"{where}: msgid and msgstr must both end with a newline, or neither")
    return problems


def check_header(catalog: Catalog) -> list[str]:
    where = f"{catalog.path}:{catalog.header.line or 1}"
    fields = catalog.header_fields()
    problems = []
    content = fields.get("Content-Type", "")
    if "charset=UTF-8" not in content:
        problems.append(f"{where}: the header must say Content-Type: text/plain; charset=UTF-8")
    for name in ("Project-Id-Version", "Language", "MIME-Version", "Content-Transfer-Encoding"):
        if not fields.get(name):
            problems.append(f"{where}: the header has no {name} field")
    try:
        nplurals, expression = catalog.plural_forms()
        choose = plural_function(expression, where)
        outside = [n for n in PLURAL_PROBE if not 0 <= choose(n) < nplurals]
        if outside:
            problems.append(f"{where}: the plural expression gives a form outside 0..{nplurals - 1}"
                            f" for n = {outside[0]}")
    except PoError as exc:
        problems.append(str(exc))
    return problems


def check(catalog: Catalog, template: bool = False, gaps: bool = True) -> list[str]:
    """Problems ``msgfmt --check`` would report (header, plural forms, placeholders compared
    as python-brace-format: the same names and format specs, newlines, duplicates), and with
    ``gaps`` those the tests refuse besides: untranslated, fuzzy and obsolete entries (a
    ``.pot``, ``template=True``, is all untranslated)."""
    problems = [] if template else check_header(catalog)
    try:
        nplurals, expression = catalog.plural_forms()
        choose = plural_function(expression, catalog.path)
    except PoError:
        nplurals, choose = 2, (lambda n: int(n != 1))
    seen: dict[tuple[str | None, str], int] = {}
    for entry in catalog.entries:
        where = f"{catalog.path}:{entry.line}"
        if entry.key in seen and not entry.obsolete:
            problems.append(f"{where}: duplicate of the entry at line {seen[entry.key]} "
                            f"(msgctxt {entry.msgctxt!r}, msgid {entry.msgid!r})")
        seen.setdefault(entry.key, entry.line)
        if entry.obsolete:
            if gaps:
                problems.append(f"{where}: obsolete entry (#~) {entry.msgid!r}: delete it")
            continue
        if template:
            continue
        if entry.fuzzy:  # not compiled, so not checked further (as msgfmt --check does)
            if gaps:
                problems.append(f"{where}: fuzzy entry {entry.msgid!r}: check the German, "
                                "then remove the fuzzy flag (and the #| line)")
            continue
        if entry.msgid_plural is not None and len(entry.msgstr_plural) != nplurals:
            problems.append(f"{where}: {len(entry.msgstr_plural)} plural forms, the header says "
                            f"nplurals={nplurals}")
            continue
        if not entry.translated:
            if gaps:
                problems.append(f"{where}: no translation for {entry.msgid!r}")
            continue
        sources = (_form_sources(entry, nplurals, choose) if entry.msgid_plural is not None
                   else [entry.msgid])
        for english, translation in zip(sources, entry.translations, strict=True):
            problems += _check_format(english, translation, where)
            problems += _check_newlines(english, translation, where)
    return problems


# --- compiling --------------------------------------------------------------------------------
def source_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def mo_bytes(catalog: Catalog, po_hash: str | None = None) -> bytes:
    """The GNU ``.mo`` of ``catalog``: translated entries only (fuzzy, untranslated and
    obsolete ones are left out, as msgfmt does), sorted, without a hash table (optional in
    the format; :mod:`gettext` does not read it). ``po_hash`` goes into the header."""
    header = catalog.header.msgstr
    if po_hash is not None:
        header = header + ("" if header.endswith("\n") or not header else "\n") + \
            f"{SOURCE_HASH_FIELD}: {po_hash}\n"
    pairs = {b"": header.encode("utf-8")}
    for entry in catalog.entries:
        if entry.obsolete or entry.fuzzy or not entry.translated:
            continue
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is not None:
            key += "\x00" + entry.msgid_plural
        pairs[key.encode("utf-8")] = "\x00".join(entry.translations).encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    tables, blob = [], bytearray()
    for strings in (keys, [pairs[k] for k in keys]):
        table = []
        for text in strings:
            table.append((len(text), data_at + len(blob)))
            blob += text + b"\0"
        tables.append(table)
    out = struct.pack("<7I", MO_MAGIC, 0, count, originals_at, translations_at, 0, data_at)
    for table in tables:
        out += b"".join(struct.pack("<2I", length, offset) for length, offset in table)
    return out + bytes(blob)


def mo_path(po: Path) -> Path:
    return po.with_suffix(".mo")


def compiled_hash(mo: Path) -> str | None:
    """The ``X-PO-SHA256`` a ``.mo`` was compiled from (None: missing, unreadable, foreign)."""
    try:
        with mo.open("rb") as handle:
            info = gettext.GNUTranslations(handle).info()
    except (OSError, ValueError, struct.error, UnicodeDecodeError):
        return None
    return info.get(SOURCE_HASH_FIELD.lower())


def is_current(po: Path) -> bool:
    """Whether the ``.mo`` beside ``po`` exists and was compiled from ``po`` as it is now."""
    return compiled_hash(mo_path(po)) == source_hash(po.read_bytes())


def count_gaps(catalog: Catalog) -> dict[str, int]:
    """How many entries are untranslated, fuzzy or obsolete: left out of the ``.mo`` (they
    show in English), and refused by the translation tests."""
    live = [e for e in catalog.entries if not e.obsolete]
    return {"untranslated": sum(1 for e in live if not e.fuzzy and not e.translated),
            "fuzzy": sum(1 for e in live if e.fuzzy),
            "obsolete": len(catalog.entries) - len(live)}


def compile_po(po: Path) -> tuple[bytes, dict[str, int]]:
    """Check ``po`` and return its ``.mo`` and its gaps (:func:`count_gaps`); raises PoError
    listing every error (as ``msgfmt --check`` refuses to compile)."""
    data = po.read_bytes()
    catalog = parse(data.decode("utf-8"), str(po))
    problems = check(catalog, gaps=False)
    if problems:
        raise PoError("\n".join(problems))
    return mo_bytes(catalog, source_hash(data)), count_gaps(catalog)


def catalogs(locale_dir: Path) -> list[Path]:
    """Every ``<lang>/LC_MESSAGES/aisizer.po`` under ``locale_dir``."""
    return sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_all(locale_dir: Path, out_dir: Path | None = None, force: bool = False
                ) -> dict[Path, dict[str, int]]:
    """Compile every catalog under ``locale_dir`` whose ``.mo`` is missing or stale (into
    ``out_dir``, same layout, when given); returns the files written and their gaps."""
    written = {}
    for po in catalogs(locale_dir):
        target = mo_path(po if out_dir is None else out_dir / po.relative_to(locale_dir))
        if not force and target.exists() and compiled_hash(target) == source_hash(
                po.read_bytes()):
            continue
        data, missing = compile_po(po)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + ".tmp")
        temporary.write_bytes(data)
        temporary.replace(target)
        written[target] = missing
    return written


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "compile"
    if command == "compile":
        folder = Path(args[0]) if args else Path(__file__).resolve().parent / "locale"
        try:
            written = compile_all(folder)
        except PoError as exc:
            print(f"translations not compiled:\n{exc}", file=sys.stderr)
            return 1
        for path, missing in written.items():
            left_out = ", ".join(f"{n} {kind}" for kind, n in missing.items() if n)
            print(f"compiled {path}" + (f" (left out, shown in English: {left_out}; "
                                        "translate them)" if left_out else ""))
        return 0
    if command == "check" and args:
        problems = [p for name in args for p in check(read(name))]
        print("\n".join(problems) or "no problems", file=sys.stderr if problems else sys.stdout)
        return 1 if problems else 0
    print("usage: po.py compile [LOCALE_DIR] | po.py check FILE.po ...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
