"""The OpenAI-compatible client every model endpoint goes through: the judges, the teachers, the
checklist planner and the taxonomy (client: synchronous, with retries; aclient: async, bounded
concurrency; cache: every reply on disk, so a rerun asks nothing twice)."""
