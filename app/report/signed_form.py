"""What a genuine report's signature and pages look like, checked beyond pyHanko's verdict.

pyHanko checks that the signed bytes match the signature. Two things it does not check, and
an impostor can use:

- The CMS signature value (``/Contents``) lies outside the signed byte range. Its unsigned
  parts (the certificate set, unsigned attributes, the zero padding after the DER value) can
  be altered without breaking the signature. An AI Sizer signature is exactly: one DER
  ``ContentInfo`` in canonical encoding, then zero bytes; one signer; the signer's
  certificate once (and its chain, each once); no unsigned attributes, no CRLs.
  :func:`cms_problem` says what differs, or ``""``.
- The fingerprint printed in the visible signature block is page text the signer chose. An
  impostor certificate with the genuine signer's subject, serial and key identifier, whose
  report prints the genuine fingerprint, passes pyHanko's checks with the same name.
  :func:`printed_fingerprints` reads every fingerprint the pages print (colon pairs, or
  groups of four), so that :mod:`app.report.verify` can call a mismatch a forgery.
"""

from __future__ import annotations

import io
import re

from asn1crypto import cms
from pypdf import PdfReader

HEX = "0-9A-F"
# AB:CD:...:EF (32 pairs), on one line or split into two lines of 16 pairs
_PAIRS = re.compile(rf"(?<![{HEX}:])[{HEX}]{{2}}(?::[{HEX}]{{2}}){{15}}\s*:?\s*"
                    rf"[{HEX}]{{2}}(?::[{HEX}]{{2}}){{15}}(?![{HEX}:])")
# ABCD EF01 ... (16 groups of four), on one or more lines
_GROUPS = re.compile(rf"(?<![{HEX}])[{HEX}]{{4}}(?:\s+[{HEX}]{{4}}){{15}}(?![{HEX}])")


CMS_PROBLEMS = {
    "parse": "the signature value does not parse as one CMS structure",
    "padding": "the padding after the signature value was changed after signing",
    "canonical": "the signature value is not in the canonical form it was signed in",
    "signers": "the signature value holds more than one signer",
    "unsigned": "unsigned attributes were added to the signature value",
    "crls": "revocation lists were added to the signature value",
    "duplicate": "a certificate appears twice in the signature value",
}


def cms_problem(signature) -> str:
    """Why the CMS of ``signature`` (pyHanko's EmbeddedPdfSignature) is not as signed, or ''.

    The sentence is one of :data:`CMS_PROBLEMS`.
    """
    raw = bytes(signature.sig_object["/Contents"])
    try:
        parsed = cms.ContentInfo.load(raw)
        length = len(parsed.dump())
        exact = cms.ContentInfo.load(raw[:length])
        canonical = exact.dump(force=True) == raw[:length]
        signed = exact["content"]
        signer_infos = list(signed["signer_infos"])
        certificates = [c.dump() for c in signed["certificates"]] \
            if signed["certificates"].native is not None else []
    except (ValueError, TypeError, KeyError):
        return CMS_PROBLEMS["parse"]
    if any(raw[length:]):
        return CMS_PROBLEMS["padding"]
    if not canonical:
        return CMS_PROBLEMS["canonical"]
    if len(signer_infos) != 1:
        return CMS_PROBLEMS["signers"]
    if signer_infos[0]["unsigned_attrs"].native is not None:
        return CMS_PROBLEMS["unsigned"]
    if signed["crls"].native is not None:
        return CMS_PROBLEMS["crls"]
    if len(set(certificates)) != len(certificates):
        return CMS_PROBLEMS["duplicate"]
    return ""


def _normalised(found: str) -> str:
    digits = re.sub(rf"[^{HEX}]", "", found)
    return ":".join(digits[i:i + 2] for i in range(0, len(digits), 2))


def fingerprints_in(text: str) -> list[str]:
    """Every SHA-256 fingerprint printed in ``text``, as colon pairs (AB:CD:...), in order."""
    found = [(m.start(), m.group()) for pattern in (_PAIRS, _GROUPS)
             for m in pattern.finditer(text)]
    return [_normalised(value) for _, value in sorted(found)
            if re.search("[A-F]", value)]  # a run of decimal digits is a table, not a hash


# An AI Sizer report has some 15 to 40 pages; reading the text of at most this many keeps a
# check of any signed PDF within seconds (the signature page, where the block is, always).
MAX_PAGES_READ = 200


def printed_fingerprints(data: bytes) -> list[str]:
    """The fingerprints the pages of the PDF ``data`` print (text extraction).

    Every page of a report is read; of a longer PDF the first :data:`MAX_PAGES_READ` and the
    last (where a report's signature block is).
    """
    reader = PdfReader(io.BytesIO(data))
    count = len(reader.pages)
    indices = list(range(count)) if count <= MAX_PAGES_READ else \
        [*range(MAX_PAGES_READ - 1), count - 1]
    found: list[str] = []
    for index in indices:
        found += fingerprints_in(reader.pages[index].extract_text() or "")
    return found
