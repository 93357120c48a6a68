"""The load test a sizing implies, as a script and a README (no Qt).

:func:`app.testplan.plan.build_plan` lays out the levels and their pass figures from the
engine's own predictions; :mod:`app.testplan.commands` writes the engine's launch command and
the load generators' commands; :mod:`app.testplan.render` writes the folder
(``aisizer test-plan SCENARIO -o DIR``, File > Export test plan).
"""

from app.testplan.plan import LoadTestPlan, Step, build_plan
from app.testplan.render import plan_files, write_plan

__all__ = ["LoadTestPlan", "Step", "build_plan", "plan_files", "write_plan"]
