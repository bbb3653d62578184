"""One scoring layer for every caller: ScoreItem in, Score out, in process, over HTTP or on Ray.

`open_scorers(params)` is the one factory (cogevol.scoring.backends); `Scorers.from_params` is
the same function under the name the architecture notes use, attached here so that the
in-process class does not import the backends that import it."""

from cogevol.scoring.backends import ScoringConfig, open_scorers
from cogevol.scoring.local import Scorers, ScoringSettings
from cogevol.scoring.types import Score, ScoreItem

Scorers.from_params = staticmethod(open_scorers)

__all__ = ["Score", "ScoreItem", "Scorers", "ScoringConfig", "ScoringSettings", "open_scorers"]
