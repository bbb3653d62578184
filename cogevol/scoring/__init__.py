"""One scoring layer for every caller: ScoreItem in, Score out, in process, over HTTP or on Ray."""

from cogevol.scoring.backends import ScoringConfig, open_scorers
from cogevol.scoring.local import Scorers, ScoringSettings
from cogevol.scoring.types import Score, ScoreItem

__all__ = ["Score", "ScoreItem", "Scorers", "ScoringConfig", "ScoringSettings", "open_scorers"]
