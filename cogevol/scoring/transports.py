"""Pick where scoring runs from params.yaml's `scoring` group: in process, a `cogevol serve`
service over HTTP, or scorer actors on a Ray cluster. All three have the same interface as
`Scorers` (score, stream, open, aclose, async with), so distill, GRPO and evaluate run unchanged
on any of them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from cogevol.core.config import from_dict

TRANSPORTS = ("local", "http", "ray")


@dataclass(frozen=True)
class ScoringConfig:
    """params.yaml: scoring (operational: it decides where pages run, never what they score)."""

    transport: str = "local"
    url: str = "http://127.0.0.1:8700"
    token_env: str = "COGEVOL_SCORING_TOKEN"
    timeout_s: float = 900.0
    max_retries: int = 4
    batch_items: int = 64
    serve: dict = field(default_factory=dict)
    ray: dict = field(default_factory=dict)

    @classmethod
    def from_params(cls, d: dict | None) -> ScoringConfig:
        cfg = from_dict(cls, d)
        if cfg.transport not in TRANSPORTS:
            raise ValueError(
                f"scoring.transport must be one of {TRANSPORTS}, got {cfg.transport!r}"
            )
        return cfg


def open_scorers(params: dict | None, workers: int | None = None, screenshots: bool = False):
    """The scorers params.yaml asks for, not yet opened (they open on first use or `async with`).
    `workers` overrides probe.workers for the local transport and for each Ray actor; with
    `screenshots`, Score.images holds each page's first screenshot (in process and on Ray: the
    HTTP service does not send images)."""
    from cogevol.scoring.local import Scorers, ScoringSettings

    params = params or {}
    cfg = ScoringConfig.from_params(params.get("scoring"))
    settings = replace(ScoringSettings.from_params(params, workers), screenshots=screenshots)
    # the service scores with its own settings: the client refuses when they are not ours
    if cfg.transport == "http":
        from cogevol.scoring.fingerprint import fingerprint_parts
        from cogevol.scoring.http_client import HttpScorers

        return HttpScorers.from_config(cfg, expect=fingerprint_parts(settings))
    if cfg.transport == "ray":
        from cogevol.scoring.ray_transport import RayConfig, RayScorers

        return RayScorers(settings, from_dict(RayConfig, cfg.ray))
    return Scorers(settings)
