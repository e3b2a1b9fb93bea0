"""Everything between a stage and a model: how one is reached (`config`), the request (`client`), the run's
shared side (`hub`), limits, bounded bodies and replies, the response cache, usage, the Batch API,
which stage uses which model (`setup`) and a local server (`local`)."""
