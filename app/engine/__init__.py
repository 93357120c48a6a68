"""The sizing method as pure functions: one module per topic, SI units, no I/O, no Qt.

``pipeline.size(scenario, catalog)`` runs the five steps and returns a ``SizingResult``.
"""
