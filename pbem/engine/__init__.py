"""The engine: a game directory replayed step by step (:mod:`pbem.engine.replay`), the one
interface every rules system implements (:mod:`pbem.engine.ruleset`) and the scenario loader
(:mod:`pbem.engine.scenarios`)."""
