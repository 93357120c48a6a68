"""The sizing method as pure functions in levels: SI units, no I/O, no Qt, no global state.

From the bottom up (each level imports only the ones below; import-linter contracts in
pyproject.toml keep it so):

- formulas, one module per topic: ``memory``, ``capacity``, ``inference``, ``performance``,
  ``training``, ``network``, ``facility``, ``storage``, ``cost``, ``scale``, ``rag``,
  ``cpu_inference``;
- one configuration and its evaluation: ``configuration``, ``evaluate``;
- what the result records beside the numbers: ``assumptions``, ``narrative`` (sentences);
- the scenario resolved in engine terms, and what cannot be sized: ``resolved``;
- the server choice (``servers``) and the calibration against measurements (``calibration``);
- Step 3, the search: ``selection``; beside it the leave-one-group-out
  ``cross_validation`` of the calibration; then the ``levers`` that fix a missed target;
- the section assemblers: ``explain`` (serving), ``infrastructure``, ``explain_training``,
  ``optional_sections`` (RAG, CPU);
- the serving chain and the training chain side by side: ``serving_chain``,
  ``training_chain``;
- the orchestrator: ``pipeline.size(scenario, catalog)`` runs the five steps and returns a
  ``SizingResult``.
"""
