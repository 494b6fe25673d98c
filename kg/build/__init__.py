"""``kg build`` as plain functions: plan the parts (``parts``), find mentions and acts in a
pool (``pool``), time the phases (``phases``), and run the build (``run``).

Nothing is imported here, so lower layers (the emitter, the store) can time their phases with
``kg.build.phases`` without loading the build itself.
"""
