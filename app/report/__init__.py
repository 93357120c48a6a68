"""PDF sizing report and its signature (reportlab, pyHanko). No Qt, no app.ui.

The report is rendered from the scenario and the SizingResult alone, never from widgets.

- :mod:`app.report.export`: ``build_report`` (render, attach, sign) and ``write_report``
  (atomic) — what ``aisizer report`` and File > Export report call;
- :mod:`app.report.document`, :mod:`app.report.charts`, :mod:`app.report.series`,
  :mod:`app.report.style`, :mod:`app.report.text`: the document, vector charts and the series
  they plot, fonts and styles, words and numbers;
- :mod:`app.report.toc`: the table of contents (the chapters in order, their numbers);
  :mod:`app.report.chapters`: one module per chapter; :mod:`app.report.context` (what a
  chapter is written from), :mod:`app.report.flowables` (headings, paragraphs, tables) and
  :mod:`app.report.phrases` (phrases several chapters share);
- the validation plan's and the stack's commands come from ``app.testplan`` (the test plan
  in ``SizingResult.test_plan``); the Validation chapter puts imported measurements beside
  the prediction (``SizingResult.validation``);
- :mod:`app.report.accuracy`: the method's calibration errors (computed or recorded);
- :mod:`app.report.attachments`: scenario.json / result.json in the PDF, and reading them
  back (``scenario_from_report`` for ``aisizer size REPORT.pdf`` and File > Open);
- :mod:`app.report.identity`: the local signing identity (PKCS#12 in the config folder);
- :mod:`app.report.signing`: PAdES B-B signature with pyHanko, offline;
- :mod:`app.report.verify`: the four verdicts of ``aisizer verify`` and Help > Verify report.
"""
