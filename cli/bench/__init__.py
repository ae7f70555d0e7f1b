"""``lancards bench TARGET``: the benchmarks (:mod:`.command` dispatches to one module per
target), their per-stage recorder and the machine facts they print beside their figures."""
