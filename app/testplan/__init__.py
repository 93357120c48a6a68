"""The load test a sizing implies, as commands, a script and a README (no Qt).

``SizingResult.test_plan`` (``app.engine.test_levels``) holds the levels and what each must
reach; :mod:`app.testplan.commands` writes the engine's launch command and the load
generators' commands; :mod:`app.testplan.render` writes the folder
(``aisizer test-plan SCENARIO -o DIR``, File > Export test plan).
"""

from app.testplan.render import plan_files, write_plan

__all__ = ["plan_files", "write_plan"]
