"""PDF sizing report and its signature (reportlab, pyHanko). No Qt.

The report itself is built by the report issue; this package exists so that the rule
"report never imports Qt" is checked from the start.
"""
