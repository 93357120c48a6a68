"""Word choices of the German catalog: 'Bandbreite' is a bandwidth only; the range of a
figure is a 'Spanne'."""

from __future__ import annotations

from app.i18n import po
from app.i18n.translations import catalog_files


def test_bandbreite_is_only_a_bandwidth():
    wrong = []
    for entry in po.read(catalog_files("de")[0]).entries:
        german = " ".join([entry.msgstr, *entry.msgstr_plural])
        english = f"{entry.msgid} {entry.msgid_plural or ''}".lower().strip()
        if "Bandbreite" in german and "bandwidth" not in english and english != "memory":
            wrong.append(entry.msgid)
    assert wrong == []


def test_number_formats_read_german():
    """A format's catalog name is a parameter of German sentences (the memory narrative):
    its words are translated, its technical part kept."""
    from app.catalog.loader import load_catalog
    from app.i18n import translate

    names = [p.name for p in load_catalog(include_user=False).precisions.values()
             if " (" in p.name]
    assert names
    for name in names:
        german = translate(name, "de")
        assert german != name and german.split(" (")[0] == name.split(" (")[0]
