"""Curation on Ray Data: the session, the keyed exchange every distributed step is built on, and
the input chunks that fix record order. The stages' own distributed code lives beside their
local code (cogevol/traffic, cogevol/dedup, cogevol/curate: `ray_engine.py`)."""
