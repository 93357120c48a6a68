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
