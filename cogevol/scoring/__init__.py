"""One scoring layer for every caller: ScoreItem in, Score out, in process, over HTTP or on Ray.

`open_scorers(params)` is the one factory (cogevol.scoring.transports); `Scorers.from_params` is
the same function under the name the architecture notes use, attached here so that the
in-process class does not import the transports that import it.

The scorers load on first use (PEP 562): `cogevol.scoring.types`, `.extract` and the other
light modules import without Chromium's driver, so the training code that only reads
completions runs where Playwright is not installed (the one-GPU smoke run)."""

from importlib import import_module
from typing import TYPE_CHECKING

from cogevol.scoring.types import Score, ScoreItem

if TYPE_CHECKING:  # what the lazy names load; dag.py's dependency walk follows these too
    from cogevol.scoring.local import Scorers, ScoringSettings
    from cogevol.scoring.transports import ScoringConfig, open_scorers

_LAZY = {
    "ScoringConfig": "transports",
    "open_scorers": "transports",
    "Scorers": "local",
    "ScoringSettings": "local",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'cogevol.scoring' has no attribute {name!r}")
    value = getattr(import_module(f"cogevol.scoring.{_LAZY[name]}"), name)
    if name == "Scorers" and not hasattr(value, "from_params"):
        value.from_params = staticmethod(import_module("cogevol.scoring.transports").open_scorers)
    globals()[name] = value
    return value


__all__ = ["Score", "ScoreItem", "Scorers", "ScoringConfig", "ScoringSettings", "open_scorers"]
